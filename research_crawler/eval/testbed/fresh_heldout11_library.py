"""HELD OUT, fresh (eleventh batch): Halvergate Library Search, built as VuFind-like discovery layers are (see
`fresh_heldout11.py`; do not read or tune anything to it). Results twenty a page in relevance order (or newest
first when asked), with format, subject, year and language facets as links; journals, a map and a film sit among
the books, theses and articles, and a print record beside some online ones; a record page gives the year of
publication only, the main author surname first, a holdings table, a COinS span, and tabs (holdings, description
with the summary, citation, staff view); its "Get it" link leads, for the archive's reports the library catalogues
too, to the archive's copy. Exports, the staff view, the cart and accounts are forbidden by robots.txt.
"""

from __future__ import annotations

import re
import zlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import ClassVar
from urllib.parse import quote, urlencode

from research_crawler.eval.testbed.decoys import DecoyKind
from research_crawler.eval.testbed.full_text import search_items
from research_crawler.eval.testbed.markup import attr, document, esc
from research_crawler.eval.testbed.models import Item
from research_crawler.eval.testbed.site_app import Request, Response, Route, SiteApp, paged

__all__ = ["PER_PAGE", "Fresh11LibrarySite", "Record", "records"]

PER_PAGE = 20
#: Catalogue records that are not research works: (id, title, format, subject, year, language).
_OTHERS = (
    ("993100017", "River Restoration News", "Journal", "Urban rivers -- Restoration", 2003, "English"),
    ("993100024", "Journal of Early Literacy", "Journal", "Reading (Primary) -- Phonetic method", 1998, "English"),
    ("993100031", "Halvergate and the Beck valley (1:25 000)", "Map", "Halvergate -- Maps", 2021, "English"),
    ("993100048", "Rivers of wool (documentary film)", "Video", "Textile industry -- History", 2019, "English"),
    ("993100055", "Lesen lernen mit Silben", "Book", "Reading (Primary) -- Phonetic method", 2017, "German"),
)


def _inverted(name: str) -> str:
    given, _, surname = name.rpartition(" ")
    return f"{surname}, {given}"


@dataclass(frozen=True)
class Record:
    """A catalogue record: a research work (`item`), a print copy of one, or another record."""

    rid: str
    title: str
    fmt: str
    subject: str
    year: int
    language: str
    item: Item | None = None
    online: str = ""

    @property
    def path(self) -> str:
        return f"/Record/{self.rid}"


def _format(item: Item) -> str:
    return ("Thesis", "Article", "Book", "Article")[int(item.key) % 4] if not item.work else "Report"


def records(items: list[Item]) -> list[Record]:
    """Every record, in relevance order (a fixed order by a checksum of the id, as a ranking looks to a reader):
    the items, a print record for the first two reports the archive holds too, the others."""
    made = [Record(i.key, i.title, _format(i), i.category, i.year, "English", i) for i in items]
    for item in sorted((i for i in items if i.work), key=lambda i: i.key)[:2]:
        made.append(
            Record(
                f"{int(item.key) + 1000000}", item.title, "Book", item.category, item.year, "English", online=item.path
            )
        )
    made += [Record(rid, title, fmt, subject, year, lang) for rid, title, fmt, subject, year, lang in _OTHERS]
    return sorted(made, key=lambda r: zlib.crc32(r.rid.encode()))


def _link(filters: list[str], extra: dict[str, str] | None = None) -> str:
    params = [("filter[]", f) for f in sorted(filters)] + list((extra or {}).items())
    return "/Search/Results?" + urlencode([("lookfor", ""), ("type", "AllFields"), *params], quote_via=quote)


