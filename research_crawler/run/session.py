"""Builds the group chat for one query and runs it: the single wiring point of research-crawler.

The chat runs in a worker thread (AG2 is synchronous); tools reach the async fetcher on the caller's
event loop through a blocking bridge, so the loop stays responsive. State is saved after every change,
and every stop — approval, limits, a stuck site, model failure — ends with a report from what was collected.
"""

from __future__ import annotations

import asyncio
import logging
import re
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Literal

import autogen
from pydantic import BaseModel, Field

from research_crawler.agents.ag2 import ModelSpec, make_proxy, register_reply, trace_messages
from research_crawler.agents.collector import make_collector
from research_crawler.agents.crawler import make_crawler
from research_crawler.agents.critique import make_critique
from research_crawler.agents.planner import make_planner
from research_crawler.agents.presenter import PresenterTools, format_items_for_presenter, make_presenter
from research_crawler.agents.roles import Role, Speaker
from research_crawler.agents.speaker_selection import Decision, Effect, FlowState, select_next
from research_crawler.agents.supervisor import make_supervisor
from research_crawler.agents.web_selector import make_web_selector
from research_crawler.config.settings import Settings
from research_crawler.config.site_pool import SitePool, load_site_pool
from research_crawler.context.atomic_files import atomic_write_text
from research_crawler.context.graph import NavigationGraph
from research_crawler.context.request import requested_count
from research_crawler.context.search_context import SearchContext, SiteRef, StopReason
from research_crawler.context.store import RunStore
from research_crawler.context.web_context import WebContext
from research_crawler.errors import ConfigError, ModelError, StateError
from research_crawler.llm.ag2_setup import forget_finished_clients
from research_crawler.llm.budget import RunBudget, RunInterrupted, RunLimitReached
from research_crawler.llm.client import BaseModelClient
from research_crawler.llm.openai_client import OpenAICompatibleClient
from research_crawler.llm.rate_limit import ModelRateLimiter
from research_crawler.llm.simulated import SIMULATED_MODEL_NAME, FaultLog, SimulatedModelClient
from research_crawler.llm.usage import ModelCall, UsageLedger
from research_crawler.nested_chats.page_selector import PageSelectorChat
from research_crawler.nested_chats.presenter import PresenterChat, collected_report_items
from research_crawler.nested_chats.scraper import ScraperChat
from research_crawler.nested_chats.supervisor import SupervisorChat
from research_crawler.pages.page import Determination, Page
from research_crawler.rank.rerank import Reranker, load_reranker
from research_crawler.report.guard import GuardResult
from research_crawler.report.models import AgentStats, Report, ReportItem, RunStats, SiteSummary
from research_crawler.report.writers import write_report
from research_crawler.run.trace import Trace
from research_crawler.tools.exploration import Exploration, ScrapeTarget
from research_crawler.tools.navigation import get_top_urls
from research_crawler.web.fetcher import Fetcher
from research_crawler.web.page_archive import PageArchive

__all__ = ["ModelBackend", "ResearchSession", "RunMeta", "new_run_dir"]

logger = logging.getLogger(__name__)

ModelBackend = Literal["openai", "simulated"]
_RUN_FILE = "run.json"
_PAGES_DIR = "pages"


