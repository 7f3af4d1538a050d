"""Parsing a page's HTML for the tools that read its tags (metadata, site search): one tolerant parser and
the base URL that relative links resolve against, as a browser resolves them."""

from __future__ import annotations

import logging
import re
from typing import Any
from urllib.parse import urljoin, urlsplit

import lxml.html
from lxml import etree

from research_crawler.pages.cleanup import collapse_whitespace, remove_invisible

__all__ = [
    "MONTHS",
    "base_url",
    "document_base_url",
    "home_heading",
    "in_page_frame",
    "is_web_url",
    "meta_content",
    "parse_html",
    "put_script_writes_in_place",
    "put_shown_parts_in_place",
    "put_streamed_parts_in_place",
    "show_item_without_scripts",
    "values_side_by_side",
]

logger = logging.getLogger(__name__)

_PARSER = lxml.html.HTMLParser(encoding="utf-8", remove_comments=True)
#: What no XML text may hold (C0 controls but tab, newline and CR; U+FFFE, U+FFFF): lxml parses it into the tree but
#: refuses it once the tree is edited (a script dropped from its paragraph), so one form feed stopped a whole run.
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")
# A document.write()/writeln() call whose whole argument is one string literal (a call that joins variables is
# left alone: what it writes is not on the page).
_WRITTEN = re.compile(r"document\.write(?:ln)?\(\s*(['\"])((?:\\.|(?!\1).)*)\1\s*\)", re.S)
_TABLE_PARTS = frozenset({"table", "tbody", "thead", "tfoot"})
#: The glyphs a theme sets between the details of a post, each in an element of its own styled apart.
#: A value that opens with a date's year or its day and month before the year ("2019年04月13日", "2017-03-01",
#: "13.04.2019"): set apart from a name glued before it.
_STARTS_WITH_YEAR = re.compile(r"(?:\d{4}\D|\d{1,2}\D\d{1,2}\D\d{4})")

_SEPARATOR_GLYPHS = frozenset({"/", "|", "·", "•", "-", "–", "—"})

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
        return lxml.html.document_fromstring(_NOT_XML.sub("", html).encode("utf-8", errors="replace"), parser=_PARSER)
    except (etree.ParserError, etree.XMLSyntaxError, ValueError) as exc:
        logger.debug("unparseable page: %s", exc)
        return None


def base_url(tree: lxml.html.HtmlElement | None, url: str) -> str:
    """What relative URLs resolve against (`document_base_url`), else `url` itself."""
    return document_base_url(tree, url=url) or url


def document_base_url(root: Any, *, url: str | None) -> str | None:
    """The absolute http(s) URL the page's relative links resolve against, or None when none can be known.

    For a page fetched from the web (`url` is http(s)) this is `url`, unless the page has a `<base href>`, which
    (resolved against `url`) wins, as in a browser: a canonical link names the page's preferred address, not
    where its relative links lead. For a local file (`url` None or not http(s), e.g. ``file://``) the page's own
    URL is guessed from `<link rel=canonical>`, then `og:url` (a relative one resolved against the other); a
    `<base href>` then applies on top of that guess, and serves alone when it is absolute and there is no guess.
    """
    base_href = _first_attribute(root, "base", "href")
    document_url = url.strip() if url and is_web_url(url.strip()) else None
    if document_url is None and root is not None:
        canonical = _canonical_link(root)
        og_url = meta_content(root, "og:url")
        for candidate, other in ((canonical, og_url), (og_url, canonical)):
            resolved = _absolute(candidate, other if is_web_url(other) else None)
            if resolved:
                document_url = resolved
                break
    if base_href:
        with_base = _absolute(base_href, document_url)
        if with_base:
            return with_base
    return document_url


#: Landmarks that are the page's frame wherever they are (its navigation, its sidebars).
_FRAME_TAGS = frozenset({"nav", "aside"})
#: The page's banner and footer: inside an article, a section or the main content they are that part's own (its
#: title and byline, its notes), as HTML's landmark roles have it.
_BANNER_TAGS = frozenset({"header", "footer"})
_SECTIONING = frozenset({"article", "main", "section"})


def in_page_frame(element: Any) -> bool:
    """Whether `element` sits in the page's frame: inside a ``nav`` or ``aside``, or inside a ``header`` or
    ``footer`` that is the page's own (not an article's, a section's or the main content's: an article's header
    holds its title and byline)."""
    ancestors = [a for a in element.iterancestors() if isinstance(a.tag, str)]
    for index, ancestor in enumerate(ancestors):
        tag = ancestor.tag.lower()
        if tag in _FRAME_TAGS:
            return True
        if tag in _BANNER_TAGS and not any(
            isinstance(a.tag, str) and (a.tag.lower() in _SECTIONING or (a.get("role") or "").strip().lower() == "main")
            for a in ancestors[index + 1 :]
        ):
            return True
    return False


def is_web_url(url: str | None) -> bool:
    """Whether `url` is an http(s) address."""
    return bool(url) and urlsplit(str(url)).scheme.lower() in ("http", "https")


def _absolute(href: str | None, base: str | None) -> str | None:
    if not href or not href.strip():
        return None
    joined = urljoin(base, href.strip()) if base else href.strip()
    return joined if is_web_url(joined) and urlsplit(joined).hostname else None


