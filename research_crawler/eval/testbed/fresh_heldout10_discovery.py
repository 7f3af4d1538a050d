"""HELD OUT, fresh (tenth batch): Lumen Scholar, a discovery service built as Semantic Scholar and its kind are (see
`fresh_heldout10.py`; do not read or tune anything to it). The home, field and author pages are empty shells that a
script fills from a JSON API on the same origin (`/api/v1/...`; a `<noscript>` note says the site needs JavaScript):
the home lists the fields of study and trending papers, a field lists its papers six at a time by citations with a
"Load more" button, an author page lists the author's papers. Paper pages are rendered on the server, with
`citation_*` tags naming the year only, the full date in the text ("Published 12 March 2024"), a TLDR and the
abstract, references linking to older papers of the service, and citations loaded by script. robots.txt forbids the
search page and the export API, and names a sitemap whose dates are the pages', not the papers'.
"""

from __future__ import annotations

import json
import re
import zlib
from datetime import date
from typing import Any, ClassVar
from urllib.parse import urlencode

from lxml import etree

from research_crawler.eval.testbed.decoys import DecoyKind
from research_crawler.eval.testbed.full_text import search_items
from research_crawler.eval.testbed.markup import attr, document, esc, first_sentence, long_date, meta_name, url_slug
from research_crawler.eval.testbed.models import Item
from research_crawler.eval.testbed.site_app import Request, Response, Route, SiteApp

__all__ = ["FIELD_PAGE", "Fresh10DiscoverySite", "author_path", "citations", "field_papers", "references"]

FIELD_PAGE = 6
_SITEMAP = "http://www.sitemaps.org/schemas/sitemap/0.9"
_VENUES = {"Computer Science": ("ICSE", "ASE", "Empirical Software Engineering", "arXiv.org"),
           "Environmental Science": ("Marine Ecology Progress Series", "Estuarine, Coastal and Shelf Science",
                                     "Restoration Ecology", "bioRxiv")}  # fmt: skip


def author_path(name: str) -> str:
    """An author's page: '/author/ana-silva/1234567'."""
    return f"/author/{url_slug(name)}/{zlib.crc32(name.encode('utf-8')) % 900_000_000 + 100_000_000}"


def citation_count(item: Item) -> int:
    return zlib.crc32(item.title.encode("utf-8")) % 140


def field_papers(items: list[Item], field: str) -> list[Item]:
    """A field's papers in the order its page lists them: most cited first."""
    return sorted((i for i in items if i.category == field), key=lambda i: (-citation_count(i), i.id))


def references(items: list[Item], item: Item) -> list[Item]:
    """The papers of the service a paper cites: up to three older papers of its field, nearest in time first."""
    older = [i for i in items if i.category == item.category and i.date < item.date and i.work_id != item.work_id]
    return sorted(older, key=lambda i: i.date, reverse=True)[:3]


def citations(items: list[Item], item: Item) -> list[Item]:
    """The papers of the service that cite `item` (the inverse of `references`), newest first."""
    return [i for i in items if item in references(items, i)]


def _field_slug(field: str) -> str:
    return url_slug(field)


