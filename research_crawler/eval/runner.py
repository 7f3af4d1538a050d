"""Batch evaluation through LangSmith: every query of a dataset is run by the agents, then judged and measured.

``langsmith.evaluate`` is the runner in both modes. With a LangSmith API key the dataset is created or updated
and the experiment uploaded, so prompts and models can be compared in the LangSmith UI; without one the same
call runs with ``upload_results=False`` and a client that cannot reach the network. Either way the results are
written locally: ``results.json``, ``results.csv``, ``table.md`` (the paper's Table I shape) and one run
directory per query under ``runs/`` (pages included, so the evaluation can be replayed).
"""

from __future__ import annotations

import logging
import time
import warnings
from collections.abc import Callable, Sequence
from contextlib import ExitStack
from pathlib import Path
from typing import Any, Literal, get_args

import langsmith

from research_crawler.config.settings import MODEL_ROLES, Settings
from research_crawler.context.durable_files import atomic_write_text
from research_crawler.errors import ConfigError
from research_crawler.eval.dataset import DatasetQuery, EvalDataset, load_dataset
from research_crawler.eval.evaluation_calls import RUNS_DIR, EvaluationCalls, run_dir_name
from research_crawler.eval.experiment_name import langsmith_start_line
from research_crawler.eval.judge_client import make_judge
from research_crawler.eval.judges import Judge
from research_crawler.eval.langsmith_client import langsmith_client, local_examples, sync_dataset, uploads_enabled
from research_crawler.eval.query_splits import split_of_text
from research_crawler.eval.results import EvaluationResult, write_results
from research_crawler.eval.table import TABLE_FILE, tables_markdown
from research_crawler.eval.testbed import TestbedServer
from research_crawler.eval.testbed_sites import TestbedSites
from research_crawler.llm.simulated import SIMULATED_MODEL_NAME
from research_crawler.report.models import AgentStats
from research_crawler.run.run_dir import ModelBackend
from research_crawler.scale.connect import connect_ray

__all__ = ["RUNS_DIR", "JudgeKind", "SplitChoice", "run_dir_name", "run_evaluation"]

logger = logging.getLogger(__name__)

JudgeKind = Literal["llm", "simulated"]
#: Which of the testbed's queries an evaluation runs (`eval/query_splits.py`).
SplitChoice = Literal["evaluation", "calibration", "all"]


