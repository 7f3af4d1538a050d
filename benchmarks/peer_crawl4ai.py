"""Benchmark 4: research-crawler next to a peer, Crawl4AI used directly (prints tables and writes JSON; not a
timed test).

1. Navigation: for each testbed query (evaluation split), our agents (`default` preset, simulated model) and
   Crawl4AI's own `BestFirstCrawlingStrategy` start from the same site root with the same page budget (the number
   of pages our run fetched). The peer runs with two scorers and is credited with the better: its
   `KeywordRelevanceScorer` on the request's words (it reads URLs only, which on the testbed are opaque), and the
   same best-first crawler scoring each link by BM25 of its anchor text against the request's words (rank_bm25's
   BM25Plus: Okapi's idf turns negative for words in most anchors, as the request's are on a listing), which reads
   what our Crawler reads. Relevant items
   reached per page fetched: for us the relevant items the Collector identified and stored; for the peer,
   which only crawls, the relevant item pages it fetched. Both also get "relevant item pages fetched", the
   like-for-like figure.
2. Fetching: pages per second of our fetch layer (`research_crawler.web.fetcher.Fetcher`: URL guard,
   robots.txt, politeness, size caps, the page view with numbered links) against Crawl4AI's
   `AsyncWebCrawler` with its HTTP strategy (fetch, scrape, Markdown) on the same URLs, one at a time and
   four at once. Target: our layers' overhead <= 10 %.

Usage: .venv/bin/python benchmarks/peer_crawl4ai.py [--queries-per-site N] [--pages N] [--out FILE.json]
"""

from __future__ import annotations

import argparse
import asyncio
import re
import statistics
import time
from pathlib import Path
from typing import Any

from bench_output import print_table, ratio, write_json
from crawl4ai import AsyncWebCrawler, BrowserConfig, CacheMode, CrawlerRunConfig
from crawl4ai.async_crawler_strategy import AsyncHTTPCrawlerStrategy
from crawl4ai.deep_crawling import BestFirstCrawlingStrategy
from crawl4ai.deep_crawling.scorers import KeywordRelevanceScorer, URLScorer
from crawl4ai.utils import normalize_url_for_deep_crawl
from rank_bm25 import BM25Plus
from testbed_runs import OUT_DIR, machine, run_query, testbed_hosts

from research_crawler.config.settings import FetchSettings, Settings
from research_crawler.eval.addresses import page_address
from research_crawler.eval.query_splits import benchmark_queries
from research_crawler.eval.testbed import TestbedServer, generate_testbed
from research_crawler.eval.testbed.models import Query
from research_crawler.eval.testbed_sites import TestbedSites
from research_crawler.web.fetcher import Fetcher

#: Crawl4AI's JavaScript site needs a browser; the peer runs with its HTTP strategy, so it is left out.
SITES = ["arxiv-like", "biorxiv-like", "journal-like", "repo-like"]
OVERHEAD_TARGET = 0.10
PEER_MAX_DEPTH = 10
PEER_SCORERS = ("keywords", "anchor-bm25")


def _crawler() -> AsyncWebCrawler:
    return AsyncWebCrawler(crawler_strategy=AsyncHTTPCrawlerStrategy(), config=BrowserConfig(verbose=False))


_STOP = {"find", "papers", "paper", "on", "about", "the", "a", "of", "for", "what", "are", "there", "collect",
         "research", "articles", "i", "am", "looking", "in", "published", "and", "to", "with"}  # fmt: skip


def request_words(text: str) -> list[str]:
    """The request's words as a peer user would give them as keywords (its function words left out)."""
    return [w for w in re.findall(r"[a-z0-9]+(?:-[a-z0-9]+)*", text.lower()) if w not in _STOP]


