"""Where a page sits in its site, as the page itself says: its breadcrumb trail ("Home › Physics › 2024 › March"),
read from schema.org's BreadcrumbList (JSON-LD or microdata) or from a navigation element that calls itself a
breadcrumb. The Planner reads it with each page report, so on a deep site (subject → year → month) it knows where it
is and can go back up; the Crawler reads it above the page's links.

The trail is the page's own words, kept short (at most `MAX_LEVELS` names of `MAX_NAME_CHARS`), and is text, never
an instruction.
"""

from __future__ import annotations

import json
import logging
import re
from typing import Any

import lxml.html

from research_crawler.pages.html_tree import parse_html
from research_crawler.text.untrusted import untrusted

__all__ = ["MAX_LEVELS", "breadcrumb_trail", "is_trail_line"]

logger = logging.getLogger(__name__)

MAX_LEVELS = 8
MAX_NAME_CHARS = 60
_BREADCRUMB = re.compile(r"bread-?crumbs?", re.IGNORECASE)
_SEPARATORS = frozenset({"›", "»", ">", "/", "|", "→", "·", "•", "-", "–", ">>", "\\"})
_MAX_JSON_CHARS = 200_000
# a line of names joined by arrows ("Home > Fables > January", "Sciences › Physique"): a trail written out
_TRAIL_ARROWS = re.compile(r"\s+(?:>>?|›|→)\s+")
_TRAIL_NAME_WORDS = 6


def breadcrumb_trail(html: str) -> list[str]:
    """The names of the page's breadcrumb trail, from the site's top down to the page; [] when it shows none."""
    if not isinstance(html, str) or "readcrumb" not in html:  # Breadcrumb, breadcrumbs, BreadcrumbList
        return []
    tree = parse_html(html)
    if tree is None:
        return []
    for reader in (_json_ld, _microdata, _navigation):
        trail = _clean(reader(tree))
        if len(trail) >= 2:
            return trail
    return []


def is_trail_line(text: str) -> bool:
    """Whether a line of the page is a breadcrumb trail written out: two names or more, each of a few words, joined
    by arrows — where the page stands, not what it says ("福娘童話集 > きょうのイソップ童話")."""
    names = [name.strip() for name in _TRAIL_ARROWS.split(text.strip())]
    return len(names) >= 2 and all(name and len(name.split()) <= _TRAIL_NAME_WORDS for name in names)


def _json_ld(tree: lxml.html.HtmlElement) -> list[str]:
    for script in tree.iter("script"):
        if (script.get("type") or "").strip().lower() != "application/ld+json":
            continue
        text = script.text_content()
        if "BreadcrumbList" not in text or len(text) > _MAX_JSON_CHARS:
            continue
        try:
            data = json.loads(text)
        except ValueError:
            continue
        for node in _nodes(data):
            if _is_type(node, "BreadcrumbList"):
                elements = node.get("itemListElement")
                if isinstance(elements, list):
                    ordered = sorted(
                        (e for e in elements if isinstance(e, dict)), key=lambda e: _position(e.get("position"))
                    )
                    return [_element_name(element) for element in ordered]
    return []


def _microdata(tree: lxml.html.HtmlElement) -> list[str]:
    for element in tree.iter():
        if not isinstance(element.tag, str) or not (element.get("itemtype") or "").endswith("BreadcrumbList"):
            continue
        names = []
        for item in element.iter():
            if isinstance(item.tag, str) and (item.get("itemprop") or "") == "itemListElement":
                named = next((n for n in item.iter() if isinstance(n.tag, str) and n.get("itemprop") == "name"), None)
                names.append((named if named is not None else item).text_content())
        return names
    return []


def _navigation(tree: lxml.html.HtmlElement) -> list[str]:
    for element in tree.iter("nav", "ol", "ul", "div", "p"):
        marks = " ".join(element.get(a) or "" for a in ("aria-label", "class", "id", "role"))
        if not _BREADCRUMB.search(marks):
            continue
        items = [li for li in element.iter("li")]
        parts = [li.text_content() for li in items] if items else [a.text_content() for a in element.iter("a")]
        if items or parts:
            current = element.xpath(".//*[@aria-current='page']")
            if not items and current:  # a trail of links ending in the current page's own text
                parts.append(current[0].text_content())
            return parts
    return []


def _clean(names: list[str]) -> list[str]:
    trail: list[str] = []
    for raw in names:
        name = " ".join(untrusted(str(raw)).split()).strip(" ›»>/|→·•-–\\")
        if not name or name in _SEPARATORS or (trail and trail[-1] == name):
            continue
        trail.append(name[:MAX_NAME_CHARS])
    return trail[:MAX_LEVELS] if len(trail) <= MAX_LEVELS else [trail[0], "…", *trail[-(MAX_LEVELS - 2) :]]


def _nodes(data: Any) -> list[dict[str, Any]]:
    """Every JSON-LD object of a document (top level, lists, and @graph)."""
    found: list[dict[str, Any]] = []
    stack = [data]
    while stack and len(found) < 200:
        value = stack.pop()
        if isinstance(value, list):
            stack.extend(value)
        elif isinstance(value, dict):
            found.append(value)
            if isinstance(value.get("@graph"), list):
                stack.extend(value["@graph"])
    return found


def _is_type(node: dict[str, Any], name: str) -> bool:
    kind = node.get("@type")
    kinds = kind if isinstance(kind, list) else [kind]
    return any(isinstance(k, str) and k.rsplit("/", 1)[-1] == name for k in kinds)


def _position(value: object) -> float:
    try:
        return float(value)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return float("inf")


def _element_name(element: dict[str, Any]) -> str:
    name = element.get("name")
    item = element.get("item")
    if not name and isinstance(item, dict):
        name = item.get("name")
    return name if isinstance(name, str) else ""
