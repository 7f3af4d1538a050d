"""Sites explored in parallel find what sequential exploration finds, and really overlap."""

from __future__ import annotations

from pathlib import Path

from research_crawler.config.settings import Settings
from research_crawler.context.store import RunStore
from research_crawler.eval.testbed import TestbedServer
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
