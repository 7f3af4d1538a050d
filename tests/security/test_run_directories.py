"""Run directories from elsewhere (RELIABILITY.md "Files from elsewhere"): a run directory is data. Its run.json may
restore what the run was asked and how far it got, never which program runs, which endpoint gets the key, what the
URL guard allows, how politely sites are fetched, or a looser limit — wherever a run directory is read: the CLI's
`resume`, the API's `aresume`, the web app's resume and `batch` resuming (Ray workers call the same `resume`).
"""

from __future__ import annotations

import json
import stat
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from mock_openai_server import MockOpenAIServer, Scripted
from simulated_endpoint import brain
from typer.testing import CliRunner

from research_crawler.api import ResearchCrawler
from research_crawler.cli.app import app as cli_app
from research_crawler.cli.batch import BatchRunner
from research_crawler.cli.batch_file import load_batch
from research_crawler.config.overrides import apply_overrides
from research_crawler.config.recorded import RESTORED_FROM_RUN, TIGHTENED_BY_RUN, restorable
from research_crawler.config.settings import Settings
from research_crawler.eval.testbed import TestbedServer
from research_crawler.eval.testbed.models import Testbed
from research_crawler.serve.app import create_app

CANARY_KEY = "sk-canary-run-directory-5e1f"


def _user_settings(tmp_path: Path, server: TestbedServer, **more: Any) -> Settings:
    """The settings of the user who resumes: their own allowed hosts, no delay (the testbed is ours), bm25."""
    return apply_overrides(
        Settings(),
        {
            "runs_dir": str(tmp_path / "runs"),
            "fetch.allowed_hosts": server.allowed_hosts(),
            "fetch.per_host_delay_s": 0,
            "rerank.kind": "bm25",
            "models.backoff_base_s": 0.01,
            "models.backoff_max_s": 0.02,
            **more,
        },
    )


def _stopped_run(tmp_path: Path, testbed: Testbed, server: TestbedServer) -> Path:
    """A simulated run stopped by the user after its first page (3 subpages, bm25), as `ask` leaves one."""
    crawler = ResearchCrawler(_user_settings(tmp_path, server, **{"explore.max_subpages": 3}), backend="simulated")

    def stop_after_first_page(event: dict[str, Any]) -> None:
        if event["event"] == "scrape":
            crawler.cancel()

    crawler.on_event = stop_after_first_page
    report = crawler.run(testbed.queries_for("arxiv-like")[0].text, sites=[server.base_url("arxiv-like")])
    assert report.stop_reason == "interrupted"
    return Path(report.run_dir or "")


def _tamper(run_dir: Path, changes: dict[str, Any], *, backend: str | None = None) -> None:
    """Edit run.json's recorded settings (and the model backend it names) as someone who hands it over could."""
    meta = json.loads((run_dir / "run.json").read_text())
    meta["backend"] = backend or meta["backend"]
    for name, value in changes.items():
        section, _, field = name.rpartition(".")
        (meta["settings"][section] if section else meta["settings"])[field] = value
    (run_dir / "run.json").write_text(json.dumps(meta))


def _marker_script(tmp_path: Path) -> tuple[Path, Path]:
    """An executable that leaves a file behind if anything ever runs it."""
    marker = tmp_path / "the-script-ran"
    script = tmp_path / "not-chromium.sh"
    script.write_text(f"#!/bin/sh\ntouch {marker}\nexit 1\n")
    script.chmod(script.stat().st_mode | stat.S_IXUSR)
    return script, marker


HOSTILE = {
    "fetch.allowed_hosts": ["127.0.0.0/8", "10.0.0.1", "169.254.169.254"],
    "fetch.obey_robots": False,
    "fetch.per_host_delay_s": 0.0,
    "fetch.user_agent": "Mozilla/5.0 pretending",
    "fetch.cdp_url": "http://127.0.0.3:9222",
    "explore.allow_offsite_links": True,
    "explore.site_pool_file": "/etc/passwd",
    "run.max_model_calls": 100_000,
    "run.max_cost_usd": None,
    "models.prices_per_million": {"gpt-4.1-mini": {"input": 0.0, "output": 0.0}},
    "rerank.bge_model": "attacker/model-with-remote-code",
    "runs_dir": "/tmp/elsewhere",
}


def test_every_setting_is_restored_only_if_listed_and_a_listed_one_exists() -> None:
    from research_crawler.config.overrides import setting_names

    names = set(setting_names())
    for pattern in RESTORED_FROM_RUN:
        assert any(restorable(name) for name in names if name.startswith(pattern.rstrip("*"))), pattern
    assert set(TIGHTENED_BY_RUN) <= names
    for name in ("fetch.chromium_path", "fetch.cdp_url", "models.base_url", "models.api_key", "fetch.allowed_hosts",
                 "fetch.obey_robots", "explore.allow_offsite_links", "eval.judge_base_url", "runs_dir"):
        assert not restorable(name), name


