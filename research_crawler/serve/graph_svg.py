"""The navigation graph of a run drawn as SVG on the server: the pages visited (in visit order, as a tree from
each site's start page), the links followed between them, the links seen but not followed, dead ends, and the
pages where the report's items were found.

Every label came from a page: it is cleaned by the one sanitiser and XML-escaped; the SVG holds no script, no
link and no style sheet, only shapes and text.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from html import escape
from typing import Any
from urllib.parse import urlsplit

from research_crawler.text.untrusted import untrusted

__all__ = ["MAX_DRAWN_PAGES", "draw_graph_svg"]

MAX_DRAWN_PAGES = 150
_ROW = 34
_INDENT = 58
_MARGIN = 20
_LABEL_CHARS = 34
_COLOURS = {"items": "#1a7f37", "dead_end": "#cf222e", "visited": "#0969da"}


@dataclass
class _Page:
    url: str
    title: str
    determination: str | None
    order: int
    parent: str | None = None
    depth: int = 0
    row: int = 0
    unfollowed: int = 0


def _label(page: _Page) -> str:
    parts = urlsplit(page.url)
    text = untrusted(page.title).strip() or (parts.path + (f"?{parts.query}" if parts.query else "")) or "/"
    text = " ".join(text.split())
    return text if len(text) <= _LABEL_CHARS else text[: _LABEL_CHARS - 1] + "…"


def _pages(graph: dict[str, Any]) -> dict[str, _Page]:
    """The visited pages, each with its parent: the earliest-visited page that links to it."""
    visited = {}
    for node in graph.get("nodes", []):
        if isinstance(node, dict) and isinstance(node.get("visit_order"), int) and node.get("id"):
            visited[str(node["id"])] = _Page(
                url=str(node["id"]),
                title=str(node.get("title") or ""),
                determination=node.get("determination"),
                order=int(node["visit_order"]),
            )
    ordered = dict(sorted(visited.items(), key=lambda entry: entry[1].order)[:MAX_DRAWN_PAGES])
    for edge in graph.get("edges", []):
        if not isinstance(edge, dict):
            continue
        source, target = str(edge.get("source", "")), str(edge.get("target", ""))
        if source not in ordered:
            continue
        if target in ordered:
            child, parent = ordered[target], ordered[source]
            if parent.order < child.order and (child.parent is None or parent.order < ordered[child.parent].order):
                child.parent = source
        elif target not in visited:
            ordered[source].unfollowed += 1
    return ordered


def _layout(pages: dict[str, _Page]) -> None:
    """Depth first from each root (a page no visited page led to), one row per page."""
    children: dict[str | None, list[_Page]] = {}
    for page in pages.values():
        children.setdefault(page.parent, []).append(page)
    row = 0
    stack = [(page, 0) for page in reversed(children.get(None, []))]
    while stack:
        page, depth = stack.pop()
        page.depth, page.row = depth, row
        row += 1
        stack.extend((child, depth + 1) for child in reversed(children.get(page.url, [])))


def draw_graph_svg(graph: dict[str, Any], found_on: list[str]) -> str:
    """The SVG of `graph` (graph.json's node-link data); `found_on` lists the page each report item was found
    on (one entry per item)."""
    pages = _pages(graph)
    if not pages:
        return (
            '<svg xmlns="http://www.w3.org/2000/svg" width="320" height="40" role="img" '
            'aria-label="navigation graph" font-family="sans-serif">'
            '<text x="10" y="25" font-size="13">No page visited yet.</text></svg>'
        )
    _layout(pages)
    items_on = Counter(found_on)
    followed = {page.parent for page in pages.values() if page.parent is not None}
    depth = max(page.depth for page in pages.values())
    width = _MARGIN * 2 + depth * _INDENT + 640  # room for a label and its note
    height = _MARGIN * 2 + len(pages) * _ROW + 30
    shapes: list[str] = []
    for page in pages.values():
        if page.parent is not None:
            parent = pages[page.parent]
            shapes.append(
                f'<path class="followed" d="M{_x(parent) + 6},{_y(parent)} V{_y(page)} H{_x(page) - 7}" '
                'fill="none" stroke="#8c959f" stroke-width="1.5"/>'
            )
    for page in sorted(pages.values(), key=lambda p: p.row):
        items = items_on.get(page.url, 0)
        dead = page.determination not in (None, "ok") or (not items and page.url not in followed)
        kind = "items" if items else "dead_end" if dead else "visited"
        note = f"{items} item(s) found here" if items else "dead end" if dead else ""
        if page.determination not in (None, "ok"):
            note = f"could not be read ({page.determination})"
        tooltip = f"#{page.order} {untrusted(page.url)}" + (f" — {note}" if note else "")
        extra = f" · +{page.unfollowed} links not followed" if page.unfollowed else ""
        shapes.append(
            f'<g class="page {kind}"><title>{escape(tooltip)}</title>'
            f'<circle cx="{_x(page)}" cy="{_y(page)}" r="7" fill="{_COLOURS[kind]}"/>'
            f'<text x="{_x(page) + 12}" y="{_y(page) + 4}" font-size="12">'
            f'<tspan font-weight="bold">{page.order}.</tspan> {escape(_label(page))}'
            f'<tspan fill="#57606a">{escape(f" · {note}" if note else "")}{escape(extra)}</tspan></text></g>'
        )
    legend_y = height - 12
    legend = "".join(
        f'<circle cx="{_MARGIN + 8 + i * 150}" cy="{legend_y - 4}" r="5" fill="{colour}"/>'
        f'<text x="{_MARGIN + 18 + i * 150}" y="{legend_y}" font-size="11">{label}</text>'
        for i, (colour, label) in enumerate(
            [(_COLOURS["items"], "items found"), (_COLOURS["visited"], "visited"), (_COLOURS["dead_end"], "dead end")]
        )
    )
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" '
        f'role="img" aria-label="navigation graph: {len(pages)} page(s) visited" font-family="sans-serif">'
        + "".join(shapes)
        + legend
        + "</svg>"
    )


def _x(page: _Page) -> int:
    return _MARGIN + 10 + page.depth * _INDENT


def _y(page: _Page) -> int:
    return _MARGIN + 10 + page.row * _ROW
