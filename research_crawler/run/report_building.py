"""The `Report` of a run, assembled from the final state: items and text from the Presenter, each site's
outcome, the stop reason, and the model calls, tokens, cost and faults per agent."""

from __future__ import annotations

from collections.abc import Sequence

from research_crawler.agents.roles import Role
from research_crawler.context.search_context import SiteRef, StopReason
from research_crawler.llm.usage import price_for
from research_crawler.report.models import AgentStats, Report, RunStats, SiteSummary
from research_crawler.run.coverage import site_coverage
from research_crawler.run.models import RunModels
from research_crawler.run.presenting import Presenting
from research_crawler.tools.exploration import Exploration

__all__ = ["build_report"]


def build_report(
    x: Exploration,
    models: RunModels,
    presenting: Presenting,
    *,
    requested: int | None,
    sites_asked: Sequence[SiteRef] = (),
) -> Report:
    """The run's report (pages fetched, wall time and run directory are filled in by the session). Every site has
    its end and reason: those the search never finished (`sites_asked`, the user's ``--site``, included) end as the
    search did."""
    totals = models.ledger.totals()
    list_costs: dict[str, float] = {}
    for call in models.ledger.calls():
        list_costs[call.agent] = list_costs.get(call.agent, 0.0) + models.list_cost(call)
    by_agent = {
        name: AgentStats(
            model_calls=usage.calls,
            input_tokens=usage.input_tokens,
            cached_input_tokens=usage.cached_input_tokens,
            output_tokens=usage.output_tokens,
            cost_usd=usage.cost_usd,
            list_price_cost_usd=round(list_costs.get(name, 0.0), 6),
            failures=usage.failures,
        )
        for name, usage in models.ledger.by_agent().items()
    }
    prices = x.settings.models.prices_per_million
    configured = {model for name in by_agent if (model := models.list_price_model(name)) is not None}
    list_prices = {model: price for model in sorted(configured) if (price := price_for(model, prices)) is not None}
    faults = dict(models.fault_log.counts)
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
                name=web.name if web is not None and web.name else finished.site.name,
                url=finished.site.url,
                reason=str(finished.reason),
                detail=_with_walls(finished.detail, x.findings.walls.get(finished.site.url, [])),
                pages_visited=web.visited_count if web else 0,
                items_collected=web.item_count if web else 0,
            )
        )
    completion = x.search.completion
    sites += _unfinished_sites(x, sites_asked, done={site.url for site in sites})
    guard = presenting.guard
    request = x.search.request
    summary = x.request_summary()
    return Report(
        query=x.search.query,
        item_kind=x.settings.explore.item_kind,
        requested_count=requested,
        request=request,
        request_summary=summary,
        compliance=presenting.compliance,
        simulated_model=models.simulated,
        models={role.value: models.model_name(role) for role in Role},
        sites=sites,
        coverage=site_coverage(x, presenting.items),
        items=presenting.items,
        markdown=presenting.markdown,
        stop_reason=str(completion.reason or ""),
        stop_detail=completion.detail,
        guard_notes=guard.notes if guard else [],
        supported_share=guard.supported_share if guard else None,
        stats=RunStats(
            model_calls=totals.calls,
            input_tokens=totals.input_tokens,
            cached_input_tokens=totals.cached_input_tokens,
            output_tokens=totals.output_tokens,
            cost_usd=round(totals.cost_usd, 6),
            list_price_cost_usd=round(sum(list_costs.values()), 6),
            list_prices=list_prices,
            by_agent=by_agent,
            faults=faults,
        ),
    )


def _with_walls(detail: str, walled: Sequence[str]) -> str:
    """The site's end, and — when pages of it asked to sign in or to pay — that they were not passed, plainly."""
    if not walled or "sign in" in detail or "paywall" in detail:
        return detail
    note = (
        f"{len(walled)} of its pages asked to sign in or to pay (a login wall or a paywall), which the crawler does "
        "not pass: what is reported of them is what its other pages show"
    )
    return f"{detail}; {note}" if detail else note


def _unfinished_sites(x: Exploration, asked: Sequence[SiteRef], *, done: set[str]) -> list[SiteSummary]:
    """The sites an ended search left unfinished (under way, pending, or named and never chosen), each ended as the
    search was: a site left by an error says so, never nothing."""
    completion = x.search.completion
    if not completion.done or completion.reason is None:
        return []
    reason = completion.reason
    if reason is StopReason.ERROR:
        detail = "not finished: the search stopped on an error"
    elif reason is StopReason.ALL_SITES_DONE:
        return []
    else:
        detail = f"not finished: the search ended ({reason.value.replace('_', ' ')}) first"
    summaries = []
    for site in [*x.known_sites(), *asked]:
        if site.url in done:
            continue
        done.add(site.url)
        web = x.web_contexts.get(site.url)
        summaries.append(
            SiteSummary(
                name=web.name if web is not None and web.name else site.name,
                url=site.url,
                reason=str(reason),
                detail=detail,
                pages_visited=web.visited_count if web else 0,
                items_collected=web.item_count if web else 0,
            )
        )
    return summaries
