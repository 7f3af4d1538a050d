"""The installed command as a user runs it: `python -m research_crawler` in a separate process, offline."""

from __future__ import annotations

import json
import signal
import subprocess
import time
from pathlib import Path

import pytest
from cli_helpers import CORE_INSTALL, INSTALLED, PYTHON, RUN_FILES, allow, run_cli, subprocess_env

from research_crawler.eval.testbed import TestbedServer
from research_crawler.eval.testbed.models import Testbed
from research_crawler.report.models import Report


def test_demo_runs_offline_and_says_the_model_was_simulated(tmp_path: Path) -> None:
    done = run_cli(tmp_path, "demo")
    assert done.returncode == 0, done.stderr[-3000:]
    assert "The model is SIMULATED" in done.stdout
    assert "The model was simulated" in done.stdout
    assert "Made with the simulated model" in done.stdout  # report.md's own note
    assert "known answers" in done.stdout
    (run_dir,) = (tmp_path / "runs").iterdir()
    report = Report.model_validate_json((run_dir / "report.json").read_text())
    assert report.simulated_model and report.items
    assert all(item.url.startswith("http://127.0.0.1:") for item in report.items), "the demo left loopback"
    assert "Exploring http://127.0.0.1" in done.stderr, "no progress was shown"


@pytest.mark.parametrize("launcher", [INSTALLED, CORE_INSTALL], ids=["installed", "core-install"])
def test_ask_json_in_a_subprocess(
    tmp_path: Path, testbed: Testbed, testbed_server: TestbedServer, launcher: tuple[str, ...]
) -> None:
    # A core install (no serve or eval extra: tests/cli/test_core_install.py) runs `ask` just the same.
    out = tmp_path / "run"
    done = run_cli(
        tmp_path, "ask", testbed.queries_for("biorxiv-like")[0].text, "--site", testbed_server.base_url("biorxiv-like"),
        "--model", "simulated", "--json", "--out", str(out), launcher=launcher, **allow(testbed_server),
    )
    assert done.returncode == 0, done.stderr[-3000:]
    report = Report.model_validate(json.loads(done.stdout))
    assert report.items and report.run_dir == str(out)
    assert all(item.url.startswith(testbed_server.base_url("biorxiv-like")) for item in report.items)
    assert all((out / name).exists() for name in RUN_FILES)
    assert done.stderr == "", "with --json and no terminal nothing but the report is printed"


def test_exit_codes_and_messages_of_errors(tmp_path: Path) -> None:
    usage = run_cli(tmp_path, "ask")
    assert usage.returncode == 2 and "Missing argument" in usage.stderr

    no_key = run_cli(tmp_path, "ask", "graph neural networks")
    assert no_key.returncode == 1
    assert no_key.stderr.startswith("error: no model endpoint is configured")
    assert "--model simulated" in no_key.stderr and "Traceback" not in no_key.stderr

    bad_file = tmp_path / "research-crawler.toml"
    bad_file.write_text("[explore]\nmax_subpages = 'soon'\n", encoding="utf-8")
    bad = run_cli(tmp_path, "config", "show")
    assert bad.returncode == 1 and "explore.max_subpages" in bad.stderr and "Traceback" not in bad.stderr

    bad_file.unlink()
    unknown_site = run_cli(tmp_path, "demo", "--site", "nowhere-like")
    assert unknown_site.returncode == 1 and "unknown testbed site 'nowhere-like'" in unknown_site.stderr


def test_models_download_is_wired(tmp_path: Path) -> None:
    # Offline, the download cannot succeed: the command must say why in one line, never with a traceback.
    done = run_cli(tmp_path, "models", "download", HF_HUB_OFFLINE="1", RESEARCH_CRAWLER_RERANK__BGE_MODEL="org/absent")
    assert done.returncode == 1, done.stdout + done.stderr
    assert done.stderr.startswith("error:") and "Traceback" not in done.stderr


def test_one_ctrl_c_stops_ask_with_the_command_that_continues_it(
    tmp_path: Path, testbed: Testbed, testbed_server: TestbedServer
) -> None:
    out = tmp_path / "run"
    env = subprocess_env(tmp_path, RESEARCH_CRAWLER_SIMULATED__LATENCY_S="0.3", **allow(testbed_server))
    child = subprocess.Popen(
        [PYTHON, "-m", "research_crawler", "ask", testbed.queries_for("arxiv-like")[0].text, "--site",
         testbed_server.base_url("arxiv-like"), "--model", "simulated", "--out", str(out)],
        cwd=tmp_path, env=env,
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, stdin=subprocess.DEVNULL,
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 120
        while not (out / "trace.jsonl").exists() or "fetch" not in (out / "trace.jsonl").read_text():
            assert child.poll() is None and time.monotonic() < deadline, "the run ended before it could be stopped"
            time.sleep(0.05)
        child.send_signal(signal.SIGINT)  # one Ctrl-C: the search stops, the report is written
        _, errors = child.communicate(timeout=120)
    finally:
        if child.poll() is None:
            child.kill()
    assert child.returncode == 130, errors[-2000:]
    last = errors.strip().splitlines()[-1]
    assert last == f"Stopped before its end (the report holds what was collected); continue with: research-crawler " \
        f"resume {out}"  # fmt: skip
    assert Report.model_validate_json((out / "report.json").read_text()).stop_reason == "interrupted"
    resumed = run_cli(tmp_path, "resume", str(out), "--model", "simulated", **allow(testbed_server))
    assert resumed.returncode == 0, resumed.stderr[-2000:]
    assert Report.model_validate_json((out / "report.json").read_text()).stop_reason != "interrupted"
