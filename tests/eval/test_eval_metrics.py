"""Ground-truth metrics computed by hand on small cases, path efficiency on a small link graph, and the testbed's
ground truth at served addresses."""

from __future__ import annotations

import math

import networkx as nx
import pytest
from eval_helpers import SITE, sample_evidence

from research_crawler.eval.evidence import RunEvidence
from research_crawler.eval.metrics import (
    GroundTruth,
    ground_truth_metrics,
    ndcg_at_k,
    recall_at_k,
    run_figures,
    shortest_paths_from_root,
    supported_share,
)
from research_crawler.eval.testbed import TestbedServer
from research_crawler.eval.testbed.models import Testbed
from research_crawler.eval.testbed_sites import TestbedSites
from research_crawler.report.models import Report, ReportItem, SiteSummary


def test_recall_and_ndcg_by_hand() -> None:
    gains = [1, 0, 1, 0]
    assert recall_at_k(gains, relevant_total=4, k=2) == 0.25
    assert recall_at_k(gains, relevant_total=4, k=10) == 0.5
    dcg = 1 + 1 / math.log2(4)
    ideal = 1 + 1 / math.log2(3) + 1 / math.log2(4) + 1 / math.log2(5)
    assert ndcg_at_k(gains, relevant_total=4, k=10) == pytest.approx(dcg / ideal)
    assert ndcg_at_k([1, 1], relevant_total=2, k=10) == pytest.approx(1.0)
    assert ndcg_at_k([0, 1], relevant_total=1, k=1) == 0.0
    assert recall_at_k([], relevant_total=0, k=5) == 0.0 and ndcg_at_k([], relevant_total=0, k=5) == 0.0


def _graph() -> nx.DiGraph:
    """root → list/a → items 1, 2; root → list/b → list/c → item 3; root → about."""
    graph = nx.DiGraph(root=SITE)
    edges = [
        ("", "list/a"),
        ("list/a", "abs/1"),
        ("list/a", "abs/2"),
        ("", "list/b"),
        ("list/b", "list/c"),
        ("list/c", "abs/3"),
        ("", "about"),
        ("list/c", "abs/9"),
    ]
    graph.add_edges_from((SITE + a, SITE + b) for a, b in edges)
    return graph


def _report(urls: list[str], *, pages_visited: int) -> Report:
    items = [
        ReportItem(rank=n, title=f"t{n}", url=url, site=SITE, found_on=SITE, collector_score=5)
        for n, url in enumerate(urls, start=1)
    ]
    site = SiteSummary(name="s", url=SITE, reason="approved", pages_visited=pages_visited)
    return Report(query="q", simulated_model=True, items=items, sites=[site])


def _truth() -> GroundTruth:
    return GroundTruth(site="s", relevant={f"s:{n}": [f"{SITE}abs/{n}", f"{SITE}pdf/{n}"] for n in (1, 2, 3)})


def test_precision_recall_and_duplicates() -> None:
    report = _report([f"{SITE}abs/1", f"{SITE}about", f"{SITE}pdf/1", f"{SITE}abs/3"], pages_visited=3)
    evidence = sample_evidence(collected=3)  # collected abs/1, abs/2, abs/3
    metrics = ground_truth_metrics(report, evidence, _truth(), k=2, paths=None)
    assert (metrics.relevant_total, metrics.relevant_reported, metrics.relevant_collected) == (3, 2, 3)
    assert metrics.recall == pytest.approx(2 / 3)
    assert metrics.precision == pytest.approx(2 / 4), "the PDF of an item already reported earns nothing"
    assert metrics.recall_at_k == pytest.approx(1 / 3)
    assert metrics.path_efficiency is None and metrics.pages_to_reach_all is None
    empty = ground_truth_metrics(_report([], pages_visited=1), evidence, _truth(), k=10, paths=None)
    assert empty.precision is None and empty.recall == 0.0


def test_path_efficiency_against_the_shortest_paths() -> None:
    paths = shortest_paths_from_root(_graph())
    evidence = sample_evidence(collected=2)  # abs/1 and abs/2, both one listing below the root
    report = _report([f"{SITE}abs/1", f"{SITE}abs/2"], pages_visited=4)
    metrics = ground_truth_metrics(report, evidence, _truth(), k=10, paths=paths)
    assert metrics.min_links_to_relevant == 2
    assert metrics.pages_to_reach_all == 4  # root, list/a, list/b, list/c
    assert metrics.pages_to_reach_found == 2  # root, list/a
    assert metrics.path_efficiency == pytest.approx(2 / 4)
    perfect = ground_truth_metrics(_report([], pages_visited=2), evidence, _truth(), k=10, paths=paths)
    assert perfect.path_efficiency == 1.0
    lost = RunEvidence(report=report, collected_items=[])
    assert ground_truth_metrics(report, lost, _truth(), k=10, paths=paths).path_efficiency == 0.0


def test_supported_share_prefers_the_citation_guard() -> None:
    report = _report([f"{SITE}abs/1", f"{SITE}abs/7"], pages_visited=1)
    evidence = sample_evidence(collected=2)
    assert supported_share(report, evidence) == (0.5, "collected_items")
    guarded = report.model_copy(update={"supported_share": 0.75})
    assert supported_share(guarded, evidence) == (0.75, "citation_guard")
    assert supported_share(_report([], pages_visited=1), evidence) == (None, "none")
    figures = run_figures(report, evidence)
    assert (figures.items_reported, figures.items_collected, figures.subpages_used) == (2, 2, 1)


def test_testbed_ground_truth_at_the_served_addresses(testbed: Testbed, testbed_server: TestbedServer) -> None:
    sites = TestbedSites.from_server(testbed_server)
    query = testbed.queries_for("journal-like", kind="specific")[0]
    truth = sites.ground_truth("journal-like", list(query.relevant_item_ids))
    assert {urls[0] for urls in truth.relevant.values()} == testbed_server.relevant_urls(query.id)
    assert all(urls[1].startswith(testbed_server.base_url("journal-like")) for urls in truth.relevant.values())
    paths = sites.paths_from_root("journal-like")
    assert paths[testbed_server.base_url("journal-like")] == [testbed_server.base_url("journal-like")]
    assert all(urls[0] in paths for urls in truth.relevant.values()), "every answer is reachable by links"
    assert sites.paths_from_root("journal-like") is paths, "computed once per site"
    assert sites.allowed_hosts() == sorted(u.split("/")[2] for u in {*sites.base_urls.values()})
