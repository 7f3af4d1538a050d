"""HELD OUT, and fresh (fifth batch): three more sites built as a society's seminar programme, a professor's own
homepage and a government agency's report series are, on topics no other testbed site holds
(`fresh_heldout5_topics.toml`), written with their requests and ground truth before the crawler was ever run on
them. Do not read or tune anything to this module, to `fresh_heldout5_homepage.py`, `fresh_heldout5_reports.py` or
the topics file: their first run is the measure.

- Inland Waters Colloquium (`fresh5-colloquium`): a society's seminar series: a programme page per year, each term
  a schedule table (date, time, room, speaker, talk) in which invited lectures without abstracts and poster evenings
  are mixed in with the talks; each talk links to an abstract page ("Thursday 14 March 2024, 16:15, Room 2.14") with
  its speaker, co-authors and slides; no metadata tags. Some talks present the professor's papers below (one work,
  two sites).
- A professor's homepage (`fresh5-homepage`, in `fresh_heldout5_homepage.py`): a hand-written page with a plain
  ``<ul>`` of papers, each a citation with the year only inside it, followed by "[Abstract] [PDF] [BibTeX]
  [Slides]"; students' papers in a second list; abstract pages that name neither authors nor year; BibTeX as text.
- National Water and Health Agency (`fresh5-reports`, in `fresh_heldout5_reports.py`): a report series ("Report
  2024/17"): a publications page filtered by select boxes (a GET form by year and topic) and paged "Next page ›";
  a landing page per report with its number, "Published 17/05/2024", who prepared it and a PDF download; robots.txt
  forbids the site search and the drafts of consultations.
"""

from __future__ import annotations

import re
from datetime import date
from typing import ClassVar

from research_crawler.eval.testbed.decoys import DecoyKind
from research_crawler.eval.testbed.markup import attr, document, esc, url_slug
from research_crawler.eval.testbed.models import Item, SiteSpec
from research_crawler.eval.testbed.site_app import Request, Response, Route, SiteApp

__all__ = [
    "FRESH5_BATCH",
    "FRESH5_PER_TOPIC",
    "FRESH5_PLANS",
    "FRESH5_SITE_SPECS",
    "FRESH5_TOPICS_FILE",
    "INVITED",
    "Fresh5ColloquiumSite",
    "fresh5_identity",
    "slot",
    "spoken_date",
    "term_of",
]

#: The fifth batch's own topics and near misses (the format of `unfamiliar_topics.toml`), held out with it.
FRESH5_TOPICS_FILE = "fresh_heldout5_topics.toml"

FRESH5_SITE_SPECS: tuple[SiteSpec, ...] = (
    SiteSpec(
        name="fresh5-colloquium",
        title="Inland Waters Colloquium",
        layout="fresh5-colloquium",
        tagline="The seminar series of the Society for Lake and River Science",
        categories={"road-salt": "Water chemistry", "salt-other": "Water chemistry"},
    ),
    SiteSpec(
        name="fresh5-homepage",
        title="Halvorsen University staff pages",
        layout="fresh5-homepage",
        tagline="Department of Ecology and Evolution, Halvorsen University",
        categories={"road-salt": "Freshwater chemistry", "salt-other": "Freshwater chemistry"},
    ),
    SiteSpec(
        name="fresh5-reports",
        title="National Water and Health Agency",
        layout="fresh5-reports",
        tagline="Independent advice on drinking water and public health",
        categories={
            "well-arsenic": "Drinking water",
            "teen-sleep": "Child and adolescent health",
            "arsenic-other": "Drinking water",
            "sleep-other": "Child and adolescent health",
        },
    ),
)
#: Each site's requests, as `unfamiliar_corpus.UNFAMILIAR_PLANS` writes them.
FRESH5_PLANS: dict[str, tuple[str, ...]] = {
    "fresh5-colloquium": ("topic", "cross:fresh5-homepage", "recent"),
    "fresh5-homepage": ("author", "year", "recent"),
    "fresh5-reports": ("topic", "recent", "year", "topic", "recent"),
}
#: Papers per topic on each site (the homepage and the colloquium share works: at most 10 between them).
FRESH5_PER_TOPIC: dict[str, tuple[int, int]] = {
    "fresh5-colloquium": (4, 5),
    "fresh5-homepage": (4, 5),
    "fresh5-reports": (5, 7),
}
#: Works on two sites: the professor's papers presented in the colloquium.
FRESH5_SHARED: dict[tuple[str, str], tuple[str, ...]] = {("fresh5-homepage", "fresh5-colloquium"): ("road-salt",)}
#: What `unfamiliar_corpus` adds, from its own random stream: the sites, requests and shared works.
FRESH5_BATCH = (FRESH5_SITE_SPECS, FRESH5_PLANS, FRESH5_SHARED)

