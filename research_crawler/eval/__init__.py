"""Testbed web, evaluators and benchmarks: the RAG triad through LangSmith and ground-truth metrics on the testbed.

    from research_crawler.eval import run_evaluation, resolve_dataset
    result = run_evaluation(resolve_dataset("testbed"), settings=settings, backend="simulated",
                            judge="simulated", sites=["arxiv-like"], out=Path("eval-out"))

Names are imported on first use: the runner pulls in AG2 and LangSmith, which the testbed alone does not need.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from research_crawler.eval.dataset import (
        BUILTIN_DATASETS,
        DatasetQuery,
        DatasetSite,
        EvalDataset,
        builtin_dataset_path,
        load_dataset,
        resolve_dataset,
    )
    from research_crawler.eval.judge_client import make_judge
    from research_crawler.eval.judges import JUDGE_METRICS, Judge, JudgeVerdict, parse_judge_reply
    from research_crawler.eval.metrics import GroundTruth, GroundTruthMetrics, RunFigures
    from research_crawler.eval.results import EvaluationResult, QueryResult, load_results
    from research_crawler.eval.runner import JudgeKind, run_evaluation
    from research_crawler.eval.simulated_judge import SimulatedJudgeClient
    from research_crawler.eval.table import SiteTable, render_markdown, site_table, tables_markdown

_EXPORTS = {
    "BUILTIN_DATASETS": "dataset",
    "DatasetQuery": "dataset",
    "DatasetSite": "dataset",
    "EvalDataset": "dataset",
    "builtin_dataset_path": "dataset",
    "load_dataset": "dataset",
    "resolve_dataset": "dataset",
    "make_judge": "judge_client",
    "JUDGE_METRICS": "judges",
    "Judge": "judges",
    "JudgeVerdict": "judges",
    "parse_judge_reply": "judges",
    "GroundTruth": "metrics",
    "GroundTruthMetrics": "metrics",
    "RunFigures": "metrics",
    "EvaluationResult": "results",
    "QueryResult": "results",
    "load_results": "results",
    "JudgeKind": "runner",
    "run_evaluation": "runner",
    "SimulatedJudgeClient": "simulated_judge",
    "SiteTable": "table",
    "render_markdown": "table",
    "site_table": "table",
    "tables_markdown": "table",
}

__all__ = [
    "BUILTIN_DATASETS",
    "JUDGE_METRICS",
    "DatasetQuery",
    "DatasetSite",
    "EvalDataset",
    "EvaluationResult",
    "GroundTruth",
    "GroundTruthMetrics",
    "Judge",
    "JudgeKind",
    "JudgeVerdict",
    "QueryResult",
    "RunFigures",
    "SimulatedJudgeClient",
    "SiteTable",
    "builtin_dataset_path",
    "load_dataset",
    "load_results",
    "make_judge",
    "parse_judge_reply",
    "render_markdown",
    "resolve_dataset",
    "run_evaluation",
    "site_table",
    "tables_markdown",
]


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'research_crawler.eval' has no attribute {name!r}")
    return getattr(importlib.import_module(f"research_crawler.eval.{module}"), name)
