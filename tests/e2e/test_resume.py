"""A run killed (SIGKILL) or interrupted (SIGINT) resumes from its run directory with nothing lost."""

from __future__ import annotations

import asyncio
import json
import os
import re
import signal
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from preset_runs import SessionWithClient

from research_crawler.config.settings import Settings
from research_crawler.context.store import RunStore
from research_crawler.eval.testbed import TestbedServer
from research_crawler.eval.testbed.models import Testbed
from research_crawler.llm.client import ModelReply, ModelRequest
from research_crawler.llm.simulated import SimulatedModelClient
from research_crawler.run.session import ResearchSession
from research_crawler.run.trace import TraceEvent, read_trace

SCRIPT = """
import sys
from pathlib import Path
from research_crawler.run.session import ResearchSession
from research_crawler.config.settings import Settings
settings = Settings()
ResearchSession(settings, backend="simulated").run(sys.argv[1], sites=[sys.argv[2]], run_dir=Path(sys.argv[3]))
"""


def _wait_for_fetches(trace: Path, count: int, process: subprocess.Popen[bytes], timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            pytest.fail(f"the run ended before it could be stopped: {process.stderr.read().decode()[-2000:]}")  # type: ignore[union-attr]
        if trace.exists() and sum(e["event"] == "fetch" for e in read_trace(trace)) >= count:
            return
        time.sleep(0.05)
    pytest.fail("the run did not fetch pages in time")


@pytest.mark.parametrize("sig", [signal.SIGKILL, signal.SIGINT], ids=["kill", "interrupt"])
def test_stop_then_resume_keeps_items_and_fetches_no_page_twice(
    sig: signal.Signals, settings: Settings, testbed: Testbed, testbed_server: TestbedServer, tmp_path: Path
) -> None:
    site = "arxiv-like"
    query = testbed.queries_for(site)[2]
    run_dir = tmp_path / "run"
    run_dir.mkdir()
    env = {
        **os.environ,
        "RESEARCH_CRAWLER_FETCH__PER_HOST_DELAY_S": "0",
        "RESEARCH_CRAWLER_FETCH__ALLOWED_HOSTS": json.dumps(testbed_server.allowed_hosts()),
        "RESEARCH_CRAWLER_SIMULATED__LATENCY_S": "0.15",
        "RESEARCH_CRAWLER_RUNS_DIR": str(tmp_path / "runs"),
        "RESEARCH_CRAWLER_RERANK__KIND": "bm25",
    }
    testbed_server.reset_hits()
    process = subprocess.Popen(
        [sys.executable, "-c", SCRIPT, query.text, testbed_server.base_url(site), str(run_dir)],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    try:
        _wait_for_fetches(run_dir / "trace.jsonl", 2, process)
        process.send_signal(sig)
        process.wait(timeout=30)
    finally:
        if process.poll() is None:
            process.kill()
    before = RunStore(run_dir).load()
    items_before = {url for web in before.web_contexts.values() for url in web.CP}
    visited_before = {url for web in before.web_contexts.values() for url in web.VU}
    assert visited_before, "nothing was saved before the stop"

    report = asyncio.run(ResearchSession(settings, backend="simulated").aresume(run_dir))
    after = RunStore(run_dir).load()
    items_after = {url for web in after.web_contexts.values() for url in web.CP}
    assert items_before <= items_after
    assert after.search.gamma, "the resumed run did not finish"
    assert report.markdown and (run_dir / "report.md").exists()
    page_hits = Counter(hit.path for hit in testbed_server.hits(site) if not hit.path.startswith("/robots.txt"))
    assert page_hits, "no page was fetched"
    # No page the stopped run had read is fetched again. A page fetched ahead (a guess, kept in memory until the
    # Planner takes it) dies with a killed process and may be asked for once more: one per site at most.
    read_before = {
        (parts.path or "/") + (f"?{parts.query}" if parts.query else "") for parts in map(urlsplit, visited_before)
    }
    twice = {path: hits for path, hits in page_hits.items() if hits > 1}
    assert not set(twice) & read_before, f"pages read before the stop were fetched again: {twice}"
    assert len(twice) <= settings.fetch.fetch_ahead and max(page_hits.values()) <= 2, page_hits.most_common(3)
    actions = [e.get("action") for e in read_trace(run_dir / "trace.jsonl") if e["event"] == "run"]
    assert actions == ["start", "resume"]


class _Crash(BaseException):
    """Stands for the process dying mid-scrape: nothing in the run catches it, nothing is saved after it."""


class _CrashingCollector(SimulatedModelClient):
    """The simulated model, except that the Collector's first read of a site-search results page crashes."""

    def _complete(self, request: ModelRequest) -> ModelReply:
        task = next((str(m.get("content") or "") for m in request.messages if m.get("role") == "user"), "")
        if self.agent_name == "Collector" and re.search(r'<page-content url="[^"]*/search\?', task):
            raise _Crash
        return super()._complete(request)


@pytest.mark.parametrize("parallel_sites", [1, 2], ids=["one-site-at-a-time", "sites-at-once"])
def test_a_page_whose_scrape_a_crash_cut_short_is_read_again_on_resume(
    settings: Settings, testbed: Testbed, testbed_server: TestbedServer, tmp_path: Path, parallel_sites: int
) -> None:
    """The crash falls after the Crawler saved the results page's links and before the Collector stored its
    papers: the resumed run reads that page again (from the run's archive) before anything else. With sites
    explored at once, the crashed site stays pending (not recorded as finished) so the resumed run goes on there."""
    settings.explore.parallel_sites = parallel_sites
    site = "arxiv-like"
    query = testbed.query("arxiv-like/general/gnn")
    run_dir = tmp_path / "run"
    testbed_server.reset_hits()
    with pytest.raises(_Crash):
        SessionWithClient(settings, client_cls=_CrashingCollector).run(
            query.text, sites=[testbed_server.base_url(site)], run_dir=run_dir
        )
    crashed = RunStore(run_dir).load()
    (web,) = crashed.web_contexts.values()
    unfinished = web.unfinished_scrapes()
    assert len(unfinished) == 1 and "/search?" in unfinished[0]
    assert not web.CP, "the crash came before the Collector stored anything"

    report = asyncio.run(ResearchSession(settings, backend="simulated").aresume(run_dir))
    after = RunStore(run_dir).load()
    (web,) = after.web_contexts.values()
    assert web.unfinished_scrapes() == []
    relevant = testbed_server.relevant_urls(query.id)
    assert relevant <= set(web.CP), "the papers of the interrupted results page were collected on resume"
    assert relevant & {item.url for item in report.items}
    trace = read_trace(run_dir / "trace.jsonl")
    resumed = next(i for i, e in enumerate(trace) if e.get("action") == "resume")
    assert [e["url"] for e in trace[resumed:] if e["event"] == "scrape_resumed"] == unfinished
    first_scrape = next(e for e in trace[resumed:] if e["event"] == "scrape")
    assert first_scrape["url"] == unfinished[0]
    refetched = [e for e in trace[resumed:] if e["event"] == "fetch" and e["url"] == unfinished[0]]
    assert refetched and all(e["source"] == "archive" for e in refetched)
    page_hits = Counter(hit.path for hit in testbed_server.hits(site) if not hit.path.startswith("/robots.txt"))
    # A page fetched ahead and not taken (cancelled in flight, or done and unused), before the crash or after the
    # resume, never reaches the run's archive (web/fetch_ahead.py), nor does one being fetched ahead when the crash
    # came: only such a page may be asked for again.
    def ahead(events: list[TraceEvent], *actions: str) -> set[str]:
        return {urlsplit(e["url"]).path for e in events if e["event"] == "fetch_ahead" and e["action"] in actions}

    under_way = ahead(trace[:resumed], "start") - ahead(trace[:resumed], "taken")
    cut_ahead = ahead(trace, "cancelled", "unused") | under_way
    again = {path for path, hits in page_hits.items() if hits > 1}
    assert again <= cut_ahead, (page_hits.most_common(3), cut_ahead)
