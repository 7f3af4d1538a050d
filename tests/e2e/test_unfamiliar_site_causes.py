"""Whole requests, with the simulated model, on small loopback sites built like the third fresh batch's failures
(issue 26): a journal that first asks who the visitor is, and a repository whose search robots.txt forbids."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fault_server import FaultServer

from research_crawler.config.settings import Settings
from research_crawler.eval.reliability.consent_site import ConsentSite, journal_pages
from research_crawler.run.session import ResearchSession
from research_crawler.run.trace import read_trace

PAPERS = [
    ("gnn-molecules", "Graph neural networks for molecular property prediction"),
    ("gnn-traffic", "Spatio-temporal graph neural networks for traffic forecasting"),
    ("ssm", "State space models for long sequence modelling"),
]


@pytest.fixture
def server() -> Iterator[FaultServer]:
    with FaultServer() as running:
        yield running


def settings_for(tmp_path: Path, server: FaultServer) -> Settings:
    settings = Settings(runs_dir=tmp_path / "runs")
    settings.fetch.allowed_hosts = [server.host_port]
    settings.fetch.per_host_delay_s = 0.0
    settings.rerank.kind = "bm25"
    return settings


def test_a_journal_that_asks_who_the_visitor_is_is_explored(tmp_path: Path, server: FaultServer) -> None:
    site = ConsentSite(server, journal_pages("Journal of Learning", PAPERS), style="audience")
    report = ResearchSession(settings_for(tmp_path, server), backend="simulated").run(
        "Find papers on graph neural networks", sites=[server.url("/")]
    )
    assert {title for _, title in PAPERS[:2]} <= {item.title for item in report.items}
    assert site.passes == 1 and site.choices == ["researcher"]  # once for the run, as a researcher
    assert not server.hits_for("/login")


def test_a_search_robots_txt_forbids_is_never_tried_and_costs_no_page(tmp_path: Path, server: FaultServer) -> None:
    server.robots("User-agent: *\nDisallow: /cgi/\n")
    papers = "".join(f"<li><a href='/id/{slug}/'>{title}</a></li>" for slug, title in PAPERS)
    server.page(
        "/",
        "<html><head><title>Repository</title></head><body><header><form action='/cgi/search' method='get'>"
        "<input name='q'><input type='submit' value='Search'></form></header><main><h1>Repository</h1>"
        f"<h2>Latest additions</h2><ul>{papers}</ul></main></body></html>",
    )
    for slug, title in PAPERS:
        server.page(
            f"/id/{slug}/",
            f"<html><head><title>{title}</title></head><body><main><h1>{title}</h1><p>Authors: Okafor, Ada</p>"
            f"<h2>Abstract</h2><p>We study {title.lower()} on several benchmarks.</p></main></body></html>",
        )
    report = ResearchSession(settings_for(tmp_path, server), backend="simulated").run(
        "Find papers on graph neural networks", sites=[server.url("/")]
    )
    assert not server.hits_for("/cgi/search")
    events = read_trace(Path(report.run_dir or "") / "trace.jsonl")
    assert not [e for e in events if e["event"] == "fetch" and e["determination"] == "blocked_by_robots"]
    told = [e["content"] for e in events if e["event"] == "message" and e.get("sender") == "ScraperProxy"]
    assert "search is forbidden to crawlers by its robots.txt" in told[0]
    assert {title for _, title in PAPERS[:2]} <= {item.title for item in report.items}
