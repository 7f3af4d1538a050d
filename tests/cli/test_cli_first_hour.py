"""The first hour of a new user, through the command line: a site that cannot be opened ends at once with its
real reason and the exact fix; a list setting takes commas; resume remembers the run's settings; every run
command takes the same run options."""

from __future__ import annotations

import json
import socket
from pathlib import Path

import pytest
from typer.testing import CliRunner

from research_crawler.cli.app import app
from research_crawler.eval.testbed import TestbedServer
from research_crawler.eval.testbed.models import Testbed
from research_crawler.run.trace import read_trace

runner = CliRunner()
RUN_OPTIONS = ("--model", "--reranker", "--max-subpages", "--parallel-sites", "--item-kind", "--preset")


def _one_line_error(output: str) -> str:
    lines = [line for line in output.splitlines() if line.startswith("error:")]
    assert len(lines) == 1 and "Traceback" not in output, output
    return lines[0]


def _unused_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def test_a_refused_host_fails_at_once_with_the_set_that_allows_it(
    home: Path, testbed: Testbed, testbed_server: TestbedServer, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.delenv("RESEARCH_CRAWLER_FETCH__ALLOWED_HOSTS")  # as a new user has it: loopback refused
    site = testbed_server.base_url("arxiv-like")
    out = tmp_path / "refused"
    query = testbed.queries_for("arxiv-like")[0].text
    result = runner.invoke(app, ["ask", query, "--site", site, "--model", "simulated", "--out", str(out)])
    assert result.exit_code == 1, result.output
    error = _one_line_error(result.output)
    host = site.removeprefix("http://").rstrip("/")
    assert "refused by the URL guard" in error and f"--set fetch.allowed_hosts={host}" in error, error
    assert "stuck" not in result.output and "reviewed 3 times" not in result.output
    events = read_trace(out / "trace.jsonl")
    calls = [e.get("agent") for e in events if e["event"] == "model_call"]
    assert "WebSelector" in calls, calls  # the request was read; no agent of the site was asked anything
    assert not {"Planner", "Crawler", "Collector", "Supervisor"} & set(calls), calls
    report = json.loads((out / "report.json").read_text())
    assert [s["reason"] for s in report["sites"]] == ["unreachable"]
    # the printed fix, pasted as it is, works
    fixed = runner.invoke(
        app, ["--set", f"fetch.allowed_hosts={host}", "ask", query, "--site", site, "--model", "simulated"]
    )
    assert fixed.exit_code == 0, fixed.output


def test_nothing_listening_says_to_check_the_address(home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    port = _unused_port()
    monkeypatch.setenv("RESEARCH_CRAWLER_FETCH__ALLOWED_HOSTS", f"127.0.0.1:{port}")
    monkeypatch.setenv("RESEARCH_CRAWLER_FETCH__MAX_RETRIES", "0")
    site = f"http://127.0.0.1:{port}/"
    result = runner.invoke(app, ["ask", "Find papers on graph neural networks", "--site", site, "--model", "simulated"])
    assert result.exit_code == 1, result.output
    error = _one_line_error(result.output)
    assert f"http://127.0.0.1:{port}/" in error and "check the URL and that the host is up" in error, error


def _setting(output: str, name: str) -> object:
    return next(entry["value"] for entry in json.loads(output) if entry["name"] == name)


def test_a_list_setting_takes_commas_on_the_command_line_and_in_the_environment(
    home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    shown = runner.invoke(app, ["--set", "fetch.allowed_hosts=127.0.0.1:8800,localhost", "config", "show", "--json"])
    assert shown.exit_code == 0, shown.output
    assert _setting(shown.stdout, "fetch.allowed_hosts") == ["127.0.0.1:8800", "localhost"]
    monkeypatch.setenv("RESEARCH_CRAWLER_FETCH__ALLOWED_HOSTS", "127.0.0.1:8801, 127.0.0.1:8802")
    shown = runner.invoke(app, ["config", "show", "--json"])
    assert _setting(shown.stdout, "fetch.allowed_hosts") == ["127.0.0.1:8801", "127.0.0.1:8802"]


@pytest.mark.parametrize("command", ["ask", "chat", "batch", "resume", "eval", "watch"])
def test_every_run_command_takes_the_same_run_options(home: Path, command: str) -> None:
    result = runner.invoke(app, [command, "--help"], env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    missing = [option for option in RUN_OPTIONS if option not in result.output]
    assert not missing, f"`{command}` lacks {missing}"


def test_resume_without_flags_keeps_the_runs_reranker_and_subpages(
    home: Path, testbed: Testbed, testbed_server: TestbedServer, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    out = tmp_path / "remembered"
    query = testbed.queries_for("arxiv-like")[0].text
    site = testbed_server.base_url("arxiv-like")
    first = runner.invoke(
        app, ["ask", query, "--site", site, "--model", "simulated", "--reranker", "bm25", "--max-subpages", "2",
              "--out", str(out), "--quiet"],
    )  # fmt: skip
    assert first.exit_code == 0, first.output
    recorded = json.loads((out / "run.json").read_text())["settings"]
    assert recorded["rerank"]["kind"] == "bm25" and recorded["explore"]["max_subpages"] == 2
    (out / "report.json").unlink()
    monkeypatch.delenv("RESEARCH_CRAWLER_RERANK__KIND")  # the default is bge, whose weights this machine lacks
    resumed = runner.invoke(app, ["resume", str(out), "--json", "--quiet"])
    assert resumed.exit_code == 0, resumed.output
    report = json.loads(resumed.stdout)
    assert report["sites"][0]["pages_visited"] <= 2
