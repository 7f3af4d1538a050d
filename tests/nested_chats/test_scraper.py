"""The Scraper nested chat: the Crawler and the Item Collector read each page at the same time (the trace shows
their chats overlapping), store what they would store one after the other, and a failure of one lets the other
finish its page first."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import pytest

from research_crawler.agents.ag2 import ModelSpec
from research_crawler.agents.roles import Role
from research_crawler.config.settings import Settings
from research_crawler.context.store import RunStore
from research_crawler.errors import ModelError
from research_crawler.eval.testbed import TestbedServer
from research_crawler.eval.testbed.models import Testbed
from research_crawler.llm.client import ModelReply, ModelRequest
from research_crawler.llm.simulated import SimulatedModelClient
from research_crawler.report.models import Report
from research_crawler.run.session import ResearchSession
from research_crawler.run.trace import TraceEvent, read_trace

#: Long enough that a chat which waited for the other's would start only after the other's model call.
LATENCY_S = 0.05


class _FailingCrawler(SimulatedModelClient):
    """The simulated model, except that the Crawler's endpoint fails on its first call."""

    def _complete(self, request: ModelRequest) -> ModelReply:
        if self.agent_name == Role.CRAWLER.agent_name:
            raise ModelError("the Crawler's endpoint is down")
        return super()._complete(request)


class _Session(ResearchSession):
    def __init__(self, settings: Settings, client_cls: type[SimulatedModelClient]) -> None:
        super().__init__(settings, backend="simulated")
        self._client_cls = client_cls

    def model_spec(self, role: Role, spec: ModelSpec) -> ModelSpec:
        return dataclasses.replace(spec, client_cls=self._client_cls)


def _run(
    server: TestbedServer,
    testbed: Testbed,
    tmp_path: Path,
    *,
    concurrently: bool,
    client_cls: type[SimulatedModelClient] = SimulatedModelClient,
) -> tuple[Report, list[TraceEvent]]:
    query = testbed.query("arxiv-like/general/diffusion")
    settings = Settings(
        runs_dir=tmp_path / ("concurrent" if concurrently else "sequential"),
        run={"scrape_concurrently": concurrently},
        fetch={"allowed_hosts": server.allowed_hosts(), "per_host_delay_s": 0.0},
        rerank={"kind": "bm25"},
        simulated={"latency_s": LATENCY_S},
        models={"max_retries": 0},
    )
    report = _Session(settings, client_cls).run(query.text, sites=[server.base_url(query.site)])
    return report, read_trace(Path(report.run_dir or "") / "trace.jsonl")


def _steps_by_page(events: list[TraceEvent]) -> dict[str, dict[tuple[str, str], int]]:
    """Page URL → (step, phase) → the sequence number of that event."""
    pages: dict[str, dict[tuple[str, str], int]] = {}
    for event in events:
        if event["event"] == "scrape_step":
            pages.setdefault(event["url"], {})[(event["step"], event["phase"])] = event["seq"]
    return pages


def _stored(report: Report) -> tuple[set[str], set[str]]:
    """The items collected and the URLs discovered, over every site of the run."""
    state = RunStore(Path(report.run_dir or "")).load()
    items = {item.url for web in state.web_contexts.values() for item in web.items()}
    discovered = {url for web in state.web_contexts.values() for url in web.DU}
    return items, discovered


def test_the_crawler_and_the_collector_read_each_page_at_the_same_time(
    testbed: Testbed, testbed_server: TestbedServer, tmp_path: Path
) -> None:
    report, events = _run(testbed_server, testbed, tmp_path, concurrently=True)
    pages = _steps_by_page(events)
    skipped = {e["url"] for e in events if e["event"] == "skip"}  # a step with nothing to do ends at once
    both = {url: steps for url, steps in pages.items() if len(steps) == 4 and url not in skipped}
    assert len(both) >= 2, f"pages read by both agents: {sorted(both)}"
    for url, steps in both.items():
        starts = max(steps[("crawler", "start")], steps[("collector", "start")])
        ends = min(steps[("crawler", "end")], steps[("collector", "end")])
        assert starts < ends, f"{url}: one chat ended before the other began"
        calls_between = [
            e for e in events if e["event"] == "model_call" and starts < e["seq"] < ends and e["agent"] == "Crawler"
        ]
        assert len(calls_between) <= 1
    assert report.items


def test_one_after_the_other_when_not_concurrent(
    testbed: Testbed, testbed_server: TestbedServer, tmp_path: Path
) -> None:
    _, events = _run(testbed_server, testbed, tmp_path, concurrently=False)
    pages = _steps_by_page(events)
    assert pages
    for url, steps in pages.items():
        if len(steps) == 4:
            assert steps[("crawler", "end")] < steps[("collector", "start")], url


def test_reading_at_once_stores_what_reading_in_turn_stores(
    testbed: Testbed, testbed_server: TestbedServer, tmp_path: Path
) -> None:
    concurrent, concurrent_events = _run(testbed_server, testbed, tmp_path, concurrently=True)
    sequential, sequential_events = _run(testbed_server, testbed, tmp_path, concurrently=False)
    assert _stored(concurrent) == _stored(sequential)
    scraped: list[Any] = [
        [e["url"] for e in events if e["event"] == "scrape"] for events in (concurrent_events, sequential_events)
    ]
    assert scraped[0] == scraped[1]
    assert [item.url for item in concurrent.items] == [item.url for item in sequential.items]


@pytest.mark.parametrize("concurrently", [True, False])
def test_a_failing_crawler_lets_the_collector_finish_its_page(
    testbed: Testbed, testbed_server: TestbedServer, tmp_path: Path, concurrently: bool
) -> None:
    report, events = _run(testbed_server, testbed, tmp_path, concurrently=concurrently, client_cls=_FailingCrawler)
    assert report.stop_reason == "error" and "Crawler's endpoint is down" in report.stop_detail
    collector_steps = [e for e in events if e["event"] == "scrape_step" and e["step"] == "collector"]
    if concurrently:  # the Collector read the page and stored its items before the run stopped
        assert [e["phase"] for e in collector_steps] == ["start", "end"]
        assert any(e["event"] == "model_call" and e["agent"] == "Collector" and e["ok"] for e in events)
    else:  # the Crawler goes first: its failure stops the run before the Collector is asked
        assert collector_steps == []
