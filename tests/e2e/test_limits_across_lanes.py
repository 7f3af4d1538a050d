"""The run's limits hold with three site lanes at once: the lanes, each with its Crawler and Collector calls in
flight together, never take more model calls, tokens or group messages than the run allows (the report's writers,
the Presenter and the Critique, are counted but never refused)."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path
from typing import Any

import autogen
import pytest

from research_crawler.agents.roles import Role
from research_crawler.config.settings import Settings
from research_crawler.eval.testbed import TestbedServer
from research_crawler.report.models import Report
from research_crawler.run.session import ResearchSession
from research_crawler.run.trace import read_trace

SITES = ["arxiv-like", "journal-like", "repo-like"]
QUERY = "find papers on graph neural networks"
REPORT_WRITERS = {Role.PRESENTER.agent_name, Role.CRITIQUE.agent_name}
EXPLORING = {role.value for role in Role if role.agent_name not in REPORT_WRITERS}


def _run(settings: Settings, server: TestbedServer) -> Report:
    settings.explore.parallel_sites = 3
    # calls last long enough to overlap across lanes and within a page, even when a loaded machine starts the lanes
    # apart (0.3 s was once too short for the three lanes to call at once, with a benchmark running beside)
    settings.simulated.latency_s = 1.0
    return ResearchSession(settings, backend="simulated").run(QUERY, sites=[server.base_url(site) for site in SITES])


def _trace(report: Report) -> list[dict[str, Any]]:
    return read_trace(Path(report.run_dir or "") / "trace.jsonl")


def _exploring_calls(report: Report) -> list[dict[str, Any]]:
    """Every model call of the run but the report writers', from the trace."""
    return [e for e in _trace(report) if e["event"] == "model_call" and e["agent"] not in REPORT_WRITERS]


def _most_at_once(calls: list[dict[str, Any]]) -> int:
    """The most calls in flight at one time (each ends at its event's time and lasted its latency)."""
    ends = [datetime.fromisoformat(e["t"]).timestamp() for e in calls]
    starts = [end - e["latency_s"] for end, e in zip(ends, calls, strict=True)]
    edges = sorted([(start, 1) for start in starts] + [(end, -1) for end in ends])
    in_flight = most = 0
    for _, step in edges:
        in_flight += step
        most = max(most, in_flight)
    return most


def _lanes(report: Report) -> set[str]:
    return {e["site"] for e in _trace(report) if e["event"] == "transition" and "site" in e}


def test_three_lanes_never_pass_the_run_limit_of_model_calls(
    settings: Settings, testbed_server: TestbedServer
) -> None:
    settings.run.max_model_calls = 12
    report = _run(settings, testbed_server)
    calls = _exploring_calls(report)
    assert len(_lanes(report)) == 3 and _most_at_once(calls) >= 3, "the three lanes did not call the model at once"
    assert len(calls) <= 12, f"{len(calls)} model calls made under a run limit of 12"
    assert len(calls) == 12, f"the run stopped at {len(calls)} model calls, short of its limit of 12"
    assert report.stop_reason == "limit_reached" and "12 model calls" in report.stop_detail
    assert report.markdown, "a run stopped by its limit still gets a written report"


def test_three_lanes_never_pass_the_run_limit_of_tokens(settings: Settings, testbed_server: TestbedServer) -> None:
    settings.run.max_tokens = 8_000
    report = _run(settings, testbed_server)
    calls = _exploring_calls(report)
    assert len(_lanes(report)) == 3 and _most_at_once(calls) >= 3, "the three lanes did not call the model at once"
    taken = sum(e["input_tokens"] + e["output_tokens"] for e in calls)
    assert taken <= 8_000, f"{taken} tokens taken in {len(calls)} calls under a run limit of 8000"
    assert report.stop_reason == "limit_reached" and "8000 tokens" in report.stop_detail
    # The call refused needed at most its prompt and its reply's bound: the run did not stop further short.
    bounds = settings.models.max_output_tokens
    largest = max(e["input_tokens"] for e in calls) + max(v for role, v in bounds.items() if role in EXPLORING)
    assert taken > 8_000 - largest, f"the run stopped at {taken} tokens, far short of its limit of 8000"


@pytest.fixture
def group_messages(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """The name of every message appended to any group chat (every lane's), in the order they came."""
    seen: list[str] = []
    lock = threading.Lock()
    append = autogen.GroupChat.append

    def counting(self: autogen.GroupChat, message: dict[str, Any], speaker: autogen.Agent) -> None:
        with lock:
            seen.append(speaker.name)
        append(self, message, speaker)

    monkeypatch.setattr(autogen.GroupChat, "append", counting)
    yield seen


def test_the_group_message_limit_is_the_runs_not_each_lanes(
    settings: Settings, testbed_server: TestbedServer, group_messages: list[str]
) -> None:
    settings.run.max_rounds = 12
    report = _run(settings, testbed_server)
    assert len(_lanes(report)) == 3
    assert len(group_messages) <= 12, f"{len(group_messages)} group messages under a run limit of 12"
    assert report.stop_reason == "limit_reached" and "12 group messages" in report.stop_detail
