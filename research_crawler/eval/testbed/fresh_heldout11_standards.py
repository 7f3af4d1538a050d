"""HELD OUT, fresh (eleventh batch): the Aldmoor Institute of Standards and Measurement's technical publications,
built as NIST-like publication sites are (see `fresh_heldout11.py`; do not read or tune anything to it). A technical
report is published in versions: public drafts (each its own page, with its date and comment period, superseded by
what follows) and then the final, which may supersede an older, withdrawn report and may gain an errata update
later; the work is the report. The publication search lists finals, drafts, withdrawn reports and handbooks fifteen a
page, newest release first, dates written mm/dd/yyyy, with status, series and topic-area facets as links; a final's
page says "Date Published: March 2024" and gives full dates only in its document history. Working groups and topic
areas list their reports. Exports and the comment forms are forbidden by robots.txt.
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

__all__ = ["PER_PAGE", "STAGES", "Fresh11StandardsSite", "Release", "mdy", "number_of", "releases"]

PER_PAGE = 15
#: Draft stages, in order: (path suffix, label).
STAGES = (("ipd", "Initial Public Draft"), ("2pd", "Second Public Draft"))
#: Reports and handbooks of the institute that are no longer current or are not reports: (number, title, series,
#: status, release date).
_OTHERS = (
    (5120, "Guide to the Expression of Uncertainty in Laboratory Calibrations", "TR", "Withdrawn", date(2019, 6, 3)),
    (5177, "Interim Guidance on Test Furnace Thermocouples", "TR", "Withdrawn", date(2020, 2, 17)),
    (5203, "Traceability of Pressure Measurements in Industrial Gas Systems", "TR", "Withdrawn", date(2021, 9, 28)),
    (150, "Calibration Laboratories: Accreditation Handbook", "HB", "Final", date(2025, 1, 14)),
    (44, "Specifications and Tolerances for Weighing Devices", "HB", "Final", date(2026, 4, 2)),
)


def mdy(day: date) -> str:
    """A date as the publication search writes it: '03/12/2024'."""
    return f"{day.month:02d}/{day.day:02d}/{day.year}"


def _short(day: date) -> str:
    """A date as a document history writes it: '03/12/24'."""
    return f"{day.month:02d}/{day.day:02d}/{day.year % 100:02d}"


def _code(area: str) -> str:
    return re.sub(r"[^a-z]+", "-", area.lower()).strip("-")


def number_of(item: Item) -> int:
    return int(item.key.split(".")[1])


@dataclass(frozen=True)
class Release:
    """One row of the publication search: a final, a draft, a withdrawn report or a handbook."""

    number: int
    series: str
    title: str
    status: str
    released: date
    path: str
    area: str
    stage: str = "Final"
    item: Item | None = None

    @property
    def label(self) -> str:
        return f"{self.series} {self.number}" + ("" if self.stage == "Final" else f" ({self.stage})")


def drafts_of(item: Item) -> list[tuple[str, str, date]]:
    """(suffix, label, date) of `item`'s public drafts, oldest first: none, one or two, months before the final."""
    count = number_of(item) % 3
    final = date.fromisoformat(item.date)
    return [
        (suffix, label, final - timedelta(days=95 + 130 * (count - n)))
        for n, (suffix, label) in enumerate(STAGES[:count])
    ]


def errata_of(item: Item) -> date | None:
    """The date of `item`'s errata update, for every fourth report (none yet for the newest)."""
    errata = date.fromisoformat(item.date) + timedelta(days=210)
    return errata if number_of(item) % 4 == 1 and errata < date(2026, 11, 1) else None


def supersedes(item: Item, items: list[Item]) -> tuple[int, str] | None:
    """The withdrawn report the first final of each topic area supersedes (number, title)."""
    firsts: dict[str, Item] = {}
    for other in sorted(items, key=lambda i: i.date):
        firsts.setdefault(other.category, other)
    if firsts.get(item.category) != item:
        return None
    areas = sorted(firsts)
    number, title, *_ = _OTHERS[areas.index(item.category) % 3]
    return number, title


def releases(items: list[Item]) -> list[Release]:
    """Every row of the publication search, newest release first."""
    rows: list[Release] = []
    for item in items:
        number = number_of(item)
        rows.append(
            Release(
                number, "TR", item.title, "Final", date.fromisoformat(item.date), item.path, item.category, item=item
            )
        )
        for suffix, label, day in drafts_of(item):
            rows.append(
                Release(
                    number, "TR", item.title, "Draft", day, f"/pubs/tr/{number}/{suffix}", item.category, stage=label
                )
            )
    for number, title, series, status, day in _OTHERS:
        rows.append(Release(number, series, title, status, day, f"/pubs/{series.lower()}/{number}/final", "General"))
    return sorted(rows, key=lambda r: (r.released, r.number), reverse=True)


