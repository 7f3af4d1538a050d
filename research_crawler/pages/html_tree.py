"""Parsing a page's HTML for the tools that read its tags (metadata, site search): one tolerant parser and
the base URL that relative links resolve against."""

from __future__ import annotations

import logging
import re
from typing import Any
from urllib.parse import urljoin

import lxml.html
from lxml import etree

__all__ = ["MONTHS", "base_url", "parse_html", "put_script_writes_in_place"]

logger = logging.getLogger(__name__)

_CANONICAL_HREF = "//link[contains(concat(' ', normalize-space(@rel), ' '), ' canonical ')]/@href"
_PARSER = lxml.html.HTMLParser(encoding="utf-8", remove_comments=True)
# A document.write()/writeln() call whose whole argument is one string literal (a call that joins variables is
# left alone: what it writes is not on the page).
_WRITTEN = re.compile(r"document\.write(?:ln)?\(\s*(['\"])((?:\\.|(?!\1).)*)\1\s*\)", re.S)
_TABLE_PARTS = frozenset({"table", "tbody", "thead", "tfoot"})

#: English month names and abbreviations → month number (dates in pages and in reports).
MONTHS: dict[str, int] = {
    name: number
    for number, names in enumerate(
        [
            ("jan", "january"),
            ("feb", "february"),
            ("mar", "march"),
            ("apr", "april"),
            ("may",),
            ("jun", "june"),
            ("jul", "july"),
            ("aug", "august"),
            ("sep", "sept", "september"),
            ("oct", "october"),
            ("nov", "november"),
            ("dec", "december"),
        ],
        start=1,
    )
    for name in names
}


def parse_html(html: str) -> lxml.html.HtmlElement | None:
    """The parsed page, or None for empty or unparseable input (never raises)."""
    if not isinstance(html, str) or not html.strip():
        return None
    try:  # bytes, because lxml refuses a str that starts with an XML encoding declaration
        return lxml.html.document_fromstring(html.encode("utf-8", errors="replace"), parser=_PARSER)
    except (etree.ParserError, etree.XMLSyntaxError, ValueError) as exc:
        logger.debug("unparseable page: %s", exc)
        return None


def base_url(tree: lxml.html.HtmlElement, url: str) -> str:
    """What relative URLs resolve against: <base href>, else the canonical link, else the page URL."""
    for xpath in ("//base/@href", _CANONICAL_HREF):
        for href in tree.xpath(xpath):
            if href.strip():
                return urljoin(url, href.strip())
    return url


def put_script_writes_in_place(root: Any) -> None:
    """Replace each inline script that writes markup with ``document.write`` by what it writes, where it stands.

    A browser shows that markup at the script's place: old catalogue and repository software writes whole result
    rows this way (one ``<script>`` a row, inside the results table). Rows written inside a table stay rows of
    that table. Only calls whose argument is a single string literal count. `root` is changed in place.
    """
    for script in list(root.iter("script")):
        if script.get("src") or script.getparent() is None:
            continue
        written = "".join(_js_unescape(match.group(2)) for match in _WRITTEN.finditer(script.text or ""))
        if not written.strip():
            continue
        parent = script.getparent()
        in_table = parent.tag in _TABLE_PARTS or written.lstrip().lower().startswith(("<tr", "<td", "<th"))
        try:
            if in_table:
                table = lxml.html.fragment_fromstring(f"<table>{written}</table>")
                elements = [row for part in table for row in (part if part.tag in _TABLE_PARTS else [part])]
            else:
                holder = lxml.html.fragment_fromstring(written, create_parent="div")
                elements = [holder]
        except (etree.ParserError, ValueError):
            continue
        if not elements:
            continue
        tail = script.tail
        index = parent.index(script)
        parent.remove(script)
        for offset, element in enumerate(elements):
            parent.insert(index + offset, element)
        elements[-1].tail = (elements[-1].tail or "") + (tail or "")


def _js_unescape(text: str) -> str:
    return re.sub(r"\\(.)", r"\1", text)
