"""The per-site page budget with the simulated agents: a journal whose issues keep giving relevant papers earns pages
in steps up to the ceiling, one whose issues give none stays at its base, and a ceiling at the base is the paper's
fixed budget (`tools/site_budget.py`)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fault_server import FaultServer
from unlike_sites import Paper, entry, page, serve_papers

from research_crawler.config.settings import Settings
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


def run(tmp_path: Path, server: FaultServer, *, base: int, ceiling: int) -> tuple[Report, list[dict]]:
    settings = Settings(runs_dir=tmp_path / "runs")
    settings.fetch.allowed_hosts = [server.host_port]
    settings.fetch.per_host_delay_s = 0.0
    settings.rerank.kind = "bm25"
    settings.explore.max_subpages = base
    settings.explore.max_subpages_earned = ceiling
    settings.explore.subpages_step = 2
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
