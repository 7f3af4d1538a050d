"""A research session: answers queries, resumes and follows up runs — the composition root of one run.

It opens the run directory, the trace, the fetcher and the page source, then hands the exploration to
the group chat (`chat_run.py`, or `site_lanes.py` for parallel sites) in a worker thread (AG2 is
synchronous; tools reach the async fetcher on this event loop through `page_source.py`). State is saved
after every change, and every stop — approval, limits, a stuck site, model failure — ends with a report.
"""

from __future__ import annotations

import asyncio
import logging
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, Literal

from research_crawler.agents.ag2 import ModelSpec
from research_crawler.agents.roles import Role
from research_crawler.config.recorded import record_settings
from research_crawler.config.settings import Settings
from research_crawler.config.site_pool import SitePool, load_site_pool
from research_crawler.context.graph import NavigationGraph
from research_crawler.context.search_context import Completion, SearchContext, StopReason
from research_crawler.context.store import RunStore
from research_crawler.context.web_context import WebContext
from research_crawler.errors import ConfigError, ModelError, ResearchCrawlerError, StateError
from research_crawler.llm.ag2_setup import forget_finished_clients
from research_crawler.llm.rate_limit import RequestLimiter
from research_crawler.llm.run_limits import STOPPED_BY_USER, RunInterrupted, RunLimitReached
from research_crawler.rank.rerank import Reranker, load_reranker
from research_crawler.report.models import Report
from research_crawler.report.writers import write_report
from research_crawler.run.chat_run import ChatRun
from research_crawler.run.message_trace import MessageTracer
from research_crawler.run.models import RunModels
from research_crawler.run.page_source import PageSource
from research_crawler.run.presenting import Presenting, requested_items
from research_crawler.run.report_building import build_report
from research_crawler.run.request_reading import read_the_request, sites_named_in_request
from research_crawler.run.run_dir import PAGES_DIR, RUN_FILE, ModelBackend, RunMeta, new_run_dir, unwritable
from research_crawler.run.run_lock import holding_run_dir
from research_crawler.run.site_lanes import explore_in_parallel
from research_crawler.run.trace import Trace
from research_crawler.tools.exploration import Exploration, Flow, PageAccess, SiteFindings
from research_crawler.tools.site_budget import SiteBudget
from research_crawler.web.fetcher import Fetcher
from research_crawler.web.page_store import PageArchive
from research_crawler.web.shared_politeness import SharedPoliteness

__all__ = ["ResearchSession"]

logger = logging.getLogger(__name__)


