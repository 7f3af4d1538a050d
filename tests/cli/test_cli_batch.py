"""`batch`: a file of queries, one run directory each, summary.csv, and resuming what was not finished."""

from __future__ import annotations

import csv
import itertools
import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from research_crawler.cli.app import app
from research_crawler.cli.batch import BatchRow, BatchRunner
from research_crawler.cli.batch_file import BatchEntry, load_batch
from research_crawler.config.overrides import apply_overrides
from research_crawler.config.settings import Settings
from research_crawler.errors import ConfigError
from research_crawler.eval.testbed import TestbedServer
from research_crawler.eval.testbed.models import Testbed
from research_crawler.report.models import Report
from research_crawler.run.trace import read_trace

runner = CliRunner()


def _summary(out: Path) -> list[dict[str, str]]:
    """summary.csv's rows in the file's order (they are appended as the queries end)."""
    with (out / "summary.csv").open(newline="", encoding="utf-8") as handle:
        return sorted(csv.DictReader(handle), key=lambda row: int(row["index"]))


def _write_yaml(path: Path, testbed: Testbed, server: TestbedServer) -> list[str]:
    first = testbed.queries_for("arxiv-like")[0].text
    second = testbed.queries_for("biorxiv-like")[0].text
    path.write_text(
        f"""
- query: "{first}"
  sites: ["{server.base_url("arxiv-like")}"]
- query: "{second}"
  sites: ["{server.base_url("biorxiv-like")}"]
  settings:
    explore:
      max_subpages: 2
  name: biorxiv-run
""",
        encoding="utf-8",
    )
    return [first, second]


def test_batch_runs_each_query_then_skips_finished_ones(
    home: Path, testbed: Testbed, testbed_server: TestbedServer
) -> None:
    queries = _write_yaml(home / "queries.yaml", testbed, testbed_server)
    out = home / "batch"
    arguments = ["batch", "queries.yaml", "--out", str(out), "--model", "simulated", "--concurrency", "2"]
    result = runner.invoke(app, arguments)
    assert result.exit_code == 0, result.output
    rows = _summary(out)
    assert [row["query"] for row in rows] == queries
    assert [row["status"] for row in rows] == ["done", "done"]
    for row in rows:
        report = Report.model_validate_json((Path(row["run_dir"]) / "report.json").read_text())
        assert report.query == row["query"] and int(row["items"]) == len(report.items)
        assert row["simulated_model"] == "True"
    assert Path(rows[1]["run_dir"]).name == "biorxiv-run"
    state = json.loads((Path(rows[1]["run_dir"]) / "state.json").read_text())
    assert state, "the entry's run directory holds its state"
    limited = [e for e in read_trace(Path(rows[1]["run_dir"]) / "trace.jsonl") if e["event"] == "scrape"]
    assert len(limited) <= 2, "the entry's settings override (max_subpages: 2) was not applied"

    testbed_server.reset_hits()
    again = runner.invoke(app, ["batch", "queries.yaml", "--out", str(out), "--model", "simulated"])
    assert again.exit_code == 0, again.output
    assert [row["status"] for row in _summary(out)] == ["skipped", "skipped"]
    assert testbed_server.total_hits == 0, "a finished query was run again"
    assert [row["items"] for row in _summary(out)] == [row["items"] for row in rows]


def test_batch_resumes_an_unfinished_run_and_runs_a_new_entry(
    home: Path, testbed: Testbed, testbed_server: TestbedServer
) -> None:
    jsonl = home / "queries.jsonl"
    entries = [
        {"query": testbed.queries_for("journal-like")[0].text, "sites": [testbed_server.base_url("journal-like")]},
        {"query": testbed.queries_for("repo-like")[0].text, "sites": [testbed_server.base_url("repo-like")]},
    ]
    jsonl.write_text(json.dumps(entries[0]) + "\n", encoding="utf-8")
    out = home / "batch"
    assert runner.invoke(app, ["batch", str(jsonl), "--out", str(out), "--model", "simulated"]).exit_code == 0
    first_dir = Path(_summary(out)[0]["run_dir"])
    (first_dir / "report.json").unlink()  # as if the run had been killed before its report

    jsonl.write_text("# two queries now\n" + "\n".join(json.dumps(e) for e in entries) + "\n\n", encoding="utf-8")
    result = runner.invoke(app, ["batch", str(jsonl), "--out", str(out), "--model", "simulated"])
    assert result.exit_code == 0, result.output
    assert [row["status"] for row in _summary(out)] == ["resumed", "done"]
    assert (first_dir / "report.json").exists()
    actions = [e["action"] for e in read_trace(first_dir / "trace.jsonl") if e["event"] == "run"]
    assert actions == ["start", "resume"]


