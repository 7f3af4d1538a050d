"""Parsing a page's HTML for the tools that read its tags (metadata, site search): one tolerant parser and
the base URL that relative links resolve against."""

from __future__ import annotations

import logging
from urllib.parse import urljoin

import lxml.html
from lxml import etree

__all__ = ["MONTHS", "base_url", "parse_html"]

logger = logging.getLogger(__name__)

_CANONICAL_HREF = "//link[contains(concat(' ', normalize-space(@rel), ' '), ' canonical ')]/@href"
_PARSER = lxml.html.HTMLParser(encoding="utf-8", remove_comments=True)

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
