"""Whole queries on the testbed web with the simulated model, scored against the testbed's ground truth (and,
through `run_request`, on other loopback sites scored against a ground truth given as URLs: the real saved pages).

Shared by the benchmarks that run queries (tokens by preset, parallel sites, the peer comparison, the
rerankers' memory); it defines no benchmark of its own.
"""

from __future__ import annotations

import dataclasses
import json
import logging
import os
import platform
import statistics
import tempfile
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from research_crawler.agents.ag2 import ModelSpec
from research_crawler.agents.roles import Role
from research_crawler.config.settings import RerankerKind, Settings
from research_crawler.context.store import RunState, RunStore
from research_crawler.context.urls import try_canonicalize_url
from research_crawler.eval.addresses import address_key
from research_crawler.eval.testbed import TestbedServer
from research_crawler.eval.testbed.models import Query
from research_crawler.eval.testbed_sites import TestbedSites
from research_crawler.llm.client import ModelReply, ModelRequest
from research_crawler.llm.simulated import SimulatedModelClient
from research_crawler.llm.tool_tokens import tools_tokens
from research_crawler.report.models import Report
from research_crawler.run.session import ResearchSession
from research_crawler.run.trace import read_trace
from research_crawler.text.tokens import count_tokens

__all__ = [
    "REALWEB",
    "FixedTokens",
    "QueryRun",
    "ahead_outcomes",
    "critical_path_calls",
    "loopback_settings",
    "machine",
    "model_wait_s",
    "pages_lost",
    "run_query",
    "run_request",
    "testbed_hosts",
    "testbed_settings",
    "timed_alternately",
]

REPO = Path(__file__).resolve().parents[1]
OUT_DIR = REPO / "benchmarks" / "out"
#: The real saved pages (MANIFEST.tsv, pages/): beside the repository, or at $RESEARCH_CRAWLER_REALWEB.
REALWEB = Path(os.environ.get("RESEARCH_CRAWLER_REALWEB", REPO.parent / "shared" / "realweb"))


def machine() -> str:
    """The machine the figures were measured on, as the README's table states it."""
    return f"{platform.machine()}, {os.cpu_count()} cores, {platform.system()}, Python {platform.python_version()}"


def testbed_hosts(server: TestbedServer) -> list[str]:
    """host:port of every testbed site: the only loopback addresses a benchmark may fetch."""
    return sorted(server.allowed_hosts())


def testbed_settings(
    settings: Settings, server: TestbedServer, runs_dir: Path, *, reranker: RerankerKind = "bm25"
) -> Settings:
    """`settings` made to run on the testbed: its hosts allowed, `reranker` on the CPU (BM25 unless a benchmark
    measures the rerankers: bge's weights are not downloaded for benchmarks); the politeness `settings` has."""
    return loopback_settings(settings, testbed_hosts(server), runs_dir, reranker=reranker)


def loopback_settings(
    settings: Settings, hosts: Sequence[str], runs_dir: Path, *, reranker: RerankerKind = "bm25"
) -> Settings:
    """`settings` made to run on loopback sites: only `hosts` ('host:port') allowed through the URL guard,
    `reranker` on the CPU. The per-host delay stays what `settings` says (the default 1 s): a benchmark that
    measures without it sets `fetch.per_host_delay_s` itself and its table says so."""
    settings = settings.model_copy(deep=True)
    settings.runs_dir = runs_dir
    settings.fetch.allowed_hosts = list(hosts)
    settings.rerank.kind = reranker
    settings.rerank.device = "cpu"
    return settings


class FixedTokens:
    """Input tokens every model call pays whatever the page: its system prompt and its tool schemas, by agent."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.by_agent: dict[str, int] = {}

    def add(self, agent: str, request: ModelRequest) -> None:
        system = "".join(str(m.get("content") or "") for m in request.messages if m.get("role") == "system")
        tokens = count_tokens(system) + tools_tokens(request.tools)  # the schemas as the model reads them
        with self._lock:
            self.by_agent[agent] = self.by_agent.get(agent, 0) + tokens


class _CountingSimulatedClient(SimulatedModelClient):
    """The simulated model, also counting each request's fixed part (`FixedTokens`, passed as `fixed`)."""

    def __init__(self, config: dict[str, Any], **kwargs: Any) -> None:
        self._fixed: FixedTokens = kwargs.pop("fixed")
        super().__init__(config, **kwargs)

    def _complete(self, request: ModelRequest) -> ModelReply:
        self._fixed.add(self.agent_name, request)
        return super()._complete(request)


