"""The static link structure of a testbed site as a networkx DiGraph (page → page), for path-efficiency
metrics: shortest paths from the site root to the relevant items.

Pages are rendered in-process (no HTTP, no waiting on the slow page) and their `<a href>` links read
with lxml; links a page's scripts would add (the JavaScript site) are edges with ``via="script"``.
The endless calendar is capped: at most `max_trap_pages` of its pages enter the graph.
"""

from __future__ import annotations

import logging
from collections import deque
from urllib.parse import parse_qs, unquote, urlsplit

import lxml.html
import networkx as nx
from protego import Protego

from research_crawler.context.urls import canonicalize_url, try_canonicalize_url
from research_crawler.errors import ConfigError
from research_crawler.eval.testbed.layouts import make_site_app, offline_links
from research_crawler.eval.testbed.models import Testbed
from research_crawler.eval.testbed.site_app import Request, Response, SiteApp

__all__ = ["DEFAULT_MAX_PAGES", "DEFAULT_MAX_TRAP_PAGES", "build_link_graph", "link_graph"]

logger = logging.getLogger(__name__)

DEFAULT_MAX_TRAP_PAGES = 120
DEFAULT_MAX_PAGES = 20_000
_SKIPPED_SCHEMES = ("javascript:", "mailto:", "tel:", "data:")


def link_graph(
    testbed: Testbed,
    site_name: str,
    *,
    base_url: str | None = None,
    max_trap_pages: int = DEFAULT_MAX_TRAP_PAGES,
    max_pages: int = DEFAULT_MAX_PAGES,
) -> nx.DiGraph:
    """The link graph of one site. Nodes are canonical absolute URLs under `base_url` (pass the served
    base URL, e.g. `TestbedServer.base_url(site)`, so nodes match live URLs; without it a placeholder
    host ``<site>.testbed.invalid`` is used).
    """
    app = make_site_app(testbed, site_name, offline_links(testbed, site_name, base_url=base_url))
    return build_link_graph(app, max_trap_pages=max_trap_pages, max_pages=max_pages)


def build_link_graph(
    app: SiteApp, *, max_trap_pages: int = DEFAULT_MAX_TRAP_PAGES, max_pages: int = DEFAULT_MAX_PAGES
) -> nx.DiGraph:
    """Breadth-first walk of `app`'s pages from its root.

    Node attributes: ``status``, ``kind`` (page type), ``item_id`` (for item pages, else None),
    ``robots_allowed`` (under the site's robots.txt for any user agent), ``trap``.
    Edge attributes: ``anchor`` (link text) and ``via`` ("html", "script" or "redirect").
    Graph attributes: ``site``, ``root``, ``truncated`` (True when `max_pages` stopped the walk).
    """
    if max_trap_pages < 0 or max_pages < 1:
        raise ConfigError("max_trap_pages must be >= 0 and max_pages >= 1")
    root = canonicalize_url(app.links.own_base)
    origin = _origin(root)
    robots = Protego.parse(app.robots_txt())
    items_by_url = {canonicalize_url(app.links.absolute(i.path)): i.id for i in app.items}
    graph = nx.DiGraph(site=app.spec.name, root=root, truncated=False)
    queue: deque[str] = deque([root])
    seen = {root}
    trap_pages = 0
    resolve = _Resolver()
    while queue:
        url = queue.popleft()
        parts = urlsplit(url)
        path = unquote(parts.path) or "/"
        response = app.handle(
            Request("GET", path, parse_qs(parts.query, keep_blank_values=True), cookies=app.visitor_cookies())
        )
        graph.add_node(
            url,
            status=response.status,
            kind=response.kind,
            item_id=items_by_url.get(url),
            robots_allowed=robots.can_fetch(url, "*"),
            trap=app.is_trap(path),
        )
        for href, anchor, via in _outlinks(response):
            target = resolve(url, href)
            if target is None or _origin(target) != origin or target == url:
                continue
            if target not in seen:
                is_trap = app.is_trap(unquote(urlsplit(target).path))
                if is_trap and trap_pages >= max_trap_pages:
                    continue
                if len(seen) >= max_pages:
                    graph.graph["truncated"] = True
                    continue
                seen.add(target)
                queue.append(target)
                trap_pages += is_trap
            if not graph.has_edge(url, target):
                graph.add_edge(url, target, anchor=anchor, via=via)
    if graph.graph["truncated"]:
        logger.warning("link graph of %s truncated at %d pages", app.spec.name, max_pages)
    return graph


def _outlinks(response: Response) -> list[tuple[str, str, str]]:
    """(href as written, anchor text, how the link is made) for each link of a rendered page."""
    if 300 <= response.status < 400:
        return [(value, "", "redirect") for name, value in response.headers if name.lower() == "location"]
    if response.status != 200 or not response.content_type.startswith("text/html"):
        return []
    found: list[tuple[str, str, str]] = []
    for anchor in lxml.html.fromstring(response.body).iter("a"):
        href = (anchor.get("href") or "").strip()
        if not href or href.startswith("#") or href.lower().startswith(_SKIPPED_SCHEMES):
            continue
        found.append((href, " ".join(anchor.text_content().split())[:200], "html"))
    found.extend((link, "", "script") for link in response.script_links)
    return found


class _Resolver:
    """Canonical absolute URL of an href on a page, memoised: pages repeat the same chrome links."""

    def __init__(self) -> None:
        self._cache: dict[tuple[str, str], str | None] = {}

    def __call__(self, page_url: str, href: str) -> str | None:
        # Absolute and root-relative hrefs resolve the same on every page of the site.
        independent = href.startswith(("http://", "https://")) or (href.startswith("/") and not href.startswith("//"))
        key = ("" if independent else page_url, href)
        if key not in self._cache:
            self._cache[key] = try_canonicalize_url(href, page_url)
        return self._cache[key]


def _origin(url: str) -> tuple[str, str]:
    parts = urlsplit(url)
    return parts.scheme, parts.netloc
