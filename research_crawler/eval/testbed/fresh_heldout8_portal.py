"""HELD OUT, fresh (eighth batch): the Ellerby University Research Portal, built as Pure-like research portals are
(see `fresh_heldout8.py`; do not read or tune anything to it). Research outputs of many types (articles,
conference contributions, chapters: the items; patents, datasets and press clippings: not works) are listed ten a
page from page 0, sorted by publication year then title, and filtered by query parameters (type, organisational
unit, year) with counts; persons and units have pages listing their outputs; an output's page names its type, its
authors (the university's own linked to their pages) and its publication statuses with dates written '12 Mar 2024'
("Accepted/In press", "E-pub ahead of print", "Published"). Articles carry citation_* tags, the other types none;
exports and the web services are forbidden by robots.txt.
"""

from __future__ import annotations

import re
import zlib
from dataclasses import dataclass
from datetime import date, timedelta
from typing import ClassVar
from urllib.parse import urlencode

from research_crawler.eval.testbed.decoys import DecoyKind
from research_crawler.eval.testbed.markup import attr, document, esc, first_sentence, meta_name, url_slug
from research_crawler.eval.testbed.models import Item
from research_crawler.eval.testbed.site_app import Request, Response, Route, SiteApp

__all__ = ["OUTPUT_TYPES", "PER_PAGE", "Fresh8PortalSite", "Output", "output_type", "outputs", "pure_date", "statuses"]

PER_PAGE = 10
#: The portal's output types: (query value, label, type line). The first three are works, the others not.
OUTPUT_TYPES = (
    ("article", "Article", "Research output: Contribution to journal › Article › peer-review"),
    ("conference", "Conference contribution", "Research output: Chapter in Book/Report/Conference proceeding › "
     "Conference contribution"),
    ("chapter", "Chapter", "Research output: Chapter in Book/Report/Conference proceeding › Chapter"),
    ("patent", "Patent", "Research output: Patent"),
    ("dataset", "Dataset", "Dataset"),
    ("clipping", "Press/Media", "Press/Media: Research"),
)  # fmt: skip
_JOURNALS = ("Global Change Biology", "Biogeosciences", "Seismological Research Letters", "Geophysical Journal "
             "International", "Mires and Peat", "Natural Hazards")  # fmt: skip
#: Outputs of each unit that are not works: (type, title, year).
_OTHERS = {
    "Department of Geography and Environment": (
        ("patent", "Floating Chamber for Measuring Greenhouse Gas Fluxes over Rewetted Peat", 2025),
        ("dataset", "Water-Table and Flux Records from Rewetted Fens, 2019–2024", 2024),
        ("clipping", "Blocked Ditches Bring Back the Bog, Ellerby Researchers Find", 2025),
        ("dataset", "Peat Depth Survey of the Ellerby Moss", 2023),
    ),
    "School of Earth Sciences": (
        ("patent", "System and Method for Issuing Earthquake Alerts from Mobile Devices", 2024),
        ("clipping", "Your Phone Could Warn You Seconds before an Earthquake", 2026),
        ("dataset", "Smartphone Accelerometer Records of Moderate Earthquakes, 2021–2025", 2025),
    ),
}
_MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")
_STATUS_FROM = date(2026, 6, 1)


def pure_date(day: date) -> str:
    """A date as the portal writes it: '12 Mar 2024'."""
    return f"{day.day} {_MONTHS[day.month - 1]} {day.year}"


def _hash(text: str) -> int:
    return zlib.crc32(text.encode())


def output_type(item: Item) -> str:
    """The type of a work: article, conference contribution or chapter."""
    return ("article", "article", "conference", "chapter")[_hash(item.key) % 4]


def statuses(item: Item) -> list[tuple[str, date]]:
    """The output's publication statuses, oldest first: accepted, then e-pub ahead of print (the newest outputs) or
    published; the last is the date the output has."""
    day = date.fromisoformat(item.date)
    accepted = day - timedelta(days=30 + _hash(item.title) % 90)
    last = "E-pub ahead of print" if day >= _STATUS_FROM else "Published"
    return ([("Accepted/In press", accepted)] if _hash(item.key) % 3 else []) + [(last, day)]


@dataclass(frozen=True)
class Output:
    """A row of a listing: a work (an item) or one of the outputs that are not works."""

    kind: str
    title: str
    year: int
    unit: str
    path: str
    item: Item | None = None