#: Invited lectures: on the programme, never with an abstract page (speaker, title).
INVITED = (
    ("Ingrid Solberg", "Fifty Years of Lake Monitoring: What the Long Records Teach Us"),
    ("Tomás Echeverría", "Rivers in the Anthropocene"),
    ("Margaret Oduya", "Open Data for Freshwater Science"),
)
_ROOMS = ("Room 2.14, Kirkby Building", "Lecture Theatre B", "Seminar Room 0.08, Limnology Lab", "Online (Zoom)")


def fresh5_identity(layout: str, day: date, serial: int, title: str) -> tuple[str, str, str, str | None, str | None]:
    """(key, path, PDF path, DOI, preprint id) of an item of the fifth fresh batch."""
    if layout == "fresh5-colloquium":
        return str(serial), f"/programme/talks/{serial}.html", f"/programme/slides/{serial}.pdf", None, None
    if layout == "fresh5-homepage":
        slug = url_slug(title, limit=50)
        return slug, f"/~hvk/papers/{slug}.html", f"/~hvk/papers/{slug}.pdf", None, None
    key = f"{day.year}-{serial:02d}"
    return key, f"/publications/reports/{key}", f"/media/reports/NWHA-report-{key}.pdf", None, None


def spoken_date(day: str) -> str:
    """'2024-03-14' → 'Thursday 14 March 2024', as the programme writes a talk's day."""
    value = date.fromisoformat(day)
    return f"{value:%A} {value.day} {value:%B %Y}"


def term_of(item: Item) -> str:
    """The programme's term of a talk: 'Spring' (January to July) or 'Autumn'."""
    return "Spring" if int(item.date[5:7]) <= 7 else "Autumn"


def slot(item: Item) -> tuple[str, str]:
    """(start time, room) of a talk: the programme's schedule."""
    serial = int(item.key)
    return ("12:30", "16:15", "17:00")[serial % 3], _ROOMS[serial % len(_ROOMS)]


