"""The soak: many whole queries with the simulated model at 10% injected model faults, over the testbed with
10% injected network faults (`FaultyTestbed`), one after another in one process.

It counts runs that finished with a report, items lost (collected by the Collector's tool but missing from
the saved state, or reported but never stored), and compares the process's memory (RSS), open files,
threads and child processes at the start and at the end: a leak shows as growth.
"""

from __future__ import annotations

import logging
import os
import resource
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

from research_crawler.config.settings import Settings
from research_crawler.context.store import RunStore
from research_crawler.eval.reliability.faulty_testbed import FaultyTestbed
from research_crawler.eval.testbed import generate_testbed
from research_crawler.report.models import Report
from research_crawler.run.trace import read_trace

__all__ = ["Resources", "SoakResult", "items_lost", "resources", "run_soak"]

logger = logging.getLogger(__name__)



@dataclass
class Resources:
    """What the process holds at one moment."""

    rss_mb: float
    open_files: int
    threads: int
    children: int


@dataclass
class SoakResult:
    queries: int
    finished: int
    items_lost: int
    items_collected: int
    model_faults: int
    network_faults: int
    network_requests: int
    seconds: float
    start: Resources
    after_first: Resources
    end: Resources
    errors: list[str] = field(default_factory=list)


def resources() -> Resources:
    """RSS, open file descriptors, threads and child processes of this process (Linux /proc; else estimates)."""
    rss_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                rss_mb = int(line.split()[1]) / 1024
    except OSError:
        pass
    try:
        open_files = len(os.listdir("/proc/self/fd"))
    except OSError:
        open_files = -1
    return Resources(round(rss_mb, 1), open_files, threading.active_count(), _children())


def _children() -> int:
    me = str(os.getpid())
    count = 0
    try:
        entries = os.listdir("/proc")
    except OSError:
        return -1
    for entry in entries:
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
        except OSError:
            continue
        if stat.rsplit(")", 1)[-1].split()[1] == me:
            count += 1
    return count


def items_lost(report: Report) -> tuple[int, int]:
    """(items lost, items stored) for one finished run: the items the Collector's tool stored against the saved
    state, and the reported items against the saved state."""
    run_dir = Path(report.run_dir or "")
    state = RunStore(run_dir).load()
    stored = {url for web in state.web_contexts.values() for url in web.CP}
    added = 0
    for event in read_trace(run_dir / "trace.jsonl"):
        if event["event"] == "items_stored":
            added += int(event.get("added") or 0)
    missing_reported = sum(1 for item in report.items if item.url not in stored)
    return max(0, added - len(stored)) + missing_reported, len(stored)


def run_soak(
    queries: int,
    *,
    model_fault_rate: float = 0.1,
    network_fault_rate: float = 0.1,
    seed: int = 0,
    runs_dir: Path | None = None,
) -> SoakResult:
    """Run `queries` whole queries one after another and measure what they left behind."""
    from research_crawler.run.session import ResearchSession

    testbed = generate_testbed()
    started = time.monotonic()
    finished = lost = collected = model_faults = 0
    errors: list[str] = []
    with (
        tempfile.TemporaryDirectory(prefix="soak-") as scratch,
        FaultyTestbed(testbed, fault_rate=network_fault_rate, seed=seed) as web,
    ):
        root = runs_dir or Path(scratch)
        # The JavaScript-rendered site needs the browser; the soak measures the HTTP path and the agents.
        plan = [
            (site, query)
            for site in testbed.site_names()
            if testbed.site(site).layout != "js"
            for query in testbed.queries_for(site)
        ]
        start = after_first = resources()
        for number in range(queries):
            if number == 1:  # the first query loads models, encodings and caches once: growth is measured after it
                after_first = resources()
            site, query = plan[(number * 7 + seed) % len(plan)]
            settings = Settings(runs_dir=root / f"q{number:04d}")
            settings.fetch.allowed_hosts = web.allowed_hosts()
            settings.fetch.per_host_delay_s = 0.0
            settings.fetch.backoff_base_s = 0.05
            settings.fetch.backoff_max_s = 0.2
            settings.simulated.fault_rate = model_fault_rate
            settings.simulated.seed = seed * 100_003 + number
            settings.models.backoff_base_s = 0.01
            settings.models.backoff_max_s = 0.02
            settings.rerank.kind = "bm25"
            try:
                report = ResearchSession(settings, backend="simulated").run(query.text, sites=[web.base_url(site)])
                lost_here, stored = items_lost(report)
                finished += 1
                lost += lost_here
                collected += stored
                model_faults += sum(
                    count
                    for kind, count in report.stats.faults.items()
                    if kind not in ("tool_errors", "model_call_failures")
                )
            except Exception as exc:
                errors.append(f"query {number} ({site}): {type(exc).__name__}: {str(exc)[:200]}")
                logger.exception("soak query %d failed", number)
        end = resources()
    return SoakResult(
        queries=queries,
        finished=finished,
        items_lost=lost,
        items_collected=collected,
        model_faults=model_faults,
        network_faults=sum(web.faults.values()),
        network_requests=web.requests,
        seconds=round(time.monotonic() - started, 1),
        start=start,
        after_first=after_first,
        end=end,
        errors=errors,
    )
