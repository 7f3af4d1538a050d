"""The per-site page budget with the simulated agents: a journal whose issues keep giving relevant papers earns pages
in steps up to the ceiling, one whose issues give none stays at its base, a ceiling at the base is the paper's
fixed budget, and a run that dies after its site earned pages keeps them when resumed (`tools/site_budget.py`)."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Iterator
from pathlib import Path
from typing import ClassVar

import pytest
from fault_server import FaultServer, Reply
from preset_runs import SessionWithClient
from unlike_sites import Paper, entry, loopback_settings, page, serve_papers

from research_crawler.config.settings import Settings
from research_crawler.context.store import RunStore
from research_crawler.llm.client import ModelReply, ModelRequest
from research_crawler.llm.simulated import SimulatedModelClient
from research_crawler.report.models import Report
from research_crawler.run.session import ResearchSession
from research_crawler.run.trace import read_trace

ISSUES = 8
QUERY = "Find papers on graph neural networks"


@pytest.fixture
def server() -> Iterator[FaultServer]:
    with FaultServer() as running:
        yield running


def journal(server: FaultServer, *, relevant: bool) -> None:
    """A journal's start page linking its issues; each issue lists two papers on graph neural networks (or, with
    `relevant` false, two on soil and weather) and one on soil."""
    papers = []
    for number in range(1, ISSUES + 1):
        if relevant:
            topics = [f"Graph neural networks for task {number}a", f"Graph neural networks for task {number}b"]
        else:
            topics = [f"Soil carbon survey number {number}", f"Weather radar study number {number}"]
        issue = [Paper(f"p{number}-{k}", title, f"2024-0{1 + number % 9}-01") for k, title in enumerate(topics)]
        issue.append(Paper(f"p{number}-soil", f"Soil moisture in field {number}", "2023-05-01", "geoscience"))
        server.page(
            f"/issue/{number}", page(f"Issue {number}", f"<h1>Issue {number}</h1><ul>{''.join(map(entry, issue))}</ul>")
        )
        papers += issue
    serve_papers(server, papers)
    links = "".join(f"<li><a href='/issue/{number}'>Issue {number}</a></li>" for number in range(1, ISSUES + 1))
    server.page("/", page("Journal of Graphs", f"<h1>Journal of Graphs</h1><h2>Issues</h2><ul>{links}</ul>"))


def journal_settings(tmp_path: Path, server: FaultServer, *, base: int, ceiling: int) -> Settings:
    settings = loopback_settings(server, tmp_path / "runs")
    settings.explore.max_subpages = base
    settings.explore.max_subpages_earned = ceiling
    settings.explore.subpages_step = 2
    return settings


def run(tmp_path: Path, server: FaultServer, *, base: int, ceiling: int) -> tuple[Report, list[dict]]:
    settings = journal_settings(tmp_path, server, base=base, ceiling=ceiling)
    report = ResearchSession(settings, backend="simulated").run(QUERY, sites=[server.url("/")])
    return report, read_trace(Path(report.run_dir or "") / "trace.jsonl")


def told(events: list[dict], sender: str) -> list[str]:
    return [e["content"] for e in events if e["event"] == "message" and e.get("sender") == sender]


def test_a_site_that_keeps_yielding_earns_pages_up_to_the_ceiling(tmp_path: Path, server: FaultServer) -> None:
    journal(server, relevant=True)
    report, events = run(tmp_path, server, base=2, ceiling=6)
    (summary,) = report.sites
    assert summary.pages_visited == 6
    grants = [e for e in events if e["event"] == "budget"]
    assert [(e["earned"], e["limit"]) for e in grants] == [(2, 4), (2, 6)]
    assert all("relevant item(s)" in e["reason"] for e in grants)
    assert any("at most 2 subpages (up to 6 while its pages keep giving" in text for text in told(events, "UserProxy"))
    assert any("this site earned 2 more subpage(s), 4 in all (at most 6)" in t for t in told(events, "ScraperProxy"))
    assert len({item.title for item in report.items if "Graph neural" in item.title}) >= 8


def test_a_site_that_yields_nothing_stays_at_its_base(tmp_path: Path, server: FaultServer) -> None:
    journal(server, relevant=False)
    report, events = run(tmp_path, server, base=3, ceiling=9)
    (summary,) = report.sites
    assert summary.pages_visited <= 3
    assert not [e for e in events if e["event"] == "budget"]


def test_a_ceiling_at_the_base_is_the_fixed_budget(tmp_path: Path, server: FaultServer) -> None:
    journal(server, relevant=True)
    report, events = run(tmp_path, server, base=2, ceiling=2)
    (summary,) = report.sites
    assert summary.pages_visited == 2
    assert not [e for e in events if e["event"] == "budget"]
    announced = told(events, "UserProxy")
    assert any("at most 2 subpages. Request:" in text for text in announced)
    assert not any("while its pages keep giving" in text for text in announced)


class _Crash(BaseException):
    """Stands for the process dying mid-scrape: nothing in the run catches it, nothing is saved after it."""


class _CollectorDyingOnItsFifthPage(SimulatedModelClient):
    """The simulated model, except that the Collector's first look at the fifth page it is given crashes the run."""

    pages: ClassVar[list[str]] = []

    def _complete(self, request: ModelRequest) -> ModelReply:
        if self.agent_name == "Collector":
            for message in request.messages:
                found = re.search(r'<page-content url="([^"]+)"', str(message.get("content") or ""))
                if found and found.group(1) not in self.pages:
                    self.pages.append(found.group(1))
                    if len(self.pages) == 5:
                        raise _Crash
        return super()._complete(request)


