"""Turning what a fetch brought back into a `Page`: the view of an HTML page, or why there is none.

An Atom or RSS feed and an XML sitemap are pages too: each is shown as the listing it is (`pages/feeds.py`,
`pages/sitemaps.py`), its entries linked, so the agents read it like any listing; a long one is read from its first
part (`LISTING_TYPES`: the fetcher cuts such a body at its byte cap rather than refusing it). A ``non_html`` page
never has Markdown (no LLM reads a PDF as text); a textual document (XML such as an
OpenSearch description, JSON, plain text) keeps its decoded text in `Page.html` for the tools that
parse it. An HTML page that is a bot challenge or a soft 404 (`block_pages.py`) is ``blocked`` whatever its
status: it keeps neither Markdown, links nor HTML, so no agent reads it and no tool takes metadata from it.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

from research_crawler.config.settings import PageViewSettings
from research_crawler.context.urls import canonicalize_url, try_canonicalize_url
from research_crawler.pages.feeds import FEED_TYPES, feed_html, looks_like_feed
from research_crawler.pages.page import BlockedBy, Determination, Page, RenderKind
from research_crawler.pages.sitemaps import looks_like_sitemap, sitemap_html
from research_crawler.pages.view import DEFAULT_LINK_TEXT_CHARS, DEFAULT_MAX_LINKS, PageView, build_page_view
from research_crawler.web.block_pages import detect_block_page
from research_crawler.web.html_body import decode_html, is_textual, non_html_reason
from research_crawler.web.raw_response import RawResponse

__all__ = ["LISTING_TYPES", "failed_page", "html_page", "page_from_file", "page_from_response"]

#: Media types of documents that list pages (feeds, sitemaps): a body longer than the byte cap is read from its start.
LISTING_TYPES = frozenset({"application/xml", "text/xml", *FEED_TYPES})

_HTML_SUFFIXES = (".html", ".htm", ".xhtml")

logger = logging.getLogger(__name__)


def failed_page(
    *,
    url: str,
    final_url: str,
    determination: Determination,
    reason: str,
    status: int | None = None,
    render: RenderKind = "http",
    content_type: str = "",
    attempts: int = 0,
    html: str = "",
    blocked_by: BlockedBy | None = None,
) -> Page:
    """A page without a view: what was asked, where it ended, and why there is nothing to read.

    `html` carries the text of a textual non-HTML document for tools; the Markdown stays empty.
    """
    return Page(
        url=url,
        final_url=final_url,
        status=status,
        determination=determination,
        reason=reason,
        blocked_by=blocked_by,
        markdown="",
        html=html,
        content_type=content_type,
        render=render,
        attempts=attempts,
    )


def html_page(
    html: str,
    *,
    url: str,
    final_url: str,
    site_url: str | None,
    status: int | None,
    content_type: str,
    render: RenderKind,
    attempts: int,
    max_links: int = DEFAULT_MAX_LINKS,
    max_link_text_chars: int = DEFAULT_LINK_TEXT_CHARS,
) -> Page:
    """An ``ok`` page: the page view of `html` (links resolved against `final_url`, judged against `site_url`);
    a ``blocked`` page without a view when `html` is a bot challenge or a soft 404."""
    blocked = _blocked(
        html, url=url, final_url=final_url, status=status, content_type=content_type, render=render, attempts=attempts
    )
    if blocked is not None:
        return blocked
    view = _view(
        html,
        url=final_url,
        site_url=site_url or url,
        max_links=max_links,
        max_link_text_chars=max_link_text_chars,
    )
    reason = f"{view.truncated_links} more links were not numbered (limit {max_links})" if view.truncated_links else ""
    return Page(
        url=url,
        final_url=final_url,
        status=status,
        determination=Determination.OK,
        reason=reason,
        title=view.title,
        markdown=view.markdown,
        links=view.links,
        html=html,
        content_type=content_type,
        render=render,
        attempts=attempts,
    )


def page_from_response(
    raw: RawResponse,
    *,
    url: str,
    site_url: str | None,
    max_links: int = DEFAULT_MAX_LINKS,
    max_link_text_chars: int = DEFAULT_LINK_TEXT_CHARS,
) -> Page:
    """The page for an HTTP response: its failure, ``non_html`` when the body is not HTML, else its view."""
    common: dict[str, Any] = {
        "url": url,
        "final_url": raw.final_url,
        "status": raw.status,
        "content_type": raw.content_type,
        "render": "http",
        "attempts": raw.attempts,
    }
    if not raw.ok:
        return failed_page(**common, determination=raw.determination, reason=raw.reason)
    listing = _listing_html(raw)
    if listing is not None:
        return html_page(
            listing, site_url=site_url, max_links=max_links, max_link_text_chars=max_link_text_chars, **common
        )
    content_type = raw.content_type or None
    why_not = non_html_reason(raw.body, content_type)
    if why_not is not None:
        text = decode_html(raw.body, content_type) if is_textual(raw.body, content_type) else ""
        return failed_page(**common, determination=Determination.NON_HTML, reason=why_not, html=text)
    return html_page(
        decode_html(raw.body, content_type),
        site_url=site_url,
        max_links=max_links,
        max_link_text_chars=max_link_text_chars,
        **common,
    )


def page_from_file(
    path: Path | str,
    *,
    url: str | None = None,
    settings: PageViewSettings | None = None,
    max_links: int | None = None,
) -> Page:
    """A saved HTML file as a `Page` (render ``file``), its links resolved as if it were at `url`.

    Without `url` the page's own ``<link rel=canonical>`` / ``og:url`` / ``<base>`` stands in (see the
    page view); relative links stay unnumbered when none is known. Raises OSError when the file cannot
    be read and InvalidURLError for an unusable `url`; a binary file gives a ``non_html`` page.
    """
    file_path = Path(path)
    body = file_path.read_bytes()
    canonical = canonicalize_url(url) if url else None
    location = canonical or file_path.resolve().as_uri()
    declared = "text/html" if file_path.suffix.lower() in _HTML_SUFFIXES else None
    why_not = non_html_reason(body, declared)
    if why_not is not None:
        return failed_page(
            url=location, final_url=location, determination=Determination.NON_HTML, reason=why_not, render="file"
        )
    html = decode_html(body, None)
    blocked = _blocked(
        html, url=location, final_url=location, status=None, content_type=declared or "", render="file", attempts=0
    )
    if blocked is not None:
        return blocked
    view = _view(
        html,
        url=location,
        site_url=canonical,
        max_links=max_links or DEFAULT_MAX_LINKS,
        max_link_text_chars=settings.max_link_text_chars if settings else DEFAULT_LINK_TEXT_CHARS,
    )
    page_url = canonical or (try_canonicalize_url(view.base_url) if view.base_url else None) or location
    return Page(
        url=page_url,
        final_url=page_url,
        status=None,
        determination=Determination.OK,
        reason="",
        title=view.title,
        markdown=view.markdown,
        links=view.links,
        html=html,
        content_type=declared or "",
        render="file",
    )


def _listing_html(raw: RawResponse) -> str | None:
    """The feed or sitemap `raw` holds, as an HTML listing; None for any other document."""
    kind = raw.media_type
    if looks_like_feed(raw.body, kind):
        return feed_html(raw.body, url=raw.final_url)
    if looks_like_sitemap(raw.body, kind):
        return sitemap_html(raw.body, url=raw.final_url, truncated=raw.truncated)
    return None


def _blocked(
    html: str,
    *,
    url: str,
    final_url: str,
    status: int | None,
    content_type: str,
    render: RenderKind,
    attempts: int,
) -> Page | None:
    """The ``blocked`` page for a bot challenge or soft 404, or None for a page worth viewing."""
    block = detect_block_page(html)
    if block is None:
        return None
    served = f" (served with HTTP {status})" if status is not None else ""
    logger.info("%s is %s%s", final_url, block.reason, served)
    return failed_page(
        url=url,
        final_url=final_url,
        determination=Determination.BLOCKED,
        reason=block.reason + served,
        blocked_by=block.kind,
        status=status,
        render=render,
        content_type=content_type,
        attempts=attempts,
    )


def _view(html: str, *, url: str, site_url: str | None, max_links: int, max_link_text_chars: int) -> PageView:
    return build_page_view(
        html, url=url, site_url=site_url, max_links=max_links, max_link_text_chars=max_link_text_chars
    )
