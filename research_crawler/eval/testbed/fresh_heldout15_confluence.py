"""HELD OUT, fresh (fifteenth batch): an engineering department's team wiki, built as Confluence Data Center builds
its pages (see `fresh_heldout15.py`; do not read or tune anything to it). The root redirects to the dashboard, which
lists the spaces and what was updated lately (by the day each page was last modified). A space's home and every
parent page show their children (the Children Display macro, alphabetical); the engineering space has a page per
team, each with a technical-reports page whose children are a page per year whose children are the reports, beside
meeting notes and how-to pages. A report is a page whose Page Properties table gives its number, authors (user
mentions), status and "Date issued" (a date lozenge, 15 Mar 2024), and whose byline names the page's creator (the
team's document controller, or an author) and when it was last modified ("Created by X, last modified by Y on Mar
20, 2024"); the report is its attached PDF; labels list pages too. Draft reports without a file sit among them; the
technical-reports page holds a Page Properties Report of its team's reports. The search, page history, exports and
the REST API are forbidden.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import date, timedelta
from typing import ClassVar

from research_crawler.eval.testbed.decoys import DecoyKind
from research_crawler.eval.testbed.fresh_heldout15 import SPACE_KEY, report_number
from research_crawler.eval.testbed.markup import MONTHS, attr, document, esc, url_slug
from research_crawler.eval.testbed.models import Item
from research_crawler.eval.testbed.site_app import Request, Response, Route, SiteApp

__all__ = ["Fresh15ConfluenceSite", "WikiPage", "byline_date", "lozenge", "modified", "wiki_pages"]

_HOME = "Asset Engineering Home"
_CONTROLLERS = {"Track Engineering": "Priya Natarajan", "Wind Operations": "Lars Henriksen"}
_DRAFTS = ("DRAFT Inspection interval review", "DRAFT Sensor procurement options")
_HOWTOS = ("How to request access to the sensor data lake", "How to file a technical report")
_MEETINGS = (date(2024, 2, 6), date(2025, 5, 13), date(2026, 9, 22))


def _hash(text: str) -> int:
    return sum(ord(c) * (n + 11) for n, c in enumerate(text))


def display_path(space: str, title: str) -> str:
    return f"/display/{space}/" + "+".join(re.findall(r"[A-Za-z0-9]+(?:-[A-Za-z0-9]+)*", title))


def byline_date(day: date) -> str:
    """A byline's date as Confluence writes it: 'Mar 20, 2024'."""
    return f"{MONTHS[day.month - 1][:3]} {day.day:02d}, {day.year}"


def lozenge(day: date) -> str:
    """A date macro's lozenge: '15 Mar 2024'."""
    shown = f"{day.day:02d} {MONTHS[day.month - 1][:3]} {day.year}"
    return f'<time datetime="{day.isoformat()}" class="date-past">{shown}</time>'


def modified(item: Item) -> date:
    """The day a report's page was last modified: days to months after it was issued."""
    return date.fromisoformat(item.date) + timedelta(days=3 + _hash(item.title) % 200)


@dataclass
class WikiPage:
    """A page of a space: a report (`item`), a parent page, meeting notes, a how-to or a draft."""

    id: int
    title: str
    space: str
    parent: int | None
    created: date
    creator: str
    item: Item | None = None
    status: str = ""
    text: str = ""
    labels: tuple[str, ...] = ()
    children: list[int] = field(default_factory=list)

    @property
    def path(self) -> str:
        return display_path(self.space, self.title)


