"""The offline demo: the testbed web on loopback, one research request answered by the agents played by the
simulated model (a deterministic test double — no LLM, no API key, no network), checked against the
testbed's known answers.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass

from research_crawler.api import ResearchCrawler
from research_crawler.config.overrides import apply_overrides
from research_crawler.config.settings import RerankerKind, Settings
from research_crawler.context.urls import try_canonicalize_url
from research_crawler.errors import ConfigError
from research_crawler.eval.testbed import TestbedServer, generate_testbed
from research_crawler.eval.testbed.models import Query, Testbed
from research_crawler.report.models import Report

__all__ = ["DEFAULT_DEMO_SITES", "SIMULATED_BANNER", "DemoRun", "demo_run"]

#: Two sites with different structures that both hold the default request's topic.
DEFAULT_DEMO_SITES = ("arxiv-like", "journal-like")
#: How many of the newest papers the default request asks for (a request with a contract: a count and an order).
DEMO_NEWEST = 5

SIMULATED_BANNER = (
    "The model is SIMULATED: a deterministic test double plays every agent with simple rules. "
    "No LLM, no API key and no network are used; the sites are the local testbed web on 127.0.0.1."
)


@dataclass(frozen=True)
class DemoRun:
    """A running testbed and the request the demo asks it."""

    server: TestbedServer
    testbed: Testbed
    query: Query
    sites: tuple[str, ...]
    crawler: ResearchCrawler
    checked: bool = True  # the request is the testbed's own, so its known answers apply

    @property
    def site_urls(self) -> list[str]:
        return [self.server.base_url(site) for site in self.sites]

    def known_answers(self, report: Report) -> tuple[int, int] | None:
        """(reported items among the request's known answers — the `DEMO_NEWEST` newest papers of its topic
        on the demo's sites —, those answers in all); None for a request of the user's own, which has none."""
        if not self.checked:
            return None
        of_topic = [
            item for site in self.sites for item in self.testbed.matching_items(topic=self.query.topic, site=site)
        ]
        newest = sorted(of_topic, key=lambda item: (item.date, item.id), reverse=True)[:DEMO_NEWEST]
        truth = {self.server.url_for(item) for item in newest}
        reported = {try_canonicalize_url(item.url) for item in report.items}
        return len(reported & truth), len(truth)


@contextmanager
def demo_run(
    settings: Settings,
    *,
    sites: Sequence[str] = DEFAULT_DEMO_SITES,
    query: str | None = None,
    reranker: RerankerKind = "bm25",
) -> Iterator[DemoRun]:
    """Serve the testbed and prepare the demo's crawler (simulated model, the testbed's ports allowed past the
    URL guard, no per-host delay: the sites are ours). `query` replaces the default request: the newest papers
    about a topic of the first site (a count and an order the report must honour). The reranker defaults to
    BM25, which needs no model download, so the demo runs on a machine that is offline."""
    testbed = generate_testbed()
    if not sites:
        raise ConfigError(f"the demo needs at least one testbed site: {', '.join(testbed.site_names())}")
    for site in sites:
        testbed.site(site)  # ConfigError naming the testbed's sites
    general = testbed.queries_for(sites[0], kind="general")[0]
    topic = testbed.topic(general.topic).name
    request = general.model_copy(update={"text": f"What are the {DEMO_NEWEST} most recent papers about {topic}?"})
    if query is not None:
        if not query.strip():
            raise ConfigError("the demo query is empty")
        request = request.model_copy(update={"text": query.strip()})
    with TestbedServer(testbed, slow_seconds=0.5) as server:
        # The URL guard refuses loopback addresses unless named: name exactly the testbed's own ports.
        overrides = {
            "fetch.per_host_delay_s": 0.0,
            "fetch.allowed_hosts": [*settings.fetch.allowed_hosts, *server.allowed_hosts()],
            "rerank.kind": reranker,
        }
        crawler = ResearchCrawler(apply_overrides(settings, overrides), backend="simulated")
        yield DemoRun(
            server=server, testbed=testbed, query=request, sites=tuple(sites), crawler=crawler, checked=query is None
        )