class Fresh11LibrarySite(SiteApp):
    """A discovery layer: faceted results, record pages with tabs, holdings and "Get it" links."""

    decoy_paths: ClassVar[dict[str, DecoyKind]] = {
        "/Content/about": "about",
        "/Content/privacy": "privacy",
        "/Feedback/Home": "contact",
    }

    def routes(self) -> list[Route]:
        self.records = records(self.items)
        self.by_rid = {r.rid: r for r in self.records}
        return [
            (re.compile(r"/"), self._home),
            (re.compile(r"/Search/Results"), self._results),
            (re.compile(r"/Record/(?P<rid>\d+)"), self._record),
            (re.compile(r"/Record/(?P<rid>\d+)/(?P<tab>Holdings|Description|Cite|Details)"), self._record),
            (re.compile(r"/Record/(?P<rid>\d+)/Export"), self._export),
            (re.compile(r"/Record/(?P<rid>\d+)/Download"), self._download),
        ]

    def robots_txt(self) -> str:
        return (
            "User-agent: *\nDisallow: /Record/*/Export\nDisallow: /Record/*/Details\nDisallow: /Cart\n"
            "Disallow: /MyResearch/\nCrawl-delay: 1\n"
        )

    def sample_paths(self) -> dict[str, str]:
        item = self.items[0]
        return {
            "home": "/",
            "results": _link([]),
            "record": item.path,
            "description": f"{item.path}/Description",
            "cite": f"{item.path}/Cite",
        }

    def page(self, *, title: str, content: str, kind: str, status: int = 200, head: str = "") -> Response:
        body = (
            '<header class="banner"><a class="navbar-brand" href="/">Halvergate Library Search</a>'
            '<a href="/MyResearch/Home">Login</a> <a href="/Cart">Book Bag (0)</a></header>'
            '<div class="searchbox"><form action="/Search/Results" method="get"><input name="lookfor" '
            'aria-label="Search terms"><select name="type"><option value="AllFields">All Fields</option>'
            '<option value="Title">Title</option><option value="Author">Author</option></select>'
            "<button>Find</button></form></div>\n"
            f'<div class="main">{content}</div>\n'
            '<footer><a href="/Content/about">About the library</a> · <a href="/Content/privacy">Privacy</a> · '
            '<a href="/Feedback/Home">Feedback</a></footer>'
        )
        html = document(
            title=f"{title} :: Halvergate Library Search", head=head, body=body, body_class="template-dir-search"
        )
        return Response.html(html, kind=kind, status=status)

    def _facet_list(
        self, records: list[Record], filters: list[str], field: str, value_of: Callable[[Record], object]
    ) -> str:
        counts: dict[str, int] = {}
        for record in records:
            value = str(value_of(record))
            counts[value] = counts.get(value, 0) + 1
        return "".join(
            f'<li><a href="{attr(_link([*filters, f"{field}:{chr(34)}{value}{chr(34)}"]))}">{esc(value)}</a> '
            f'<span class="badge">{count}</span></li>'
            for value, count in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))
        )

    def _facets(self, records: list[Record], filters: list[str]) -> str:
        """The facets a reader can still narrow by: every field at first, the others once one is chosen, and with
        two chosen only the links that remove one."""
        removes = "".join(
            f'<li class="applied"><a href="{attr(_link([f for f in filters if f != chosen]))}">Remove filter '
            f"{esc(chosen)}</a></li>"
            for chosen in filters
        )
        if len(filters) >= 2:
            return f'<ul class="filters">{removes}</ul>'
        used = {f.partition(":")[0] for f in filters}
        fields = (
            ("Format", "format", lambda r: r.fmt),
            ("Subject", "topic_facet", lambda r: r.subject),
            ("Year of Publication", "publishDate", lambda r: r.year),
            ("Language", "language", lambda r: r.language),
        )
        return f'<ul class="filters">{removes}</ul>' + "".join(
            f'<div class="facet"><h3>{label}</h3><ul>{self._facet_list(records, filters, field, value_of)}</ul></div>'
            for label, field, value_of in fields
            if field not in used
        )

    def _home(self, request: Request) -> Response:
        content = (
            "<h1>Find books, articles, theses and more</h1>"
            f'<div class="home-facets"><h2>Browse the catalogue</h2>{self._facets(self.records, [])}</div>'
            f'<p><a href="{attr(_link([]))}">Show everything in the catalogue</a></p>'
        )
        return self.page(title="Search Home", content=content, kind="home")

    def _results(self, request: Request) -> Response:
        filters = list(request.query.get("filter[]", []))
        chosen = list(self.records)
        for spec in filters:
            field, _, value = spec.partition(":")
            value = value.strip('"')
            get = {
                "format": lambda r: r.fmt,
                "topic_facet": lambda r: r.subject,
                "publishDate": lambda r: str(r.year),
                "language": lambda r: r.language,
            }.get(field)
            chosen = [r for r in chosen if get is not None and get(r) == value]
        lookfor = request.param("lookfor")
        if lookfor:
            found = {i.key for i in search_items(self.items, lookfor)}
            chosen = [r for r in chosen if r.rid in found or lookfor.lower() in r.title.lower()]
        sort = request.param("sort", "relevance")
        if sort == "year":
            chosen.sort(key=lambda r: r.year, reverse=True)
        extra = {"sort": sort} if sort != "relevance" else {}
        query = {"lookfor": lookfor} if lookfor else {}
        shown, pager = paged(request, chosen, PER_PAGE, lambda n: _link(filters, {**extra, **query, "page": str(n)}))
        rows = "".join(self._row(r) for r in shown)
        sorts = f'<a href="{attr(_link(filters, {"sort": "year"}))}">Date Descending</a>'
        content = (
            f'<div class="sidebar">{self._facets(chosen, filters)}</div><div class="results">'
            f"<p>Showing 1 - {len(shown)} of {len(chosen)}</p><p>Sort: Relevance | {sorts}</p>"
            f'<ol class="result-list">{rows}</ol>{pager}</div>'
        )
        return self.page(title="Search Results", content=content, kind="results")

    def _get_it(self, record: Record) -> str:
        if record.online:
            return f'<a href="{attr(record.online)}">Online version: see the other record</a>'
        item = record.item
        if item is None:
            return ""
        archive = [c for c in self.testbed.copies_of(item) if c.site != self.spec.name]
        target = self.links.on_site(archive[0].site, archive[0].path) if archive else item.pdf_path
        return f'<a class="getit" href="{attr(target)}">Get it</a>'

    def _row(self, record: Record) -> str:
        author = f"by {esc(_inverted(record.item.authors[0]))}" if record.item else ""
        return (
            f'<li class="result"><a class="title" href="{record.path}">{esc(record.title)}</a> '
            f'<div class="resultItemLine2">{author} Published {record.year}</div>'
            f'<span class="format">{esc(record.fmt)}</span> {self._get_it(record)}</li>'
        )

    def _coins(self, record: Record) -> str:
        params = [
            ("ctx_ver", "Z39.88-2004"),
            ("rft_val_fmt", "info:ofi/fmt:kev:mtx:book"),
            ("rft.btitle", record.title),
            ("rft.date", str(record.year)),
        ]
        if record.item:
            params += [("rft.au", a) for a in record.item.authors]
        return f'<span class="Z3988" title="{attr(urlencode(params))}"></span>'

    def _record(self, request: Request, rid: str, tab: str = "Holdings") -> Response:
        record = self.by_rid.get(rid)
        if record is None:
            return self.not_found()
        item = record.item
        rows = [("Format", esc(record.fmt)), ("Language", esc(record.language))]
        if item is not None:
            rows.insert(0, ("Main Author", f"{esc(_inverted(item.authors[0]))}, author."))
            if item.authors[1:]:
                rows.insert(1, ("Other Authors", "<br>".join(esc(_inverted(a)) for a in item.authors[1:])))
        if record.fmt == "Article":
            rows.append(("Published in", f"Halvergate Papers in Geography and Education, {record.year}."))
        else:
            press = "Halvergate University" if record.fmt in ("Thesis", "Report") else "Halvergate University Press"
            rows.append(("Published", f"Halvergate : {press}, {record.year}."))
        rows.append(
            (
                "Subjects",
                f'<a href="{attr(_link([f"topic_facet:{chr(34)}{record.subject}{chr(34)}"]))}">'
                f"{esc(record.subject)}</a>",
            )
        )
        if item is not None or record.online:
            rows.append(("Online Access", self._get_it(record)))
        table = "".join(f"<tr><th>{name}:</th><td>{value}</td></tr>" for name, value in rows)
        tabs = " ".join(
            f'<a href="{record.path}/{name}"{" class=active" if name == tab else ""}>{label}</a>'
            for name, label in (
                ("Holdings", "Holdings"),
                ("Description", "Description"),
                ("Cite", "Cite this"),
                ("Details", "Staff View"),
            )
        )
        if tab == "Description":
            body = f"<h3>Summary</h3><p>{esc(item.abstract)}</p>" if item else "<p>No description.</p>"
        elif tab == "Cite":
            body = f"<h3>APA Citation</h3><p>{esc(self._apa(record))}</p>"
        elif tab == "Details":
            body = f"<pre>245 10 $a {esc(record.title)}</pre>"
        else:
            call = f"{record.subject[:3].upper()} {int(record.rid) % 997}.{record.year}"
            body = (
                '<table class="holdings"><tr><th>Location</th><th>Call Number</th><th>Status</th></tr>'
                f"<tr><td>Main Library, Level 3</td><td>{esc(call)}</td><td>Available</td></tr></table>"
            )
        content = (
            f'<div class="breadcrumb"><a href="/">Home</a> › <a href="{attr(_link([]))}">Search</a></div>'
            f'<h1 property="name">{esc(record.title)}</h1>{self._coins(record)}'
            f'<table class="citation">{table}</table><nav class="record-tabs">{tabs} '
            f'<a href="{record.path}/Export?style=BibTeX">Export Record</a></nav><div class="tab-content">{body}</div>'
        )
        return self.page(title=record.title, content=content, kind=f"record-{tab.lower()}")

    def _apa(self, record: Record) -> str:
        authors = ", ".join(_inverted(a) for a in record.item.authors) if record.item else "Anon."
        return f"{authors} ({record.year}). {record.title}. Halvergate University."

    def _export(self, request: Request, rid: str) -> Response:
        record = self.by_rid.get(rid)
        if record is None:
            return self.not_found()
        return Response.text(
            f"@misc{{{rid},\n  title = {{{record.title}}},\n  year = {{{record.year}}}\n}}\n", kind="export"
        )

    def _download(self, request: Request, rid: str) -> Response:
        record = self.by_rid.get(rid)
        if record is None or record.item is None:
            return self.not_found()
        return self.pdf(record.item)
