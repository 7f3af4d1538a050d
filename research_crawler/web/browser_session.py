"""The browser strategy's browser: Crawl4AI's `AsyncWebCrawler` connected over CDP to one headless Chromium.

The Chromium is a system one that we launch (`browser.py`) or that the user names (``cdp_url``);
Playwright's own browser download is never used. Every tab is opened in our own isolated context and
closed after use, every request of a tab (redirect hops included) goes through the URL guard's proxy
(`guard_proxy.py`), and with an allowlist every sub-resource request is checked against it too. Each render has a
proxy of its own (so its own browser context): the render's page request leaves on its host's schedule, its
tunnels end with it, and concurrent renders never mix their requests (`pacing.py`). What a
render means (retries, final-URL checks, determination) is decided in `rendering.py`; `BrowserSession`
is the `Renderer` behind that seam. A render starts with its site's cookies and hands back what the page set
(`cookie_jars.py`); when asked, it presses the page's "load more" control before the HTML is taken
(`page_expansion.py`), each press on the host's turn, and the data requests that starts must pass robots.txt and
the guard. A render of the browser we launched runs beside its memory bound (`browser_memory.py`): a tab whose
renderer was stopped there, or ran out of its JavaScript heap, or whose proxy cut it at `max_render_bytes`, is
too large; a browser left past its bound is relaunched once no render runs. Crawl4AI's own log calls go to our logger
(`_Crawl4aiLogs`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
from typing import Any

from crawl4ai import AsyncWebCrawler, BrowserConfig, CacheMode, CrawlerRunConfig, ProxyConfig
from crawl4ai.async_logger import AsyncLoggerBase
from rich.console import Console

from research_crawler.config.settings import FetchSettings
from research_crawler.errors import BrowserError
from research_crawler.pages.page import Determination
from research_crawler.web.browser import ChromiumProcess, launch_chromium
from research_crawler.web.browser_memory import MemoryBound
from research_crawler.web.guard_proxy import GuardProxy
from research_crawler.web.pacing import RenderPacing
from research_crawler.web.page_expansion import Expansion, ExpansionBounds, TypedSearch, expand, type_search
from research_crawler.web.politeness import HostPoliteness, politeness_key
from research_crawler.web.rendering import Rendered
from research_crawler.web.request_gate import RequestGate
from research_crawler.web.url_guard import UrlGuard

__all__ = ["BrowserSession"]

logger = logging.getLogger(__name__)

_TAB_CLOSE_TIMEOUT_S = 5.0
_BROWSER_CLOSE_TIMEOUT_S = 15.0
_NET_ERROR = re.compile(r"net::ERR_[A-Z_]+")
_DATA_REQUESTS = frozenset({"xhr", "fetch"})
_CRAWL4AI_MARKER_COOKIE = "cookiesEnabled"
#: How Playwright says a tab's renderer ended under it (stopped at the memory bound, or out of its JavaScript heap).
_CRASHED = re.compile(r"Target crashed|Page crashed", re.IGNORECASE)
_BROWSER_TIMEOUT = re.compile(r"Timeout \d+ms exceeded|TimeoutError", re.IGNORECASE)


class BrowserSession:
    """Crawl4AI's AsyncWebCrawler over CDP to one Chromium, with every tab it opens closed after use."""

    def __init__(
        self,
        *,
        settings: FetchSettings,
        gate: RequestGate,
        guard: UrlGuard,
        politeness: HostPoliteness,
        closed_proxy: GuardProxy,
    ) -> None:
        self._crawler: AsyncWebCrawler | None = None
        self._chromium: ChromiumProcess | None = None
        self._settings = settings
        self._gate = gate
        self._guard = guard
        self._politeness = politeness
        self._closed_proxy = closed_proxy
        self._tabs: dict[int, Any] = {}
        self._pacings: dict[int, RenderPacing] = {}
        #: Per render (by its config's id): the cookies it starts with, its expansion's bounds and what it did.
        self._cookies_in: dict[int, list[dict[str, Any]]] = {}
        self._bounds: dict[int, tuple[str, ExpansionBounds]] = {}
        self._expanded: dict[int, Expansion] = {}
        #: Per render of a search typed into its page: the words and box, then what came of it (None: it worked).
        self._typed: dict[int, tuple[str, TypedSearch]] = {}
        self._typed_out: dict[int, tuple[str, str | None]] = {}
        self._cookies_out: dict[int, list[dict[str, Any]]] = {}
        #: The memory bound of a browser we launched (one given by cdp_url is not ours to stop), and the renders
        #: whose tab crashed (its renderer stopped at that bound, or out of its JavaScript heap).
        self._memory: MemoryBound | None = None
        self._crashed: set[int] = set()
        #: Renders in flight, and whether a render may start (cleared while a worn-out browser is relaunched).
        self._active = 0
        self._ready = asyncio.Event()
        self._ready.set()
        #: How many times the browser was relaunched because it stayed past its memory bound.
        self.relaunches = 0

    @classmethod
    async def open(
        cls, settings: FetchSettings, *, gate: RequestGate, guard: UrlGuard, politeness: HostPoliteness
    ) -> BrowserSession:
        """Start (or connect to) the browser; each page's request will begin on `politeness`'s schedule."""
        # The browser's own traffic (update checks, account lookups…) goes to a proxy that lets nothing out.
        closed_proxy = await GuardProxy(guard, refuse_all=True).start()
        session = cls(settings=settings, gate=gate, guard=guard, politeness=politeness, closed_proxy=closed_proxy)
        try:
            await session._start()
        except BaseException:
            await closed_proxy.aclose()
            raise
        return session

    async def _start(self) -> None:
        """Launch our Chromium (or take the one at cdp_url) and drive it with Crawl4AI over CDP."""
        settings = self._settings
        chromium: ChromiumProcess | None = None
        if settings.cdp_url:
            cdp_url = settings.cdp_url
        else:
            chromium = await launch_chromium(settings, proxy_url=self._closed_proxy.url)
            cdp_url = chromium.cdp_url
        try:
            config = BrowserConfig(
                browser_type="chromium",
                headless=True,
                cdp_url=cdp_url,
                # Disconnect and stop Playwright's driver on close; the browser is closed by us (or not ours).
                cdp_cleanup_on_close=True,
                cdp_close_delay=0,
                # Our own tabs in our own context: never navigate a user's tabs, and every tab gets closed.
                create_isolated_context=True,
                user_agent=settings.user_agent,
                ignore_https_errors=False,
                accept_downloads=False,
                verbose=False,
            )
            if not config.headers.get("sec-ch-ua"):
                config.headers.pop("sec-ch-ua", None)  # no client hints for a non-browser User-Agent
            crawler = AsyncWebCrawler(config=config, logger=_Crawl4aiLogs())
            crawler.crawler_strategy.set_hook("on_page_context_created", self._on_tab)
            crawler.crawler_strategy.set_hook("before_retrieve_html", self._before_html)
            crawler.crawler_strategy.set_hook("before_return_html", self._after_html)
            await crawler.start()
        except BaseException as exc:
            if chromium is not None:
                await chromium.close()
            if isinstance(exc, Exception):
                raise BrowserError(f"cannot drive the browser at {cdp_url} over CDP: {exc}") from exc
            raise
        self._crawler, self._chromium = crawler, chromium
        if chromium is not None:
            self._memory = MemoryBound(chromium, max_mb=settings.browser_max_memory_mb)

    async def _relaunch(self) -> None:
        """Replace a browser that stays past its memory bound with a fresh one; no render runs meanwhile."""
        self._ready.clear()
        try:
            logger.warning("the browser stays past its memory bound with no page left to stop: it is relaunched")
            await self._stop_browser()
            self.relaunches += 1
            await self._start()
        except BrowserError as exc:  # the next render says so; this one's page is kept
            logger.warning("relaunching the browser failed: %s", exc)
        finally:
            self._ready.set()

    async def _on_tab(self, page: Any, context: Any = None, config: Any = None, **_: Any) -> Any:
        if config is not None:
            self._tabs[id(config)] = page
            key = id(config)
            page.on("crash", lambda crashed: self._note_crash(key, crashed))
            pacing = self._pacings.get(id(config))
            if pacing is not None:
                page.on("response", lambda response: _note_document(page, pacing, response))
        if self._gate.has_allowlist:
            await page.route("**/*", self._guard_request)
        cookies = self._cookies_in.get(id(config)) if config is not None else None
        if cookies and context is not None:
            with contextlib.suppress(Exception):  # a cookie the browser refuses is not worth the page
                await context.add_cookies(cookies)
        return page

    async def _after_html(self, page: Any = None, context: Any = None, config: Any = None, **_: Any) -> Any:
        """Keep the cookies the tab holds once its HTML is taken (for the site's jar), but Crawl4AI's own marker,
        which it adds to every context and the site never set."""
        if config is not None and context is not None:
            with contextlib.suppress(Exception):
                held = await context.cookies()
                self._cookies_out[id(config)] = [c for c in held if c.get("name") != _CRAWL4AI_MARKER_COOKIE]
        return page

    async def _before_html(self, page: Any, context: Any = None, config: Any = None, **_: Any) -> Any:
        """Before the tab's HTML is taken: type the search this render asked for into the page's box, or press the
        page's "load more" control, when asked. What the page's script then requests obeys robots.txt too."""
        if config is None:
            return page
        key = id(config)
        asked, typed = self._bounds.get(key), self._typed.get(key)
        if asked is None and typed is None:
            return page

        async def script_request(route: Any) -> None:
            request = route.request
            leaves = request.resource_type in _DATA_REQUESTS or (typed is not None and request.is_navigation_request())
            if leaves and (refusal := await self._gate.refusal(request.url)) is not None:
                if typed is not None and request.is_navigation_request():
                    self._typed_out[key] = (page.url, f"its results page {request.url} is refused: {refusal[1]}")
                await route.abort("blockedbyclient")
            else:
                await route.fallback()

        url = next(entry[0] for entry in (typed, asked) if entry is not None)
        host = politeness_key(url)
        try:
            await page.route("**/*", script_request)
            if typed is not None:
                why = await type_search(
                    page, typed[1], pace=lambda: self._politeness.begin(host), timeout_s=self._settings.page_deadline_s
                )
                self._typed_out.setdefault(key, (page.url, why))
            elif asked is not None:
                bounds = asked[1]
                self._expanded[key] = await expand(page, bounds=bounds, pace=lambda: self._politeness.begin(host))
        except Exception as exc:  # the page as it is, unexpanded, is still worth reading
            logger.debug("acting on %s before reading it failed: %s", url, exc)
            if typed is not None:
                self._typed_out.setdefault(key, (url, "its search box could not be used"))
        return page

    async def _guard_request(self, route: Any) -> None:
        # Sub-resources and script requests must not reach hosts a fetch could not.
        url = route.request.url
        if url.startswith(("http://", "https://")) and not self._gate.host_allowed(url):
            await route.abort("blockedbyclient")
        else:
            await route.continue_()

    async def render(
        self,
        url: str,
        *,
        timeout_s: float,
        cookies: list[dict[str, Any]] | None = None,
        expand: ExpansionBounds | None = None,
        typed: TypedSearch | None = None,
    ) -> Rendered:
        """Load `url` in a fresh tab of a context of its own, through a proxy of its own that lets its page request
        leave on its host's schedule; the tab and the proxy (every connection of the render) are closed whatever
        happens. The tab starts with `cookies`; with `expand`, its "load more" control is pressed within those
        bounds before its HTML is taken; with `typed`, that search is typed into the page and its results are the
        page returned. A browser left past its memory bound is relaunched once no render runs."""
        while not self._ready.is_set():
            await self._ready.wait()
        self._active += 1
        try:
            return await self._render(url, timeout_s=timeout_s, cookies=cookies, expand=expand, typed=typed)
        finally:
            self._active -= 1
            if self._memory is not None and self._memory.worn_out and self._active == 0 and self._ready.is_set():
                await self._relaunch()

    async def _render(
        self,
        url: str,
        *,
        timeout_s: float,
        cookies: list[dict[str, Any]] | None,
        expand: ExpansionBounds | None,
        typed: TypedSearch | None,
    ) -> Rendered:
        if self._crawler is None:
            raise BrowserError("the browser could not be relaunched after it passed its memory bound")
        pacing = RenderPacing(self._politeness.begin_send, self._politeness.sent)
        proxy = await GuardProxy(
            self._guard,
            connect_timeout_s=self._settings.connect_timeout_s,
            idle_timeout_s=self._settings.page_deadline_s,
            pacing=pacing,
            max_bytes=self._settings.max_render_bytes,
        ).start()
        config = CrawlerRunConfig(
            cache_mode=CacheMode.BYPASS,
            wait_until=self._settings.browser_wait_until,
            page_timeout=max(1, int(timeout_s * 1000)),
            delay_before_return_html=self._settings.browser_wait_s,
            check_robots_txt=False,  # ours was checked before
            # Every request of the tab, redirect hops included, goes through the URL guard's proxy.
            # A proxy address of its own gives the render a browser context of its own (Crawl4AI keys contexts by
            # their proxy), so its requests reach this proxy only.
            proxy_config=ProxyConfig(server=proxy.url),
            verbose=False,
        )
        key = id(config)
        self._pacings[key] = pacing
        if cookies:
            self._cookies_in[key] = cookies
        if typed is not None:
            self._typed[key] = (url, typed)
        elif expand is not None:
            self._bounds[key] = (url, expand)
        watch = asyncio.create_task(self._memory.watch()) if self._memory is not None else None
        try:
            result = await self._crawler.arun(url, config=config)
        finally:
            if watch is not None:
                watch.cancel()
                await asyncio.gather(watch, return_exceptions=True)
            crashed = key in self._crashed
            try:
                await self._close_tab(config)
            finally:
                self._pacings.pop(key, None)
                self._crashed.discard(key)
                self._cookies_in.pop(key, None)
                self._bounds.pop(key, None)
                expansion = self._expanded.pop(key, None)
                self._typed.pop(key, None)
                typed_out = self._typed_out.pop(key, None)
                cookies_out = self._cookies_out.pop(key, [])
                await proxy.aclose()
        headers = {str(k).lower(): str(v) for k, v in (result.response_headers or {}).items()}
        crashed = crashed or (not result.html and bool(_CRASHED.search(result.error_message or "")))
        if crashed or proxy.overflowed:  # too large for the browser: never retried, never read
            return Rendered(url, None, headers, failure=self._too_large(crashed), failure_kind=Determination.TOO_LARGE)
        html = result.html or ""
        status = result.status_code
        if status is None and not html:
            message = result.error_message or "the browser returned no page"
            kind = Determination.TIMEOUT if _BROWSER_TIMEOUT.search(message) else Determination.NETWORK_ERROR
            return Rendered(url, None, headers, failure=_browser_failure(message), failure_kind=kind)
        note = expansion.note if expansion is not None else ""
        if typed is not None:
            address, why = typed_out or (url, "its search box could not be used")
            if why is not None:
                return Rendered(
                    url, status, headers, failure=f"the site's search: {why}", failure_kind=Determination.REFUSED
                )
            return Rendered(
                address,
                status,
                headers,
                html=html,
                cookies=cookies_out,
                expanded=f"searched in the browser: typed {typed.words!r} into {typed.selector} and pressed Enter",
            )
        return Rendered(result.redirected_url or url, status, headers, html=html, cookies=cookies_out, expanded=note)

    def _note_crash(self, key: int, page: Any) -> None:
        """A tab's renderer ended while its render runs. A crash after the render is over (a tab closed while its
        script spins) is no page's: `key`, an id, may already be another render's, whose tab is another."""
        if self._tabs.get(key) is page:
            self._crashed.add(key)

    def _too_large(self, crashed: bool) -> str:
        if not crashed:
            return f"the page and what it loads passed {self._settings.max_render_bytes} bytes: its render was cut"
        if self._memory is None:
            return "the page crashed its tab in the browser (out of memory)"
        bound = self._settings.browser_max_memory_mb
        return f"the page took more memory in the browser than a page may ({bound} MB, its scripts {bound // 2} MB)"

    async def _close_tab(self, config: Any) -> None:
        page = self._tabs.pop(id(config), None)
        if page is None:
            return
        with contextlib.suppress(Exception):
            if not page.is_closed():
                await asyncio.wait_for(page.close(), _TAB_CLOSE_TIMEOUT_S)

    async def close(self) -> None:
        try:
            await self._stop_browser()
        finally:
            await self._closed_proxy.aclose()

    async def _stop_browser(self) -> None:
        crawler, chromium, self._crawler, self._chromium, self._memory = self._crawler, self._chromium, None, None, None
        try:
            if crawler is not None:
                await asyncio.wait_for(crawler.close(), _BROWSER_CLOSE_TIMEOUT_S)
        except Exception as exc:  # the browser is ended below whatever state its driver is in
            logger.warning("closing the browser connection failed: %s", exc)
        finally:
            if chromium is not None:
                await chromium.close()