class Fresh5ColloquiumSite(SiteApp):
    """A seminar series: a programme per year as schedule tables by term, talks linking to abstract pages."""

    decoy_paths: ClassVar[dict[str, DecoyKind]] = {"/about.html": "about", "/contact.html": "contact",
                                                   "/membership.html": "members"}  # fmt: skip

    def routes(self) -> list[Route]:
        return [
            (re.compile(r"/(index\.html)?"), self._home),
            (re.compile(r"/programme/(?P<year>\d{4})\.html"), self._programme),
            (re.compile(r"/programme/talks/(?P<key>\d+)\.html"), self._talk),
            (re.compile(r"/programme/slides/(?P<key>\d+)\.pdf"), self._slides),
        ]

    def robots_txt(self) -> str:
        return "User-agent: *\nDisallow: /registration/\nDisallow: /speakers-only/\n"

    def sample_paths(self) -> dict[str, str]:
        item = self.items[0]
        return {"home": "/", "programme": f"/programme/{item.year}.html", "talk": item.path}

    def page(self, *, title: str, content: str, kind: str, status: int = 200, head: str = "") -> Response:
        years = self._years()
        body = (
            f'<div id="top"><a href="/">{esc(self.spec.title)}</a><br><small>{esc(self.spec.tagline)}</small></div>'
            '<div id="menu"><a href="/">Home</a> | '
            + " | ".join(f'<a href="/programme/{y}.html">Programme {y}</a>' for y in years[:3])
            + ' | <a href="/about.html">About</a> | <a href="/registration/">Register</a></div>\n'
            f'<div id="content">{content}</div>\n'
            '<div id="bottom">Society for Lake and River Science · <a href="/contact.html">Contact</a> · '
            '<a href="/membership.html">Membership</a></div>'
        )
        return Response.html(document(title=f"{title} - {self.spec.title}", head=head, body=body), kind=kind,
                             status=status)  # fmt: skip

    def _years(self) -> list[int]:
        return sorted({i.year for i in self.items}, reverse=True)

    def _home(self, request: Request) -> Response:
        upcoming = self.items[0]
        archive = "".join(f'<li><a href="/programme/{y}.html">Programme {y}</a></li>' for y in self._years())
        content = (
            "<h1>Welcome</h1><p>The colloquium meets through the teaching year for talks on lakes, rivers and "
            "wetlands. Everyone is welcome; talks are followed by tea. Poster evenings are open to students.</p>"
            f"<p><b>Next talk:</b> {esc(spoken_date(upcoming.date))}, {slot(upcoming)[0]}: "
            f"{esc(upcoming.authors[0])}.</p><h2>Programmes</h2><ul>{archive}</ul>"
        )
        return self.page(title="Home", content=content, kind="home")

    def _programme(self, request: Request, year: str) -> Response:
        talks = sorted((i for i in self.items if str(i.year) == year), key=lambda i: i.date)
        if not talks:
            return self.not_found("There is no programme for that year.")
        sections = []
        for term in ("Spring", "Autumn"):
            rows = []
            for number, item in enumerate(t for t in talks if term_of(t) == term):
                start, room = slot(item)
                day = date.fromisoformat(item.date)
                kind = "Poster evening" if int(item.key) % 5 == 0 else "Talk"
                speaker = esc(item.authors[0]) + (" <i>et al.</i>" if len(item.authors) > 1 else "")
                rows.append(
                    f"<tr><td>{day:%a} {day.day} {day:%b}</td><td>{start}</td><td>{esc(room)}</td><td>{kind}</td>"
                    f'<td>{speaker}</td><td><a href="{attr(item.path)}">{esc(item.title)}</a></td></tr>'
                )
                if number % 3 == 1:
                    lecturer, lecture = INVITED[(int(item.key) + number) % len(INVITED)]
                    rows.append(
                        f"<tr><td>{day:%a} {day.day} {day:%b}</td><td>18:00</td><td>Lecture Theatre B</td>"
                        f"<td>Invited lecture</td><td>{esc(lecturer)}</td><td>{esc(lecture)}</td></tr>"
                    )
            if rows:
                sections.append(
                    f"<h2>{term} term {year}</h2><table><tr><th>Date</th><th>Time</th><th>Room</th><th>Type</th>"
                    f"<th>Speaker</th><th>Title</th></tr>{''.join(rows)}</table>"
                )
        content = f"<h1>Programme {year}</h1><p>All times are local. Changes are announced by e-mail.</p>" + "".join(
            sections
        )
        return self.page(title=f"Programme {year}", content=content, kind="programme")

    def _talk(self, request: Request, key: str) -> Response:
        item = self.item_at(f"/programme/talks/{key}.html")
        if item is None:
            return self.not_found("No such talk.")
        start, room = slot(item)
        others = ", ".join(item.authors[1:])
        content = (
            f"<h1>{esc(item.title)}</h1><p><b>Speaker:</b> {esc(item.authors[0])}"
            + (f"<br><b>Joint work with:</b> {esc(others)}" if others else "")
            + f"</p><p><b>When:</b> {esc(spoken_date(item.date))}, {start}<br><b>Where:</b> {esc(room)}</p>"
            f"<h2>Abstract</h2><p>{esc(item.abstract)}</p>"
            f'<p><a href="{attr(item.pdf_path)}">Slides (PDF)</a> · '
            f'<a href="/programme/{item.year}.html">Back to the programme</a></p>'
        )
        return self.page(title=item.title, content=content, kind="talk")

    def _slides(self, request: Request, key: str) -> Response:
        item = self.item_at(f"/programme/talks/{key}.html")
        return self.not_found() if item is None else self.pdf(item)
