"""Catalogue cases of run directories from elsewhere: a run.json tampered by whoever handed the directory over names
a program, a model endpoint, a wider URL allow-list and looser limits. `resume` restores what the run was asked,
and takes the program, the endpoint, the key, the guard and the limits from the user's own settings."""

from __future__ import annotations

import json
import stat
import tempfile
from pathlib import Path
from typing import Any

from research_crawler.api import ResearchCrawler
from research_crawler.config.overrides import apply_overrides
from research_crawler.config.settings import Settings
from research_crawler.errors import ResearchCrawlerError
from research_crawler.eval.reliability.catalogue import Outcome, case
from research_crawler.eval.reliability.fault_web import FaultServer, Reply
from research_crawler.eval.reliability.run_cases import testbed_settings, testbed_web
from research_crawler.eval.testbed import TestbedServer, generate_testbed

_GROUP = "run directories from elsewhere"
_KEY = "sk-canary-copied-run-0b7c"


def _stopped_run(server: TestbedServer, runs_dir: Path) -> Path:
    """A simulated run stopped after its first page, as a killed `ask` leaves one."""
    crawler = ResearchCrawler(testbed_settings(server, runs_dir), backend="simulated")

    def stop(event: dict[str, Any]) -> None:
        if event["event"] == "scrape":
            crawler.cancel()

    crawler.on_event = stop
    query = generate_testbed().queries_for("arxiv-like")[0].text
    report = crawler.run(query, sites=[server.base_url("arxiv-like")])
    return Path(report.run_dir or "")


def _tamper(run_dir: Path, changes: dict[str, Any], *, backend: str = "openai") -> None:
    meta = json.loads((run_dir / "run.json").read_text())
    meta["backend"] = backend
    for name, value in changes.items():
        section, _, field = name.rpartition(".")
        meta["settings"][section][field] = value
    (run_dir / "run.json").write_text(json.dumps(meta))


@case(_GROUP, "run.json naming a program, an endpoint, a wider allow-list: none of it is used, each one named")
def _orders_ignored() -> Outcome:
    with tempfile.TemporaryDirectory() as tmp, testbed_web() as server, FaultServer() as theirs, FaultServer() as mine:
        mine.route("/v1/chat/completions", Reply(500, '{"error": {"message": "down"}}', content_type="text/json"))
        run_dir = _stopped_run(server, Path(tmp) / "runs")
        marker = Path(tmp) / "the-program-ran"
        program = Path(tmp) / "not-chromium"
        program.write_text(f"#!/bin/sh\ntouch {marker}\n")
        program.chmod(program.stat().st_mode | stat.S_IXUSR)
        _tamper(run_dir, {
            "fetch.chromium_path": str(program), "fetch.render": "browser", "models.base_url": theirs.url("/v1"),
            "fetch.allowed_hosts": ["127.0.0.0/8", "169.254.169.254"], "fetch.obey_robots": False,
            "run.max_model_calls": 100_000,
        })  # fmt: skip
        settings = apply_overrides(
            testbed_settings(server, Path(tmp) / "runs"),
            {"models.base_url": mine.url("/v1"), "models.api_key": _KEY, "models.max_retries": 0},
        )
        crawler = ResearchCrawler(settings, backend="openai")
        resumed = crawler.settings_to_resume(run_dir)
        try:
            crawler.resume(run_dir)
        except ResearchCrawlerError as exc:  # the user's endpoint is down here: the run may end with it
            detail = f"resume ended: {exc}; "
        else:
            detail = ""
        keys = {hit.headers.get("authorization", hit.headers.get("Authorization")) for hit in mine.hits}
        named = {"fetch.chromium_path", "models.base_url", "fetch.allowed_hosts", "fetch.obey_robots"}
        held = (
            not marker.exists()
            and theirs.hit_count == 0
            and bool(mine.hits)
            and keys == {f"Bearer {_KEY}"}
            and named <= set(resumed.not_restored)
            and resumed.settings.run.max_model_calls == settings.run.max_model_calls
        )
        return Outcome(
            held,
            f"{detail}program ran: {marker.exists()}; their endpoint's requests: {theirs.hit_count}; the user's: "
            f"{len(mine.hits)}; named to the user: {', '.join(resumed.not_restored)}",
            canary_hits=theirs.hit_count,
        )


@case(_GROUP, "what the run was asked (subpages, reranker, flow) and a tighter limit are restored")
def _scope_restored() -> Outcome:
    with tempfile.TemporaryDirectory() as tmp, testbed_web() as server:
        run_dir = _stopped_run(server, Path(tmp) / "runs")
        _tamper(run_dir, {"explore.max_subpages": 2, "run.max_tokens": 4_000, "run.scrape_concurrently": False},
                backend="simulated")  # fmt: skip
        mine = apply_overrides(Settings(runs_dir=Path(tmp) / "runs"), {"fetch.allowed_hosts": server.allowed_hosts()})
        resumed = ResearchCrawler(mine, backend="simulated").settings_to_resume(run_dir)
        used = resumed.settings
        held = (
            used.explore.max_subpages == 2
            and used.rerank.kind == "bm25"
            and used.run.max_tokens == 4_000
            and not used.run.scrape_concurrently
            and not {"explore.max_subpages", "run.max_tokens", "run.scrape_concurrently"} & set(resumed.not_restored)
        )
        return Outcome(held, f"subpages {used.explore.max_subpages}, reranker {used.rerank.kind}, tokens "
                             f"{used.run.max_tokens}; not restored: {list(resumed.not_restored)}")  # fmt: skip
