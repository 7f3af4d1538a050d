"""The `Report` of a run, assembled from the final state: items and text from the Presenter, each site's
outcome, the stop reason, and the model calls, tokens, cost and faults per agent."""

from __future__ import annotations

from research_crawler.agents.roles import Role
from research_crawler.llm.usage import price_for
from research_crawler.report.models import AgentStats, Report, RunStats, SiteSummary
from research_crawler.run.coverage import site_coverage
from research_crawler.run.models import RunModels
from research_crawler.run.presenting import Presenting
from research_crawler.tools.exploration import Exploration

__all__ = ["build_report"]


def build_report(x: Exploration, models: RunModels, presenting: Presenting, *, requested: int | None) -> Report:
    """The run's report (pages fetched, wall time and run directory are filled in by the session)."""
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
                detail=finished.detail,
                pages_visited=web.visited_count if web else 0,
                items_collected=web.item_count if web else 0,
            )
        )
    completion = x.search.completion
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
        coverage=site_coverage(x),
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