def _first_attribute(root: Any, tag: str, attribute: str) -> str | None:
    if root is None:
        return None
    for element in root.iter(tag):
        value = element.get(attribute)
        if value and value.strip():
            return remove_invisible(value).strip()
    return None


def _canonical_link(root: Any) -> str | None:
    for element in root.iter("link"):
        if "canonical" in (element.get("rel") or "").lower().split() and (element.get("href") or "").strip():
            return remove_invisible(element.get("href")).strip()
    return None


def meta_content(root: Any, name: str) -> str | None:
    """The first `<meta property|name=name>`'s content (or value), invisible characters removed; None if none."""
    for element in root.iter("meta"):
        key = (element.get("property") or element.get("name") or "").strip().lower()
        value = element.get("content") or element.get("value")
        if key == name and value and value.strip():
            return remove_invisible(value).strip()
    return None


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


_STREAMED_PART = re.compile(r"^S:(\w+)$")


def put_streamed_parts_in_place(root: Any) -> None:
    """Move each part of a page that React's streamed rendering sends hidden (``<div hidden id="S:1">``) to its
    placeholder (``<template id="B:1">`` or ``"P:1"``), where the page's script puts it and a browser shows it; a
    part with no placeholder stays hidden. `root` is changed in place."""
    templates = {template.get("id"): template for template in root.iter("template") if template.get("id")}
    streamed = [
        part
        for part in root.iter("div")
        if part.get("hidden") is not None and _STREAMED_PART.match(part.get("id") or "")
    ]
    for part in streamed:
        key = _STREAMED_PART.match(part.get("id") or "")
        holders = [templates.get(f"{kind}:{key[1]}") for kind in ("B", "P")] if key else []
        holder = next((found for found in holders if found is not None), None)
        if holder is None or holder.getparent() is None or part.getparent() is None:
            continue
        before, parent = part.getprevious(), part.getparent()
        if part.tail:  # the text after the part stays where it was
            if before is not None:
                before.tail = (before.tail or "") + part.tail
            else:
                parent.text = (parent.text or "") + part.tail
        del part.attrib["hidden"]
        holder.addprevious(part)
        part.tail = holder.tail
        holder.getparent().remove(holder)


def put_shown_parts_in_place(root: Any) -> None:
    """Put in place what a browser shows that the markup as served hides or leaves to scripts: what inline scripts
    write, the parts a streamed page sends hidden, and a script-only page's item written for readers without
    scripts. `root` is changed in place."""
    put_script_writes_in_place(root)
    put_streamed_parts_in_place(root)
    show_item_without_scripts(root)


def show_item_without_scripts(root: Any) -> None:
    """Show what a script-only page's ``<noscript>`` holds where that is the item itself: a page whose scripts draw
    everything (a track's or a video's player) may write its item for a reader without scripts, heading, credit
    and date, inside ``<noscript>`` ("<h1>Lost You by Zeds Dead</h1> published on 2014-05-22"). Where no main
    heading stands outside such blocks, the ones holding one are unwrapped, as a browser without scripts shows
    them; other ``<noscript>`` blocks (a tracking pixel, "enable JavaScript") stay unseen. `root` is changed in
    place."""
    blocks = list(root.iter("noscript"))
    holding = [block for block in blocks if next(block.iter("h1"), None) is not None]
    if not holding or any(
        not any(parent.tag == "noscript" for parent in heading.iterancestors()) for heading in root.iter("h1")
    ):
        return
    for block in holding:
        if block.getparent() is not None:
            block.drop_tag()


def _js_unescape(text: str) -> str:
    return re.sub(r"\\(.)", r"\1", text)


_HEADINGS = frozenset({"h1", "h2", "h3", "h4", "h5", "h6"})


def home_heading(element: Any) -> bool:
    """Whether `element` sits in a heading that is nothing but a link to a site's home page ("/"): the site's name
    as its masthead shows it over every page (<h1><a href="/">Jane's Weblog</a></h1>), no item's title."""
    heading = next((node for node in (element, *element.iterancestors()) if node.tag in _HEADINGS), None)
    links = list(heading.iter("a")) if heading is not None else []
    if (
        heading is None
        or len(links) != 1
        or collapse_whitespace(links[0].text_content()) != collapse_whitespace(heading.text_content())
    ):
        return False
    address = urlsplit((links[0].get("href") or "").strip())
    return bool(
        address.path in ("", "/") and not address.query and not address.fragment and (address.netloc or address.path)
    )


def values_side_by_side(element: Any, before: str) -> bool:
    """Whether `element` starts a value right after a sibling element, nothing between, that a page's style sets
    apart from it: a number after a number (a date and a reading time, "<span>Mar 4, 2026</span><span>4 mins</span>",
    never one number "20264"), or a separator glyph in an element of its own before or after a value (a theme's bar
    of post details, "<time>October 12, 2018</time><span>/</span><span>0 Comments</span>", never "2018/0")."""
    previous = element.getprevious()
    if previous is None or previous.tail or not isinstance(previous.tag, str) or not before[-1:].strip():
        return False
    starts = element.text_content()[:1]
    if before[-1:].isdigit() and starts.isdigit():
        return True
    if before[-1:].isalpha() and _STARTS_WITH_YEAR.match(element.text_content()):
        return True
    glyphs = {element.text_content().strip(), previous.text_content().strip()}
    return bool(starts.strip()) and bool(glyphs & _SEPARATOR_GLYPHS)
