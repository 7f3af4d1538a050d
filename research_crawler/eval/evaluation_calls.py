"""What LangSmith calls during an evaluation: the target (one query run by the agents) and the evaluators (the
three judges and the deterministic metrics), and how their results are read back into `QueryResult`s."""

from __future__ import annotations

import logging
import re
import threading
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from langsmith import schemas

from research_crawler.config.settings import Settings
from research_crawler.errors import ConfigError
from research_crawler.eval.compliance import COMPLIANCE_CHECKS, contract_compliance
from research_crawler.eval.dataset import SITE_URL_PLACEHOLDER, DatasetQuery, EvalDataset, QueryContract
from research_crawler.eval.evidence import RunEvidence, read_evidence
from research_crawler.eval.judges import JUDGE_METRICS, Judge, JudgeMetric, JudgeVerdict
from research_crawler.eval.metrics import GroundTruthMetrics, RunFigures, ground_truth_metrics, run_figures
from research_crawler.eval.results import QueryCompliance, QueryResult
from research_crawler.eval.testbed_sites import TestbedSites
from research_crawler.eval.work_figures import WorkFigures, work_figures
from research_crawler.llm.rate_limit import shared_model_limiter
from research_crawler.report.models import Report
from research_crawler.run.run_dir import ModelBackend
from research_crawler.run.session import ResearchSession
from research_crawler.web.shared_politeness import SharedPoliteness

if TYPE_CHECKING:
    from research_crawler.scale.ray_queries import RayQueries

__all__ = ["RUNS_DIR", "EvaluationCalls", "run_dir_name"]

logger = logging.getLogger(__name__)

#: Where an evaluation keeps one run directory per query (and where a replay looks for the recordings).
RUNS_DIR = "runs"
_FIGURE_FIELDS = frozenset(RunFigures.model_fields) - {"by_agent", "stop_reason", "supported_share_source"}
_TRUTH_FIELDS = frozenset(GroundTruthMetrics.model_fields)


def run_dir_name(query_id: str) -> str:
    """The run directory of a query inside ``runs/``: its id with path separators made safe."""
    return re.sub(r"[^A-Za-z0-9._-]+", "--", query_id).strip("-.") or "query"


