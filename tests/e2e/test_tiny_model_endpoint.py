"""Whole queries through a strict endpoint (it refuses what llama-cpp-python, Ollama, vLLM or OpenAI would refuse) that
answers as a 270M model does: a forced tool called with every field filled, dates with times, text for the rest. No
request is refused, the reading of the request falls back to the rules and says so, every stored title is on its page,
and every site ends with a reason — also when the endpoint fails and the run stops on the error."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from mock_openai_server import MockOpenAIServer, RecordedRequest, Scripted, error, refused

from research_crawler.config.settings import Settings
from research_crawler.context.store import RunStore
from research_crawler.eval.reliability.tiny_model import tiny_completion
from research_crawler.eval.testbed import TestbedServer
from research_crawler.report.markdown_text import markdown_text
from research_crawler.report.models import Report
from research_crawler.run.session import ResearchSession
from research_crawler.run.trace import read_trace

SITE = "arxiv-like"
QUERY = "Find papers on graph neural networks"


@pytest.fixture
def endpoint() -> Iterator[MockOpenAIServer]:
    with MockOpenAIServer() as server:
        yield server


def tiny(request: RecordedRequest) -> Scripted:
    return Scripted(body=tiny_completion(request.body))


def run(settings: Settings, endpoint: MockOpenAIServer, server: TestbedServer) -> tuple[Report, list[dict[str, Any]]]:
    settings.models.base_url = endpoint.base_url
    settings.models.api_key = None
    settings.models.backoff_base_s = settings.models.backoff_max_s = 0.01
    settings.explore.max_subpages = 2
    report = ResearchSession(settings, backend="openai").run(QUERY, sites=[server.base_url(SITE)])
    return report, read_trace(Path(report.run_dir or "") / "trace.jsonl")


def test_a_tiny_model_behind_a_strict_server_ends_every_site_with_a_reason(
    settings: Settings, endpoint: MockOpenAIServer, testbed_server: TestbedServer
) -> None:
    endpoint.fallback = tiny
    report, trace = run(settings, endpoint, testbed_server)
    assert endpoint.refusals == [], "a request the strict servers refuse"
    assert len(endpoint.chat_requests()) <= settings.run.max_model_calls
    assert report.stop_reason != "error" and report.sites
    assert all(site.reason and site.reason != "completed" for site in report.sites)
    (reading,) = [event for event in trace if event["event"] == "request" and "summary" in event]
    assert reading["source"].startswith("rules (") and "graph neural networks" in reading["summary"]
    state = RunStore(Path(report.run_dir or "")).load()
    for web in state.web_contexts.values():
        for item in web.items():
            assert item.title != "x", "a title the page does not show was stored"
            assert item.date is None and item.authors == ()  # "x" and "2026-11-26T00:00:00" are on no page


@pytest.mark.parametrize(
    "failure",
    [error(503, "server overloaded"), refused([("ollama", "invalid message content type: <nil>")])],
    ids=["retried-then-given-up", "malformed"],
)
def test_a_run_stopped_by_the_endpoint_gives_every_site_its_end_and_says_the_error_once(
    settings: Settings, endpoint: MockOpenAIServer, testbed_server: TestbedServer, failure: Any
) -> None:
    endpoint.fallback = lambda _request: failure
    report, trace = run(settings, endpoint, testbed_server)
    assert report.stop_reason == "error"
    (site,) = report.sites
    assert site.url == testbed_server.base_url(SITE) and site.reason == "error"
    assert site.detail == "not finished: the search stopped on an error"
    markdown = (Path(report.run_dir or "") / "report.md").read_text(encoding="utf-8")
    assert markdown.count(markdown_text(report.stop_detail)) == 1, markdown
    assert report.stop_detail.count("the model endpoint") == 1, report.stop_detail
    assert [event["kind"] for event in trace if event["event"] == "fault"] == ["model_error"]
