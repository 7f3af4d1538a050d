"""HELD OUT, fresh (eighth batch): SGU on OpenForum, built as OpenReview-like venues are (see `fresh_heldout8.py`;
do not read or tune anything to it). The home page lists the workshop's yearly venues; a venue's group page has
tabs (accepted oral, accepted poster, rejected, withdrawn) chosen by a query parameter, five notes a tab page; each
submission has a forum page with its abstract, official reviews, comments, the authors' responses and the decision,
dated 'Published: 12 Mar 2024, Last Modified: 02 Apr 2024'. Only accepted submissions are published works: the
rejected and withdrawn ones answer something else. Revisions, profiles and the sign-in are forbidden by robots.txt.
"""

from __future__ import annotations

import re
import zlib
from datetime import date, timedelta
from typing import ClassVar
from urllib.parse import urlencode

from research_crawler.eval.testbed.decoys import DecoyKind
from research_crawler.eval.testbed.markup import attr, document, esc, meta_name
from research_crawler.eval.testbed.models import Item
from research_crawler.eval.testbed.site_app import Request, Response, Route, SiteApp

__all__ = ["PER_PAGE", "TABS", "Fresh8ReviewSite", "decision", "forum_date", "group_id", "tab_of"]

PER_PAGE = 5
#: The group page's tabs: (query value, label).
TABS = (("accept-oral", "Accept (Oral)"), ("accept-poster", "Accept (Poster)"), ("reject", "Reject"),
        ("withdrawn", "Withdrawn Submissions"))  # fmt: skip
_MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")
_RATINGS = ("8: accept, good paper", "6: marginally above the acceptance threshold",
            "7: good paper, accept", "5: marginally below the acceptance threshold")  # fmt: skip


def forum_date(day: date) -> str:
    """A date as the forum writes it: '02 Apr 2024'."""
    return f"{day.day:02d} {_MONTHS[day.month - 1]} {day.year}"


def group_id(year: int) -> str:
    return f"SGU/{year}/Workshop"


def _hash(text: str) -> int:
    return zlib.crc32(text.encode())


def tab_of(item: Item, items: list[Item]) -> str:
    """The tab a submission of `items` sits on: the near misses were rejected or withdrawn, in turn by key; one
    accepted paper in four is oral."""
    if item.topic.endswith("-other"):
        turn = sorted(i.key for i in items if i.topic.endswith("-other")).index(item.key)
        return "reject" if turn % 2 == 0 else "withdrawn"
    return "accept-oral" if _hash(item.key) % 4 == 0 else "accept-poster"


def decision(item: Item, items: list[Item]) -> str:
    return {"accept-oral": "Accept (Oral)", "accept-poster": "Accept (Poster)", "reject": "Reject",
            "withdrawn": "Withdrawn"}[tab_of(item, items)]  # fmt: skip


def _number(item: Item) -> int:
    return 10 + _hash(item.key) % 290