class EvaluationCalls:
    """The target and the evaluators LangSmith calls, sharing the evidence of each run (thread-safe).

    The results come back from LangSmith (run outputs and feedback) and are turned into `QueryResult`s by
    `query_result`, so what is written locally is exactly what LangSmith recorded.
    """

    def __init__(
        self,
        data: EvalDataset,
        *,
        settings: Settings,
        backend: ModelBackend,
        judge: Judge,
        testbed: TestbedSites | None,
        out: Path,
        replay: Path | None,
        on_query: Callable[[int, int, str, str], None] | None = None,
        ray_queries: RayQueries | None = None,
    ) -> None:
        """`on_query(done, total, query_id, outcome)` is told as each query's run ends (from a worker thread)."""
        self.data = data
        self.on_query = on_query
        self._done = 0
        self.settings = settings
        self.backend = backend
        self.judge = judge
        self.testbed = testbed
        self.out = out
        self.replay = replay
        self._evidence: dict[str, RunEvidence] = {}
        #: One pace per host for every query of the evaluation (they run in threads of their own).
        self.politeness = SharedPoliteness()
        self.model_limiter = shared_model_limiter(settings)
        #: With `eval --backend ray`: each query runs as a Ray task, politeness shared through the cluster's actor.
        self.ray_queries = ray_queries
        self._lock = threading.Lock()

    # --- the target: one query, run by the agents ---------------------------------------------------

    def target(self, inputs: dict[str, Any]) -> dict[str, Any]:
        query_id = str(inputs["query_id"])
        run_dir = self.out / RUNS_DIR / run_dir_name(query_id)
        try:
            site_url = self._site_url(str(inputs["site"]))
            start_urls = [self._site_url(str(name)) for name in inputs.get("start_sites", [])] or [
                site_url,
                *(self._site_url(str(name)) for name in inputs.get("also_sites", [])),
            ]
            replay_from = self.replay / RUNS_DIR / run_dir_name(query_id) if self.replay is not None else None
            if replay_from is not None and not replay_from.is_dir():
                raise ConfigError(f"the recording {self.replay} holds no run of query {query_id}")
            text = str(inputs["query"]).replace(SITE_URL_PLACEHOLDER, site_url)
            allowed = self.testbed.allowed_hosts() if self.testbed is not None else None
            if self.ray_queries is not None:
                report = self.ray_queries.run(
                    self.settings, self.backend, text,
                    sites=start_urls, run_dir=run_dir, allowed_hosts=allowed, replay_from=replay_from,
                )  # fmt: skip
            else:
                session = ResearchSession(
                    self.settings,
                    backend=self.backend,
                    allowed_hosts=allowed,
                    replay_from=replay_from,
                    politeness=self.politeness,
                    model_limiter=self.model_limiter,
                )
                report = session.run(text, sites=start_urls, run_dir=run_dir)
        except Exception as exc:  # one failed query must not end the batch: it is recorded as an error
            logger.exception("query %s failed", query_id)
            self._tell(query_id, f"failed: {type(exc).__name__}")
            return {"query_id": query_id, "report": None, "error": f"{type(exc).__name__}: {exc}"}
        self._tell(query_id, f"{len(report.items)} item(s), {report.stop_reason}")
        return {"query_id": query_id, "report": report.model_dump(mode="json"), "error": ""}

    def _site_url(self, name: str) -> str:
        """The start URL of a dataset site: where the testbed serves it, or its own URL."""
        site = self.data.site(name)
        url = self.testbed.base_url(site.name) if self.testbed is not None else site.url
        if not url:
            raise ConfigError(f"dataset site {name} has no start URL")
        return url

    def _tell(self, query_id: str, outcome: str) -> None:
        with self._lock:
            self._done += 1
            done = self._done
        if self.on_query is not None:
            self.on_query(done, len(self.data.queries), query_id, outcome)

    # --- the evaluators ----------------------------------------------------------------------------

    def evaluators(self) -> list[Any]:
        judges = [self._judge_evaluator(metric) for metric in JUDGE_METRICS]
        deterministic = [self.figures_evaluator]
        if self.data.has_ground_truth:
            deterministic += [self.ground_truth_evaluator, self.works_evaluator]
        if any(query.contract is not None for query in self.data.queries):
            deterministic.append(self.compliance_evaluator)
        return [*judges, *deterministic]

    def _judge_evaluator(self, metric: JudgeMetric) -> Any:
        def evaluate_judge(run: schemas.Run, example: schemas.Example) -> dict[str, Any]:
            verdict = self._verdict(metric, run)
            details = verdict.model_dump(exclude={"metric", "status", "reasoning"})
            return {
                "key": metric,
                "score": verdict.score,
                "value": verdict.status,
                "comment": verdict.reasoning or verdict.error,
                "metadata": details,
            }

        evaluate_judge.__name__ = metric
        return evaluate_judge

    def _verdict(self, metric: JudgeMetric, run: schemas.Run) -> JudgeVerdict:
        try:
            evidence, error = self._evidence_of(run)
            if evidence is None:
                return JudgeVerdict(metric=metric, status="error", error=f"the run failed: {error}")
            return self.judge.judge(metric, evidence)
        except Exception as exc:
            logger.exception("the %s judge failed", metric)
            return JudgeVerdict(metric=metric, status="error", error=f"{type(exc).__name__}: {exc}")

    def figures_evaluator(self, run: schemas.Run, example: schemas.Example) -> dict[str, Any]:
        evidence, _ = self._evidence_of(run)
        if evidence is None:
            return {"results": [{"key": "stop_reason", "value": "error"}]}
        figures = run_figures(evidence.report, evidence)
        results: list[dict[str, Any]] = [
            {"key": name, "score": getattr(figures, name)} for name in sorted(_FIGURE_FIELDS)
        ]
        results.append({"key": "stop_reason", "value": figures.stop_reason})
        results.append({"key": "supported_share_source", "value": figures.supported_share_source})
        return {"results": results}

    def ground_truth_evaluator(self, run: schemas.Run, example: schemas.Example) -> dict[str, Any]:
        evidence, _ = self._evidence_of(run)
        if evidence is None or self.testbed is None:
            return {"results": [{"key": "recall", "score": None, "comment": "the run failed"}]}
        site = str((example.inputs or {})["site"])
        truth = self.testbed.ground_truth(site, list((example.outputs or {}).get("relevant_item_ids", [])))
        metrics = ground_truth_metrics(
            evidence.report,
            evidence,
            truth,
            k=self.settings.eval.cutoff_k,
            paths=self.testbed.paths_from_root(site),
        )
        return {"results": [{"key": name, "score": value} for name, value in metrics.model_dump().items()]}

    def works_evaluator(self, run: schemas.Run, example: schemas.Example) -> dict[str, Any]:
        """The run's works against the ground truth (`eval/work_figures.py`), each count as `works_<name>`."""
        evidence, _ = self._evidence_of(run)
        if evidence is None or self.testbed is None:
            return {"results": []}
        relevant = list((example.outputs or {}).get("relevant_item_ids", []))
        figures = work_figures(evidence.report, self.testbed, relevant)
        return {"results": [{"key": f"works_{name}", "score": value} for name, value in figures.model_dump().items()]}

    def compliance_evaluator(self, run: schemas.Run, example: schemas.Example) -> dict[str, Any]:
        """Request compliance (`eval/compliance.py`) of a query whose dataset entry carries a contract."""
        raw = (example.outputs or {}).get("contract")
        if raw is None:
            return {"results": []}
        evidence, _ = self._evidence_of(run)
        if evidence is None:
            return {"results": [{"key": "compliance", "score": None, "comment": "the run failed"}]}
        contract = QueryContract.model_validate(raw)
        site = str((example.inputs or {})["site"])
        truth = None
        if self.testbed is not None:
            truth = self.testbed.ground_truth(site, list((example.outputs or {}).get("relevant_item_ids", [])))
        named = self._site_url(contract.named_site) if contract.named_site else None
        result = contract_compliance(evidence.report, contract, truth, named_site_url=named)
        comment = "; ".join(result.violations) or "every constraint met"
        return {
            "results": [
                {"key": "compliance", "score": result.score, "comment": comment},
                *({"key": f"compliance_{name}", "score": value} for name, value in result.checks.items()),
            ]
        }

    def _evidence_of(self, run: schemas.Run) -> tuple[RunEvidence | None, str]:
        outputs = run.outputs or {}
        if not outputs.get("report"):
            return None, str(outputs.get("error") or run.error or "the run produced no report")
        report = Report.model_validate(outputs["report"])
        key = report.run_dir or str(outputs.get("query_id"))
        with self._lock:
            if key not in self._evidence:
                self._evidence[key] = read_evidence(report, excerpt_chars=self.settings.eval.judge_page_excerpt_chars)
            return self._evidence[key], ""

    # --- back from LangSmith -----------------------------------------------------------------------

    def query_result(self, query: DatasetQuery, row: Any) -> QueryResult:
        """The result of `query` from LangSmith's row for it (run outputs and evaluation results)."""
        base = {
            "query_id": query.id,
            "site": query.site,
            "site_title": self.data.site(query.site).label,
            "kind": query.kind,
            "query": query.query,
        }
        if row is None:
            return QueryResult(**base, error="LangSmith returned no result for this query")
        outputs = row["run"].outputs or {}
        report = Report.model_validate(outputs["report"]) if outputs.get("report") else None
        feedback = {result.key: result for result in row["evaluation_results"]["results"]}
        verdicts = {
            metric: JudgeVerdict(
                metric=metric,
                status=feedback[metric].value,
                reasoning=feedback[metric].comment if feedback[metric].value != "error" else "",
                **(feedback[metric].metadata or {}),
            )
            for metric in JUDGE_METRICS
            if metric in feedback
        }
        figures = truth = None
        if report is not None:
            figures = RunFigures(
                **{name: feedback[name].score for name in _FIGURE_FIELDS if name in feedback},
                stop_reason=str(feedback["stop_reason"].value),
                supported_share_source=feedback["supported_share_source"].value,
                by_agent=dict(report.stats.by_agent),
            )
            if self.data.has_ground_truth and feedback.keys() >= _TRUTH_FIELDS:
                truth = GroundTruthMetrics(**{name: feedback[name].score for name in _TRUTH_FIELDS})
        works = None
        if report is not None and all(f"works_{name}" in feedback for name in WorkFigures.model_fields):
            counts = {name: int(feedback[f"works_{name}"].score or 0) for name in WorkFigures.model_fields}
            works = WorkFigures(**counts)
        compliance = None
        if query.contract is not None and "compliance" in feedback:
            compliance = QueryCompliance(
                score=feedback["compliance"].score,
                checks={
                    name: float(feedback[f"compliance_{name}"].score or 0.0)
                    for name in COMPLIANCE_CHECKS
                    if f"compliance_{name}" in feedback
                },
                comment=str(feedback["compliance"].comment or ""),
            )
        return QueryResult(
            **base,
            run_dir=report.run_dir if report is not None else None,
            error=str(outputs.get("error") or ""),
            simulated_model=bool(report and report.simulated_model),
            verdicts=verdicts,
            figures=figures,
            ground_truth=truth,
            compliance=compliance,
            works=works,
        )
