"""`research-crawler eval` end to end on a two-query testbed dataset, offline (simulated model and judge)."""

from __future__ import annotations

import json
from pathlib import Path

import yaml
from typer.testing import CliRunner

from research_crawler.cli.app import app
from research_crawler.eval.dataset import resolve_dataset


def _small_dataset(tmp_path: Path) -> Path:
    data = yaml.safe_load(resolve_dataset("testbed").read_text(encoding="utf-8"))
    data["queries"] = [q for q in data["queries"] if q["site"] == "arxiv-like"][:2]
    data["sites"] = [s for s in data["sites"] if s["name"] == "arxiv-like"]
    path = tmp_path / "small.yaml"
    path.write_text(yaml.safe_dump(data), encoding="utf-8")
    return path


def test_eval_writes_results_and_the_site_table(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    monkeypatch.delenv("LANGSMITH_API_KEY", raising=False)
    out = tmp_path / "eval"
    result = CliRunner().invoke(
        app,
        [
            "--set", "fetch.per_host_delay_s=0",
            "eval", str(_small_dataset(tmp_path)),
            "--model", "simulated", "--judge-model", "simulated", "--reranker", "bm25", "--out", str(out),
        ],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "Simulated model or judge" in result.output
    results = json.loads((out / "results.json").read_text(encoding="utf-8"))
    assert len(results["queries"]) == 2
    # one experiment name everywhere: printed, in results.json and in table.md (LangSmith's own start line,
    # which named it differently when nothing was uploaded, is not shown)
    name = results["experiment_name"]
    assert name.startswith("testbed-simulated-judged-by-simulated-judge-"), name
    assert f"Experiment: {name} (local, not uploaded)" in result.output
    assert "Starting evaluation of experiment" not in result.output
    assert f"experiment {name}" in (out / "table.md").read_text(encoding="utf-8")
    assert "preXiv" in (out / "table.md").read_text(encoding="utf-8")
    assert (out / "results.csv").read_text(encoding="utf-8").count("\n") >= 3


def test_eval_without_an_endpoint_says_how_to_fix_it(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    monkeypatch.delenv("OPENAI_BASE_URL", raising=False)
    result = CliRunner().invoke(app, ["eval", str(_small_dataset(tmp_path)), "--reranker", "bm25"])
    assert result.exit_code == 1
    assert "OPENAI_API_KEY" in result.output


def test_eval_limit_keeps_n_queries_per_site_and_counts_them_down(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    monkeypatch.delenv("LANGSMITH_API_KEY", raising=False)
    out = tmp_path / "eval"
    result = CliRunner().invoke(
        app,
        [
            "--set", "fetch.per_host_delay_s=0",
            "eval", str(_small_dataset(tmp_path)), "--limit", "1",
            "--model", "simulated", "--judge-model", "simulated", "--reranker", "bm25", "--out", str(out),
        ],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    results = json.loads((out / "results.json").read_text(encoding="utf-8"))
    assert len(results["queries"]) == 1
    assert "[1/1] arxiv-like/" in result.output


def test_constrained_requests_are_measured_for_compliance(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """The constrained requests of one site, end to end: what the selection enforces (dates, count, order, a site
    named only in the text) is met by every report; 'exactly the N most recent' is measured (it also needs the
    Collector to have found them); the compliance table is written."""
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    monkeypatch.delenv("LANGSMITH_API_KEY", raising=False)
    out = tmp_path / "eval"
    result = CliRunner().invoke(
        app,
        [
            "--set", "fetch.per_host_delay_s=0",
            "eval", "testbed", "--sites", "arxiv-like", "--kind", "constrained", "--split", "all",
            "--model", "simulated", "--judge-model", "simulated", "--reranker", "bm25", "--out", str(out),
        ],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    results = json.loads((out / "results.json").read_text(encoding="utf-8"))
    queries = results["queries"]
    assert len(queries) == 5 and {q["kind"] for q in queries} == {"constrained"}
    checks: dict[str, list[float]] = {}
    for query in queries:
        assert query["compliance"] is not None, query["query_id"]
        for name, value in query["compliance"]["checks"].items():
            checks.setdefault(name, []).append(value)
    assert set(checks) == {"dates", "count", "order", "most_recent", "named_site"}
    for name in ("dates", "count", "order", "named_site"):
        assert all(value == 1.0 for value in checks[name]), (name, [q["compliance"] for q in queries])
    named = next(q for q in queries if "named-site" in q["query_id"])
    report = json.loads((Path(named["run_dir"]) / "report.json").read_text(encoding="utf-8"))
    assert "{site_url}" not in report["query"] and "http://127.0.0.1:" in report["query"]
    assert len(report["sites"]) == 2  # the site it was given, and the one its text names
    table = (out / "table.md").read_text(encoding="utf-8")
    assert "Request compliance (5 requests with constraints" in table
    assert "compliance_dates" in (out / "results.csv").read_text(encoding="utf-8")
