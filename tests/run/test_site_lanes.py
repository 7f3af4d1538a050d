"""Sites explored in parallel save consistent snapshots: every state.json written while the lanes change their Web
Contexts (a save after every change) loads back with its invariants whole."""

from __future__ import annotations

import json
import sys
import threading
from pathlib import Path

import pytest

from research_crawler.config.settings import Settings
from research_crawler.context import store as store_module
from research_crawler.context.store import STATE_FILE, RunStore
from research_crawler.eval.testbed import TestbedServer
from research_crawler.run.session import ResearchSession

SITES = ["arxiv-like", "biorxiv-like", "journal-like", "repo-like"]


def test_every_state_saved_by_parallel_lanes_loads_back(
    tmp_path: Path, testbed_server: TestbedServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    settings = Settings(runs_dir=tmp_path / "runs")
    settings.fetch.allowed_hosts = testbed_server.allowed_hosts()
    settings.fetch.per_host_delay_s = 0.0
    settings.rerank.kind = "bm25"
    settings.explore.parallel_sites = len(SITES)
    settings.explore.max_subpages = 12
    saved: list[str] = []
    failures: list[str] = []
    checking = threading.Lock()
    real_write = store_module.atomic_write_text

    def write_and_check(path: Path, text: str) -> None:
        real_write(path, text)
        if path.name != STATE_FILE:
            return
        with checking:
            saved.append(text)
            try:
                for web in RunStore(path.parent).load().web_contexts.values():
                    web.check_invariants()
            except Exception as exc:  # every way a save can fail to load is a failure here
                failures.append(f"save {len(saved)}: {exc}")

    monkeypatch.setattr(store_module, "atomic_write_text", write_and_check)
    # Threads switch every microsecond instead of every 5 ms: a save that can meet a half-made change meets one.
    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    try:
        for round_number in range(4):
            report = ResearchSession(settings, backend="simulated").run(
                "find papers on graph neural networks",
                sites=[testbed_server.base_url(site) for site in SITES],
                run_dir=tmp_path / f"run-{round_number}",
            )
            assert report.items
    finally:
        sys.setswitchinterval(interval)
    assert len(saved) > 100, len(saved)
    assert not failures, f"{len(failures)} of {len(saved)} saves did not load: {failures[:3]}"
    last = json.loads(saved[-1])
    assert set(last["web_contexts"]) == {testbed_server.base_url(site) for site in SITES}
