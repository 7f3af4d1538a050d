"""HELD OUT, fresh (tenth batch): the Indico of the Ostrava Institute of Edge Computing, an event platform built as
Indico instances are (see `fresh_heldout10.py`; do not read or tune anything to it). A category tree leads to a
seminar series, a workshop category and group meetings behind a login. The seminar category lists its events by
month, one year at a time ("Show 2025"); a seminar is an event of one talk: its date written "Tuesday 12 March 2024,
16:00 → 17:00", the room, the speaker, a description (the paper's abstract, the co-authors named in its last line),
the slides and the paper as attachments. Reading groups and welcome events sit among the talks. Each year's workshop
is a conference-type event: a timetable by day and session, a contribution list filtered by track whose entries are
keynotes, tutorials, panels and breaks (not works), a book of abstracts, registration and venue pages. Calendar
exports, the login and user pages are forbidden by robots.txt.
"""

from __future__ import annotations

import re
import zlib
from datetime import date
from typing import ClassVar

from research_crawler.eval.testbed.decoys import DecoyKind
from research_crawler.eval.testbed.markup import MONTHS, attr, document, esc, meta_property
from research_crawler.eval.testbed.models import Item
from research_crawler.eval.testbed.pdf import tiny_pdf
from research_crawler.eval.testbed.site_app import Request, Response, Route, SiteApp

__all__ = ["FILLERS", "SEMINARS", "WORKSHOP_PROGRAMME", "Fresh10EventsSite", "indico_day", "workshops"]

SEMINARS, WORKSHOPS, MEETINGS = 12, 13, 14
_WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
_AFFILIATIONS = ("VSB Technical University of Ostrava", "Brno University of Technology", "TU Delft", "EPFL",
                 "University of Cambridge", "Samsung AI Center", "Charles University")  # fmt: skip
#: Seminar-category events that are not talks about a paper: (day of the year's listing, title).
FILLERS = (("01-20", "Welcome seminar for new doctoral students"), ("05-05", "Reading group: federated "
           "optimisation, chapter 3"), ("09-15", "Institute colloquium: the year ahead"))  # fmt: skip
#: A workshop's contributions, none of them a paper: (day, start, session, track, type, title).
WORKSHOP_PROGRAMME = (
    (1, "09:00", "Opening", 0, "Opening", "Welcome and opening remarks"),
    (1, "09:15", "Opening", 1, "Keynote", "Keynote: ten years of learning where the data lives"),
    (1, "10:30", "Breaks", 0, "Break", "Coffee break"),
    (1, "11:00", "Tutorials", 2, "Tutorial", "Tutorial: running a first training round on a phone fleet"),
    (1, "12:30", "Breaks", 0, "Break", "Lunch"),
    (2, "09:00", "Panels", 1, "Panel", "Panel: who owns the model trained on my phone?"),
    (2, "10:30", "Breaks", 0, "Break", "Coffee break"),
    (2, "11:00", "Posters", 2, "Poster session", "Poster session and demos"),
    (2, "12:30", "Opening", 0, "Closing", "Closing and best poster award"),
)
_TRACKS = ("General", "Keynotes and panels", "Hands-on")


def indico_day(day: date) -> str:
    """A date as Indico's event header writes it: 'Tuesday 12 March 2024'."""
    return f"{_WEEKDAYS[day.weekday()]} {day.day} {MONTHS[day.month - 1]} {day.year}"


def workshops(items: list[Item]) -> dict[int, date]:
    """The workshop of each year the series ran (event id → its first day): mid-June of every year a talk was given."""
    return {7000 + year: date(year, 6, 10 + year % 7) for year in sorted({i.year for i in items})}


