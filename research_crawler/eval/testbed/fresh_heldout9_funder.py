"""HELD OUT, fresh (ninth batch): the Veldmark Research Council's project portal, built as CORDIS-like funder portals
are (see `fresh_heldout9.py`; do not read or tune anything to it). Programmes list their projects five a page,
newest start first (acronym, title, dates written day/month/year, status); a project has a fact sheet (objective,
coordinator, partners, funding) and a results tab where its publications (each with a record page) sit among
deliverables and periodic reports that are not works; a record names where it was published and, when the paper is
on a partner's own site, links there; records reported since 2025 carry Dublin Core tags, older ones only text.
Exports of a project (CSV, XML) and the API are forbidden by robots.txt; a GET search covers projects and results.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, timedelta
from typing import ClassVar

from research_crawler.eval.testbed.decoys import DecoyKind
from research_crawler.eval.testbed.fresh_heldout9_group import paper_venue
from research_crawler.eval.testbed.full_text import search_items
from research_crawler.eval.testbed.markup import attr, document, esc, meta_name
from research_crawler.eval.testbed.models import Item
from research_crawler.eval.testbed.site_app import Request, Response, Route, SiteApp, paged

__all__ = ["PROJECTS_PER_PAGE", "TAGGED_SINCE", "Fresh9FunderSite", "Project", "dmy", "projects"]

PROJECTS_PER_PAGE = 5
#: Records reported from this year on carry Dublin Core tags (the portal's newer record template).
TAGGED_SINCE = 2025
_ACRONYMS = ("SPANWATCH", "GIRDER", "PIERSAFE", "ARCHIVE-B", "WARMTH", "RETROHEAT", "DECARB-H", "HEATSHIFT",
             "TRUSSNET", "FLEXHOME", "CORRODE", "OPENLOOP", "KELVIN", "ROADBED", "SOLIDWALL", "LOWFLOW")  # fmt: skip
_PARTNERS = ("Technical University of Aldbrook", "Veldmark Institute of Building Research", "Kestrel Structures Lab",
             "Norrvik Polytechnic", "Halden Energy Agency", "Brannock Consulting Engineers Ltd",
             "University of Strand", "Heatwise Cooperative")  # fmt: skip
#: Journals by programme (a paper of a partner's own site keeps the venue that site gives it).
_JOURNALS = {"Resilient Infrastructure": ("Structural Control and Health Monitoring", "Journal of Bridge Engineering",
                                          "Engineering Structures"),
             "Clean Heat and Buildings": ("Energy and Buildings", "Applied Thermal Engineering",
                                          "Building Research & Information")}  # fmt: skip
#: Start dates of each programme's projects that reported no publication (just started, or closed without any).
_QUIET_STARTS = (date(2026, 9, 1), date(2025, 3, 1), date(2020, 10, 1), date(2019, 5, 1))
#: What a results tab lists besides publications: (number, title) of deliverables, not works.
DELIVERABLES = (("D1.1", "Data management plan"), ("D2.3", "Report on the field deployment"),
                ("D5.2", "Dissemination and exploitation plan (update)"))  # fmt: skip


def dmy(day: date) -> str:
    """A date as the portal writes it: '12/03/2024'."""
    return f"{day.day:02d}/{day.month:02d}/{day.year}"


@dataclass(frozen=True)
class Project:
    """A funded project: its outputs are the site's items filed under its programme."""

    pid: int
    acronym: str
    programme: str
    start: date
    end: date
    outputs: tuple[Item, ...]

    @property
    def path(self) -> str:
        return f"/project/id/{self.pid}"

    @property
    def title(self) -> str:
        topic = self.programme.lower()
        return f"{self.acronym.title()}: a demonstration programme for {topic} in Veldmark"


def _code(programme: str) -> str:
    return re.sub(r"[^a-z]+", "-", programme.lower()).strip("-")