class _Crawl4aiLogs(AsyncLoggerBase):
    """Crawl4AI's log calls, sent to our logger at debug level instead of its own console.

    Its console is muted: Crawl4AI prints an advertising banner through it on start, which has no place
    in our output (stdout belongs to the CLI).
    """

    def __init__(self) -> None:
        self.verbose = False
        self.console = Console(quiet=True)

    def _log(self, level: int, message: str, tag: str, params: dict[str, Any] | None = None) -> None:
        if logger.isEnabledFor(level):
            text = message
            if params:
                with contextlib.suppress(KeyError, IndexError, ValueError):
                    text = message.format(**params)
            logger.log(level, "crawl4ai [%s] %s", tag, text)

    def debug(self, message: str, tag: str = "DEBUG", **kwargs: Any) -> None:
        self._log(logging.DEBUG, message, tag, kwargs.get("params"))

    def info(self, message: str, tag: str = "INFO", **kwargs: Any) -> None:
        self._log(logging.DEBUG, message, tag, kwargs.get("params"))

    def success(self, message: str, tag: str = "SUCCESS", **kwargs: Any) -> None:
        self._log(logging.DEBUG, message, tag, kwargs.get("params"))

    def warning(self, message: str, tag: str = "WARNING", **kwargs: Any) -> None:
        self._log(logging.DEBUG, message, tag, kwargs.get("params"))

    def error(self, message: str, tag: str = "ERROR", **kwargs: Any) -> None:
        # Failures reach the caller as the page's determination; here they are detail for debugging.
        self._log(logging.DEBUG, message, tag, kwargs.get("params"))

    def url_status(self, url: str, success: bool, timing: float, tag: str = "FETCH", url_length: int = 100) -> None:
        self._log(logging.DEBUG, f"{url[:url_length]} {'ok' if success else 'failed'} in {timing:.2f} s", tag)

    def error_status(self, url: str, error: str, tag: str = "ERROR", url_length: int = 100) -> None:
        self._log(logging.DEBUG, f"{url[:url_length]}: {error}", tag)


def _note_document(page: Any, pacing: RenderPacing, response: Any) -> None:
    """Tell `pacing` when the tab's document arrived: the main frame's navigation answered with no redirect."""
    with contextlib.suppress(Exception):  # a page closing meanwhile: nothing left to pace
        request = response.request
        redirect = 300 <= response.status < 400 and response.status != 304
        if request.is_navigation_request() and response.frame == page.main_frame and not redirect:
            pacing.document_arrived()


def _browser_failure(message: str) -> str:
    """A one-line reason from Crawl4AI's multi-line error text."""
    net_error = _NET_ERROR.search(message)
    if net_error:
        return f"browser navigation failed: {net_error.group(0)}"
    if _BROWSER_TIMEOUT.search(message):
        return "browser navigation timed out"
    for line in message.splitlines():
        line = line.strip()
        if line.startswith("Error:"):
            return f"browser error: {line.removeprefix('Error:').strip()[:200]}"
    return f"browser error: {message.strip().splitlines()[0][:200] if message.strip() else 'unknown'}"
