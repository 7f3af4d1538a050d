"""HELD OUT, fresh (eleventh batch): the Northmoor Trials Registry, built as ClinicalTrials.gov-like study
registries are (see `fresh_heldout11.py`; do not read or tune anything to it). Condition categories list their
studies ten a page, newest registration first: recruiting, terminated and withdrawn studies that have no results sit
among the completed ones whose results are posted (the works). A study record comes in tabs: its details (brief and
official titles, status, dates of several kinds written "March 12, 2024" — first submitted, study start, primary
and study completion, results first posted, last update — sponsor and investigators), its results (the results
report, which for a trial whose report the university's archive holds links to the archive's copy) and a record
history of versions, each version viewable as it stood. Downloads and the API are forbidden by robots.txt; a GET
search covers the studies.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, timedelta
from typing import ClassVar

from research_crawler.eval.testbed.decoys import DecoyKind
from research_crawler.eval.testbed.full_text import search_items
from research_crawler.eval.testbed.markup import MONTHS, attr, document, esc
from research_crawler.eval.testbed.models import Item
from research_crawler.eval.testbed.site_app import Request, Response, Route, SiteApp, paged

__all__ = ["PER_PAGE", "Fresh11RegistrySite", "Study", "long_us", "studies"]

PER_PAGE = 10
#: Studies without results, by category: (title, status).
_WITHOUT_RESULTS = {
    "Education and Literacy": (
        ("Volunteer Tutors in Primary Schools", "Recruiting"),
        ("Breakfast Clubs and Attendance in Deprived Areas", "Active, not recruiting"),
        ("Mentoring for Pupils Excluded from School", "Not yet recruiting"),
        ("Summer Schools for the Move to Secondary School", "Terminated"),
        ("Classroom Assistants and Mathematics Attainment", "Withdrawn"),
    ),
    "Injuries and Accidents": (
        ("Helmet Promotion for Child Cyclists", "Recruiting"),
        ("Home Hazard Visits after Scald Injuries", "Not yet recruiting"),
        ("Gritting Pavements and Wrist Fractures", "Active, not recruiting"),
        ("Trampoline Park Injury Surveillance", "Terminated"),
        ("Lifeguard Training and Drowning at Inland Waters", "Withdrawn"),
    ),
    "Mental and Behavioural Disorders": (
        ("Peer Support for Young Carers", "Recruiting"),
        ("Text Message Reminders for Therapy Appointments", "Active, not recruiting"),
        ("Allotment Gardening and Low Mood", "Not yet recruiting"),
    ),
}
_SPONSORS = ("Halvergate University", "Northmoor Health Board", "Education Endowment Trust", "Ageing Well Foundation")


def long_us(day: date) -> str:
    """A date as the registry's records write it: 'March 12, 2024'."""
    return f"{MONTHS[day.month - 1]} {day.day}, {day.year}"


def _short(day: date) -> str:
    """A date as the category listings write it: '12 Mar 2024'."""
    return f"{day.day} {MONTHS[day.month - 1][:3]} {day.year}"


def _code(category: str) -> str:
    return re.sub(r"[^a-z]+", "-", category.lower()).strip("-")


@dataclass(frozen=True)
class Study:
    """A registered study: with posted results (`item`, the work) or without."""

    sid: str
    title: str
    category: str
    status: str
    registered: date
    item: Item | None = None

    @property
    def path(self) -> str:
        return f"/study/{self.sid}"

    def dates(self) -> list[tuple[str, date]]:
        """The record's dates, in the order the record gives them."""
        start = self.registered + timedelta(days=45)
        if self.item is None:
            return [("First Submitted", self.registered), ("Study Start (Estimated)", start)]
        posted = date.fromisoformat(self.item.date)
        updated = min(posted + timedelta(days=35), date(2026, 11, 20))
        return [
            ("First Submitted", self.registered),
            ("First Posted", self.registered + timedelta(days=9)),
            ("Study Start (Actual)", start),
            ("Primary Completion (Actual)", posted - timedelta(days=200)),
            ("Study Completion (Actual)", posted - timedelta(days=150)),
            ("Results First Posted", posted),
            ("Last Update Posted", updated),
        ]


def studies(items: list[Item]) -> list[Study]:
    """Every study, newest registration first: the works (registered some three years before their results were
    posted) and the studies without results."""
    made = []
    for item in items:
        number = int(item.key[3:])
        registered = date.fromisoformat(item.date) - timedelta(days=1000 + number % 211)
        made.append(Study(item.key, item.title, item.category, "Completed", registered, item))
    for c_index, (category, entries) in enumerate(_WITHOUT_RESULTS.items()):
        for n, (title, status) in enumerate(entries):
            registered = date(2022, 2, 1) + timedelta(days=173 * n + 59 * c_index)
            made.append(Study(f"NMR{90000 + 100 * c_index + n}", title, category, status, registered))
    return sorted(made, key=lambda s: (s.registered, s.sid), reverse=True)


