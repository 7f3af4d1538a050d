"""An item's metadata held in a page's scripts as JSON: a publisher's page-state object (IEEE Xplore's
``xplGlobal.document.metadata = {...}``, a Next.js page's ``__NEXT_DATA__``), which the page's scripts render.

Only JSON is read (``json`` parses it; nothing is evaluated): ``application/json`` scripts, and object literals
assigned in inline scripts. An object counts when it holds a title and a list of authors; the page's other
objects (menus, related articles) rarely hold both, and the metadata rule keeps a title only if the page
shows it.
"""

from __future__ import annotations

import html as html_entities
import json
import logging
import re
from collections.abc import Iterator
from typing import Any

import lxml.html

from research_crawler.pages.item_dates import dates_in_text

__all__ = ["page_state_objects"]

logger = logging.getLogger(__name__)

_ASSIGNED_OBJECT = re.compile(r"(?:^|[;\s(,])[\w$.\[\]'\"]+\s*=\s*(?=\{)")
_TITLE_KEYS = ("title", "displayDocTitle", "articleTitle", "documentTitle", "headline", "formulaStrippedArticleTitle")
_AUTHOR_KEYS = ("authors", "author", "creators", "authorList", "contributors", "byline", "bylines")
_WRAPPED = ("authors", "author", "nodes", "edges", "items", "people")  # the list inside an author field's wrapper
_DATE_KEYS = (
    "publicationDate",
    "datePublished",
    "publishedDate",
    "publication_date",
    "pubDate",
    "publishDate",
    "onlineDate",
    "coverDate",
    "date",
    "publicationYear",
    "year",
)
_NAME_KEYS = ("name", "fullName", "full_name", "displayName", "preferredName")
_NAME_PAIRS = (
    ("firstName", "lastName"),
    ("givenName", "familyName"),
    ("given", "family"),
    ("first_name", "last_name"),
    ("forename", "surname"),
)
_MAX_SCRIPT_CHARS = 4_000_000
_MAX_NODES = 200_000
_MAX_DEPTH = 12
_TAG = re.compile(r"<[^>]+>")


def page_state_objects(html: str) -> list[dict[str, Any]]:
    """The objects of the page's scripts that hold a title and authors, as {title, authors, date}, those with a
    date first, then in page order. Never raises on a page's scripts."""
    try:
        tree = lxml.html.document_fromstring(html.encode("utf-8", "replace"))
    except (ValueError, lxml.etree.ParserError):
        return []
    found: list[dict[str, Any]] = []
    for script in tree.iter("script"):
        kind = (script.get("type") or "").lower()
        text = script.text or ""
        if script.get("src") or "ld+json" in kind or not text.strip() or len(text) > _MAX_SCRIPT_CHARS:
            continue
        for data in _json_values(text, is_json="json" in kind):
            found.extend(_item_objects(data))
    return sorted(found, key=lambda item: item["date"] is None)


def _json_values(text: str, *, is_json: bool) -> Iterator[Any]:
    decoder = json.JSONDecoder()
    if is_json:
        try:
            yield json.loads(text)
        except ValueError:
            return
        return
    for match in _ASSIGNED_OBJECT.finditer(text):
        try:
            value, _ = decoder.raw_decode(text, match.end())
        except ValueError:
            continue
        yield value


def _item_objects(data: Any) -> Iterator[dict[str, Any]]:
    stack: list[tuple[Any, int]] = [(data, 0)]
    seen = 0
    while stack and seen < _MAX_NODES:
        node, depth = stack.pop()
        seen += 1
        if isinstance(node, dict):
            item = _as_item(node)
            if item is not None:
                yield item
            if depth < _MAX_DEPTH:
                stack.extend((value, depth + 1) for value in reversed(list(node.values())))
        elif isinstance(node, list) and depth < _MAX_DEPTH:
            stack.extend((value, depth + 1) for value in reversed(node))


def _as_item(node: dict[str, Any]) -> dict[str, Any] | None:
    title = next((_clean(node[key]) for key in _TITLE_KEYS if isinstance(node.get(key), str)), None)
    if not title or not 2 <= len(title.split()) <= 80:
        return None
    authors = next((found for key in _AUTHOR_KEYS if (found := _people(node.get(key), depth=0))), [])
    if not authors:
        return None
    date = None
    for key in _DATE_KEYS:
        value = node.get(key)
        if isinstance(value, str | int) and not isinstance(value, bool):
            dates = dates_in_text(str(value), bare_years=True)
            if dates:
                date = dates[0]
                break
    return {"title": title, "authors": authors, "date": date}


def _people(value: Any, *, depth: int) -> list[str]:
    """The names an author field holds: a list of people, one person ({"name": …}), or a wrapper
    around a list ("byline": {"authors": […]}, a GraphQL connection's "nodes" or "edges")."""
    if isinstance(value, list):
        return [
            name
            for name in (_person(item.get("node", item) if isinstance(item, dict) else item) for item in value)
            if name
        ]
    if isinstance(value, dict) and (name := _person(value)):
        return [name]  # (a bare string is no person here: menus and teasers write "author": "…" too)
    if isinstance(value, dict) and depth < 2:
        return next((found for key in _WRAPPED if (found := _people(value.get(key), depth=depth + 1))), [])
    return []


def _person(value: Any) -> str | None:
    if isinstance(value, str):
        return _clean(value)
    if not isinstance(value, dict):
        return None
    for key in _NAME_KEYS:
        if isinstance(value.get(key), str) and value[key].strip():
            return _clean(value[key])
    for first, last in _NAME_PAIRS:
        if isinstance(value.get(last), str) and value[last].strip():
            given = value.get(first) if isinstance(value.get(first), str) else ""
            return _clean(f"{given} {value[last]}")
    return None


def _clean(text: str) -> str | None:
    cleaned = " ".join(html_entities.unescape(_TAG.sub("", text)).split())
    return cleaned or None
