"""Which link of a page leads to the next page of the listing it shows, read from the links alone.

A listing paged by number names its page in its address — ``?page=3``, ``?start=40``, ``/page/3`` — and its pager
links to the others, often with "Next ›" or "Older entries" beside the numbers. The next page is the pager's
"next" link when it has one, else the nearest page after this one among the numbered links of the same listing
(the same address but for the page number). A parameter that may name an item rather than a page (WordPress's
``?p=123``) is not read as a page number. A parameter named for the page number in another way (ColdFusion's
``npage``, ``currentPage``, ``pageIndex``) numbers the page too; a name that merely holds the word does not
(``pageSize``, Confluence's ``pageId``, WordPress's ``page_id``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Protocol, TypeVar
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

__all__ = ["PAGE_PARAMETERS", "adds_parameters", "listing_position", "narrows_listing", "next_listing_page"]


class _Link(Protocol):
    @property
    def url(self) -> str: ...
    @property
    def text(self) -> str: ...


_L = TypeVar("_L", bound=_Link)

#: Query parameters that number a listing's pages or its first entry (arXiv's ``skip``, Solr's ``start``).
PAGE_PARAMETERS = frozenset(
    {"page", "pg", "pageno", "page_no", "pagenum", "pagenumber", "paged", "start", "offset", "skip", "from_"}
)
_PAGE_SEGMENT = re.compile(r"/page/(\d{1,6})/?$", re.IGNORECASE)
#: A pager's link to the following page: "Next", "Next ›", "»", "Older entries", "More results", "Weiter".
_NEXT_WORDS = re.compile(
    r"^\W*(?:next|older|more|earlier|weiter|nächste|suivante?|siguiente|successiva)\b|^\s*[›»>→]+\s*$", re.IGNORECASE
)


def listing_position(url: str) -> tuple[str, int] | None:
    """(the listing's address without its page number, the number) for a URL that names its page
    (``/papers?page=3`` → (``/papers``, 3)); None for one that names none."""
    parts = urlsplit(url)
    pairs = parse_qsl(parts.query, keep_blank_values=True)
    numbered = [(n, v) for n, (key, v) in enumerate(pairs) if _numbers_the_page(key) and v.isdigit()]
    if len(numbered) == 1:
        index, value = numbered[0]
        rest = urlencode(pairs[:index] + pairs[index + 1 :])
        return urlunsplit((parts.scheme, parts.netloc, parts.path, rest, "")), int(value)
    segment = _PAGE_SEGMENT.search(parts.path)
    if segment and not numbered:
        path = parts.path[: segment.start()] or "/"
        return urlunsplit((parts.scheme, parts.netloc, path, parts.query, "")), int(segment.group(1))
    return None


#: Other names a listing's page number goes by: the word "page" after a letter or two (ColdFusion's "npage") or
#: after "current"/"cur", or before "number", "num", "no", "index" or "idx" ("pageIndex"). Never a name that only
#: holds the word: Confluence's "pageId" and WordPress's "page_id" name a page of the site, "selectedPageVersions"
#: compares versions, "pageSize" sizes the page.
_PAGE_NUMBER_NAME = re.compile(r"^(?:[a-z]{1,2}|current|cur)_?page$|^page_?(?:number|num|no|index|idx)$")


def _numbers_the_page(key: str) -> bool:
    """Whether a query parameter named `key` numbers a listing's pages: one of `PAGE_PARAMETERS` or another name of
    that number (`_PAGE_NUMBER_NAME`: "npage", "currentPage", "pageIndex"; not "pageSize", "pageId")."""
    name = key.lower()
    return name in PAGE_PARAMETERS or _PAGE_NUMBER_NAME.match(name) is not None


def _listing_of(url: str) -> tuple[str, int]:
    """The listing `url` shows and its page number there (a page that names none is its listing's first, 0)."""
    position = listing_position(url)
    if position is not None:
        return position
    parts = urlsplit(url)
    return urlunsplit((parts.scheme, parts.netloc, parts.path, parts.query, "")), 0


def next_listing_page(page_url: str, links: Iterable[_L]) -> _L | None:
    """The link of the page at `page_url` that leads to the next page of its listing, or None.

    The pager's "next" link (its text "Next", "›", "Older …") whose address names a page number comes first, even
    when it continues another listing than the page's own address (a home page's "Older working papers"); else
    the numbered link of this listing nearest after this page. Links off the page's site are the caller's to
    leave out."""
    listing, number = _listing_of(page_url)
    numbered: list[tuple[int, _L]] = []
    for link in links:
        position = listing_position(link.url)
        if position is None or link.url == page_url:
            continue
        if _NEXT_WORDS.search(link.text) and (position[0] != listing or position[1] > number):
            return link
        if position[0] == listing and position[1] > number:
            numbered.append((position[1], link))
    return min(numbered, key=lambda entry: entry[0])[1] if numbered else None


#: Query parameters that may show more entries of the same listing, not fewer (a page size, "show all").
_MORE_ENTRIES = re.compile(r"size|rows|limit|per|count|show|num|max|all|expand", re.IGNORECASE)


def narrows_listing(page_url: str, link_url: str, *, views: Iterable[str] = ()) -> bool:
    """Whether `link_url` narrows the listing at `page_url` (a search's results, a filtered list): the same address
    with every parameter of the page's query and one or more added (a facet, a filter, a sort), none of which may
    show more entries (a page size, "show all") or another page of it. When the page shows its listing whole (it
    has no next page), such a link lists only entries the page shows already. A parameter that one of `views` (the
    links the page marks as the view it shows now: its current tab) adds too switches between views — the page's
    other tabs show other lists — and narrows nothing."""
    added = _added_parameters(page_url, link_url)
    if not added or any(_numbers_the_page(key) or _MORE_ENTRIES.search(key) for key in added):
        return False
    switched = {key for view in views for key in _added_parameters(page_url, view) or ()}
    return not switched & set(added)


#: Query parameters that only order a listing ("sort=pubYear", "order=desc", "orderby=date"): never which entries.
_ORDERS = re.compile(r"(?:sort|order)(?:[_-]?(?:by|dir|direction|order|field))?|dir|direction", re.IGNORECASE)


def reorders_listing(page_url: str, link_url: str) -> bool:
    """Whether `link_url` is the address of `page_url` with only its order changed: the same path, and the queries
    differing in parameters that sort ("?sort=pubYear" added to "/browse/ethics", "sort=date" for "sort=title") and
    in no other. When the page shows its listing whole (it has no next page), such a link lists exactly the entries
    the page shows; an empty listing stays empty in any order."""
    page, link = urlsplit(page_url), urlsplit(link_url)
    if (page.netloc, page.path) != (link.netloc, link.path) or page.query == link.query:
        return False
    have = set(parse_qsl(page.query, keep_blank_values=True))
    wanted = set(parse_qsl(link.query, keep_blank_values=True))
    return all(_ORDERS.fullmatch(key) for key, _ in have ^ wanted)


def adds_parameters(page_url: str, link_url: str) -> bool:
    """Whether `link_url` is the address of `page_url` with one or more parameters added (a tab, a facet, a sort)."""
    return bool(_added_parameters(page_url, link_url))


def removed_values(page_url: str, link_url: str) -> list[str]:
    """The values of the parameters `link_url` takes off the address of `page_url` (the same address with some of the
    page's parameters and no others: the "remove" or "×" beside an active facet or filter); empty when it is no
    such address."""
    page, link = urlsplit(page_url), urlsplit(link_url)
    if (page.netloc, page.path) != (link.netloc, link.path) or not page.query:
        return []
    kept = parse_qsl(page.query, keep_blank_values=True)
    for pair in parse_qsl(link.query, keep_blank_values=True):
        if pair not in kept:
            return []
        kept.remove(pair)
    return [value for _, value in kept]


def _added_parameters(page_url: str, link_url: str) -> list[str] | None:
    """The names of the parameters `link_url` adds to the address of `page_url` (the same address with every
    parameter of the page's query), or None when it is no such address."""
    page, link = urlsplit(page_url), urlsplit(link_url)
    if (page.netloc, page.path) != (link.netloc, link.path) or not page.query:
        return None
    have = parse_qsl(page.query, keep_blank_values=True)
    added = parse_qsl(link.query, keep_blank_values=True)
    for pair in have:
        if pair not in added:
            return None
        added.remove(pair)
    return [key for key, _ in added]
