"""Sites explored in parallel find what sequential exploration finds, and really overlap."""

from __future__ import annotations

from datetime import date
from pathlib import Path
from typing import Any

import pytest

from research_crawler.config.settings import Settings
from research_crawler.context.store import RunStore
from research_crawler.eval.testbed import TestbedServer
from research_crawler.run import site_lanes
from research_crawler.run.session import ResearchSession
from research_crawler.run.trace import read_trace

SITES = ["arxiv-like", "journal-like", "repo-like"]


def test_parallel_sites_match_sequential_and_overlap(settings: Settings, testbed_server: TestbedServer) -> None:
    settings.simulated.latency_s = 0.02
    urls = [testbed_server.base_url(site) for site in SITES]
    query = "find papers on graph neural networks"
    sequential = ResearchSession(settings, backend="simulated").run(query, sites=urls)
    settings.explore.parallel_sites = 3
    parallel = ResearchSession(settings, backend="simulated").run(query, sites=urls)

    assert {item.url for item in parallel.items} == {item.url for item in sequential.items}
    assert {s.url: (s.reason, s.pages_visited) for s in parallel.sites} == {
        s.url: (s.reason, s.pages_visited) for s in sequential.sites
    }
    state = RunStore(Path(parallel.run_dir or "")).load()
    assert state.search.gamma and not state.search.P
    assert {record.site.url for record in state.search.finished_sites} == set(urls)
    for web in state.web_contexts.values():
        web.check_invariants()

    trace = read_trace(Path(parallel.run_dir or "") / "trace.jsonl")
    fetch_sites = [next(u for u in urls if e["url"].startswith(u)) for e in trace if e["event"] == "fetch"]
    first_done = {u: max(i for i, s in enumerate(fetch_sites) if s == u) for u in set(fetch_sites)}
    first_start = {u: min(i for i, s in enumerate(fetch_sites) if s == u) for u in set(fetch_sites)}
    assert any(first_start[b] < first_done[a] for a in first_done for b in first_start if a != b), fetch_sites
    assert sum(e["event"] == "rerank" for e in trace) == 1, "items must be ranked and presented once"


def test_each_lane_reads_the_request_as_the_run_read_it(
    settings: Settings, testbed_server: TestbedServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A lane's Planner, Collector and Supervisor work to the request's contract (count, dates), as in sequential
    mode: each lane's Search Context carries the request the run read, not only its text."""
    seen: list[Any] = []
    real_chat_run = site_lanes.ChatRun

    def chat_run(exploration: Any, **kwargs: Any) -> Any:
        seen.append(exploration.search.request)
        return real_chat_run(exploration, **kwargs)

    monkeypatch.setattr(site_lanes, "ChatRun", chat_run)
    settings.explore.parallel_sites = 3
    urls = [testbed_server.base_url(site) for site in SITES]
    report = ResearchSession(settings, backend="simulated").run(
        "find 3 papers on graph neural networks published in 2024", sites=urls
    )
    assert len(seen) == len(SITES)
    for request in seen:
        assert request is not None and request.count == 3
        assert (request.date_from, request.date_to) == (date(2024, 1, 1), date(2024, 12, 31))
    assert all(item.date is None or item.date.startswith("2024") for item in report.items)