class _CountingSession(ResearchSession):
    def __init__(self, *args: Any, fixed: FixedTokens, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._fixed = fixed

    def model_spec(self, role: Role, spec: ModelSpec) -> ModelSpec:
        kwargs = {**spec.client_kwargs, "fixed": self._fixed}
        return dataclasses.replace(spec, client_cls=_CountingSimulatedClient, client_kwargs=kwargs)


@dataclass
class QueryRun:
    """One query's figures: tokens by agent, pages, recall against the ground truth, time."""

    query_id: str
    input_tokens: dict[str, int]
    output_tokens: int
    model_calls: int
    pages_scraped: int
    pages_fetched: int
    scraped_urls: list[str]
    relevant_total: int
    relevant_reported: int
    relevant_collected: int
    wall_time_s: float
    relevant_fetched: int = 0
    fixed_input_tokens: dict[str, int] = field(default_factory=dict)
    cached_input_tokens: dict[str, int] = field(default_factory=dict)
    output_tokens_by_agent: dict[str, int] = field(default_factory=dict)
    list_price_cost_usd: float = 0.0
    model_wait_s: float = 0.0
    """Time during which at least one model call was under way (the union of the calls' spans)."""
    critical_path_calls: int = 0
    """The longest chain of model calls each started after the one before it ended (`critical_path_calls`)."""
    trace_events: list[str] = field(default_factory=list)
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def total_input_tokens(self) -> int:
        return sum(self.input_tokens.values())

    @property
    def recall(self) -> float:
        return self.relevant_reported / self.relevant_total if self.relevant_total else 0.0

    @property
    def collected_recall(self) -> float:
        return self.relevant_collected / self.relevant_total if self.relevant_total else 0.0


def run_query(
    settings: Settings,
    server: TestbedServer,
    queries: Sequence[Query],
    *,
    sites: Sequence[str] | None = None,
    runs_dir: Path | None = None,
    reranker: RerankerKind = "bm25",
) -> QueryRun:
    """Run `queries[0]`'s text on `sites` (default: each query's own site) and score it against the union of
    the queries' ground truths (several queries when one request spans several sites)."""
    testbed = TestbedSites.from_server(server)
    site_names = list(sites) if sites is not None else list(dict.fromkeys(q.site for q in queries))
    to_item: dict[str, str] = {}
    for query in queries:
        to_item.update(testbed.ground_truth(query.site, list(query.relevant_item_ids)).url_to_item())
    return run_request(
        settings,
        queries[0].text,
        [server.base_url(name) for name in site_names],
        testbed_hosts(server),
        to_item,
        query_id=queries[0].id,
        runs_dir=runs_dir,
        reranker=reranker,
    )


def run_request(
    settings: Settings,
    text: str,
    start_urls: Sequence[str],
    hosts: Sequence[str],
    to_item: Mapping[str, str],
    *,
    query_id: str,
    runs_dir: Path | None = None,
    reranker: RerankerKind = "bm25",
) -> QueryRun:
    """Run the request `text` from `start_urls` on loopback sites (only `hosts` allowed) with the simulated
    model, and score it against the ground truth `to_item` (canonical URL → relevant item id; several URLs
    may name one item)."""
    logging.getLogger("research_crawler").setLevel(logging.ERROR)
    with tempfile.TemporaryDirectory(dir=runs_dir) as directory:
        configured = loopback_settings(settings, hosts, Path(directory), reranker=reranker)
        fixed = FixedTokens()
        session = _CountingSession(configured, backend="simulated", allowed_hosts=list(hosts), fixed=fixed)
        report = session.run(text, sites=list(start_urls))
        run = _score(report, to_item, query_id)
        run.fixed_input_tokens = dict(fixed.by_agent)
        return run


def _score(report: Report, to_item: Mapping[str, str], query_id: str) -> QueryRun:
    run_dir = Path(report.run_dir or "")
    relevant = set(to_item.values())
    reported = {to_item[key] for item in report.items if (key := address_key(item.url)) in to_item}
    state = RunStore(run_dir).load()
    collected = {
        to_item[key]
        for web in state.web_contexts.values()
        for item in web.items()
        if (key := address_key(item.url)) in to_item
    }
    events = read_trace(run_dir / "trace.jsonl")
    scraped = [event["url"] for event in events if event["event"] == "scrape"]
    lost = pages_lost(state, events)
    fetched = {event["final_url"] for event in events if event["event"] == "fetch"}
    return QueryRun(
        query_id=query_id,
        input_tokens={agent: stats.input_tokens for agent, stats in report.stats.by_agent.items()},
        output_tokens=report.stats.output_tokens,
        model_calls=report.stats.model_calls,
        pages_scraped=len(scraped),
        pages_fetched=report.stats.pages_fetched,
        scraped_urls=scraped,
        relevant_total=len(relevant),
        relevant_reported=len(reported),
        relevant_collected=len(collected),
        relevant_fetched=len({to_item[key] for url in fetched if (key := address_key(url)) in to_item}),
        cached_input_tokens={agent: stats.cached_input_tokens for agent, stats in report.stats.by_agent.items()},
        output_tokens_by_agent={agent: stats.output_tokens for agent, stats in report.stats.by_agent.items()},
        list_price_cost_usd=report.stats.list_price_cost_usd,
        model_wait_s=round(model_wait_s(events), 3),
        critical_path_calls=critical_path_calls(events),
        trace_events=sorted({str(event["event"]) for event in events}),
        wall_time_s=report.stats.wall_time_s,
        extra={
            "ahead": ahead_outcomes(events),
            "politeness_s": settings_delay(run_dir),
            "pages_lost": sorted(lost),
            "faults": dict(report.stats.faults),
            "links_preranked": [
                (event["links"], event["shown"]) for event in events if event["event"] == "links_preranked"
            ],
        },
    )


def ahead_outcomes(events: list[dict[str, Any]]) -> dict[str, int]:
    """What became of the pages fetched ahead: started, taken by the Scraper, and the wasted ones — fetched and
    never read ('unused') or given up while under way ('cancelled', a request possibly sent)."""
    counts = {"started": 0, "taken": 0, "unused": 0, "cancelled": 0}
    for event in events:
        if event["event"] == "fetch_ahead" and event.get("action") in counts:
            counts[str(event["action"])] += 1
    counts["wasted"] = counts["unused"] + counts["cancelled"]
    # Every guess ends taken, unused or cancelled; a "start" event can be missing from the trace (it is written from
    # the fetch's done-callback), so what started is counted from what became of it.
    counts["started"] = max(counts["started"], counts["taken"] + counts["wasted"])
    return counts


def settings_delay(run_dir: Path) -> float | None:
    """The per-host delay the run was made with (from its run.json), for the figures to say their politeness."""
    try:
        recorded = json.loads((run_dir / "run.json").read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError):
        return None
    value = recorded.get("settings", {}).get("fetch", {}).get("per_host_delay_s")
    return float(value) if isinstance(value, int | float) else None


def timed_alternately(configurations: Mapping[str, Callable[[], QueryRun]], *, repeats: int) -> dict[str, QueryRun]:
    """Each configuration run once untimed (models loaded, caches filled), then all of them in turn `repeats`
    times (A B A B …); the run kept for each is its median by wall time, with every wall time in
    `extra["walls_s"]` and the median in `extra["measured_wall_s"]`."""
    for run in configurations.values():
        run()  # warm-up, not timed
    walls: dict[str, list[tuple[float, QueryRun]]] = {name: [] for name in configurations}
    for _ in range(repeats):
        for name, run in configurations.items():
            started = time.monotonic()
            figures = run()
            walls[name].append((round(time.monotonic() - started, 2), figures))
    kept = {}
    for name, timed in walls.items():
        ordered = sorted(timed, key=lambda pair: pair[0])
        wall, figures = ordered[(len(ordered) - 1) // 2]
        figures.extra["walls_s"] = [w for w, _ in timed]
        figures.extra["measured_wall_s"] = statistics.median(w for w, _ in timed)
        figures.extra["median_run_wall_s"] = wall
        kept[name] = figures
    return kept


def _call_spans(events: list[dict[str, Any]]) -> list[tuple[float, float]]:
    """(start, end) of every model call: each ends at its event's time and lasted its latency."""
    return sorted(
        (end - float(event.get("latency_s") or 0.0), end)
        for event in events
        if event["event"] == "model_call"
        for end in [datetime.fromisoformat(str(event["t"])).timestamp()]
    )


def critical_path_calls(events: list[dict[str, Any]], *, tolerance_s: float = 0.05) -> int:
    """The model calls waited for one after the other: the longest chain of calls in which each started after
    the one before it had ended (calls under way at once, such as the Crawler and the Collector reading one page,
    are one step). Unlike `model_wait_s` over the latency, it does not grow when calls take longer than the
    latency (the simulated model's own work on a large page)."""
    spans = sorted(_call_spans(events), key=lambda span: span[1])
    chain: list[int] = []
    for start, _ in spans:
        before = [length for (_, end), length in zip(spans, chain, strict=False) if end <= start + tolerance_s]
        chain.append(1 + max(before, default=0))
    return max(chain, default=0)


def model_wait_s(events: list[dict[str, Any]]) -> float:
    """Seconds during which at least one model call was under way: the union of the calls' spans (each ends at
    its event's time and lasted its latency). With a fixed latency per call, this over the latency is the number
    of model calls on the critical path."""
    spans = _call_spans(events)
    total, current_start, current_end = 0.0, None, None
    for start, end in spans:
        if current_end is None or start > current_end:
            if current_end is not None and current_start is not None:
                total += current_end - current_start
            current_start, current_end = start, end
        else:
            current_end = max(current_end, end)
    if current_end is not None and current_start is not None:
        total += current_end - current_start
    return total


def pages_lost(state: RunState, events: list[dict[str, Any]]) -> set[str]:
    """Pages the run lost: visited (VU) but never read by the Scraper, or chosen with scrape_url and then
    neither read nor left pending. A run that loses nothing returns an empty set."""
    scraped = {str(event["url"]) for event in events if event["event"] == "scrape"}
    lost = {url for web in state.web_contexts.values() for url in web.VU if url not in scraped}
    for event in events:
        if event["event"] != "tool_call" or event.get("tool") != "scrape_url":
            continue
        try:
            chosen = str(json.loads(event.get("arguments") or "{}").get("url", ""))
        except (json.JSONDecodeError, AttributeError):
            continue
        for web in state.web_contexts.values():
            url = try_canonicalize_url(chosen, web.site_url)
            known = url is not None and (url in web.DU or url in web.VU)
            if known and url not in scraped and not web.is_pending(url):
                lost.add(url)
    return lost
