"""The runs of the web app: new runs, follow-ups, resumes and cancels through the Python API, at most
`serve.max_concurrent_runs` at once, every run in its own run directory under runs_dir (so a run started from
the web is like any other, and a restarted server lists it again).
"""

from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import Any

from research_crawler.api import Backend, ResearchCrawler, require_model_endpoint
from research_crawler.config.settings import Settings
from research_crawler.errors import StateError
from research_crawler.run.run_dir import RunMeta, new_run_dir
from research_crawler.serve.run_files import (
    RunSummary,
    disk_status,
    list_runs,
    read_report,
    read_report_json,
    run_directory,
)
from research_crawler.serve.run_request import FollowUpRequest, RunRequest, resolve_run_options
from research_crawler.serve.web_run import RunStatus, WebRun
from research_crawler.text.untrusted import untrusted
from research_crawler.web.shared_politeness import SharedPoliteness

__all__ = ["RunBusy", "RunManager", "TooManyRuns"]


class TooManyRuns(RuntimeError):
    """Starting one more run would pass `serve.max_concurrent_runs` (HTTP 429)."""


class RunBusy(RuntimeError):
    """The run is working (a follow-up or resume must wait), or is not working (nothing to cancel): HTTP 409."""


class RunManager:
    """Starts and tracks the web app's runs. Thread-safe; its methods return at once (runs work in threads)."""

    def __init__(
        self, settings: Settings, *, backend: Backend, allowed_hosts: list[str] | None = None
    ) -> None:
        self.settings = settings
        self.backend: Backend = backend
        self.allowed_hosts = allowed_hosts
        self.politeness = SharedPoliteness()  # one pace per host across the server's runs
        self._runs: dict[str, WebRun] = {}
        self._lock = threading.Lock()

    @property
    def runs_dir(self) -> Path:
        return self.settings.runs_dir

    # --- starting work ---------------------------------------------------------------------------

    def start(self, request: RunRequest) -> WebRun:
        """A new run for `request` in a fresh run directory. Raises TooManyRuns, ConfigError, ModelError."""
        settings, backend = resolve_run_options(request, self.settings, self.backend)
        if backend == "openai":
            require_model_endpoint(settings)
        crawler = self._crawler(settings, backend)
        with self._lock:
            self._check_capacity()
            run_dir = new_run_dir(settings.runs_dir, request.query)
            web_run = WebRun(run_dir.name, run_dir.resolve(), crawler, query=request.query)
            self._runs[web_run.id] = web_run
        query, sites = request.query, list(request.sites)
        web_run.launch(lambda on_event: crawler.arun(query, sites=sites, run_dir=run_dir, on_event=on_event))
        return web_run

    def follow_up(self, run_id: str, request: FollowUpRequest) -> WebRun:
        """A follow-up in the run's directory: what was fetched and collected is kept."""
        web_run = self._idle_run(run_id)
        query, sites, run_dir = request.query, list(request.sites), web_run.run_dir
        web_run.queries.append(query)
        web_run.launch(
            lambda on_event: web_run.crawler.afollow_up(run_dir, query, sites=sites, on_event=on_event)
        )
        return web_run

    def resume(self, run_id: str) -> WebRun:
        """Continue a run that was killed or cancelled, with the settings it recorded."""
        web_run = self._idle_run(run_id)
        run_dir = web_run.run_dir
        web_run.launch(lambda on_event: web_run.crawler.aresume(run_dir, on_event=on_event))
        return web_run

    def cancel(self, run_id: str) -> WebRun:
        """Stop a working run gracefully. Raises RunBusy when it is not working."""
        self.run_dir(run_id)
        with self._lock:
            web_run = self._runs.get(run_id)
        if web_run is None or web_run.status != "running":
            raise RunBusy("this run is not working: there is nothing to cancel")
        web_run.cancel()
        return web_run

    # --- reading ---------------------------------------------------------------------------------

    def run_dir(self, run_id: str) -> Path:
        """The run directory of `run_id`: one this server works on (it may not hold run.json yet), or one in
        runs_dir (see `run_directory`). Raises RunNotFound."""
        web_run = self.live(run_id)
        return web_run.run_dir if web_run is not None else run_directory(self.runs_dir, run_id)

    def queries(self, run_id: str) -> list[str]:
        """The queries asked in the run, first to last (run.json's, or those this server was given)."""
        run_dir = self.run_dir(run_id)
        try:
            meta = RunMeta.read(run_dir)
        except StateError:
            web_run = self.live(run_id)
            return list(web_run.queries) if web_run is not None else []
        return [untrusted(query) for query in (meta.queries or [meta.query])]

    def live(self, run_id: str) -> WebRun | None:
        """The run this server is working on or has worked on, if any (None for a run only on disk)."""
        with self._lock:
            return self._runs.get(run_id)

    def status(self, run_id: str) -> tuple[RunStatus, str]:
        """(status, error) of a run, live or on disk. Raises RunNotFound."""
        run_dir = self.run_dir(run_id)
        web_run = self.live(run_id)
        if web_run is not None:
            return web_run.status, web_run.error
        meta = RunMeta.read(run_dir)
        status: RunStatus = disk_status(meta, read_report(run_dir))  # type: ignore[assignment]
        return status, ""

    def describe(self, run_id: str) -> dict[str, Any]:
        """`GET /api/runs/{id}`: the status, the queries asked, and report.json once there is one."""
        run_dir = self.run_dir(run_id)
        status, error = self.status(run_id)
        web_run = self.live(run_id)
        return {
            "id": run_id,
            "status": status,
            "error": error or None,
            "queries": self.queries(run_id),
            "progress": web_run.progress.snapshot() if web_run is not None else None,
            "report": read_report_json(run_dir) if status != "running" else None,
        }

    def list(self) -> list[RunSummary]:
        """The runs in runs_dir, newest first, with the live status of those this server works on."""
        with self._lock:
            live: dict[str, str] = {run_id: web_run.status for run_id, web_run in self._runs.items()}
        return list_runs(self.runs_dir, limit=self.settings.serve.max_listed_runs, live=live)

    def active(self) -> int:
        """Runs working now."""
        with self._lock:
            return sum(1 for web_run in self._runs.values() if web_run.status == "running")

    def stop_all(self, *, wait_s: float) -> None:
        """Cancel every working run (each writes its report from what it collected) and wait up to `wait_s`
        seconds for them; called when the server shuts down, so no run is cut off in the middle of a write."""
        with self._lock:
            working = [web_run for web_run in self._runs.values() if web_run.status == "running"]
        for web_run in working:
            web_run.cancel()
        deadline = time.monotonic() + wait_s
        for web_run in working:
            web_run.join(max(0.0, deadline - time.monotonic()))

    # --- internals -------------------------------------------------------------------------------

    def _crawler(self, settings: Settings, backend: Backend) -> ResearchCrawler:
        return ResearchCrawler(
            settings, backend=backend, allowed_hosts=self.allowed_hosts, politeness=self.politeness
        )

    def _check_capacity(self) -> None:
        limit = self.settings.serve.max_concurrent_runs
        if sum(1 for web_run in self._runs.values() if web_run.status == "running") >= limit:
            raise TooManyRuns(
                f"{limit} run(s) are already working (serve.max_concurrent_runs): wait for one to end or cancel "
                f"one, or restart serve with --set serve.max_concurrent_runs={limit + 1}"
            )

    def _idle_run(self, run_id: str) -> WebRun:
        """The run as a WebRun ready for a new turn (made for a run only on disk, with the backend it used)."""
        run_dir = self.run_dir(run_id)
        with self._lock:
            web_run = self._runs.get(run_id)
            if web_run is not None and web_run.status == "running":
                raise RunBusy("this run is still working: wait for it to end, or cancel it")
            self._check_capacity()
            if web_run is None:
                backend: Backend = RunMeta.read(run_dir).backend
                if backend == "openai":
                    require_model_endpoint(self.settings)
                crawler = self._crawler(self.settings, backend)
                web_run = WebRun(run_id, run_dir, crawler, query=RunMeta.read(run_dir).query)
                self._runs[run_id] = web_run
            web_run.status = "running"  # held until launch, so two requests cannot both start a turn
        return web_run