def outputs(items: list[Item]) -> list[Output]:
    """Every output, as listings sort them: publication year (newest first), then title."""
    rows = [Output(output_type(i), i.title, i.year, i.category, i.path, i) for i in items]
    for unit, others in _OTHERS.items():
        for kind, title, year in others:
            section = "datasets" if kind == "dataset" else "clippings" if kind == "clipping" else "publications"
            rows.append(Output(kind, title, year, unit, f"/en/{section}/{url_slug(title)}"))
    return sorted(rows, key=lambda r: (-r.year, r.title))


def _person_slug(name: str) -> str:
    return url_slug(name)


class Fresh8PortalSite(SiteApp):
    """A Pure-like research portal: outputs, persons, organisational units."""

    decoy_paths: ClassVar[dict[str, DecoyKind]] = {"/en/about": "about", "/en/privacy": "privacy",
                                                   "/en/contact": "contact"}  # fmt: skip

    def routes(self) -> list[Route]:
        return [
            (re.compile(r"/"), lambda request: Response.redirect("/en/", status=302)),
            (re.compile(r"/en/"), self._home),
            (re.compile(r"/en/publications/"), self._listing),
            (re.compile(r"/en/publications/(?P<slug>[a-z0-9-]+)"), self._output),
            (re.compile(r"/en/(?P<section>datasets|clippings)/(?P<slug>[a-z0-9-]+)"), self._output),
            (re.compile(r"/en/publications/(?P<slug>[a-z0-9-]+)/export/\w+"), self._export),
            (re.compile(r"/en/persons/"), self._persons),
            (re.compile(r"/en/persons/(?P<slug>[a-z0-9-]+)"), self._person),
            (re.compile(r"/en/organisations/"), self._units),
            (re.compile(r"/en/organisations/(?P<slug>[a-z0-9-]+)"), self._unit),
            (re.compile(r"/files/\d+/[a-z0-9-]+\.pdf"), self._file),
        ]

    def robots_txt(self) -> str:
        return "User-agent: *\nDisallow: /ws/\nDisallow: /en/searchAll/\nDisallow: /en/publications/*/export/\n"

    def sample_paths(self) -> dict[str, str]:
        return {"home": "/en/", "listing": "/en/publications/?type=article&page=1", "output": self.items[0].path,
                "persons": "/en/persons/", "units": "/en/organisations/"}  # fmt: skip

    def page(self, *, title: str, content: str, kind: str, status: int = 200, head: str = "") -> Response:
        body = (
            '<header class="portal-header"><a class="logo" href="/en/">Ellerby University</a>'
            '<nav class="main-nav"><a href="/en/publications/">Research output</a> <a href="/en/persons/">Profiles'
            '</a> <a href="/en/organisations/">Research units</a> <a href="/en/publications/?type=dataset">Datasets'
            '</a> <a href="/en/publications/?type=clipping">Press/Media</a></nav>'
            '<form class="search" action="/en/searchAll/" method="get"><input name="search" '
            'placeholder="Search by expertise, name or affiliation"></form></header>\n'
            f'<main id="main-content">{content}</main>\n<footer>Powered by Pure, Scopus &amp; Elsevier Fingerprint '
            'Engine™ · <a href="/en/about">About the portal</a> · <a href="/en/privacy">Privacy</a> · '
            '<a href="/en/contact">Contact</a></footer>'
        )
        return Response.html(document(title=f"{title} — {self.spec.title}", head=head, body=body), kind=kind,
                             status=status)  # fmt: skip

    # ------------------------------------------------------------------ lists

    def _units_of(self) -> list[str]:
        return sorted({i.category for i in self.items})

    def _home(self, request: Request) -> Response:
        units = "".join(f'<li><a href="/en/organisations/{url_slug(u)}">{esc(u)}</a></li>' for u in self._units_of())
        content = (
            f"<h1>{esc(self.spec.title)}</h1><p>Find experts, research outputs and units of Ellerby University.</p>"
            f"<section><h2>Research units</h2><ul>{units}</ul></section><section><h2>Browse</h2><ul>"
            '<li><a href="/en/publications/">Research output</a></li><li><a href="/en/persons/">Profiles</a></li>'
            "</ul></section>"
        )
        return self.page(title="Home", content=content, kind="home")

    def _filtered(self, request: Request) -> tuple[list[Output], dict[str, str]]:
        chosen = {k: request.param(k) for k in ("type", "organisationalUnits", "publicationYear") if request.param(k)}
        rows = [
            r
            for r in outputs(self.items)
            if chosen.get("type", r.kind) == r.kind
            and chosen.get("organisationalUnits", url_slug(r.unit)) == url_slug(r.unit)
            and chosen.get("publicationYear", str(r.year)) == str(r.year)
        ]
        return rows, chosen

    def _rows(self, rows: list[Output]) -> str:
        out = ""
        for row in rows:
            label = next(t[1] for t in OUTPUT_TYPES if t[0] == row.kind)
            byline = ""
            when = str(row.year)
            if row.item is not None:
                names = ", ".join(row.item.authors)
                byline = f'<p class="persons">{esc(names)}</p>'
                day = statuses(row.item)[-1][1]
                when = f"{_MONTHS[day.month - 1]} {day.year}"
            out += (
                f'<li class="list-result-item"><div class="result-container"><h3 class="title"><a href="'
                f'{attr(row.path)}"><span>{esc(row.title)}</span></a></h3>{byline}<span class="type">{esc(label)}'
                f'</span> · <span class="date">{when}</span></div></li>'
            )
        return f'<ul class="list-results">{out}</ul>'

    def _link(self, chosen: dict[str, str], **change: str) -> str:
        params = {k: v for k, v in (chosen | change).items() if v}
        return "/en/publications/" + (f"?{urlencode(params)}" if params else "")

    def _listing(self, request: Request) -> Response:
        rows, chosen = self._filtered(request)
        everything = outputs(self.items)
        pages = max(1, -(-len(rows) // PER_PAGE))
        number = request.int_param("page", 0, maximum=pages - 1)
        shown = rows[number * PER_PAGE : (number + 1) * PER_PAGE]
        facets = ""
        for key, label, values in (
            ("type", "Type", [(t[0], t[1]) for t in OUTPUT_TYPES]),
            ("organisationalUnits", "Organisational unit", [(url_slug(u), u) for u in self._units_of()]),
            ("publicationYear", "Publication year", [(str(y), str(y)) for y in sorted({r.year for r in everything},
                                                                                      reverse=True)]),
        ):  # fmt: skip
            entries = ""
            for value, name in values:
                count = len(
                    self._filtered(Request("GET", "/", {**{k: [v] for k, v in chosen.items()}, key: [value]}))[0]
                )
                if count and chosen.get(key) != value:
                    target = self._link(chosen, **{key: value}, page="")
                    entries += f'<li><a href="{attr(target)}">{esc(name)}</a> ({count})</li>'
            if chosen.get(key):
                entries += (
                    f'<li class="selected"><a href="{attr(self._link(chosen, **{key: ""}, page=""))}">× clear</a></li>'
                )
            facets += f"<h3>{label}</h3><ul>{entries}</ul>"
        pager = " ".join(
            f"<span>{n + 1}</span>" if n == number else f'<a href="{attr(self._link(chosen, page=str(n)))}">{n + 1}</a>'
            for n in range(pages)
        )
        content = (
            f"<h1>Research output</h1><p>{len(rows)} results</p><p>Sort by: Publication year · Title</p>"
            f'<div class="layout"><aside class="filters">{facets}</aside>{self._rows(shown)}</div>'
            f'<nav class="pages">{pager}</nav>'
        )
        return self.page(title="Research output", content=content, kind="listing")

    # ------------------------------------------------------------------ one output

    def _output(self, request: Request, slug: str, section: str = "publications") -> Response:
        item = self.item_at(request.path)
        if item is None:
            row = next((r for r in outputs(self.items) if r.path == request.path and r.item is None), None)
            if row is None:
                return self.not_found()
            label = next(t[2] for t in OUTPUT_TYPES if t[0] == row.kind)
            content = (
                f'<div class="rendering"><h1>{esc(row.title)}</h1><p class="type">{esc(label)}</p>'
                f"<p>{esc(row.unit)}, {row.year}</p></div>"
            )
            return self.page(title=row.title, content=content, kind=row.kind)
        kind = output_type(item)
        type_line = next(t[2] for t in OUTPUT_TYPES if t[0] == kind)
        internal = self._internal()
        names = ", ".join(
            f'<a class="link person" href="/en/persons/{_person_slug(a)}">{esc(a)}</a>' if a in internal else esc(a)
            for a in item.authors
        )
        status_rows = "".join(f"<tr><th>Publication status</th><td>{esc(s)} - {pure_date(d)}</td></tr>"
                              for s, d in statuses(item))  # fmt: skip
        journal = _JOURNALS[_hash(item.title) % len(_JOURNALS)]
        head = ""
        if kind == "article":
            day = statuses(item)[-1][1]
            head = "\n".join(
                [meta_name("citation_title", item.title)]
                + [meta_name("citation_author", a) for a in item.authors]
                + [meta_name("citation_publication_date", day.strftime("%Y/%m/%d")),
                   meta_name("citation_journal_title", journal)]
            )  # fmt: skip
        host = {"article": "Journal", "conference": "Title of host publication", "chapter": "Title of host publication"}
        content = (
            f'<div class="rendering rendering_researchoutput"><h1><span>{esc(item.title)}</span></h1>'
            f'<p class="relations persons">{names}</p><p class="relations organisations"><a href="/en/organisations/'
            f'{url_slug(item.category)}">{esc(item.category)}</a></p><p class="type">{esc(type_line)}</p></div>'
            f'<div class="textblock"><h2>Abstract</h2><p>{esc(item.abstract)}</p></div>'
            f'<table class="properties"><tr><th>Original language</th><td>English</td></tr>'
            f"<tr><th>{host[kind]}</th><td>{esc(journal if kind == 'article' else 'Proceedings of ' + journal)}</td>"
            f"</tr>{status_rows}</table>"
            f'<p><a href="{attr(item.pdf_path)}">Accepted author manuscript (PDF)</a> · '
            f'<a href="{attr(item.path)}/export/bibtex">Export BibTeX</a> · <a href="{attr(item.path)}/export/ris">'
            "Export RIS</a></p>"
        )
        return self.page(title=item.title, content=content, kind="output", head=head)

    def _export(self, request: Request, slug: str) -> Response:
        item = next((i for i in self.items if request.path.startswith(i.path + "/")), None)
        return self.not_found() if item is None else Response.text(f"@article{{{item.key}, title={{{item.title}}}}}",
                                                                   kind="export")  # fmt: skip

    def _file(self, request: Request) -> Response:
        item = next((i for i in self.items if i.pdf_path == request.path), None)
        return self.not_found() if item is None else self.pdf(item)

    # ------------------------------------------------------------------ persons and units

    def _internal(self) -> set[str]:
        """The university's own people: every work's first author, and anyone on two or more works."""
        seen: dict[str, int] = {}
        for item in self.items:
            for name in item.authors:
                seen[name] = seen.get(name, 0) + 1
        return {i.authors[0] for i in self.items} | {n for n, c in seen.items() if c > 1}

    def _persons(self, request: Request) -> Response:
        people = sorted(self._internal(), key=lambda n: (n.split()[-1], n))
        rows = "".join(f'<li><a href="/en/persons/{_person_slug(n)}">{esc(n.split()[-1])}, '
                       f"{esc(' '.join(n.split()[:-1]))}</a></li>" for n in people)  # fmt: skip
        content = f"<h1>Profiles</h1><p>{len(people)} profiles, A–Z by surname</p><ul>{rows}</ul>"
        return self.page(title="Profiles", content=content, kind="persons")

    def _person(self, request: Request, slug: str) -> Response:
        name = next((n for n in self._internal() if _person_slug(n) == slug), None)
        if name is None:
            return self.not_found()
        theirs = [r for r in outputs(self.items) if r.item is not None and name in r.item.authors]
        units = sorted({r.unit for r in theirs})
        content = (
            f'<h1>{esc(name)}</h1><p class="organisations">{esc("; ".join(units))}</p>'
            f"<h2>Research output</h2><p>{len(theirs)} research outputs, by publication year</p>{self._rows(theirs)}"
        )
        return self.page(title=name, content=content, kind="person")

    def _units(self, request: Request) -> Response:
        rows = "".join(f'<li><a href="/en/organisations/{url_slug(u)}">{esc(u)}</a> — Faculty of Science</li>'
                       for u in self._units_of())  # fmt: skip
        return self.page(title="Research units", content=f"<h1>Research units</h1><ul>{rows}</ul>", kind="units")

    def _unit(self, request: Request, slug: str) -> Response:
        unit = next((u for u in self._units_of() if url_slug(u) == slug), None)
        if unit is None:
            return self.not_found()
        rows = [r for r in outputs(self.items) if r.unit == unit]
        recent = rows[:5]
        teaser = first_sentence(next(r.item.abstract for r in rows if r.item is not None))
        content = (
            f"<h1>{esc(unit)}</h1><p>Organisational unit: Department · Faculty of Science</p><p>{esc(teaser)}</p>"
            f"<h2>Recent research output</h2>{self._rows(recent)}"
            f'<p><a href="{attr(self._link({"organisationalUnits": slug}))}">View all {len(rows)} research outputs'
            "</a></p>"
        )
        return self.page(title=unit, content=content, kind="unit")
