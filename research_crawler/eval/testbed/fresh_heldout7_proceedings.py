"""HELD OUT, fresh (seventh batch): the Nordwyn Meetings on Environmental Sensing, built as a society's meetings and
proceedings sites are (see `fresh_heldout7.py`; do not read or tune anything to it). Two meetings a year, each a
programme of three days of sessions; a session lists its talks, and a talk with a proceedings paper links to it,
among keynotes, panels, poster sessions and workshops that have only an abstract. Papers are published online months
after their meeting; yearly volumes list them ten a page. Half the paper pages carry citation_* tags, the others
only text; every talk has an "Add to my itinerary" link that robots.txt forbids.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, timedelta
from typing import ClassVar

from research_crawler.eval.testbed.decoys import DecoyKind
from research_crawler.eval.testbed.full_text import search_items
from research_crawler.eval.testbed.markup import MONTHS, attr, document, esc, long_date, meta_name
from research_crawler.eval.testbed.models import Item
from research_crawler.eval.testbed.site_app import Request, Response, Route, SiteApp, paged

__all__ = ["EXTRA_SLOTS", "PER_PAGE", "Fresh7ProceedingsSite", "Meeting", "Slot", "meeting_of", "meetings", "programme"]

PER_PAGE = 10
TALKS_PER_SESSION = 4
_CITIES = ("Tromsø", "Bergen", "Umeå", "Aberdeen", "Turku", "Reykjavík", "Gdańsk", "Aarhus")
_ABBREVIATIONS = {"Underwater Acoustics": "UW", "Urban Climate Sensing": "UC"}
#: Presentations that are not papers: (kind, title, presenter, abstract), one of each at every meeting.
EXTRA_SLOTS = (
    ("Keynote", "Listening to a Changing Ocean: Two Decades of Recording Whale Calls", "Sigrun Vatnaland",
     "A plenary lecture on what long hydrophone records tell us about whales, ships and a warming sea."),
    ("Panel", "Panel: Who Should Own the Ocean's Soundscape Data?", "Moderated by Oren Castellano",
     "Researchers, navies and shipping companies discuss sharing passive acoustic recordings."),
    ("Keynote", "Cities That Breathe: Sensing Heat Street by Street", "Priya Anand-Lowe",
     "A plenary lecture on measuring the urban heat island and what street trees can and cannot do."),
    ("Poster", "Poster: Low-Cost Hydrophones for School Science Projects", "Emil Haugstad",
     "A build guide and first recordings from hydrophones that pupils assembled for under fifty euros."),
    ("Poster", "Poster: Mapping Shade along Children's Routes to School", "Carmen Olivares",
     "Volunteers mapped tree shade along school routes with phone photos and a simple app."),
    ("Workshop", "Workshop: Hands-On Whale Call Detection with Open Software", "Tutorial team",
     "Bring a laptop: we train a small detector on public hydrophone recordings."),
)  # fmt: skip


@dataclass(frozen=True)
class Meeting:
    """One meeting: its number, season and place, and the first of its three days."""

    number: int
    season: str
    start: date
    city: str

    @property
    def slug(self) -> str:
        return f"{self.start.year}-{self.season.lower()}"

    @property
    def path(self) -> str:
        return f"/meetings/{self.slug}"

    @property
    def name(self) -> str:
        return f"{_ordinal(self.number)} Meeting of the Nordwyn Society"

    @property
    def dates(self) -> str:
        end = self.start + timedelta(days=2)
        return f"{self.start.day}–{end.day} {MONTHS[end.month - 1]} {end.year}"


@dataclass(frozen=True)
class Slot:
    """One presentation of a session: a talk with a paper (an item) or one with only an abstract."""

    code: str
    time: str
    kind: str
    title: str
    presenters: str
    abstract: str
    item: Item | None


def _ordinal(number: int) -> str:
    suffix = "th" if 10 <= number % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(number % 10, "th")
    return f"{number}{suffix}"


def meetings(items: list[Item]) -> list[Meeting]:
    """Every meeting from the one the first paper was presented at to the last before the newest paper, newest
    first."""
    first, last = min(i.date for i in items), max(i.date for i in items)
    made = []
    for year in range(int(first[:4]) - 1, int(last[:4]) + 1):
        for season, start in (("Spring", date(year, 4, 20)), ("Autumn", date(year, 10, 12))):
            number = 170 + 2 * (year - 2020) + (season == "Autumn")
            made.append(Meeting(number, season, start, _CITIES[number % len(_CITIES)]))
    earliest = min(meeting_of(i, made).start for i in items)
    return [m for m in reversed(made) if earliest <= m.start and m.start.isoformat() < last]


def meeting_of(item: Item, every: list[Meeting]) -> Meeting:
    """The meeting a paper was presented at: the last one ending before it was published."""
    return max((m for m in every if (m.start + timedelta(days=3)).isoformat() <= item.date), key=lambda m: m.start)


def programme(meeting: Meeting, items: list[Item], every: list[Meeting]) -> dict[str, list[Slot]]:
    """Session code → its presentations: technical sessions of four talks per field, and the meeting's keynotes,
    panel, posters and workshop."""
    papers = sorted((i for i in items if meeting_of(i, every) == meeting), key=lambda i: (i.category, i.date))
    sessions: dict[str, list[Slot]] = {"1aPL": [], "2pPN": [], "3aPO": [], "3pWS": []}
    for kind, title, presenter, abstract in EXTRA_SLOTS:
        code = {"Keynote": "1aPL", "Panel": "2pPN", "Poster": "3aPO", "Workshop": "3pWS"}[kind]
        number = len(sessions[code]) + 1
        sessions[code].append(Slot(f"{code}{number}", f"{8 + number}:00", kind, title, presenter, abstract, None))
    for category in dict.fromkeys(i.category for i in papers):
        theirs = [i for i in papers if i.category == category]
        for start in range(0, len(theirs), TALKS_PER_SESSION):
            code = f"{1 + start // TALKS_PER_SESSION % 3}{'ap'[start // 12 % 2]}{_ABBREVIATIONS[category]}"
            code += str(start // TALKS_PER_SESSION + 1) if start else ""
            sessions[code] = [
                Slot(f"{code}{n + 1}", f"{9 + n}:{'00' if n % 2 == 0 else '30'}", "Contributed", i.title,
                     ", ".join(i.authors), i.abstract, i)
                for n, i in enumerate(theirs[start : start + TALKS_PER_SESSION])
            ]  # fmt: skip
    return sessions


def session_name(code: str, slots: list[Slot]) -> str:
    if slots and slots[0].item is not None:
        return f"{slots[0].item.category} {'I' * (1 + (code[-1].isdigit() and int(code[-1]) - 1))}"
    return {"PL": "Plenary Lectures", "PN": "Panel Discussion", "PO": "Poster Session", "WS": "Workshop"}[code[2:4]]


def _volume(year: int) -> int:
    return year - 1974


class Fresh7ProceedingsSite(SiteApp):
    """A society's meetings (programmes, sessions, abstracts) and proceedings (yearly volumes, paper pages)."""

    decoy_paths: ClassVar[dict[str, DecoyKind]] = {"/about": "about", "/membership": "terms", "/privacy": "privacy"}

    def routes(self) -> list[Route]:
        return [
            (re.compile(r"/"), self._home),
            (re.compile(r"/meetings"), self._meetings),
            (re.compile(r"/meetings/(?P<slug>\d{4}-[a-z]+)"), self._meeting),
            (re.compile(r"/meetings/(?P<slug>\d{4}-[a-z]+)/sessions/(?P<code>\w+)"), self._session),
            (re.compile(r"/meetings/(?P<slug>\d{4}-[a-z]+)/abstracts/(?P<code>\w+)"), self._abstract),
            (re.compile(r"/proceedings"), self._volumes),
            (re.compile(r"/proceedings/volume/(?P<number>\d+)"), self._volume_page),
            (re.compile(r"/proceedings/(?P<key>nmes\d{4}-\d+)"), self._paper),
            (re.compile(r"/proceedings/(?P<key>nmes\d{4}-\d+)/paper\.pdf"), self._file),
            (re.compile(r"/search"), self._search),
        ]

    def robots_txt(self) -> str:
        return "User-agent: *\nDisallow: /meetings/*/itinerary\nDisallow: /account/\nDisallow: /cart\n"

    def sample_paths(self) -> dict[str, str]:
        item = self.items[0]
        meeting = meeting_of(item, self._meetings_list())
        return {"home": "/", "meetings": "/meetings", "meeting": meeting.path, "proceedings": "/proceedings",
                "volume": f"/proceedings/volume/{_volume(item.year)}", "paper": item.path,
                "search": "/search?q=whale"}  # fmt: skip

    def page(self, *, title: str, content: str, kind: str, status: int = 200, head: str = "") -> Response:
        body = (
            f'<header class="banner"><a href="/" class="brand">{esc(self.spec.title)}</a><nav>'
            '<a href="/meetings">Meetings</a> <a href="/proceedings">Proceedings</a> <a href="/about">About</a> '
            '<a href="/membership">Membership</a> <a href="/account/login">Sign in</a></nav>'
            '<form action="/search" method="get"><input name="q" aria-label="Search proceedings">'
            "<button>Search</button></form></header>\n"
            f'<div id="content">{content}</div>\n'
            f'<footer>© The Nordwyn Society · <a href="/privacy">Privacy</a> · ISSN 2940-0000</footer>'
        )
        return Response.html(document(title=f"{title} | {self.spec.title}", head=head, body=body), kind=kind,
                             status=status)  # fmt: skip

    def _meetings_list(self) -> list[Meeting]:
        return meetings(self.items)

    def _meeting_named(self, slug: str) -> Meeting | None:
        return next((m for m in self._meetings_list() if m.slug == slug), None)

    def _home(self, request: Request) -> Response:
        latest = self._meetings_list()[0]
        content = (
            f"<h1>{esc(self.spec.title)}</h1><p>{esc(self.spec.tagline)}.</p>"
            f'<section><h2>Latest meeting</h2><p><a href="{latest.path}">{esc(latest.name)}</a>, '
            f"{esc(latest.city)}, {latest.dates}</p></section>"
            "<section><h2>Proceedings</h2><p>Papers from our meetings are published online in the "
            '<a href="/proceedings">Proceedings of the Nordwyn Meetings</a> after peer review.</p></section>'
        )
        return self.page(title="Home", content=content, kind="home")

    def _meetings(self, request: Request) -> Response:
        rows = "".join(
            f'<li><a href="{m.path}">{esc(m.name)}</a> — {esc(m.city)}, {m.dates}</li>' for m in self._meetings_list()
        )
        return self.page(title="Meetings", content=f"<h1>Past and future meetings</h1><ul>{rows}</ul>",
                         kind="meetings")  # fmt: skip

    def _meeting(self, request: Request, slug: str) -> Response:
        meeting = self._meeting_named(slug)
        if meeting is None:
            return self.not_found("No such meeting.")
        sessions = programme(meeting, self.items, self._meetings_list())
        days = ""
        for day in (1, 2, 3):
            rows = "".join(
                f'<li><a href="{meeting.path}/sessions/{code}">Session {code}: {esc(session_name(code, slots))}</a>'
                f" ({len(slots)} presentation{'s' if len(slots) > 1 else ''})</li>"
                for code, slots in sorted(sessions.items())
                if code.startswith(str(day))
            )
            when = long_date((meeting.start + timedelta(days=day - 1)).isoformat())
            days += f"<h2>Day {day}: {when}</h2><ul>{rows}</ul>"
        content = f"<h1>{esc(meeting.name)}</h1><p>{esc(meeting.city)}, {meeting.dates}</p><h2>Programme</h2>{days}"
        return self.page(title=meeting.name, content=content, kind="meeting")

    def _session(self, request: Request, slug: str, code: str) -> Response:
        meeting = self._meeting_named(slug)
        slots = programme(meeting, self.items, self._meetings_list()).get(code) if meeting else None
        if meeting is None or slots is None:
            return self.not_found("No such session.")
        rows = "".join(
            f'<li class="talk"><span class="time">{s.time}</span> <b>{s.code}.</b> '
            + (f'<a href="{attr(s.item.path)}">{esc(s.title)}</a>' if s.item
               else f'<a href="{meeting.path}/abstracts/{s.code}">{esc(s.title)}</a>')
            + f' <span class="presenters">{esc(s.presenters)}</span>'
            + (' <span class="badge">Proceedings paper</span>' if s.item else "")
            + f' <a class="itinerary" href="{meeting.path}/itinerary/add?talk={s.code}">Add to my itinerary</a></li>'
            for s in slots
        )  # fmt: skip
        content = (
            f'<p class="crumbs"><a href="/meetings">Meetings</a> › <a href="{meeting.path}">{esc(meeting.name)}</a>'
            f"</p><h1>Session {code}: {esc(session_name(code, slots))}</h1><ol>{rows}</ol>"
        )
        return self.page(title=f"Session {code}", content=content, kind="session")

    def _abstract(self, request: Request, slug: str, code: str) -> Response:
        meeting = self._meeting_named(slug)
        sessions = programme(meeting, self.items, self._meetings_list()) if meeting else {}
        slot = next((s for slots in sessions.values() for s in slots if s.code == code and s.item is None), None)
        if meeting is None or slot is None:
            return self.not_found("No such abstract.")
        content = (
            f'<p class="crumbs"><a href="{meeting.path}">{esc(meeting.name)}</a></p><p class="kind">{slot.kind}</p>'
            f"<h1>{esc(slot.title)}</h1><p>{esc(slot.presenters)}</p><p>{esc(slot.abstract)}</p>"
            "<p><em>No proceedings paper was submitted for this presentation.</em></p>"
        )
        return self.page(title=slot.title, content=content, kind="abstract")

    def _volumes(self, request: Request) -> Response:
        years = sorted({i.year for i in self.items}, reverse=True)
        rows = "".join(
            f'<li><a href="/proceedings/volume/{_volume(y)}">Volume {_volume(y)} ({y})</a></li>' for y in years
        )
        content = f"<h1>Proceedings of the Nordwyn Meetings</h1><p>Browse by volume:</p><ul>{rows}</ul>"
        return self.page(title="Proceedings", content=content, kind="volumes")

    def _volume_page(self, request: Request, number: str) -> Response:
        year = int(number) + 1974
        papers = [i for i in self.items if i.year == year]
        if not papers:
            return self.not_found("No such volume.")
        shown, pager = paged(request, papers, PER_PAGE, lambda n: f"/proceedings/volume/{number}?page={n}")
        rows = "".join(
            f'<li><a href="{attr(i.path)}">{esc(i.title)}</a><br><span class="authors">{esc(", ".join(i.authors))}'
            f"</span><br>Published online: {long_date(i.date)}</li>"
            for i in shown
        )
        content = f"<h1>Volume {number} ({year})</h1><p>{len(papers)} papers</p><ol>{rows}</ol>{pager}"
        return self.page(title=f"Volume {number}", content=content, kind="volume")

    def _paper(self, request: Request, key: str) -> Response:
        item = self.item_at(request.path)
        if item is None:
            return self.not_found("No such paper.")
        every = self._meetings_list()
        meeting = meeting_of(item, every)
        code = next(
            c for c, slots in programme(meeting, self.items, every).items() if any(s.item == item for s in slots)
        )
        head = ""
        if int(key[-4:]) % 2 == 0:
            head = "\n".join(
                [meta_name("citation_title", item.title)]
                + [meta_name("citation_author", a) for a in item.authors]
                + [meta_name("citation_publication_date", item.date.replace("-", "/")),
                   meta_name("citation_journal_title", "Proceedings of the Nordwyn Meetings"),
                   meta_name("citation_volume", str(_volume(item.year))),
                   meta_name("citation_pdf_url", self.links.absolute(item.pdf_path))]
            )  # fmt: skip
        names = ", ".join(item.authors[:-1]) + (", and " if len(item.authors) > 2 else " and ") + item.authors[-1]
        content = (
            f'<p class="crumbs"><a href="/proceedings">Proceedings</a> › <a href="/proceedings/volume/'
            f'{_volume(item.year)}">Volume {_volume(item.year)}</a></p><h1>{esc(item.title)}</h1>'
            f'<p class="authors">{esc(names)}</p>'
            f'<p class="presented">Presented at the <a href="{meeting.path}">{esc(meeting.name)}</a>, '
            f'{esc(meeting.city)}, {meeting.dates}; session <a href="{meeting.path}/sessions/{code}">{code}</a></p>'
            f'<p class="published">Published Online: {long_date(item.date)}</p>'
            f"<h2>Abstract</h2><p>{esc(item.abstract)}</p>"
            f'<p><a href="{attr(item.pdf_path)}">PDF</a></p>'
        )
        return self.page(title=item.title, content=content, kind="paper", head=head)

    def _file(self, request: Request, key: str) -> Response:
        item = self.item_at(f"/proceedings/{key}")
        return self.not_found() if item is None else self.pdf(item)

    def _search(self, request: Request) -> Response:
        query = request.param("q")
        found = search_items(self.items, query) if query.strip() else []
        rows = "".join(
            f'<li><a href="{attr(i.path)}">{esc(i.title)}</a> — {esc(", ".join(i.authors))}, Vol. {_volume(i.year)}'
            "</li>"
            for i in found[:20]
        )
        content = f"<h1>Search results for “{esc(query)}”</h1><p>{len(found)} papers</p><ul>{rows}</ul>"
        return self.page(title="Search", content=content, kind="search")