def test_a_failing_query_is_recorded_and_the_others_still_run(
    home: Path, testbed: Testbed, testbed_server: TestbedServer
) -> None:
    (home / "q.yaml").write_text(
        f"""
- query: "{testbed.queries_for("arxiv-like")[0].text}"
  sites: ["{testbed_server.base_url("arxiv-like")}"]
- query: "anything"
  sites: ["ftp://example.org/"]
""",
        encoding="utf-8",
    )
    result = runner.invoke(app, ["batch", "q.yaml", "--out", "out", "--model", "simulated", "--quiet"])
    assert result.exit_code == 1
    rows = _summary(home / "out")
    assert [row["status"] for row in rows] == ["done", "failed"]
    assert "ftp://example.org/" in rows[1]["error"]
    assert "query 2" in result.stderr and "Traceback" not in result.output


def test_batch_without_a_model_endpoint_fails_before_running_anything(home: Path) -> None:
    (home / "q.jsonl").write_text('{"query": "graph neural networks"}\n', encoding="utf-8")
    result = runner.invoke(app, ["batch", "q.jsonl", "--out", "out"])
    assert result.exit_code == 1
    assert "OPENAI_API_KEY" in result.stderr
    assert not (home / "out").exists()


@pytest.mark.parametrize(
    ("name", "text", "message"),
    [
        ("q.yaml", "- query: ''\n", "entry 1: query"),
        ("q.yaml", "query: x\n", "must be a list of queries"),
        ("q.yaml", "- {query: x, colour: red}\n", "entry 1: colour"),
        ("q.yaml", "- [unclosed\n", "not valid YAML"),
        ("q.jsonl", '{"query": "x"}\n{oops}\n', "line 2: not valid JSON"),
        ("q.jsonl", '{"query": "x"}\n{"query": "x"}\n', "entry 2 repeats entry 1"),
        ("q.jsonl", "\n# nothing\n", "holds no queries"),
        ("q.txt", "x\n", "must be .yaml, .yml or .jsonl"),
        ("q.yaml", "- {query: x, settings: {explore: {max_subpages: 0}}}\n", "batch entry 1: invalid setting"),
        ("q.yaml", "- {query: x, settings: {fetch.delay: 1}}\n", "batch entry 1: unknown setting 'fetch.delay'"),
        ("q.jsonl", '{"query": "x"}\n{"query": "' + "graph " * 400 + '"}\n', "line 2: query: Value error, the query"),
        ("q.jsonl", '{"query": "0"}\n', "line 1: query: Value error, the query '0' has no words"),
        ("q.yaml", "- '０'\n", "entry 1: query: Value error, the query '０' has no words"),
        ("q.jsonl", '{"query": "x"}\n' + "#" * (1024 * 1024 + 1) + "\n", "line 2: longer than 1024 KiB"),
    ],
)
def test_bad_batch_files_are_clear_errors(home: Path, name: str, text: str, message: str) -> None:
    (home / name).write_text(text, encoding="utf-8")
    result = runner.invoke(app, ["batch", name, "--out", "out", "--model", "simulated"])
    assert result.exit_code == 1, result.output
    assert message in " ".join(result.stderr.split())
    assert "Traceback" not in result.output


def test_entries_may_be_plain_strings_and_get_stable_directories(tmp_path: Path) -> None:
    path = tmp_path / "q.yaml"
    path.write_text("queries:\n  - find papers on CRISPR\n  - {query: find papers on CRISPR, sites: [a.org]}\n")
    first, second = load_batch(path)
    assert first == BatchEntry(query="find papers on CRISPR")
    assert first.run_dir_name() != second.run_dir_name(), "different entries share a run directory"
    assert next(iter(load_batch(path))).run_dir_name() == first.run_dir_name(), "the directory name must be stable"
    assert first.run_dir_name().startswith("find-papers-on-crispr-")
    with pytest.raises(ConfigError, match="does not exist"):
        load_batch(tmp_path / "missing.yaml")