class Fresh10EventsSite(SiteApp):
    """An Indico: category tree, seminars by month and year, talk events, workshops with timetables."""

    decoy_paths: ClassVar[dict[str, DecoyKind]] = {"/contact": "contact", "/privacy": "privacy"}

    def routes(self) -> list[Route]:
        self.by_id = {i.key: i for i in self.items}
        self.workshops = workshops(self.items)
        return [
            (re.compile(r"/"), self._home),
            (re.compile(r"/category/(?P<cid>\d+)/"), self._category),
            (re.compile(r"/event/(?P<eid>\d+)/"), self._event),
            (re.compile(r"/event/(?P<eid>\d+)/attachments/\d+/\d+/(?P<name>paper|slides)\.pdf"), self._attachment),
            (re.compile(r"/event/(?P<eid>\d+)/event\.ics"), self._ics),
            (re.compile(r"/event/(?P<eid>\d+)/timetable/"), self._timetable),
            (re.compile(r"/event/(?P<eid>\d+)/contributions/"), self._contributions),
            (re.compile(r"/event/(?P<eid>\d+)/contributions/(?P<n>\d+)/"), self._contribution),
            (re.compile(r"/event/(?P<eid>\d+)/book-of-abstracts\.pdf"), self._book),
            (re.compile(r"/event/(?P<eid>\d+)/registrations/"), self._registration),
            (re.compile(r"/event/(?P<eid>\d+)/page/\d+-venue-and-travel"), self._venue),
            (re.compile(r"/login/"), self._login),
            (re.compile(r"/user/.*"), self._login),
        ]

    def robots_txt(self) -> str:
        return "User-agent: *\nDisallow: /login/\nDisallow: /user/\nDisallow: /event/*/event.ics\n"

    def sample_paths(self) -> dict[str, str]:
        wid = next(iter(self.workshops))
        return {"home": "/", "seminars": f"/category/{SEMINARS}/", "talk": self.items[0].path,
                "workshops": f"/category/{WORKSHOPS}/", "workshop": f"/event/{wid}/",
                "timetable": f"/event/{wid}/timetable/", "contributions": f"/event/{wid}/contributions/"}  # fmt: skip

    def page(self, *, title: str, content: str, kind: str, status: int = 200, head: str = "") -> Response:
        body = (
            '<div class="header"><a class="logo" href="/">indico</a><div class="user-area"><a href="/login/">'
            'Login</a></div></div>\n<div class="page-content">'
            f"{content}</div>\n"
            '<footer class="footer">Powered by Indico v3.3 · <a href="/contact">Help</a> · <a href="/privacy">'
            "Privacy</a></footer>"
        )
        html = document(title=title, head=head, body=body, body_class="indico")
        return Response.html(html, kind=kind, status=status)

    # ------------------------------------------------------------------ categories

    def _home(self, request: Request) -> Response:
        newest = self.items[:3]
        seminars = len(self.items) + len(FILLERS) * len({i.year for i in self.items})
        content = (
            '<h1>Ostrava Institute of Edge Computing</h1><ul class="category-list">'
            f'<li><a href="/category/{SEMINARS}/">Edge Learning Seminars</a> <span>{seminars} events</span>'
            f'</li><li><a href="/category/{WORKSHOPS}/">Workshops</a> <span>{len(self.workshops)} events'
            f'</span></li><li><a href="/category/{MEETINGS}/">Group meetings</a> <span class="protected">protected'
            "</span></li></ul><h2>Recent events</h2><ul>"
            + "".join(
                f'<li><a href="{i.path}">{esc(i.title)}</a> <span>{date.fromisoformat(i.date):%d %b %Y}</span></li>'
                for i in newest
            )
            + "</ul>"
        )
        return self.page(title="Indico", content=content, kind="home")

    def _category(self, request: Request, cid: str) -> Response:
        if int(cid) == WORKSHOPS:
            rows = "".join(
                f'<li><span class="date">{day:%d %b %Y}</span> <a href="/event/{wid}/">FLEdge Days {day.year}</a></li>'
                for wid, day in sorted(self.workshops.items(), reverse=True)
            )
            return self.page(title="Workshops", content=f"<h1>Workshops</h1><ul>{rows}</ul>", kind="category")
        if int(cid) == MEETINGS:
            content = '<h1>Group meetings</h1><p>This category is protected. <a href="/login/?next=/category/14/">'
            return self.page(title="Group meetings", content=content + "Log in</a> to see its events.</p>",
                             kind="login", status=403)  # fmt: skip
        if int(cid) != SEMINARS:
            return self.not_found()
        years = sorted({i.year for i in self.items}, reverse=True)
        year = request.int_param("year", years[0], minimum=years[-1], maximum=years[0])
        events = [(date.fromisoformat(i.date), i.path, i.title) for i in self.items if i.year == year]
        events += [
            (date.fromisoformat(f"{year}-{day}"), f"/event/{5000 + 10 * year + n}/", title)
            for n, (day, title) in enumerate(FILLERS)
        ]
        events.sort(reverse=True)
        blocks: list[str] = []
        for index, (day, path, title) in enumerate(events):
            if index == 0 or events[index - 1][0].month != day.month:
                blocks.append(f'<h3 class="month">{MONTHS[day.month - 1]} {day.year}</h3>')
            blocks.append(f'<div class="event-row"><span class="date">{day:%d %b}</span> <a href="{attr(path)}">'
                          f"{esc(title)}</a></div>")  # fmt: skip
        others = " ".join(f'<a href="/category/{SEMINARS}/?year={y}">Show {y}</a>' for y in years if y != year)
        content = (
            f'<h1>Edge Learning Seminars</h1><p class="category-description">Talks on learning at the edge, usually '
            f'at 16:00 in room B-204.</p><div class="year-nav">{others}</div>'
            f'<div class="event-list">{"".join(blocks)}</div>'
        )
        return self.page(title="Edge Learning Seminars", content=content, kind="category")

    # ------------------------------------------------------------------ events

    def _event(self, request: Request, eid: str) -> Response:
        if int(eid) in self.workshops:
            return self._workshop(int(eid))
        item = self.by_id.get(eid)
        if item is None:
            return self._filler(int(eid))
        day = date.fromisoformat(item.date)
        code = zlib.crc32(item.key.encode())
        speaker, others = item.authors[0], item.authors[1:]
        joint = ""
        if others:
            joint = f" This is joint work with {', '.join(others[:-1]) + ' and ' if others[:-1] else ''}{others[-1]}."
        folder = item.pdf_path.rsplit("/", 1)[0]
        head = meta_property("og:title", item.title) + meta_property("og:type", "website")
        content = (
            f'<div class="event-header"><h1 itemprop="name">{esc(item.title)}</h1><div class="event-date">'
            f'{indico_day(day)}, 16:00 → 17:00 <span class="tz">Europe/Prague</span></div><div class="location">'
            f'Room B-204 (Building B)</div></div><div class="event-details"><dl><dt>Speaker</dt><dd>'
            f'<span class="speaker">{esc(speaker)}</span> ({_AFFILIATIONS[code % len(_AFFILIATIONS)]})</dd></dl>'
            f'<h2>Description</h2><div class="description"><p>{esc(item.abstract)}{esc(joint)}</p></div>'
            f'<h2>Material</h2><ul class="attachments"><li><a href="{attr(folder)}/slides.pdf">slides.pdf</a></li>'
            f'<li><a href="{attr(item.pdf_path)}">paper.pdf</a></li></ul><p class="actions">'
            f'<a href="/event/{eid}/event.ics">Add to calendar</a></p></div>'
        )
        return self.page(title=item.title, content=content, kind="talk", head=head)

    def _filler(self, eid: str | int) -> Response:
        code = int(eid) - 5000
        year, n = divmod(code, 10)
        if not 0 <= n < len(FILLERS) or year not in {i.year for i in self.items}:
            return self.not_found()
        day = date.fromisoformat(f"{year}-{FILLERS[n][0]}")
        content = (
            f'<div class="event-header"><h1>{esc(FILLERS[n][1])}</h1><div class="event-date">{indico_day(day)}, '
            '16:00 → 17:30</div><div class="location">Room B-204 (Building B)</div></div><div class="description">'
            "<p>All members of the institute are welcome. Coffee and cake after the event.</p></div>"
        )
        return self.page(title=FILLERS[n][1], content=content, kind="filler")

    def _attachment(self, request: Request, eid: str, name: str) -> Response:
        item = self.by_id.get(eid)
        if item is None or request.path.rsplit("/", 1)[0] != item.pdf_path.rsplit("/", 1)[0]:
            return self.not_found()
        if name == "paper":
            return self.pdf(item)
        lines = [item.authors[0], "Edge Learning Seminar", "", "Outline", "Motivation", "Method", "Results"]
        return Response(200, tiny_pdf(item.title, lines), "application/pdf", "slides")

    def _ics(self, request: Request, eid: str) -> Response:
        item = self.by_id.get(eid)
        if item is None:
            return self.not_found()
        text = f"BEGIN:VCALENDAR\nBEGIN:VEVENT\nSUMMARY:{item.title}\nDTSTART:{item.date.replace('-', '')}T150000Z\n"
        return Response.text(text + "END:VEVENT\nEND:VCALENDAR\n", kind="ics", content_type="text/calendar")

    # ------------------------------------------------------------------ workshops

    def _menu(self, wid: int) -> str:
        return (
            f'<ul class="conf-menu"><li><a href="/event/{wid}/">Overview</a></li><li><a href="/event/{wid}/'
            f'timetable/">Timetable</a></li><li><a href="/event/{wid}/contributions/">Contribution List</a></li>'
            f'<li><a href="/event/{wid}/book-of-abstracts.pdf">Book of Abstracts</a></li><li><a href="/event/{wid}'
            f'/registrations/">Registration</a></li><li><a href="/event/{wid}/page/2-venue-and-travel">Venue and '
            "travel</a></li></ul>"
        )

    def _workshop_page(self, wid: int, title: str, content: str, kind: str) -> Response:
        day = self.workshops[wid]
        header = (
            f'<div class="conf-title"><h1>FLEdge Days {day.year}</h1><div class="conf-date">{day.day}–{day.day + 1} '
            f'{MONTHS[day.month - 1]} {day.year}</div><div class="location">Aula, VSB Technical University of Ostrava'
            "</div></div>"
        )
        return self.page(title=f"{title} · FLEdge Days {day.year}", content=header + self._menu(wid) + content,
                         kind=kind)  # fmt: skip

    def _workshop(self, wid: int) -> Response:
        content = (
            '<div class="conf-description"><p>Two days of keynotes, tutorials and posters on learning on '
            "devices at the edge of the network. The seminar series continues through the year.</p>"
            f'<p>See the <a href="/event/{wid}/timetable/">timetable</a>.</p></div>'
        )
        return self._workshop_page(wid, "Overview", content, "workshop")

    def _timetable(self, request: Request, eid: str) -> Response:
        wid = int(eid)
        if wid not in self.workshops:
            return self.not_found()
        start = self.workshops[wid]
        blocks = []
        for number in (1, 2):
            day = start.replace(day=start.day + number - 1)
            rows = "".join(
                f'<tr><td class="time">{time}</td><td class="session">{esc(session)}</td><td><a href="/event/{wid}/'
                f'contributions/{n + 1}/">{esc(title)}</a></td></tr>'
                for n, (d, time, session, _, _, title) in enumerate(WORKSHOP_PROGRAMME)
                if d == number
            )
            blocks.append(f'<h2 id="{day:%Y%m%d}">{indico_day(day)}</h2><table class="timetable">{rows}</table>')
        return self._workshop_page(wid, "Timetable", "".join(blocks), "timetable")

    def _contributions(self, request: Request, eid: str) -> Response:
        wid = int(eid)
        if wid not in self.workshops:
            return self.not_found()
        track = request.int_param("track", -1, minimum=0, maximum=len(_TRACKS) - 1)
        filters = " ".join(
            f'<a href="/event/{wid}/contributions/?track={k}">{esc(name)}</a>' for k, name in enumerate(_TRACKS)
        )
        rows = "".join(
            f'<li class="contribution"><span class="type">{esc(kind)}</span> <a href="/event/{wid}/contributions/'
            f'{n + 1}/">{esc(title)}</a> <span class="track">{esc(_TRACKS[t])}</span></li>'
            for n, (_, _, _, t, kind, title) in enumerate(WORKSHOP_PROGRAMME)
            if track in (-1, t)
        )
        content = f'<div class="filters">Filter by track: {filters}</div><ul class="contribution-list">{rows}</ul>'
        return self._workshop_page(wid, "Contribution List", content, "contributions")

    def _contribution(self, request: Request, eid: str, n: str) -> Response:
        wid, index = int(eid), int(n) - 1
        if wid not in self.workshops or not 0 <= index < len(WORKSHOP_PROGRAMME):
            return self.not_found()
        day, time, session, track, kind, title = WORKSHOP_PROGRAMME[index]
        content = (
            f'<div class="contribution"><h2>{esc(title)}</h2><dl><dt>Type</dt><dd>{esc(kind)}</dd><dt>Track</dt>'
            f"<dd>{esc(_TRACKS[track])}</dd><dt>Session</dt><dd>{esc(session)}</dd><dt>Time</dt><dd>Day {day}, "
            f"{time}</dd></dl></div>"
        )
        return self._workshop_page(wid, title, content, "contribution")

    def _book(self, request: Request, eid: str) -> Response:
        wid = int(eid)
        if wid not in self.workshops:
            return self.not_found()
        lines = [f"{kind}: {title}" for _, _, _, _, kind, title in WORKSHOP_PROGRAMME]
        return Response(200, tiny_pdf(f"FLEdge Days {self.workshops[wid].year}: Book of Abstracts", lines),
                        "application/pdf", "book")  # fmt: skip

    def _registration(self, request: Request, eid: str) -> Response:
        wid = int(eid)
        if wid not in self.workshops:
            return self.not_found()
        content = (
            '<form method="post" action="register"><label>First name <input name="first_name"></label><label>Last '
            'name <input name="last_name"></label><label>Email <input name="email"></label><button>Register'
            "</button></form><p>Registration is free but places are limited.</p>"
        )
        return self._workshop_page(wid, "Registration", content, "registration")

    def _venue(self, request: Request, eid: str) -> Response:
        wid = int(eid)
        if wid not in self.workshops:
            return self.not_found()
        content = "<h2>Venue and travel</h2><p>The Aula is a ten-minute tram ride from Ostrava main station.</p>"
        return self._workshop_page(wid, "Venue and travel", content, "venue")

    def _login(self, request: Request) -> Response:
        content = '<form method="post" action="/login/"><input name="username"><input name="password" type="password">'
        return self.page(title="Log in", content=content + "<button>Log in</button></form>", kind="login")
