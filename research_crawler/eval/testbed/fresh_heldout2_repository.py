"""HELD OUT, fresh (second batch): Hallam Research Online, an institutional repository built as DSpace ones are (see
`fresh_heldout2.py`; do not read or tune anything to it). A search ranked by relevance (half the query's words must
match) or sorted by date, ten results a page with "Next ›"; browse by community, issue date and an author index A–Z;
titles in listings in sentence case and cut after 70 characters; item pages with a metadata table and no tags.
"""

from __future__ import annotations

import re
import string
from datetime import date, timedelta
from typing import ClassVar
from urllib.parse import urlencode

from research_crawler.eval.testbed.decoys import DecoyKind
from research_crawler.eval.testbed.full_text import search_terms
from research_crawler.eval.testbed.markup import attr, document, esc, url_slug
from research_crawler.eval.testbed.models import Item
from research_crawler.eval.testbed.site_app import Request, Response, Route, SiteApp
from research_crawler.eval.testbed.vocabulary import sentence_case

__all__ = ["Fresh2RepositorySite"]

_PER_PAGE = 10
_SORTS = {"score": "Relevance", "date_desc": "Date issued (newest first)", "date_asc": "Date issued (oldest first)"}
_TITLE_SHOWN = 70


def _inverted(name: str) -> str:
    given, _, surname = name.rpartition(" ")
    return f"{surname}, {given}" if given else name


def _listed_title(title: str) -> str:
    """The title as the repository's listings show it: sentence case, cut after 70 characters."""
    text = sentence_case(title)
    text = text[:1].upper() + text[1:]
    return text if len(text) <= _TITLE_SHOWN else text[:_TITLE_SHOWN].rsplit(" ", 1)[0] + "…"