class AnchorBM25Scorer(URLScorer):
    """Scores a URL by BM25 of the anchor texts it was linked with against the request's words (the anchors of
    every page crawled so far are the corpus)."""

    def __init__(self, words: list[str]) -> None:
        super().__init__(weight=1.0)
        self.words = words
        self.anchors: dict[str, str] = {}

    def _calculate_score(self, url: str) -> float:
        if url not in self.anchors or not self.words:
            return 0.0
        urls = list(self.anchors)
        corpus = [request_words(self.anchors[u]) or ["_"] for u in urls]
        return float(BM25Plus(corpus).get_scores(self.words)[urls.index(url)])


class AnchorBestFirst(BestFirstCrawlingStrategy):
    """Crawl4AI's best-first crawler, recording each discovered link's anchor text for `AnchorBM25Scorer`."""

    def __init__(self, scorer: AnchorBM25Scorer, **kwargs: Any) -> None:
        super().__init__(url_scorer=scorer, **kwargs)
        self._anchor_scorer = scorer

    async def link_discovery(self, result: Any, source_url: str, *args: Any, **kwargs: Any) -> None:
        for link in (result.links or {}).get("internal", []):
            href = normalize_url_for_deep_crawl(link.get("href"), source_url)
            text = " ".join(str(link.get(key) or "") for key in ("text", "title"))
            known = self._anchor_scorer.anchors.get(href, "")
            self._anchor_scorer.anchors[href] = f"{known} {text}".strip()
        await super().link_discovery(result, source_url, *args, **kwargs)


async def peer_navigation(
    start_url: str, query: Query, budget: int, relevant: dict[str, str], *, scorer: str
) -> dict[str, Any]:
    """Crawl4AI's best-first crawl from `start_url` within `budget` pages, with the `scorer` named ("keywords":
    its keyword scorer on URLs; "anchor-bm25": BM25 of the anchor texts); the relevant items it reached."""
    words = request_words(query.text)
    common: dict[str, Any] = {"max_depth": PEER_MAX_DEPTH, "max_pages": budget, "include_external": False}
    strategy = (
        BestFirstCrawlingStrategy(url_scorer=KeywordRelevanceScorer(keywords=words), **common)
        if scorer == "keywords"
        else AnchorBestFirst(AnchorBM25Scorer(words), **common)
    )
    config = CrawlerRunConfig(deep_crawl_strategy=strategy, cache_mode=CacheMode.BYPASS, verbose=False)
    async with _crawler() as crawler:
        results = await crawler.arun(start_url, config=config)
    fetched = {url for result in results if (url := page_address(result.url))}
    linked = {
        url
        for result in results
        for link in (result.links or {}).get("internal", [])
        if (url := page_address(str(link.get("href", ""))))
    }
    return {
        "pages_fetched": len(results),
        "relevant_pages_fetched": len({relevant[url] for url in fetched if url in relevant}),
        "relevant_linked": len({relevant[url] for url in linked if url in relevant}),
    }


def navigation(server: TestbedServer, queries: list[Query]) -> list[dict[str, Any]]:
    testbed = TestbedSites.from_server(server)
    rows = []
    for query in queries:
        # No per-host delay on either side: pages and items reached do not depend on it (the table says so).
        ours = run_query(Settings.from_preset("default", fetch={"per_host_delay_s": 0.0}), server, [query])
        relevant = testbed.ground_truth(query.site, list(query.relevant_item_ids)).url_to_item()
        budget = max(1, ours.pages_fetched)
        peers = {
            name: asyncio.run(peer_navigation(server.base_url(query.site), query, budget, relevant, scorer=name))
            for name in PEER_SCORERS
        }
        rows.append(
            {
                "query": query.id,
                "relevant_total": ours.relevant_total,
                "ours": {
                    "pages_fetched": ours.pages_fetched,
                    "relevant_found": ours.relevant_collected,
                    "relevant_pages_fetched": ours.relevant_fetched,
                },
                "peer_by_scorer": peers,
            }
        )
    return rows