class RunMeta(BaseModel):
    """run.json: what a run directory is for, so it can be resumed or followed up."""

    query: str
    sites: list[str] = Field(default_factory=list)
    backend: ModelBackend = "openai"
    queries: list[str] = Field(default_factory=list, description="Every query asked in this run directory.")
    subpage_offsets: dict[str, int] = Field(
        default_factory=dict, description="Pages each site had visited when the current query began."
    )

    @classmethod
    def read(cls, run_dir: Path) -> RunMeta:
        try:
            return cls.model_validate_json((run_dir / _RUN_FILE).read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            raise StateError(f"{run_dir} is not a research-crawler run directory ({exc})") from exc

    def write(self, run_dir: Path) -> None:
        atomic_write_text(run_dir / _RUN_FILE, self.model_dump_json(indent=2))


def _not_recorded(url: str, recording: Path | None) -> Page:
    return Page(
        url=url,
        final_url=url,
        determination=Determination.REFUSED,
        reason=f"not in the recording {recording} (replay answers only recorded pages)",
        render="replay",
    )


def new_run_dir(runs_dir: Path, query: str) -> Path:
    """A fresh run directory under `runs_dir`, named by time and the query's first words."""
    slug = "-".join(re.findall(r"[a-z0-9]+", query.lower())[:6])[:48] or "query"
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%S")
    run_dir = runs_dir / f"{stamp}-{slug}"
    suffix = 1
    while run_dir.exists():
        suffix += 1
        run_dir = runs_dir / f"{stamp}-{slug}-{suffix}"
    run_dir.mkdir(parents=True)
    return run_dir


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
    ) -> None:
        self.settings = settings
        self.backend: ModelBackend = backend
        self.site_pool = site_pool
        self.allowed_hosts = allowed_hosts
        self.on_event = on_event
        self.replay_from = replay_from
        if replay_from is not None and not (replay_from / _PAGES_DIR).is_dir():
            raise ConfigError(f"--replay {replay_from}: no recorded pages there (expected {replay_from / _PAGES_DIR})")
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
        run_dir.mkdir(parents=True, exist_ok=True)
        RunMeta(query=search.query, sites=list(sites), backend=self.backend, queries=[search.query]).write(run_dir)
        return await self._execute(run_dir, RunStore(run_dir), search, sites=list(sites), action="start")

    async def aresume(self, run_dir: Path) -> Report:
        """Continue the run saved in `run_dir`: every collected item is kept and no visited page is scraped
        again. A run that already finished gets its report rebuilt from the saved state."""
        meta = RunMeta.read(run_dir)
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
        )

    async def afollow_up(self, run_dir: Path, query: str, *, sites: Sequence[str] = ()) -> Report:
        """A follow-up query in the same run directory: every visited page and collected item is kept (no page
        is scraped twice), the given sites — by default those of the previous query — are explored for the new
        query with a fresh subpage budget, and all items are ranked and presented again."""
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
    ) -> Report:
        started = time.monotonic()
        self._cancelled.clear()
        reranker = await asyncio.to_thread(load_reranker, self.settings.rerank)
        secrets = [self.settings.models.api_key.get_secret_value()] if self.settings.models.api_key else []
        trace = Trace(run_dir / "trace.jsonl", secrets=secrets)
        if self.on_event is not None:
            trace.subscribe(self.on_event)
        pool = (self.site_pool or load_site_pool(self.settings.explore.site_pool_file)).with_named_sites(sites)
        loop = asyncio.get_running_loop()
        fetched: list[Page] = []
        fetched_urls: set[str] = set()
        archive = PageArchive(run_dir / _PAGES_DIR)
        recording = PageArchive(self.replay_from / _PAGES_DIR) if self.replay_from is not None else None
        try:
            async with Fetcher(
                self.settings.fetch,
                page_view=self.settings.page_view,
                allowed_hosts=self.allowed_hosts,
            ) as fetcher:

                def fetch_page(url: str, site: SiteRef) -> Page:
                    source = "archive"
                    page = archive.get(url)
                    if page is None and recording is not None:
                        source = "replay"
                        page = recording.get(url) or _not_recorded(url, self.replay_from)
                    if page is None:
                        source = "web"
                        future = asyncio.run_coroutine_threadsafe(
                            fetcher.fetch(url, render=site.render, site_url=site.url), loop
                        )
                        page = future.result(timeout=self.settings.fetch.page_deadline_s * 2 + 30)
                    if source != "archive":
                        archive.put(page)
                        fetched.append(page)
                    if page.ok:
                        fetched_urls.update((page.url, page.final_url))
                    trace.emit(
                        "fetch",
                        source=source,
                        url=url,
                        final_url=page.final_url,
                        status=page.status,
                        determination=page.determination.value,
                        reason=page.reason,
                        render=page.render,
                        elapsed_s=round(page.elapsed_s, 3),
                        links=len(page.links),
                    )
                    return page

                exploration = Exploration(
                    settings=self.settings, search=search, fetch_page=fetch_page, trace=trace, store=store
                )
                if web_contexts:
                    exploration.web_contexts.update(web_contexts)
                if graph is not None:
                    exploration.graph = graph
                exploration.subpage_offsets.update(subpage_offsets or {})
                exploration.fetched_urls = fetched_urls
                exploration.sites_selected = action != "start" and (
                    search.current_site is not None or search.has_pending_sites or bool(search.finished_sites)
                )
                trace.emit("run", action=action, query=search.query, backend=self.backend)
                runner = _ChatRun(self, exploration, pool, trace, reranker)
                report = await asyncio.to_thread(runner.run)
        finally:
            trace.close()
            forget_finished_clients()
        report.stats.pages_fetched = len({page.final_url for page in fetched})
        report.stats.wall_time_s = round(time.monotonic() - started, 3)
        report.run_dir = str(run_dir)
        write_report(report, run_dir)
        return report

    def model_spec(self, role: Role, ledger: UsageLedger, fault_log: FaultLog, budget: RunBudget) -> ModelSpec:
        """The model client of `role` for this session's backend."""
        kwargs: dict[str, Any] = {
            "agent_name": role.agent_name,
            "ledger": ledger,
            "settings": self.settings.models,
            "budget": budget,
        }
        client_cls: type[BaseModelClient]
        if self.backend == "simulated":
            client_cls, model = SimulatedModelClient, SIMULATED_MODEL_NAME
            kwargs.update(simulated=self.settings.simulated, fault_log=fault_log)
        else:
            client_cls, model = OpenAICompatibleClient, self.settings.models.model_for(role.value)
        return ModelSpec(client_cls=client_cls, model=model, client_kwargs=kwargs)