def projects(items: list[Item]) -> list[Project]:
    """The portal's projects, newest start first: each programme's outputs dealt, oldest first, to three projects in
    turn (each project running from a year before its first output to past its last), and four more that have
    reported none (two just started, two closed long ago)."""
    made: list[Project] = []
    programmes = sorted({i.category for i in items})
    for p_index, programme in enumerate(programmes):
        outputs = sorted((i for i in items if i.category == programme), key=lambda i: (i.date, i.id))
        groups: list[list[Item]] = [[], [], []]
        for n, item in enumerate(outputs):
            groups[n % 3].append(item)
        for g_index, group in enumerate([*groups, *[[]] * len(_QUIET_STARTS)]):
            pid = 101000 + 211 * (8 * p_index + g_index)
            acronym = _ACRONYMS[(8 * p_index + g_index) % len(_ACRONYMS)]
            if group:
                first = date.fromisoformat(group[0].date)
                start = date(first.year - 1, first.month, 1)
                end = max(date(start.year + 3, start.month, 1), date.fromisoformat(group[-1].date) + timedelta(60))
            else:
                start = _QUIET_STARTS[g_index - len(groups)]
                end = date(start.year + 3, start.month, 1)
            made.append(Project(pid, acronym, programme, start, end - timedelta(days=1), tuple(group)))
    return sorted(made, key=lambda p: (p.start, p.pid), reverse=True)


def _authors(item: Item) -> str:
    return ", ".join(item.authors)


def _journal(item: Item, copies: list[Item]) -> str:
    """Where the record says `item` was published: as the group's site says for a paper it holds too."""
    original = next((c for c in copies if c.site == "fresh9-group"), None)
    if original is not None:
        return paper_venue(original)
    journals = _JOURNALS.get(item.category, ("Engineering Structures",))
    return journals[sum(map(ord, item.key)) % len(journals)]


