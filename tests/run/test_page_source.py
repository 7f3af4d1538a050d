"""Pages fetched ahead in a whole query: the best pending URL and the next site's start page are fetched while the
agents think; a guess is archived once fetched but read, counted and visited only once the Scraper takes it, and
the run reads the same pages and finds the same items as without fetching ahead."""

from __future__ import annotations

import asyncio
import threading
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from research_crawler.config.settings import Settings
from research_crawler.context.store import RunStore
from research_crawler.eval.testbed import TestbedServer
from research_crawler.eval.testbed.models import Testbed
from research_crawler.report.models import Report
from research_crawler.run import page_source
from research_crawler.run.run_dir import PAGES_DIR
from research_crawler.run.session import ResearchSession
from research_crawler.run.trace import TraceEvent, read_trace
from research_crawler.web.page_store import PageArchive

SITES = ("arxiv-like", "journal-like")


def _run(server: TestbedServer, testbed: Testbed, tmp_path: Path, *, ahead: int) -> tuple[Report, list[TraceEvent]]:
    query = testbed.query("arxiv-like/general/diffusion")
    settings = Settings(
        runs_dir=tmp_path / f"ahead-{ahead}",
        fetch={"allowed_hosts": server.allowed_hosts(), "per_host_delay_s": 0.0, "fetch_ahead": ahead},
        # sites one after another: the next site's start page is fetched ahead, and the two runs' scrapes compare
        explore={"max_sites": len(SITES), "parallel_sites": 1},
        rerank={"kind": "bm25"},
        simulated={"latency_s": 0.02},
    )
    report = ResearchSession(settings, backend="simulated").run(
        query.text, sites=[server.base_url(site) for site in SITES]
    )
    return report, read_trace(Path(report.run_dir or "") / "trace.jsonl")


def test_guesses_are_recorded_only_when_read_and_change_nothing_found(
    testbed: Testbed, testbed_server: TestbedServer, tmp_path: Path
) -> None:
    report, events = _run(testbed_server, testbed, tmp_path, ahead=1)
    plain, plain_events = _run(testbed_server, testbed, tmp_path, ahead=0)
    outcomes = Counter(str(e["action"]) for e in events if e["event"] == "fetch_ahead")
    assert outcomes["start"] >= 3 and outcomes["taken"] >= 1, outcomes
    assert not [e for e in plain_events if e["event"] == "fetch_ahead"], "fetch.fetch_ahead=0 fetches nothing ahead"
    fetched = [e for e in events if e["event"] == "fetch"]
    assert sum(1 for e in fetched if e.get("ahead")) == outcomes["taken"]
    second_site = testbed_server.base_url(SITES[1])
    started = [e["url"] for e in events if e["event"] == "fetch_ahead" and e["action"] == "start"]
    assert second_site in started, "the next site's start page is fetched while the first is explored"
    assert any(e.get("ahead") and e["url"] == second_site for e in fetched)

    read = {str(e["url"]) for e in fetched} | {str(e["final_url"]) for e in fetched}
    state = RunStore(Path(report.run_dir or "")).load()
    assert {url for web in state.web_contexts.values() for url in web.VU} <= read, "a guess is never visited unread"
    archive = PageArchive(Path(report.run_dir or "") / PAGES_DIR)
    # Every guess started ends one way: taken, or (not chosen) unused once fetched, finishing, or cancelled. Which
    # of these a guess not chosen meets depends on how far the fetcher ran ahead of the chat: timing, not asserted.
    ends = Counter(str(e["action"]) for e in events if e["event"] == "fetch_ahead" and e["action"] != "start")
    assert set(ends) <= {"taken", "unused", "finishing", "cancelled"}, ends
    assert sum(ends.values()) == outcomes["start"], (ends, outcomes)
    unused = {e["url"] for e in events if e["event"] == "fetch_ahead" and e["action"] == "unused"} - read
    assert all(archive.get(url) is not None for url in unused), "a guess fetched is kept: a resume never asks again"

    scraped = [[e["url"] for e in run if e["event"] == "scrape"] for run in (events, plain_events)]
    assert scraped[0] == scraped[1]
    assert [item.url for item in report.items] == [item.url for item in plain.items]
    assert report.stats.pages_fetched == plain.stats.pages_fetched


def test_a_page_read_crosses_to_the_fetchers_loop_once_at_most(
    testbed: Testbed, testbed_server: TestbedServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Taking a guess fetched ahead and fetching (or joining) the page is one trip from the chat's thread to the
    fetcher's loop, not one each; a page of the run's archive needs none."""
    reading = threading.local()
    crossings: list[int] = []
    read, cross = page_source.PageSource.__call__, asyncio.run_coroutine_threadsafe

    def counted_read(self: page_source.PageSource, *args: Any, **kwargs: Any) -> Any:
        reading.crossings = 0
        try:
            return read(self, *args, **kwargs)
        finally:
            crossings.append(reading.crossings)
            del reading.crossings

    def counted_cross(coroutine: Any, loop: asyncio.AbstractEventLoop) -> Any:
        if hasattr(reading, "crossings"):
            reading.crossings += 1
        return cross(coroutine, loop)

    monkeypatch.setattr(page_source.PageSource, "__call__", counted_read)
    monkeypatch.setattr(page_source.asyncio, "run_coroutine_threadsafe", counted_cross)
    report, events = _run(testbed_server, testbed, tmp_path, ahead=1)
    assert any(e["event"] == "fetch" and e.get("ahead") for e in events), "some reads took a guess"
    assert len(crossings) >= report.stats.pages_fetched >= 3
    assert max(crossings) == 1, Counter(crossings)
