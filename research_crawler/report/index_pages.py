"""Whether an item's own page is plainly no item but a page that lists others: a journal's list of volumes, a
subject's list of years, a listing that other items were found on. A report never lists such a page as a work (a
model may take a journal's or a collection's name, shown like a title, for a paper's).

Read from what the page is, never from its words: other collected items were found on it; or it names no author,
abstract or DOI of its own and links to several pages below its own address (``/journal/x`` → ``/journal/x/volume/
2024``, ``/journal/x/volume/2023``…), as an index of a hierarchy does. An item's own files (its PDF, a figure)
hang below some item pages too, so one or two such links say nothing.
"""

from __future__ import annotations

from collections.abc import Iterable
from urllib.parse import urlsplit

from research_crawler.pages.metadata import ItemMetadata

__all__ = ["MIN_PAGES_BELOW", "index_page_reason"]

#: Links to distinct pages below its own address that make a page with no item metadata an index.
MIN_PAGES_BELOW = 3


def index_page_reason(
    page_url: str, links: Iterable[str], meta: ItemMetadata, *, listed_on: Iterable[str] = ()
) -> str | None:
    """Why the page at `page_url` (its links' URLs `links`, its metadata `meta`) lists other works rather than
    being one, or None when it may be an item. `listed_on`: the pages other collected items were found on."""
    if page_url in set(listed_on):
        return "other items were found listed on it"
    if meta.authors or meta.abstract or meta.doi:
        return None
    here = urlsplit(page_url)
    base = here.path.rstrip("/") + "/"
    below = set()
    for url in links:
        parts = urlsplit(url)
        own_file = url == meta.pdf_url or parts.path.lower().endswith(".pdf")
        if parts.netloc == here.netloc and parts.path.startswith(base) and parts.path != base and not own_file:
            below.add(parts.path.rstrip("/"))
    if len(below) >= MIN_PAGES_BELOW:
        return f"it names no author or abstract and links to {len(below)} pages below it, as an index does"
    return None