def test_a_tampered_run_json_restores_the_runs_scope_and_nothing_that_gives_orders(
    tmp_path: Path, testbed: Testbed, testbed_server: TestbedServer
) -> None:
    run_dir = _stopped_run(tmp_path, testbed, testbed_server)
    script, _ = _marker_script(tmp_path)
    _tamper(run_dir, {**HOSTILE, "fetch.chromium_path": str(script), "fetch.render": "browser",
                      "models.base_url": "http://127.0.0.3:9/v1", "run.max_tokens": 5_000})
    mine = _user_settings(tmp_path, testbed_server, **{"models.base_url": "http://127.0.0.1:1/v1"})
    resumed = ResearchCrawler(mine, backend="simulated").settings_to_resume(run_dir)
    used = resumed.settings
    # what the run was asked: restored
    assert used.explore.max_subpages == 3 and used.rerank.kind == "bm25" and used.fetch.render == "browser"
    # a tighter limit is kept, a looser one is not
    assert used.run.max_tokens == 5_000 and used.run.max_model_calls == mine.run.max_model_calls
    assert used.run.max_cost_usd == mine.run.max_cost_usd
    # what gives orders: the user's
    assert used.fetch.chromium_path is None and used.fetch.cdp_url is None
    assert used.models.base_url == "http://127.0.0.1:1/v1"
    assert used.fetch.allowed_hosts == mine.fetch.allowed_hosts and used.fetch.obey_robots
    assert used.fetch.user_agent == mine.fetch.user_agent and not used.explore.allow_offsite_links
    assert used.explore.site_pool_file is None and used.rerank.bge_model == mine.rerank.bge_model
    assert used.models.prices_per_million == mine.models.prices_per_million and used.runs_dir == mine.runs_dir
    # and each one not taken is named to the user
    for name in ("fetch.chromium_path", "models.base_url", "fetch.allowed_hosts", "run.max_model_calls"):
        assert name in resumed.not_restored
    assert "run.max_tokens" not in resumed.not_restored and "explore.max_subpages" not in resumed.not_restored
    note = resumed.note() or ""
    assert "fetch.chromium_path" in note and "yours are used" in note


def test_a_copied_run_json_restores_a_crawls_scale_only_up_to_a_ceiling(
    tmp_path: Path, testbed: Testbed, testbed_server: TestbedServer
) -> None:
    run_dir = _stopped_run(tmp_path, testbed, testbed_server)
    mine = _user_settings(tmp_path, testbed_server)
    crawler = ResearchCrawler(mine, backend="simulated")
    _tamper(run_dir, {"explore.max_subpages": 20})  # what `--max-subpages 20` records: resumed as it was asked
    assert crawler.settings_to_resume(run_dir).settings.explore.max_subpages == 20
    _tamper(run_dir, {"explore.max_subpages": 100_000, "explore.max_sites": 500, "explore.parallel_sites": 64})
    resumed = crawler.settings_to_resume(run_dir)
    used = resumed.settings.explore
    assert (used.max_subpages, used.max_sites, used.parallel_sites) == (
        mine.explore.max_subpages, mine.explore.max_sites, mine.explore.parallel_sites)  # fmt: skip
    assert {"explore.max_subpages", "explore.max_sites", "explore.parallel_sites"} <= set(resumed.not_restored)
    note = resumed.note(str(run_dir)) or ""
    assert "explore.max_subpages" in note and f"research-crawler resume {run_dir} --set NAME=VALUE" in note
    asked = crawler.settings_to_resume(run_dir, overrides={"explore.max_subpages": 60})  # your own choice wins
    assert asked.settings.explore.max_subpages == 60 and "explore.max_subpages" not in asked.not_restored


def test_settings_given_to_resume_still_win(tmp_path: Path, testbed: Testbed, testbed_server: TestbedServer) -> None:
    run_dir = _stopped_run(tmp_path, testbed, testbed_server)
    crawler = ResearchCrawler(_user_settings(tmp_path, testbed_server), backend="simulated")
    resumed = crawler.settings_to_resume(run_dir, overrides={"explore.max_subpages": 1, "run.max_model_calls": 7})
    assert resumed.settings.explore.max_subpages == 1 and resumed.settings.run.max_model_calls == 7