class Fresh9FunderSite(SiteApp):
    """A funder's portal: programmes, projects with fact sheets and results tabs, publication records."""

    decoy_paths: ClassVar[dict[str, DecoyKind]] = {"/about": "about", "/help": "help", "/legal-notice": "terms",
                                                   "/privacy": "privacy"}  # fmt: skip

    def routes(self) -> list[Route]:
        self.projects = projects(self.items)
        self.by_pid = {p.pid: p for p in self.projects}
        return [
            (re.compile(r"/"), self._home),
            (re.compile(r"/programmes"), self._programmes),
            (re.compile(r"/programme/(?P<code>[a-z-]+)"), self._programme),
            (re.compile(r"/project/id/(?P<pid>\d+)"), self._fact_sheet),
            (re.compile(r"/project/id/(?P<pid>\d+)/results"), self._results),
            (re.compile(r"/project/id/(?P<pid>\d+)/reporting"), self._reporting),
            (re.compile(r"/project/id/(?P<pid>\d+)/export"), self._export),
            (re.compile(r"/results/publication/(?P<key>\d+)"), self._record),
            (re.compile(r"/results/publication/(?P<key>\d+)/fulltext\.pdf"), self._file),
            (re.compile(r"/docs/deliverables/(?P<name>[\w.-]+)\.pdf"), self._deliverable),
            (re.compile(r"/search"), self._search),
        ]

    def robots_txt(self) -> str:
        return "User-agent: *\nDisallow: /project/id/*/export\nDisallow: /api/\nCrawl-delay: 1\n"

    def sample_paths(self) -> dict[str, str]:
        project = next(p for p in self.projects if p.outputs)
        return {"home": "/", "programmes": "/programmes", "programme": f"/programme/{_code(project.programme)}",
                "project": project.path, "results": f"{project.path}/results", "record": project.outputs[0].path,
                "search": "/search?q=bridge"}  # fmt: skip

    def page(self, *, title: str, content: str, kind: str, status: int = 200, head: str = "") -> Response:
        body = (
            '<header class="vrc-header"><a class="logo" href="/">Veldmark Research Council</a>'
            '<nav><a href="/programmes">Programmes</a> <a href="/search">Search projects and results</a> '
            '<a href="/about">About</a> <a href="/help">Help</a></nav>'
            '<form action="/search" method="get" role="search"><input name="q" aria-label="Search">'
            "<button>Search</button></form></header>\n"
            f'<main id="main-content">{content}</main>\n'
            '<footer><a href="/legal-notice">Legal notice</a> · <a href="/privacy">Privacy</a> · '
            "Project information as reported by the beneficiaries; last update 14/11/2026</footer>"
        )
        html = document(title=f"{title} | {self.spec.title}", head=head, body=body, body_class="vrc")
        return Response.html(html, kind=kind, status=status)

    def _home(self, request: Request) -> Response:
        latest = "".join(
            f'<li><span class="type">Publication</span> <a href="{attr(i.path)}">{esc(i.title)}</a> '
            f"<small>{dmy(date.fromisoformat(i.date))}</small></li>"
            for i in self.items[:4]
        )
        content = (
            "<h1>Find what Veldmark's research projects produced</h1>"
            "<p>Fact sheets, results and reports of every project funded since 2019.</p>"
            '<p><a class="button" href="/programmes">Browse projects by programme</a></p>'
            f'<section><h2>Latest results</h2><ul class="latest">{latest}</ul></section>'
            "<section><h2>News</h2><p>Call 2027 for clean heat demonstrators opens on 12/01/2027. "
            '<a href="/help">How to apply</a></p></section>'
        )
        return self.page(title="Home", content=content, kind="home")

    def _programmes(self, request: Request) -> Response:
        rows = "".join(
            f'<li><a href="/programme/{_code(name)}">{esc(name)}</a> '
            f"({sum(1 for p in self.projects if p.programme == name)} projects)</li>"
            for name in sorted({p.programme for p in self.projects})
        )
        return self.page(title="Programmes", content=f"<h1>Programmes</h1><ul>{rows}</ul>", kind="programmes")

    def _programme(self, request: Request, code: str) -> Response:
        chosen = [p for p in self.projects if _code(p.programme) == code]
        if not chosen:
            return self.not_found()
        shown, pager = paged(request, chosen, PROJECTS_PER_PAGE, lambda n: f"/programme/{code}?page={n}")
        rows = "".join(
            f'<tr><td><a href="{p.path}">{esc(p.acronym)}</a></td><td>{esc(p.title)}</td>'
            f"<td>{dmy(p.start)}</td><td>{dmy(p.end)}</td>"
            f"<td>{'Closed' if p.end < date(2026, 11, 1) else 'Ongoing'}</td></tr>"
            for p in shown
        )
        content = (
            f"<h1>{esc(chosen[0].programme)}</h1><p>{len(chosen)} projects, sorted by start date (newest first)</p>"
            "<table><thead><tr><th>Acronym</th><th>Title</th><th>Start date</th><th>End date</th><th>Status</th>"
            f"</tr></thead><tbody>{rows}</tbody></table>{pager}"
        )
        return self.page(title=chosen[0].programme, content=content, kind="programme")

    def _project(self, pid: str) -> Project | None:
        return self.by_pid.get(int(pid))

    def _tabs(self, project: Project, active: str) -> str:
        tabs = (("Fact sheet", project.path), ("Results", f"{project.path}/results"),
                ("Reporting", f"{project.path}/reporting"))  # fmt: skip
        current = ' aria-current="page"'
        links = " ".join(f'<a href="{href}"{current if name == active else ""}>{name}</a>' for name, href in tabs)
        return (
            f'<h1>{esc(project.acronym)}</h1><p class="subtitle">{esc(project.title)}</p>'
            f'<nav class="tabs">{links}</nav><p class="export">Export: <a href="{project.path}/export?format=csv">CSV'
            f'</a> <a href="{project.path}/export?format=xml">XML</a></p>'
        )

    def _fact_sheet(self, request: Request, pid: str) -> Response:
        project = self._project(pid)
        if project is None:
            return self.not_found()
        coordinator = _PARTNERS[project.pid % len(_PARTNERS)]
        partners = "".join(f"<li>{esc(p)}</li>" for p in _PARTNERS if p != coordinator)
        content = (
            self._tabs(project, "Fact sheet")
            + f"<dl><dt>Start date</dt><dd>{dmy(project.start)}</dd><dt>End date</dt><dd>{dmy(project.end)}</dd>"
            f"<dt>Programme</dt><dd>{esc(project.programme)}</dd><dt>Overall budget</dt>"
            f"<dd>€ {1_200_000 + project.pid % 7 * 85_000:,}</dd></dl>"
            f"<h2>Objective</h2><p>{esc(project.acronym)} brings together universities, industry and public owners "
            f"to test new methods in {esc(project.programme.lower())} at full scale and to share what works.</p>"
            f"<h2>Coordinator</h2><p>{esc(coordinator)}</p><h2>Participants</h2><ul>{partners}</ul>"
        )
        return self.page(title=project.acronym, content=content, kind="project")

    def _results(self, request: Request, pid: str) -> Response:
        project = self._project(pid)
        if project is None:
            return self.not_found()
        articles = "".join(
            f'<li class="result"><a href="{attr(i.path)}">{esc(i.title)}</a><div class="citation">Author(s): '
            f"{esc(_authors(i))}<br>Published in: {esc(_journal(i, self.testbed.copies_of(i)))}, {i.year}</div></li>"
            for i in sorted(project.outputs, key=lambda i: i.title)
        )
        deliverables = "".join(
            f'<li><a href="/docs/deliverables/{project.pid}-{number}.pdf">{number} {esc(name)}</a></li>'
            for number, name in DELIVERABLES
        )
        reports = "".join(
            f"<li>Periodic Reporting for period {n} - {esc(project.acronym)} "
            f'(<a href="{project.path}/reporting">summary</a>)</li>'
            for n in (1, 2)
        )
        content = self._tabs(project, "Results") + (
            f"<h2>Publications</h2><h3>Peer reviewed articles ({len(project.outputs)})</h3><ul>{articles}</ul>"
            if project.outputs
            else "<h2>Publications</h2><p>This project has not reported any publications yet.</p>"
        )
        content += f"<h2>Deliverables</h2><ul>{deliverables}</ul><h2>Documents, reports</h2><ul>{reports}</ul>"
        return self.page(title=f"{project.acronym} results", content=content, kind="results")

    def _reporting(self, request: Request, pid: str) -> Response:
        project = self._project(pid)
        if project is None:
            return self.not_found()
        content = self._tabs(project, "Reporting") + (
            "<h2>Periodic Reporting for period 1</h2><p>Work performed from the beginning of the project: sites were "
            "chosen, partners agreed the measurement protocol and the first season of data was collected.</p>"
        )
        return self.page(title=f"{project.acronym} reporting", content=content, kind="reporting")

    def _export(self, request: Request, pid: str) -> Response:
        project = self._project(pid)
        if project is None:
            return self.not_found()
        lines = ["id;title;authors;year"] + [f"{i.key};{i.title};{_authors(i)};{i.year}" for i in project.outputs]
        return Response.text("\n".join(lines) + "\n", kind="export")

    def _record(self, request: Request, key: str) -> Response:
        item = self.item_at(request.path)
        if item is None:
            return self.not_found()
        project = next(p for p in self.projects if item in p.outputs)
        day = date.fromisoformat(item.date)
        head = ""
        if item.year >= TAGGED_SINCE:
            head = "\n".join([meta_name("DC.title", item.title), *(meta_name("DC.creator", a) for a in item.authors),
                              meta_name("DC.date", item.date), meta_name("DC.type", "Text")])  # fmt: skip
        copies = self.testbed.copies_of(item)
        journal = _journal(item, copies)
        elsewhere = [c for c in copies if c.site != self.spec.name]
        also = "".join(
            f'<p class="external">Available on the partner\'s website: <a href="'
            f'{attr(self.links.on_site(c.site, c.path))}">{esc(self.testbed.site(c.site).title)}</a></p>'
            for c in elsewhere
        )
        content = (
            f'<p class="type">Peer reviewed articles</p><h1>{esc(item.title)}</h1>'
            f"<dl><dt>Author(s)</dt><dd>{esc(_authors(item))}</dd><dt>Published in</dt><dd>{esc(journal)}, "
            f"Issue {day.month}, {item.year}</dd><dt>Publication date</dt><dd>{dmy(day)}</dd>"
            f'<dt>Project</dt><dd><a href="{project.path}">{esc(project.acronym)}</a></dd></dl>'
            f"<h2>Abstract</h2><p>{esc(item.abstract)}</p>{also}"
            f'<p><a href="{attr(item.pdf_path)}">Full text (open access)</a></p>'
        )
        return self.page(title=item.title, content=content, kind="record", head=head)

    def _file(self, request: Request, key: str) -> Response:
        item = next((i for i in self.items if i.pdf_path == request.path), None)
        return self.not_found() if item is None else self.pdf(item)

    def _deliverable(self, request: Request, name: str) -> Response:
        return Response.text(f"Deliverable {name}: see the project's results tab.\n", kind="deliverable")

    def _search(self, request: Request) -> Response:
        text = request.param("q")
        found = search_items(self.items, text) if text else []
        rows = "".join(
            f'<li><a href="{attr(i.path)}">{esc(i.title)}</a> <small>Publication, {i.year}</small></li>' for i in found
        )
        content = (
            f'<h1>Search</h1><form action="/search" method="get"><input name="q" value="{attr(text)}">'
            f"<button>Search</button></form>"
            + (f"<p>{len(found)} results</p><ul>{rows}</ul>" if text else "<p>Type a word to search.</p>")
        )
        return self.page(title="Search", content=content, kind="search")
