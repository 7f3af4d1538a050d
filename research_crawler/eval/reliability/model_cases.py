"""Catalogue cases of model misbehaviour: whole testbed queries with the unruly simulated model (parallel calls,
unknown tools, malformed or invalid arguments, text instead of calls, padded reports), with a model that
only answers empty, and with a 270M-like model behind a strict endpoint (every forced call filled with "x" and dates
with a time; calls cut at max_tokens): each case holds when every run reports, loses no page and stays within its
bounds."""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any

from research_crawler.context.store import RunStore
from research_crawler.eval.reliability.catalogue import Outcome, case
from research_crawler.eval.reliability.chat_endpoint import StrictChatEndpoint
from research_crawler.eval.reliability.run_cases import testbed_settings, testbed_web
from research_crawler.eval.reliability.tiny_model import MODEL, tiny_completion
from research_crawler.llm.client import ModelReply, ModelRequest
from research_crawler.llm.simulated import SimulatedModelClient
from research_crawler.report.models import Report
from research_crawler.run.session import ResearchSession
from research_crawler.run.trace import read_trace

__all__: list[str] = []

_SITES = ("arxiv-like", "journal-like", "repo-like")


def _lost_pages(report: Report) -> int:
    """Visited pages the Scraper never read: what a lost page looks like (must be 0)."""
    run_dir = Path(report.run_dir or "")
    scraped = {event["url"] for event in read_trace(run_dir / "trace.jsonl") if event["event"] == "scrape"}
    return sum(len(web.VU - scraped) for web in RunStore(run_dir).load().web_contexts.values())


def _unruly_runs(rate: float) -> tuple[list[Report], int]:
    reports = []
    with testbed_web() as server, tempfile.TemporaryDirectory(prefix="unruly-") as scratch:
        settings = testbed_settings(server, Path(scratch) / "runs")
        settings.simulated.behaviour = "unruly"
        settings.simulated.unruly_rate = rate
        for seed, site in enumerate(_SITES):
            settings.simulated.seed = seed
            query = server.testbed.queries_for(site)[0].text
            reports.append(ResearchSession(settings, backend="simulated").run(query, sites=[server.base_url(site)]))
        lost = sum(_lost_pages(report) for report in reports)
    return reports, lost


def _misbehaviours(reports: list[Report]) -> dict[str, int]:
    counts: dict[str, int] = {}
    for report in reports:
        for kind, count in report.stats.faults.items():
            if kind.startswith("unruly:"):
                counts[kind.removeprefix("unruly:")] = counts.get(kind.removeprefix("unruly:"), 0) + count
    return counts


@case("model misbehaviour", "parallel calls, unknown tools, bad arguments, text for calls: each answered, none lost")
def _unruly_model() -> Outcome:
    reports, lost = _unruly_runs(0.4)
    made = _misbehaviours(reports)
    calls = max(report.stats.model_calls for report in reports)
    held = all(report.markdown for report in reports) and lost == 0 and sum(made.values()) >= 5 and calls <= 60
    detail = f"{sum(made.values())} misbehaviours ({', '.join(f'{k} {v}' for k, v in sorted(made.items()))}); "
    return Outcome(held, detail + f"pages lost {lost}; most model calls in a query {calls}", items_lost=lost)


@case("model misbehaviour", "padded reports: no invented item or link survives the citation guard")
def _padded_reports() -> Outcome:
    reports, lost = _unruly_runs(0.6)
    padded = _misbehaviours(reports).get("padded_report", 0)
    invented = [report.run_dir for report in reports if "papers.example.org" in report.markdown]
    held = padded > 0 and not invented and lost == 0
    return Outcome(held, f"{padded} padded drafts; reports still holding an invented link: {len(invented)}")