class Fresh2RepositorySite(SiteApp):
    """Hallam Research Online: search with a sort select and "Next ›", browse by community / date / author."""

    decoy_paths: ClassVar[dict[str, DecoyKind]] = {"/about": "about", "/deposit": "submit", "/contact": "contact"}

    def routes(self) -> list[Route]:
        return [
            (re.compile(r"/"), self._home),
            (re.compile(r"/discover"), self._discover),
            (re.compile(r"/community-list"), self._communities),
            (re.compile(r"/community/(?P<slug>[a-z0-9-]+)"), self._community),
            (re.compile(r"/browse/dateissued"), self._dates),
            (re.compile(r"/browse/author"), self._authors),
            (re.compile(r"/search-filter"), self._filter),
            (re.compile(r"/handle/20\.500\.11937/(?P<serial>\d+)"), self._item),
            (re.compile(r"/handle/20\.500\.11937/(?P<serial>\d+)/statistics"), self._statistics),
            (re.compile(r"/bitstream/20\.500\.11937/(?P<serial>\d+)/1/fulltext\.pdf"), self._file),
        ]

    def robots_txt(self) -> str:
        return (
            "# DSpace robots.txt\nUser-agent: *\nDisallow: /search-filter\nDisallow: /handle/*/statistics\n"
            "Disallow: /statistics\nCrawl-delay: 1\n"
        )

    def sample_paths(self) -> dict[str, str]:
        return {
            "home": "/",
            "search": "/discover?query=coral&sort=date_desc&page=2",
            "communities": "/community-list",
            "community": f"/community/{url_slug(self.items[0].category)}",
            "dates": "/browse/dateissued",
            "authors": "/browse/author?starts_with=M",
            "item": self.items[0].path,
        }

    def page(self, *, title: str, content: str, kind: str, status: int = 200, head: str = "") -> Response:
        body = (
            f'<header><a href="/">{esc(self.spec.title)}</a><form action="/discover" method="get">'
            '<input name="query" aria-label="Search the repository"><button>Go</button></form>'
            '<nav>Browse: <a href="/community-list">Communities &amp; collections</a> <a href="/browse/dateissued">'
            'By issue date</a> <a href="/browse/author">Authors</a></nav></header>\n'
            f'<main>{content}</main>\n<footer><a href="/about">About</a> · <a href="/deposit">Deposit your work</a> · '
            '<a href="/contact">Contact</a> · <a href="/statistics">Statistics</a></footer>'
        )
        return Response.html(document(title=f"{title} | {self.spec.title}", head=head, body=body), kind=kind,
                             status=status)  # fmt: skip

    def _entry(self, item: Item) -> str:
        names = [_inverted(name) for name in item.authors]
        shown = "; ".join(names[:3]) + ("; et al." if len(names) > 3 else "")
        return (
            f'<div class="ds-artifact-item"><a href="{attr(item.path)}">{esc(_listed_title(item.title))}</a>'
            f'<div class="artifact-info">{esc(shown)} ({item.date[:7]})</div>'
            f'<div class="artifact-abstract">{esc(item.abstract[:180].rsplit(" ", 1)[0])}…</div></div>'
        )

    def _listing(
        self, request: Request, items: list[Item], path: str, params: dict[str, str], heading: str
    ) -> tuple[str, str]:
        """A page of `items` with "Showing 1-10 of 23", "‹ Previous" and "Next ›" (rel links in the head too)."""
        pages = max(1, -(-len(items) // _PER_PAGE))
        page = request.int_param("page", 1, minimum=1, maximum=pages)
        shown = items[(page - 1) * _PER_PAGE : page * _PER_PAGE]
        links = {
            rel: f"{path}?{urlencode(params | {'page': str(n)})}"
            for rel, n in (("prev", page - 1), ("next", page + 1))
            if 1 <= n <= pages
        }
        labels = {"prev": "‹ Previous", "next": "Next ›"}
        pager = " ".join(f'<a href="{attr(href)}" rel="{rel}">{labels[rel]}</a>' for rel, href in links.items())
        head = "\n".join(f'<link rel="{rel}" href="{attr(href)}">' for rel, href in links.items())
        first = (page - 1) * _PER_PAGE + 1
        count = f"Showing {first}–{first + len(shown) - 1} of {len(items)}" if shown else "No items"
        entries = "".join(self._entry(item) for item in shown)
        return f"<h1>{esc(heading)}</h1><p>{count}</p>{entries}<nav class='pager'>{pager}</nav>", head

    def _newest(self, items: list[Item]) -> list[Item]:
        return sorted(items, key=lambda item: item.date, reverse=True)

    # ------------------------------------------------------------------ pages

    def _home(self, request: Request) -> Response:
        communities = "".join(
            f'<li><a href="/community/{url_slug(c)}">{esc(c)}</a></li>'
            for c in sorted(set(self.spec.categories.values()))
        )
        content = (
            f"<h1>{esc(self.spec.title)}</h1><p>{esc(self.spec.tagline)}: articles, conference papers and theses "
            f"by Hallam researchers.</p><h2>Communities in Hallam Research Online</h2><ul>{communities}</ul>"
        )
        return self.page(title="Home", content=content, kind="home")

    def _discover(self, request: Request) -> Response:
        query, sort = request.param("query"), request.param("sort", "score")
        sort = sort if sort in _SORTS else "score"
        items = self.items
        if request.param("author"):
            items = [i for i in items if request.param("author") in map(_inverted, i.authors)]
        if request.param("year"):
            items = [i for i in items if str(i.year) == request.param("year")]
        terms = search_terms(query)
        scored = [(sum(any(w.startswith(t) for w in _words(i)) for t in terms), i) for i in items]
        needed = -(-len(terms) // 2)
        found = [i for score, i in scored if score >= needed] if terms else list(items)
        if sort == "score" and terms:
            found = [i for _, i in sorted(((s, i) for s, i in scored if i in found), key=lambda p: -p[0])]
        else:
            found = sorted(found, key=lambda i: i.date, reverse=(sort != "date_asc"))
        base = {k: request.param(k) for k in ("query", "author", "year") if request.param(k)} | {"sort": sort}
        options = "".join(
            f'<option value="{k}"{" selected" if k == sort else ""}>{esc(v)}</option>' for k, v in _SORTS.items()
        )
        form = (
            f'<form action="/discover" method="get"><input name="query" value="{attr(query)}">'
            f'<label>Sort by <select name="sort">{options}</select></label><button>Search</button></form>'
            f'<p><a href="/search-filter?field=author">Filter by author…</a></p>'
        )
        listing, head = self._listing(request, found, "/discover", base, "Search")
        return self.page(title="Search", content=form + listing, kind="search", head=head)

    def _communities(self, request: Request) -> Response:
        rows = "".join(
            f'<li><a href="/community/{url_slug(c)}">{esc(c)}</a> [{sum(i.category == c for i in self.items)}]</li>'
            for c in sorted(set(self.spec.categories.values()))
        )
        return self.page(title="Communities", content=f"<h1>Communities &amp; collections</h1><ul>{rows}</ul>",
                         kind="communities")  # fmt: skip

    def _community(self, request: Request, slug: str) -> Response:
        name = next((c for c in self.spec.categories.values() if url_slug(c) == slug), None)
        if name is None:
            return self.not_found()
        items = sorted((i for i in self.items if i.category == name), key=lambda i: i.title)  # A-Z, as DSpace lists
        listing, head = self._listing(request, items, f"/community/{slug}", {}, name)
        return self.page(title=name, content=listing, kind="community", head=head)

    def _dates(self, request: Request) -> Response:
        rows = "".join(
            f'<li><a href="/discover?{urlencode({"year": y, "sort": "date_desc"})}">{y}</a> '
            f"({sum(i.year == y for i in self.items)})</li>"
            for y in sorted({i.year for i in self.items}, reverse=True)
        )
        return self.page(title="By issue date", content=f"<h1>Browse by issue date</h1><ul>{rows}</ul>",
                         kind="dates")  # fmt: skip

    def _authors(self, request: Request) -> Response:
        letter = request.param("starts_with", "A")[:1].upper() or "A"
        letters = " ".join(f'<a href="/browse/author?starts_with={c}">{c}</a>' for c in string.ascii_uppercase)
        names = sorted({_inverted(n) for i in self.items for n in i.authors if _inverted(n).upper().startswith(letter)})
        rows = "".join(
            f'<li><a href="/discover?{urlencode({"author": n, "sort": "date_desc"})}">{esc(n)}</a> '
            f"[{sum(n in map(_inverted, i.authors) for i in self.items)}]</li>"
            for n in names
        )
        content = f"<h1>Browse by author</h1><p>{letters}</p><h2>{letter}</h2><ul>{rows or '<li>None</li>'}</ul>"
        return self.page(title="Browse by author", content=content, kind="authors")

    def _filter(self, request: Request) -> Response:
        names = sorted({_inverted(n) for i in self.items for n in i.authors})
        return self.page(title="Filter", content=f"<h1>Authors</h1><p>{esc('; '.join(names))}</p>", kind="filter")

    def _item(self, request: Request, serial: str) -> Response:
        item = self.item_at(f"/handle/20.500.11937/{serial}")
        if item is None:
            return self.not_found()
        accessioned = date.fromisoformat(item.date) + timedelta(days=20 + int(serial) % 60)
        copies = [c for c in self.testbed.copies_of(item) if c.site != item.site]
        version = "".join(
            f'<tr><th>Published version</th><td><a href="{attr(self.links.on_site(c.site, c.path))}">'
            f"{esc(self.testbed.site(c.site).title)} {c.year}</a></td></tr>"
            for c in copies
        )
        rows = (
            f"<tr><th>Title</th><td>{esc(item.title)}</td></tr>"
            f"<tr><th>Authors</th><td>{'<br>'.join(esc(_inverted(n)) for n in item.authors)}</td></tr>"
            f"<tr><th>Date issued</th><td>{item.date}</td></tr>"
            f"<tr><th>Date accessioned</th><td>{accessioned.isoformat()}T09:14:02Z</td></tr>"
            f"<tr><th>Type</th><td>{'Conference paper' if copies else 'Article'}</td></tr>{version}"
            f"<tr><th>Abstract</th><td>{esc(item.abstract)}</td></tr>"
            f'<tr><th>Collections</th><td><a href="/community/{url_slug(item.category)}">{esc(item.category)}'
            "</a></td></tr>"
        )
        content = (
            f'<h2 class="item-title">{esc(item.title)}</h2><table class="item-metadata">{rows}</table>'
            f'<p><a href="{attr(item.pdf_path)}">Files: fulltext.pdf</a> · '
            f'<a href="{attr(item.path)}/statistics">View usage statistics</a></p>'
        )
        return self.page(title=item.title, content=content, kind="item")

    def _statistics(self, request: Request, serial: str) -> Response:
        item = self.item_at(f"/handle/20.500.11937/{serial}")
        if item is None:
            return self.not_found()
        content = f"<h1>Usage statistics</h1><p>{esc(item.title)}: {int(serial) * 7 % 400} views.</p>"
        return self.page(title="Statistics", content=content, kind="statistics")

    def _file(self, request: Request, serial: str) -> Response:
        item = self.item_at(f"/handle/20.500.11937/{serial}")
        return self.pdf(item) if item else self.not_found()


def _words(item: Item) -> list[str]:
    return re.findall(r"\w+", f"{item.title} {item.abstract}".casefold())
