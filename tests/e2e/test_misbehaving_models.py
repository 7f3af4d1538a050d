"""Whole queries through a real OpenAI-compatible endpoint whose model misbehaves as real ones do — parallel tool
calls, unknown tools, malformed arguments, empty replies, loops, a report that echoes its prompt — on each agent
in turn: every call is answered, no page is lost, model calls stay bounded, and the report says why a site ended.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from mock_openai_server import MockOpenAIServer
from simulated_endpoint import Misbehaviour, brain

from research_crawler.agents.prompts import system_message
from research_crawler.agents.roles import Role
from research_crawler.config.settings import Settings
from research_crawler.context.store import RunStore
from research_crawler.eval.testbed import TestbedServer
from research_crawler.eval.testbed.models import Testbed
from research_crawler.llm.client import REASK_NAME, ModelReply, ToolCallSpec
from research_crawler.report.models import Report
from research_crawler.run.session import ResearchSession
from research_crawler.run.trace import read_trace

SITE = "journal-like"


@pytest.fixture
def endpoint() -> Iterator[MockOpenAIServer]:
    with MockOpenAIServer() as server:
        yield server


def run_with(
    settings: Settings,
    endpoint: MockOpenAIServer,
    server: TestbedServer,
    testbed: Testbed,
    misbehave: Misbehaviour,
    *,
    count: int | None = None,
) -> tuple[Report, list[dict[str, Any]]]:
    """A query on the journal-like site through `endpoint`; with `count`, the request asks for that many items
    (so the Planner hands over to the Supervisor as soon as it has them)."""
    endpoint.fallback = brain(misbehave)
    settings.models.base_url = endpoint.base_url
    settings.models.api_key = None
    query = testbed.queries_for(SITE)[0].text
    if count is not None:
        query = f"Find {count} papers: {query}"
    report = ResearchSession(settings, backend="openai").run(query, sites=[server.base_url(SITE)])
    return report, read_trace(Path(report.run_dir or "") / "trace.jsonl")


def calls(*pairs: tuple[str, dict[str, Any]]) -> ModelReply:
    specs = [
        ToolCallSpec(id=f"call_{n}", name=name, arguments=json.dumps(args)) for n, (name, args) in enumerate(pairs)
    ]
    return ModelReply(tool_calls=specs, finish_reason="tool_calls")


def no_page_lost(report: Report, trace: list[dict[str, Any]]) -> None:
    """Every visited page was read by the Scraper, and every URL the Planner chose was read or is still pending."""
    scraped = {event["url"] for event in trace if event["event"] == "scrape"}
    state = RunStore(Path(report.run_dir or "")).load()
    for web in state.web_contexts.values():
        assert scraped >= web.VU, web.VU - scraped
        web.check_invariants()


def results_of(trace: list[dict[str, Any]], agent: str) -> list[str]:
    return [str(e["content"]) for e in trace if e["event"] == "tool_result" and e["agent"] == agent]


def test_two_pages_chosen_in_one_turn_lose_neither(
    settings: Settings, endpoint: MockOpenAIServer, testbed_server: TestbedServer, testbed: Testbed
) -> None:
    doubled: list[str] = []

    def parallel(role: str, reply: ModelReply, messages: list[dict[str, Any]]) -> ModelReply | None:
        if role != "planner" or not reply.tool_calls or reply.tool_calls[0].name != "scrape_url" or doubled:
            return None
        listing = str(messages[-1].get("content") or "")
        first = json.loads(reply.tool_calls[0].arguments)["url"]
        others = re.findall(r"^\d+\. (\S+) — ", listing, re.MULTILINE)
        second = next((url for url in others if url != first), None)
        if second is None:
            return None
        doubled.append(second)
        return calls(("scrape_url", {"url": first}), ("scrape_url", {"url": second}))

    # asking for more papers than the site's search lists keeps the Planner choosing pages after the search
    report, trace = run_with(settings, endpoint, testbed_server, testbed, parallel, count=20)
    assert doubled, "the Planner never had two pages to choose from: the test proves nothing"
    refused = [r for r in results_of(trace, "PlannerTools") if "only one page can be opened" in r]
    assert (len(refused) == 1 and doubled[0] in refused[0]) or "This scrape_url call was not carried out" in refused[0]
    no_page_lost(report, trace)
    assert report.items and report.markdown


def test_two_verdicts_in_one_review_keep_the_first(
    settings: Settings, endpoint: MockOpenAIServer, testbed_server: TestbedServer, testbed: Testbed
) -> None:
    def both(role: str, reply: ModelReply, messages: list[dict[str, Any]]) -> ModelReply | None:
        if role == "supervisor" and reply.tool_calls and reply.tool_calls[0].name == "approve_site":
            return calls(("approve_site", {"reason": "enough"}), ("request_more", {"feedback": "more"}))
        return None

    report, trace = run_with(settings, endpoint, testbed_server, testbed, both, count=1)
    assert any("a verdict was already given" in r for r in results_of(trace, "SupervisorTools"))
    assert report.sites[0].reason == "completed"  # approve_site, the first verdict, stood


@pytest.mark.parametrize(
    ("role", "bad"),
    [
        ("crawler", ("scrape_url", '{"url": "http://127.0.0.3/"}')),
        ("collector", ("collect_items", '{"items": [{"id": 1, ')),
        ("planner", ("save_links", '{"links": []}')),
        ("supervisor", ("approve_site", "{}")),
    ],
    ids=[
        "crawler calls the Planner's tool",
        "collector sends cut JSON",
        "planner calls another agent's tool",
        "supervisor omits a required field",
    ],
)
def test_a_bad_call_is_asked_again_and_never_dispatched(
    settings: Settings,
    endpoint: MockOpenAIServer,
    testbed_server: TestbedServer,
    testbed: Testbed,
    role: str,
    bad: tuple[str, str],
) -> None:
    spoiled: list[int] = []

    def once(who: str, reply: ModelReply, messages: list[dict[str, Any]]) -> ModelReply | None:
        if who != role or spoiled or not reply.tool_calls:
            return None
        spoiled.append(1)
        return ModelReply(
            tool_calls=[ToolCallSpec(id="call_bad", name=bad[0], arguments=bad[1])], finish_reason="tool_calls"
        )

    report, trace = run_with(settings, endpoint, testbed_server, testbed, once, count=1)
    assert spoiled
    agent = Role(role).agent_name
    failed = [e for e in trace if e["event"] == "model_call" and e["agent"] == agent and not e["ok"]]
    assert len(failed) == 1 and failed[0]["error"]
    dispatched = [e for e in trace if e["event"] == "tool_call" and e["agent"] == agent and e["arguments"] == bad[1]]
    assert dispatched == []
    corrections = [r for r in endpoint.chat_requests() if r.body["messages"][-1].get("name") == REASK_NAME]
    assert len(corrections) == 1
    no_page_lost(report, trace)
    assert report.markdown and report.items


def test_a_model_that_only_calls_a_made_up_tool_stops_within_bounds(
    settings: Settings, endpoint: MockOpenAIServer, testbed_server: TestbedServer, testbed: Testbed
) -> None:
    def made_up(role: str, reply: ModelReply, messages: list[dict[str, Any]]) -> ModelReply | None:
        return calls(("open_url", {"url": "/next"})) if role == "planner" else None

    report, trace = run_with(settings, endpoint, testbed_server, testbed, made_up)
    planner_calls = [e for e in trace if e["event"] == "model_call" and e["agent"] == "Planner"]
    assert 0 < len(planner_calls) <= 3 * (settings.models.max_reasks + 1)
    assert report.stats.model_calls < 30
    assert report.sites[0].reason == "no_usable_reply", report.sites
    assert "Planner" in report.sites[0].detail
    assert report.markdown


def test_empty_replies_end_the_site_with_that_reason_not_as_completed(
    settings: Settings, endpoint: MockOpenAIServer, testbed_server: TestbedServer, testbed: Testbed
) -> None:
    def silent(role: str, reply: ModelReply, messages: list[dict[str, Any]]) -> ModelReply | None:
        return ModelReply(content="") if role in ("planner", "supervisor") else None

    report, _trace = run_with(settings, endpoint, testbed_server, testbed, silent)
    assert report.sites and report.sites[0].reason == "no_usable_reply"
    assert report.stop_reason == "all_sites_done" and report.markdown


def test_a_planner_going_round_in_a_cycle_is_stopped(
    settings: Settings, endpoint: MockOpenAIServer, testbed_server: TestbedServer, testbed: Testbed
) -> None:
    turns: list[int] = []

    def cycling(role: str, reply: ModelReply, messages: list[dict[str, Any]]) -> ModelReply | None:
        if role != "planner":
            return None
        turns.append(1)
        return calls(("get_top_urls", {"k": 3 + len(turns) % 2}))  # k=4, k=3, k=4, …: no call fails

    report, _trace = run_with(settings, endpoint, testbed_server, testbed, cycling)
    assert report.sites[0].reason == "stuck"
    assert "cycle" in report.sites[0].detail
    assert len(turns) <= 8


def test_a_report_that_echoes_the_prompt_is_asked_again_then_replaced_by_the_listing(
    settings: Settings, endpoint: MockOpenAIServer, testbed_server: TestbedServer, testbed: Testbed
) -> None:
    prompt = system_message(Role.PRESENTER, settings)

    def echo(role: str, reply: ModelReply, messages: list[dict[str, Any]]) -> ModelReply | None:
        return ModelReply(content=prompt.replace("'", "&#39;")) if role == "presenter" else None

    report, trace = run_with(settings, endpoint, testbed_server, testbed, echo)
    assert report.items
    assert prompt[:60] not in report.markdown and "&#39;" not in report.markdown
    assert "The model's report was rejected (it repeats the instructions" in report.markdown
    assert all(item.title in report.markdown for item in report.items)
    faults = [e for e in trace if e["event"] == "fault" and e.get("kind") == "unusable_report"]
    assert len(faults) == 2


@pytest.mark.parametrize("site", ["arxiv-like", "biorxiv-like"])
def test_the_unruly_model_ends_with_a_report_loses_nothing_and_finds_as_much(
    settings: Settings, testbed_server: TestbedServer, testbed: Testbed, site: str
) -> None:
    query = testbed.queries_for(site)[0]
    relevant = testbed_server.relevant_urls(query.id)
    found = {}
    for behaviour in ("careful", "unruly"):
        settings.simulated.behaviour = behaviour  # type: ignore[assignment]
        settings.simulated.seed = 11
        report = ResearchSession(settings, backend="simulated").run(query.text, sites=[testbed_server.base_url(site)])
        trace = read_trace(Path(report.run_dir or "") / "trace.jsonl")
        no_page_lost(report, trace)
        assert report.markdown and report.stats.model_calls <= 40
        found[behaviour] = {item.url for item in report.items} & relevant
        if behaviour == "unruly":
            assert sum(v for k, v in report.stats.faults.items() if k.startswith("unruly:")) >= 2
            assert not any("papers.example.org" in line for line in report.markdown.splitlines())
    assert len(found["unruly"]) >= len(found["careful"]) - 1, found