async def _our_rate(urls: list[str], *, concurrency: int, hosts: list[str]) -> float:
    settings = FetchSettings(per_host_delay_s=0.0, per_host_concurrency=concurrency, allowed_hosts=hosts)
    async with Fetcher(settings) as fetcher:
        await fetcher.fetch(urls[0])  # robots.txt and connection set-up are not what is compared
        started = time.perf_counter()
        pages = await _bounded([lambda url=url: fetcher.fetch(url) for url in urls[1:]], concurrency)
        elapsed = time.perf_counter() - started
    if not all(page.ok for page in pages):
        raise RuntimeError("our fetcher failed pages of the testbed: " + ", ".join(p.reason for p in pages if not p.ok))
    return len(pages) / elapsed


async def _peer_rate(urls: list[str], *, concurrency: int) -> float:
    config = CrawlerRunConfig(cache_mode=CacheMode.BYPASS, verbose=False)
    async with _crawler() as crawler:
        await crawler.arun(urls[0], config=config)
        started = time.perf_counter()
        results = await _bounded([lambda url=url: crawler.arun(url, config=config) for url in urls[1:]], concurrency)
        elapsed = time.perf_counter() - started
    if not all(result.success for result in results):
        raise RuntimeError("Crawl4AI failed pages of the testbed")
    return len(results) / elapsed


async def _bounded(calls: list[Any], concurrency: int) -> list[Any]:
    gate = asyncio.Semaphore(concurrency)

    async def one(call: Any) -> Any:
        async with gate:
            return await call()

    return await asyncio.gather(*(one(call) for call in calls))