class ResearchSession:
    """Runs queries with the agents. `backend="simulated"` uses the simulated model (a test double)."""

    def __init__(
        self,
        settings: Settings,
        *,
        backend: ModelBackend = "openai",
        site_pool: SitePool | None = None,
        allowed_hosts: Sequence[str] | None = None,
        on_event: Callable[[dict[str, Any]], None] | None = None,
        replay_from: Path | None = None,
        politeness: SharedPoliteness | None = None,
        model_limiter: RequestLimiter | None = None,
    ) -> None:
        self.settings = settings
        #: The model endpoint's requests/tokens per minute, shared with other queries (default: this run's own).
        self.model_limiter = model_limiter
        #: Host schedules and robots.txt rules shared with the other queries of a batch or an evaluation.
        self.politeness = politeness
        self.backend: ModelBackend = backend
        self.site_pool = site_pool
        self.allowed_hosts = allowed_hosts
        self.on_event = on_event
        self.replay_from = replay_from
        if replay_from is not None and not (replay_from / PAGES_DIR).is_dir():
            raise ConfigError(f"--replay {replay_from}: no recorded pages there (expected {replay_from / PAGES_DIR})")
        self._cancelled = threading.Event()

    # --- public ---------------------------------------------------------------------------------

    def run(self, query: str, *, sites: Sequence[str] = (), run_dir: Path | None = None) -> Report:
        """Answer `query` (blocking). See `arun`."""
        return asyncio.run(self.arun(query, sites=sites, run_dir=run_dir))

    def cancel(self) -> None:
        """Stop the current run gracefully (thread-safe): no new model call or page is started, and the
        report is written from what was collected, with the stop reason "interrupted"."""
        self._cancelled.set()

    async def arun(self, query: str, *, sites: Sequence[str] = (), run_dir: Path | None = None) -> Report:
        """Explore the sites for `query` and return the report (also written to the run directory)."""
        search = SearchContext(query=query)
        run_dir = run_dir or new_run_dir(self.settings.runs_dir, query)
        try:
            run_dir.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise ConfigError(f"cannot create the run directory {run_dir}: {exc.strerror or exc}") from None
        with holding_run_dir(run_dir):
            if (run_dir / RUN_FILE).exists():
                raise StateError(f"{run_dir} already holds a run: continue it with `research-crawler resume {run_dir}`")
            RunMeta(
                query=search.query,
                sites=list(sites),
                backend=self.backend,
                queries=[search.query],
                settings=record_settings(self.settings),
            ).write(run_dir)
            return await self._execute(run_dir, RunStore(run_dir), search, sites=list(sites), action="start")

    async def aresume(self, run_dir: Path, *, not_restored: Sequence[str] = ()) -> Report:
        """Continue the run saved in `run_dir`: every collected item is kept and no visited page is scraped
        again. A run that already finished gets its report rebuilt from the saved state. `not_restored` names the
        settings the run directory recorded but was not allowed to restore (traced with the run's start)."""
        meta = RunMeta.read(run_dir)
        with holding_run_dir(run_dir):
            store = RunStore(run_dir)
            state = store.load() if store.exists() else None
            search = state.search if state is not None else SearchContext(query=meta.query)
            search.reopen_if_interrupted()
            return await self._execute(
                run_dir,
                store,
                search,
                sites=meta.sites,
                action="resume",
                web_contexts=state.web_contexts if state is not None else None,
                graph=state.graph if state is not None else None,
                subpage_offsets=meta.subpage_offsets,
                budget=SiteBudget.restored(state.budget) if state is not None else None,
                not_restored=not_restored,
            )

    async def afollow_up(self, run_dir: Path, query: str, *, sites: Sequence[str] = ()) -> Report:
        """A follow-up query in the same run directory: every visited page and collected item is kept (no page
        is scraped twice), the given sites — by default those of the previous query — are explored for the new
        query with a fresh subpage budget, and all items are ranked and presented again."""
        with holding_run_dir(run_dir):
            return await self._follow_up(run_dir, query, sites=sites)

    async def _follow_up(self, run_dir: Path, query: str, *, sites: Sequence[str]) -> Report:
        meta = RunMeta.read(run_dir)
        store = RunStore(run_dir)
        state = store.load()
        search = SearchContext(query=query)
        if not sites:
            previous = [record.site for record in state.search.finished_sites]
            for current in (state.search.current_site, *[entry.site for entry in state.search.pending_sites]):
                if current is not None and current not in previous:
                    previous.append(current)
            for rank, site in enumerate(previous):
                search.add_site(site, priority=float(len(previous) - rank))
        offsets = {url: web.visited_count for url, web in state.web_contexts.items()}
        meta = meta.model_copy(
            update={
                "query": search.query,
                "sites": list(sites),
                "queries": [*meta.queries, search.query],
                "subpage_offsets": offsets,
                "settings": record_settings(self.settings),
            }
        )
        meta.write(run_dir)
        return await self._execute(
            run_dir,
            store,
            search,
            sites=list(sites),
            action="follow_up",
            web_contexts=state.web_contexts,
            graph=state.graph,
            subpage_offsets=offsets,
            previous_search=state.search,
        )

    # --- the run ----------------------------------------------------------------------------------

    async def _execute(
        self,
        run_dir: Path,
        store: RunStore,
        search: SearchContext,
        *,
        sites: list[str],
        action: Literal["start", "resume", "follow_up"],
        web_contexts: dict[str, WebContext] | None = None,
        graph: NavigationGraph | None = None,
        subpage_offsets: dict[str, int] | None = None,
        budget: SiteBudget | None = None,
        previous_search: SearchContext | None = None,
        not_restored: Sequence[str] = (),
    ) -> Report:
        started = time.monotonic()
        reranker = await asyncio.to_thread(load_reranker, self.settings.rerank)
        secrets = [self.settings.models.api_key.get_secret_value()] if self.settings.models.api_key else []
        trace = Trace(run_dir / "trace.jsonl", secrets=secrets)
        if self.on_event is not None:
            trace.subscribe(self.on_event)
        pool = (self.site_pool or load_site_pool(self.settings.explore.site_pool_file)).with_named_sites(sites)
        recording = PageArchive(self.replay_from / PAGES_DIR) if self.replay_from is not None else None
        try:
            async with Fetcher(
                self.settings.fetch,
                page_view=self.settings.page_view,
                allowed_hosts=self.allowed_hosts,
                shared=self.politeness,
            ) as fetcher:
                source = PageSource(
                    fetcher=fetcher,
                    loop=asyncio.get_running_loop(),
                    archive=PageArchive(run_dir / PAGES_DIR),
                    trace=trace,
                    deadline_s=self.settings.fetch.page_deadline_s,
                    recording=recording,
                    recording_dir=self.replay_from,
                    fetch_ahead=self.settings.fetch.fetch_ahead,
                )
                exploration = Exploration(
                    settings=self.settings,
                    search=search,
                    pages=PageAccess(
                        fetch_page=source,
                        fetched_urls=source.fetched_urls,
                        fetch_ahead=source.fetch_ahead,
                        robots_sitemaps=source.sitemaps,
                        robots_refusal=source.robots_refusal,
                        page_memory=fetcher.revisits if recording is None else None,
                    ),
                    trace=trace,
                    store=store,
                    web_contexts=dict(web_contexts or {}),
                    graph=graph if graph is not None else NavigationGraph(),
                    findings=SiteFindings(subpage_offsets=dict(subpage_offsets or {}), budget=budget or SiteBudget()),
                    flow=Flow(
                        sites_selected=action != "start"
                        and (search.current_site is not None or search.has_pending_sites or bool(search.finished_sites))
                    ),
                )
                trace.emit("run", action=action, query=search.query, backend=self.backend)
                if not_restored:
                    trace.emit("settings_not_restored", names=list(not_restored), run_dir=str(run_dir))
                try:
                    report = await asyncio.to_thread(
                        self._explore_and_report, exploration, pool, trace, reranker, previous_search
                    )
                finally:
                    await source.close()
        finally:
            trace.close()
            forget_finished_clients()
            # after the run, not before: a stop asked while it was starting is honoured. A new event rather than
            # clearing this one: a run left at once (second Ctrl-C) still has its worker reading it
            self._cancelled = threading.Event()
        report.stats.pages_fetched = len({page.final_url for page in source.fetched})
        report.stats.pages_not_modified = len({page.final_url for page in source.fetched if page.revisited})
        report.stats.wall_time_s = round(time.monotonic() - started, 3)
        report.run_dir = str(run_dir)
        write_report(report, run_dir)
        return report

    def model_spec(self, role: Role, spec: ModelSpec) -> ModelSpec:
        """The model client that answers `role`: `spec` as the backend chose it. The seam where tests and
        benchmarks put a client of their own (a subclass of the simulated one that records or counts)."""
        return spec

    def _explore_and_report(
        self, x: Exploration, pool: SitePool, trace: Trace, reranker: Reranker, previous: SearchContext | None
    ) -> Report:
        """Read the request, explore (unless a resumed run had finished, or a follow-up only changes the choice
        among the items found), present, and build the report (worker thread)."""
        cancelled = self._cancelled  # this run's: a run left at once (second Ctrl-C) still reads its own stop here
        models = RunModels(
            self.settings,
            backend=self.backend,
            cancelled=cancelled,
            trace=trace,
            adjust=self.model_spec,
            rate_limiter=self.model_limiter,
        )
        tracer = MessageTracer(trace, x)
        presenting = Presenting(x, models, reranker, tracer)
        try:
            if not x.search.gamma and x.search.request is None:
                new_search = read_the_request(
                    x,
                    models,
                    tracer,
                    previous=previous.request if previous else None,
                    earlier_query=previous.query if previous else None,
                )
                pool = sites_named_in_request(x, pool)
                if previous is not None and not new_search:
                    _reselect_only(x, previous)
            if x.search.gamma:  # explored before (resumed after the exploration, or a follow-up needing no search)
                presenting.present()
            elif self.settings.explore.parallel_sites > 1:
                explore_in_parallel(x, pool=pool, models=models, presenting=presenting, trace=trace)
                presenting.present()
            else:
                ChatRun(x, pool=pool, models=models, presenting=presenting, trace=trace).run()
        except RunLimitReached as exc:
            trace.emit("limit", detail=str(exc))
            stop = StopReason.INTERRUPTED if isinstance(exc, RunInterrupted) else StopReason.LIMIT_REACHED
            x.complete(stop, str(exc))
            presenting.present()
        except ModelError as exc:  # its message says what failed; the trace's fault and the report say it to the user
            logger.info("the model failed: %s", exc)
            trace.emit("fault", kind="model_error", error=str(exc))
            x.complete(StopReason.ERROR, str(exc))
            presenting.present_without_chat()
        except ResearchCrawlerError:
            raise  # misconfiguration says so itself, in one line
        except Exception as exc:
            if cancelled.is_set():  # the user asked to stop, and left (a second Ctrl-C closed the fetcher)
                _interrupted(x, exc, trace)
            else:  # a failure mid-run (a bug, a full disk)
                _failed(x, exc, trace)
            presenting.present_without_chat()  # a report from what was collected
        asked = [site.to_site_ref() for site in pool.named]
        return build_report(x, models, presenting, requested=requested_items(x), sites_asked=asked)


