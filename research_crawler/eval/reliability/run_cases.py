"""Catalogue cases of whole runs: crash and resume (SIGKILL, SIGINT, a torn state file, a kill during a report
write) and model faults (the simulated model's injected faults), on the testbed with the simulated model."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from research_crawler.config.settings import Settings
from research_crawler.context.store import RunStore
from research_crawler.errors import ResearchCrawlerError
from research_crawler.eval.reliability.catalogue import Outcome, case
from research_crawler.eval.reliability.soak import items_lost
from research_crawler.eval.testbed import TestbedServer, generate_testbed
from research_crawler.run.trace import read_trace

__all__ = ["testbed_settings", "testbed_web"]

_SITE = "arxiv-like"
_RUN = """
import sys
from pathlib import Path
from research_crawler.run.session import ResearchSession
from research_crawler.config.settings import Settings
ResearchSession(Settings(), backend="simulated").run(sys.argv[1], sites=[sys.argv[2]], run_dir=Path(sys.argv[3]))
"""
_WRITER = """
import sys
from pathlib import Path
from research_crawler.context.durable_files import atomic_write_text
path, n = Path(sys.argv[1]), 0
while True:
    n += 1
    atomic_write_text(path, (f"version {n}\\n" * 20000) + "end")
"""


@contextmanager
def testbed_web() -> Iterator[TestbedServer]:
    with TestbedServer(generate_testbed(), slow_seconds=0.3) as server:
        yield server


def testbed_settings(server: TestbedServer, runs_dir: Path) -> Settings:
    settings = Settings(runs_dir=runs_dir)
    settings.fetch.allowed_hosts = server.allowed_hosts()
    settings.fetch.per_host_delay_s = 0.0
    settings.rerank.kind = "bm25"
    settings.models.backoff_base_s = 0.01
    settings.models.backoff_max_s = 0.02
    return settings


def _start_run(server: TestbedServer, run_dir: Path, query: str) -> subprocess.Popen[bytes]:
    env = {
        **os.environ,
        "RESEARCH_CRAWLER_FETCH__PER_HOST_DELAY_S": "0",
        "RESEARCH_CRAWLER_FETCH__ALLOWED_HOSTS": json.dumps(server.allowed_hosts()),
        "RESEARCH_CRAWLER_SIMULATED__LATENCY_S": "0.15",
        "RESEARCH_CRAWLER_RERANK__KIND": "bm25",
        "RESEARCH_CRAWLER_RUNS_DIR": str(run_dir.parent / "runs"),
    }
    return subprocess.Popen(
        [sys.executable, "-c", _RUN, query, server.base_url(_SITE), str(run_dir)],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )


def _wait_for_items(trace: Path, process: subprocess.Popen[bytes], timeout_s: float = 60) -> bool:
    """Wait until the run has fetched two pages and stored at least one item: then a stop can lose something."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline and process.poll() is None:
        if trace.exists():
            events = read_trace(trace)
            fetched = sum(event["event"] == "fetch" for event in events)
            stored = any(event["event"] == "items_stored" and event.get("added") for event in events)
            if fetched >= 2 and stored:
                return True
        time.sleep(0.05)
    return False


def _stop_and_resume(sig: signal.Signals, *, second_signal: bool = False) -> Outcome:
    from research_crawler.run.session import ResearchSession

    with testbed_web() as server, tempfile.TemporaryDirectory(prefix="resume-") as scratch:
        query = server.testbed.queries_for(_SITE)[2].text
        run_dir = Path(scratch) / "run"
        run_dir.mkdir()
        process = _start_run(server, run_dir, query)
        try:
            if not _wait_for_items(run_dir / "trace.jsonl", process):
                stderr = process.stderr.read().decode()[-300:] if process.stderr else ""
                return Outcome(False, f"the run ended or stalled before it could be stopped: {stderr}")
            process.send_signal(sig)
            stopped_at = time.monotonic()
            if second_signal:
                time.sleep(0.2)
                if process.poll() is None:
                    process.send_signal(sig)
            process.wait(timeout=30)
            exit_s = time.monotonic() - stopped_at
        finally:
            if process.poll() is None:
                process.kill()
        before = RunStore(run_dir).load()
        items_before = {url for web in before.web_contexts.values() for url in web.CP}
        report = asyncio.run(
            ResearchSession(testbed_settings(server, Path(scratch) / "runs"), backend="simulated").aresume(run_dir)
        )
        after = RunStore(run_dir).load()
        items_after = {url for web in after.web_contexts.values() for url in web.CP}
        counts = Counter(hit.path for hit in server.hits(_SITE) if not hit.path.startswith("/robots.txt"))
    lost = len(items_before - items_after)
    refetched = sum(count - 1 for count in counts.values() if count > 1)
    most = max(counts.values(), default=0)
    held = lost == 0 and most <= 2 and bool(after.search.gamma) and bool(report.markdown)
    detail = f"{len(items_before)} items before, {len(items_after)} after; stopped in {exit_s:.1f} s; "
    detail += f"most fetches of one page: {most}"
    return Outcome(held, detail, items_lost=lost, refetched=refetched)


