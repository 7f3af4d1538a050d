"""HELD OUT, fresh (eleventh batch): Halvergate University Special Collections, built as ArchivesSpace-like public
interfaces are (see `fresh_heldout11.py`; do not read or tune anything to it). Collections (resources) carry finding
aids arranged in series: minutes, correspondence and photographs that are not works sit beside series of research
reports and of theses that are (with closed examiners' files among the theses); a series lists its components twenty
a page in archival order, each as "Title, 2024 March 12", and so does a component's page in its heading and its
schema.org JSON-LD (creators named surname first, the date as written); the page gives its identifier, DACS dates,
creators written surname first, scope and contents, a digital object to view and breadcrumbs back up; the report of
a registered trial links to the trial's record. Printable finding aids, request forms and the staff interface
are forbidden by robots.txt; a GET search covers the components.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, timedelta
from typing import ClassVar

from research_crawler.eval.testbed.decoys import DecoyKind
from research_crawler.eval.testbed.full_text import search_items
from research_crawler.eval.testbed.markup import MONTHS, attr, document, esc, json_script
from research_crawler.eval.testbed.models import Item
from research_crawler.eval.testbed.site_app import Request, Response, Route, SiteApp, paged

__all__ = ["PER_PAGE", "Component", "Fresh11ArchiveSite", "Series", "collections", "dacs", "inverted"]

PER_PAGE = 20
#: Collections that hold no research works: (resource id, title, dates, series titles).
_OTHER_COLLECTIONS = (
    (23, "Papers of Edith Marr, photographer", "1931-1988", ("Negatives", "Correspondence")),
    (29, "Halvergate Choral Society Records", "1902-2019", ("Concert programmes", "Minutes")),
)
_CORRESPONDENTS = (
    "the Mill Manager",
    "the Borough Surveyor",
    "the Dean of Faculty",
    "the Rivers Authority",
    "the Secretary of the Dyers' Union",
    "a former student",
)
_PLACES = (
    "the weaving shed",
    "the beck at Mill Lane",
    "the dye works",
    "the field station",
    "the library steps",
    "the canal basin",
)


def dacs(day: date) -> str:
    """A date as the finding aids write it: '2024 March 12'."""
    return f"{day.year} {MONTHS[day.month - 1]} {day.day}"


def inverted(name: str) -> str:
    """A person as an agent record names them: 'Okafor, Chidi'."""
    given, _, surname = name.rpartition(" ")
    return f"{surname}, {given}"


@dataclass(frozen=True)
class Component:
    """A file or item in a series: a research work (`item`) or a record that is not one."""

    cid: int
    title: str
    day: date
    identifier: str
    item: Item | None = None

    @property
    def path(self) -> str:
        return f"/repositories/2/archival_objects/{self.cid}"


@dataclass(frozen=True)
class Series:
    sid: int
    rid: int
    number: int
    title: str
    components: tuple[Component, ...]

    @property
    def path(self) -> str:
        return f"/repositories/2/archival_objects/{self.sid}"


@dataclass(frozen=True)
class Collection:
    rid: int
    title: str
    dates: str
    series: tuple[Series, ...]

    @property
    def path(self) -> str:
        return f"/repositories/2/resources/{self.rid}"


def _fillers(rid: int, number: int, kind: str, count: int) -> list[Component]:
    """`count` records of `kind` that are not works, dated across the collection's recent years."""
    made = []
    for n in range(count):
        day = date(2022, 1, 10) + timedelta(days=61 * n + 31 * number + rid)
        if kind == "letter":
            title = f"Letter to {_CORRESPONDENTS[(n + rid) % len(_CORRESPONDENTS)]}"
        elif kind == "photo":
            title = f"Photograph: {_PLACES[(n + number) % len(_PLACES)]}"
        elif kind == "closed":
            title = "Examiners' reports (closed until 2060)"
        else:
            title = f"Minutes of the meeting of {dacs(day)}"
        made.append(Component(50000 + 1000 * rid + 100 * number + n, title, day, f"HUA/{rid}/{number}/{n + 1}"))
    return made


def collections(items: list[Item]) -> list[Collection]:
    """The collections: one per category of the archive's items (reports and theses dealt alternately, oldest
    first, between two series among three that hold no works), then two that hold no works at all."""
    made = []
    for index, category in enumerate(sorted({i.category for i in items})):
        rid = 11 + 3 * index
        mine = sorted((i for i in items if i.category == category), key=lambda i: (i.date, i.id))
        reports, theses = mine[0::2], mine[1::2]
        plan = (
            ("Correspondence", "letter", ()),
            ("Research reports", None, reports),
            ("Theses and dissertations", "closed", theses),
            ("Photographs", "photo", ()),
        )
        series = []
        for number, (title, filler, works) in enumerate(plan, start=1):
            comps = [
                Component(int(i.key), i.title, date.fromisoformat(i.date), f"HUA/{rid}/{number}/{n + 1}", i)
                for n, i in enumerate(works)
            ]
            if filler:
                comps += _fillers(rid, number, filler, {"closed": 1, "letter": 14, "photo": 23}[filler])
            comps.sort(key=lambda c: (c.day, c.cid))
            series.append(Series(30000 + 10 * rid + number, rid, number, title, tuple(comps)))
        first = min(date.fromisoformat(i.date).year for i in mine)
        made.append(Collection(rid, category, f"{first - 140}-2026", tuple(series)))
    for rid, title, dates, names in _OTHER_COLLECTIONS:
        kinds = ["photo" if "Negatives" in name else "letter" if "Corr" in name else "minutes" for name in names]
        made.append(
            Collection(
                rid,
                title,
                dates,
                tuple(
                    Series(30000 + 10 * rid + n, rid, n, name, tuple(_fillers(rid, n, kind, 6)))
                    for n, (name, kind) in enumerate(zip(names, kinds, strict=True), start=1)
                ),
            )
        )
    return made