def test_a_resumed_run_keeps_the_pages_its_site_had_earned(tmp_path: Path, server: FaultServer) -> None:
    journal(server, relevant=True)
    settings = journal_settings(tmp_path, server, base=2, ceiling=6)
    run_dir = tmp_path / "run"
    _CollectorDyingOnItsFifthPage.pages.clear()
    with pytest.raises(_Crash):
        SessionWithClient(settings, client_cls=_CollectorDyingOnItsFifthPage).run(
            QUERY, sites=[server.url("/")], run_dir=run_dir
        )
    crashed = RunStore(run_dir).load()
    (ledger,) = crashed.budget.values()
    assert ledger["extra"] == 4, "the site had earned two steps of two pages before the crash"
    report = asyncio.run(ResearchSession(settings, backend="simulated").aresume(run_dir))
    (summary,) = report.sites
    assert summary.pages_visited == 6, "the resumed run read up to the pages the site had earned, not its base"


def journal_collection(server: FaultServer, *, relevant: bool) -> list[Paper]:
    """A collection whose works are in back issues: the start page links two indexes of its journals (A–Z, by
    subject); a journal's page links its grid of issues; the grid links four issues; an issue's table of contents
    lists three papers, each with its PDF beside its title (two on graph neural networks, or — with `relevant`
    false — none, and one on soil)."""
    papers: list[Paper] = []
    tocs = []
    for number in range(1, 5):
        if relevant:
            topics = [f"Graph neural networks for molecules {number}", f"Graph neural networks for traffic {number}"]
        else:
            topics = [f"Coastal erosion survey {number}", f"Wheat yield model {number}"]
        issue = [Paper(f"a{number}-{k}", title, f"2024-0{number}-01") for k, title in enumerate(topics)]
        issue.append(Paper(f"a{number}-soil", f"Soil moisture in field {number}", "2024-05-01", "geoscience"))
        entries = "".join(
            f"<li class='article'><h3><a href='{paper.path}'>{paper.title}</a></h3><p>Lima, Ana; Souza, Bruno</p>"
            f"<a href='{paper.path}.pdf'>PDF</a></li>"
            for paper in issue
        )
        for paper in issue:
            server.route(f"{paper.path}.pdf", Reply(200, b"%PDF-1.4 not a web page", content_type="application/pdf"))
        server.page(
            f"/j/gr/i/{number}/", page(f"Vol. 3 No. {number}", f"<h1>Vol. 3 No. {number}</h1><ul>{entries}</ul>")
        )
        tocs.append(f"<td><a href='/j/gr/i/{number}/'>No. {number}</a></td>")
        papers += issue
    serve_papers(server, papers)
    server.page(
        "/j/gr/grid", page("All issues", f"<h1>All issues</h1><table><tr><td>2024</td>{''.join(tocs)}</tr></table>")
    )
    server.page(
        "/j/gr/",
        page(
            "Graph Letters",
            "<h1>Graph Letters</h1><p>A journal of the collection.</p><ul>"
            "<li><a href='/j/gr/grid'>All issues</a></li><li><a href='/j/gr/about'>About the journal</a></li>"
            "<li><a href='/j/gr/authors'>Instructions for authors</a></li></ul>",
        ),
    )
    index = "".join(
        f"<li><a href='/j/{slug}/'>{name}</a></li>"
        for slug, name in (
            ("ag", "Agronomy Letters"),
            ("gr", "Graph Letters"),
            ("hi", "History Review"),
            ("so", "Soil Notes"),
        )
    )
    for path, title in (("/journals/alpha", "Journals A–Z"), ("/journals/subject", "Journals by subject")):
        server.page(path, page(title, f"<h1>{title}</h1><ul>{index}</ul>"))
    server.page(
        "/",
        page(
            "Open Journals",
            "<h1>Open Journals</h1><p>A collection of open-access journals.</p><ul>"
            "<li><a href='/journals/alpha'>Journals A–Z</a></li><li><a href='/journals/subject'>Journals by subject"
            "</a></li><li><a href='/about'>About the collection</a></li></ul>",
        ),
    )
    return papers


