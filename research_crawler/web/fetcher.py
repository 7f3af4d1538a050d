"""Fetching pages: `Fetcher` turns a URL into a `Page` over plain HTTP, through the browser, or "auto".

Plain-HTTP pages go through our own transport (`http_transport.py`, which says why it is not Crawl4AI's); Crawl4AI does
the page work: HTML→Markdown (`html_to_markdown`) and the browser — `AsyncWebCrawler` over CDP to a headless system
Chromium (`browser_session.py`, started once per fetcher when a page first needs it).

Every request, HTTP or browser, and every redirect hop passes the URL guard (`url_guard.py`, SSRF): only http(s), no
credentials in URLs, no address that is not public unless `FetchSettings.allowed_hosts` (or the `allowed_hosts` given
here) names the host — and the connection goes to the address that was checked. The browser reaches the web only through
the guard's proxy (`guard_proxy.py`). What a render means (retries, final-URL checks, determination) is decided in
`rendering.py`, behind the `Renderer` seam.

A page that only asks for consent (a cookie notice, "continue to site", a region chooser) is passed the way a person
passes it (`interstitials.py`): its form submitted or its continue link followed, through the same checks and pace, the
cookie it sets kept in the site's own jar for the run (`cookie_jars.py`), and the page asked for again. A site search
(`submit`) goes the same way: by POST over HTTP, or typed into its page's box in the browser. A script's shell that
stays empty is read from the data its script loads (`shell_data.py`). Expected outcomes of the web are data, never
exceptions: every `fetch` returns a `Page` whose `determination` says what happened, a URL that cannot be canonicalised
included (``http_error``, its reason starting "invalid URL:"). Only misconfiguration raises: `BrowserError` when a
browser page is needed and no Chromium can be used.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import time
from collections.abc import Callable, Iterable
from typing import get_args

import httpx

from research_crawler.config.settings import FetchSettings, PageViewSettings, RenderMode
from research_crawler.context.urls import canonicalize_url, try_canonicalize_url
from research_crawler.errors import BrowserError, InvalidURLError
from research_crawler.pages.html_forms import FormSubmission, submission_identity
from research_crawler.pages.page import Determination, Page
from research_crawler.web import fetch_progress
from research_crawler.web.browser_session import BrowserSession
from research_crawler.web.cookie_jars import SiteCookies
from research_crawler.web.fetch_progress import FetchProgress
from research_crawler.web.http_transport import HttpTransport
from research_crawler.web.interstitials import pass_interstitial
from research_crawler.web.page_building import (
    DEFAULT_LINK_TEXT_CHARS,
    LISTING_TYPES,
    failed_page,
    page_from_file,
    page_from_response,
)
from research_crawler.web.page_expansion import ExpansionBounds, TypedSearch, expansion_signal
from research_crawler.web.page_store import PageCache, RevisitCache
from research_crawler.web.politeness import HostPoliteness
from research_crawler.web.raw_response import HopStop, RawResponse
from research_crawler.web.rendering import fetch_rendered, script_rendering_reason, typed_search_page
from research_crawler.web.request_gate import RequestGate
from research_crawler.web.robots import RobotsCache
from research_crawler.web.shared_politeness import SharedPoliteness
from research_crawler.web.shell_data import with_script_data
from research_crawler.web.url_guard import Resolver, UrlGuard

__all__ = ["Fetcher", "RawResponse", "page_from_file"]

logger = logging.getLogger(__name__)

#: RFC 9309 §2.3.1.2: crawlers should follow at least five redirects for robots.txt.
_ROBOTS_REDIRECTS = 5


class Fetcher:
    """Fetches pages politely and caches them: each canonical URL is fetched at most once per Fetcher. Use it as an
    async context manager; leaving it closes the HTTP client and the browser (the Chromium processes it started are
    gone afterwards). `site_render` picks the strategy per site (the site URL, or the page URL when no site is given,
    goes in); an explicit `render` argument wins over it, and `settings.render` applies when neither is given.
    `allowed_hosts`, when given, is the only set of hosts (host[:port], ``www.`` ignored) that any request or
    redirect hop may reach; those hosts, and `settings.allowed_hosts`, are also exempt from the URL guard's address
    rules. `resolver` replaces the system's name resolution (tests)."""

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
        self._cookies = SiteCookies()
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
            self._cookies.clear()
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
        """Fetch `url` (canonicalised first) and return its `Page`; never raises for outcomes of the web. A cached page
        is returned without a request; concurrent calls for one URL share one fetch. `site_url` is the site being
        explored: links are judged same-site against it."""
        canonical = self._canonical(url)
        if isinstance(canonical, tuple):
            return failed_page(
                url=str(url)[:300], final_url=str(url)[:300], determination=canonical[0], reason=canonical[1]
            )
        mode = self._render_mode(canonical, render=render, site_url=site_url)
        cached = self._cache.get(canonical, render=None if render == "auto" else render)
        if cached is not None:
            return cached
        return await self._cache.get_or_fetch(canonical, mode, lambda: self._fetch_new(canonical, mode, site_url))

    async def submit(self, form: FormSubmission, *, site_url: str | None = None) -> Page:
        """Submit a site's search form, return the results page (cached under `submission_identity(form)`); never
        raises for outcomes of the web. A GET or POST goes over plain HTTP (a browser cannot be handed a POST to
        load); a TYPE opens its page in the browser and types the words into its box (refused without a browser)."""
        if form.method == "GET":
            return await self.fetch(form.url, render="http", site_url=site_url)
        action, identity = self._canonical(form.action), self._canonical(submission_identity(form))
        for why in (action, identity):
            if isinstance(why, tuple):
                return failed_page(
                    url=form.action[:300], final_url=form.action[:300], determination=why[0], reason=why[1]
                )
        assert isinstance(action, str) and isinstance(identity, str)
        if (cached := self._cache.get(identity)) is not None:
            return cached
        sent = FormSubmission(form.method, action, form.fields)
        mode: RenderMode = "browser" if form.method == "TYPE" else "http"
        return await self._cache.get_or_fetch(
            identity, mode, lambda: self._fetch_new(identity, mode, site_url, form=sent)
        )

    async def sitemaps(self, url: str) -> list[str]:
        """The sitemaps the robots.txt of `url`'s site names (fetched once, like every robots.txt); [] without."""
        if not self._settings.obey_robots or isinstance(canonical := self._canonical(url), tuple):
            return []
        return await self._robots.sitemaps(canonical)

    async def robots_refusal(self, url: str) -> str | None:
        """Why robots.txt forbids `url` (read once per site); None when allowed or robots.txt is not obeyed."""
        if not self._settings.obey_robots or isinstance(canonical := self._canonical(url), tuple):
            return None
        verdict = await self._robots.check(canonical)
        return None if verdict.allowed else verdict.reason or "robots.txt forbids it"

    def requested(self, url: str) -> bool:
        """Whether a fetch of `url` in flight has sent its request (it is then left to finish when given up)."""
        return self._cache.requested(try_canonicalize_url(url, max_length=self._settings.max_url_length) or url)

    async def abandon(self, url: str) -> None:
        """Stop a fetch of `url` that no caller waits for any more (a page fetched ahead and not chosen)."""
        if (canonical := try_canonicalize_url(url, max_length=self._settings.max_url_length)) is not None:
            await self._cache.abandon(canonical)

    async def fetch_raw(self, url: str, *, max_bytes: int | None = None) -> RawResponse:
        """GET a document that need not be HTML (robots.txt, OpenSearch descriptions): status, headers, bytes. Same
        politeness, robots.txt, redirect, retry and deadline rules as pages; not cached. The body is capped at
        `max_bytes` (default: the page cap); a longer one is ``too_large``."""
        canonical = self._canonical(url)
        if isinstance(canonical, tuple):
            shown = str(url)[:300]
            return RawResponse(url=shown, final_url=shown, status=None, determination=canonical[0], reason=canonical[1])
        return await self._raw(
            canonical,
            max_bytes=max_bytes or self._settings.max_page_bytes,
            allow_truncated=False,
            max_redirects=self._settings.max_redirects,
            obey_robots=True,
        )

    def _canonical(self, url: str) -> str | tuple[Determination, str]:
        """`url` canonicalised, or why it cannot be requested at all (the guard's fixed rules, an invalid URL)."""
        if self._closed:
            raise RuntimeError("this Fetcher is closed")
        refusal = self._guard.static_refusal(url)
        if refusal is not None:
            return Determination.REFUSED, refusal
        try:
            return canonicalize_url(url, max_length=self._settings.max_url_length)
        except InvalidURLError as exc:
            return Determination.HTTP_ERROR, f"invalid URL: {exc}"

    def _render_mode(self, url: str, *, render: RenderMode | None, site_url: str | None) -> RenderMode:
        mode = render
        if mode is None and self._site_render is not None:
            mode = self._site_render(site_url or url)
        mode = mode or self._settings.render
        if mode not in get_args(RenderMode):
            raise ValueError(f"render must be 'http', 'browser' or 'auto', not {mode!r}")
        return mode

    # -- one page -------------------------------------------------------------------------------

    async def _fetch_new(
        self, url: str, mode: RenderMode, site_url: str | None, *, form: FormSubmission | None = None
    ) -> Page:
        started = time.monotonic()
        progress = FetchProgress(deadline_s=self._settings.page_deadline_s, on_start=lambda: self._cache.started(url))
        scope: asyncio.Timeout | None = None
        try:
            async with asyncio.timeout(None) as scope:
                progress.bind(scope)
                if mode == "browser":
                    page = await self._fetch_browser(url, site_url, progress, typed=form)
                else:
                    page = await self._fetch_http(url, site_url, progress, form=form)
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
                f"({fetch_progress.attempts_text(progress.attempts)} made){fetch_progress.stopping_took(scope, mode)}",
                render="http" if mode == "auto" else mode,
                attempts=progress.attempts,
            )
        return page.model_copy(update={"elapsed_s": time.monotonic() - started})

    async def _fetch_http(
        self, url: str, site_url: str | None, progress: FetchProgress, *, form: FormSubmission | None = None
    ) -> Page:
        cookies = self._cookies.jar(url, site_url)
        conditional = self._revisits is not None and form is None
        raw = await self._http_get(url, progress, conditional=conditional, cookies=cookies, form=form)
        if raw.status == 304 and self._revisits is not None:
            kept = await self._revisits.unchanged_page(url, raw.final_url, attempts=raw.attempts)
            if kept is not None:  # unchanged since it was kept: nothing downloaded
                return kept
            raw = await self._http_get(url, progress, conditional=False, cookies=cookies)  # the copy went meanwhile
        page = await self._http_page(raw, url, site_url, form=form)
        page = await pass_interstitial(
            page,
            url=url,
            send=lambda way: self._send_form(way, site_url, progress, cookies),
            again=lambda: self._request_page(url, site_url, progress, cookies, form),
        )
        if self._revisits is not None and page.ok and form is None:
            await asyncio.to_thread(self._revisits.put, page, raw.headers)
        return page

    async def _send_form(
        self, way: FormSubmission, site_url: str | None, progress: FetchProgress, cookies: httpx.Cookies
    ) -> Page:
        """The request that passes a notice (its form or its continue link), checked like any page request."""
        target = try_canonicalize_url(way.url, max_length=self._settings.max_url_length)
        if target is None:
            reason = "invalid URL: the way through cannot be requested"
            return failed_page(
                url=way.url[:300], final_url=way.url[:300], determination=Determination.REFUSED, reason=reason
            )
        form = FormSubmission("POST", target, way.fields) if way.method == "POST" else None
        return await self._request_page(target, site_url, progress, cookies, form)

    async def _request_page(
        self,
        url: str,
        site_url: str | None,
        progress: FetchProgress,
        cookies: httpx.Cookies,
        form: FormSubmission | None,
    ) -> Page:
        """`url` requested (the `form` posted to it) with the site's cookies, and its page."""
        raw = await self._http_get(url, progress, conditional=False, cookies=cookies, form=form)
        return await self._http_page(raw, url, site_url, form=form)

    async def _http_page(
        self, raw: RawResponse, url: str, site_url: str | None, *, form: FormSubmission | None = None
    ) -> Page:
        """The page for what a request of `url` brought back (a redirect to a page already fetched gives that)."""
        if raw.known_target:
            known = self._cache.get(raw.final_url)
            if known is None:  # pragma: no cover - the cache never forgets a page
                raise AssertionError(f"{raw.final_url} was reported cached but is not")
            logger.debug("%s redirects to the already fetched %s", url, raw.final_url)
            return known.model_copy(update={"url": url, "attempts": raw.attempts})
        # Parsing and Markdown conversion are CPU work: a worker thread, so the event loop keeps serving fetches.
        if form is not None and raw.final_url == form.action:
            # A POST answered in place: its page is the search it made, not the bare action URL.
            raw = dataclasses.replace(raw, final_url=url)
        return await asyncio.to_thread(
            page_from_response,
            raw,
            url=url,
            site_url=site_url,
            max_links=self._settings.max_links_per_page,
            max_link_text_chars=self._max_link_text_chars,
        )

    async def _http_get(
        self,
        url: str,
        progress: FetchProgress,
        *,
        conditional: bool,
        cookies: httpx.Cookies | None = None,
        form: FormSubmission | None = None,
    ) -> RawResponse:
        return await self._http.get(
            form.action if form is not None else url,
            max_bytes=self._settings.max_page_bytes,
            max_redirects=self._settings.max_redirects,
            check_hop=self._check_page_hop,
            progress=progress,
            conditional=self._revisits.conditional_headers if conditional and self._revisits is not None else None,
            form_body=form.body if form is not None else None,
            cookies=cookies,
            cut_types=LISTING_TYPES,
        )

    async def _render_if_needed(self, page: Page, site_url: str | None, progress: FetchProgress) -> Page:
        """`page` (fetched over HTTP), or the same URL through the browser when `page` is a script-rendered
        shell or holds a list its script loads more of ("load more"). Without a usable browser, or when the browser
        cannot read it, `page` is kept and its reason says what was missed; a shell still empty, or a list whose
        script names its next batches, is read from the data its script loads (`shell_data.py`)."""
        if not page.ok or page.render != "http":
            return page
        why = await asyncio.to_thread(script_rendering_reason, page.html, page.markdown)
        pressed = self._settings.load_more_presses
        more = None if why or not pressed else await asyncio.to_thread(expansion_signal, page.html)
        limits = {"max_links": self._settings.max_links_per_page, "max_link_text_chars": self._max_link_text_chars}
        if why is None and more is None:  # shown whole, or a list read on from the batches its script loads
            return await with_script_data(page, page.html, fetch_raw=self.fetch_raw, site_url=site_url, **limits)
        shown = None
        if self._no_browser is None:
            try:
                rendered = await self._fetch_browser(page.final_url, site_url, progress)
            except BrowserError as exc:
                self._no_browser = str(exc)
                logger.warning("pages that need JavaScript are read without it: no browser could be started: %s", exc)
            else:
                shown = fetch_progress.rendered_in_place_of(page, rendered, why or f"it has {more}")
        note = f"needs JavaScript, no browser: {self._no_browser}" if why else f"{more} not pressed: no browser"
        shown = shown or page.model_copy(update={"reason": fetch_progress.joined(page.reason, note)})
        if why is None:
            return shown
        return await with_script_data(shown, page.html, fetch_raw=self.fetch_raw, site_url=site_url, **limits)

    async def _fetch_browser(
        self, url: str, site_url: str | None, progress: FetchProgress, *, typed: FormSubmission | None = None
    ) -> Page:
        """`url` rendered; with `typed`, a search typed into its page (`url` is the search's identity)."""
        target, search = (typed.action, TypedSearch(*typed.fields[0])) if typed and typed.fields else (url, None)
        if (refusal := await self._gate.refusal(target)) is not None:  # refused before any browser is started
            return failed_page(url=url, final_url=url, determination=refusal[0], reason=refusal[1], render="browser")
        jar = self._cookies.jar(target, site_url)

        async def render() -> Page:
            return await fetch_rendered(
                target,
                renderer=await self._browser_session(),
                politeness=self._politeness,
                settings=self._settings,
                progress=progress,
                refuse=self._gate.refusal,
                site_url=site_url,
                max_link_text_chars=self._max_link_text_chars,
                jar=jar,
                expand=ExpansionBounds.of(self._settings) if typed is None else None,
                typed=search,
            )

        if typed is not None:  # its results page stands under `url`, the search's identity
            return await typed_search_page(url, target, search, render, browser_off=self._settings.render == "http")
        send = lambda way: self._send_form(way, site_url, progress, jar)  # noqa: E731 - a notice's way: over HTTP
        return await pass_interstitial(await render(), url=url, send=send, again=render, answer_is_page=False)

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
        progress = FetchProgress(deadline_s=self._settings.page_deadline_s, on_start=lambda: self._cache.started(url))
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
                f"({fetch_progress.attempts_text(progress.attempts)} made)",
                attempts=progress.attempts,
            )

    async def _browser_session(self) -> BrowserSession:
        async with self._browser_lock:
            if self._browser is None:
                self._browser = await BrowserSession.open(
                    self._settings, gate=self._gate, guard=self._guard, politeness=self._politeness
                )
            return self._browser
