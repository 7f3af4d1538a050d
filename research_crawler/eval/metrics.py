"""Deterministic metrics of one run: what it cost and did (any site), and how it did against ground truth (testbed).

Ground truth comes from the testbed generator: which items answer the query, and the site's link graph, from
which the shortest paths from the site's root to those items give the pages a perfect navigator would fetch.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Literal

import networkx as nx
from pydantic import BaseModel, Field

from research_crawler.eval.addresses import address_key
from research_crawler.eval.evidence import RunEvidence
from research_crawler.report.models import AgentStats, Report

__all__ = [
    "GroundTruth",
    "GroundTruthMetrics",
    "RunFigures",
    "ShareSource",
    "ground_truth_metrics",
    "ndcg_at_k",
    "recall_at_k",
    "run_figures",
    "shortest_paths_from_root",
    "supported_share",
]


#: Where the deterministic groundedness share came from.
ShareSource = Literal["citation_guard", "collected_items", "none"]


class RunFigures(BaseModel):
    """What one run did and cost; defined for every site, with or without ground truth."""

    items_collected: int
    items_reported: int
    pages_fetched: int
    subpages_used: int = Field(description="Pages scraped by the agents, summed over the sites.")
    model_calls: int
    input_tokens: int
    output_tokens: int
    cost_usd: float
    wall_time_s: float
    stop_reason: str
    supported_share: float | None = Field(
        description="Deterministic groundedness: the share of the report's items supported by what was fetched."
    )
    supported_share_source: ShareSource
    by_agent: dict[str, AgentStats] = Field(default_factory=dict)


class GroundTruth(BaseModel):
    """The answer to one query: each relevant item's id with the URLs it may be reported under."""

    relevant: dict[str, list[str]] = Field(description="Item id → its URLs (page first, then its PDF).")
    site: str = Field(description="Dataset name of the site, whose link graph holds the items.")

    def url_to_item(self) -> dict[str, str]:
        return {_canonical(url): item_id for item_id, urls in self.relevant.items() for url in urls}


class GroundTruthMetrics(BaseModel):
    """Retrieval and navigation quality of one run against the known answer."""

    relevant_total: int
    relevant_collected: int
    relevant_reported: int
    recall: float = Field(description="Relevant items reported / relevant items.")
    precision: float | None = Field(description="Relevant report entries / report entries; None for an empty report.")
    k: int
    recall_at_k: float
    ndcg_at_k: float
    min_links_to_relevant: int | None = Field(description="Links from the root to the nearest relevant item.")
    pages_to_reach_all: int | None = Field(description="Pages on the shortest paths to every relevant item.")
    pages_to_reach_found: int | None = Field(
        description="Pages on the shortest paths to the relevant items this run collected."
    )
    path_efficiency: float | None = Field(
        description="pages_to_reach_found / pages the agents navigated (subpages), at most 1; 0 when nothing "
        "relevant was collected. Item pages fetched only to read their metadata are not navigation."
    )


def supported_share(report: Report, evidence: RunEvidence) -> tuple[float | None, ShareSource]:
    """The citation guard's share when the report carries one, else the share of report items that are
    collected items; None when the report lists nothing. Returns (share, where it came from)."""
    if report.supported_share is not None:
        return report.supported_share, "citation_guard"
    if not report.items:
        return None, "none"
    collected = {_canonical(url) for url in evidence.collected_urls}
    supported = sum(1 for item in report.items if _canonical(item.url) in collected)
    return supported / len(report.items), "collected_items"


def run_figures(report: Report, evidence: RunEvidence) -> RunFigures:
    share, source = supported_share(report, evidence)
    stats = report.stats
    return RunFigures(
        items_collected=len(evidence.collected_items),
        items_reported=len(report.items),
        pages_fetched=stats.pages_fetched,
        subpages_used=sum(site.pages_visited for site in report.sites),
        model_calls=stats.model_calls,
        input_tokens=stats.input_tokens,
        output_tokens=stats.output_tokens,
        cost_usd=stats.cost_usd,
        wall_time_s=stats.wall_time_s,
        stop_reason=report.stop_reason,
        supported_share=share,
        supported_share_source=source,
        by_agent=dict(stats.by_agent),
    )


