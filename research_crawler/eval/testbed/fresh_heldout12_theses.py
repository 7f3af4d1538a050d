"""HELD OUT, fresh (twelfth batch): the Thornbury University Research Repository, built as DSpace-like repositories
of electronic theses are (see `fresh_heldout12.py`; do not read or tune anything to it). Faculties are communities
holding schools, and a school's collections hold its doctoral and its masters theses (among theses on other
subjects) and, for one school, datasets that are not works. Collections, communities and the whole repository are
browsed by issue date (oldest first), by title and by author, twenty a page with offset links; a collection's
"Recent Submissions" are the last accessioned, not the last issued. An item's simple record gives the title, the
author and supervisors written surname first, the issue date, its files (some under embargo), the abstract and
the handle, with Dublin Core and citation meta tags; its full record lists every field, the accession timestamp
among them. Discovery search, statistics, feedback and login are forbidden by robots.txt.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, timedelta
from typing import ClassVar
from urllib.parse import quote_plus

from research_crawler.eval.testbed.decoys import DecoyKind
from research_crawler.eval.testbed.full_text import search_items
from research_crawler.eval.testbed.markup import attr, document, esc, meta_name
from research_crawler.eval.testbed.models import Item
from research_crawler.eval.testbed.site_app import Request, Response, Route, SiteApp

__all__ = ["PER_PAGE", "Collection", "Fresh12ThesesSite", "Record", "collections", "surname_first"]

PER_PAGE = 20
PREFIX = "10523"
TODAY = date(2026, 11, 27)
#: Faculties (community handle, name) and their schools (sub-community handle, name, filler subjects).
_FACULTIES = (
    (1, "Faculty of Science and Engineering", (
        (12, "School of Biological and Environmental Sciences",
         ("Soil Nematodes", "Hedgerow Bats", "Moorland Carbon Fluxes", "Barn Owl Diets", "Bracken Control",
          "Dune Slack Orchids")),
        (14, "School of Physics and Astronomy",
         ("Dusty Star-Forming Galaxies", "Perovskite Thin Films", "Muon Tomography", "Cold Atom Interferometry",
          "Solar Coronal Loops", "Terahertz Detectors")),
    )),
    (2, "Faculty of Arts and Humanities", (
        (21, "School of Languages and Linguistics",
         ("Old Norse Loanwords", "Sign Language Poetry", "Welsh Mutation", "Courtroom Interpreting",
          "Children's Picture Books in Translation", "Place-Name Elements")),
        (23, "School of History",
         ("Poor Law Unions", "Medieval Wool Exports", "Chapel Building in the Dales", "Wartime Evacuees",
          "Turnpike Trusts", "Co-operative Stores")),
    )),
)  # fmt: skip
_FRAMES = ("{} in Northern England, 1850-1914", "A Study of {}", "{}: New Approaches", "Rethinking {}")
_STUDENTS = (
    "Harriet Bolam", "Tomasz Wrobel", "Aisha Rahman", "Callum Dunne", "Mei Ling Tan", "Owen Pritchard",
    "Grace Oduya", "Rory McAllister", "Sofia Lindqvist", "Daniel Hebden", "Priya Raval", "Jonas Meier",
)  # fmt: skip
_STAFF = ("Margaret Ashworth", "Colin Threlfall", "Ruth Okonjo", "Peter Haigh", "Imogen Carr", "Samuel Bright")
_DATASETS = (
    "Trap catch records from the Tarn headwaters, 2019-2023",
    "Environmental DNA sample metadata, Wenning catchment",
    "Bank profile surveys, Lower Wenning",
    "Hedgerow bat acoustic recordings",
    "Soil core carbon measurements, Thornbury moor",
    "Owl pellet contents, 2021 season",
)


def surname_first(name: str) -> str:
    """A person as the repository's metadata writes them: 'Okafor, Chidi'."""
    given, _, surname = name.rpartition(" ")
    return f"{surname}, {given}"


