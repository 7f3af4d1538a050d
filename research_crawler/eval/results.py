"""An evaluation's results: per query (verdicts with reasoning, figures, ground-truth metrics) and for the whole
run, written as ``results.json`` (everything, read back by `load_results`) and ``results.csv`` (one flat row per
query, for spreadsheets)."""

from __future__ import annotations

import csv
import io
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, Field, ValidationError

from research_crawler.context.durable_files import atomic_write_text
from research_crawler.errors import ConfigError
from research_crawler.eval.judges import JUDGE_METRICS, JudgeVerdict
from research_crawler.eval.metrics import GroundTruthMetrics, RunFigures
from research_crawler.eval.work_figures import WorkFigures
from research_crawler.report.models import AgentStats
from research_crawler.text.spreadsheet import spreadsheet_row

__all__ = [
    "RESULTS_CSV",
    "RESULTS_JSON",
    "EvaluationResult",
    "QueryCompliance",
    "QueryResult",
    "load_results",
    "results_csv",
    "write_results",
]

RESULTS_JSON = "results.json"
RESULTS_CSV = "results.csv"


class QueryCompliance(BaseModel):
    """Request compliance of one query (`eval/compliance.py`): the share of its constraints met, each check, why."""

    score: float | None = None
    checks: dict[str, float] = Field(default_factory=dict)
    comment: str = ""


class QueryResult(BaseModel):
    """One query of the dataset: its run, the judges' verdicts and the deterministic metrics."""

    query_id: str
    site: str
    site_title: str = ""
    kind: str
    query: str
    run_dir: str | None = None
    error: str = Field("", description="Why the run itself failed; its verdicts are then errors too.")
    simulated_model: bool = False
    verdicts: dict[str, JudgeVerdict] = Field(default_factory=dict)
    figures: RunFigures | None = None
    ground_truth: GroundTruthMetrics | None = None
    compliance: QueryCompliance | None = Field(None, description="For a request with constraints (a contract).")
    works: WorkFigures | None = Field(None, description="Works against the ground truth (testbed datasets).")

    def value(self, metric: str) -> float | None:
        """A metric by name: a judge's score (1, 0, None for an error), a figure, a ground-truth metric, or request
        compliance (``compliance``, ``compliance_<check>``)."""
        if metric in JUDGE_METRICS:
            verdict = self.verdicts.get(metric)
            return verdict.score if verdict is not None else None
        if metric.startswith("compliance"):
            if self.compliance is None:
                return None
            if metric == "compliance":
                return self.compliance.score
            return self.compliance.checks.get(metric.removeprefix("compliance_"))
        for source in (self.figures, self.ground_truth, self.works):
            if source is not None and metric in type(source).model_fields:
                value = getattr(source, metric)
                return float(value) if isinstance(value, int | float) and not isinstance(value, bool) else None
        return None


class EvaluationResult(BaseModel):
    """A whole evaluation: what was evaluated with which models, where it went, and every query's result."""

    dataset: str
    dataset_file: str
    source: Literal["testbed", "web"]
    backend: str
    simulated_model: bool
    models: dict[str, str] = Field(default_factory=dict, description="The model of each agent role.")
    judge: Literal["llm", "simulated"]
    judge_model: str
    judge_usage: AgentStats = Field(default_factory=AgentStats)
    sites: list[str] = Field(
        default_factory=list, description="Dataset names of the sites evaluated (with queries), in the dataset's order."
    )
    site_titles: dict[str, str] = Field(default_factory=dict)
    concurrency: int = 1
    experiment_name: str = ""
    uploaded: bool = False
    experiment_url: str | None = None
    langsmith_dataset: str | None = None
    replay_of: str | None = None
    started_at: datetime = Field(default_factory=lambda: datetime.now(UTC))
    wall_time_s: float = 0.0
    out_dir: str = ""
    robots_violations: dict[str, list[str]] | None = Field(
        None,
        description="Per testbed site, the requests the evaluation sent that its robots.txt forbids (None: not "
        "counted, as in a replay).",
    )
    queries: list[QueryResult] = Field(default_factory=list)

    def for_site(self, site: str) -> list[QueryResult]:
        return [query for query in self.queries if query.site == site]

    def values(self, metric: str, *, site: str | None = None) -> list[float | None]:
        """`metric` of every query (of one site), None where it is undefined or an error."""
        return [q.value(metric) for q in self.queries if site is None or q.site == site]