class Fresh8ReviewSite(SiteApp):
    """An open-review venue: yearly group pages with tabs, forum pages with reviews and a decision."""

    decoy_paths: ClassVar[dict[str, DecoyKind]] = {"/about": "about", "/legal/privacy": "privacy",
                                                   "/contact": "contact"}  # fmt: skip

    def routes(self) -> list[Route]:
        return [
            (re.compile(r"/"), self._home),
            (re.compile(r"/group"), self._group),
            (re.compile(r"/forum/(?P<key>[A-Za-z0-9]{10})"), self._forum),
            (re.compile(r"/pdf/(?P<key>[A-Za-z0-9]{10})"), self._file),
            (re.compile(r"/revisions/(?P<key>[A-Za-z0-9]{10})"), self._revisions),
            (re.compile(r"/profile"), self._profile),
        ]

    def robots_txt(self) -> str:
        return "User-agent: *\nDisallow: /revisions/\nDisallow: /profile\nDisallow: /login\nDisallow: /api/\n"

    def sample_paths(self) -> dict[str, str]:
        year = self.items[0].year
        return {"home": "/", "group": f"/group?{urlencode({'id': group_id(year), 'tab': 'reject'})}",
                "forum": self.items[0].path}  # fmt: skip

    def page(self, *, title: str, content: str, kind: str, status: int = 200, head: str = "") -> Response:
        body = (
            '<nav class="navbar"><a class="navbar-brand" href="/">OpenForum</a> <form action="/api/search" '
            'method="get"><input name="term" placeholder="Search OpenForum"></form> <a href="/login">Login</a></nav>'
            f'\n<div id="content" class="container">{content}</div>\n<footer><a href="/about">About OpenForum</a> · '
            '<a href="/legal/privacy">Privacy Policy</a> · <a href="/contact">Contact</a> · OpenForum is a '
            "non-profit platform for open peer review.</footer>"
        )
        return Response.html(document(title=f"{title} | OpenForum", head=head, body=body), kind=kind, status=status)

    def _years(self) -> list[int]:
        return sorted({i.year for i in self.items}, reverse=True)

    def _home(self, request: Request) -> Response:
        years = self._years()
        rows = "".join(
            f'<li><a href="/group?{attr(urlencode({"id": group_id(y)}))}">SGU {y} Workshop</a>'
            f"{' (active)' if y == years[0] else ''}</li>"
            for y in years
        )
        content = (
            "<h1>OpenForum</h1><p>Open peer review for the Workshop on Sign and Gesture Understanding (SGU) and "
            f"other venues.</p><h2>Active and past venues</h2><ul>{rows}</ul>"
        )
        return self.page(title="OpenForum", content=content, kind="home")

    def _group(self, request: Request) -> Response:
        match = re.fullmatch(r"SGU/(\d{4})/Workshop", request.param("id"))
        if match is None or int(match.group(1)) not in self._years():
            return self.not_found("The group you requested could not be found.")
        year = int(match.group(1))
        tab = request.param("tab", "accept-oral")
        if tab not in {t for t, _ in TABS}:
            tab = "accept-oral"
        notes = sorted((i for i in self.items if i.year == year and tab_of(i, self.items) == tab), key=_number)
        pages = max(1, -(-len(notes) // PER_PAGE))
        number = request.int_param("page", 1, minimum=1, maximum=pages)
        shown = notes[(number - 1) * PER_PAGE : number * PER_PAGE]

        def link(**change: str) -> str:
            return "/group?" + urlencode({"id": group_id(year), "tab": tab} | change)

        tabs = "".join(
            f'<li class="{"active" if value == tab else ""}"><a href="{attr(link(tab=value))}">{esc(label)}</a></li>'
            for value, label in TABS
        )
        rows = "".join(
            f'<li class="note"><h4><a href="{attr(i.path)}">{esc(i.title)}</a></h4><div class="note-authors">'
            f'{esc(", ".join(i.authors))}</div><div class="note-meta">Submission{_number(i)} · '
            f"{forum_date(self._submitted(i))}</div></li>"
            for i in shown
        )
        pager = " ".join(
            f"<span>{n}</span>" if n == number else f'<a href="{attr(link(page=str(n)))}">{n}</a>'
            for n in range(1, pages + 1)
        )
        content = (
            f"<h1>SGU {year} Workshop</h1><h3>Workshop on Sign and Gesture Understanding</h3>"
            f"<p>Held with a major vision conference, {year}. Submission deadline: {forum_date(date(year, 2, 1))}</p>"
            f'<ul class="nav nav-tabs">{tabs}</ul><ul class="list-unstyled submissions-list">'
            f'{rows or "<li>No papers to display at this time.</li>"}</ul><nav class="pager">{pager}</nav>'
        )
        return self.page(title=f"SGU {year} Workshop", content=content, kind="group")

    def _submitted(self, item: Item) -> date:
        return date.fromisoformat(item.date) - timedelta(days=35 + _hash(item.title) % 25)

    def _forum(self, request: Request, key: str) -> Response:
        item = self.item_at(request.path)
        if item is None:
            return self.not_found("The note you requested could not be found.")
        day = date.fromisoformat(item.date)
        submitted = self._submitted(item)
        modified = day + timedelta(days=3 + _hash(item.key) % 20)
        accepted = tab_of(item, self.items).startswith("accept")
        head = "\n".join(
            [meta_name("citation_title", item.title)]
            + [meta_name("citation_author", a) for a in item.authors]
            + [meta_name("citation_online_date", submitted.strftime("%Y/%m/%d"))]
            + ([meta_name("citation_publication_date", day.strftime("%Y/%m/%d")),
                meta_name("citation_conference_title", "Workshop on Sign and Gesture Understanding"),
                meta_name("citation_pdf_url", self.links.absolute(item.pdf_path))] if accepted else [])
        )  # fmt: skip
        authors = ", ".join(
            f'<a href="/profile?{attr(urlencode({"id": "~" + a.replace(" ", "_") + "1"}))}">{esc(a)}</a>'
            for a in item.authors
        )
        tab = tab_of(item, self.items)
        venue = f"SGU {item.year} {'Oral' if tab == 'accept-oral' else 'Poster'}" if accepted else (
            f"Submitted to SGU {item.year}")  # fmt: skip
        when = (f"Published: {forum_date(day)}, Last Modified: {forum_date(modified)}" if accepted else
                f"{'Withdrawn' if tab == 'withdrawn' else 'Submitted'}: {forum_date(submitted)}")  # fmt: skip
        replies = ""
        if tab != "withdrawn":
            replies += (
                '<div class="note reply"><h4>Paper Decision</h4>'
                f'<span class="date">{forum_date(day - timedelta(days=9))}</span><p><strong>Decision:</strong> '
                f"{decision(item, self.items)}</p><p>The reviewers agree on the clarity of "
                "the submission; the discussion resolved the main concerns.</p></div>"
            )
            for n in range(3):
                reviewer = f"{_hash(item.key + str(n)):08x}"[:4]
                replies += (
                    f'<div class="note reply"><h4>Official Review of Submission{_number(item)} by Reviewer '
                    f'{reviewer}</h4><span class="date">{forum_date(submitted + timedelta(days=12 + n))}</span>'
                    f"<p><strong>Summary:</strong> The paper addresses the stated problem with a clear setup.</p>"
                    f"<p><strong>Rating:</strong> {_RATINGS[(n + _hash(item.key)) % len(_RATINGS)]}</p>"
                    "<p><strong>Confidence:</strong> 4: You are confident in your assessment</p></div>"
                )
            replies += (
                '<div class="note reply"><h4>Official Comment by Authors</h4><p>We thank the reviewers and have '
                "added the requested ablation in the revised version.</p></div>"
            )
        else:
            replies += (
                '<div class="note reply"><h4>Withdrawal by Authors</h4><p>We withdraw this submission to revise it '
                "for another venue.</p></div>"
            )
        content = (
            f'<div class="forum-container"><div class="note" id="note_{item.key}"><h2 class="citation_title">'
            f'{esc(item.title)}</h2><div class="forum-authors">{authors}</div><div class="date">{esc(when)}</div>'
            f'<div class="venue">{esc(venue)}</div><div class="meta_row"><a href="/revisions/{item.key}">'
            f'Revisions</a> · <a href="{attr(item.pdf_path)}">PDF</a></div>'
            f'<div class="note-content"><p><strong>Keywords:</strong> {esc(", ".join(item.keywords))}</p>'
            f"<p><strong>Abstract:</strong> {esc(item.abstract)}</p></div></div>"
            f'<div class="replies"><h3>Replies</h3>{replies}</div></div>'
        )
        return self.page(title=item.title, content=content, kind="forum", head=head)

    def _file(self, request: Request, key: str) -> Response:
        item = next((i for i in self.items if i.pdf_path == request.path), None)
        return self.not_found() if item is None else self.pdf(item)

    def _revisions(self, request: Request, key: str) -> Response:
        return self.page(title="Revisions", content="<h1>Revision history</h1><p>Sign in to compare revisions.</p>",
                         kind="revisions")  # fmt: skip

    def _profile(self, request: Request) -> Response:
        return self.page(title="Profile", content="<h1>Profile</h1><p>Sign in to view profiles.</p>", kind="profile")