@dataclass(frozen=True)
class Record:
    """An item of the repository: a thesis (a work when `item` is set, else on another subject) or a dataset."""

    handle: int
    title: str
    author: str
    supervisors: tuple[str, ...]
    issued: date
    kind: str
    abstract: str
    item: Item | None = None

    @property
    def path(self) -> str:
        return f"/handle/{PREFIX}/{self.handle}"

    @property
    def accessioned(self) -> date:
        """When the record went in: a deposit lag of weeks to over a year after the award."""
        return min(self.issued + timedelta(days=20 + 37 * (self.handle % 11)), TODAY - timedelta(days=3))

    @property
    def embargo(self) -> date | None:
        """The end of the file's embargo, for one thesis in three."""
        return self.issued + timedelta(days=730) if self.kind != "Dataset" and self.handle % 3 == 0 else None


@dataclass(frozen=True)
class Collection:
    handle: int
    name: str
    school: int
    records: tuple[Record, ...]

    @property
    def path(self) -> str:
        return f"/handle/{PREFIX}/{self.handle}"


def _fillers(school: int, subjects: tuple[str, ...], kind: str, count: int, offset: int) -> list[Record]:
    made = []
    for n in range(count):
        handle = 9000 + 100 * school + offset + n
        title = _FRAMES[(n + offset) % len(_FRAMES)].format(subjects[(n * 5 + offset) % len(subjects)])
        issued = date(2014, 6, 30) + timedelta(days=(handle * 97) % 4500)
        author = _STUDENTS[(handle * 7) % len(_STUDENTS)]
        staff = (_STAFF[handle % len(_STAFF)],)
        made.append(Record(handle, title, author, staff, issued, kind, f"A thesis on {title.lower()}."))
    return made


def collections(items: list[Item]) -> list[Collection]:
    """Each school's collections: its items dealt between doctoral and masters theses, oldest first, among theses
    on other subjects; datasets where the school deposits them."""
    made = []
    for _, _, schools in _FACULTIES:
        for school, name, subjects in schools:
            mine = sorted((i for i in items if i.category == name), key=lambda i: (i.date, i.id))
            kinds = (
                ("Doctoral theses", "Thesis (PhD)", mine[0::2]),
                ("Masters theses", "Thesis (Masters)", mine[1::2]),
            )
            for n, (title, kind, works) in enumerate(kinds):
                records = [
                    Record(
                        int(i.key.split("/")[1]), i.title, i.authors[0], i.authors[1:], date.fromisoformat(i.date),
                        kind, i.abstract, i,
                    )
                    for i in works
                ]  # fmt: skip
                records += _fillers(school, subjects, kind, 17 - 6 * n + school % 4, 50 * n)
                records.sort(key=lambda r: (r.issued, r.handle))
                made.append(Collection(10 * school + n, title, school, tuple(records)))
            if mine and school == 12:
                data = [
                    Record(9900 + n, t, _STAFF[n], (), date(2021, 3, 1) + timedelta(days=211 * n), "Dataset",
                           f"Data files: {t}.")
                    for n, t in enumerate(_DATASETS)
                ]  # fmt: skip
                made.append(Collection(10 * school + 2, "Research data", school, tuple(data)))
    return made


def _school_of(handle: int) -> tuple[int, str, str] | None:
    """(faculty handle, faculty name, school name) of a school's handle."""
    for faculty, faculty_name, schools in _FACULTIES:
        for school, name, _ in schools:
            if school == handle:
                return faculty, faculty_name, name
    return None


