"""A real model behind a real endpoint, through every agent's real prompts and tools: whatever it answers, every
guard holds — bounded calls and replies, a reason for each site's end, a report from the items or none at all."""

from __future__ import annotations

from pathlib import Path

import pytest

from research_crawler.config.settings import Settings
from research_crawler.eval.testbed import TestbedServer
from research_crawler.eval.testbed.models import Testbed
from research_crawler.run.session import ResearchSession
from research_crawler.run.trace import read_trace

pytestmark = [pytest.mark.live, pytest.mark.timeout(3600)]  # a small local model on a CPU is slow


def test_a_query_on_the_testbed_ends_with_an_honest_report(
    tmp_path: Path, testbed: Testbed, testbed_server: TestbedServer, live_model: str
) -> None:
    settings = Settings.load()
    settings.runs_dir = tmp_path
    settings.fetch.allowed_hosts = testbed_server.allowed_hosts()
    settings.fetch.per_host_delay_s = 0.0
    settings.rerank.kind = "bm25"
    settings.explore.max_subpages = 2
    settings.models.strong_model = settings.models.cheap_model = live_model
    settings.models.request_timeout_s = max(settings.models.request_timeout_s, 300.0)
    settings.models.max_total_retry_s = max(settings.models.max_total_retry_s, 600.0)
    report = ResearchSession(settings, backend="openai").run(
        "Find papers on graph neural networks", sites=[testbed_server.base_url("arxiv-like")]
    )
    trace = read_trace(Path(report.run_dir or "") / "trace.jsonl")
    calls = [event for event in trace if event["event"] == "model_call"]
    assert calls and len(calls) <= settings.run.max_model_calls
    bounds = settings.models.max_output_tokens
    for call in calls:
        role = call["agent"].lower().replace("webselector", "web_selector")
        assert call["output_tokens"] <= bounds.get(role, 10**6) + 16, call
    assert report.sites, "the site has no recorded end"
    for site in report.sites:
        assert site.reason and (
            site.reason != "completed" or any(e["event"] == "tool_call" and e["tool"] == "approve_site" for e in trace)
        )
    markdown = (Path(report.run_dir or "") / "report.md").read_text(encoding="utf-8")
    assert "You are the Presenter" not in markdown and "&#39;" not in markdown
    if not report.items:
        assert markdown.startswith("No papers were found")