def run_evaluation(
    dataset: Path,
    *,
    settings: Settings,
    backend: ModelBackend,
    judge: JudgeKind,
    sites: Sequence[str] | None = None,
    kinds: Sequence[str] | None = None,
    split: str = "evaluation",
    concurrency: int = 1,
    out: Path,
    replay: Path | None = None,
    testbed_server: TestbedServer | None = None,
    limit: int | None = None,
    on_query: Callable[[int, int, str, str], None] | None = None,
    scale: Literal["local", "ray"] = "local",
    ray_address: str | None = None,
) -> EvaluationResult:
    """Evaluate the agents on `dataset` (a dataset file) and write the results into `out` (a new directory).

    `sites` restricts the evaluation to some of the dataset's sites, `kinds` to some kinds of query (general,
    specific, constrained); `split` to the testbed's evaluation queries (the default: those no calibration of the
    simulated model saw), its calibration queries, or all (`eval/query_splits.py`; a web dataset has no split);
    `concurrency` queries run at once.
    `replay` is the output directory of an earlier evaluation: every fetch is answered from its recorded pages
    (and the testbed addresses it recorded), so a benchmark is repeated on identical pages. `testbed_server`
    is a running testbed to use instead of starting one (testbed datasets only). `limit` keeps at most that
    many queries of each site; `on_query(done, total, query_id, outcome)` is told as each query ends. `scale`
    "ray" runs each query as a Ray task (on the cluster at `ray_address`, or a local Ray instance).
    """
    started = time.monotonic()
    if concurrency < 1:
        raise ConfigError(f"concurrency must be at least 1, not {concurrency}")
    if split not in get_args(SplitChoice):
        raise ConfigError(f"no split {split!r}; the splits are: {', '.join(get_args(SplitChoice))}")
    data = load_dataset(dataset).select(list(sites) if sites is not None else None).of_kinds(kinds)
    if data.source == "testbed" and split != "all":
        data = data.model_copy(update={"queries": tuple(q for q in data.queries if split_of_text(q.query) == split)})
    data = data.limited(limit)
    if not data.queries:
        raise ConfigError(f"no queries to evaluate in {dataset} for the sites {list(sites or [])}")
    if replay is not None and not (replay / RUNS_DIR).is_dir():
        raise ConfigError(f"--replay {replay}: not the output directory of an evaluation (no {RUNS_DIR}/ in it)")
    judge_ = make_judge(settings, judge)
    upload = uploads_enabled(settings.eval)
    _prepare_out(out)
    client = langsmith_client(settings.eval, upload=upload)
    with ExitStack() as stack:
        testbed, server = _testbed_sites(data, settings=settings, replay=replay, server=testbed_server, stack=stack)
        if testbed is not None:
            testbed.write(out)
        hits_before = server.hit_counts() if server is not None else None
        rows = [_example_row(data, query) for query in data.queries]
        langsmith_dataset = f"{settings.eval.dataset_prefix}-{data.name}"
        examples = (
            sync_dataset(client, name=langsmith_dataset, description=data.description, rows=rows)
            if upload
            else local_examples(langsmith_dataset, rows)
        )
        run_settings = settings
        if testbed is not None:  # the testbed is on loopback, which the URL guard refuses unless allowed
            run_settings = settings.model_copy(deep=True)
            run_settings.fetch.allowed_hosts = [*settings.fetch.allowed_hosts, *testbed.allowed_hosts()]
        evaluation = EvaluationCalls(
            data,
            settings=run_settings,
            backend=backend,
            judge=judge_,
            testbed=testbed,
            out=out,
            replay=replay,
            on_query=on_query,
            ray_queries=connect_ray(run_settings, address=ray_address) if scale == "ray" else None,
        )
        with warnings.catch_warnings(), langsmith_start_line() as start_line:
            warnings.filterwarnings("ignore", message=".*'upload_results' parameter is in beta.*")
            results = langsmith.evaluate(
                evaluation.target,
                data=examples,
                evaluators=evaluation.evaluators(),
                experiment_prefix=settings.eval.experiment_prefix
                or _experiment_prefix(data, settings, backend, judge_),
                description=f"research-crawler on {data.name} ({len(data.queries)} queries)",
                metadata=_experiment_metadata(data, settings, backend, judge_, replay),
                max_concurrency=concurrency if concurrency > 1 else 0,
                client=client,
                upload_results=upload,
            )
            rows_out = list(results)
        # Uploaded, the experiment's name is the project's; local, LangSmith names it twice (the start line and
        # then a random one): the start line's name is the one kept.
        experiment_name = results.experiment_name if upload else start_line.name or results.experiment_name
        robots = None
        if server is not None:
            robots = {
                site: paths
                for site, paths in server.robots_violations(since=hits_before).items()
                if any(site in query.run_sites for query in data.queries)
            }
    by_query = {str((row["example"].metadata or {}).get("query_id")): row for row in rows_out}
    queries = [evaluation.query_result(query, by_query.get(query.id)) for query in data.queries]
    judge_usage = judge_.client.ledger.totals()
    result = EvaluationResult(
        dataset=data.name,
        dataset_file=str(dataset),
        source=data.source,
        backend=backend,
        simulated_model=backend == "simulated",
        models=_models(settings, backend),
        judge=judge,
        judge_model=judge_.model,
        judge_usage=AgentStats(
            model_calls=judge_usage.calls,
            input_tokens=judge_usage.input_tokens,
            output_tokens=judge_usage.output_tokens,
            cost_usd=round(judge_usage.cost_usd, 6),
            failures=judge_usage.failures,
        ),
        sites=[site for site in data.site_names() if any(q.site == site for q in data.queries)],
        site_titles={site.name: site.label for site in data.sites},
        concurrency=concurrency,
        experiment_name=experiment_name,
        uploaded=upload,
        experiment_url=_experiment_url(client, experiment_name) if upload else None,
        langsmith_dataset=langsmith_dataset if upload else None,
        replay_of=str(replay) if replay is not None else None,
        wall_time_s=round(time.monotonic() - started, 3),
        out_dir=str(out),
        robots_violations=robots,
        queries=queries,
    )
    write_results(result, out)
    atomic_write_text(out / TABLE_FILE, tables_markdown(result))
    logger.info("evaluation of %s written to %s (experiment %s)", data.name, out, experiment_name)
    return result