class Fresh12ThesesSite(SiteApp):
    """A theses repository: communities, collections, browse indexes, simple and full item records."""

    decoy_paths: ClassVar[dict[str, DecoyKind]] = {"/about": "about", "/contact": "contact", "/privacy": "privacy"}

    def routes(self) -> list[Route]:
        self.collections = collections(self.items)
        self.records = {r.handle: (c, r) for c in self.collections for r in c.records}
        return [
            (re.compile(r"/"), self._home),
            (re.compile(r"/community-list"), self._community_list),
            (re.compile(r"/browse"), self._browse),
            (re.compile(rf"/handle/{PREFIX}/(?P<handle>\d+)"), self._handle),
            (re.compile(rf"/handle/{PREFIX}/(?P<handle>\d+)/browse"), self._scoped_browse),
            (re.compile(rf"/handle/{PREFIX}/(?P<handle>\d+)/statistics"), self._statistics),
            (re.compile(rf"/bitstream/handle/{PREFIX}/(?P<handle>\d+)/thesis\.pdf"), self._bitstream),
            (re.compile(r"/discover"), self._discover),
            (re.compile(r"/login|/feedback"), self._login),
        ]

    def robots_txt(self) -> str:
        return (
            "User-agent: *\nDisallow: /discover\nDisallow: /search-filter\nDisallow: /statistics\n"
            "Disallow: /*/statistics\nDisallow: /feedback\nDisallow: /login\n"
        )

    def sample_paths(self) -> dict[str, str]:
        collection = self.collections[0]
        return {
            "home": "/",
            "communities": "/community-list",
            "faculty": f"/handle/{PREFIX}/1",
            "school": f"/handle/{PREFIX}/12",
            "collection": collection.path,
            "browse": f"{collection.path}/browse?type=dateissued",
            "authors": "/browse?type=author",
            "item": collection.records[0].path,
            "full": f"{collection.records[0].path}?show=full",
            "search": "/discover?query=thesis",
        }

    def page(self, *, title: str, content: str, kind: str, status: int = 200, head: str = "") -> Response:
        body = (
            '<header id="ds-header"><a href="/" id="ds-header-logo">Thornbury University Research Repository</a>'
            '<form id="ds-search-form" action="/discover" method="get"><input name="query" aria-label="Search">'
            "<button>Go</button></form></header>\n"
            f'<div id="ds-body">{content}</div>\n<aside id="ds-options"><h2>Browse</h2><h3>All of the repository</h3>'
            '<ul><li><a href="/community-list">Communities &amp; Collections</a></li>'
            '<li><a href="/browse?type=dateissued">By Issue Date</a></li>'
            '<li><a href="/browse?type=author">Authors</a></li><li><a href="/browse?type=title">Titles</a></li></ul>'
            '<h2>My Account</h2><ul><li><a href="/login">Login</a></li></ul></aside>\n'
            '<footer id="ds-footer"><a href="/about">About the repository</a> · <a href="/contact">Contact Us</a> · '
            '<a href="/feedback">Send Feedback</a> · <a href="/privacy">Privacy</a></footer>'
        )
        html = document(title=title, head=head, body=body, body_class="ds-xmlui")
        return Response.html(html, kind=kind, status=status)

    def _row(self, record: Record) -> str:
        return (
            f'<div class="ds-artifact-item"><a href="{record.path}"><h4>{esc(record.title)}</h4></a>'
            f'<div class="artifact-info"><span class="author"><small>{esc(surname_first(record.author))}</small>'
            f'</span> <span class="publisher-date"><small>(<span class="date">{record.issued.isoformat()}</span>)'
            "</small></span></div></div>"
        )

    def _recent(self, records: list[Record]) -> str:
        newest = sorted(records, key=lambda r: (r.accessioned, r.handle), reverse=True)[:5]
        return '<h2>Recent Submissions</h2><div id="recent">' + "".join(self._row(r) for r in newest) + "</div>"

    def _home(self, request: Request) -> Response:
        faculties = "".join(
            f'<li><a href="/handle/{PREFIX}/{handle}">{esc(name)}</a></li>' for handle, name, _ in _FACULTIES
        )
        content = (
            "<h1>Thornbury University Research Repository</h1><p>The repository holds the university's doctoral "
            "and masters theses, deposited after the award, and research data.</p>"
            f"<h2>Communities in the repository</h2><p>Select a community to browse its collections.</p>"
            f'<ul class="ds-artifact-list">{faculties}</ul>'
            + self._recent([r for _, r in self.records.values()]).replace("Recent Submissions", "Recently Added")
        )
        return self.page(title="Thornbury University Research Repository", content=content, kind="home")

    def _community_list(self, request: Request) -> Response:
        tree = ""
        for handle, name, schools in _FACULTIES:
            inner = ""
            for school, school_name, _ in schools:
                mine = "".join(
                    f'<li><a href="{c.path}">{esc(c.name)}</a> [{len(c.records)}]</li>'
                    for c in self.collections
                    if c.school == school
                )
                inner += f'<li><a href="/handle/{PREFIX}/{school}">{esc(school_name)}</a><ul>{mine}</ul></li>'
            tree += f'<li><a href="/handle/{PREFIX}/{handle}">{esc(name)}</a><ul>{inner}</ul></li>'
        content = f'<h1>Communities in the repository</h1><ul id="community-tree">{tree}</ul>'
        return self.page(title="Communities and Collections", content=content, kind="communities")

    def _browse_links(self, base: str) -> str:
        return (
            '<h3>Browse</h3><ul class="browse">'
            f'<li><a href="{base}/browse?type=dateissued">By Issue Date</a></li>'
            f'<li><a href="{base}/browse?type=author">Authors</a></li>'
            f'<li><a href="{base}/browse?type=title">Titles</a></li></ul>'
        )

    def _handle(self, request: Request, handle: str) -> Response:
        number = int(handle)
        faculty = next((f for f in _FACULTIES if f[0] == number), None)
        school = _school_of(number)
        collection = next((c for c in self.collections if c.handle == number), None)
        if faculty is not None:
            subs = "".join(f'<li><a href="/handle/{PREFIX}/{s}">{esc(n)}</a></li>' for s, n, _ in faculty[2])
            content = (
                f"<h1>{esc(faculty[1])}</h1>{self._browse_links(f'/handle/{PREFIX}/{number}')}"
                f"<h2>Sub-communities within this community</h2><ul>{subs}</ul>"
            )
            return self.page(title=faculty[1], content=content, kind="community")
        if school is not None:
            mine = [c for c in self.collections if c.school == number]
            rows = "".join(f'<li><a href="{c.path}">{esc(c.name)}</a> [{len(c.records)}]</li>' for c in mine)
            content = (
                f'<div class="breadcrumb"><a href="/">Repository Home</a> → <a href="/handle/{PREFIX}/{school[0]}">'
                f"{esc(school[1])}</a></div><h1>{esc(school[2])}</h1>"
                f"{self._browse_links(f'/handle/{PREFIX}/{number}')}<h2>Collections in this community</h2>"
                f"<ul>{rows}</ul>" + self._recent([r for c in mine for r in c.records])
            )
            return self.page(title=school[2], content=content, kind="community")
        if collection is not None:
            where = _school_of(collection.school)
            assert where is not None
            content = (
                f'<div class="breadcrumb"><a href="/">Repository Home</a> → <a href="/handle/{PREFIX}/'
                f'{collection.school}">{esc(where[2])}</a></div><h1>{esc(collection.name)}</h1>'
                f"{self._browse_links(collection.path)}"
                f'<p><a href="{collection.path}/statistics">View Usage Statistics</a></p>'
                + self._recent(list(collection.records))
            )
            return self.page(title=f"{where[2]}: {collection.name}", content=content, kind="collection")
        if number in self.records:
            return self._item(request, *self.records[number])
        return self.not_found()

    def _entries(self, scope: int | None) -> list[Record]:
        chosen = []
        for c in self.collections:
            school = _school_of(c.school)
            if scope is None or scope in (c.handle, c.school) or (school is not None and school[0] == scope):
                chosen += list(c.records)
        return chosen

    def _scoped_browse(self, request: Request, handle: str) -> Response:
        return self._browse(request, int(handle))

    def _browse(self, request: Request, scope: int | None = None) -> Response:
        kind = request.param("type", "dateissued")
        records = self._entries(scope)
        base = f"/handle/{PREFIX}/{scope}/browse" if scope else "/browse"
        value = request.param("value")
        if kind == "author" and not value:
            names = sorted({surname_first(r.author) for r in records})
            offset = request.int_param("offset", 0, maximum=len(names))
            rows = "".join(
                f'<li><a href="{attr(f"{base}?type=author&value={quote_plus(n)}")}">{esc(n)}</a> '
                f"[{sum(1 for r in records if surname_first(r.author) == n)}]</li>"
                for n in names[offset : offset + PER_PAGE]
            )
            pager = self._pager(f"{base}?type=author", offset, len(names))
            content = f'<h1>Browsing by Author</h1><ul class="ds-simple-list">{rows}</ul>{pager}'
            return self.page(title="Browsing by Author", content=content, kind="browse")
        if kind == "author":
            records = [r for r in records if surname_first(r.author) == value]
        if kind == "title":
            records.sort(key=lambda r: (r.title.lower(), r.handle))
        else:
            records.sort(key=lambda r: (r.issued, r.handle))
        offset = request.int_param("offset", 0, maximum=max(0, len(records)))
        shown = records[offset : offset + PER_PAGE]
        label = {"title": "Title", "author": "Author"}.get(kind, "Issue Date")
        query = f"type={kind}" + (f"&value={quote_plus(value)}" if kind == "author" else "")
        content = (
            f"<h1>Browsing by {label}</h1>"
            f'<form action="{base}" method="get"><input type="hidden" name="type" value="{attr(kind)}">'
            '<label>Jump to a point in the index: <input name="year" placeholder="Choose year"></label>'
            '<select name="order"><option value="ASC">ascending</option><option value="DESC">descending</option>'
            "</select><button>Go</button></form>"
            f'<p class="pagination-info">Now showing items {min(offset + 1, len(records))}-'
            f"{offset + len(shown)} of {len(records)}</p>"
            + "".join(self._row(r) for r in shown)
            + self._pager(f"{base}?{query}&sort_by=2&order=ASC&rpp={PER_PAGE}", offset, len(records))
        )
        return self.page(title=f"Browsing by {label}", content=content, kind="browse")

    def _pager(self, base: str, offset: int, total: int) -> str:
        links = []
        if offset > 0:
            links.append(f'<a class="previous-page-link" href="{attr(f"{base}&offset={offset - PER_PAGE}")}">'
                         "Previous Page</a>")  # fmt: skip
        if offset + PER_PAGE < total:
            links.append(f'<a class="next-page-link" href="{attr(f"{base}&offset={offset + PER_PAGE}")}">Next Page</a>')
        return f'<div class="pagination">{" ".join(links)}</div>'

    def _item(self, request: Request, collection: Collection, record: Record) -> Response:
        school = _school_of(collection.school)
        assert school is not None
        embargo = record.embargo
        closed = embargo is not None and embargo > TODAY
        pdf = f"/bitstream/handle/{PREFIX}/{record.handle}/thesis.pdf"
        file_link = f"{pdf}?sequence=1&isAllowed={'n' if closed else 'y'}"
        note = f' <span class="embargo">Restricted until {embargo.isoformat()}</span>' if closed and embargo else ""
        accession = f"{record.accessioned.isoformat()}T{10 + record.handle % 7}:{record.handle % 60:02d}:14Z"
        fields = [
            *(("dc.contributor.advisor", surname_first(s)) for s in record.supervisors),
            ("dc.contributor.author", surname_first(record.author)),
            ("dc.date.accessioned", accession),
            ("dc.date.available", (embargo or record.accessioned).isoformat()),
            ("dc.date.issued", record.issued.isoformat()),
            ("dc.identifier.uri", f"http://hdl.handle.net/{PREFIX}/{record.handle}"),
            ("dc.description.abstract", record.abstract),
            ("dc.language.iso", "en"),
            ("dc.publisher", "Thornbury University"),
            ("dc.title", record.title),
            ("dc.type", record.kind),
        ]
        if embargo is not None:
            fields.append(("dc.rights.embargodate", embargo.isoformat()))
        head = "\n".join(
            [meta_name("DC.creator", surname_first(record.author))]
            + [meta_name("DC.contributor", surname_first(s)) for s in record.supervisors]
            + [
                meta_name("DCTERMS.dateAccepted", accession),
                meta_name("DCTERMS.issued", record.issued.isoformat()),
                meta_name("DC.title", record.title),
                meta_name("DC.type", record.kind),
                meta_name("citation_title", record.title),
                meta_name("citation_author", surname_first(record.author)),
                meta_name("citation_date", record.issued.isoformat()),
                meta_name("citation_dissertation_institution", "Thornbury University"),
            ]
            + ([] if closed else [meta_name("citation_pdf_url", self.links.absolute(pdf))])
        )
        trail = (
            f'<div class="breadcrumb"><a href="/">Repository Home</a> → <a href="/handle/{PREFIX}/{school[0]}">'
            f'{esc(school[1])}</a> → <a href="/handle/{PREFIX}/{collection.school}">{esc(school[2])}</a> → '
            f'<a href="{collection.path}">{esc(collection.name)}</a></div>'
        )
        if request.param("show") == "full":
            rows = "".join(f"<tr><td>{k}</td><td>{esc(v)}</td><td>en</td></tr>" for k, v in fields)
            body = f'<table class="ds-includeSet-table detailtable">{rows}</table>'
            switch = f'<p><a href="{record.path}">Show simple item record</a></p>'
        else:
            supervisors = "; ".join(surname_first(s) for s in record.supervisors)
            author = surname_first(record.author)
            body = (
                f'<div class="item-page-field-wrapper"><h5>Files in this item</h5><a href="{attr(file_link)}">'
                f"{'data.zip' if record.kind == 'Dataset' else 'thesis.pdf'}</a>{note}</div>"
                f"<div><h5>Date</h5><span>{record.issued.isoformat()}</span></div>"
                f'<div><h5>Author</h5><a href="{attr(f"/browse?type=author&value={quote_plus(author)}")}">'
                f"{esc(author)}</a></div>"
                + (f"<div><h5>Supervisor</h5><span>{esc(supervisors)}</span></div>" if supervisors else "")
                + f"<div><h5>Type</h5><span>{esc(record.kind)}</span></div>"
                f"<div><h5>Abstract</h5><p>{esc(record.abstract)}</p></div>"
                f"<div><h5>URI</h5><span>http://hdl.handle.net/{PREFIX}/{record.handle}</span></div>"
                f'<div><h5>Collections</h5><a href="{collection.path}">{esc(collection.name)}</a></div>'
            )
            switch = f'<p><a href="{record.path}?show=full">Show full item record</a></p>'
        for copy in [c for c in self.testbed.copies_of(record.item) if c.site != self.spec.name] if record.item else []:
            body += (
                f'<p class="related">Featured in <a href="{attr(self.links.on_site(copy.site, copy.path))}">'
                f"{esc(self.testbed.site(copy.site).title)}</a></p>"
            )
        content = f'{trail}<h2 class="page-header">{esc(record.title)}</h2>{body}{switch}'
        return self.page(title=record.title, content=content, kind="item", head=head)

    def _bitstream(self, request: Request, handle: str) -> Response:
        found = self.records.get(int(handle))
        if found is None or found[1].item is None:
            return self.not_found()
        embargo = found[1].embargo
        if embargo is not None and embargo > TODAY:
            content = f"<h1>Restricted item</h1><p>This file is embargoed until {embargo.isoformat()}.</p>"
            return self.page(title="Restricted item", content=content, kind="restricted", status=403)
        return self.pdf(found[1].item)

    def _statistics(self, request: Request, handle: str) -> Response:
        return self.page(title="Statistics", content="<h1>Total Visits</h1><p>1,204</p>", kind="statistics")

    def _login(self, request: Request) -> Response:
        form = '<h1>Sign in</h1><form method="post"><input name="login_email"><button>Sign in</button></form>'
        return self.page(title="Sign in", content=form, kind="login")

    def _discover(self, request: Request) -> Response:
        text = request.param("query")
        found = search_items(self.items, text) if text else []
        rows = "".join(f'<li><a href="{attr(i.path)}">{esc(i.title)}</a></li>' for i in found)
        content = (
            f'<h1>Search</h1><form action="/discover" method="get"><input name="query" value="{attr(text)}">'
            f"<button>Go</button></form><p>Now showing items 1-{len(found)} of {len(found)}</p><ul>{rows}</ul>"
        )
        return self.page(title="Search", content=content, kind="search")