@case("crash and resume", "SIGKILL mid-run, then resume: every item kept, pages fetched at most once more")
def _sigkill() -> Outcome:
    return _stop_and_resume(signal.SIGKILL)


@case("crash and resume", "SIGINT (twice) mid-run: state flushed, quick exit, resume keeps every item")
def _sigint() -> Outcome:
    return _stop_and_resume(signal.SIGINT, second_signal=True)


@case("crash and resume", "a truncated state file gives a clear error, never a partial resume")
def _truncated_state() -> Outcome:
    from research_crawler.run.session import ResearchSession

    with testbed_web() as server, tempfile.TemporaryDirectory(prefix="torn-") as scratch:
        settings = testbed_settings(server, Path(scratch) / "runs")
        report = ResearchSession(settings, backend="simulated").run(
            server.testbed.queries_for(_SITE)[0].text, sites=[server.base_url(_SITE)]
        )
        run_dir = Path(report.run_dir or "")
        state = RunStore(run_dir).state_path
        state.write_bytes(state.read_bytes()[: state.stat().st_size // 2])
        try:
            asyncio.run(ResearchSession(settings, backend="simulated").aresume(run_dir))
        except ResearchCrawlerError as exc:
            return Outcome(
                "truncated" in str(exc) or "not valid JSON" in str(exc), f"{type(exc).__name__}: {exc}"[:200]
            )
    return Outcome(False, "a truncated state file was resumed without an error")


@case("crash and resume", "killed during a report write: the old or the new file, never a torn one")
def _killed_write() -> Outcome:
    torn = 0
    with tempfile.TemporaryDirectory(prefix="write-") as scratch:
        path = Path(scratch) / "report.md"
        for attempt in range(6):
            process = subprocess.Popen([sys.executable, "-c", _WRITER, str(path)], stderr=subprocess.DEVNULL)
            time.sleep(0.6 + 0.11 * attempt)
            process.kill()
            process.wait()
            if path.exists():
                text = path.read_text(encoding="utf-8")
                lines = text.split("\n")
                whole = text.endswith("end") and len(lines) == 20001 and len(set(lines[:-1])) == 1
                torn += not whole
    return Outcome(torn == 0, f"{torn} torn file(s) in 6 kills")


# -- model faults ----------------------------------------------------------------------------------------


def _faulty_run(**simulated: object) -> Outcome:
    from research_crawler.run.session import ResearchSession

    with testbed_web() as server, tempfile.TemporaryDirectory(prefix="faults-") as scratch:
        settings = testbed_settings(server, Path(scratch) / "runs")
        for name, value in simulated.items():
            setattr(settings.simulated, name, value)
        report = ResearchSession(settings, backend="simulated").run(
            server.testbed.queries_for(_SITE)[1].text, sites=[server.base_url(_SITE)]
        )
        lost, stored = items_lost(report)
        trace = read_trace(Path(report.run_dir or "") / "trace.jsonl")
    injected = {k: v for k, v in report.stats.faults.items() if k not in ("tool_errors", "model_call_failures")}
    # An unknown call is caught by the model client and asked again: it is never dispatched to a tool.
    refused = [e for e in trace if e["event"] == "model_call" and "not one of its tools" in str(e.get("error"))]
    dispatched = [e for e in trace if e["event"] == "tool_call" and e.get("tool") == "open_url"]
    held = bool(report.markdown) and lost == 0 and sum(injected.values()) > 0
    detail = f"faults {injected}; {stored} items stored, {lost} lost; stop {report.stop_reason}"
    if simulated.get("fault_kinds") == ["unknown_tool"]:
        held = held and bool(refused) and not dispatched
        detail += f"; {len(refused)} unknown calls asked again, {len(dispatched)} dispatched"
    return Outcome(held, detail, items_lost=lost)


@case("model faults", "malformed JSON, bad link numbers, empty replies and API errors: no crash, nothing lost")
def _mixed_faults() -> Outcome:
    return _faulty_run(fault_rate=0.3, seed=5)


@case("model faults", "unknown tools are caught and asked again, never dispatched")
def _unknown_tools() -> Outcome:
    return _faulty_run(fault_rate=0.4, seed=2, fault_kinds=["unknown_tool"])


@case("model faults", "persistent API errors end the run with a report and the state kept")
def _api_errors() -> Outcome:
    return _faulty_run(fault_rate=0.9, seed=1, fault_kinds=["api_error"])
