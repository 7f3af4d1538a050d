"""Sites explored in parallel: up to `explore.parallel_sites` lanes, each a group chat of its own over one
site (its own Search Context and nested chats, the run's Web Contexts, model accounting and page source),
whose navigation graphs and outcomes are merged into the run's state as each lane ends."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

from research_crawler.agents.roles import Role
from research_crawler.agents.team import make_web_selector
from research_crawler.config.site_pool import SitePool
from research_crawler.context.graph import NavigationGraph
from research_crawler.context.search_context import SearchContext, SiteRef, StopReason
from research_crawler.nested_chats.page_selector import PageSelectorChat
from research_crawler.run.chat_run import ChatRun
from research_crawler.run.models import RunModels
from research_crawler.run.presenting import Presenting
from research_crawler.run.trace import Trace
from research_crawler.tools.exploration import Exploration, Flow

__all__ = ["explore_in_parallel"]

_STOPS = (StopReason.INTERRUPTED, StopReason.LIMIT_REACHED)


def explore_in_parallel(
    x: Exploration, *, pool: SitePool, models: RunModels, presenting: Presenting, trace: Trace
) -> None:
    """Choose the sites (unless chosen before), explore them in lanes, then complete the search.

    A lane's RunLimitReached or ModelError propagates, ending the run as in sequential mode.
    """
    if not x.flow.sites_selected:
        selector, selector_exec, selector_tools = make_web_selector(x, pool, models.spec(Role.WEB_SELECTOR))
        PageSelectorChat(x, pool, selector, selector_exec, selector_tools).run()
    sites = [x.search.current_site] if x.search.current_site is not None else []
    sites += [site for site in x.search.P if site not in sites]
    # One lock for the run: every lane changes its Web Context (and the run's dict of them) under x.lock, and
    # each save serialises every context under it too, so each state.json is one consistent snapshot.
    state_lock = x.lock

    def save_all() -> None:
        with state_lock:
            x.save()

    stops: list[tuple[StopReason, str]] = []

    def explore(site: SiteRef) -> None:
        # The lane's agents read the request as the run read it (its count, dates, order, fields…), not the bare text.
        lane_search = SearchContext(query=x.search.query, request=x.search.request)
        lane_search.add_site(site)
        lane_trace = trace.for_site(site.url)  # the lanes' events interleave: each names its site
        lane = Exploration(
            settings=x.settings,
            search=lane_search,
            pages=x.pages,
            trace=lane_trace,
            web_contexts=x.web_contexts,
            graph=NavigationGraph(),
            flow=Flow(sites_selected=True),
            findings=x.findings,  # by site URL: what each lane learns of its site (search, walls), the report reads
            saver=save_all,
            lock=state_lock,
            lane=True,
        )
        ended = False
        try:
            ChatRun(lane, pool=pool, models=models, presenting=presenting, trace=lane_trace, lane=True).run()
            ended = True
        finally:
            record = next((r for r in lane_search.finished_sites if r.site.url == site.url), None)
            stopped = lane_search.completion.reason in _STOPS
            with state_lock:
                x.graph.merge(lane.graph)
                x.tool_errors += lane.tool_errors
                if stopped:  # a limit or the user stopped the lane: recorded as such (a resumed run reopens it)
                    stop = lane_search.completion.reason or StopReason.ERROR
                    stops.append((stop, lane_search.completion.detail))
                    x.search.finish_site(site, stop, lane_search.completion.detail)
                elif ended:
                    x.search.finish_site(
                        site, record.reason if record else StopReason.ERROR, record.detail if record else ""
                    )
                # else the lane failed (a model error, a crash): the site stays pending, as the current site of a
                # run explored one site at a time does, and a resumed run goes on where its state stopped
            save_all()

    trace.emit("parallel", sites=[site.url for site in sites], lanes=x.settings.explore.parallel_sites)
    with ThreadPoolExecutor(max_workers=x.settings.explore.parallel_sites, thread_name_prefix="site") as executor:
        for future in [executor.submit(explore, site) for site in sites]:
            future.result()
    if stops:
        x.complete(*stops[0])
    else:
        x.complete(StopReason.ALL_SITES_DONE)
