"""HELD OUT, fresh (fourteenth batch): the ESC conference's OpenReview, built as OpenReview builds a venue (see
`fresh_heldout14.py`; do not read or tune anything to it). The home page lists the active venue and links the host
group, which links each year's conference (`/group?id=ESC.cc/2024/Conference`). A venue page shows its dates and
tabs of submissions by decision: "Accept (Oral)", "Accept (Poster)", "Reject", "Withdrawn Submissions"; this year's
venue, still under review, shows "Active Submissions" with anonymous authors. Each note lists its title, authors
(linked to profiles), "Published: 15 Mar 2024, Last Modified: 02 Apr 2024" and its venue. A forum page
(`/forum/<id>`) gives the submission (keywords, TL;DR, abstract, primary area, the PDF) with Google Scholar meta tags,
then its replies, each dated: official reviews, the decision by the program chairs, comments. Profiles list a
person's submissions. Non-paper notes of each year (workshop proposals, the call for papers) and submissions on other
subjects sit among ours; the API, revisions, the search and logins are forbidden.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, timedelta
from typing import ClassVar

from research_crawler.eval.testbed.decoys import DecoyKind
from research_crawler.eval.testbed.fresh_heldout14 import forum_id
from research_crawler.eval.testbed.full_text import search_items
from research_crawler.eval.testbed.markup import MONTHS, attr, document, esc, meta_name
from research_crawler.eval.testbed.models import Item
from research_crawler.eval.testbed.site_app import Request, Response, Route, SiteApp

__all__ = ["ACTIVE_YEAR", "TABS", "Fresh14ForumSite", "Note", "decision", "notes", "or_date", "profile_id", "venue_id"]

#: This year's venue is still under review: no decisions, anonymous authors.
ACTIVE_YEAR = 2026
HOST = "ESC.cc"
TABS = ("Accept (Oral)", "Accept (Poster)", "Reject", "Withdrawn Submissions")
ANONYMOUS = "Anonymous Authors"
#: The day the site was captured: nothing is dated after it.
TODAY = date(2026, 11, 20)
#: Submissions on other subjects each year: (title, primary area, authors).
_OTHERS = (
    ("A Benchmark of Tabular Models for River Gauges", "datasets and benchmarks", ("Alex Morgan", "Ola Berg")),
    ("Graph Networks for Power Grid Outage Prediction", "learning on graphs", ("Priya Natarajan", "Mei Tanaka")),
    ("Federated Keyword Spotting on Microcontrollers", "speech and audio security", ("Tomás Ruiz", "Alex Morgan")),
    ("Sparse Attention for Weather Downscaling", "applications to remote sensing and agriculture", ("Mei Tanaka",)),
)


def _hash(text: str) -> int:
    return sum(ord(c) * (n + 11) for n, c in enumerate(text))


def _anchor(tab: str) -> str:
    return re.sub(r"[^a-z]+", "-", tab.lower()).strip("-")


def or_date(day: date) -> str:
    """A date as OpenReview writes it: '05 Mar 2024'."""
    return f"{day.day:02d} {MONTHS[day.month - 1][:3]} {day.year}"


def venue_id(year: int) -> str:
    return f"{HOST}/{year}/Conference"


def profile_id(name: str) -> str:
    """A profile id as OpenReview makes it: '~Jane_Smith1'."""
    return "~" + name.replace(" ", "_") + "1"


def decision(note: str, year: int) -> str:
    """The tab a submission sits in: most accepted as posters, some orals, some rejected, a few withdrawn."""
    if year == ACTIVE_YEAR:
        return "Active Submissions"
    return (
        "Accept (Poster)",
        "Accept (Oral)",
        "Accept (Poster)",
        "Reject",
        "Accept (Poster)",
        "Reject",
        "Withdrawn Submissions",
    )[_hash(note) % 7]


@dataclass(frozen=True)
class Note:
    """A submission: a paper (`item`) or another submission of its year."""

    note: str
    title: str
    authors: tuple[str, ...]
    day: date
    area: str
    item: Item | None = None

    @property
    def path(self) -> str:
        return f"/forum/{self.note}"

    @property
    def year(self) -> int:
        return self.day.year

    @property
    def tab(self) -> str:
        return decision(self.note, self.year)

    @property
    def modified(self) -> date:
        return min(self.day + timedelta(days=60 + _hash(self.note) % 120), TODAY)

    @property
    def shown_authors(self) -> tuple[str, ...]:
        return (ANONYMOUS,) if self.year == ACTIVE_YEAR else self.authors


def notes(items: list[Item]) -> list[Note]:
    """Every submission, newest first: the papers and, each year, the submissions on other subjects."""
    made = [Note(i.key, i.title, i.authors, date.fromisoformat(i.date), i.category, i) for i in items]
    for year in sorted({n.year for n in made} | {ACTIVE_YEAR}):
        for m, (title, area, authors) in enumerate(_OTHERS):
            day = date(year, 2, 10) + timedelta(days=3 * m + year % 5)
            made.append(Note(forum_id(9000 + 10 * year + m), title, authors, day, area))
    return sorted(made, key=lambda n: (n.day, n.note), reverse=True)


class Fresh14ForumSite(SiteApp):
    """An OpenReview-like venue site: host group, yearly venues with decision tabs, forums and profiles."""

    decoy_paths: ClassVar[dict[str, DecoyKind]] = {"/about": "about", "/legal/terms": "terms", "/contact": "contact"}

    def routes(self) -> list[Route]:
        self.notes = notes(self.items)
        self.by_note = {n.note: n for n in self.notes}
        self.years = sorted({n.year for n in self.notes}, reverse=True)
        return [
            (re.compile(r"/"), self._home),
            (re.compile(r"/group"), self._group),
            (re.compile(r"/forum/(?P<note>[A-Za-z0-9]{10})"), self._forum),
            (re.compile(r"/pdf/(?P<note>[A-Za-z0-9]{10})"), self._pdf),
            (re.compile(r"/profile"), self._profile),
            (re.compile(r"/search"), self._search),
            (re.compile(r"/login|/revisions|/api/.*"), self._login),
        ]

    def robots_txt(self) -> str:
        return "User-agent: *\nDisallow: /api/\nDisallow: /revisions\nDisallow: /search\nDisallow: /login\n"

    def sample_paths(self) -> dict[str, str]:
        return {
            "home": "/",
            "host": f"/group?id={HOST}",
            "venue": f"/group?id={venue_id(self.years[-1])}",
            "active": f"/group?id={venue_id(ACTIVE_YEAR)}",
            "forum": self.items[0].path,
            "pdf": self.items[0].pdf_path,
            "profile": f"/profile?id={profile_id(self.items[-1].authors[0])}",
        }

    def page(self, *, title: str, content: str, kind: str, status: int = 200, head: str = "") -> Response:
        body = (
            '<nav class="navbar"><a class="navbar-brand" href="/"><strong>OpenReview</strong>.net</a>'
            '<form class="navbar-form" action="/search" method="get"><input name="term" placeholder="Search '
            'OpenReview..."></form><a class="login" href="/login">Login</a></nav>\n'
            f'<div id="content" class="container">{content}</div>\n'
            '<footer><a href="/about">About OpenReview</a> · <a href="/contact">Contact</a> · <a href="/legal/terms">'
            "Terms of Use</a> · OpenReview is a long-term project to advance science through improved peer review"
            "</footer>"
        )
        return Response.html(document(title=f"{title} | OpenReview", head=head, body=body), kind=kind, status=status)

    def _names(self, note: Note) -> str:
        if note.shown_authors == (ANONYMOUS,):
            return ANONYMOUS
        return ", ".join(
            f'<a href="/profile?id={attr(profile_id(a))}" data-toggle="tooltip">{esc(a)}</a>'
            for a in note.shown_authors
        )

    def _venue_label(self, note: Note) -> str:
        tab = note.tab
        if tab.startswith("Accept"):
            return f"ESC {note.year} {tab[8:-1]}"
        if tab == "Reject":
            return f"Submitted to ESC {note.year}"
        return f"ESC {note.year} Conference {'Withdrawn Submission' if tab.startswith('Withdrawn') else 'Submission'}"

    def _row(self, note: Note) -> str:
        return (
            f'<li class="note"><h4><a href="{note.path}">{esc(note.title)}</a> <a class="pdf-link" href="/pdf/'
            f'{note.note}" title="Download PDF"><img src="/images/pdf_icon_blue.svg" alt="pdf"></a></h4>'
            f'<div class="note-authors">{self._names(note)}</div><ul class="note-meta-info list-inline"><li>Published: '
            f"{or_date(note.day)}, Last Modified: {or_date(note.modified)}</li><li>{esc(self._venue_label(note))}</li>"
            "</ul></li>"
        )

    def _home(self, request: Request) -> Response:
        content = (
            '<div id="header"><h1>Open Peer Review. Open Publishing. Open Access.</h1></div>'
            '<section id="active-venues">'
            f'<h2>Active Venues</h2><ul class="conferences"><li><a href="/group?id={venue_id(ACTIVE_YEAR)}">ESC '
            f'{ACTIVE_YEAR} Conference</a></li></ul></section><section id="all-venues"><h2>All Venues</h2><ul>'
            f'<li><a href="/group?id={HOST}">Earth and Signal Computing Conference</a></li></ul></section>'
        )
        return self.page(title="OpenReview", content=content, kind="home")

    def _group(self, request: Request) -> Response:
        group = request.param("id")
        if group == HOST:
            rows = "".join(f'<li><a href="/group?id={venue_id(y)}">ESC {y} Conference</a></li>' for y in self.years)
            content = (
                '<div class="venue-header"><h1>Earth and Signal Computing Conference</h1></div><h3>Conferences</h3>'
                f'<ul class="list-unstyled venues-list">{rows}</ul>'
            )
            return self.page(title="Earth and Signal Computing", content=content, kind="host")
        found = re.fullmatch(rf"{re.escape(HOST)}/(\d{{4}})/Conference", group)
        if found is None or int(found.group(1)) not in self.years:
            return self.not_found("The Group could not be found.")
        year = int(found.group(1))
        mine = [n for n in self.notes if n.year == year]
        tabs = ("Active Submissions",) if year == ACTIVE_YEAR else TABS
        heads = "".join(f'<li role="presentation"><a href="#{_anchor(t)}" data-toggle="tab">{t}</a></li>' for t in tabs)
        panes = "".join(
            f'<div role="tabpanel" class="tab-pane" id="{_anchor(t)}"><ul class="list-'
            f'unstyled submissions-list">{"".join(self._row(n) for n in mine if n.tab == t)}</ul></div>'
            for t in tabs
        )
        content = (
            f'<div class="venue-header"><h1>ESC {year} Conference</h1><h3>Earth and Signal Computing Conference</h3>'
            f'<h4><span class="venue-location">Online</span> <span class="venue-date">Jul {year}</span></h4>'
            f'<p class="venue-website"><a href="https://esc-conf.invalid/{year}">https://esc-conf.invalid/{year}</a>'
            f'</p></div><ul class="nav nav-tabs">{heads}</ul><div class="tab-content">{panes}</div>'
        )
        return self.page(title=f"ESC {year} Conference", content=content, kind="venue")

    def _forum(self, request: Request, note: str) -> Response:
        found = self.by_note.get(note)
        if found is None:
            return self.not_found("The Note could not be found.")
        item = found.item
        head = meta_name("citation_title", found.title)
        if found.shown_authors != (ANONYMOUS,):
            head += "".join(meta_name("citation_author", a) for a in found.authors)
        head += meta_name("citation_online_date", found.day.strftime("%Y/%m/%d"))
        head += meta_name("citation_pdf_url", self.links.absolute(f"/pdf/{note}"))
        if found.tab.startswith("Accept"):
            head += meta_name("citation_conference_title", f"ESC {found.year}")
        abstract = item.abstract if item else f"We study {found.title.lower()}; code and data are released."
        fields = [
            ("Keywords", ", ".join(item.keywords) if item else found.area),
            ("TL;DR", abstract.split(". ")[0]),
            ("Abstract", abstract),
            ("Primary Area", found.area),
            ("Submission Number", str(1000 + _hash(note) % 9000)),
        ]
        body = "".join(
            f'<li><strong class="note-content-field">{k}:</strong> <span class="note-content-value">'
            f"{esc(v)}</span></li>"
            for k, v in fields
        )
        content = (
            f'<div class="forum-container"><div class="forum-note"><div class="forum-title"><h2 class="citation_title">'
            f'{esc(found.title)}</h2><a class="citation_pdf_url" href="/pdf/{note}" title="Download PDF">pdf</a></div>'
            f'<div class="forum-authors"><h3>{self._names(found)}</h3></div><div class="forum-meta"><span class="date">'
            f"Published: {or_date(found.day)}, Last Modified: {or_date(found.modified)}</span> <span>"
            f'{esc(self._venue_label(found))}</span> <span>Readers: Everyone</span> <a href="/revisions?id={note}">'
            f'Revisions</a></div><ul class="note-content list-unstyled">{body}</ul></div>'
            f'<div id="forum-replies">{self._replies(found)}</div></div>'
        )
        return self.page(title=found.title, content=content, kind="forum", head=head)

    def _replies(self, note: Note) -> str:
        """The reviews, then the decision, each dated after the submission was published."""
        if note.tab == "Withdrawn Submissions":
            when = or_date(note.day + timedelta(days=30))
            return (
                f'<div class="note"><h4>Submission Withdrawn by the Authors</h4><span class="date">{when}</span></div>'
            )
        replies = []
        for n, reviewer in enumerate(("xQ4t", "Ld9e", "pR2m")):
            day = note.day + timedelta(days=20 + 6 * n + _hash(reviewer + note.note) % 9)
            if day > TODAY:
                continue
            rating = 3 + (_hash(note.note + reviewer) % 6)
            replies.append(
                f'<div class="note"><h4>Official Review of Submission by Reviewer {reviewer}</h4><span class="date">'
                f'{or_date(day)}</span><ul class="note-content"><li><strong>Summary:</strong> The paper is clear and '
                f"the evaluation is reasonable.</li><li><strong>Rating:</strong> {rating}</li><li><strong>Confidence:"
                f"</strong> {2 + n}</li></ul></div>"
            )
        if note.year != ACTIVE_YEAR:
            day = note.day + timedelta(days=55)
            replies.append(
                f'<div class="note"><h4>Paper Decision</h4><span class="signatures">Program Chairs</span> <span '
                f'class="date">{or_date(day)}</span><ul class="note-content"><li><strong>Decision:</strong> '
                f"{'Reject' if note.tab == 'Reject' else note.tab}</li></ul></div>"
            )
        return "".join(replies)

    def _pdf(self, request: Request, note: str) -> Response:
        found = self.by_note.get(note)
        if found is None or found.item is None:
            return self.not_found("The PDF could not be found.")
        return self.pdf(found.item)

    def _profile(self, request: Request) -> Response:
        wanted = request.param("id")
        mine = [
            n for n in self.notes if n.shown_authors != (ANONYMOUS,) and any(profile_id(a) == wanted for a in n.authors)
        ]
        if not mine:
            return self.not_found("The Profile could not be found.")
        name = next(a for a in mine[0].authors if profile_id(a) == wanted)
        content = (
            f'<div class="profile-container"><h1>{esc(name)}</h1><h3>Publications</h3><ul class="list-unstyled '
            f'submissions-list">{"".join(self._row(n) for n in mine)}</ul></div>'
        )
        return self.page(title=f"{name} | Profile", content=content, kind="profile")

    def _search(self, request: Request) -> Response:
        text = request.param("term")
        found = search_items(self.items, text) if text else []
        rows = "".join(f'<li><a href="{attr(i.path)}">{esc(i.title)}</a></li>' for i in found)
        return self.page(title="Search", content=f"<h2>Search results</h2><ul>{rows}</ul>", kind="search")

    def _login(self, request: Request) -> Response:
        return self.page(
            title="Login", content='<h1>Login</h1><form method="post"><input name="id"></form>', kind="login"
        )
