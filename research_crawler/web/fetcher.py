"""Fetching pages: `Fetcher` turns a URL into a `Page` over plain HTTP, through the browser, or "auto".

Why the HTTP transport is ours and not Crawl4AI's: its AsyncHTTPCrawlerStrategy (0.9.5) reads whole
bodies with no size cap (``response.read()``), follows redirects without letting us check each hop,
raises on non-2xx and so loses Retry-After, and has no retries. Plain-HTTP pages therefore go through
`http_transport.HttpTransport` (httpx, streamed under the byte cap, ``follow_redirects=False`` and every
hop canonicalised and re-checked against robots.txt and the allowed hosts, http(s) only). Crawl4AI does
the page work: HTML→Markdown (`html_to_markdown`, which the page view uses) and the browser strategy —
`AsyncWebCrawler` connected over CDP to a headless system Chromium (`browser_session.py`, started once per
fetcher when a page first needs it).

Every request, HTTP or browser, and every redirect hop passes the URL guard (`url_guard.py`, SSRF): only
http(s), no credentials in URLs, no address that is not public unless `FetchSettings.allowed_hosts` (or
the `allowed_hosts` given here) names the host — and the connection goes to the address that was
checked. The browser reaches the web only through the guard's proxy (`guard_proxy.py`). What a render means
(retries, final-URL checks, determination) is decided in `rendering.py`, behind the `Renderer` seam.

Expected outcomes of the web are data, never exceptions: every `fetch` returns a `Page` whose
`determination` says what happened. That includes a URL that cannot be canonicalised (bad scheme,
too long, no host): URLs reach the fetcher from pages and agents, so it answers with a page whose
determination is ``http_error`` and whose reason starts with "invalid URL:" for the agent to read.
Only misconfiguration raises: `BrowserError` when a browser page is needed and no Chromium can be used.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable, Iterable
from typing import get_args

import httpx

from research_crawler.config.settings import FetchSettings, PageViewSettings, RenderMode
from research_crawler.context.urls import canonicalize_url
from research_crawler.errors import BrowserError, InvalidURLError
from research_crawler.pages.page import Determination, Page
from research_crawler.web.browser_session import BrowserSession
from research_crawler.web.fetch_progress import FetchProgress
from research_crawler.web.fetch_reasons import attempts_text, joined, rendered_in_place_of, stopping_took
from research_crawler.web.http_transport import HttpTransport
from research_crawler.web.page_building import (
    DEFAULT_LINK_TEXT_CHARS,
    failed_page,
    page_from_file,
    page_from_response,
)
from research_crawler.web.page_cache import PageCache
from research_crawler.web.politeness import HostPoliteness
from research_crawler.web.raw_response import HopStop, RawResponse
from research_crawler.web.rendering import fetch_rendered
from research_crawler.web.request_gate import RequestGate
from research_crawler.web.revisit_cache import RevisitCache
from research_crawler.web.robots import RobotsCache
from research_crawler.web.script_rendering import script_rendering_reason
from research_crawler.web.shared_politeness import SharedPoliteness
from research_crawler.web.url_guard import Resolver, UrlGuard

__all__ = ["Fetcher", "RawResponse", "page_from_file"]

logger = logging.getLogger(__name__)


#: RFC 9309 §2.3.1.2: crawlers should follow at least five redirects for robots.txt.
_ROBOTS_REDIRECTS = 5


class Fetcher:
    """Fetches pages politely and caches them: each canonical URL is fetched at most once per Fetcher.

    Use it as an async context manager; leaving it closes the HTTP client and the browser (the Chromium
    processes it started are gone afterwards). `site_render` picks the strategy per site (the site URL,
    or the page URL when no site is given, goes in); an explicit `render` argument wins over it, and
    `settings.render` applies when neither is given. `allowed_hosts`, when given, is the only set of
    hosts (host[:port], ``www.`` ignored) that any request or redirect hop may reach; those hosts, and
    `settings.allowed_hosts`, are also exempt from the URL guard's address rules. `resolver` replaces
    the system's name resolution (tests).
    """

    def __init__(
        self,
        settings: FetchSettings,
        *,
        page_view: PageViewSettings | None = None,
        site_render: Callable[[str], RenderMode] | None = None,
        allowed_hosts: Iterable[str] | None = None,
        transport: httpx.AsyncBaseTransport | None = None,
        resolver: Resolver | None = None,
        shared: SharedPoliteness | None = None,
        revisits: RevisitCache | None = None,
    ) -> None:
        allowed_hosts = None if allowed_hosts is None else list(allowed_hosts)
        #: Pages kept across runs, asked for conditionally (`revisits`, else fetch.revisit_cache's own file).
        self._own_revisits = revisits is None and settings.revisit_cache
        self._revisits = RevisitCache.from_settings(settings) if self._own_revisits else revisits
        self._settings = settings
        self._max_link_text_chars = page_view.max_link_text_chars if page_view else DEFAULT_LINK_TEXT_CHARS
        self._site_render = site_render
        self._politeness = HostPoliteness(
            delay_s=settings.per_host_delay_s,
            concurrency=settings.per_host_concurrency,
            max_crawl_delay_s=settings.max_crawl_delay_s,
            schedule=shared.schedule if shared is not None else None,
        )
        self._guard = UrlGuard(
            allowed_hosts=[*settings.allowed_hosts, *(allowed_hosts or ())],
            resolver=resolver,
            resolve_timeout_s=settings.connect_timeout_s,
            pin_ttl_s=settings.dns_pin_ttl_s,
        )
        self._http = HttpTransport(settings, politeness=self._politeness, transport=transport, guard=self._guard)
        self._robots = RobotsCache(
            user_agent=settings.user_agent,
            fetch=self._fetch_robots,
            politeness=self._politeness,
            ttl_s=settings.robots_ttl_s,
            retry_s=settings.robots_retry_s,
            shared=shared.robots if shared is not None else None,
        )
        self._gate = RequestGate(
            robots=self._robots if settings.obey_robots else None,
            allowed_hosts=allowed_hosts,
            guard=self._guard,
            max_path_repetition=settings.max_path_repetition,
        )
        self._cache = PageCache()
        self._browser: BrowserSession | None = None
        self._browser_lock = asyncio.Lock()
        #: Why no browser could be started for render="auto" (tried once per fetcher, not once per page).
        self._no_browser: str | None = None
        self._closed = False

    async def __aenter__(self) -> Fetcher:
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.aclose()

    async def aclose(self) -> None:
        """Stop fetches in flight, close the HTTP client and the browser (and its processes)."""
        self._closed = True
        try:
            await self._cache.cancel_pending()
            await self._http.aclose()
        finally:
            browser, self._browser = self._browser, None
            if self._own_revisits and self._revisits is not None:
                self._revisits.close()
            if browser is not None:
                await browser.close()

    @property
    def cache(self) -> PageCache:
        """The pages fetched so far (`get(url)`, `pages()`)."""
        return self._cache

    @property
    def revisits(self) -> RevisitCache | None:
        """The pages kept across runs (None unless fetch.revisit_cache or given)."""
        return self._revisits

    @property
    def politeness(self) -> HostPoliteness:
        """The per-host scheduler (delays, Crawl-delay, concurrency) shared by every request."""
        return self._politeness

    async def fetch(self, url: str, *, render: RenderMode | None = None, site_url: str | None = None) -> Page:
        """Fetch `url` (canonicalised first) and return its `Page`; never raises for outcomes of the web.

        A cached page is returned without a request; concurrent calls for one URL share one fetch.
        `site_url` is the site being explored: links are judged same-site against it.
        """
        if self._closed:
            raise RuntimeError("this Fetcher is closed")
        shown = str(url)[:300]
        refusal = self._guard.static_refusal(url)
        if refusal is not None:
            return failed_page(url=shown, final_url=shown, determination=Determination.REFUSED, reason=refusal)
        try:
            canonical = canonicalize_url(url, max_length=self._settings.max_url_length)
        except InvalidURLError as exc:
            return failed_page(
                url=shown,
                final_url=shown,
                determination=Determination.HTTP_ERROR,
                reason=f"invalid URL: {exc}",
            )
        mode = self._render_mode(canonical, render=render, site_url=site_url)
        cached = self._cache.get(canonical, render=None if render == "auto" else render)
        if cached is not None:
            return cached
        return await self._cache.get_or_fetch(canonical, mode, lambda: self._fetch_new(canonical, mode, site_url))

    async def abandon(self, url: str) -> None:
        """Stop a fetch of `url` that no caller waits for any more (a page fetched ahead and not chosen)."""
        try:
            canonical = canonicalize_url(url, max_length=self._settings.max_url_length)
        except InvalidURLError:
            return
        await self._cache.abandon(canonical)

    async def fetch_raw(self, url: str, *, max_bytes: int | None = None) -> RawResponse:
        """GET a document that need not be HTML (robots.txt, OpenSearch descriptions): status, headers, bytes.

        Same politeness, robots.txt, redirect, retry and deadline rules as pages; not cached. The body is
        capped at `max_bytes` (default: the page cap); a longer one is ``too_large``.
        """
        if self._closed:
            raise RuntimeError("this Fetcher is closed")
        shown = str(url)[:300]
        refusal = self._guard.static_refusal(url)
        if refusal is not None:
            return RawResponse(
                url=shown, final_url=shown, status=None, determination=Determination.REFUSED, reason=refusal
            )
        try:
            canonical = canonicalize_url(url, max_length=self._settings.max_url_length)
        except InvalidURLError as exc:
            return RawResponse(
                url=shown,
                final_url=shown,
                status=None,
                determination=Determination.HTTP_ERROR,
                reason=f"invalid URL: {exc}",
            )
        return await self._raw(
            canonical,
            max_bytes=max_bytes or self._settings.max_page_bytes,
            allow_truncated=False,
            max_redirects=self._settings.max_redirects,
            obey_robots=True,
        )

    def _render_mode(self, url: str, *, render: RenderMode | None, site_url: str | None) -> RenderMode:
        mode = render
        if mode is None and self._site_render is not None:
            mode = self._site_render(site_url or url)
        mode = mode or self._settings.render
        if mode not in get_args(RenderMode):
            raise ValueError(f"render must be 'http', 'browser' or 'auto', not {mode!r}")
        return mode

    # -- one page -------------------------------------------------------------------------------

    async def _fetch_new(self, url: str, mode: RenderMode, site_url: str | None) -> Page:
        started = time.monotonic()
        progress = FetchProgress(deadline_s=self._settings.page_deadline_s)
        scope: asyncio.Timeout | None = None
        try:
            async with asyncio.timeout(None) as scope:
                progress.bind(scope)
                if mode == "browser":
                    page = await self._fetch_browser(url, site_url, progress)
                else:
                    page = await self._fetch_http(url, site_url, progress)
                    if mode == "auto":
                        page = await self._render_if_needed(page, site_url, progress)
        except TimeoutError:
            if scope is None or not scope.expired():
                raise
            page = failed_page(
                url=url,
                final_url=progress.url or url,
                determination=Determination.TIMEOUT,
                reason=f"the page deadline of {self._settings.page_deadline_s:g} s passed "
                f"({attempts_text(progress.attempts)} made){stopping_took(scope, mode)}",
                render="http" if mode == "auto" else mode,
                attempts=progress.attempts,
            )
        return page.model_copy(update={"elapsed_s": time.monotonic() - started})

    async def _fetch_http(self, url: str, site_url: str | None, progress: FetchProgress) -> Page:
        raw = await self._http_get(url, progress, conditional=self._revisits is not None)
        if raw.status == 304 and self._revisits is not None:
            kept = await self._revisits.unchanged_page(url, raw.final_url, attempts=raw.attempts)
            if kept is not None:  # unchanged since it was kept: nothing downloaded
                return kept
            raw = await self._http_get(url, progress, conditional=False)  # the copy went meanwhile: in full
        if raw.known_target:
            known = self._cache.get(raw.final_url)
            if known is None:  # pragma: no cover - the cache never forgets a page
                raise AssertionError(f"{raw.final_url} was reported cached but is not")
            logger.debug("%s redirects to the already fetched %s", url, raw.final_url)
            return known.model_copy(update={"url": url, "attempts": raw.attempts})
        # Parsing and Markdown conversion are CPU work: a worker thread, so the event loop keeps serving fetches.
        page = await asyncio.to_thread(
            page_from_response,
            raw,
            url=url,
            site_url=site_url,
            max_links=self._settings.max_links_per_page,
            max_link_text_chars=self._max_link_text_chars,
        )
        if self._revisits is not None and page.ok:
            await asyncio.to_thread(self._revisits.put, page, raw.headers)
        return page

    async def _http_get(self, url: str, progress: FetchProgress, *, conditional: bool) -> RawResponse:
        return await self._http.get(
            url,
            max_bytes=self._settings.max_page_bytes,
            max_redirects=self._settings.max_redirects,
            check_hop=self._check_page_hop,
            progress=progress,
            conditional=self._revisits.conditional_headers if conditional and self._revisits is not None else None,
        )

    async def _render_if_needed(self, page: Page, site_url: str | None, progress: FetchProgress) -> Page:
        """`page` (fetched over HTTP), or the same URL through the browser when `page` is a script-rendered
        shell. Without a usable browser, or when the browser cannot read it, `page` is kept and its reason
        says what was missed."""
        if not page.ok or page.render != "http":
            return page
        why = await asyncio.to_thread(script_rendering_reason, page.html, page.markdown)
        if why is None:
            return page
        if self._no_browser is None:
            try:
                rendered = await self._fetch_browser(page.final_url, site_url, progress)
            except BrowserError as exc:
                self._no_browser = str(exc)
                logger.warning("pages that need JavaScript are read without it: no browser could be started: %s", exc)
            else:
                return rendered_in_place_of(page, rendered, why)
        note = f"needs JavaScript, no browser: {self._no_browser}"
        return page.model_copy(update={"reason": joined(page.reason, note)})

    async def _fetch_browser(self, url: str, site_url: str | None, progress: FetchProgress) -> Page:
        refusal = await self._gate.refusal(url)
        if refusal is not None:  # refused before any browser is started
            return failed_page(url=url, final_url=url, determination=refusal[0], reason=refusal[1], render="browser")
        return await fetch_rendered(
            url,
            renderer=await self._browser_session(),
            politeness=self._politeness,
            settings=self._settings,
            progress=progress,
            refuse=self._gate.refusal,
            site_url=site_url,
            max_link_text_chars=self._max_link_text_chars,
        )

    # -- checks before each request -------------------------------------------------------------

    async def _check_page_hop(self, url: str, hop: int) -> HopStop | None:
        if hop > 0 and self._cache.get(url) is not None:
            return HopStop(determination=None)
        refusal = await self._gate.refusal(url)
        return None if refusal is None else HopStop(*refusal)

    async def _fetch_robots(self, robots_url: str) -> RawResponse:
        return await self._raw(
            robots_url,
            max_bytes=self._settings.max_robots_bytes,
            allow_truncated=True,
            max_redirects=_ROBOTS_REDIRECTS,
            obey_robots=False,
        )

    async def _raw(
        self, url: str, *, max_bytes: int, allow_truncated: bool, max_redirects: int, obey_robots: bool
    ) -> RawResponse:
        progress = FetchProgress(deadline_s=self._settings.page_deadline_s)
        scope: asyncio.Timeout | None = None

        async def check(hop_url: str, _hop: int) -> HopStop | None:
            refusal = await self._gate.refusal(hop_url, obey_robots=obey_robots)
            return None if refusal is None else HopStop(*refusal)

        try:
            async with asyncio.timeout(None) as scope:
                progress.bind(scope)
                return await self._http.get(
                    url,
                    max_bytes=max_bytes,
                    allow_truncated=allow_truncated,
                    max_redirects=max_redirects,
                    check_hop=check,
                    progress=progress,
                )
        except TimeoutError:
            if scope is None or not scope.expired():
                raise
            return RawResponse(
                url=url,
                final_url=progress.url or url,
                status=None,
                determination=Determination.TIMEOUT,
                reason=f"the deadline of {self._settings.page_deadline_s:g} s passed "
                f"({attempts_text(progress.attempts)} made)",
                attempts=progress.attempts,
            )

    async def _browser_session(self) -> BrowserSession:
        async with self._browser_lock:
            if self._browser is None:
                self._browser = await BrowserSession.open(
                    self._settings, gate=self._gate, guard=self._guard, politeness=self._politeness
                )
            return self._browser