def _interrupted(x: Exploration, exc: Exception, trace: Trace) -> None:
    """A run the user stopped whose teardown broke what was still under way (a page fetched through a fetcher
    closed by their second Ctrl-C): recorded as interrupted, not failed, so `resume` goes on from there."""
    logger.info("the run stopped by the user ended with %s: %s", type(exc).__name__, exc)
    trace.emit("limit", detail=f"{STOPPED_BY_USER} (then {type(exc).__name__}: {exc})")
    if not x.search.gamma:
        x.complete(StopReason.INTERRUPTED, STOPPED_BY_USER)


def _failed(x: Exploration, exc: Exception, trace: Trace) -> None:
    """A run that failed: logged (with its traceback when it is a bug) and recorded as an error (a failure while
    presenting what was explored too: the report says so all the same)."""
    trace.emit("fault", kind="internal_error", error=f"{type(exc).__name__}: {exc}")
    if isinstance(exc, OSError):  # the machine's doing (a full disk), not a bug: one line, and `resume` goes on
        logger.error("the run stopped: %s", exc)
        logger.debug("the run stopped", exc_info=exc)
        reason, detail = StopReason.INTERRUPTED, f"its files could not be written ({unwritable(exc)})"
    else:
        logger.exception("the run failed")
        reason, detail = StopReason.ERROR, f"the run failed ({type(exc).__name__}: {exc})"
    if x.search.gamma:
        with x.lock:
            x.search.completion = Completion(done=True, reason=reason, detail=detail)
            x.save()
    else:
        x.complete(reason, detail)


def _reselect_only(x: Exploration, previous: SearchContext) -> None:
    """A follow-up that only changes how the items found are chosen: no site is explored again; the report
    shows the earlier sites' outcomes."""
    x.search.pending_sites = []
    x.search.finished_sites = list(previous.finished_sites)
    x.complete(StopReason.ALL_SITES_DONE, "chosen again from what was already found: no new search was needed")