def fetch_rates(server: TestbedServer, page_count: int, repeats: int) -> dict[str, Any]:
    testbed = server.testbed
    urls = [server.base_url("arxiv-like"), *[server.url_for(item) for item in testbed.items_on("arxiv-like")]]
    urls = urls[: page_count + 1]
    hosts = testbed_hosts(server)
    figures: dict[str, Any] = {"pages": len(urls) - 1, "repeats": repeats}
    for concurrency in (1, 4):
        ours, peer = [], []
        for _ in range(repeats):  # alternated, A B A B, so a loaded moment weighs on both
            ours.append(asyncio.run(_our_rate(urls, concurrency=concurrency, hosts=hosts)))
            peer.append(asyncio.run(_peer_rate(urls, concurrency=concurrency)))
        ours_rate, peer_rate = statistics.median(ours), statistics.median(peer)
        figures[f"concurrency_{concurrency}"] = {
            "ours_runs": [round(rate, 1) for rate in ours],
            "crawl4ai_runs": [round(rate, 1) for rate in peer],
            "ours_pages_per_s": round(ours_rate, 1),
            "crawl4ai_pages_per_s": round(peer_rate, 1),
            "overhead": round(peer_rate / ours_rate - 1, 3),
        }
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--queries-per-site", type=int, default=2)
    parser.add_argument("--pages", type=int, default=60, help="testbed pages fetched per throughput measurement")
    parser.add_argument("--repeats", type=int, default=3, help="throughput measurements (the median is kept)")
    parser.add_argument("--out", type=Path, default=OUT_DIR / "peer_crawl4ai.json")
    args = parser.parse_args()

    testbed = generate_testbed()
    queries = benchmark_queries(testbed, per_site=args.queries_per_site, sites=SITES)
    with TestbedServer(testbed, slow_seconds=0.0) as server:
        rows = navigation(server, queries)
        rates = fetch_rates(server, args.pages, args.repeats)

    def peer_total(scorer: str, key: str) -> int:
        return sum(row["peer_by_scorer"][scorer][key] for row in rows)

    # The peer is credited with the scorer that did better over all queries (not the better one per query).
    best = max(PEER_SCORERS, key=lambda scorer: peer_total(scorer, "relevant_pages_fetched"))
    for row in rows:
        row["peer"] = row["peer_by_scorer"][best]

    def total(side: str, key: str) -> int:
        return sum(row[side][key] for row in rows)

    ours_pages, peer_pages = total("ours", "pages_fetched"), total("peer", "pages_fetched")
    relevant = sum(row["relevant_total"] for row in rows)
    summary = {
        "relevant_total": relevant,
        "ours": {
            "pages_fetched": ours_pages,
            "relevant_found": total("ours", "relevant_found"),
            "relevant_pages_fetched": total("ours", "relevant_pages_fetched"),
            # Like with like: relevant item pages fetched per page fetched, for both crawlers.
            "found_per_page": ratio(total("ours", "relevant_pages_fetched"), ours_pages),
        },
        "peer": {
            "pages_fetched": peer_pages,
            "relevant_found": total("peer", "relevant_pages_fetched"),
            "relevant_pages_fetched": total("peer", "relevant_pages_fetched"),
            "relevant_linked": total("peer", "relevant_linked"),
            "found_per_page": ratio(total("peer", "relevant_pages_fetched"), peer_pages),
            "scorer": best,
        },
        "peer_by_scorer": {
            scorer: {
                "pages_fetched": peer_total(scorer, "pages_fetched"),
                "relevant_pages_fetched": peer_total(scorer, "relevant_pages_fetched"),
            }
            for scorer in PEER_SCORERS
        },
    }
    print(f"Navigation on {len(queries)} testbed queries ({', '.join(SITES)}), same start URL and page budget")
    print(f"({machine()})")
    print_table(
        ["crawler", "pages fetched", "relevant pages fetched", "per page fetched", "relevant collected", "of relevant"],
        [
            [
                "research-crawler (default, simulated model)",
                ours_pages,
                summary["ours"]["relevant_pages_fetched"],
                summary["ours"]["found_per_page"],
                summary["ours"]["relevant_found"],
                relevant,
            ],
            *[
                [
                    f"Crawl4AI BestFirst, {scorer} scorer" + (" (credited)" if scorer == best else ""),
                    figures["pages_fetched"],
                    figures["relevant_pages_fetched"],
                    ratio(figures["relevant_pages_fetched"], figures["pages_fetched"]),
                    None,  # the peer identifies no item: it only fetches pages
                    relevant,
                ]
                for scorer, figures in summary["peer_by_scorer"].items()
            ],
        ],
    )
    ours_rate, peer_rate = summary["ours"]["found_per_page"] or 0.0, summary["peer"]["found_per_page"] or 0.0
    versus = f"{ratio(ours_rate, peer_rate)}x the peer's" if peer_rate else "the peer found none"
    print(f"relevant item pages fetched per page, ours against the peer: {versus}")
    print(f"(the credited peer's pages link to {summary['peer']['relevant_linked']} relevant items)")
    print(
        f"\nOur fetch layer vs Crawl4AI's crawler (AsyncWebCrawler, HTTP strategy) on the same "
        f"{rates['pages']} testbed pages, no per-host delay: the layers' own speed (median of {rates['repeats']})"
    )
    table = []
    for concurrency in (1, 4):
        figures = rates[f"concurrency_{concurrency}"]
        table.append([concurrency, figures["ours_pages_per_s"], figures["crawl4ai_pages_per_s"], figures["overhead"]])
    print_table(["at once", "ours pages/s", "Crawl4AI pages/s", "our time vs its"], table)
    worst = max(rates[f"concurrency_{c}"]["overhead"] for c in (1, 4))
    verdict = "met" if worst <= OVERHEAD_TARGET else "NOT met"
    print(f"Target (our fetch layer at most {OVERHEAD_TARGET:.0%} slower than Crawl4AI's crawler): {verdict}")
    write_json(
        args.out,
        {
            "benchmark": "peer_crawl4ai",
            "machine": machine(),
            "navigation": {"summary": summary, "queries": rows},
            "fetch": rates,
            "found_per_page_vs_peer": ratio(
                summary["ours"]["found_per_page"] or 0.0, summary["peer"]["found_per_page"] or 0.0
            ),
            "overhead_target": OVERHEAD_TARGET,
        },
    )


if __name__ == "__main__":
    main()