def write_results(result: EvaluationResult, out_dir: Path) -> None:
    """Write ``results.json`` and ``results.csv`` into `out_dir`."""
    out_dir.mkdir(parents=True, exist_ok=True)
    atomic_write_text(out_dir / RESULTS_JSON, result.model_dump_json(indent=2))
    atomic_write_text(out_dir / RESULTS_CSV, results_csv(result))


def load_results(out_dir: Path) -> EvaluationResult:
    """The results an evaluation wrote into `out_dir` (a ConfigError when there are none or they are damaged)."""
    path = Path(out_dir) / RESULTS_JSON
    try:
        return EvaluationResult.model_validate_json(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise ConfigError(f"no evaluation results in {out_dir}: {exc}") from exc
    except ValidationError as exc:
        raise ConfigError(f"{path} is not a readable evaluation result: {exc.error_count()} problem(s)") from exc


def results_csv(result: EvaluationResult) -> str:
    """One row per query: verdicts with reasoning, figures, ground-truth metrics and usage per agent."""
    agents: list[str] = []
    for query in result.queries:
        for agent in query.figures.by_agent if query.figures else {}:
            if agent not in agents:
                agents.append(agent)
    rows = [_row(query, agents) for query in result.queries]
    columns: list[str] = []
    for row in rows:
        columns.extend(key for key in row if key not in columns)
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=columns, lineterminator="\n")
    writer.writeheader()
    writer.writerows(spreadsheet_row(row) for row in rows)
    return buffer.getvalue()


def _row(query: QueryResult, agents: list[str]) -> dict[str, Any]:
    row: dict[str, Any] = {
        "query_id": query.query_id,
        "site": query.site,
        "kind": query.kind,
        "query": query.query,
        "error": query.error,
    }
    for metric in JUDGE_METRICS:
        verdict = query.verdicts.get(metric)
        row[metric] = "" if verdict is None or verdict.score is None else int(verdict.score)
        row[f"{metric}_status"] = verdict.status if verdict else ""
        row[f"{metric}_reasoning"] = verdict.reasoning if verdict else ""
        row[f"{metric}_attempts"] = verdict.attempts if verdict else ""
        row[f"{metric}_error"] = verdict.error if verdict else ""
    figures = (
        query.figures.model_dump(exclude={"by_agent"}) if query.figures else dict.fromkeys(RunFigures.model_fields)
    )
    figures.pop("by_agent", None)
    row.update({key: "" if value is None else value for key, value in figures.items()})
    truth = query.ground_truth.model_dump() if query.ground_truth else {}
    row.update({key: "" if value is None else value for key, value in truth.items()})
    works = query.works.model_dump() if query.works else {}
    row.update({f"works_{key}": value for key, value in works.items()})
    if query.compliance is not None:
        row["compliance"] = "" if query.compliance.score is None else query.compliance.score
        row.update({f"compliance_{name}": value for name, value in query.compliance.checks.items()})
        row["compliance_comment"] = query.compliance.comment
    by_agent = query.figures.by_agent if query.figures else {}
    for agent in agents:
        stats = by_agent.get(agent, AgentStats())
        row[f"{agent}_calls"] = stats.model_calls
        row[f"{agent}_input_tokens"] = stats.input_tokens
        row[f"{agent}_output_tokens"] = stats.output_tokens
        row[f"{agent}_cost_usd"] = stats.cost_usd
    row["run_dir"] = query.run_dir or ""
    return row