def wiki_pages(items: list[Item]) -> dict[int, WikiPage]:
    """Every page of the two spaces, by id, children linked."""
    pages: dict[int, WikiPage] = {}
    serial = iter(range(39_000_000, 40_000_000, 131))

    def add(
        title: str,
        parent: int | None,
        *,
        creator: str,
        space: str = SPACE_KEY,
        created: date = date(2021, 9, 1),
        status: str = "",
        text: str = "",
        labels: tuple[str, ...] = (),
    ) -> WikiPage:
        made = WikiPage(next(serial), title, space, parent, created, creator, None, status, text, labels)
        pages[made.id] = made
        if parent is not None:
            pages[parent].children.append(made.id)
        return made

    home = add(_HOME, None, creator="Confluence Administrator", text="Welcome to the Asset Engineering space.")
    handbook = add("Team Handbook", None, space="HB", creator="Confluence Administrator", text="How we work.")
    add("Working from site offices", handbook.id, space="HB", creator="Confluence Administrator")
    for team, controller in _CONTROLLERS.items():
        section = add(team, home.id, creator=controller, text=f"The {team} team's pages.")
        reports = add(f"{team} Technical Reports", section.id, creator=controller, text="Our published reports.")
        mine = [i for i in items if i.category == team]
        years: dict[int, WikiPage] = {}
        for year in sorted({i.year for i in mine}):
            years[year] = add(f"{team} Reports {year}", reports.id, creator=controller, created=date(year, 1, 4))
        for item in mine:
            issued = date.fromisoformat(item.date)
            creator = controller if _hash(item.title) % 3 else item.authors[0]
            page = WikiPage(
                int(item.key),
                item.title,
                SPACE_KEY,
                years[item.year].id,
                issued - timedelta(days=12 + _hash(item.key) % 30),
                creator,
                item,
                "Final",
                item.abstract,
                ("technical-report", url_slug(team)),
            )
            pages[page.id] = page
            years[item.year].children.append(page.id)
        for n, title in enumerate(_DRAFTS):
            year = max(years)
            add(
                f"{title} ({team})",
                years[year].id,
                creator=controller,
                created=date(year, 2 + n, 10),
                status="Draft",
                text="Work in progress: do not cite.",
            )
        notes = add(f"{team} Meeting Notes", section.id, creator=controller)
        for day in _MEETINGS:
            add(
                f"{day.isoformat()} {team} meeting",
                notes.id,
                creator=controller,
                created=day,
                labels=("meeting-notes",),
                text="Attendees, actions and decisions.",
            )
        for title in _HOWTOS:
            add(f"{title} ({team})", section.id, creator=controller, created=date(2023, 3, 1), labels=("how-to",))
    return pages