def test_retry_empty_runs_again_only_the_queries_that_found_nothing(
    home: Path, testbed: Testbed, testbed_server: TestbedServer
) -> None:
    found = testbed.queries_for("arxiv-like")[0].text
    site = testbed_server.base_url("arxiv-like")
    (home / "q.yaml").write_text(
        f'- query: "{found}"\n  sites: ["{site}"]\n'
        f'- query: "papers on zyxwvut qwertyuiop"\n  sites: ["{site}"]\n  settings: {{explore: {{max_subpages: 1}}}}\n',
        encoding="utf-8",
    )
    out = home / "batch"
    arguments = ["batch", "q.yaml", "--out", str(out), "--model", "simulated"]
    assert runner.invoke(app, arguments).exit_code == 0
    first = _summary(out)
    assert int(first[0]["items"]) > 0 and first[1]["items"] == "0"
    again = runner.invoke(app, [*arguments, "--retry-empty"])
    assert again.exit_code == 0, again.output
    rows = _summary(out)
    assert [row["status"] for row in rows] == ["skipped", "done"]
    empty_dir = Path(first[1]["run_dir"])
    assert (empty_dir.parent / f"{empty_dir.name}.empty-1" / "report.json").exists() and empty_dir.exists()


def test_concurrent_queries_keep_one_pace_per_host_and_read_robots_once(
    home: Path, testbed: Testbed, testbed_server: TestbedServer, tmp_path: Path
) -> None:
    """Three queries at once on one site: the site's request log never shows two requests closer than the
    per-host delay, whichever query sent them, and its robots.txt was asked for once (issue 20)."""
    delay = 0.4
    site = testbed_server.base_url("arxiv-like")
    queries = [query.text for query in testbed.queries_for("arxiv-like")[:3]]
    batch = tmp_path / "three.jsonl"
    batch.write_text("".join(json.dumps({"query": q, "sites": [site]}) + "\n" for q in queries), encoding="utf-8")
    testbed_server.reset_hits()
    result = runner.invoke(
        app,
        ["--set", f"fetch.per_host_delay_s={delay}", "batch", str(batch), "--out", str(tmp_path / "out"),
         "--concurrency", "3", "--model", "simulated", "--quiet"],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert [row["status"] for row in _summary(tmp_path / "out")] == ["done"] * 3
    hits = testbed_server.hits("arxiv-like")
    runs = [read_trace(path) for path in (tmp_path / "out").glob("*/trace.jsonl")]
    assert all(any(e["event"] == "fetch" for e in events) for events in runs), "each query fetched pages"
    assert len(hits) >= 9
    times = sorted(hit.time for hit in hits)
    gaps = [later - earlier for earlier, later in itertools.pairwise(times)]
    # Arrival times as the server's kernel stamped them: each request begins on the schedule as its headers are
    # written, and the next one's gap counts from when they were, so the full delay holds on the wire. The 5 ms
    # allow only for the clocks: the server turns each kernel stamp (wall clock) into monotonic time by reading the
    # two clocks one after the other, which a busy machine can preempt in between.
    assert min(gaps) >= delay - 0.005, sorted(gaps)[:5]
    assert [hit.path for hit in hits].count("/robots.txt") == 1


def test_a_query_of_megabytes_is_refused_in_one_line_before_anything_runs(home: Path) -> None:
    (home / "q.jsonl").write_text(json.dumps({"query": "graph neural networks " * 330_000}) + "\n", encoding="utf-8")
    result = runner.invoke(app, ["batch", "q.jsonl", "--out", "out", "--model", "simulated"])
    assert result.exit_code == 1 and not (home / "out").exists()
    message = " ".join(result.stderr.split())
    assert "q.jsonl, line 1: longer than 1024 KiB, more than any entry holds" in message
    assert len(result.stderr) < 1000, "the query is not printed back"
    (home / "q.jsonl").write_text(json.dumps({"query": "graph neural networks " * 100}) + "\n", encoding="utf-8")
    result = runner.invoke(app, ["batch", "q.jsonl", "--out", "out", "--model", "simulated"])
    assert result.exit_code == 1 and not (home / "out").exists()
    message = " ".join(result.stderr.split())
    assert "line 1: query: Value error, the query is 2,199 characters long; a request is at most 2,000" in message


def test_the_summary_is_appended_as_queries_end_never_rewritten(
    home: Path, testbed: Testbed, testbed_server: TestbedServer
) -> None:
    site = testbed_server.base_url("arxiv-like")
    batch = home / "q.jsonl"
    queries = [query.text for query in testbed.queries_for("arxiv-like")[:3]]
    batch.write_text("".join(json.dumps({"query": q, "sites": [site]}) + "\n" for q in queries), encoding="utf-8")
    summary = home / "out" / "summary.csv"
    seen: list[tuple[int, int]] = []  # (the summary's inode, its rows) as each query starts

    def on_row(row: BatchRow) -> None:
        if row.status == "running":
            seen.append((summary.stat().st_ino, len(summary.read_text(encoding="utf-8").splitlines()) - 1))

    settings = apply_overrides(
        Settings(), {"fetch.allowed_hosts": testbed_server.allowed_hosts(), "fetch.per_host_delay_s": 0}
    )
    settings.rerank.kind = "bm25"
    tally = BatchRunner(
        load_batch(batch), settings=settings, out_dir=home / "out", backend="simulated", on_row=on_row
    ).run()
    assert tally.statuses == {"done": 3} and tally.unfinished == 0
    assert [rows for _, rows in seen] == [0, 1, 2], "each row is written when its query ends, and only then"
    assert {inode for inode, _ in seen} == {summary.stat().st_ino}, "the file was replaced, not appended to"
    assert [row["index"] for row in _summary(home / "out")] == ["1", "2", "3"]


def test_a_batch_files_query_never_writes_control_bytes_to_the_terminal_or_the_summary(home: Path) -> None:
    # A batch file is data from elsewhere: its query is printed back ("[1/1] running …") and written to summary.csv.
    hostile = "graph neural networks \x1b]0;owned\x07\x1b[2J\x9b31m\u202e"
    (home / "q.jsonl").write_text(json.dumps({"query": hostile, "sites": ["ftp://example.org/"]}) + "\n", "utf-8")
    result = runner.invoke(app, ["batch", "q.jsonl", "--out", "out", "--model", "simulated", "--reranker", "bm25"])
    assert result.exit_code == 1, result.output
    assert "[1/1] running  graph neural networks" in result.stderr
    for unsafe in ("\x1b", "\x07", "\x9b", "\u202e"):
        assert unsafe not in result.output
    [row] = _summary(home / "out")
    assert row["query"] == "graph neural networks ]0;owned[2J31m"


def test_a_batch_files_query_never_becomes_a_formula_in_summary_csv(home: Path) -> None:
    query = '=HYPERLINK("http://evil.example/", "graph neural networks")'
    (home / "q.jsonl").write_text(json.dumps({"query": query, "sites": ["ftp://example.org/"]}) + "\n", "utf-8")
    result = runner.invoke(app, ["batch", "q.jsonl", "--out", "out", "--model", "simulated", "--reranker", "bm25"])
    assert result.exit_code == 1, result.output
    [row] = _summary(home / "out")
    assert row["query"] == "'" + query and row["status"] == "failed"  # a spreadsheet shows it, never runs it


def test_a_mistyped_batch_file_is_said_missing_before_its_name_is_judged(home: Path) -> None:
    result = runner.invoke(app, ["batch", "queries", "--out", "out", "--model", "simulated", "--reranker", "bm25"])
    assert result.exit_code == 1 and not (home / "out").exists()
    assert "error: the batch file queries does not exist: check its path (ls .)" in " ".join(result.stderr.split())
    (home / "queries.txt").write_text('{"query": "graph neural networks"}\n', encoding="utf-8")
    result = runner.invoke(app, ["batch", "queries.txt", "--out", "out", "--model", "simulated", "--reranker", "bm25"])
    assert result.exit_code == 1
    assert "must be .yaml, .yml or .jsonl: name it after what it holds, e.g. mv queries.txt queries.jsonl" in " ".join(
        result.stderr.split()
    )


@pytest.mark.parametrize(
    ("settings", "refused"),
    [
        ({"fetch": {"allowed_hosts": ["127.0.0.1"]}}, "fetch.allowed_hosts (what the URL guard allows)"),
        ({"fetch.chromium_path": "./not-chromium.sh"}, "fetch.chromium_path (a program to run)"),
        ({"models": {"base_url": "http://key.example/v1"}}, "models.base_url (the endpoint that gets your API key)"),
    ],
)
def test_a_batch_file_never_widens_the_guard_runs_a_program_or_sends_the_key_elsewhere(
    home: Path, settings: dict[str, object], refused: str
) -> None:
    entry = {"query": "graph neural networks", "sites": ["http://127.0.0.1:9/"], "settings": settings}
    (home / "q.jsonl").write_text(json.dumps(entry) + "\n", encoding="utf-8")
    result = runner.invoke(app, ["batch", "q.jsonl", "--out", "out", "--model", "simulated", "--reranker", "bm25"])
    assert result.exit_code == 1 and not (home / "out").exists(), "refused before anything runs"
    line = " ".join(result.stderr.split())
    assert f"q.jsonl, line 1: settings: Value error, a batch file is data and may not set {refused}" in line
    assert "choose it yourself for the whole batch, e.g. research-crawler --set" in line
