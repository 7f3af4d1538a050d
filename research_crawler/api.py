"""The Python API: `ResearchCrawler(settings).run(query, sites=...) -> Report`, with events by callback or
async iterator — the same calls the command line makes.

    crawler = ResearchCrawler(Settings.load(), backend="simulated")
    report = crawler.run("find five recent papers on graph neural networks", sites=["https://arxiv.org/"])

    stream = crawler.events("…")
    async for event in stream:        # trace events as dicts: fetch, model_call, tool_result, site, …
        ...
    stream.report                      # the Report, once the iteration has ended
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
from collections.abc import AsyncGenerator, Callable, Coroutine, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal
from urllib.parse import urlsplit

from research_crawler.config.overrides import apply_overrides
from research_crawler.config.recorded import ResumeSettings, restore_settings
from research_crawler.config.settings import Settings
from research_crawler.context.request import checked_query
from research_crawler.errors import ModelError, StateError
from research_crawler.llm.rate_limit import RequestLimiter
from research_crawler.report.models import Report
from research_crawler.run.run_dir import RunMeta
from research_crawler.web.shared_politeness import SharedPoliteness

if TYPE_CHECKING:
    from research_crawler.config.site_pool import SitePool
    from research_crawler.run.session import ResearchSession

__all__ = ["Backend", "EventCallback", "EventStream", "ResearchCrawler", "require_model_endpoint"]

logger = logging.getLogger(__name__)

Backend = Literal["openai", "simulated"]
EventCallback = Callable[[dict[str, Any]], None]

NO_ENDPOINT_HELP = (
    "no model endpoint is configured. Set OPENAI_API_KEY for OpenAI, or OPENAI_BASE_URL for another "
    "OpenAI-compatible server (Ollama: OPENAI_BASE_URL=http://localhost:11434/v1), in the environment or in "
    "research-crawler.toml under [models] — or try it offline with the simulated model "
    "(`--model simulated`, `backend=\"simulated\"`), a test double that is not a real LLM"
)


def require_model_endpoint(settings: Settings) -> None:
    """Raise ModelError, saying how to fix it, when no usable model endpoint is configured: OpenAI's own
    endpoint needs a key; a local server (base_url) may do without one."""
    models = settings.models
    on_openai = models.base_url is None or (urlsplit(models.base_url).hostname or "").lower() == "api.openai.com"
    if models.api_key is None and on_openai:
        raise ModelError(NO_ENDPOINT_HELP)


class ResearchCrawler:
    """Answers research requests with the agents; one object can run many queries, one at a time.

    `backend="simulated"` uses the simulated model (a deterministic test double; every report says so).
    `on_event` receives every trace event as a dict, from a worker thread. `replay_from` (a run directory)
    answers every fetch from the pages that run recorded, never from the web. `allowed_hosts`, when given, are
    the only hosts any request may reach, named as `fetch.allowed_hosts` names them ('host' for any port,
    'host:port' for that port); like that setting, they are also exempt from the URL guard's address rules.
    """

    def __init__(
        self,
        settings: Settings | None = None,
        *,
        backend: Backend = "openai",
        site_pool: SitePool | None = None,
        allowed_hosts: Sequence[str] | None = None,
        on_event: EventCallback | None = None,
        replay_from: Path | None = None,
        politeness: SharedPoliteness | None = None,
        model_limiter: RequestLimiter | None = None,
    ) -> None:
        self.settings = settings if settings is not None else Settings.load()
        self.model_limiter = model_limiter
        #: Per-host start schedules and robots.txt rules, shared by this crawler's runs and with any other crawler
        #: given the same object (a batch gives one to all its queries).
        self.politeness = politeness if politeness is not None else SharedPoliteness()
        self.backend: Backend = backend
        self.site_pool = site_pool
        self.allowed_hosts = allowed_hosts
        self.on_event = on_event
        self.replay_from = replay_from
        self._lock = threading.Lock()
        self._session: ResearchSession | None = None
        self._starting = False  # from the call that starts a run until it ends
        self._cancel_asked = False

    # --- blocking -------------------------------------------------------------------------------

    def run(self, query: str, *, sites: Sequence[str] = (), run_dir: Path | None = None) -> Report:
        """Answer `query` and return the report (also written to the run directory). Blocks."""
        return asyncio.run(self.arun(query, sites=sites, run_dir=run_dir))

    def resume(self, run_dir: Path, *, overrides: Mapping[str, Any] | None = None) -> Report:
        """Continue an interrupted or killed run. Blocks; see `aresume`."""
        return asyncio.run(self.aresume(run_dir, overrides=overrides))

    def follow_up(self, run_dir: Path, query: str, *, sites: Sequence[str] = ()) -> Report:
        """A follow-up query in an existing run directory. Blocks; see `afollow_up`."""
        return asyncio.run(self.afollow_up(run_dir, query, sites=sites))

    # --- async ----------------------------------------------------------------------------------

    async def arun(
        self,
        query: str,
        *,
        sites: Sequence[str] = (),
        run_dir: Path | None = None,
        on_event: EventCallback | None = None,
    ) -> Report:
        """Explore the sites for `query` (the Web Selector chooses from the pool when `sites` is empty)."""
        query = checked_query(query)
        return await self._guarded(on_event, lambda s: s.arun(query, sites=list(sites), run_dir=run_dir))

    async def aresume(
        self, run_dir: Path, *, on_event: EventCallback | None = None, overrides: Mapping[str, Any] | None = None
    ) -> Report:
        """Continue the run saved in `run_dir`: collected items are kept and no visited page is fetched again.

        It runs with this crawler's settings plus what the run directory may restore (`settings_to_resume`), then
        `overrides` (dotted names, e.g. ``{"explore.max_subpages": 10}``)."""
        resumed = self.settings_to_resume(run_dir, overrides=overrides)
        if (note := resumed.note(str(run_dir))) is not None:
            logger.info("%s: %s", run_dir, note)  # traced too; the CLI and the web app show it once
        return await self._guarded(
            on_event,
            lambda s: s.aresume(Path(run_dir), not_restored=resumed.not_restored),
            settings=resumed.settings,
        )

    def settings_to_resume(self, run_dir: Path, *, overrides: Mapping[str, Any] | None = None) -> ResumeSettings:
        """The settings a resume of `run_dir` runs with: this crawler's, with what the run recorded of its scope,
        views, flow, report and models by name, and its limits where they were tighter — never a program, an
        endpoint, the URL guard or politeness from the run directory (config/recorded.py) — then `overrides`.
        StateError when `run_dir` holds no run; ConfigError when what it may restore does not load."""
        meta = RunMeta.read(Path(run_dir))
        if meta.settings is None:  # written before runs recorded their settings
            return ResumeSettings(apply_overrides(self.settings, overrides or {}))
        return restore_settings(meta.settings, current=self.settings, overrides=overrides or {})

    async def afollow_up(
        self,
        run_dir: Path,
        query: str,
        *,
        sites: Sequence[str] = (),
        on_event: EventCallback | None = None,
    ) -> Report:
        """A follow-up in the same run directory: what was fetched and collected is kept; the given sites (by
        default those of the previous query) are explored for `query`, then everything is ranked again."""
        query = checked_query(query, what="the follow-up", example='"only 2025"', count_alone=True)
        return await self._guarded(on_event, lambda s: s.afollow_up(Path(run_dir), query, sites=list(sites)))

    def events(self, query: str, *, sites: Sequence[str] = (), run_dir: Path | None = None) -> EventStream:
        """Run `query` and iterate over its events as they happen (``async for event in …``); the report is
        the stream's `report` once the iteration ends. Leaving the loop early cancels the run gracefully."""
        return EventStream(self, query, sites=sites, run_dir=run_dir)

    def cancel(self) -> None:
        """Stop the current run gracefully (thread-safe; from a signal handler too): the report is written
        from what was collected, with the stop reason "interrupted"."""
        with self._lock:
            session = self._session
            if session is None and self._starting:
                self._cancel_asked = True  # a run still starting stops as soon as it has its session
        if session is not None:
            session.cancel()

    # --- internals --------------------------------------------------------------------------------

    def _new_session(self, on_event: EventCallback | None, settings: Settings) -> ResearchSession:
        if self.backend == "openai":
            require_model_endpoint(settings)
        from research_crawler.run.session import ResearchSession  # imports AG2: seconds, so only when needed

        listeners = [listener for listener in (self.on_event, on_event) if listener is not None]

        def fan_out(event: dict[str, Any]) -> None:
            for listener in listeners:
                listener(event)

        return ResearchSession(
            settings,
            backend=self.backend,
            site_pool=self.site_pool,
            allowed_hosts=self.allowed_hosts,
            on_event=fan_out if listeners else None,
            replay_from=self.replay_from,
            politeness=self.politeness,
            model_limiter=self.model_limiter,
        )

    async def _guarded(
        self,
        on_event: EventCallback | None,
        work: Callable[[ResearchSession], Coroutine[Any, Any, Report]],
        *,
        settings: Settings | None = None,
    ) -> Report:
        """Run `work` on a new session, one run at a time; a `cancel()` from the very start is honoured."""
        with self._lock:
            if self._starting:
                raise StateError("this ResearchCrawler is already running a query; use another one to run two")
            self._starting, self._cancel_asked = True, False
        try:
            session = self._new_session(on_event, settings or self.settings)
            with self._lock:
                self._session = session
                if self._cancel_asked:
                    session.cancel()
            return await work(session)
        finally:
            with self._lock:
                self._session, self._starting, self._cancel_asked = None, False, False

    @property
    def running(self) -> bool:
        """True while a query runs."""
        with self._lock:
            return self._starting


