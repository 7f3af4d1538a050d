"""The evaluation runner end to end on the testbed: LangSmith's evaluate run locally (no key, nothing sent), the
results it writes, the LLM judge path through a loopback endpoint, replay from a recording, and bad arguments."""

from __future__ import annotations

import csv
import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from eval_helpers import SUBSET_SITES, LocalEvaluation, fast_settings, recorded_replies, write_subset
from mock_openai_server import MockOpenAIServer, RecordedRequest, Scripted, text

from research_crawler.config.settings import Settings
from research_crawler.context.store import RunStore
from research_crawler.errors import ConfigError, ModelError
from research_crawler.eval.dataset import resolve_dataset
from research_crawler.eval.judges import JUDGE_METRICS
from research_crawler.eval.results import load_results
from research_crawler.eval.runner import RUNS_DIR, run_dir_name, run_evaluation
from research_crawler.eval.testbed import TestbedServer
from research_crawler.report.models import Report


def _report(run_dir: str | None) -> Report:
    assert run_dir is not None
    return Report.model_validate_json((Path(run_dir) / "report.json").read_text(encoding="utf-8"))


def test_the_local_langsmith_path_sends_nothing(local_evaluation: LocalEvaluation) -> None:
    result = local_evaluation.result
    assert local_evaluation.network.lookups == [], "an evaluation without a key resolved a remote host"
    assert local_evaluation.network.langsmith_requests == [], "the local LangSmith client was asked to send"
    assert result.uploaded is False and result.experiment_url is None and result.langsmith_dataset is None
    assert result.experiment_name, "LangSmith names every experiment, uploaded or not"
    assert result.simulated_model and result.judge == "simulated" and result.judge_model == "simulated-judge"
    assert [q.site for q in result.queries] == [s for s in SUBSET_SITES for _ in range(2)]
    assert [q.kind for q in result.queries] == ["general", "specific"] * 2
    assert result.judge_usage.model_calls == 3 * len(result.queries)


def test_every_query_is_judged_and_measured(local_evaluation: LocalEvaluation, testbed_server: TestbedServer) -> None:
    for query in local_evaluation.result.queries:
        assert query.error == "" and query.simulated_model
        assert set(query.verdicts) == set(JUDGE_METRICS)
        assert all(
            v.status in ("pass", "fail") and v.reasoning.startswith("(simulated judge)")
            for v in query.verdicts.values()
        )
        report = _report(query.run_dir)
        collected = {
            item.url
            for web in RunStore(Path(report.run_dir or "")).load().web_contexts.values()
            for item in web.items()
        }
        relevant = testbed_server.relevant_urls(query.query_id)
        reported = {item.url for item in report.items}
        truth, figures = query.ground_truth, query.figures
        assert truth is not None and figures is not None
        assert truth.recall == pytest.approx(len(reported & relevant) / len(relevant))
        assert truth.relevant_collected == len(collected & relevant)
        assert (figures.items_reported, figures.items_collected) == (len(report.items), len(collected))
        assert figures.pages_fetched == report.stats.pages_fetched and figures.model_calls == report.stats.model_calls
        assert set(figures.by_agent) == set(report.stats.by_agent) and figures.stop_reason == report.stop_reason
        grounded = query.verdicts["groundedness"].status == "pass"
        assert grounded == (reported <= collected), "the simulated judge checks report URLs against collected items"
    assert any(q.ground_truth and q.ground_truth.recall > 0 for q in local_evaluation.result.queries), (
        "the simulated agents found nothing relevant on the subset: the metrics were not exercised"
    )


