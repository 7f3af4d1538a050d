"""Queries as Ray tasks: each runs the same code path as `ask` (a `ResearchCrawler` run, or a resume when its run
directory already holds one) on whichever worker Ray chooses, with the cluster's shared politeness and model limits.

A worker or node that dies mid-query has its task retried by Ray (`max_retries`): the retry resumes from the run
directory when that directory is on storage the new worker sees, and starts again otherwise. An error of the query
itself (a bad setting, no model endpoint) is not retried: it is the query's result.
"""

from __future__ import annotations

import logging
import socket
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import ray
from ray.util.scheduling_strategies import NodeAffinitySchedulingStrategy

from research_crawler.api import Backend, ResearchCrawler
from research_crawler.config.settings import Settings
from research_crawler.errors import ConfigError, ResearchCrawlerError
from research_crawler.report.models import Report
from research_crawler.scale.ray_politeness import PolitenessActor, RayModelLimiter, ray_shared

__all__ = ["DEFAULT_RETRIES", "RayQueries", "start_ray"]

logger = logging.getLogger(__name__)

#: How often a query whose worker died is tried again before it is recorded as failed.
DEFAULT_RETRIES = 3


#: How long a cluster's address may take to answer a connection before it is reported unreachable.
REACH_TIMEOUT_S = 5.0


def _unreachable(address: str) -> str | None:
    """Why nothing answers at `address` (HOST:PORT or ray://HOST:PORT), or None; Ray itself would wait minutes."""
    host, _, port = address.removeprefix("ray://").rpartition(":")
    if not host or not port.isdigit():
        return None  # "auto", or a form Ray reports on its own
    try:
        socket.create_connection((host.strip("[]"), int(port)), timeout=REACH_TIMEOUT_S).close()
    except OSError as exc:
        return exc.strerror or type(exc).__name__
    return None


def start_ray(address: str | None) -> None:
    """Join the cluster at `address` ("auto": the one this machine belongs to), or start a local Ray instance of
    the run's own (never one found on the machine: another program's cluster is joined only when asked)."""
    if ray.is_initialized():
        return
    if address and (reason := _unreachable(address)) is not None:
        raise ConfigError(
            f"cannot reach the Ray cluster at {address} ({reason}); start it there with `ray start --head --port "
            f"{address.rpartition(':')[2]}`, or on a machine of the cluster pass --ray-address auto"
        )
    try:
        ray.init(
            address=address or "local",
            include_dashboard=False,
            logging_level=logging.WARNING,
            log_to_driver=False,
            configure_logging=False,
        )
    except (ConnectionError, RuntimeError, ValueError) as exc:
        where = f"the Ray cluster at {address}" if address else "a local Ray instance"
        raise ConfigError(
            f"cannot reach {where}: {str(exc).rstrip('.')}; "
            "start one with `ray start --head` and pass --ray-address auto"
        ) from exc


@ray.remote
def _run_query(
    settings: Settings,
    backend: Backend,
    query: str,
    sites: Sequence[str],
    run_dir: str,
    actor: Any,
    options: dict[str, Any],
) -> str:
    """One query on a worker: its report as JSON (a resume when the run directory already holds the run)."""
    crawler = ResearchCrawler(
        settings, backend=backend, politeness=ray_shared(actor), model_limiter=RayModelLimiter(actor), **options
    )
    directory = Path(run_dir)
    if (directory / "run.json").exists():
        report = crawler.resume(directory)
    else:
        report = crawler.run(query, sites=list(sites), run_dir=directory)
    return report.model_dump_json()


class RayQueries:
    """Submits queries to Ray; one politeness actor for all of them (created on first use)."""

    def __init__(self, settings: Settings, *, address: str | None, retries: int = DEFAULT_RETRIES) -> None:
        start_ray(address)
        models = settings.models
        # On this node: a worker node may die (its queries are retried elsewhere), the driver's node is the batch.
        here = NodeAffinitySchedulingStrategy(node_id=ray.get_runtime_context().get_node_id(), soft=False)
        actor = PolitenessActor.options(scheduling_strategy=here)  # type: ignore[attr-defined]
        self.actor = actor.remote(models.requests_per_minute, models.tokens_per_minute)
        self.retries = retries

    def submit(
        self,
        settings: Settings,
        backend: Backend,
        query: str,
        *,
        sites: Sequence[str],
        run_dir: Path,
        allowed_hosts: Sequence[str] | None = None,
        replay_from: Path | None = None,
    ) -> ray.ObjectRef:
        """Start the query on the cluster; `await` the returned reference (or `ray.get` it) for its report JSON.
        `allowed_hosts` and `replay_from` are `ResearchCrawler`'s (an evaluation's testbed, its recording)."""
        options = {"allowed_hosts": allowed_hosts, "replay_from": replay_from}
        task = _run_query.options(max_retries=self.retries, retry_exceptions=False)
        return task.remote(settings, backend, query, list(sites), str(run_dir), self.actor, options)

    def run(self, settings: Settings, backend: Backend, query: str, **where: Any) -> Report:
        """`submit`, then wait for the report (blocking); a failure raises with `failure`'s one line."""
        ref = self.submit(settings, backend, query, **where)
        try:
            return self.report_of(ray.get(ref))
        except Exception as exc:
            raise ResearchCrawlerError(self.failure(exc)) from exc

    @staticmethod
    def report_of(reply: str) -> Report:
        return Report.model_validate_json(reply)

    def failure(self, exc: BaseException) -> str:
        """Why a query failed on the cluster, in one line (the query's own error when it raised one)."""
        if isinstance(exc, ray.exceptions.RayTaskError):
            cause = exc.cause if getattr(exc, "cause", None) is not None else exc
            return f"{type(cause).__name__}: {cause}".splitlines()[0]
        if isinstance(exc, ray.exceptions.WorkerCrashedError | ray.exceptions.NodeDiedError):
            return f"its worker died (tried {self.retries + 1} times): {type(exc).__name__}"
        return f"{type(exc).__name__}: {exc}".splitlines()[0]

    def cancel(self, ref: ray.ObjectRef) -> None:
        ray.cancel(ref)