class EventStream:
    """The events of one run as an async iterator; `report` holds the result once iteration has ended."""

    def __init__(
        self, crawler: ResearchCrawler, query: str, *, sites: Sequence[str], run_dir: Path | None
    ) -> None:
        self._crawler = crawler
        self._query = query
        self._sites = list(sites)
        self._run_dir = run_dir
        self.report: Report | None = None

    def __aiter__(self) -> AsyncGenerator[dict[str, Any], None]:
        return self._iterate()

    async def _iterate(self) -> AsyncGenerator[dict[str, Any], None]:
        loop = asyncio.get_running_loop()
        queue: asyncio.Queue[dict[str, Any]] = asyncio.Queue()

        def deliver(event: dict[str, Any]) -> None:  # called from the chat's worker thread
            loop.call_soon_threadsafe(queue.put_nowait, event)

        task = asyncio.ensure_future(
            self._crawler.arun(self._query, sites=self._sites, run_dir=self._run_dir, on_event=deliver)
        )
        try:
            while True:
                getter = asyncio.ensure_future(queue.get())
                await asyncio.wait({getter, task}, return_when=asyncio.FIRST_COMPLETED)
                if getter.done():
                    yield getter.result()
                    continue
                getter.cancel()
                await asyncio.sleep(0)  # let events already scheduled by the worker thread land in the queue
                while not queue.empty():
                    yield queue.get_nowait()
                self.report = task.result()  # raises the run's error, if it failed
                return
        finally:
            if not task.done():
                self._crawler.cancel()
                with contextlib.suppress(Exception):
                    self.report = await task
