"""What every testbed site is: a pure function from a request to a response, rendered from the corpus.

Sites know nothing about sockets, so the same code serves HTTP (`server.py`) and builds link graphs
in-process (`link_graph.py`). A slow page is only *marked* slow here; the server does the waiting.
"""

from __future__ import annotations

import json
import re
import textwrap
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import ClassVar, TypeVar

from lxml import etree

from research_crawler.eval.testbed.decoys import DecoyKind, decoy_content
from research_crawler.eval.testbed.markup import attr, esc
from research_crawler.eval.testbed.models import Item, SiteSpec, Testbed
from research_crawler.eval.testbed.pdf import tiny_pdf

__all__ = ["HTML_TYPE", "Request", "Response", "Route", "SiteApp", "SiteLinks", "paged"]

HTML_TYPE = "text/html; charset=utf-8"


@dataclass(frozen=True)
class Request:
    """One request as a site sees it: the decoded path, the query, (for POST) the form fields, and its cookies."""

    method: str
    path: str
    query: Mapping[str, list[str]] = field(default_factory=dict)
    form: Mapping[str, list[str]] = field(default_factory=dict)
    cookies: Mapping[str, str] = field(default_factory=dict)

    def param(self, name: str, default: str = "") -> str:
        values = self.query.get(name) or self.form.get(name)
        return values[0] if values else default

    def int_param(self, name: str, default: int, *, minimum: int = 0, maximum: int = 10_000) -> int:
        """An integer parameter; anything unusable (text, out of range) gives `default`, as sites do."""
        raw = self.param(name)
        if not raw.strip().isdigit():
            return default
        value = int(raw)
        return value if minimum <= value <= maximum else default


@dataclass(frozen=True)
class Response:
    """A rendered answer. `kind` names the page type; `script_links` are links a browser would add."""

    status: int
    body: bytes
    content_type: str
    kind: str
    headers: tuple[tuple[str, str], ...] = ()
    slow: bool = False
    script_links: tuple[str, ...] = ()

    @classmethod
    def html(
        cls,
        text: str,
        *,
        kind: str,
        status: int = 200,
        slow: bool = False,
        script_links: tuple[str, ...] = (),
    ) -> Response:
        return cls(status, text.encode("utf-8"), HTML_TYPE, kind, slow=slow, script_links=script_links)

    @classmethod
    def text(
        cls, text: str, *, kind: str, content_type: str = "text/plain; charset=utf-8", status: int = 200
    ) -> Response:
        return cls(status, text.encode("utf-8"), content_type, kind)

    @classmethod
    def json(cls, data: object, *, kind: str) -> Response:
        return cls(200, json.dumps(data, ensure_ascii=False).encode("utf-8"), "application/json", kind)

    @classmethod
    def xml(cls, root: etree._Element, *, kind: str, content_type: str = "application/xml; charset=utf-8") -> Response:
        """An XML document (a feed, a sitemap) serialised by lxml."""
        return cls(200, etree.tostring(root, xml_declaration=True, encoding="utf-8"), content_type, kind)

    @classmethod
    def redirect(cls, location: str, *, status: int = 303, headers: tuple[tuple[str, str], ...] = ()) -> Response:
        body = f'<!DOCTYPE html><html><body><a href="{attr(location)}">Moved</a></body></html>'.encode()
        return cls(status, body, HTML_TYPE, "redirect", headers=(("Location", location), *headers))


@dataclass(frozen=True)
class SiteLinks:
    """Base URLs of this site and of the others (pages link across sites, as real ones do)."""

    own_base: str
    site_bases: Mapping[str, str]

    def absolute(self, path: str) -> str:
        return self.own_base.rstrip("/") + path

    def on_site(self, site: str, path: str = "/") -> str:
        return self.site_bases[site].rstrip("/") + path


Route = tuple[re.Pattern[str], Callable[..., Response]]
_T = TypeVar("_T")


def paged(request: Request, entries: Sequence[_T], size: int, link: Callable[[int], str]) -> tuple[Sequence[_T], str]:
    """The page of `entries` that `request` asks for (``?page=N``, the first when absent or unusable) and a pager
    naming every page, the others linked to ``link(n)`` (escaped here)."""
    pages = max(1, -(-len(entries) // size))
    page = request.int_param("page", 1, minimum=1, maximum=pages)
    pager = " ".join(
        f"<span>{n}</span>" if n == page else f'<a href="{attr(link(n))}">{n}</a>' for n in range(1, pages + 1)
    )
    return entries[(page - 1) * size : page * size], f'<nav class="pager">{pager}</nav>'


class SiteApp(ABC):
    """Routes requests to page renderers; subclasses draw one site's layout."""

    #: Paths under this prefix form an endless crawler trap (the link graph caps them).
    trap_prefix: ClassVar[str | None] = None
    #: Decoy pages: path → kind.
    decoy_paths: ClassVar[dict[str, DecoyKind]] = {}

    def __init__(self, *, testbed: Testbed, spec: SiteSpec, links: SiteLinks) -> None:
        self.testbed = testbed
        self.spec = spec
        self.links = links
        self.items: list[Item] = testbed.items_on(spec.name)
        self.by_path: dict[str, Item] = {item.path: item for item in self.items}
        self._routes = self.routes()

    # ------------------------------------------------------------------ what subclasses provide

    @abstractmethod
    def routes(self) -> list[Route]:
        """(full-match path pattern, handler(request, **groups)) pairs, tried in order."""

    @abstractmethod
    def page(self, *, title: str, content: str, kind: str, status: int = 200, head: str = "") -> Response:
        """`content` wrapped in the site's chrome: header, navigation, sidebar, footer, cookie banner."""

    @abstractmethod
    def sample_paths(self) -> dict[str, str]:
        """One path per page kind the site serves with 200 (for tests and exploration)."""

    def visitor_cookies(self) -> dict[str, str]:
        """The cookies a visitor holds once past the site's interstitials (a consent wall): the link graph walks the
        site as such a visitor. None by default."""
        return {}

    # ------------------------------------------------------------------ shared behaviour

    def handle(self, request: Request) -> Response:
        if request.path == "/robots.txt":
            return Response.text(self.robots_txt(), kind="robots")
        if request.path in self.decoy_paths and request.method in ("GET", "HEAD"):
            title, content = decoy_content(
                self.decoy_paths[request.path], title=self.spec.title, tagline=self.spec.tagline
            )
            return self.page(title=title, content=content, kind=self.decoy_paths[request.path])
        for pattern, handler in self._routes:
            match = pattern.fullmatch(request.path)
            if match:
                return handler(request, **match.groupdict())
        return self.not_found()

    def robots_txt(self) -> str:
        return f"# robots.txt for {self.spec.title}\nUser-agent: *\nAllow: /\n"

    def is_trap(self, path: str) -> bool:
        return self.trap_prefix is not None and path.startswith(self.trap_prefix)

    def item_at(self, path: str) -> Item | None:
        return self.by_path.get(path)

    def not_found(self, message: str = "The page you requested does not exist or has moved.") -> Response:
        content = (
            '<div class="error-page"><h1>Page not found</h1>'
            f"<p>{esc(message)}</p><p>Try the search box or go back to the "
            f'<a href="/">home page</a>.</p></div>'
        )
        return self.page(title="Page not found", content=content, kind="not-found", status=404)

    def pdf(self, item: Item) -> Response:
        lines = [", ".join(item.authors), item.date, "", *textwrap.wrap(item.abstract, 95)]
        return Response(200, tiny_pdf(item.title, lines), "application/pdf", "pdf")