class Fresh11StandardsSite(SiteApp):
    """A standards institute's publications: a faceted search, finals with document histories, drafts."""

    decoy_paths: ClassVar[dict[str, DecoyKind]] = {
        "/about": "about",
        "/contact": "contact",
        "/privacy": "privacy",
        "/accessibility": "accessibility",
    }

    def routes(self) -> list[Route]:
        self.rows = releases(self.items)
        self.areas = sorted({i.category for i in self.items})
        return [
            (re.compile(r"/"), self._home),
            (re.compile(r"/publications"), self._search),
            (re.compile(r"/publications/export"), self._export),
            (re.compile(r"/pubs/tr/(?P<number>\d+)/final"), self._final),
            (re.compile(r"/pubs/tr/(?P<number>\d+)/(?P<stage>ipd|2pd)"), self._draft),
            (re.compile(r"/pubs/tr/(?P<number>\d+)/(?P<stage>ipd|2pd)/comment"), self._comment),
            (re.compile(r"/pubs/hb/(?P<number>\d+)/final"), self._other),
            (re.compile(r"/docs/AISM\.(?P<series>TR|HB)\.(?P<number>\d+)\.pdf"), self._file),
            (re.compile(r"/topics/(?P<code>[a-z-]+)"), self._topic),
            (re.compile(r"/groups/(?P<code>[a-z-]+)"), self._group),
        ]

    def robots_txt(self) -> str:
        return "User-agent: *\nDisallow: /publications/export\nDisallow: /pubs/*/comment\nDisallow: /staff/\n"

    def sample_paths(self) -> dict[str, str]:
        item = self.items[0]
        draft = next(r for r in self.rows if r.status == "Draft")
        return {
            "home": "/",
            "search": "/publications",
            "final": item.path,
            "draft": draft.path,
            "topic": f"/topics/{_code(item.category)}",
            "group": f"/groups/{_code(item.category)}",
        }

    def page(self, *, title: str, content: str, kind: str, status: int = 200, head: str = "") -> Response:
        body = (
            '<div class="usa-banner">An official website of the Aldmoor government</div>'
            '<header class="aism-header"><a href="/" class="aism-logo">AISM</a><nav>'
            '<a href="/publications">Publications</a> <a href="/topics/fire-safety-engineering">Topics</a> '
            '<a href="/about">About</a> <a href="/contact">Contact</a></nav></header>\n'
            f'<main id="main" class="container">{content}</main>\n'
            '<footer><a href="/privacy">Privacy</a> | <a href="/accessibility">Accessibility</a> | '
            "Aldmoor Institute of Standards and Measurement, 100 Gauge Road, Aldmoor</footer>"
        )
        html = document(title=f"{title} | AISM", head=head, body=body, body_class="aism")
        return Response.html(html, kind=kind, status=status)

    def _home(self, request: Request) -> Response:
        latest = "".join(
            f'<li><a href="{attr(r.path)}">{esc(r.label)}</a>: {esc(r.title)} <small>{mdy(r.released)}</small></li>'
            for r in [r for r in self.rows if r.item is not None][:5]
        )
        areas = "".join(f'<li><a href="/topics/{_code(a)}">{esc(a)}</a></li>' for a in self.areas)
        content = (
            "<h1>Measurement science you can build on</h1>"
            f'<section><h2>Recently published</h2><ul class="latest">{latest}</ul>'
            '<p><a href="/publications">Search all publications</a></p></section>'
            f"<section><h2>Topic areas</h2><ul>{areas}</ul></section>"
            "<section><h2>Events</h2><p>Workshop on reference materials, 2027-02-09.</p></section>"
        )
        return self.page(title="Home", content=content, kind="home")

    def _facet(self, name: str, value: str, label: str, chosen: dict[str, str]) -> str:
        query = "&".join(f"{k}={v}" for k, v in ({**chosen, name: value}).items())
        return f'<li><a href="{attr("/publications?" + query)}">{esc(label)}</a></li>'

    def _search(self, request: Request) -> Response:
        chosen = {k: request.param(k) for k in ("status", "series", "topic", "keywords") if request.param(k)}
        rows = self.rows
        if "status" in chosen:
            rows = [r for r in rows if r.status.lower() == chosen["status"]]
        if "series" in chosen:
            rows = [r for r in rows if r.series.lower() == chosen["series"]]
        if "topic" in chosen:
            rows = [r for r in rows if _code(r.area) == chosen["topic"]]
        if "keywords" in chosen:
            found = {i.path for i in search_items(self.items, chosen["keywords"])}
            rows = [r for r in rows if r.item is not None and r.path in found]
        query = "&".join(f"{k}={v}" for k, v in chosen.items())
        shown, pager = paged(request, rows, PER_PAGE, lambda n: f"/publications?{query}&page={n}".replace("?&", "?"))
        table = "".join(
            f'<tr><td><a href="{attr(r.path)}">{esc(r.label)}</a></td><td>{esc(r.title)}</td>'
            f"<td>{esc(r.status)}</td><td>{mdy(r.released)}</td></tr>"
            for r in shown
        )
        facets = (
            "<h2>Status</h2><ul>"
            + "".join(self._facet("status", s.lower(), s, chosen) for s in ("Final", "Draft", "Withdrawn"))
            + "</ul><h2>Series</h2><ul>"
            + "".join(
                self._facet("series", s.lower(), label, chosen)
                for s, label in (("TR", "Technical Reports"), ("HB", "Handbooks"))
            )
            + "</ul><h2>Topic area</h2><ul>"
            + "".join(self._facet("topic", _code(a), a, chosen) for a in self.areas)
            + "</ul>"
        )
        content = (
            '<h1>Publication search</h1><form action="/publications" method="get"><input name="keywords" '
            f'value="{attr(chosen.get("keywords", ""))}"><button>Search</button></form>'
            f'<aside class="facets">{facets}</aside><p>Showing {len(rows)} matching records, sorted by release date. '
            f'<a href="/publications/export?format=csv">Export all (CSV)</a></p>'
            "<table><thead><tr><th>Number</th><th>Title</th><th>Status</th><th>Release date</th></tr></thead>"
            f"<tbody>{table}</tbody></table>{pager}"
        )
        return self.page(title="Publication search", content=content, kind="search")

    def _export(self, request: Request) -> Response:
        lines = ["number,title,status,released"] + [f'{r.label},"{r.title}",{r.status},{r.released}' for r in self.rows]
        return Response.text("\n".join(lines) + "\n", kind="export")

    def _item(self, number: str) -> Item | None:
        return self.by_path.get(f"/pubs/tr/{number}/final")

    def _history(self, item: Item) -> str:
        number = number_of(item)
        entries = [(d, f"TR {number} ({label})", f"/pubs/tr/{number}/{suffix}") for suffix, label, d in drafts_of(item)]
        entries.append((date.fromisoformat(item.date), f"TR {number} (Final)", item.path))
        errata = errata_of(item)
        if errata:
            entries.append((errata, f"TR {number} (Final, errata update)", item.path))
        rows = "".join(
            f'<li>{_short(d)}: <a href="{attr(path)}">{esc(label)}</a></li>' for d, label, path in reversed(entries)
        )
        return f'<h2>Document History:</h2><ul class="history">{rows}</ul>'

    def _final(self, request: Request, number: str) -> Response:
        item = self._item(number)
        if item is None:
            other = next((r for r in self.rows if r.path == request.path), None)
            return self.not_found() if other is None else self._other(request, number)
        day = date.fromisoformat(item.date)
        authors = "".join(f"<li>{esc(a)}</li>" for a in item.authors)
        old = supersedes(item, self.items)
        replaced = f'<p>Supersedes: <a href="/pubs/tr/{old[0]}/final">TR {old[0]}</a> (withdrawn)</p>' if old else ""
        errata = errata_of(item)
        note = f'<p class="errata">Errata update {mdy(errata)}: corrections to two tables.</p>' if errata else ""
        content = (
            f'<p class="series">Technical Report (TR) {number}</p><h1>{esc(item.title)}</h1>'
            f"<dl><dt>Date Published:</dt><dd>{MONTHS[day.month - 1]} {day.year}</dd>"
            f"<dt>Status:</dt><dd>Final</dd></dl>{note}"
            f'<h2>Author(s)</h2><ul class="authors">{authors}</ul>'
            f"<h2>Abstract</h2><p>{esc(item.abstract)}</p>"
            f"<h2>Keywords</h2><p>{esc('; '.join(item.keywords))}</p>"
            f'<h2>Documentation</h2><p><a href="{attr(item.pdf_path)}">Local Download</a></p>{replaced}'
            f"{self._history(item)}"
            f'<p>Topics: <a href="/topics/{_code(item.category)}">{esc(item.category)}</a> · Working group: '
            f'<a href="/groups/{_code(item.category)}">{esc(item.category)} Working Group</a></p>'
        )
        return self.page(title=f"TR {number}, {item.title}", content=content, kind="final")

    def _draft(self, request: Request, number: str, stage: str) -> Response:
        item = self._item(number)
        draft = next((d for d in drafts_of(item) if d[0] == stage), None) if item else None
        if item is None or draft is None:
            return self.not_found()
        _, label, day = draft
        due = day + timedelta(days=60)
        content = (
            f'<div class="alert">This publication has been superseded by <a href="{attr(item.path)}">TR {number} '
            f'(Final)</a>.</div><p class="series">Technical Report (TR) {number} ({esc(label)})</p>'
            f"<h1>{esc(item.title)}</h1><dl><dt>Date Published:</dt><dd>{MONTHS[day.month - 1]} {day.year}</dd>"
            f"<dt>Comments Due:</dt><dd>{MONTHS[due.month - 1]} {due.day}, {due.year}</dd></dl>"
            f"<h2>Author(s)</h2><ul>{''.join(f'<li>{esc(a)}</li>' for a in item.authors)}</ul>"
            f"<h2>Announcement</h2><p>AISM requests comments on this draft. {esc(item.abstract[:160])}…</p>"
            f'<p><a href="/pubs/tr/{number}/{stage}/comment">Submit comments</a></p>{self._history(item)}'
        )
        return self.page(title=f"TR {number} ({label})", content=content, kind="draft")

    def _comment(self, request: Request, number: str, stage: str) -> Response:
        content = '<h1>Submit comments</h1><form method="post"><textarea name="comment"></textarea></form>'
        return self.page(title="Submit comments", content=content, kind="comment")

    def _other(self, request: Request, number: str) -> Response:
        row = next((r for r in self.rows if r.path == request.path), None)
        if row is None:
            return self.not_found()
        status = "Withdrawn" if row.status == "Withdrawn" else "Final"
        content = (
            f'<p class="series">{esc(row.label)}</p><h1>{esc(row.title)}</h1>'
            f"<dl><dt>Date Published:</dt><dd>{MONTHS[row.released.month - 1]} {row.released.year}</dd>"
            f"<dt>Status:</dt><dd>{status}</dd></dl>"
            + ("<p>This report was withdrawn and is kept for reference only.</p>" if status == "Withdrawn" else "")
            + f'<p><a href="/docs/AISM.{row.series}.{row.number}.pdf">Local Download</a></p>'
        )
        return self.page(title=row.label, content=content, kind="other")

    def _file(self, request: Request, series: str, number: str) -> Response:
        item = self._item(number) if series == "TR" else None
        if item is not None:
            return self.pdf(item)
        known = any(r.series == series and str(r.number) == number for r in self.rows)
        return Response.text(f"AISM {series} {number}\n", kind="file") if known else self.not_found()

    def _listing(self, area: str) -> str:
        return "".join(
            f'<li><a href="{attr(i.path)}">{esc(i.title)}</a> <span class="number">TR {number_of(i)}</span></li>'
            for i in sorted((i for i in self.items if i.category == area), key=lambda i: i.title)
        )

    def _topic(self, request: Request, code: str) -> Response:
        area = next((a for a in self.areas if _code(a) == code), None)
        if area is None:
            return self.not_found()
        others = "".join(f'<li><a href="/topics/{_code(a)}">{esc(a)}</a></li>' for a in self.areas if a != area)
        content = (
            f"<h1>{esc(area)}</h1><p>Research, reference data and guidance in {esc(area.lower())}.</p>"
            f"<h2>Publications</h2><ul>{self._listing(area)}</ul>"
            f'<p><a href="/publications?topic={code}">All publications in this area, with drafts</a></p>'
            f"<h2>Other topic areas</h2><ul>{others}</ul>"
        )
        return self.page(title=area, content=content, kind="topic")

    def _group(self, request: Request, code: str) -> Response:
        area = next((a for a in self.areas if _code(a) == code), None)
        if area is None:
            return self.not_found()
        members = sorted({i.authors[0] for i in self.items if i.category == area})
        content = (
            f"<h1>{esc(area)} Working Group</h1><p>Chair: {esc(members[0])}. Meets quarterly; minutes are "
            f"circulated to members.</p><h2>Members</h2><ul>{''.join(f'<li>{esc(m)}</li>' for m in members)}</ul>"
            f"<h2>Reports of the group</h2><ul>{self._listing(area)}</ul>"
        )
        return self.page(title=f"{area} Working Group", content=content, kind="group")