def _prepare_out(out: Path) -> None:
    if out.exists() and not out.is_dir():
        raise ConfigError(f"--out {out} is a file, not a directory")
    if out.is_dir() and any(out.iterdir()):
        raise ConfigError(f"--out {out} is not empty: an evaluation writes into a new or empty directory")
    out.mkdir(parents=True, exist_ok=True)


def _testbed_sites(
    data: EvalDataset, *, settings: Settings, replay: Path | None, server: TestbedServer | None, stack: ExitStack
) -> tuple[TestbedSites | None, TestbedServer | None]:
    """The testbed addresses — recorded (replay), the given server, or a testbed started for this evaluation — and
    the server that answers (None for a replay)."""
    if data.source != "testbed":
        return None, None
    if replay is not None:
        sites = TestbedSites.read(replay)
        server = None
    else:
        if server is None:
            server = stack.enter_context(
                TestbedServer(TestbedSites.testbed_for(data), slow_seconds=settings.eval.testbed_slow_seconds)
            )
        sites = TestbedSites.from_server(server)
    sites.check(data)
    return sites, server


def _example_row(data: EvalDataset, query: DatasetQuery) -> dict[str, Any]:
    """A LangSmith example: the request as input, the ground truth (port-independent item ids) as reference."""
    inputs: dict[str, Any] = {"query_id": query.id, "query": query.query, "site": query.site}
    if query.start_sites:
        inputs["start_sites"] = list(query.start_sites)
    if query.also_sites:
        inputs["also_sites"] = list(query.also_sites)
    outputs: dict[str, Any] = {"relevant_item_ids": list(query.relevant)} if data.has_ground_truth else {}
    if query.contract is not None:
        outputs["contract"] = query.contract.model_dump(exclude_defaults=True)
    return {
        "inputs": inputs,
        "outputs": outputs,
        "metadata": {"query_id": query.id, "site": query.site, "kind": query.kind},
    }


def _models(settings: Settings, backend: ModelBackend) -> dict[str, str]:
    roles = [role for role in MODEL_ROLES if role != "judge"]
    if backend == "simulated":
        return dict.fromkeys(roles, SIMULATED_MODEL_NAME)
    return {role: settings.models.model_for(role) for role in roles}


def _experiment_prefix(data: EvalDataset, settings: Settings, backend: ModelBackend, judge: Judge) -> str:
    agents = SIMULATED_MODEL_NAME if backend == "simulated" else settings.models.strong_model
    return f"{data.name}-{agents}-judged-by-{judge.model}"


def _experiment_metadata(
    data: EvalDataset, settings: Settings, backend: ModelBackend, judge: Judge, replay: Path | None
) -> dict[str, Any]:
    return {
        "dataset": data.name,
        "sites": data.site_names(),
        "backend": backend,
        "models": _models(settings, backend),
        "judge_model": judge.model,
        "simulated_judge": judge.simulated,
        "max_subpages": settings.explore.max_subpages,
        "max_subpages_earned": settings.explore.max_subpages_earned,
        "reranker": settings.rerank.kind,
        "replay": replay is not None,
    }


def _experiment_url(client: langsmith.Client, experiment_name: str) -> str | None:
    try:
        project = client.read_project(project_name=experiment_name)
        return str(project.url) if project.url else None
    except Exception as exc:  # the URL is a convenience: the upload itself has succeeded
        logger.warning("cannot read the URL of experiment %s: %s", experiment_name, exc)
        return None