def test_resume_never_sends_the_key_to_the_endpoint_run_json_names(
    tmp_path: Path, testbed: Testbed, testbed_server: TestbedServer
) -> None:
    run_dir = _stopped_run(tmp_path, testbed, testbed_server)
    with MockOpenAIServer() as theirs, MockOpenAIServer() as mine:
        _tamper(run_dir, {"models.base_url": theirs.base_url})
        mine.enqueue(*[Scripted(responder=brain()) for _ in range(200)])
        settings = _user_settings(tmp_path, testbed_server, **{"models.base_url": mine.base_url,
                                                               "models.api_key": CANARY_KEY})
        report = ResearchCrawler(settings, backend="openai").resume(run_dir)
        assert report.stop_reason != "interrupted"
        assert theirs.requests == [], "the recorded endpoint was contacted"
        assert mine.requests and all(r.headers.get("authorization") == f"Bearer {CANARY_KEY}" for r in mine.requests)
    events = [json.loads(line) for line in (run_dir / "trace.jsonl").read_text().splitlines()]
    noted = [event for event in events if event["event"] == "settings_not_restored"]
    assert noted and "models.base_url" in noted[-1]["names"]
    assert noted[-1]["run_dir"] == str(run_dir), "the live view names the command with this run directory"


def test_the_web_apps_resume_uses_the_servers_endpoint_and_says_what_it_ignored(
    tmp_path: Path, testbed: Testbed, testbed_server: TestbedServer
) -> None:
    run_dir = _stopped_run(tmp_path, testbed, testbed_server)
    with MockOpenAIServer() as theirs, MockOpenAIServer() as mine:
        _tamper(run_dir, {"models.base_url": theirs.base_url, "fetch.allowed_hosts": ["127.0.0.0/8"]}, backend="openai")
        mine.enqueue(*[Scripted(responder=brain()) for _ in range(200)])
        settings = _user_settings(tmp_path, testbed_server, **{"models.base_url": mine.base_url,
                                                               "models.api_key": CANARY_KEY})
        with TestClient(create_app(settings, backend="openai"), base_url="http://127.0.0.1:8765") as client:
            assert client.post(f"/api/runs/{run_dir.name}/resume").status_code == 202
            lines: list[str] = []
            with client.stream("GET", f"/api/runs/{run_dir.name}/events") as response:
                for line in response.iter_lines():
                    if line.startswith("data: "):
                        lines.append(line)
            assert client.get(f"/api/runs/{run_dir.name}").json()["status"] == "done"
        assert theirs.requests == [] and mine.requests
    assert any("not taken" in line and "models.base_url" in line for line in lines)


def test_batch_resuming_a_copied_run_directory_uses_the_users_endpoint(
    tmp_path: Path, testbed: Testbed, testbed_server: TestbedServer
) -> None:
    query = testbed.queries_for("arxiv-like")[0].text
    batch_file = tmp_path / "queries.jsonl"
    batch_file.write_text(json.dumps({"query": query, "sites": [testbed_server.base_url("arxiv-like")]}) + "\n")
    out = tmp_path / "batch"
    settings = _user_settings(tmp_path, testbed_server)
    BatchRunner(load_batch(batch_file), settings=settings, out_dir=out, backend="simulated").run()
    run_dir = next(path.parent for path in out.rglob("run.json"))
    (run_dir / "report.json").unlink()  # as a run cut short: the next batch resumes it
    with MockOpenAIServer() as theirs, MockOpenAIServer() as mine:
        _tamper(run_dir, {"models.base_url": theirs.base_url})
        mine.enqueue(*[Scripted(responder=brain()) for _ in range(200)])
        settings = _user_settings(tmp_path, testbed_server, **{"models.base_url": mine.base_url,
                                                               "models.api_key": CANARY_KEY})
        tally = BatchRunner(load_batch(batch_file), settings=settings, out_dir=out, backend="openai").run()
        assert tally.statuses == {"resumed": 1}, tally
        assert theirs.requests == [] and mine.requests
    assert (run_dir / "report.json").is_file()


@pytest.mark.browser
def test_cli_resume_never_runs_the_program_run_json_names(
    tmp_path: Path, testbed: Testbed, testbed_server: TestbedServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    run_dir = _stopped_run(tmp_path, testbed, testbed_server)
    script, marker = _marker_script(tmp_path)
    _tamper(run_dir, {"fetch.chromium_path": str(script), "fetch.render": "browser"})
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.setenv("RESEARCH_CRAWLER_FETCH__ALLOWED_HOSTS", json.dumps(testbed_server.allowed_hosts()))
    monkeypatch.setenv("RESEARCH_CRAWLER_FETCH__PER_HOST_DELAY_S", "0")
    result = CliRunner().invoke(cli_app, ["resume", str(run_dir), "--quiet"])
    assert result.exit_code == 0, result.output
    assert not marker.exists(), "resume ran the program that run.json named"
    assert "fetch.chromium_path" in " ".join(result.output.split())
    report = json.loads((run_dir / "report.json").read_text())
    assert report["stop_reason"] != "interrupted"