class Fresh11ArchiveSite(SiteApp):
    """An archives portal: collections with finding aids, series, components, digital objects."""

    decoy_paths: ClassVar[dict[str, DecoyKind]] = {
        "/about": "about",
        "/contact": "contact",
        "/accessibility": "accessibility",
    }

    def routes(self) -> list[Route]:
        self.collections = collections(self.items)
        self.series = {s.sid: (c, s) for c in self.collections for s in c.series}
        self.components = {p.cid: (c, s, p) for c in self.collections for s in c.series for p in s.components}
        return [
            (re.compile(r"/"), self._home),
            (re.compile(r"/repositories/2/resources"), self._collections),
            (re.compile(r"/repositories/2/resources/(?P<rid>\d+)"), self._collection),
            (re.compile(r"/repositories/2/resources/(?P<rid>\d+)/pdf"), self._printable),
            (re.compile(r"/repositories/2/archival_objects/(?P<cid>\d+)"), self._object),
            (re.compile(r"/files/(?P<cid>\d+)/access\.pdf"), self._file),
            (re.compile(r"/fill_request"), self._request_form),
            (re.compile(r"/search"), self._search),
        ]

    def robots_txt(self) -> str:
        return "User-agent: *\nDisallow: /repositories/*/resources/*/pdf\nDisallow: /fill_request\nDisallow: /staff/\n"

    def sample_paths(self) -> dict[str, str]:
        collection = self.collections[0]
        series = collection.series[1]
        return {
            "home": "/",
            "collections": "/repositories/2/resources",
            "collection": collection.path,
            "series": series.path,
            "component": series.components[0].path,
            "search": "/search?q=mill",
        }

    def page(self, *, title: str, content: str, kind: str, status: int = 200, head: str = "") -> Response:
        body = (
            '<header id="header"><a href="/" class="brand">Halvergate University Special Collections</a>'
            '<nav><a href="/repositories/2/resources">Collections</a> <a href="/search">Search</a> '
            '<a href="/about">Visit us</a> <a href="/contact">Ask an archivist</a></nav></header>\n'
            f'<div id="content">{content}</div>\n'
            '<footer><a href="/accessibility">Accessibility</a> · Staff: <a href="/staff/">log in</a></footer>'
        )
        html = document(title=f"{title} | Halvergate University Special Collections", head=head, body=body)
        return Response.html(html, kind=kind, status=status)

    def _home(self, request: Request) -> Response:
        content = (
            "<h1>Explore our collections</h1><p>Manuscripts, photographs and the records of the university, "
            "described in finding aids and, where we can, digitised.</p>"
            '<p><a class="btn" href="/repositories/2/resources">Browse collections</a></p>'
            '<form action="/search" method="get"><input name="q" aria-label="Search all records">'
            "<button>Search</button></form>"
            "<h2>Opening hours</h2><p>Reading room: Tuesday to Friday, 10:00-16:00, by appointment.</p>"
        )
        return self.page(title="Home", content=content, kind="home")

    def _collections(self, request: Request) -> Response:
        rows = "".join(
            f'<li class="recordrow"><span class="badge">Collection</span> <a href="{c.path}">{esc(c.title)}</a>, '
            f'{c.dates} <span class="identifier">HUA/{c.rid}</span></li>'
            for c in sorted(self.collections, key=lambda c: c.title)
        )
        content = f"<h1>Collections</h1><p>Showing Collections: 1 - {len(self.collections)}</p><ul>{rows}</ul>"
        return self.page(title="Collections", content=content, kind="collections")

    def _collection(self, request: Request, rid: str) -> Response:
        collection = next((c for c in self.collections if c.rid == int(rid)), None)
        if collection is None:
            return self.not_found()
        tree = "".join(
            f'<li><a href="{s.path}">Series {s.number}: {esc(s.title)}</a> ({len(s.components)} items)</li>'
            for s in collection.series
        )
        content = (
            f'<div class="breadcrumb"><a href="/">Home</a> › <a href="/repositories/2/resources">Collections</a>'
            f'</div><h1>{esc(collection.title)}</h1><p class="badge">Collection</p>'
            f"<h2>Dates</h2><p>Creation: {collection.dates}</p><h2>Scope and Contents</h2><p>The records gathered "
            f"under this title, arranged in {len(collection.series)} series. Some files are closed under data "
            f'protection law.</p><h2>Collection organization</h2><ul class="tree">{tree}</ul>'
            f'<p><a href="{collection.path}/pdf">Print finding aid</a></p>'
        )
        return self.page(title=collection.title, content=content, kind="collection")

    def _printable(self, request: Request, rid: str) -> Response:
        return Response.text(f"Finding aid HUA/{rid}\n", kind="print")

    def _object(self, request: Request, cid: str) -> Response:
        if int(cid) in self.series:
            return self._series(request, *self.series[int(cid)])
        if int(cid) not in self.components:
            return self.not_found()
        collection, series, component = self.components[int(cid)]
        trail = (
            f'<div class="breadcrumb"><a href="/">Home</a> › <a href="{collection.path}">{esc(collection.title)}</a>'
            f' › <a href="{series.path}">Series {series.number}: {esc(series.title)}</a></div>'
        )
        item = component.item
        facts = f"<h2>Dates</h2><p>Creation: {dacs(component.day)}</p><h2>Identifier</h2><p>{component.identifier}</p>"
        if item is None:
            closed = "closed" in component.title
            content = (
                trail
                + f"<h1>{esc(component.title)}</h1>{facts}"
                + (
                    "<p>This file is closed. Ask an archivist about access.</p>"
                    if closed
                    else "<h2>Extent</h2><p>1 item</p><p>Not digitised: "
                    f'<a href="/fill_request?id={component.cid}">request to view in the reading room</a></p>'
                )
            )
            return self.page(title=component.title, content=content, kind="component")
        creators = "".join(f"<li>{esc(inverted(a))} (Person)</li>" for a in item.authors)
        registered = [c for c in self.testbed.copies_of(item) if c.site != self.spec.name]
        also = "".join(
            f'<p>Trial registration and results: <a href="{attr(self.links.on_site(c.site, c.path))}">'
            f"{esc(self.testbed.site(c.site).title)}</a></p>"
            for c in registered
        )
        kind = "Report" if series.title == "Research reports" else "Thesis"
        shown = f"{item.title}, {dacs(component.day)}"
        content = trail + (
            f'<h1>{esc(shown)}</h1><p class="badge">File</p>{facts}'
            f'<h2>Creator</h2><ul class="agents">{creators}</ul><h2>Scope and Contents</h2><p>{esc(item.abstract)}</p>'
            f"<h2>Extent</h2><p>1 digital file ({kind}, PDF)</p><h2>Digital Material</h2>"
            f'<p><a href="{attr(item.pdf_path)}">View digital object</a></p>{also}'
        )
        linked = {
            "@context": "http://schema.org/",
            "@id": self.links.absolute(component.path),
            "@type": "ArchiveComponent",
            "name": shown,
            "identifier": component.identifier,
            "isPartOf": self.links.absolute(series.path),
            "description": item.abstract,
            "creator": [{"@type": "Person", "name": inverted(a)} for a in item.authors],
            "dateCreated": [dacs(component.day)],
            "holdingArchive": {"@type": "ArchiveOrganization", "name": self.spec.title},
        }
        head = json_script(linked, script_type="application/ld+json")
        return self.page(title=shown, content=content, kind="component", head=head)

    def _series(self, request: Request, collection: Collection, series: Series) -> Response:
        shown, pager = paged(request, series.components, PER_PAGE, lambda n: f"{series.path}?page={n}")
        rows = "".join(
            f'<li><a href="{p.path}">{esc(p.title)}</a>, {dacs(p.day)} <span class="identifier">'
            f"{p.identifier}</span></li>"
            for p in shown
        )
        content = (
            f'<div class="breadcrumb"><a href="/">Home</a> › <a href="{collection.path}">{esc(collection.title)}</a>'
            f'</div><h1>Series {series.number}: {esc(series.title)}</h1><p class="badge">Series</p>'
            f"<p>Part of {esc(collection.title)}. {len(series.components)} items, in archival order.</p>"
            f'<ul class="components">{rows}</ul>{pager}'
        )
        return self.page(title=series.title, content=content, kind="series")

    def _file(self, request: Request, cid: str) -> Response:
        item = next((i for i in self.items if i.pdf_path == request.path), None)
        return self.not_found() if item is None else self.pdf(item)

    def _request_form(self, request: Request) -> Response:
        content = '<h1>Request to view</h1><form method="post"><input name="email"><button>Send</button></form>'
        return self.page(title="Request", content=content, kind="request")

    def _search(self, request: Request) -> Response:
        text = request.param("q")
        found = search_items(self.items, text) if text else []
        rows = "".join(
            f'<li><span class="badge">Archival Object</span> <a href="{attr(i.path)}">{esc(i.title)}</a></li>'
            for i in found
        )
        content = (
            f'<h1>Search results</h1><form action="/search" method="get"><input name="q" value="{attr(text)}">'
            "<button>Search</button></form>"
            + (f"<p>Showing {len(found)} results</p><ul>{rows}</ul>" if text else "<p>Enter a search term.</p>")
        )
        return self.page(title="Search", content=content, kind="search")
