"""`ask` and `resume` through typer's runner: exit codes, the --json schema, the files written, flags → settings."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from cli_helpers import RUN_FILES
from typer.testing import CliRunner

from research_crawler.cli.app import app
from research_crawler.context.store import RunStore
from research_crawler.eval.testbed import TestbedServer
from research_crawler.eval.testbed.models import Testbed
from research_crawler.report.models import Report
from research_crawler.run.trace import read_trace

runner = CliRunner()


def test_ask_json_prints_report_json_and_writes_the_run_files(
    home: Path, testbed: Testbed, testbed_server: TestbedServer, tmp_path: Path
) -> None:
    query = testbed.queries_for("arxiv-like")[0]
    out = tmp_path / "run"
    result = runner.invoke(
        app,
        ["ask", query.text, "--site", testbed_server.base_url("arxiv-like"), "--model", "simulated",
         "--out", str(out), "--json"],
    )
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    report = Report.model_validate(data)  # the schema of report.json, exactly
    assert data == json.loads((out / "report.json").read_text())
    assert report.simulated_model is True and report.query == query.text
    assert report.run_dir == str(out)
    assert {item.url for item in report.items} & testbed_server.relevant_urls(query.id)
    assert all(item.site and item.found_on for item in report.items)
    for name in RUN_FILES:
        assert (out / name).is_file(), f"{name} missing from the run directory"


def test_ask_renders_the_report_and_says_where_the_files_are(
    home: Path, testbed: Testbed, testbed_server: TestbedServer
) -> None:
    query = testbed.queries_for("journal-like")[0]
    result = runner.invoke(
        app, ["ask", query.text, "-s", testbed_server.base_url("journal-like"), "--model", "simulated"]
    )
    assert result.exit_code == 0, result.output
    run_dirs = list((home.parent / "runs").iterdir())
    assert len(run_dirs) == 1, "ask without --out makes one run directory under runs_dir"
    report = Report.model_validate_json((run_dirs[0] / "report.json").read_text())
    assert report.items and report.items[0].title in result.stdout
    assert "simulated model" in result.stdout
    assert f"Run directory: {run_dirs[0]}" in " ".join(result.stdout.split())
    # Progress went to stderr as plain lines (the runner is not a terminal), never into the report on stdout.
    assert "Exploring http://127.0.0.1" in result.stderr
    assert "Exploring" not in result.stdout


def test_a_report_with_no_items_still_exits_0(home: Path, testbed_server: TestbedServer, tmp_path: Path) -> None:
    out = tmp_path / "nothing"
    result = runner.invoke(
        app,
        ["ask", "papers on medieval pottery glazes in Flanders", "--site", testbed_server.base_url("repo-like"),
         "--model", "simulated", "--max-subpages", "1", "--out", str(out), "--json", "--quiet"],
    )
    assert result.exit_code == 0, result.output
    report = Report.model_validate_json(result.stdout)
    assert report.items == []
    assert (out / "report.md").exists()


def test_flags_reach_the_settings_of_the_run(home: Path, testbed: Testbed, testbed_server: TestbedServer) -> None:
    out = home / "limited"
    result = runner.invoke(
        app,
        ["--set", "report.top_k=2", "ask", testbed.queries_for("arxiv-like")[1].text,
         "--site", testbed_server.base_url("arxiv-like"), "--model", "simulated",
         "--max-subpages", "1", "--item-kind", "paper", "--reranker", "bm25", "--out", str(out), "--quiet"],
    )
    assert result.exit_code == 0, result.output
    state = RunStore(out).load()
    assert state.web_contexts and all(web.visited_count <= 1 for web in state.web_contexts.values())
    report = Report.model_validate_json((out / "report.json").read_text())
    assert len(report.items) <= 2
    assert all(item.rerank_score is not None for item in report.items), "--reranker bm25 did not rank"


def test_model_name_sets_every_agents_model(
    home: Path, testbed_server: TestbedServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A local endpoint that refuses connections: the run stops on the model error, and the report says so.
    monkeypatch.setenv("OPENAI_BASE_URL", "http://127.0.0.1:9/v1")
    monkeypatch.setenv("RESEARCH_CRAWLER_MODELS__MAX_RETRIES", "0")
    out = home / "refused"
    result = runner.invoke(
        app, ["ask", "graph neural networks", "--site", testbed_server.base_url("arxiv-like"),
              "--model", "my-local-model", "--out", str(out), "--quiet"],
    )
    report = Report.model_validate_json((out / "report.json").read_text())
    assert set(report.models.values()) == {"my-local-model"}
    assert report.stop_reason == "error"
    assert result.exit_code == 1, "a run that ended on a model error must not look like a success"
    assert "model" in result.stderr and "Traceback" not in result.output


def test_no_model_endpoint_is_an_error_that_says_how_to_fix_it(home: Path) -> None:
    result = runner.invoke(app, ["ask", "graph neural networks"])
    assert result.exit_code == 1
    message = " ".join(result.stderr.split())
    assert message.startswith("error: no model endpoint is configured")
    assert "OPENAI_API_KEY" in message and "--model simulated" in message
    assert "Traceback" not in result.output
    assert not (home.parent / "runs").exists(), "nothing should be created before the endpoint is checked"


@pytest.mark.parametrize(
    "arguments",
    [
        ["ask"],
        ["ask", "q", "--max-subpages", "0"],
        ["ask", "q", "--reranker", "nope"],
        ["ask", "q", "--parallel-sites", "zero"],
        ["ask", "   ", "--model", "simulated"],
        ["--set", "no-equals-sign", "ask", "q", "--model", "simulated"],
        ["--set", "fetch.per_host_delay=1", "ask", "q", "--model", "simulated"],
        ["--set", "explore.max_subpages=-3", "ask", "q", "--model", "simulated"],
        ["no-such-command"],
    ],
)
def test_bad_arguments_exit_2(home: Path, arguments: list[str]) -> None:
    result = runner.invoke(app, arguments)
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output


@pytest.mark.parametrize("query", ["0", "00", "０"])
def test_a_query_of_no_words_is_one_line_with_the_command_to_write(home: Path, query: str) -> None:
    for command in ("ask", "watch"):
        result = runner.invoke(app, [command, query, "--model", "simulated", "--reranker", "bm25"])
        assert result.exit_code == 2, result.output
        assert result.stderr.count("\n") == 1 and "Traceback" not in result.output
        assert f"the query {query!r} has no words: say what to look for" in result.stderr
        assert f'e.g. research-crawler {command} "papers on graph neural networks"' in result.stderr
    assert not (home / "runs").exists() and not list(home.glob("**/run.json"))


def test_unknown_setting_names_the_close_ones(home: Path) -> None:
    result = runner.invoke(app, ["--set", "fetch.per_host_delay=1", "ask", "q", "--model", "simulated"])
    assert "unknown setting 'fetch.per_host_delay'" in result.stderr
    assert "fetch.per_host_delay_s" in result.stderr


def test_out_refuses_a_directory_that_holds_a_run(home: Path, testbed_server: TestbedServer) -> None:
    out = home / "once"
    arguments = ["ask", "graph neural networks", "--site", testbed_server.base_url("arxiv-like"),
                 "--model", "simulated", "--out", str(out), "--quiet"]
    assert runner.invoke(app, arguments).exit_code == 0
    again = runner.invoke(app, arguments)
    assert again.exit_code == 1
    assert "research-crawler resume" in again.stderr


def test_resume_continues_a_run_and_fetches_nothing_twice(
    home: Path, testbed: Testbed, testbed_server: TestbedServer
) -> None:
    out = home / "cut"
    testbed_server.reset_hits()
    first = runner.invoke(
        app, ["ask", testbed.queries_for("repo-like")[0].text, "--site", testbed_server.base_url("repo-like"),
              "--model", "simulated", "--out", str(out), "--quiet"],
    )
    assert first.exit_code == 0, first.output
    (out / "report.json").unlink()
    (out / "report.md").unlink()
    resumed = runner.invoke(app, ["resume", str(out), "--json", "--quiet"])
    assert resumed.exit_code == 0, resumed.output
    report = Report.model_validate_json(resumed.stdout)
    assert report.simulated_model, "resume must reuse the run's own backend"
    assert (out / "report.md").exists()
    events = read_trace(out / "trace.jsonl")
    assert [e["action"] for e in events if e["event"] == "run"] == ["start", "resume"]
    fetched = [e["url"] for e in events if e["event"] == "fetch" and e.get("source", "web") == "web"]
    assert len(fetched) == len(set(fetched)), "a page was fetched twice"
    hits = Counter(hit.path for hit in testbed_server.hits("repo-like") if not hit.path.startswith("/robots.txt"))
    # a guess fetched ahead and given up while its request was under way ('cancelled') may be asked for again when
    # the agents do choose it; no other page is
    given_up = {urlsplit(e["url"]).path for e in events if e["event"] == "fetch_ahead" and e["action"] == "cancelled"}
    assert hits and {path for path, count in hits.items() if count > 1} <= given_up, hits.most_common(3)


def test_resume_of_something_that_is_not_a_run_is_a_clear_error(home: Path) -> None:
    (home / "empty").mkdir()
    result = runner.invoke(app, ["resume", str(home / "empty")])
    assert result.exit_code == 1
    assert "not a research-crawler run directory" in result.stderr