class _SilentModel(SimulatedModelClient):
    """The simulated model, except that the Planner and the Supervisor answer nothing at all."""

    def _complete(self, request: ModelRequest) -> ModelReply:
        if self.agent_name in ("Planner", "Supervisor"):
            return ModelReply(content="", finish_reason="stop")
        return super()._complete(request)


class _SilentSession(ResearchSession):
    def model_spec(self, role: Any, spec: Any) -> Any:
        return type(spec)(client_cls=_SilentModel, model=spec.model, client_kwargs=spec.client_kwargs)


@case("model misbehaviour", "empty replies end a site with that reason, never 'completed', within bounds")
def _empty_replies() -> Outcome:
    with testbed_web() as server, tempfile.TemporaryDirectory(prefix="silent-") as scratch:
        settings = testbed_settings(server, Path(scratch) / "runs")
        site = "journal-like"
        report = _SilentSession(settings, backend="simulated").run(
            server.testbed.queries_for(site)[0].text, sites=[server.base_url(site)]
        )
    reasons = [summary.reason for summary in report.sites]
    held = reasons == ["no_usable_reply"] and bool(report.markdown) and report.stats.model_calls <= 20
    return Outcome(held, f"sites ended: {reasons}; {report.stats.model_calls} model calls")


def _tiny_model_run(*, cut_at_limit: bool) -> tuple[Report, list[dict[str, Any]], StrictChatEndpoint, list[str]]:
    """A query on one testbed site through a strict endpoint answering as a 270M model does: the report, its trace,
    the endpoint, and the titles of the items stored."""
    site = "arxiv-like"
    with (
        testbed_web() as server,
        tempfile.TemporaryDirectory(prefix="tiny-") as scratch,
        StrictChatEndpoint(lambda body: tiny_completion(body, cut_at_limit=cut_at_limit)) as endpoint,
    ):
        settings = testbed_settings(server, Path(scratch) / "runs")
        settings.models.base_url, settings.models.api_key = endpoint.base_url, None
        settings.models.strong_model = settings.models.cheap_model = MODEL
        settings.explore.max_subpages = 2
        report = ResearchSession(settings, backend="openai").run(
            "Find papers on graph neural networks", sites=[server.base_url(site)]
        )
        trace = read_trace(Path(report.run_dir or "") / "trace.jsonl")
        titles = [item.title for web in RunStore(Path(report.run_dir or "")).load().web_contexts.values()
                  for item in web.items()]
    return report, trace, endpoint, titles


@case("model misbehaviour", "a 270M-like model behind a strict endpoint: no request refused, every site given a reason")
def _tiny_model() -> Outcome:
    report, trace, endpoint, titles = _tiny_model_run(cut_at_limit=False)
    readings = [str(e.get("source")) for e in trace if e["event"] == "request" and "summary" in e]
    by_rules = bool(readings) and readings[0].startswith("rules (")
    made_up = [title for title in titles if title == "x"]
    ended = [site.reason for site in report.sites]
    held = not endpoint.refusals and bool(ended) and all(ended) and by_rules and not made_up
    detail = (
        f"{endpoint.answered} requests answered, {len(endpoint.refusals)} refused; reading: {readings[:1]}; "
        f"sites ended: {ended}; stop {report.stop_reason}; titles not on their page stored: {len(made_up)}"
    )
    return Outcome(held, detail)


@case("model misbehaviour", "a tool call cut at max_tokens but marked tool_calls: asked again as cut off")
def _cut_tool_calls() -> Outcome:
    report, trace, endpoint, _ = _tiny_model_run(cut_at_limit=True)
    cut = [e for e in trace if e["event"] == "model_call" and "cut off" in str(e.get("error"))]
    dispatched = [e for e in trace if e["event"] == "tool_call"]
    ended = [site.reason for site in report.sites]
    held = bool(cut) and not dispatched and not endpoint.refusals and bool(ended) and all(ended)
    return Outcome(held, f"{len(cut)} replies seen as cut off, {len(dispatched)} dispatched; sites ended: {ended}")
