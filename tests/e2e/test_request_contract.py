"""The request as a contract, whole queries on the testbed: a year is never violated, "the N most recent"
returns the newest newest-first, a follow-up that only narrows needs no new search, a site named in the request
text is explored, and the count never leaks into a site's search box."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

from research_crawler.config.settings import Settings
from research_crawler.context.store import RunStore
from research_crawler.eval.testbed import TestbedServer
from research_crawler.eval.testbed.models import Testbed
from research_crawler.report.models import Report
from research_crawler.run.session import ResearchSession
from research_crawler.run.trace import read_trace


def run(settings: Settings, text: str, sites: list[str]) -> tuple[Report, list[dict[str, Any]]]:
    report = ResearchSession(settings, backend="simulated").run(text, sites=sites)
    return report, read_trace(Path(report.run_dir or "") / "trace.jsonl")


def test_a_year_is_never_violated(settings: Settings, testbed: Testbed, testbed_server: TestbedServer) -> None:
    query = next(q for q in testbed.queries_for("arxiv-like", kind="specific") if q.year)
    report, _ = run(settings, query.text, [testbed_server.base_url("arxiv-like")])
    assert report.request is not None and report.request.date_from is not None
    assert report.items, "nothing reported: the check would prove nothing"
    assert all(item.date and item.date.startswith(str(query.year)) for item in report.items)
    assert report.compliance and f"in {query.year}" in report.compliance[0]
    assert f"Asked for: {report.request_summary}" in (Path(report.run_dir or "") / "report.md").read_text()


def test_the_n_most_recent_are_the_newest_found_newest_first(
    settings: Settings, testbed: Testbed, testbed_server: TestbedServer
) -> None:
    topic = testbed.topic(testbed.queries_for("arxiv-like")[0].topic).name
    report, _ = run(settings, f"the 2 most recent papers on {topic}", [testbed_server.base_url("arxiv-like")])
    dates = [item.date or "" for item in report.items]
    assert len(report.items) == 2 and dates == sorted(dates, reverse=True)
    state = RunStore(Path(report.run_dir or "")).load()
    relevant = [
        i for web in state.web_contexts.values() for i in web.items() if i.score >= settings.report.relevance_floor
    ]
    assert dates[0] >= max((i.date or "") for i in relevant)  # nothing collected is newer than the first


def test_a_follow_up_that_only_narrows_searches_nothing_again(
    settings: Settings, testbed: Testbed, testbed_server: TestbedServer
) -> None:
    first, _ = run(settings, testbed.queries_for("arxiv-like")[0].text, [testbed_server.base_url("arxiv-like")])
    run_dir = Path(first.run_dir or "")
    before = len(read_trace(run_dir / "trace.jsonl"))
    second = asyncio.run(ResearchSession(settings, backend="simulated").afollow_up(run_dir, "only 2025"))
    events = read_trace(run_dir / "trace.jsonl")[before:]
    agents = {e["agent"] for e in events if e["event"] == "model_call"}
    assert agents <= {"WebSelector", "Presenter", "Critique"}, agents  # no Planner, Crawler, Collector
    assert not [e for e in events if e["event"] == "fetch" and e["source"] == "web" and "/abs/" not in e["url"]]
    assert second.items and all((item.date or "").startswith("2025") for item in second.items)
    assert "no new search" in second.stop_detail
    assert [s.url for s in second.sites] == [s.url for s in first.sites]


def test_a_site_named_only_in_the_request_is_explored(
    settings: Settings, testbed: Testbed, testbed_server: TestbedServer
) -> None:
    url = testbed_server.base_url("journal-like")
    topic = testbed.topic(testbed.queries_for("journal-like")[0].topic).name
    report, trace = run(settings, f"Find papers on {topic} on {url}", [])
    assert [site.url for site in report.sites] == [url]
    assert any(e["event"] == "fetch" and e["url"].startswith(url) for e in trace)


def test_the_count_never_reaches_the_search_box(
    settings: Settings, testbed: Testbed, testbed_server: TestbedServer
) -> None:
    topic = testbed.topic(testbed.queries_for("journal-like")[0].topic).name
    report, trace = run(
        settings, f"Find 25 papers on {topic} published in 2024", [testbed_server.base_url("journal-like")]
    )
    assert report.request is not None and report.request.count == 25
    searches = [
        json.loads(e["arguments"])["query"] for e in trace if e["event"] == "tool_call" and e["tool"] == "search_site"
    ]
    assert searches, "the Planner never searched the site: the check would prove nothing"
    assert all("25" not in words and "2024" not in words for words in searches)
