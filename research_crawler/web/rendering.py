"""Whether a page needs a browser (`script_rendering_reason`), and the browser strategy's page logic, apart from the
browser itself: retries, the final URL's checks, and what a render means (its determination). The browser behind the
`Renderer` seam lives in browser_session.py.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

import httpx
from lxml import html as lxml_html

from research_crawler.config.settings import FetchSettings
from research_crawler.context.urls import try_canonicalize_url
from research_crawler.errors import BrowserError
from research_crawler.pages.page import Determination, Page
from research_crawler.web.cookie_jars import browser_cookies, keep_browser_cookies
from research_crawler.web.fetch_progress import FetchProgress
from research_crawler.web.html_body import HTML_MEDIA_TYPES, media_type
from research_crawler.web.page_building import failed_page, html_page
from research_crawler.web.page_expansion import ExpansionBounds, TypedSearch
from research_crawler.web.politeness import HostPoliteness, politeness_key
from research_crawler.web.retries import retry_politely

__all__ = [
    "MAX_SHELL_WORDS",
    "Refusal",
    "Rendered",
    "Renderer",
    "fetch_rendered",
    "script_rendering_reason",
    "typed_search_page",
]

#: Why a URL may not be requested (determination, reason), or None when it may.
Refusal = Callable[[str], Awaitable[tuple[Determination, str] | None]]
#: Failures a render is tried again after (a page too large for the browser would be as large again).
_RETRYABLE = (Determination.TIMEOUT, Determination.NETWORK_ERROR)


@dataclass(frozen=True, slots=True)
class Rendered:
    """What one browser navigation gave: status, headers and rendered HTML, or a failure."""

    final_url: str
    status: int | None
    headers: dict[str, str] = field(default_factory=dict)
    html: str = ""
    failure: str = ""
    failure_kind: Determination | None = None
    cookies: list[dict[str, Any]] = field(default_factory=list)
    """The cookies the tab held when it closed (Playwright's form), for the site's jar."""
    expanded: str = ""
    """What was done in the tab before its HTML was read ("load more" pressed, a search typed), in one line."""

    @property
    def retryable(self) -> bool:
        """The browser failed to load the page (a timeout, a refused connection): worth another attempt. A page too
        large for the browser is not: it would be as large again."""
        return self.failure_kind in _RETRYABLE

    @property
    def summary(self) -> str:
        return self.failure or f"HTTP {self.status}"


class Renderer(Protocol):
    """Loads a URL in a browser tab, runs its JavaScript, and closes the tab, within `timeout_s`. Its page request
    (and redirect hops) must begin on the host's politeness schedule (`HostPoliteness.begin`) as it leaves. The tab
    starts with `cookies`; with `expand`, its "load more" control is pressed within those bounds; with `typed`, that
    search is typed into the page's box and the page it leads to is the one returned."""

    async def render(
        self,
        url: str,
        *,
        timeout_s: float,
        cookies: list[dict[str, Any]] | None = None,
        expand: ExpansionBounds | None = None,
        typed: TypedSearch | None = None,
    ) -> Rendered: ...


async def fetch_rendered(
    url: str,
    *,
    renderer: Renderer,
    politeness: HostPoliteness,
    settings: FetchSettings,
    progress: FetchProgress,
    refuse: Refusal,
    site_url: str | None,
    max_link_text_chars: int,
    jar: httpx.Cookies | None = None,
    expand: ExpansionBounds | None = None,
    typed: TypedSearch | None = None,
) -> Page:
    """Render canonical `url` politely, retried like HTTP, and classify the result.

    The browser follows redirects by itself, so only the final URL can be re-checked (robots.txt,
    allowed hosts); the first URL is checked by the caller before the browser is even started. The tab starts with
    the cookies of `jar` (the site's), which takes back what the page set.
    """
    host = politeness_key(url)

    async def send() -> Rendered:
        # The turn is booked and waited for here; the request itself begins (on the same schedule) when the
        # browser's page request leaves, in the renderer's proxy: the gap is kept from that moment, waited once.
        async with politeness.slot(host, begins_here=False):
            progress.start_clock()
            progress.attempts += 1
            progress.url = url
            left = progress.time_left()
            rendered = await renderer.render(
                url,
                timeout_s=settings.page_deadline_s if left is None else left,
                cookies=browser_cookies(jar) if jar is not None else None,
                expand=expand,
                typed=typed,
            )
        if jar is not None and rendered.cookies:
            keep_browser_cookies(jar, rendered.cookies)
        progress.status = rendered.status
        return rendered

    rendered, give_up = await retry_politely(
        send,
        url=url,
        settings=settings,
        time_left=progress.time_left,
        defer=lambda wait_s: politeness.defer(host, wait_s),
    )

    final_url = try_canonicalize_url(rendered.final_url or url, max_length=settings.max_url_length) or url
    content_type = rendered.headers.get("content-type", "")
    common: dict[str, Any] = {
        "url": url,
        "final_url": final_url,
        "status": rendered.status,
        "content_type": content_type,
        "render": "browser",
        "attempts": progress.attempts,
    }
    reason = rendered.summary + (f" {give_up}" if give_up.startswith("after") else f"; {give_up}" if give_up else "")
    if rendered.failure_kind is not None:
        return failed_page(**common, determination=rendered.failure_kind, reason=reason)
    if final_url != url:
        refusal = await refuse(final_url)
        if refusal is not None:
            return failed_page(**common, determination=refusal[0], reason=f"redirected: {refusal[1]}")
    status = rendered.status
    if status in (404, 410):
        return failed_page(**common, determination=Determination.NOT_FOUND, reason=reason)
    if status is not None and not 200 <= status < 300:
        return failed_page(**common, determination=Determination.HTTP_ERROR, reason=reason)
    declared = media_type(content_type)
    if declared and declared not in HTML_MEDIA_TYPES:
        return failed_page(
            **common, determination=Determination.NON_HTML, reason=f"Content-Type {declared} is not HTML"
        )
    if len(rendered.html.encode("utf-8", errors="replace")) > settings.max_page_bytes:
        return failed_page(
            **common,
            determination=Determination.TOO_LARGE,
            reason=f"the rendered page is larger than {settings.max_page_bytes} bytes",
        )
    # Parsing and Markdown conversion are CPU work: a worker thread, so the event loop keeps serving fetches.
    page = await asyncio.to_thread(
        html_page,
        rendered.html,
        site_url=site_url,
        max_links=settings.max_links_per_page,
        max_link_text_chars=max_link_text_chars,
        **common,
    )
    if rendered.expanded and page.ok:
        reason = f"{page.reason}; {rendered.expanded}" if page.reason else rendered.expanded
        page = page.model_copy(update={"reason": reason})
    return page


async def typed_search_page(
    identity: str,
    page_url: str,
    search: TypedSearch | None,
    render: Callable[[], Awaitable[Page]],
    *,
    browser_off: bool,
) -> Page:
    """The results of a search typed into the page at `page_url` (`render` renders it and types `search`), as the
    page of the search's `identity`; where the results stayed on the form's page, `identity` is their address too.
    Refused, with the reason, when there is nothing to type or no browser to type it in."""
    why = "fetch.render is 'http' (no browser)" if browser_off else "" if search is not None else "no words to type"
    if not why:
        try:
            page = await render()
        except BrowserError as exc:
            why = f"no browser could be started: {exc}"
        else:
            final_url = identity if page.final_url == page_url else page.final_url
            return page.model_copy(update={"url": identity, "final_url": final_url})
    reason = f"the site's search is typed into its page in the browser, and {why}"
    return failed_page(url=identity, final_url=identity, determination=Determination.REFUSED, reason=reason)


# Whether a page fetched over plain HTTP is an empty shell that only a browser would fill in. Used by ``fetch.render =
# "auto"``: every page is fetched over HTTP first, and only a page that says it needs JavaScript *and* shows next to
# no text is fetched again through the browser. Either signal alone is not enough: server-rendered pages often carry a
# "please enable JavaScript" notice for their comments or widgets (PeerJ, ScienceDirect and ACM pages among the saved
# real pages do), and many short pages are simply short.


#: A page with fewer words than this (in its Markdown, link numbers left out) may be a shell.
MAX_SHELL_WORDS = 250
#: An application root left empty for a script to fill in, as single-page-application frameworks ship it.
_APP_ROOT_IDS = frozenset({"root", "app", "__next", "__nuxt", "___gatsby", "svelte"})
_MAX_ROOT_SHELL_WORDS = 30
_JAVASCRIPT = re.compile(r"\bjava\s*script\b", re.IGNORECASE)
_WORD = re.compile(r"[^\W\d_]{2,}")
_LINK_NUMBER = re.compile(r"\[\d+\]")


def script_rendering_reason(html: str, markdown: str) -> str | None:
    """Why the page in `html` (rendered as `markdown`) needs a browser to show its content, or None.

    A shell is a page whose Markdown has fewer than `MAX_SHELL_WORDS` words and that either has a
    ``<noscript>`` notice mentioning JavaScript, or has an empty application root (``<div id="root">``…)
    and almost no text at all.
    """
    words = len(_WORD.findall(_LINK_NUMBER.sub(" ", markdown)))
    if words >= MAX_SHELL_WORDS or not html.strip():
        return None
    try:
        document = lxml_html.document_fromstring(html)
    except (ValueError, lxml_html.etree.ParserError):
        return None
    for notice in document.iter("noscript"):
        text = " ".join(notice.text_content().split())
        if _JAVASCRIPT.search(text):
            return f"it asks for JavaScript ({text[:80]!r}) and shows only {words} words without it"
    if words < _MAX_ROOT_SHELL_WORDS:
        for element in document.iter():
            if str(element.get("id") or "") in _APP_ROOT_IDS and not element.text_content().strip():
                return f"its application root #{element.get('id')} is empty and it shows only {words} words"
    return None
