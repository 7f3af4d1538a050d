"""The ``eval`` command: the agents evaluated on a dataset (the RAG triad by an LLM judge, ground truth on the
testbed), the results written to a directory and the per-site table printed.
"""

from __future__ import annotations

import os
from datetime import UTC, datetime
from pathlib import Path
from typing import Annotated, Literal

import typer
from rich.markdown import Markdown
from rich.markup import escape

from research_crawler.cli.options import (
    NO_RUN_OPTIONS,
    RayAddressOption,
    RunOptions,
    ScaleBackendOption,
    load_settings,
    with_run_options,
)
from research_crawler.cli.output import console, err_console, friendly_errors
from research_crawler.errors import extra_needed


@friendly_errors
@with_run_options
def evaluate(
    ctx: typer.Context,
    dataset: Annotated[str, typer.Argument(help="testbed, preprints, or a dataset YAML file.")],
    run: RunOptions = NO_RUN_OPTIONS,
    judge_model: Annotated[
        str | None,
        typer.Option("--judge-model", help="The LLM judge's model, or 'simulated' for the offline judge double."),
    ] = None,
    sites: Annotated[
        list[str] | None, typer.Option("--sites", help="Evaluate only these sites of the dataset (repeatable).")
    ] = None,
    concurrency: Annotated[int, typer.Option("--concurrency", min=1, help="Queries at once.")] = 1,
    scale: ScaleBackendOption = "local",
    ray_address: RayAddressOption = None,
    limit: Annotated[
        int | None, typer.Option("--limit", min=1, help="At most N queries of each site (a quick, smaller run).")
    ] = None,
    kinds: Annotated[
        list[str] | None,
        typer.Option(
            "--kind",
            help="Only queries of this kind: general, specific, constrained or unfamiliar (repeatable).",
            metavar="KIND",
        ),
    ] = None,
    split: Annotated[
        str,
        typer.Option(
            "--split",
            help="The testbed's queries to run: evaluation (those the simulated model was not calibrated on), "
            "calibration, or all.",
            metavar="SPLIT",
        ),
    ] = "evaluation",
    out: Annotated[Path | None, typer.Option("--out", help="A new directory for the results.", file_okay=False)] = None,
    replay: Annotated[
        Path | None,
        typer.Option("--replay", help="Answer only from an earlier evaluation's recorded pages.", file_okay=False),
    ] = None,
) -> None:
    """Evaluate the agents on a dataset: the RAG triad (LLM judge, through LangSmith) and, on the testbed,
    ground-truth metrics; writes results.json, results.csv and the per-site Table I (table.md)."""
    from research_crawler.cli.run_helpers import check_can_run

    with extra_needed("eval", "evaluation"):  # a core install has no LangSmith
        from research_crawler.eval.dataset import resolve_dataset
        from research_crawler.eval.runner import run_evaluation
        from research_crawler.eval.table import tables_markdown

    backend, flags = run.backend_and_flags()
    judge: Literal["llm", "simulated"] = "simulated" if judge_model == "simulated" else "llm"
    if judge_model and judge == "llm":
        flags["models.agent_models"] = {"judge": judge_model}
    settings = load_settings(ctx, flags, preset=run.preset)
    check_can_run(settings, needs_model=backend == "openai" or judge == "llm")
    os.environ.setdefault("TQDM_DISABLE", "1")  # LangSmith's own bar has no total: ours below has one
    target = out or settings.runs_dir / f"eval-{datetime.now(UTC).strftime('%Y%m%dT%H%M%S')}"
    result = run_evaluation(
        resolve_dataset(dataset),
        settings=settings,
        backend=backend,
        judge=judge,
        sites=sites or None,
        kinds=kinds or None,
        split=split,
        concurrency=concurrency,
        scale=scale,
        ray_address=ray_address,
        out=target,
        replay=replay,
        limit=limit,
        on_query=lambda done, total, query_id, outcome: err_console.print(
            f"[{done}/{total}] {escape(query_id)}: {escape(outcome)}",
            highlight=False,
            no_wrap=True,
            overflow="ellipsis",
        ),
    )
    console.print(Markdown(tables_markdown(result)) if console.is_terminal else tables_markdown(result))
    if result.simulated_model or judge == "simulated":
        console.print("[yellow]Simulated model or judge: these figures test the machinery, not an LLM.[/]")
    console.print(f"Results: {target} (results.json, results.csv, table.md)")
    where = "uploaded" if result.uploaded else "local, not uploaded"
    console.print(f"Experiment: {escape(result.experiment_name)} ({where})", highlight=False, soft_wrap=True)
    if result.experiment_url:
        console.print(f"LangSmith experiment: {result.experiment_url}")
