"""The address a "Load more" control names for the rest of its list.

Portals that load a list twelve at a time by script (video portals, catalogues, reading lists) often write, on the
control itself, where its script fetches the next part: ``<button data-url="/channel/…/page/2">Load More</button>``,
``data-href``, ``data-next``. Where the browser's press added nothing (the script did not run, or failed), that
address is what a careful reader opens next: the next part of the same list, on the same site, fetched like any
page (robots.txt, the URL guard and the per-site budget hold).

Read from the control's own attributes only, never guessed: a control whose words are no "load more" (a filter, a
tab), an attribute that names no address (an id, a number alone, ``javascript:``), or an address on another site
gives None.
"""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import urljoin, urlsplit

from research_crawler.context.urls import is_same_site
from research_crawler.pages.html_tree import parse_html

__all__ = ["LOAD_MORE_WORDS", "load_more_address"]

#: What a control that loads more of a list says: "Load more", "Load 20 more", "Show more results", "More articles".
LOAD_MORE_WORDS = re.compile(
    r"^\W*(?:load\s+(?:\d+\s+)?more\b|(?:show|view|see|get|display)\s+(?:\d+\s+)?more\s+(?:results|items|articles"
    r"|papers|entries|posts|records|publications|stories|preprints)\b|more\s+(?:results|articles|papers|entries|posts"
    r"|records|publications|stories|preprints)\s*$|mehr\s+laden|charger\s+plus|cargar\s+m[áa]s)",
    re.IGNORECASE,
)
#: Attributes in which a control names the address its script fetches next.
_ADDRESS_ATTRIBUTES = ("data-url", "data-href", "data-next", "data-next-url", "data-load-url", "data-next-page")
_CONTROLS = ("button", "a", "input", "div", "span", "li")
_LABEL_CHARS = 60


def load_more_address(html: str, url: str) -> str | None:
    """The absolute address on `url`'s site that the first "load more" control of the page (`html`, at `url`) names
    for the next part of its list, or None when no such control names one."""
    if not html or "more" not in html.lower():
        return None
    tree = parse_html(html)
    if tree is None:
        return None
    for element in tree.iter(*_CONTROLS):
        label = _label(element)
        if not label or len(label) >= _LABEL_CHARS or not LOAD_MORE_WORDS.search(label):
            continue
        for name in _ADDRESS_ATTRIBUTES:
            if (address := _address(element.get(name), url)) is not None:
                return address
    return None


def _label(element: Any) -> str:
    text = element.get("value", "") if element.tag == "input" else element.text_content()
    return " ".join(f"{text} {element.get('aria-label', '')}".split())


def _address(value: str | None, url: str) -> str | None:
    """`value` as an absolute address on `url`'s site when it is written as one (a path or a URL), else None."""
    value = (value or "").strip()
    if not value or "/" not in value or value.lower().startswith(("javascript:", "#", "data:")):
        return None
    address = urljoin(url, value)
    if urlsplit(address).scheme not in ("http", "https") or not is_same_site(address, url):
        return None
    return address
