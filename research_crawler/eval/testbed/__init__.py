"""The testbed web: preprint-like sites generated from a seed and served on loopback, with known answers.

testbed = generate_testbed(seed=7)
with TestbedServer(testbed, slow_seconds=0.5) as server:
    start = server.base_url("arxiv-like")
    answers = server.relevant_urls("arxiv-like/general/gnn")
"""

from __future__ import annotations

from research_crawler.eval.testbed.corpus import DEFAULT_SEED, generate_testbed
from research_crawler.eval.testbed.link_graph import link_graph
from research_crawler.eval.testbed.models import Aspect, Item, Query, QueryKind, SiteSpec, Testbed, Topic
from research_crawler.eval.testbed.repo_like import EXTERNAL_HOST
from research_crawler.eval.testbed.server import Hit, TestbedServer

__all__ = [
    "DEFAULT_SEED",
    "EXTERNAL_HOST",
    "Aspect",
    "Hit",
    "Item",
    "Query",
    "QueryKind",
    "SiteSpec",
    "Testbed",
    "TestbedServer",
    "Topic",
    "generate_testbed",
    "link_graph",
]