def test_a_collection_whose_works_lie_in_back_issues_earns_its_way_to_them(tmp_path: Path, server: FaultServer) -> None:
    """Start page, an index of journals, the journal, its grid of issues: the base spent finding the way, the grid's
    promising issues earn a step, and the papers found there earn on, up to the ceiling and never past it; no PDF
    of a listed paper is fetched, as its own page is queued with it."""
    journal_collection(server, relevant=True)
    report, events = run(tmp_path, server, base=4, ceiling=11)
    (summary,) = report.sites
    grants = [e for e in events if e["event"] == "budget"]
    assert grants[0]["limit"] == 6 and "navigation page" in grants[0]["reason"], "the way in earned the first step"
    assert all("relevant item(s)" in e["reason"] for e in grants[1:]) and len(grants) >= 2
    assert summary.pages_visited <= 11 and all(e["limit"] <= 11 for e in grants)
    assert not [hit.path for hit in server.page_hits() if hit.path.endswith(".pdf")]
    assert len({item.title for item in report.items if "Graph neural" in item.title}) >= 6


def test_a_collection_whose_issues_hold_nothing_asked_for_earns_one_step_at_most(
    tmp_path: Path, server: FaultServer
) -> None:
    """The same way in earns one step; the issue and the off-topic paper the Planner opens in it cost their pages and
    earn none, so the site stops there."""
    journal_collection(server, relevant=False)
    report, events = run(tmp_path, server, base=4, ceiling=11)
    (summary,) = report.sites
    grants = [e for e in events if e["event"] == "budget"]
    assert [(e["earned"], e["limit"]) for e in grants] == [(2, 6)] and "navigation page" in grants[0]["reason"]
    assert summary.pages_visited <= 6
    assert not report.items


def bibliography(server: FaultServer) -> None:
    """A society's start page whose one way to its works is its bibliography, ordered by first author, three to a
    page: its first page lists papers of other fields, its second and third the papers on graph neural networks."""
    by_author = [
        Paper("alloys", "Abbott: Bayesian optimisation of alloy compositions", "2023-02-01", "materials"),
        Paper("radar", "Baker: Weather radar nowcasting with optical flow", "2022-06-01", "geoscience"),
        Paper("soil", "Carter: Soil carbon mapping from satellite imagery", "2021-04-01", "geoscience"),
        Paper("gnn-1", "Graph neural networks for protein structure", "2024-03-05"),
        Paper("gnn-2", "Graph neural networks for traffic forecasting", "2025-01-20"),
        Paper("gnn-3", "Message passing graph neural networks at scale", "2023-11-11"),
        Paper("gnn-4", "Graph neural networks for molecule property prediction", "2024-07-01"),
        Paper("gnn-5", "Graph neural networks for power grid stability", "2024-09-09"),
        Paper("gnn-6", "Explaining graph neural networks with counterfactuals", "2025-02-02"),
    ]
    serve_papers(server, by_author)
    for number in (1, 2, 3):
        listed = "".join(map(entry, by_author[3 * (number - 1) : 3 * number]))
        pager = f"<a href='/bibliography/?page={number + 1}'>Next »</a>" if number < 3 else ""
        server.page(
            "/bibliography/" if number == 1 else f"/bibliography/?page={number}",
            page("Bibliography", f"<h1>Bibliography</h1><p>Page {number} of 3</p><ol>{listed}</ol><p>{pager}</p>"),
        )
    server.page(
        "/",
        page("Field Society", "<h1>Field Society</h1><p>Members study plants in the field.</p>"
             "<ul><li><a href='/bibliography/'>Bibliography</a></li></ul>"),
    )  # fmt: skip


def test_a_site_that_gave_nothing_reads_on_when_its_last_page_opens_its_list_of_works(
    tmp_path: Path, server: FaultServer
) -> None:
    bibliography(server)
    report, events = run(tmp_path, server, base=2, ceiling=8)
    (summary,) = report.sites
    assert summary.pages_visited > 2  # its two pages spent, the bibliography's first page earned it more
    assert [e for e in events if e["event"] == "budget"]
    assert {"Graph neural networks for protein structure", "Graph neural networks for traffic forecasting"} <= {
        item.title for item in report.items
    }
