"""HELD OUT, fresh (thirteenth batch): Kingsbridge University's reading lists, built as Talis Aspire builds them (see
`fresh_heldout13.py`; do not read or tune anything to it). The home page leads through the hierarchy: the
university's faculties, their departments, their modules (`/faculties/<code>.html`, `/departments/<code>.html`,
`/modules/<code>.html`); a module links this year's list and last year's, archived. A list runs by sections in the
tutor's order, never by date; each entry gives its title, authors "Surname, Given" joined by semicolons, the year
only, its type and its importance. This year's list drops the readings the tutor retired (those before 2023), which
last year's list still holds. An item page gives the type, the authors, the full date written day/month/year, the
journal, a digitised copy for the articles and the lists it appears on. Books, chapters, web pages, videos and
guidelines sit among the articles. The search, list exports, bookmarks and logins are forbidden by robots.txt.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date
from typing import ClassVar

from research_crawler.eval.testbed.decoys import DecoyKind
from research_crawler.eval.testbed.fresh_heldout13 import talis_id
from research_crawler.eval.testbed.full_text import search_items
from research_crawler.eval.testbed.markup import attr, document, esc
from research_crawler.eval.testbed.models import Item
from research_crawler.eval.testbed.site_app import Request, Response, Route, SiteApp

__all__ = ["RETIRED_BEFORE", "Entry", "Fresh13ReadingListsSite", "Module", "listed", "modules", "written"]

#: This year's lists leave out the readings dated before this day (last year's still hold them).
RETIRED_BEFORE = date(2023, 1, 1)
THIS_YEAR, LAST_YEAR = "2025-26", "2024-25"
#: Where each module sits: (faculty code, faculty, department code, department).
_PLACES = {
    "PH7021": ("fmh", "Faculty of Medicine and Health", "sph", "School of Public Health"),
    "CE6104": ("feps", "Faculty of Engineering and Physical Sciences", "civ", "School of Civil Engineering"),
}
_SECTIONS = (
    "Week 1: Introduction and key concepts",
    "Week 3: Evidence from trials",
    "Week 5: Methods",
    "Further reading",
)
_IMPORTANCE = ("Essential", "Recommended", "Recommended", "Background")
_JOURNALS = ("BMJ Open", "Journal of Hydrology", "Patient Preference and Adherence", "Water Research", "PLOS ONE")
#: Readings that are not papers on each module's lists: (type, title, creators, year).
_OTHERS = {
    "PH7021": (
        ("Book", "Digital Health: A Practical Introduction", ("Hartley, Joanne",), 2021),
        ("Chapter", "Behaviour change techniques, in: Health Psychology in Practice", ("Ncube, Tendai",), 2020),
        ("Webpage", "NHS digital service manual: messaging", ("NHS England",), 2024),
        ("Audio-visual document", "Lecture recording: nudging patients", ("Kingsbridge University",), 2025),
        (
            "Document",
            "Medicines adherence: clinical guideline",
            ("National Institute for Health and Care Excellence",),
            2019,
        ),
        ("Book", "The Pharmacist's Guide to Patient Engagement", ("Osei, Kwabena", "Lund, Maria"), 2022),
    ),
    "CE6104": (
        ("Book", "The SuDS Manual", ("Woods Ballard, Bridget",), 2015),
        ("Chapter", "Roofs and podiums, in: Water-Sensitive Urban Design", ("Petrakis, Eleni",), 2021),
        ("Webpage", "Susdrain case studies", ("Susdrain",), 2024),
        ("Audio-visual document", "Site visit video: a retrofitted car park", ("Kingsbridge University",), 2024),
        ("Document", "Non-statutory technical standards for sustainable drainage", ("DEFRA",), 2015),
        ("Book", "Urban Hydrology for Engineers", ("Abernethy, Colin",), 2023),
    ),
}


def written(day: date) -> str:
    """A date as an item page writes it: '15/03/2024'."""
    return f"{day.day:02d}/{day.month:02d}/{day.year}"


@dataclass(frozen=True)
class Entry:
    """A resource on the lists: a work (`item`) or another reading."""

    key: str
    title: str
    kind: str
    authors: tuple[str, ...]
    day: date | None
    year: int
    module: str
    item: Item | None = None

    @property
    def path(self) -> str:
        return f"/items/{self.key}.html"

    @property
    def section(self) -> str:
        return _SECTIONS[sum(map(ord, self.key)) % len(_SECTIONS)]

    @property
    def importance(self) -> str:
        return _IMPORTANCE[sum(map(ord, self.key[::-1])) % len(_IMPORTANCE)]


@dataclass(frozen=True)
class Module:
    """A module: its code, title and every resource on its lists, in the tutor's order."""

    code: str
    title: str
    entries: tuple[Entry, ...]

    @property
    def path(self) -> str:
        return f"/modules/{self.code.lower()}.html"

    def list_path(self, year: str) -> str:
        return f"/lists/{talis_id(hash_code(self.code + year))}.html"