def test_results_are_written_locally(local_evaluation: LocalEvaluation) -> None:
    out, result = local_evaluation.out, local_evaluation.result
    assert load_results(out) == result
    with (out / "results.csv").open(encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    assert [row["query_id"] for row in rows] == [q.query_id for q in result.queries]
    assert rows[0]["answer_relevance_reasoning"].startswith("(simulated judge)")
    assert {"recall", "ndcg_at_k", "path_efficiency", "Planner_input_tokens", "run_dir"} <= set(rows[0])
    table = (out / "table.md").read_text(encoding="utf-8")
    assert "| preXiv |" in table and "| LumenLink |" in table and "| **Overall** |" in table
    assert "RAG triad" in table and "Ground truth (testbed), k = 10" in table and "(local, not uploaded)" in table
    recorded = json.loads((out / "testbed.json").read_text(encoding="utf-8"))
    assert set(recorded["base_urls"]) == {"arxiv-like", "biorxiv-like", "journal-like", "js-site", "repo-like"}
    for query in result.queries:
        assert Path(query.run_dir or "") == out / RUNS_DIR / run_dir_name(query.query_id)
        assert (Path(query.run_dir or "") / "pages").is_dir(), "the fetched pages are kept for replay"


def test_replaying_an_evaluation_fetches_nothing_and_gives_the_same_reports(
    local_evaluation: LocalEvaluation, testbed_server: TestbedServer, tmp_path: Path
) -> None:
    recording = tmp_path / "recording"
    shutil.copytree(local_evaluation.out, recording)
    missing = local_evaluation.result.queries[-1]
    shutil.rmtree(recording / RUNS_DIR / run_dir_name(missing.query_id))
    testbed_server.reset_hits()
    replayed = run_evaluation(
        local_evaluation.dataset,
        settings=fast_settings(tmp_path),
        backend="simulated",
        judge="simulated",
        out=tmp_path / "replayed",
        replay=recording,
    )
    assert testbed_server.total_hits == 0, "a replay must answer every fetch from the recording"
    assert replayed.replay_of == str(recording)
    for before, after in zip(local_evaluation.result.queries[:-1], replayed.queries[:-1], strict=True):
        assert [i.url for i in _report(after.run_dir).items] == [i.url for i in _report(before.run_dir).items]
        assert after.ground_truth == before.ground_truth
        assert {m: v.status for m, v in after.verdicts.items()} == {m: v.status for m, v in before.verdicts.items()}
    failed = replayed.queries[-1]
    assert "holds no run of query" in failed.error and failed.figures is None
    assert all(v.status == "error" and "the run failed" in v.error for v in failed.verdicts.values())


def _judge_by_metric(replies: dict[str, list[str]]) -> Scripted:
    """Answers each judge request from the script of its metric, in order, whatever order the judges run in."""

    def respond(request: RecordedRequest) -> Scripted:
        system = request.body["messages"][0]["content"]
        metric = next(m for m in replies if system.startswith(f"You are the {m.replace('_', ' ').title()} judge"))
        return text(replies[metric].pop(0))

    return Scripted(responder=respond)


def test_the_llm_judge_path_through_the_runner(
    tmp_path: Path, testbed_server: TestbedServer, judge_endpoint: MockOpenAIServer
) -> None:
    valid = {case["name"]: case["reply"] for case in recorded_replies()["valid"]}
    bad = {case["name"]: case["reply"] for case in recorded_replies()["malformed"]}
    replies = {
        "answer_relevance": [valid["pass"]],
        "context_relevance": [bad["prose"], valid["fail"]],
        "groundedness": [bad["extra_key"], bad["cut_off"], bad["verdict_as_string"]],
    }
    judge_endpoint.enqueue(*(_judge_by_metric(replies) for _ in range(6)))
    settings = fast_settings(tmp_path)
    settings.models.base_url = judge_endpoint.base_url
    settings.models.api_key = "sk-test"  # type: ignore[assignment]
    dataset = write_subset(tmp_path / "one.yaml", sites=("journal-like",), kinds=("general",))
    result = run_evaluation(
        dataset,
        settings=settings,
        backend="simulated",
        judge="llm",
        out=tmp_path / "out",
        testbed_server=testbed_server,
    )
    (query,) = result.queries
    statuses = {metric: (v.status, v.attempts) for metric, v in query.verdicts.items()}
    assert statuses == {"answer_relevance": ("pass", 1), "context_relevance": ("fail", 2), "groundedness": ("error", 3)}
    assert query.verdicts["groundedness"].raw_reply == bad["verdict_as_string"]
    assert result.judge_model == "gpt-4o" and result.judge_usage.model_calls == 6
    assert judge_endpoint.pending() == 0 and len(judge_endpoint.chat_requests()) == 6
    assert "| LumenLink | 1.00 | 0.00 | – (1 n/a) |" in (tmp_path / "out" / "table.md").read_text(encoding="utf-8")


@pytest.mark.parametrize(
    ("change", "problem"),
    [
        ({"sites": ["arxiv"]}, "no site 'arxiv'"),
        ({"concurrency": 0}, "concurrency must be at least 1"),
        ({"replay": Path("/nonexistent/recording")}, "not the output directory of an evaluation"),
    ],
)
def test_bad_arguments_are_refused_before_anything_runs(
    tmp_path: Path, settings: Settings, change: dict[str, Any], problem: str
) -> None:
    arguments: dict[str, Any] = {
        "settings": settings,
        "backend": "simulated",
        "judge": "simulated",
        "out": tmp_path / "o",
    }
    with pytest.raises(ConfigError, match=problem):
        run_evaluation(resolve_dataset("testbed"), **{**arguments, **change})
    assert not (tmp_path / "o").exists()


def test_an_out_directory_in_use_is_refused(tmp_path: Path, settings: Settings) -> None:
    (tmp_path / "o").mkdir()
    (tmp_path / "o" / "results.json").write_text("{}")
    with pytest.raises(ConfigError, match="is not empty"):
        run_evaluation(
            resolve_dataset("testbed"), settings=settings, backend="simulated", judge="simulated", out=tmp_path / "o"
        )


def test_the_llm_judge_without_an_endpoint_fails_at_once(
    tmp_path: Path, settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    settings.models.api_key = None
    settings.models.base_url = None
    with pytest.raises(ModelError, match="OPENAI_API_KEY"):
        run_evaluation(
            resolve_dataset("testbed"), settings=settings, backend="simulated", judge="llm", out=tmp_path / "o"
        )
    assert not (tmp_path / "o").exists()


def test_the_unfamiliar_webs_requests_are_measured_apart_with_their_works(tmp_path: Path) -> None:
    out = tmp_path / "eval"
    result = run_evaluation(
        resolve_dataset("testbed"),
        settings=fast_settings(tmp_path),
        backend="simulated",
        judge="simulated",
        kinds=["unfamiliar"],
        sites=["paywall-press"],
        out=out,
    )
    (query,) = result.queries
    assert query.kind == "unfamiliar" and query.works is not None and query.works.relevant_works == 8
    assert query.works.entries == len(_report(query.run_dir).items)
    assert result.robots_violations == {"paywall-press": []}
    table = (out / "table.md").read_text(encoding="utf-8")
    assert table.startswith("## The unfamiliar web") and "| relevant works reported |" in table
    assert "works_relevant_works_reported" in (out / "results.csv").read_text(encoding="utf-8")
