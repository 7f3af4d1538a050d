"""Benchmark: link pre-ranking (``page_view.crawler_top_links``) — the Crawler's input tokens and the recall of
whole testbed queries with every link shown against only the best N by the local embedding model (all-MiniLM-L6-v2),
and the Crawler's view of the real saved pages of shared/realweb with and without (prints tables and writes JSON;
not a timed test).

Every configuration is the `default` preset with only `crawler_top_links` changed; 0 shows every link. On the
real pages, which have no request of their own, the page's title stands for the request.

Usage: .venv/bin/python benchmarks/link_prerank.py [--queries-per-site N] [--top N …] [--no-real-pages]
       [--out FILE.json]          (--queries-per-site 0: the real pages only)
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from pathlib import Path
from typing import Any

from bench_output import print_table, ratio, write_json
from testbed_runs import OUT_DIR, REALWEB, QueryRun, machine, run_query

from research_crawler.config.settings import Settings
from research_crawler.eval.query_splits import benchmark_queries
from research_crawler.eval.testbed import TestbedServer, generate_testbed
from research_crawler.pages.view import PageView, link_view
from research_crawler.rank.link_prerank import best_links, link_scores
from research_crawler.text.tokens import count_tokens
from research_crawler.web.fetcher import page_from_file

DEFAULT_TOPS = (10, 15, 20, 30)


def configuration(top: int) -> Settings:
    settings = Settings.from_preset("default")
    settings.page_view.crawler_top_links = top
    settings.fetch.per_host_delay_s = 0.0  # tokens and recall do not depend on it (the table says so)
    return settings


def summarise(top: int, runs: list[QueryRun], reference: list[QueryRun]) -> dict[str, Any]:
    relevant = sum(run.relevant_total for run in runs)
    crawler = sum(run.input_tokens.get("Crawler", 0) for run in runs)
    total = sum(run.total_input_tokens for run in runs)
    ranked = [page for run in runs for page in run.extra["links_preranked"]]
    return {
        "crawler_top_links": top,
        "queries": len(runs),
        "crawler_input_tokens": crawler,
        "crawler_per_query": round(crawler / len(runs), 1),
        "input_tokens": total,
        "per_query": round(total / len(runs), 1),
        "crawler_ratio_to_all_links": ratio(crawler, sum(r.input_tokens.get("Crawler", 0) for r in reference)),
        "ratio_to_all_links": ratio(total, sum(r.total_input_tokens for r in reference)),
        "recall": round(sum(run.relevant_reported for run in runs) / relevant, 3) if relevant else None,
        "collected_recall": round(sum(run.relevant_collected for run in runs) / relevant, 3) if relevant else None,
        "pages_scraped": sum(run.pages_scraped for run in runs),
        "pages_preranked": len(ranked),
        "links_on_preranked_pages": sum(links for links, _ in ranked),
        "links_shown_there": sum(shown for _, shown in ranked),
        "same_pages_as_all_links": sum(
            r.scraped_urls == ref.scraped_urls for r, ref in zip(runs, reference, strict=True)
        ),
        "wall_time_s": round(sum(run.wall_time_s for run in runs), 1),
        "runs": [vars(run) for run in runs],
    }


def real_pages(tops: list[int]) -> list[dict[str, Any]]:
    """The Crawler's link view of each real saved page: every link, then the best N for the page's own title."""
    settings = Settings().rerank
    rows = []
    for path in sorted((REALWEB / "pages").glob("*.html")):
        page = page_from_file(path)
        view = PageView(title=page.title, markdown=page.markdown, links=page.links, base_url=page.final_url)
        row: dict[str, Any] = {"page": path.name, "links": len(page.links), "all": count_tokens(link_view(view))}
        started = time.perf_counter()
        scores = link_scores(page.title or path.stem, page.links, settings) if page.links else []
        row["ranking_s"] = round(time.perf_counter() - started, 3)
        for top in tops:
            kept = {link.id for link in best_links(page.links, scores, top)}
            ranked_out = {link.id for link in page.links} - kept
            row[top] = count_tokens(link_view(view, ranked_out=ranked_out))
        rows.append(row)
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--queries-per-site", type=int, default=3, help="testbed queries per site (5 sites)")
    parser.add_argument(
        "--top", type=int, action="append", help=f"values of crawler_top_links (default {DEFAULT_TOPS})"
    )
    parser.add_argument("--out", type=Path, default=OUT_DIR / "link_prerank.json")
    parser.add_argument("--no-real-pages", action="store_true", help="skip the real saved pages (slow on a CPU)")
    args = parser.parse_args()
    tops: list[int] = args.top or list(DEFAULT_TOPS)

    testbed = generate_testbed()
    queries = benchmark_queries(testbed, per_site=args.queries_per_site)
    started = time.monotonic()
    results: list[dict[str, Any]] = []
    with TestbedServer(testbed, slow_seconds=0.0) as server:
        reference: list[QueryRun] = []
        for top in [0, *tops] if queries else []:
            runs = [run_query(configuration(top), server, [query]) for query in queries]
            reference = reference or runs
            results.append(summarise(top, runs, reference))

    print(
        f"Link pre-ranking: {len(queries)} testbed queries (evaluation split), default preset, simulated model, "
        f"no delay ({machine()})"
    )
    headers = ["crawler_top_links", "Crawler tok/query", "vs all", "all tok/query", "vs all", "recall", "collected",
               "pages", "pages ranked", "links there -> shown", "same pages"]  # fmt: skip
    print_table(
        headers,
        [
            [
                r["crawler_top_links"] or "0 (every link)",
                r["crawler_per_query"],
                r["crawler_ratio_to_all_links"],
                r["per_query"],
                r["ratio_to_all_links"],
                r["recall"],
                r["collected_recall"],
                r["pages_scraped"],
                r["pages_preranked"],
                f"{r['links_on_preranked_pages']} -> {r['links_shown_there']}",
                f"{r['same_pages_as_all_links']}/{r['queries']}",
            ]
            for r in results
        ],
    )
    pages = real_pages(tops) if (REALWEB / "pages").is_dir() and not args.no_real_pages else []
    if pages:
        print(f"\nThe Crawler's view of {len(pages)} real saved pages (o200k tokens; the page's title as the request)")
        print_table(
            ["crawler_top_links", "median tokens", "worst", "total", "vs all"],
            [
                [
                    top or "0 (every link)",
                    statistics.median(page[key] for page in pages),
                    max(page[key] for page in pages),
                    sum(page[key] for page in pages),
                    ratio(sum(page[key] for page in pages), sum(page["all"] for page in pages)),
                ]
                for top, key in [(0, "all"), *((top, top) for top in tops)]
            ],
        )
        counts = [page["links"] for page in pages]
        print(f"links per page: median {statistics.median(counts)}, most {max(counts)}")
        seconds = sum(page["ranking_s"] for page in pages[1:])  # the first page's includes loading the model
        links = sum(counts[1:])
        print(
            f"ranking them (the embedding model on the CPU): {seconds:.1f} s for {links} links, "
            f"{1000 * seconds / max(1, links):.1f} ms a link (load average {os.getloadavg()[0]:.1f})"
        )
    write_json(
        args.out,
        {
            "benchmark": "link_prerank",
            "machine": machine(),
            "queries": [query.id for query in queries],
            "seconds": round(time.monotonic() - started, 1),
            "results": results,
            "real_pages": [{str(key): value for key, value in page.items()} for page in pages],
        },
    )


if __name__ == "__main__":
    main()