def hash_code(text: str) -> int:
    return sum(ord(c) * (n + 7) for n, c in enumerate(text))


def modules(items: list[Item]) -> list[Module]:
    """A module per category, its resources ordered as the tutor arranged them (by section, then by id)."""
    made = []
    for name in sorted({i.category for i in items}):
        code, _, title = name.partition(" ")
        entries = [
            Entry(i.key, i.title, "Article", tuple(", ".join(a.rsplit(" ", 1)[::-1]) for a in i.authors),
                  date.fromisoformat(i.date), int(i.date[:4]), code, i)
            for i in items if i.category == name
        ]  # fmt: skip
        for m, (kind, heading, creators, year) in enumerate(_OTHERS.get(code, ())):
            entries.append(Entry(talis_id(80000 + hash_code(code) + m), heading, kind, creators, None, year, code))
        entries.sort(key=lambda e: (_SECTIONS.index(e.section), e.key))
        made.append(Module(code, title, tuple(entries)))
    return made


def listed(module: Module, year: str) -> list[Entry]:
    """The resources on a module's list of `year`: last year's holds those published by its end; this year's drops
    the papers dated before `RETIRED_BEFORE`."""
    if year == LAST_YEAR:
        return [e for e in module.entries if (e.day or date(e.year, 1, 1)) < date(2025, 9, 1)]
    return [e for e in module.entries if e.day is None or e.day >= RETIRED_BEFORE]