class _ChatRun:
    """One group chat over one exploration (runs in a worker thread)."""

    def __init__(
        self,
        session: ResearchSession,
        exploration: Exploration,
        pool: SitePool,
        trace: Trace,
        reranker: Reranker,
        *,
        parent: _ChatRun | None = None,
    ) -> None:
        self.session = session
        self.reranker = reranker
        self.settings = session.settings
        self.x = exploration
        self.pool = pool
        self.trace = trace
        #: A lane explores one site of a parallel run and ends instead of presenting; it shares the
        #: parent's model accounting, budget and rate limit.
        self.lane = parent is not None
        self._presenting: PresenterChat | None = None
        self.guard: GuardResult | None = None
        self.report_items: list[ReportItem] = []
        self.report_markdown = ""
        self.ledger: UsageLedger
        self.fault_log: FaultLog
        self.budget: RunBudget
        self.rate_limiter: ModelRateLimiter | None
        if parent is not None:
            self.ledger, self.fault_log, self.budget = parent.ledger, parent.fault_log, parent.budget
            self.rate_limiter = parent.rate_limiter
            return
        self.ledger = UsageLedger()
        self.fault_log = FaultLog()
        run, models = self.settings.run, self.settings.models
        self.budget = RunBudget(
            self.ledger,
            max_calls=run.max_model_calls,
            max_tokens=run.max_tokens,
            max_cost_usd=run.max_cost_usd,
            exempt_agents={Role.PRESENTER.agent_name, Role.CRITIQUE.agent_name},
            cancelled=session._cancelled,
            finish_page_agents={Role.CRAWLER.agent_name, Role.COLLECTOR.agent_name},
        )
        self.rate_limiter = (
            ModelRateLimiter(requests_per_minute=models.requests_per_minute, tokens_per_minute=models.tokens_per_minute)
            if models.requests_per_minute or models.tokens_per_minute
            else None
        )
        self.ledger.subscribe(lambda call: self._trace_model_call(call))

    def _trace_model_call(self, call: ModelCall) -> None:
        self.trace.emit(
            "model_call",
            agent=call.agent,
            model=call.model,
            input_tokens=call.input_tokens,
            output_tokens=call.output_tokens,
            cost_usd=call.cost_usd,
            ok=call.ok,
            error=call.error,
            attempts=call.attempts,
            latency_s=round(call.latency_s, 3),
        )

    def spec(self, role: Role) -> ModelSpec:
        spec = self.session.model_spec(role, self.ledger, self.fault_log, self.budget)
        if self.rate_limiter is not None:
            spec.client_kwargs["rate_limiter"] = self.rate_limiter
        return spec

    def run(self) -> Report:
        x = self.x
        requested = requested_count(x.search.query)
        try:
            if x.search.gamma:  # explored before (a resumed run stopped while the report was being written)
                self._present(self.presenting())
            elif self.settings.explore.parallel_sites > 1:
                self._run_parallel()
            else:
                self._run_group_chat()
        except RunLimitReached as exc:
            self.trace.emit("limit", detail=str(exc))
            interrupted = isinstance(exc, RunInterrupted)
            x.complete(StopReason.INTERRUPTED if interrupted else StopReason.LIMIT_REACHED, str(exc))
            self._present(self.presenting())
        except ModelError as exc:
            logger.warning("the model failed: %s", exc)
            self.trace.emit("fault", kind="model_error", error=str(exc))
            x.complete(StopReason.ERROR, f"the model endpoint failed: {exc}")
            self._present_without_chat()
        return self._report(requested)

    # --- building the chat ------------------------------------------------------------------------

    def _run_group_chat(self) -> None:
        x, settings = self.x, self.settings
        planner, planner_tools = make_planner(x, self.spec(Role.PLANNER))
        crawler, crawler_exec, crawler_tools = make_crawler(x, self.spec(Role.CRAWLER))
        collector, collector_exec, collector_tools = make_collector(x, self.spec(Role.COLLECTOR))
        supervisor, supervisor_exec = make_supervisor(x, self.spec(Role.SUPERVISOR))
        web_selector, web_exec, web_tools = make_web_selector(x, self.pool, self.spec(Role.WEB_SELECTOR))

        user = make_proxy(Speaker.USER.value, description="Brings the user's request and announces each site.")
        page_selector = make_proxy(Speaker.PAGE_SELECTOR.value, description="Runs the Web Selector.")
        scraper = make_proxy(Speaker.SCRAPER.value, description="Reads a page with the Crawler and the Collector.")
        supervisor_proxy = make_proxy(Speaker.SUPERVISOR.value, description="Asks the Supervisor for a verdict.")
        presenter_proxy = make_proxy(Speaker.PRESENTER.value, description="Has the report written.")
        members = [user, page_selector, planner, planner_tools, scraper, supervisor_proxy, presenter_proxy]
        presenting = self.presenting()
        for agent in [
            *members,
            crawler,
            crawler_exec,
            collector,
            collector_exec,
            supervisor,
            supervisor_exec,
            web_selector,
            web_exec,
        ]:
            trace_messages(agent, self._trace_message)

        groupchat = autogen.GroupChat(
            agents=list[autogen.Agent](members),
            messages=[],
            max_round=settings.run.max_rounds + 10,
            speaker_selection_method=self._select,
        )
        manager = autogen.GroupChatManager(groupchat, llm_config=False, human_input_mode="NEVER")
        self.groupchat = groupchat
        scrape = ScraperChat(x, crawler, crawler_exec, crawler_tools, collector, collector_exec, collector_tools)
        register_reply(
            page_selector,
            manager,
            lambda _m: PageSelectorChat(x, self.pool, web_selector, web_exec, web_tools).run(),
        )
        register_reply(scraper, manager, lambda _m: scrape.run())
        register_reply(supervisor_proxy, manager, lambda _m: SupervisorChat(x, supervisor, supervisor_exec).run())
        register_reply(presenter_proxy, manager, lambda _m: self._present(presenting))
        register_reply(user, manager, lambda _m: self._announce())
        self._resume_unfinished_scrape()  # a resumed run under way on a site: its interrupted page comes first
        user.initiate_chat(manager, message=f'Request: "{x.search.query}"', silent=True)
        if not x.search.gamma:  # the chat ended without the Presenter (should not happen): still report
            x.complete(StopReason.ERROR, "the conversation ended before the report")
            self._present_without_chat()

    # --- sites in parallel ----------------------------------------------------------------------------

    def _run_parallel(self) -> None:
        """Explore up to `parallel_sites` sites of P at once, each in its own group chat (a lane with its own
        Search Context, Web Context and nested chats); then rank and present once for all of them."""
        x = self.x
        if not x.sites_selected:
            selector, selector_exec, selector_tools = make_web_selector(x, self.pool, self.spec(Role.WEB_SELECTOR))
            PageSelectorChat(x, self.pool, selector, selector_exec, selector_tools).run()
        sites = [x.search.current_site] if x.search.current_site is not None else []
        sites += [site for site in x.search.P if site not in sites]
        state_lock = threading.RLock()

        def save_all() -> None:
            with state_lock:
                for attempt in range(5):
                    try:
                        x.save()
                        return
                    except RuntimeError:  # a lane changed a set while it was being written: write again
                        if attempt == 4:
                            raise

        def explore(site: SiteRef) -> None:
            lane_search = SearchContext(query=x.search.query)
            lane_search.add_site(site)
            lane = Exploration(
                settings=self.settings,
                search=lane_search,
                fetch_page=x.fetch_page,
                trace=self.trace,
                web_contexts=x.web_contexts,
                graph=NavigationGraph(),
                sites_selected=True,
                subpage_offsets=x.subpage_offsets,
                fetched_urls=x.fetched_urls,
                saver=save_all,
            )
            try:
                _ChatRun(self.session, lane, self.pool, self.trace, self.reranker, parent=self)._run_group_chat()
            finally:
                record = next((r for r in lane_search.finished_sites if r.site.url == site.url), None)
                with state_lock:
                    x.graph.merge(lane.graph)
                    x.search.finish_site(
                        site, record.reason if record else StopReason.ERROR, record.detail if record else ""
                    )
                save_all()

        self.trace.emit("parallel", sites=[site.url for site in sites], lanes=self.settings.explore.parallel_sites)
        with ThreadPoolExecutor(max_workers=self.settings.explore.parallel_sites, thread_name_prefix="site") as pool:
            for future in [pool.submit(explore, site) for site in sites]:
                future.result()  # a lane's RunLimitReached or ModelError ends the run as in sequential mode
        x.complete(StopReason.ALL_SITES_DONE)
        self._present(self.presenting())

    def presenting(self) -> PresenterChat:
        """The Presenter nested chat (built once; also used when the run stops outside the group chat)."""
        if self._presenting is None:
            tools = PresenterTools()
            presenter, executor = make_presenter(self.settings, tools, self.spec(Role.PRESENTER))
            critique, critique_proxy = make_critique(self.settings, self.spec(Role.CRITIQUE))
            for agent in (presenter, executor, critique, critique_proxy):
                trace_messages(agent, self._trace_message)
            self._presenting = PresenterChat(
                self.x, presenter, executor, tools, critique, critique_proxy, reranker=self.reranker
            )
        return self._presenting

    # --- speaker selection ------------------------------------------------------------------------

    def _select(self, last_speaker: autogen.Agent, groupchat: autogen.GroupChat) -> autogen.Agent | None:
        x = self.x
        message = groupchat.messages[-1] if groupchat.messages else {}
        try:
            speaker = Speaker(last_speaker.name)
        except ValueError:
            speaker = Speaker.USER
        state = FlowState(
            last_speaker=speaker,
            last_had_tool_calls=bool(message.get("tool_calls")),
            sites_selected=x.sites_selected,
            has_current_site=x.search.current_site is not None,
            has_pending_sites=x.search.has_pending_sites,
            planner_action=x.planner_action,
            subpages_left=x.subpages_left,
            supervisor_verdict=x.supervisor_verdict,
            site_stuck=x.search.current_site is not None and x.stuck.is_stuck,
            run_limit_reached=self._limit_reached(groupchat),
        )
        decision = select_next(state)
        next_speaker = self._apply(decision)
        if self.lane and next_speaker is Speaker.PRESENTER:
            next_speaker = None  # a lane's site is done: the parent run presents once for all sites
        self.trace.emit(
            "transition",
            row=decision.row,
            last=speaker.value,
            next=next_speaker.value if next_speaker else None,
            effect=decision.effect.value,
            reason=str(decision.reason or ""),
        )
        return groupchat.agent_by_name(next_speaker.value) if next_speaker else None

    def _apply(self, decision: Decision) -> Speaker | None:
        x = self.x
        if decision.row in ("planner_scrapes", "planner_reviews", "planner_continues", "open_start_page"):
            x.planner_action = "none"
        if decision.row in ("approved", "feedback", "feedback_no_budget"):
            x.supervisor_verdict = "none"
        if decision.effect is Effect.NEXT_SITE:
            if x.start_next_site(decision.reason) is None:
                x.complete(StopReason.ALL_SITES_DONE)
                return Speaker.PRESENTER
        elif decision.effect is Effect.COMPLETE:
            if decision.row == "run_limit":
                interrupted = self.budget.cancelled.is_set()
                x.complete(StopReason.INTERRUPTED if interrupted else StopReason.LIMIT_REACHED, self.limit_detail)
            else:
                if x.search.current_site is not None and decision.reason is not None:
                    x.search.finish_current_site(decision.reason, x.stuck.reason)
                x.complete(StopReason.ALL_SITES_DONE)
        return decision.next_speaker

    limit_detail = ""

    def _limit_reached(self, groupchat: autogen.GroupChat) -> bool:
        run = self.settings.run
        totals = self.ledger.totals()
        checks = [
            (len(groupchat.messages) >= run.max_rounds, f"{run.max_rounds} group messages"),
            (totals.calls >= run.max_model_calls, f"{run.max_model_calls} model calls"),
            (totals.input_tokens + totals.output_tokens >= run.max_tokens, f"{run.max_tokens} tokens"),
            (
                run.max_cost_usd is not None and totals.cost_usd >= run.max_cost_usd,
                f"${run.max_cost_usd} cost",
            ),
        ]
        for reached, what in checks:
            if reached:
                self.limit_detail = f"run limit of {what} reached"
                return True
        return False

    # --- proxies' replies ---------------------------------------------------------------------------

    def _announce(self) -> str:
        x = self.x
        site = x.search.current_site
        if site is None:
            return f'Request: "{x.search.query}"'
        intro = (
            f"Now exploring {site.name} ({site.url}), at most {x.settings.explore.max_subpages} subpages. "
            f'Request: "{x.search.query}".'
        )
        if (unfinished := self._resume_unfinished_scrape()) is not None:
            return f"{intro}\nReading {unfinished} again for the Scraper: a stop interrupted its scrape."
        if self._open_start_page():
            return f"{intro}\nOpening its start page {x.web.site_url} for the Scraper."
        if not x.settings.run.report_lists_top_urls:
            return f"{intro} Start with get_top_urls."
        return f"{intro}\n\n{get_top_urls(x.web, x.settings.explore.top_k_urls, state=x.hint_state()).message}"

    def _resume_unfinished_scrape(self) -> str | None:
        """The current site's page whose scrape a stop (a crash, a kill) interrupted, handed to the Scraper to be
        read again (from the run's page archive: no second request) before the Planner's next move; None
        when there is none."""
        x = self.x
        if x.search.current_site is None or not (unfinished := x.web.unfinished_scrapes()):
            return None
        x.planner_action, x.scrape_target = "scrape", ScrapeTarget(unfinished[0])
        self.trace.emit("scrape_resumed", url=unfinished[0])
        return unfinished[0]

    def _open_start_page(self) -> bool:
        """With run.open_start_page, take a new site's start page (its only pending URL) for the Scraper, as
        the Planner's scrape_url would; whether it did. A site already explored (follow-up, resume) is not.
        Nothing is saved here: until the Scraper has read the page and saves, the state on disk still has the
        start page pending, so a crash in between loses nothing (the resumed run opens it again)."""
        x = self.x
        web = x.web
        if not x.settings.run.open_start_page or web.visited_count or x.subpages_left <= 0:
            return False
        if web.pending_count != 1 or not web.is_pending(web.site_url):
            return False
        web.take(web.site_url)
        web.begin_scrape(web.site_url)
        x.planner_action, x.scrape_target = "scrape", ScrapeTarget(web.site_url)
        return True

    def _present(self, presenting: PresenterChat) -> str:
        requested = requested_count(self.x.search.query)
        items = presenting.prepare(k=requested or self.settings.report.top_k)
        self.report_items = items
        try:
            self.report_markdown = presenting.run(items, requested=requested)
            self.guard = presenting.guard
        except ModelError as exc:
            self.trace.emit("fault", kind="model_error", agent="presenter", error=str(exc))
            self.report_markdown = self._plain_listing(items, why=f"the Presenter's model failed: {exc}")
        return self.report_markdown

    def _present_without_chat(self) -> None:
        requested = requested_count(self.x.search.query)
        self.report_items = collected_report_items(self.x)[: requested or self.settings.report.top_k]
        self.report_markdown = self._plain_listing(self.report_items, why=self.x.search.completion.detail)

    @staticmethod
    def _plain_listing(items: list[ReportItem], *, why: str) -> str:
        return f"No written report ({why}); the items collected, best first:\n\n{format_items_for_presenter(items)}"

    # --- trace and report ---------------------------------------------------------------------------

    def _trace_message(self, sender: str, recipient: str, message: dict[str, Any] | str) -> None:
        if isinstance(message, str):
            message = {"content": message}
        calls = message.get("tool_calls") or []
        if calls:
            for call in calls:
                function = call.get("function", {})
                self.trace.emit(
                    "tool_call", agent=sender, tool=function.get("name"), arguments=function.get("arguments")
                )
        for response in message.get("tool_responses") or []:
            content = str(response.get("content", ""))
            self.trace.emit("tool_result", agent=sender, to=recipient, content=content[:4000])
            if content.startswith("Error:"):
                self.x.tool_errors += 1
        if not calls and not message.get("tool_responses"):
            self.trace.emit("message", sender=sender, recipient=recipient, content=str(message.get("content"))[:4000])

    def _report(self, requested: int | None) -> Report:
        x = self.x
        totals = self.ledger.totals()
        by_agent = {
            name: AgentStats(
                model_calls=usage.calls,
                input_tokens=usage.input_tokens,
                output_tokens=usage.output_tokens,
                cost_usd=usage.cost_usd,
                failures=usage.failures,
            )
            for name, usage in self.ledger.by_agent().items()
        }
        faults = dict(self.fault_log.counts)
        if x.tool_errors:
            faults["tool_errors"] = x.tool_errors
        failures = sum(stats.failures for stats in by_agent.values())
        if failures:
            faults["model_call_failures"] = failures
        sites = []
        for finished in x.search.finished_sites:
            web = x.web_contexts.get(finished.site.url)
            sites.append(
                SiteSummary(
                    name=finished.site.name,
                    url=finished.site.url,
                    reason=str(finished.reason),
                    detail=finished.detail,
                    pages_visited=web.visited_count if web else 0,
                    items_collected=web.item_count if web else 0,
                )
            )
        simulated = self.session.backend == "simulated"
        models = {
            role.value: SIMULATED_MODEL_NAME if simulated else self.settings.models.model_for(role.value)
            for role in Role
        }
        completion = x.search.completion
        return Report(
            query=x.search.query,
            item_kind=self.settings.explore.item_kind,
            requested_count=requested,
            simulated_model=simulated,
            models=models,
            sites=sites,
            items=self.report_items,
            markdown=self.report_markdown,
            stop_reason=str(completion.reason or ""),
            stop_detail=completion.detail,
            guard_notes=self.guard.notes if self.guard else [],
            supported_share=self.guard.supported_share if self.guard else None,
            stats=RunStats(
                model_calls=totals.calls,
                input_tokens=totals.input_tokens,
                output_tokens=totals.output_tokens,
                cost_usd=round(totals.cost_usd, 6),
                by_agent=by_agent,
                faults=faults,
            ),
        )
