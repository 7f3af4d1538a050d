"""Pages read through Chromium keep their host's pace: three queries at once on the testbed's JavaScript-only site,
every page through the browser, and the server never sees two page requests closer than the per-host delay."""

from __future__ import annotations

import itertools
import json
import re
from pathlib import Path

import pytest

from research_crawler.cli.batch import BatchRunner
from research_crawler.cli.batch_file import load_batch
from research_crawler.config.settings import Settings
from research_crawler.eval.testbed import TestbedServer
from research_crawler.eval.testbed.models import Testbed
from research_crawler.run.trace import read_trace

#: What the browser loads for a page it renders (the site's stylesheet, the icon): part of that page. robots.txt is
#: fetched over plain HTTP, not by the browser: its arrival trails its begin by the HTTP client's own latency (the
#: batch tests cover that path).
NOT_A_BROWSER_PAGE = re.compile(r"^/(?:assets/|favicon\.ico|robots\.txt)")
#: The server logs the kernel's receive time of each request, and the proxy writes a page request in the same turn of
#: its event loop as it records the begin: what is left between the two is the clocks' granularity.
CLOCK_TOLERANCE_S = 0.005


@pytest.mark.browser
def test_three_queries_reading_a_script_site_through_the_browser_keep_its_pace(
    testbed: Testbed, testbed_server: TestbedServer, tmp_path: Path
) -> None:
    delay = 0.3
    site = testbed_server.base_url("js-site")
    batch = tmp_path / "three.jsonl"
    batch.write_text(
        "".join(json.dumps({"query": q.text, "sites": [site]}) + "\n" for q in testbed.queries_for("js-site")[:3]),
        encoding="utf-8",
    )
    settings = Settings()
    settings.fetch.allowed_hosts = testbed_server.allowed_hosts()
    settings.fetch.per_host_delay_s = delay
    settings.fetch.render = "browser"  # every page through Chromium: the proxy paces each of them
    settings.explore.max_subpages = 3
    settings.rerank.kind = "bm25"
    testbed_server.reset_hits()
    tally = BatchRunner(
        load_batch(batch), settings=settings, out_dir=tmp_path / "out", backend="simulated", concurrency=3
    ).run()
    assert tally.statuses == {"done": 3}
    rendered = [
        event
        for path in (tmp_path / "out").glob("*/trace.jsonl")
        for event in read_trace(path)
        if event["event"] == "fetch" and event.get("source") == "web" and event.get("render") == "browser"
    ]
    hits = sorted(testbed_server.hits("js-site"), key=lambda hit: hit.time)
    pages = [hit for hit in hits if not NOT_A_BROWSER_PAGE.match(hit.path)]
    assert len(rendered) >= 6 and len(pages) >= len(rendered)  # each query read pages, each through the browser
    assert any(hit.path.startswith("/assets/") for hit in hits), "the browser loaded the pages' stylesheet (not paced)"
    close = [
        (earlier.path, later.path, round(later.time - earlier.time, 4))
        for earlier, later in itertools.pairwise(pages)
        if later.time - earlier.time < delay - CLOCK_TOLERANCE_S
    ]
    assert not close, close