class Fresh10DiscoverySite(SiteApp):
    """A discovery service: script-filled shells over a JSON API, server-rendered paper pages, a sitemap."""

    decoy_paths: ClassVar[dict[str, DecoyKind]] = {"/about": "about", "/faq": "help", "/terms": "terms"}

    def routes(self) -> list[Route]:
        self.by_id = {i.key: i for i in self.items}
        self.fields = sorted({i.category for i in self.items})
        self.authors = {author_path(a): a for i in self.items for a in i.authors}
        return [
            (re.compile(r"/"), self._shell_home),
            (re.compile(r"/fields/(?P<slug>[a-z-]+)"), self._shell_field),
            (re.compile(r"/author/[a-z0-9-]+/\d+"), self._shell_author),
            (re.compile(r"/search"), self._shell_search),
            (re.compile(r"/paper/[a-z0-9-]+/(?P<pid>[0-9a-f]{40})"), self._paper),
            (re.compile(r"/reader/(?P<pid>[0-9a-f]{40})\.pdf"), self._pdf),
            (re.compile(r"/api/v1/home"), self._api_home),
            (re.compile(r"/api/v1/fields/(?P<slug>[a-z-]+)/papers"), self._api_field),
            (re.compile(r"/api/v1/author/(?P<aid>\d+)"), self._api_author),
            (re.compile(r"/api/v1/paper/(?P<pid>[0-9a-f]{40})/citations"), self._api_citations),
            (re.compile(r"/api/v1/search"), self._api_search),
            (re.compile(r"/api/v1/export/.*"), self._api_export),
            (re.compile(r"/sitemap\.xml"), self._sitemap_index),
            (re.compile(r"/sitemaps/papers-0\.xml"), self._sitemap),
        ]

    def robots_txt(self) -> str:
        return (
            "User-agent: *\nDisallow: /search\nDisallow: /api/v1/export/\n\n"
            f"Sitemap: {self.links.absolute('/sitemap.xml')}\n"
        )

    def sample_paths(self) -> dict[str, str]:
        item = self.items[0]
        return {"home": "/", "field": f"/fields/{_field_slug(item.category)}", "paper": item.path,
                "author": author_path(item.authors[0]), "api-home": "/api/v1/home", "sitemap": "/sitemap.xml",
                "api-field": f"/api/v1/fields/{_field_slug(item.category)}/papers?offset=0"}  # fmt: skip

    def page(self, *, title: str, content: str, kind: str, status: int = 200, head: str = "") -> Response:
        return self._page(title=title, content=content, kind=kind, status=status, head=head)

    def _page(
        self, *, title: str, content: str, kind: str, status: int = 200, head: str = "", links: tuple[str, ...] = ()
    ) -> Response:
        body = (
            '<header class="nav"><a class="brand" href="/">Lumen Scholar</a><form action="/search" method="get">'
            '<input name="q" placeholder="Search 214 million papers"><button>Search</button></form>'
            '<a href="/about">About</a> <a href="/faq">FAQ</a></header>\n'
            f'<main id="main">{content}</main>\n'
            '<footer><p>Lumen Scholar · <a href="/terms">Terms of service</a></p></footer>'
        )
        html = document(title=f"{title} | Lumen Scholar", head=head, body=body)
        return Response.html(html, kind=kind, status=status, script_links=links)

    # ------------------------------------------------------------------ shells filled by script

    def _shell(self, api: str, render: str) -> str:
        target = json.dumps(api).replace("</", "<\\/")
        return (
            '<div id="app" data-state="loading"><div class="spinner">Loading…</div></div>'
            "<noscript>Lumen Scholar needs JavaScript to show search results, fields and author pages. Paper pages "
            "can be read without it.</noscript>"
            f"<script>fetch({target}).then(function (r) {{ return r.json(); }}).then(function (data) {{ {render} }});"
            "</script>"
        )

    def _card(self, item: Item) -> dict[str, Any]:
        return {"paperId": item.key, "title": item.title, "url": item.path, "year": item.year,
                "authors": [{"name": a, "url": author_path(a)} for a in item.authors],
                "venue": self._venue(item), "citationCount": citation_count(item),
                "tldr": first_sentence(item.abstract)}  # fmt: skip

    def _venue(self, item: Item) -> str:
        venues = _VENUES.get(item.category, ("arXiv.org",))
        return venues[zlib.crc32(item.key.encode()) % len(venues)]

    def _trending(self) -> list[Item]:
        """The four most cited papers of the newest year."""
        newest = max(i.year for i in self.items)
        return sorted((i for i in self.items if i.year == newest), key=lambda i: (-citation_count(i), i.id))[:4]

    def _shell_home(self, request: Request) -> Response:
        content = "<h1>Discover what matters in science</h1>" + self._shell(
            "/api/v1/home", "renderHome(document.getElementById('app'), data.fields, data.trending);"
        )
        links = tuple(f"/fields/{_field_slug(f)}" for f in self.fields) + tuple(i.path for i in self._trending())
        return self._page(title="Home", content=content, kind="home", links=links)

    def _shell_field(self, request: Request, slug: str) -> Response:
        field = next((f for f in self.fields if _field_slug(f) == slug), None)
        if field is None:
            return self.not_found()
        render = (
            "renderPapers(document.getElementById('app'), data.data); if (data.next !== null) { showLoadMore("
            f"'/api/v1/fields/{slug}/papers?offset=' + data.next); }}"
        )
        content = f"<h1>{esc(field)}</h1>" + self._shell(f"/api/v1/fields/{slug}/papers?offset=0", render)
        shown = tuple(i.path for i in field_papers(self.items, field)[:FIELD_PAGE])
        return self._page(title=field, content=content, kind="field", links=shown)

    def _shell_author(self, request: Request) -> Response:
        name = self.authors.get(request.path)
        if name is None:
            return self.not_found()
        aid = request.path.rsplit("/", 1)[1]
        content = self._shell(f"/api/v1/author/{aid}", "renderAuthor(document.getElementById('app'), data);")
        theirs = tuple(i.path for i in self.items if name in i.authors)
        return self._page(title=name, content=content, kind="author", links=theirs)

    def _shell_search(self, request: Request) -> Response:
        query = request.param("q")
        content = self._shell(
            f"/api/v1/search?{urlencode({'query': query})}", "renderPapers(document.getElementById('app'), data.data);"
        )
        found = tuple(i.path for i in search_items(self.items, query)[:10]) if query.strip() else ()
        return self._page(title="Search", content=content, kind="search", links=found)

    # ------------------------------------------------------------------ the JSON API

    def _api_home(self, request: Request) -> Response:
        fields = [{"name": f, "url": f"/fields/{_field_slug(f)}"} for f in self.fields]
        return Response.json({"fields": fields, "trending": [self._card(i) for i in self._trending()]}, kind="api")

    def _api_field(self, request: Request, slug: str) -> Response:
        field = next((f for f in self.fields if _field_slug(f) == slug), None)
        if field is None:
            return Response.json({"error": "unknown field"}, kind="api")
        papers = field_papers(self.items, field)
        offset = request.int_param("offset", 0, maximum=len(papers))
        shown = papers[offset : offset + FIELD_PAGE]
        following = offset + FIELD_PAGE if offset + FIELD_PAGE < len(papers) else None
        data = {"total": len(papers), "offset": offset, "next": following, "data": [self._card(i) for i in shown]}
        return Response.json(data, kind="api")

    def _api_author(self, request: Request, aid: str) -> Response:
        path = next((p for p in self.authors if p.endswith(f"/{aid}")), None)
        if path is None:
            return Response.json({"error": "unknown author"}, kind="api")
        name = self.authors[path]
        papers = [self._card(i) for i in self.items if name in i.authors]
        return Response.json({"authorId": aid, "name": name, "paperCount": len(papers), "papers": papers}, kind="api")

    def _api_citations(self, request: Request, pid: str) -> Response:
        item = self.by_id.get(pid)
        if item is None:
            return Response.json({"error": "unknown paper"}, kind="api")
        return Response.json({"data": [self._card(i) for i in citations(self.items, item)]}, kind="api")

    def _api_search(self, request: Request) -> Response:
        query = request.param("query")
        found = search_items(self.items, query) if query.strip() else []
        offset = request.int_param("offset", 0, maximum=max(len(found), 0))
        data = [self._card(i) for i in found[offset : offset + 10]]
        return Response.json({"total": len(found), "offset": offset, "data": data}, kind="api")

    def _api_export(self, request: Request) -> Response:
        return Response.json({"format": "ris", "records": len(self.items)}, kind="export")

    # ------------------------------------------------------------------ server-rendered pages

    def _paper(self, request: Request, pid: str) -> Response:
        item = self.by_id.get(pid)
        if item is None or item.path != request.path:
            return self.not_found()
        head = "\n".join(
            [meta_name("citation_title", item.title)]
            + [meta_name("citation_author", a) for a in item.authors]
            + [meta_name("citation_publication_date", str(item.year)), meta_name("description", item.abstract[:150])]
        )
        authors = ", ".join(f'<a href="{attr(author_path(a))}">{esc(a)}</a>' for a in item.authors)
        cited = "".join(
            f'<li><a href="{attr(r.path)}">{esc(r.title)}</a> <span>{r.year}</span></li>'
            for r in references(self.items, item)
        )
        outside = zlib.crc32(item.key.encode()) % 7 + 5
        content = (
            f'<article class="paper-detail"><h1 data-test="paper-title">{esc(item.title)}</h1><div class="authors">'
            f'{authors}</div><div class="meta">Published in <span class="venue">{esc(self._venue(item))}</span> '
            f'<span data-test="paper-date">{long_date(item.date)}</span> · {esc(item.category)}</div>'
            f'<div class="tldr"><strong>TLDR</strong> {esc(first_sentence(item.abstract))}</div>'
            f'<div class="abstract"><h2>Abstract</h2><p>{esc(item.abstract)}</p></div><div class="actions">'
            f'<a href="{attr(item.pdf_path)}">View PDF</a> <a href="/api/v1/export/{pid}.ris">Export</a></div>'
            f'<section id="references"><h2>References</h2><p>Showing {len(references(self.items, item))} of '
            f"{len(references(self.items, item)) + outside} references</p><ul>{cited}</ul></section>"
            '<section id="citations"><h2>Citations</h2><div id="citing" data-state="loading"></div><script>'
            f"fetch('/api/v1/paper/{pid}/citations').then(function (r) {{ return r.json(); }}).then(function (d) "
            "{ renderPapers(document.getElementById('citing'), d.data); });</script></section></article>"
        )
        links = tuple(i.path for i in citations(self.items, item))
        return self._page(title=item.title, content=content, kind="paper", head=head, links=links)

    def _pdf(self, request: Request, pid: str) -> Response:
        item = self.by_id.get(pid)
        return self.pdf(item) if item is not None else self.not_found()

    def _sitemap_index(self, request: Request) -> Response:
        root = etree.Element("sitemapindex", nsmap={None: _SITEMAP})
        node = etree.SubElement(root, "sitemap")
        etree.SubElement(node, "loc").text = self.links.absolute("/sitemaps/papers-0.xml")
        return Response.xml(root, kind="sitemap")

    def _sitemap(self, request: Request) -> Response:
        root = etree.Element("urlset", nsmap={None: _SITEMAP})
        for item in sorted(self.items, key=lambda i: i.key):
            node = etree.SubElement(root, "url")
            etree.SubElement(node, "loc").text = self.links.absolute(item.path)
            touched = date(2026, 1 + zlib.crc32(item.key.encode()) % 10, 1 + len(item.title) % 27)
            etree.SubElement(node, "lastmod").text = touched.isoformat()
        return Response.xml(root, kind="sitemap")
