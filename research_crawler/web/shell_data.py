"""A page that stays an empty shell — without a browser, or rendered and still showing next to nothing (its script
failed, or drew nothing in time) — read from the data its own script loads: the same-origin JSON documents its
inline script fetches (`pages/script_data.py`) are requested as any page is (the URL guard, robots.txt, the host's
turn), and their entries are added to the page as the listing the script would draw, so they count as read from that
page. A page that shows its list in part, its script loading the rest as the reader scrolls, is read on the same way:
the next few batches its script names (`next_batch_urls`), until one adds nothing. The page's reason says which
documents were read.
"""

from __future__ import annotations

import asyncio
import html as html_entities
import re
from collections.abc import Awaitable, Callable

from research_crawler.pages.page import Page
from research_crawler.pages.script_data import (
    data_listing_html,
    next_batch_urls,
    parse_script_data,
    script_data_urls,
    with_listing,
)
from research_crawler.web.fetch_progress import joined
from research_crawler.web.page_building import html_page
from research_crawler.web.raw_response import RawResponse
from research_crawler.web.rendering import script_rendering_reason

__all__ = ["with_script_data"]

#: The most a data document may weigh: a list's page of entries, not a database dump.
MAX_DATA_BYTES = 2_000_000
#: The addresses of the entries a drawn listing (`data_listing_html`) links.
_HREF = re.compile(r'href="([^"]+)"')


async def with_script_data(
    page: Page,
    shell_html: str,
    *,
    fetch_raw: Callable[..., Awaitable[RawResponse]],
    site_url: str | None,
    max_links: int,
    max_link_text_chars: int,
) -> Page:
    """`page` (an ``ok`` page whose HTTP answer `shell_html` was a script's shell) with the entries of the data its
    script loads added; a page that shows its list already, with the next batches its script would load as the reader
    scrolls; `page` as it is when its script loads no entries."""
    if not page.ok:
        return page
    html, read = page.html, []
    if script_rendering_reason(page.html, page.markdown) is None:
        shown, batches = {link.url for link in page.links}, list[tuple[str, str]]()
        for url, written in next_batch_urls(shell_html, page.final_url):
            raw = await fetch_raw(url, max_bytes=MAX_DATA_BYTES)
            data = parse_script_data(raw.body) if raw.ok else None
            listing = data_listing_html(data, page.final_url, shown=shown) if data is not None else ""
            if not listing:
                break  # the list ends here, or its script's data cannot be read on
            batches.append((written, listing))
            shown |= {html_entities.unescape(href) for href in _HREF.findall(listing)}
            read.append(url)
        if batches:  # drawn in order where the script that loads them stands
            html = with_listing(html, batches[0][0], "".join(listing for _, listing in batches))
    else:
        for url, written in script_data_urls(shell_html, page.final_url):
            raw = await fetch_raw(url, max_bytes=MAX_DATA_BYTES)
            data = parse_script_data(raw.body) if raw.ok else None
            listing = data_listing_html(data, page.final_url) if data is not None else ""
            if listing:
                html = with_listing(html, written, listing)
                read.append(url)
    if not read:
        return page
    built = await asyncio.to_thread(
        html_page,
        html,
        url=page.url,
        final_url=page.final_url,
        site_url=site_url,
        status=page.status,
        content_type=page.content_type,
        render=page.render,
        attempts=page.attempts,
        max_links=max_links,
        max_link_text_chars=max_link_text_chars,
    )
    if not built.ok:
        return page
    note = f"its entries read from the data its script loads ({', '.join(read)})"
    return built.model_copy(update={"reason": joined(page.reason, note), "elapsed_s": page.elapsed_s})
