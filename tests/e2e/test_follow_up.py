"""Follow-up queries reuse the run's pages and items; a running query can be stopped gracefully."""

from __future__ import annotations

import asyncio
import threading
from collections import Counter
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest

from research_crawler.config.settings import Settings
from research_crawler.context.store import RunStore
from research_crawler.eval.testbed import TestbedServer
from research_crawler.eval.testbed.models import Testbed
from research_crawler.run.session import ResearchSession
from research_crawler.run.trace import read_trace


def test_a_follow_up_reuses_pages_and_items(
    settings: Settings, testbed: Testbed, testbed_server: TestbedServer
) -> None:
    site = "arxiv-like"
    first_query, second_query = testbed.queries_for(site)[0], testbed.queries_for(site)[1]
    session = ResearchSession(settings, backend="simulated")
    testbed_server.reset_hits()
    first = session.run(first_query.text, sites=[testbed_server.base_url(site)])
    run_dir = Path(first.run_dir or "")
    items_before = {url for web in RunStore(run_dir).load().web_contexts.values() for url in web.CP}

    second = asyncio.run(session.afollow_up(run_dir, second_query.text))
    state = RunStore(run_dir).load()
    items_after = {url for web in state.web_contexts.values() for url in web.CP}
    assert items_before <= items_after
    assert second.query == second_query.text and second.markdown
    assert second.sites and second.sites[0].url == first.sites[0].url
    hits = Counter(hit.path for hit in testbed_server.hits(site) if not hit.path.startswith("/robots.txt"))
    trace = read_trace(run_dir / "trace.jsonl")
    # a page fetched ahead and not taken never reaches the run's archive (web/fetch_ahead.py): only it may be asked
    # for again
    not_taken = {
        urlsplit(e["url"]).path for e in trace if e["event"] == "fetch_ahead" and e["action"] in ("cancelled", "unused")
    }
    assert {path for path, count in hits.items() if count > 1} <= not_taken, (hits.most_common(3), not_taken)
    assert [e["action"] for e in trace if e["event"] == "run"] == ["start", "follow_up"]
    follow_up_starts = next(i for i, e in enumerate(trace) if e.get("action") == "follow_up")
    new_scrapes = [e for e in trace[follow_up_starts:] if e["event"] == "scrape"]
    assert new_scrapes, "the follow-up got no fresh subpage budget"
    assert len(new_scrapes) <= settings.explore.max_subpages


def test_cancel_stops_the_run_and_still_reports(
    settings: Settings, testbed: Testbed, testbed_server: TestbedServer
) -> None:
    settings.simulated.latency_s = 0.05
    session = ResearchSession(settings, backend="simulated")
    fetched = threading.Event()

    def on_event(event: dict) -> None:
        if event["event"] == "fetch":
            fetched.set()
            session.cancel()

    session.on_event = on_event
    report = session.run(testbed.queries_for("journal-like")[0].text, sites=[testbed_server.base_url("journal-like")])
    assert fetched.is_set()
    assert report.stop_reason == "interrupted" and "stopped by the user" in report.stop_detail
    assert report.markdown
    assert report.stats.pages_fetched == 1


@pytest.mark.parametrize("parallel_sites", [1, 2], ids=["one-site-at-a-time", "sites-at-once"])
def test_a_cancelled_run_resumes_and_explores_further(
    settings: Settings, testbed: Testbed, testbed_server: TestbedServer, parallel_sites: int
) -> None:
    settings.explore.parallel_sites = parallel_sites
    session = ResearchSession(settings, backend="simulated")
    session.on_event = lambda event: session.cancel() if event["event"] == "fetch" else None
    stopped = session.run(testbed.queries_for("journal-like")[0].text, sites=[testbed_server.base_url("journal-like")])
    assert stopped.stop_reason == "interrupted"
    session.on_event = None
    resumed = asyncio.run(session.aresume(Path(stopped.run_dir or "")))
    assert resumed.stop_reason == "all_sites_done"
    assert resumed.sites[0].pages_visited > stopped.sites[0].pages_visited


@pytest.mark.parametrize("parallel_sites", [1, 2], ids=["one-site-at-a-time", "sites-at-once"])
def test_a_run_left_with_a_second_ctrl_c_is_interrupted_and_resumes(
    settings: Settings,
    testbed: Testbed,
    testbed_server: TestbedServer,
    parallel_sites: int,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    """The first Ctrl-C asks the run to stop; the second leaves at once and closes the fetcher under the pages still
    being read. What then fails is the teardown, not the run: it is recorded as interrupted (no traceback), and
    `resume` goes on from where it was."""
    from research_crawler.run.page_source import PageSource

    settings.explore.parallel_sites = parallel_sites
    session = ResearchSession(settings, backend="simulated")
    read = PageSource.__call__
    fetches: list[str] = []

    def closing(self: PageSource, url: str, site: Any, **options: Any) -> Any:
        fetches.append(url)
        if len(fetches) == 2:
            session.cancel()
            raise RuntimeError("this Fetcher is closed")
        return read(self, url, site, **options)

    monkeypatch.setattr(PageSource, "__call__", closing)
    sites = [testbed_server.base_url("journal-like"), testbed_server.base_url("arxiv-like")]
    stopped = session.run(testbed.queries_for("journal-like")[0].text, sites=sites)
    assert stopped.stop_reason == "interrupted" and "stopped by the user" in stopped.stop_detail
    assert not [r for r in caplog.records if r.levelname == "ERROR"], "a stop the user asked for is not a failure"
    monkeypatch.undo()
    resumed = asyncio.run(session.aresume(Path(stopped.run_dir or "")))
    assert resumed.stop_reason == "all_sites_done"
    assert {site.url for site in resumed.sites} == set(sites) and resumed.items


def test_a_follow_up_of_a_run_stopped_before_its_request_was_read_keeps_the_topic(
    settings: Settings, testbed: Testbed, testbed_server: TestbedServer
) -> None:
    query = testbed.queries_for("arxiv-like")[0]
    session = ResearchSession(settings, backend="simulated")

    def stop_at_once(event: dict[str, Any]) -> None:
        if event["event"] == "run":
            session.cancel()

    session.on_event = stop_at_once
    first = session.run(query.text, sites=[testbed_server.base_url("arxiv-like")])
    assert first.stop_reason == "interrupted" and first.request is None
    session.on_event = None
    other = testbed_server.base_url("journal-like")
    second = asyncio.run(
        session.afollow_up(Path(first.run_dir or ""), f"{query.text} — follow-up: also search {other}", sites=[other])
    )
    assert second.request is not None and "follow" not in second.request.topic
    assert first_words(second.request.topic) <= first_words(query.text)
    assert second.items, "the site search used the follow-up's words and found nothing"


def test_continue_on_a_site_keeps_the_reports_entries(
    settings: Settings, testbed: Testbed, testbed_server: TestbedServer
) -> None:
    query = testbed.queries_for("arxiv-like")[0]
    site = testbed_server.base_url("arxiv-like")
    session = ResearchSession(settings, backend="simulated")
    first = session.run(query.text, sites=[site])
    second = asyncio.run(
        session.afollow_up(Path(first.run_dir or ""), f"{query.text} — follow-up: continue on {site}", sites=[site])
    )
    assert second.items and len(second.items) >= len(first.items)
    assert all(f"]({item.url})" in second.markdown for item in second.items), second.guard_notes
    assert not [note for note in second.guard_notes if "not among the collected" in note]


def first_words(text: str) -> set[str]:
    return {word.lower().strip("?.,") for word in text.split() if len(word) > 3}