class Fresh15ConfluenceSite(SiteApp):
    """Confluence: dashboard, spaces, page trees by children macros, report pages with properties and attachments."""

    decoy_paths: ClassVar[dict[str, DecoyKind]] = {"/display/HB/Privacy+Notice": "privacy"}

    def routes(self) -> list[Route]:
        self.pages = wiki_pages(self.items)
        self.by_display = {p.path: p for p in self.pages.values()}
        self.people = {url_slug(a).replace("-", ""): a for i in self.items for a in i.authors}
        self.people |= {url_slug(c).replace("-", ""): c for c in _CONTROLLERS.values()}
        return [
            (re.compile(r"/"), lambda request: Response.redirect("/dashboard.action", status=302)),
            (re.compile(r"/dashboard\.action"), self._dashboard),
            (re.compile(r"/display/(?P<space>[A-Z]+)/?"), self._space),
            (re.compile(r"/display/~(?P<user>[a-z]+)"), self._user),
            (re.compile(r"/display/[A-Z]+/[^/]+"), self._page),
            (re.compile(r"/label/(?P<space>[A-Z]+)/(?P<label>[a-z0-9-]+)"), self._label),
            (re.compile(r"/download/attachments/(?P<page>\d+)/[^/]+\.pdf"), self._attachment),
        ]

    def robots_txt(self) -> str:
        return (
            "User-agent: *\nDisallow: /pages/\nDisallow: /dosearchsite.action\nDisallow: /spaces/flyingpdf/\n"
            "Disallow: /rest/\nDisallow: /login.action\n"
        )

    def sample_paths(self) -> dict[str, str]:
        item = self.items[0]
        return {
            "dashboard": "/dashboard.action",
            "home": display_path(SPACE_KEY, _HOME),
            "report": item.path,
            "label": f"/label/{SPACE_KEY}/technical-report",
            "attachment": item.pdf_path,
        }

    def page(self, *, title: str, content: str, kind: str, status: int = 200, head: str = "") -> Response:
        body = (
            '<div id="page"><header id="header" role="banner"><nav class="aui-header"><a id="logo" href="/dashboard.'
            'action"><span>Rail and Wind Engineering</span></a><ul class="aui-nav"><li><a href="/spacedirectory/view.'
            'action" class="aui-nav-link">Spaces</a></li></ul><form id="quick-search" action="/dosearchsite.action" '
            'method="get"><input name="queryString" placeholder="Search" /></form><a class="login-link" href="/login.'
            f'action">Log in</a></nav></header><div id="main" class="aui-page-panel">{content}</div><footer id="footer"'
            '><p>Powered by Atlassian Confluence 8.5.4</p><a href="/display/HB/Privacy+Notice">Privacy Notice</a>'
            "</footer></div>"
        )
        html = document(title=f"{title} - Rail and Wind Engineering", head=head, body=body)
        return Response.html(html, kind=kind, status=status)

    def _user_link(self, name: str) -> str:
        user = url_slug(name).replace("-", "")
        return (
            f'<a class="confluence-userlink user-mention" data-username="{user}" href="/display/~{user}">'
            f"{esc(name)}</a>"
        )

    # ------------------------------------------------------------------ navigation

    def _dashboard(self, request: Request) -> Response:
        spaces = "".join(
            f'<li><a href="/display/{key}">{esc(name)}</a></li>'
            for key, name in ((SPACE_KEY, "Asset Engineering"), ("HB", "Team Handbook"))
        )
        recent = sorted(((modified(p.item), p) for p in self.pages.values() if p.item), key=lambda r: r[0])[::-1][:5]
        updates = "".join(
            f'<li><a href="{attr(p.path)}">{esc(p.title)}</a> <span class="update-item-date">updated '
            f"{byline_date(day)}</span></li>"
            for day, p in recent
        )
        content = (
            '<div class="dashboard"><h1>Welcome to Confluence</h1><section class="dashboard-spaces"><h2>Spaces</h2>'
            f'<ul>{spaces}</ul></section><section class="recently-updated"><h2>Recently updated</h2><ul>{updates}'
            "</ul></section></div>"
        )
        return self.page(title="Dashboard", content=content, kind="dashboard")

    def _space(self, request: Request, space: str) -> Response:
        home = next((p for p in self.pages.values() if p.space == space and p.parent is None), None)
        return self.not_found() if home is None else Response.redirect(home.path, status=302)

    def _user(self, request: Request, user: str) -> Response:
        name = self.people.get(user)
        if name is None:
            return self.not_found()
        return self.page(
            title=name, content=f'<div class="profile"><h1>{esc(name)}</h1><p>Engineer</p></div>', kind="user"
        )

    def _children(self, page: WikiPage) -> str:
        kids = sorted((self.pages[c] for c in page.children), key=lambda p: p.title.lower())
        rows = "".join(f'<li><a href="{attr(p.path)}">{esc(p.title)}</a></li>' for p in kids)
        return f'<ul class="childpages-macro">{rows}</ul>' if rows else ""

    def _breadcrumbs(self, page: WikiPage) -> str:
        chain: list[WikiPage] = []
        parent = page.parent
        while parent is not None:
            chain.insert(0, self.pages[parent])
            parent = self.pages[parent].parent
        crumbs = "".join(f'<li><a href="{attr(p.path)}">{esc(p.title)}</a></li>' for p in chain)
        return f'<ol id="breadcrumbs"><li><a href="/dashboard.action">Dashboard</a></li>{crumbs}</ol>'

    def _properties(self, page: WikiPage) -> str:
        item = page.item
        authors = ", ".join(self._user_link(a) for a in item.authors) if item else self._user_link(page.creator)
        rows = [("Report number", report_number(date.fromisoformat(item.date), item.title) if item else "TBC")]
        rows += [
            ("Authors", authors),
            ("Status", f'<span class="status-macro aui-lozenge">{page.status.upper()}</span>'),
        ]
        rows.append(("Date issued", lozenge(date.fromisoformat(item.date)) if item else "&nbsp;"))
        table = "".join(f'<tr><th class="confluenceTh">{k}</th><td class="confluenceTd">{v}</td></tr>' for k, v in rows)
        return (
            f'<div class="plugin-tabmeta-details"><table class="confluenceTable"><tbody>{table}</tbody></table></div>'
        )

    def _report_table(self, page: WikiPage) -> str:
        reports = [
            (report, report.item)
            for y in page.children
            for report in (self.pages[r] for r in self.pages[y].children)
            if report.item is not None
        ]
        rows = "".join(
            f'<tr><td><a href="{attr(r.path)}">{esc(r.title)}</a></td><td>'
            f"{report_number(date.fromisoformat(item.date), r.title)}"
            f"</td><td>{lozenge(date.fromisoformat(item.date))}</td></tr>"
            for r, item in sorted(reports, key=lambda pair: pair[0].title.lower())
        )
        return (
            '<div class="metadata-summary-macro"><table class="aui"><thead><tr><th>Title</th><th>Report number</th>'
            f"<th>Date issued</th></tr></thead><tbody>{rows}</tbody></table></div>"
        )

    def _page(self, request: Request) -> Response:
        page = self.by_display.get(request.path)
        if page is None:
            return self.not_found()
        item = page.item
        last = modified(item) if item else page.created + timedelta(days=_hash(page.title) % 40)
        editor = item.authors[-1] if item else page.creator
        byline = (
            f'<div class="page-metadata"><ul><li class="page-metadata-modification-info">Created by '
            f"{self._user_link(page.creator)}, last modified by {self._user_link(editor)} on "
            f'<a class="last-modified" href="/pages/diffpagesbyversion.action?pageId={page.id}&amp;'
            'selectedPageVersions=2">'
            f"{byline_date(last)}</a></li></ul></div>"
        )
        body = f"<p>{esc(page.text)}</p>" if page.text else ""
        if page.status:
            body = self._properties(page) + body
        if item is not None:
            name = item.pdf_path.rsplit("/", 1)[1]
            body += (
                '<h2>Attachments</h2><table class="attachments aui"><tr><td><a class="filename" href="'
                f"{attr(item.pdf_path)}"
                f'?version=1&amp;modificationDate={page.created.toordinal()}000&amp;api=v2">{esc(name)}</a></td><td>'
                f"{byline_date(date.fromisoformat(item.date))}</td></tr></table>"
            )
        if page.title.endswith("Technical Reports"):
            body += self._report_table(page)
        labels = "".join(
            f'<li><a class="label" rel="tag" href="/label/{page.space}/{label}">{label}</a></li>'
            for label in page.labels
        )
        tools = (
            f'<ul id="action-menu"><li><a href="/pages/viewpreviouspageversions.action?pageId={page.id}">Page History'
            f'</a></li><li><a href="/spaces/flyingpdf/pdfpageexport.action?pageId={page.id}">Export to PDF</a></li>'
            "</ul>"
        )
        content = (
            f'{self._breadcrumbs(page)}<div id="title-heading" class="pagetitle"><h1 id="title-text"><a href="'
            f'{attr(page.path)}">{esc(page.title)}</a></h1></div>{tools}{byline}<div id="main-content" class="wiki-'
            f'content">{body}{self._children(page)}</div><div id="labels-section"><ul class="label-list">{labels}</ul>'
            "</div>"
        )
        return self.page(title=page.title, content=content, kind="report" if item else "wiki-page")

    def _label(self, request: Request, space: str, label: str) -> Response:
        tagged = sorted(
            (p for p in self.pages.values() if p.space == space and label in p.labels), key=lambda p: p.title.lower()
        )
        if not tagged:
            return self.not_found()
        rows = "".join(f'<li><a href="{attr(p.path)}">{esc(p.title)}</a></li>' for p in tagged)
        return self.page(
            title=f"Label: {label}",
            content=f'<h1>Content with label {esc(label)}</h1><ul class="content-by-label">{rows}</ul>',
            kind="label",
        )

    def _attachment(self, request: Request, page: str) -> Response:
        found = self.pages.get(int(page))
        if found is None or found.item is None or found.item.pdf_path != request.path:
            return self.not_found()
        return self.pdf(found.item)