class Fresh13ReadingListsSite(SiteApp):
    """A reading list service: hierarchy of faculties, departments and modules, lists and item pages."""

    decoy_paths: ClassVar[dict[str, DecoyKind]] = {"/help.html": "help", "/accessibility.html": "accessibility"}

    def routes(self) -> list[Route]:
        self.modules = modules(self.items)
        self.entries = {e.key: e for m in self.modules for e in m.entries}
        self.lists = {m.list_path(y): (m, y) for m in self.modules for y in (THIS_YEAR, LAST_YEAR)}
        return [
            (re.compile(r"/|/index\.html"), self._home),
            (re.compile(r"/faculties/(?P<code>[a-z]+)\.html"), self._faculty),
            (re.compile(r"/departments/(?P<code>[a-z]+)\.html"), self._department),
            (re.compile(r"/modules/(?P<code>[a-z0-9]+)\.html"), self._module),
            (re.compile(r"/lists/(?P<key>[0-9A-F-]{36})\.html"), self._list),
            (re.compile(r"/lists/(?P<key>[0-9A-F-]{36})/export\.ris"), self._export),
            (re.compile(r"/items/(?P<key>[0-9A-F-]{36})\.html"), self._item),
            (re.compile(r"/digitisations/(?P<key>[0-9A-F-]{36})\.pdf"), self._digitisation),
            (re.compile(r"/search/.*"), self._search),
            (re.compile(r"/auth/.*|/bookmarks/.*"), self._login),
        ]

    def robots_txt(self) -> str:
        return (
            "User-agent: *\nDisallow: /search/\nDisallow: /auth/\nDisallow: /bookmarks/\nDisallow: /lists/*/export\n"
            "Disallow: /users/\n"
        )

    def sample_paths(self) -> dict[str, str]:
        module = self.modules[0]
        faculty, _, department, _ = _PLACES[module.code]
        return {
            "home": "/",
            "faculty": f"/faculties/{faculty}.html",
            "department": f"/departments/{department}.html",
            "module": module.path,
            "list": module.list_path(THIS_YEAR),
            "archived": module.list_path(LAST_YEAR),
            "item": self.items[0].path,
            "file": self.items[0].pdf_path,
        }

    def page(self, *, title: str, content: str, kind: str, status: int = 200, head: str = "") -> Response:
        body = (
            '<header id="header"><a class="brand" href="/">Kingsbridge University Reading Lists</a><form action="'
            '/search/index" method="get"><input name="q" placeholder="Search for lists, modules or courses"></form>'
            '<a href="/auth/login">Log In</a> <a href="/bookmarks/index">My Bookmarks</a></header>\n'
            f'<div id="main" class="container">{content}</div>\n'
            '<footer><a href="/help.html">Help</a> · <a href="/accessibility.html">Accessibility</a> · Talis Aspire'
            "</footer>"
        )
        html = document(title=f"{title} | Kingsbridge University", head=head, body=body, body_class="aspire")
        return Response.html(html, kind=kind, status=status)

    def _home(self, request: Request) -> Response:
        faculties = sorted({(p[0], p[1]) for p in _PLACES.values()})
        rows = "".join(f'<li><a href="/faculties/{c}.html">{esc(n)}</a></li>' for c, n in faculties)
        content = (
            "<h1>Kingsbridge University Reading Lists</h1><p>Find the reading lists for your modules. Browse by "
            f'faculty:</p><ul class="hierarchy">{rows}</ul>'
        )
        return self.page(title="Reading Lists", content=content, kind="home")

    def _node(self, title: str, kind: str, parent: str, children: list[tuple[str, str]]) -> Response:
        rows = "".join(f'<li><a href="{path}">{esc(name)}</a></li>' for path, name in children)
        content = f'<div class="breadcrumb">{parent}</div><h1>{esc(title)}</h1><h2>Children</h2><ul>{rows}</ul>'
        return self.page(title=title, content=content, kind=kind)

    def _faculty(self, request: Request, code: str) -> Response:
        places = [p for p in _PLACES.values() if p[0] == code]
        if not places:
            return self.not_found()
        children = sorted({(f"/departments/{p[2]}.html", p[3]) for p in places})
        return self._node(places[0][1], "faculty", '<a href="/">Kingsbridge University</a>', children)

    def _department(self, request: Request, code: str) -> Response:
        mine = [(m, _PLACES[m.code]) for m in self.modules if _PLACES[m.code][2] == code]
        if not mine:
            return self.not_found()
        place = mine[0][1]
        parent = f'<a href="/">Kingsbridge University</a> › <a href="/faculties/{place[0]}.html">{esc(place[1])}</a>'
        return self._node(place[3], "department", parent, [(m.path, f"{m.code} {m.title}") for m, _ in mine])

    def _module(self, request: Request, code: str) -> Response:
        module = next((m for m in self.modules if m.code.lower() == code), None)
        if module is None:
            return self.not_found()
        place = _PLACES[module.code]
        rows = "".join(
            f'<li><a href="{module.list_path(y)}">{esc(module.title)} {y}</a>'
            + (" <span class='label'>Archived</span>" if y == LAST_YEAR else "")
            + "</li>"
            for y in (THIS_YEAR, LAST_YEAR)
        )
        content = (
            f'<div class="breadcrumb"><a href="/departments/{place[2]}.html">{esc(place[3])}</a></div><h1>'
            f"{module.code}: {esc(module.title)}</h1><h2>Lists linked to {module.code} {esc(module.title)}</h2>"
            f'<ul class="lists">{rows}</ul>'
        )
        return self.page(title=f"{module.code} {module.title}", content=content, kind="module")

    def _list(self, request: Request, key: str) -> Response:
        found = self.lists.get(request.path)
        if found is None:
            return self.not_found()
        module, year = found
        shown = listed(module, year)
        sections = ""
        for section in _SECTIONS:
            rows = "".join(
                f'<li class="item"><span class="itemTitle"><a class="itemLink" href="{e.path}">{esc(e.title)}</a>'
                f'</span> <span class="author">{esc("; ".join(e.authors))}</span> <span class="publishedDate">'
                f'{e.year}</span> <span class="resourceType">{esc(e.kind)}</span> <span class="importance">'
                f"{e.importance}</span></li>"
                for e in shown
                if e.section == section
            )
            sections += f'<section class="section"><h2>{esc(section)}</h2><ol>{rows}</ol></section>' if rows else ""
        updated = "03/09/2025" if year == THIS_YEAR else "16/09/2024"
        content = (
            f'<h1 class="list-title">{esc(module.title)} {year}</h1><p class="module"><a href="{module.path}">'
            f'{module.code}</a> · Last updated: {updated} · {len(shown)} items</p><p><a href="/lists/{key}/export.ris">'
            f"Export list</a></p>{sections}"
        )
        return self.page(title=f"{module.title} {year}", content=content, kind="list")

    def _export(self, request: Request, key: str) -> Response:
        return Response.text("TY  - LIST\nER  -\n", kind="export")

    def _item(self, request: Request, key: str) -> Response:
        entry = self.entries.get(key)
        if entry is None:
            return self.not_found()
        module = next(m for m in self.modules if m.code == entry.module)
        fields = [("Type", entry.kind), ("Author(s)", "; ".join(entry.authors))]
        fields.append(("Date published", written(entry.day) if entry.day else str(entry.year)))
        extra = ""
        if entry.item is not None:
            fields.append(("Journal", _JOURNALS[hash_code(key) % len(_JOURNALS)]))
            fields.append(("Abstract", entry.item.abstract))
            extra = f'<p class="digitisation"><a href="/digitisations/{key}.pdf">Digitised copy (PDF)</a></p>'
        rows = "".join(f"<tr><th>{k}</th><td>{esc(v)}</td></tr>" for k, v in fields)
        appears = "".join(
            f'<li><a href="{module.list_path(y)}">{esc(module.title)} {y}</a></li>'
            for y in (THIS_YEAR, LAST_YEAR)
            if entry in listed(module, y)
        )
        content = (
            f'<h1 class="item-title">{esc(entry.title)}</h1><table class="item-metadata">{rows}</table>{extra}'
            f'<h2>This item appears on</h2><ul class="appears-on">{appears}</ul><p><a href="/bookmarks/add?item='
            f'{key}">Add to My Bookmarks</a></p>'
        )
        return self.page(title=entry.title, content=content, kind="item")

    def _digitisation(self, request: Request, key: str) -> Response:
        entry = self.entries.get(key)
        if entry is None or entry.item is None:
            return self.not_found()
        return self.pdf(entry.item)

    def _search(self, request: Request) -> Response:
        text = request.param("q")
        found = search_items(self.items, text) if text else []
        rows = "".join(f'<li><a href="{attr(i.path)}">{esc(i.title)}</a></li>' for i in found)
        return self.page(title="Search", content=f"<h1>Search results</h1><ul>{rows}</ul>", kind="search")

    def _login(self, request: Request) -> Response:
        return self.page(title="Log In", content='<form method="post"><input name="username"></form>', kind="login")
