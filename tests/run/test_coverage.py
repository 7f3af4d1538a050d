"""What the budget left out, per site: report.json's coverage (pages visited and pending with their scores, a site
search tried or not, pages that could not be read, the share of promising pages explored), the lines of report.md,
and a follow-up on the site that starts from that map."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from rich.console import Console

from research_crawler.api import ResearchCrawler
from research_crawler.cli.chat_repl import ChatRepl
from research_crawler.config.settings import Settings
from research_crawler.eval.testbed import TestbedServer
from research_crawler.eval.testbed.models import Testbed
from research_crawler.report.models import FailedPage, PendingPage, Report, SiteCoverage
from research_crawler.report.writers import left_out_lines, render_markdown
from research_crawler.run.trace import read_trace


def _settings(server: TestbedServer, tmp_path: Path) -> Settings:
    settings = Settings(runs_dir=tmp_path / "runs")
    settings.fetch.allowed_hosts = server.allowed_hosts()
    settings.fetch.per_host_delay_s = 0.0
    settings.rerank.kind = "bm25"
    settings.explore.max_subpages = 2
    settings.explore.max_subpages_earned = 2  # a fixed budget, so that a yielding site leaves pages out as planned
    return settings


def _visited(run_dir: Path) -> list[str]:
    return [event["url"] for event in read_trace(run_dir / "trace.jsonl") if event["event"] == "scrape"]


@pytest.mark.parametrize("parallel_sites", [1, 2], ids=["one-site-at-a-time", "sites-at-once"])
def test_the_report_says_what_the_budget_left_out_and_a_follow_up_starts_there(
    testbed: Testbed, testbed_server: TestbedServer, tmp_path: Path, parallel_sites: int
) -> None:
    site = testbed_server.base_url("arxiv-like")
    query = testbed.queries_for("arxiv-like")[0].text
    settings = _settings(testbed_server, tmp_path)
    settings.explore.parallel_sites = parallel_sites
    crawler = ResearchCrawler(settings, backend="simulated")
    run_dir = tmp_path / "run"
    report = crawler.run(query, sites=[site], run_dir=run_dir)

    [coverage] = report.coverage
    assert coverage.url == site and coverage.pages_visited == 2 == len(_visited(run_dir))
    assert coverage.pages_pending > len(coverage.best_pending) > 0
    scores = [page.score for page in coverage.best_pending]
    assert scores == sorted(scores, reverse=True)
    assert not {page.url for page in coverage.best_pending} & set(_visited(run_dir))
    items = {url for item in report.items for url in (item.url, item.pdf_url) if url}
    assert not {page.url for page in coverage.best_pending} & items, "an item's own page is no left-out work"
    assert coverage.promising_explored_share is None or coverage.promising_explored_share > 0
    assert coverage.search_form and coverage.search_tried  # the simulated Planner searches a site that can be
    assert coverage.failed_pages == []
    saved = Report.model_validate_json((run_dir / "report.json").read_text(encoding="utf-8"))
    assert saved.coverage == report.coverage
    markdown = (run_dir / "report.md").read_text(encoding="utf-8")
    assert "Left out by the budget" in markdown
    assert f"{coverage.pages_pending} page(s) pending" in markdown

    crawler.follow_up(run_dir, query, sites=[site])
    after = _visited(run_dir)
    assert after[2] == coverage.best_pending[0].url  # the new budget starts from the best page left out


def test_left_out_lines_name_pages_searches_and_failures_as_text() -> None:
    hostile = "http://a.example/x_[click](http://evil)*"
    coverage = SiteCoverage(
        url="http://a.example/",
        pages_visited=5,
        pages_pending=4,
        promising_pending=2,
        best_pending=[
            PendingPage(url=hostile, score=8.0, anchor_text="x"),
            PendingPage(url="http://a.example/y", score=6),
        ],
        promising_explored_share=0.6,
        search_form=True,
        search_tried=False,
        failed_pages=[FailedPage(url="http://a.example/slow", determination="timeout")],
    )
    lines = left_out_lines(Report(query="q", simulated_model=True, coverage=[coverage]))
    [entry] = [line for line in lines if line.startswith("- ")]
    assert "4 page(s) pending, 2 of them promising" in entry and "(8)" in entry and "(6)" in entry
    assert "its search form was not tried" in entry
    assert "1 page(s) could not be read: http://a.example/slow (timeout)" in entry
    assert "about 60% of its promising pages explored" in entry
    # a page nobody fetched is named by its path as code: never a link, whatever its URL holds
    assert "`/x_[click](http://evil)*` (8), `/y` (6)" in entry
    forbidden = coverage.model_copy(update={"search_refusal": "its robots.txt forbids crawlers its search (/cgi/)"})
    [entry] = [
        line
        for line in left_out_lines(Report(query="q", simulated_model=True, coverage=[forbidden]))
        if line.startswith("- ")
    ]
    assert "search" not in entry, "a search nobody may send is no page the budget left out"
    nothing_left = SiteCoverage(url="http://b.example/", pages_visited=2, search_form=True, search_tried=True)
    report = Report(query="q", simulated_model=True, coverage=[nothing_left])
    assert left_out_lines(report) == [] and "Left out" not in render_markdown(report)


def test_continue_on_a_site_in_the_chat_spends_a_new_budget_from_what_was_left_out(
    testbed: Testbed, testbed_server: TestbedServer, tmp_path: Path
) -> None:
    site = testbed_server.base_url("arxiv-like")
    lines = [testbed.queries_for("arxiv-like")[0].text, f"continue on {site}"]
    reports: list[Report] = []

    def read_line(prompt: str) -> str:
        if repl.report is not None:
            reports.append(repl.report)
        if not lines:
            raise EOFError
        return lines.pop(0)

    repl = ChatRepl(
        ResearchCrawler(_settings(testbed_server, tmp_path), backend="simulated"),
        sites=[site],
        console=Console(file=io.StringIO(), width=200),
        progress_console=Console(file=io.StringIO()),
        view_mode="off",
        read_line=read_line,
    )
    assert repl.run() == 0
    first, then = reports[0], reports[-1]
    assert first is not then and first.request is not None and then.request is not None
    assert then.request.topic == first.request.topic  # "continue on" is not a new topic
    visited = _visited(Path(then.run_dir or ""))
    assert len(visited) > 2 and visited[2] == first.coverage[0].best_pending[0].url
    assert then.coverage[0].pages_visited == len(visited)