class Fresh11RegistrySite(SiteApp):
    """A study registry: categories, study records in tabs, results and record histories."""

    decoy_paths: ClassVar[dict[str, DecoyKind]] = {
        "/about": "about",
        "/submit": "submit",
        "/privacy": "privacy",
        "/contact": "contact",
    }

    def routes(self) -> list[Route]:
        self.studies = studies(self.items)
        self.by_sid = {s.sid: s for s in self.studies}
        self.categories = sorted({s.category for s in self.studies})
        return [
            (re.compile(r"/"), self._home),
            (re.compile(r"/browse"), self._browse),
            (re.compile(r"/browse/(?P<code>[a-z-]+)"), self._category),
            (re.compile(r"/study/(?P<sid>NMR\d+)"), self._study),
            (re.compile(r"/study/(?P<sid>NMR\d+)/document/results-report\.pdf"), self._report),
            (re.compile(r"/study/(?P<sid>NMR\d+)/download"), self._download),
            (re.compile(r"/search"), self._search),
        ]

    def robots_txt(self) -> str:
        return "User-agent: *\nDisallow: /study/*/download\nDisallow: /api/\nDisallow: /submit/account\n"

    def sample_paths(self) -> dict[str, str]:
        item = self.items[0]
        return {
            "home": "/",
            "browse": "/browse",
            "category": f"/browse/{_code(item.category)}",
            "study": item.path,
            "results": f"{item.path}?tab=results",
            "history": f"{item.path}?tab=history",
            "search": "/search?term=reading",
        }

    def page(self, *, title: str, content: str, kind: str, status: int = 200, head: str = "") -> Response:
        body = (
            '<header class="nmr-header"><a href="/" class="nmr-home">Northmoor Trials Registry</a><nav>'
            '<a href="/browse">Browse studies</a> <a href="/search">Find a study</a> <a href="/submit">Register a '
            'study</a> <a href="/about">About</a></nav></header>\n'
            f'<main class="nmr-main">{content}</main>\n'
            '<footer><a href="/privacy">Privacy</a> · <a href="/contact">Contact the registry</a> · Listing a study '
            "does not mean it has been evaluated by the registry.</footer>"
        )
        html = document(title=f"{title} | Northmoor Trials Registry", head=head, body=body, body_class="nmr")
        return Response.html(html, kind=kind, status=status)

    def _home(self, request: Request) -> Response:
        recent = "".join(
            f'<li><a href="{s.path}">{esc(s.title)}</a> <small>{s.sid}, registered {_short(s.registered)}</small></li>'
            for s in self.studies[:5]
        )
        content = (
            "<h1>Find registered studies and their results</h1>"
            '<form action="/search" method="get"><input name="term" aria-label="Condition, intervention or ID">'
            "<button>Search</button></form>"
            '<p><a class="button" href="/browse">Browse by condition category</a></p>'
            f"<h2>Recently registered</h2><ul>{recent}</ul>"
            f"<p>{len(self.studies)} studies registered, {len(self.items)} with results posted.</p>"
        )
        return self.page(title="Home", content=content, kind="home")

    def _browse(self, request: Request) -> Response:
        rows = "".join(
            f'<li><a href="/browse/{_code(c)}">{esc(c)}</a> ({sum(1 for s in self.studies if s.category == c)})</li>'
            for c in self.categories
        )
        return self.page(title="Browse", content=f"<h1>Condition categories</h1><ul>{rows}</ul>", kind="browse")

    def _category(self, request: Request, code: str) -> Response:
        chosen = [s for s in self.studies if _code(s.category) == code]
        if not chosen:
            return self.not_found()
        shown, pager = paged(request, chosen, PER_PAGE, lambda n: f"/browse/{code}?page={n}")
        rows = "".join(
            f'<tr><td>{s.sid}</td><td><a href="{s.path}">{esc(s.title)}</a></td><td>{esc(s.status)}'
            f"{', has results' if s.item else ''}</td><td>{_short(s.registered)}</td></tr>"
            for s in shown
        )
        content = (
            f"<h1>{esc(chosen[0].category)}</h1><p>{len(chosen)} studies, most recently registered first.</p>"
            "<table><thead><tr><th>ID</th><th>Study title</th><th>Status</th><th>Date registered</th></tr></thead>"
            f"<tbody>{rows}</tbody></table>{pager}"
        )
        return self.page(title=chosen[0].category, content=content, kind="category")

    def _tabs(self, study: Study, active: str) -> str:
        tabs = (("Study Details", study.path), ("Results", f"{study.path}?tab=results"),
                ("Record History", f"{study.path}?tab=history"))  # fmt: skip
        links = " ".join(
            f'<a href="{attr(href)}"{" aria-current=page" if name == active else ""}>{name}</a>' for name, href in tabs
        )
        return (
            f'<p class="sid">{study.sid}</p><h1>{esc(study.title)}</h1><nav class="tabs">{links}</nav>'
            f'<p><a href="{study.path}/download?format=csv">Download record (CSV)</a></p>'
        )

    def _study(self, request: Request, sid: str) -> Response:
        study = self.by_sid.get(sid)
        if study is None:
            return self.not_found()
        tab = request.param("tab")
        if tab == "results":
            return self._results(study)
        if tab == "history":
            return self._history(study, request.int_param("a", 0, maximum=20))
        return self._details(study, len(study.dates()))

    def _details(self, study: Study, version: int) -> Response:
        item = study.item
        dates = study.dates()[:version]
        status = study.status if version == len(study.dates()) else "Recruiting"
        facts = "".join(f"<dt>{label}</dt><dd>{long_us(day)}</dd>" for label, day in dates)
        summary = item.abstract if item else "This study will test whether the programme helps, and for whom."
        people = ""
        if item:
            team = "".join(f"<li>{esc(a)}</li>" for a in item.authors[1:])
            people = (
                f"<h2>Investigators</h2><p>Principal Investigator: {esc(item.authors[0])}, Halvergate University</p>"
            )
            people += f"<p>Study team:</p><ul>{team}</ul>" if team else ""
        sponsor = _SPONSORS[int(study.sid[3:]) % len(_SPONSORS)]
        official = f"A randomised controlled evaluation: {study.title}"
        content = self._tabs(study, "Study Details") + (
            f"<h2>Study Overview</h2><p><strong>Official Title:</strong> {esc(official)}</p>"
            f"<p><strong>Brief Summary:</strong> {esc(summary)}</p><h2>Status</h2><p>{esc(status)}</p>"
            f'<h2>Study Dates</h2><dl class="dates">{facts}</dl>'
            f"<h2>Condition category</h2><p>{esc(study.category)}</p><h2>Sponsor</h2><p>{esc(sponsor)}</p>{people}"
        )
        return self.page(title=study.title, content=content, kind="study")

    def _results(self, study: Study) -> Response:
        item = study.item
        if item is None:
            body = "<h2>Results</h2><p>No results have been posted for this study.</p>"
        else:
            archive = [c for c in self.testbed.copies_of(item) if c.site != self.spec.name]
            target = self.links.on_site(archive[0].site, archive[0].path) if archive else item.pdf_path
            where = "Halvergate University Special Collections" if archive else "the registry"
            citation = f"{', '.join(item.authors)}. {item.title}. Results report, {item.year}."
            body = (
                f"<h2>Participant Flow</h2><p>{40 + int(study.sid[3:]) % 300} participants were randomised.</p>"
                f"<h2>Results report</h2><p>{esc(citation)}</p>"
                f'<p><a href="{attr(target)}">Read the full report</a> (held by {esc(where)})</p>'
                f"<h2>Results First Posted</h2><p>{long_us(date.fromisoformat(item.date))}</p>"
            )
        return self.page(title=f"{study.title}: results", content=self._tabs(study, "Results") + body, kind="results")

    def _history(self, study: Study, version: int) -> Response:
        dates = study.dates()
        if version:
            note = f'<div class="alert">You are viewing version {version} of this record, as it stood on '
            note += f"{long_us(dates[min(version, len(dates)) - 1][1])}.</div>"
            page = self._details(study, min(version, len(dates)))
            html = page.body.decode().replace('<main class="nmr-main">', f'<main class="nmr-main">{note}')
            return Response.html(html, kind="version")
        rows = "".join(
            f'<tr><td><a href="{attr(f"{study.path}?tab=history&a={n}")}">{n}</a></td><td>{long_us(day)}</td>'
            f"<td>{esc(label)}</td></tr>"
            for n, (label, day) in enumerate(dates, start=1)
        )
        content = self._tabs(study, "Record History") + (
            "<h2>Record History</h2><table><tr><th>Version</th><th>Submitted Date</th><th>Changes</th></tr>"
            f"{rows}</table>"
        )
        return self.page(title=f"{study.title}: history", content=content, kind="history")

    def _report(self, request: Request, sid: str) -> Response:
        study = self.by_sid.get(sid)
        return self.not_found() if study is None or study.item is None else self.pdf(study.item)

    def _download(self, request: Request, sid: str) -> Response:
        study = self.by_sid.get(sid)
        if study is None:
            return self.not_found()
        return Response.text(f"id,title,status\n{sid},{study.title},{study.status}\n", kind="download")

    def _search(self, request: Request) -> Response:
        term = request.param("term")
        found = {i.key for i in search_items(self.items, term)} if term else set()
        hits = [s for s in self.studies if s.sid in found or (term and term.lower() in s.title.lower())]
        rows = "".join(f'<li><a href="{s.path}">{esc(s.title)}</a> ({esc(s.status)})</li>' for s in hits)
        content = (
            f'<h1>Find a study</h1><form action="/search" method="get"><input name="term" value="{attr(term)}">'
            "<button>Search</button></form>"
            + (f"<p>{len(hits)} studies found</p><ul>{rows}</ul>" if term else "<p>Enter a condition or an ID.</p>")
        )
        return self.page(title="Find a study", content=content, kind="search")