def recall_at_k(gains: Sequence[int], *, relevant_total: int, k: int) -> float:
    """Share of the relevant items among the first `k` entries (`gains`: 1 for a new relevant item, else 0)."""
    return sum(gains[:k]) / relevant_total if relevant_total else 0.0


def ndcg_at_k(gains: Sequence[int], *, relevant_total: int, k: int) -> float:
    """Binary-gain nDCG of the first `k` entries against an ideal ranking of `relevant_total` relevant items."""
    dcg = sum(gain / math.log2(rank + 1) for rank, gain in enumerate(gains[:k], start=1))
    ideal = sum(1 / math.log2(rank + 1) for rank in range(1, min(k, relevant_total) + 1))
    return dcg / ideal if ideal else 0.0


def shortest_paths_from_root(graph: nx.DiGraph) -> dict[str, list[str]]:
    """The shortest link path from the graph's root (``graph.graph["root"]``) to every reachable page."""
    paths: dict[str, list[str]] = nx.single_source_shortest_path(graph, graph.graph["root"])
    return paths


def ground_truth_metrics(
    report: Report,
    evidence: RunEvidence,
    truth: GroundTruth,
    *,
    k: int,
    paths: Mapping[str, list[str]] | None,
) -> GroundTruthMetrics:
    """Recall, precision, recall@k, nDCG@k and path efficiency of one run.

    A relevant item reported twice (say, its page and its PDF) counts once: the repeat earns no gain.
    `paths` are `shortest_paths_from_root` of the site's link graph (None: no navigation figures).
    """
    to_item = truth.url_to_item()
    seen: set[str] = set()
    gains: list[int] = []
    for item in sorted(report.items, key=lambda entry: entry.rank):
        item_id = to_item.get(_canonical(item.url))
        gains.append(int(item_id is not None and item_id not in seen))
        if item_id is not None:
            seen.add(item_id)
    collected = {to_item[url] for url in map(_canonical, evidence.collected_urls) if url in to_item}
    total = len(truth.relevant)
    navigated = sum(site.pages_visited for site in report.sites)
    navigation = _navigation(truth, collected, paths, pages_navigated=navigated)
    return GroundTruthMetrics(
        relevant_total=total,
        relevant_collected=len(collected),
        relevant_reported=len(seen),
        recall=len(seen) / total if total else 0.0,
        precision=sum(gains) / len(gains) if gains else None,
        k=k,
        recall_at_k=recall_at_k(gains, relevant_total=total, k=k),
        ndcg_at_k=ndcg_at_k(gains, relevant_total=total, k=k),
        **navigation,
    )


def _navigation(
    truth: GroundTruth, collected: set[str], paths: Mapping[str, list[str]] | None, *, pages_navigated: int
) -> dict[str, Any]:
    empty = {
        "min_links_to_relevant": None,
        "pages_to_reach_all": None,
        "pages_to_reach_found": None,
        "path_efficiency": None,
    }
    if paths is None:
        return empty
    item_paths = {
        item_id: paths[page] for item_id, urls in truth.relevant.items() if (page := _canonical(urls[0])) in paths
    }
    if not item_paths:
        return empty
    found = _pages_on(item_paths[item_id] for item_id in collected if item_id in item_paths)
    if pages_navigated <= 0:
        efficiency = None
    elif not collected:
        efficiency = 0.0
    else:
        efficiency = min(1.0, found / pages_navigated)
    return {
        "min_links_to_relevant": min(len(path) - 1 for path in item_paths.values()),
        "pages_to_reach_all": _pages_on(item_paths.values()),
        "pages_to_reach_found": found,
        "path_efficiency": efficiency,
    }


def _pages_on(paths: Iterable[list[str]]) -> int:
    """Distinct pages a navigator must fetch to see links to the paths' ends (each end itself excluded)."""
    pages: set[str] = set()
    for path in paths:
        pages.update(path[:-1])
    return len(pages)


def _canonical(url: str) -> str:
    return address_key(url)
