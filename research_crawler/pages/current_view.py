"""Which links of a page name the view the page shows now: the tab, pill or segment a site marks as the current one.

A page that shows one of several lists behind tabs ("Accepted", "Rejected", "Withdrawn"; "Articles", "Datasets")
marks the tab it shows as the current one, the way HTML and ARIA say it: ``aria-selected="true"`` or
``aria-current`` on the link, or a class ``active``/``selected``/``current`` on the link or on the list item
holding it. Its other tabs show other lists, not a part of the one shown — unlike a facet of a result list, which
narrows what the page shows.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urljoin

from research_crawler.context.urls import try_canonicalize_url
from research_crawler.pages.html_tree import base_url, parse_html

__all__ = ["current_view_links"]

#: Class names a site gives the tab or segment it shows now (Bootstrap's ``active``, Foundation's ``is-active``).
_CURRENT_CLASSES = frozenset({"active", "is-active", "selected", "is-selected", "current", "is-current"})


def current_view_links(html: str, *, url: str) -> frozenset[str]:
    """The canonical URLs of the links of the page at `url` (its `html`) that it marks as the view it shows now."""
    tree = parse_html(html)
    if tree is None:
        return frozenset()
    base = base_url(tree, url)
    found = set()
    for anchor in tree.iter("a"):
        href = anchor.get("href")
        if not href or not _marked_current(anchor):
            continue
        canonical = try_canonicalize_url(urljoin(base, href.strip()))
        if canonical is not None:
            found.add(canonical)
    return frozenset(found)


def _marked_current(anchor: Any) -> bool:
    if anchor.get("aria-selected", "").strip().lower() == "true":
        return True
    if anchor.get("aria-current", "false").strip().lower() not in {"", "false"}:
        return True
    parent = anchor.getparent()
    holders = [anchor] + ([parent] if parent is not None and parent.tag == "li" else [])
    return any(set((holder.get("class") or "").lower().split()) & _CURRENT_CLASSES for holder in holders)
