"""Benchmark of cheap revisits (prints a table and writes JSON; not a timed test): the same testbed request watched
twice on an unchanged site, the second watch against the first — pages downloaded (in full, not answered 304),
requests the site received, model calls and tokens — and whether it found the same items and nothing new.

Usage: .venv/bin/python benchmarks/watch_revisits.py [--queries-per-site N] [--out benchmarks/out/watch_revisits.json]
"""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path
from typing import Any

from bench_output import print_table, ratio, write_json
from testbed_runs import OUT_DIR, machine, testbed_settings

from research_crawler.api import ResearchCrawler
from research_crawler.config.settings import Settings
from research_crawler.eval.query_splits import benchmark_queries
from research_crawler.eval.testbed import TestbedServer, generate_testbed
from research_crawler.library.database import open_library
from research_crawler.library.found_items import found_items
from research_crawler.library.recording import record_run
from research_crawler.library.records import Watch
from research_crawler.report.models import Report

FIGURES = ("pages_downloaded", "requests", "model_calls", "input_tokens", "output_tokens")


def _figures(report: Report, requests: int) -> dict[str, int]:
    stats = report.stats
    return {
        "pages_downloaded": stats.pages_fetched - stats.pages_not_modified,
        "pages_not_modified": stats.pages_not_modified,
        "requests": requests,
        "model_calls": stats.model_calls,
        "input_tokens": stats.input_tokens,
        "output_tokens": stats.output_tokens,
    }


def run(queries_per_site: int) -> dict[str, Any]:
    testbed = generate_testbed()
    rows: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory() as scratch, TestbedServer(testbed, slow_seconds=0.0) as server:
        work = Path(scratch)
        settings = testbed_settings(Settings(), server, work / "runs")
        settings.fetch.per_host_delay_s = 0.0  # downloads, calls and tokens do not depend on it (said below)
        settings.fetch.revisit_cache = True
        settings.fetch.revisit_cache_path = work / "pages.sqlite3"
        connection = open_library(work / "library.sqlite3")
        crawler = ResearchCrawler(settings, backend="simulated")
        for site in testbed.site_names():
            for query in benchmark_queries(testbed, per_site=queries_per_site, sites=[site]):
                site_url = server.base_url(site)
                watch = Watch.of(query.text, [site_url])
                watches = []
                for _ in range(2):
                    before = server.total_hits
                    report = crawler.run(query.text, sites=[site_url])
                    after = server.total_hits
                    recorded = record_run(connection, report, found_items(report), watch=watch)
                    watches.append((report, _figures(report, after - before), recorded))
                (first, one, _), (second, two, again) = watches
                rows.append(
                    {
                        "site": site,
                        "query": query.text,
                        "first": one,
                        "second": two,
                        "same_items": [i.title for i in first.items] == [i.title for i in second.items],
                        "new_on_second": len(again.new),
                    }
                )
    totals = {which: {name: sum(row[which][name] for row in rows) for name in FIGURES} for which in ("first", "second")}
    return {"machine": machine(), "queries": len(rows), "rows": rows, "totals": totals}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--queries-per-site", type=int, default=1)
    parser.add_argument("--out", type=Path, default=OUT_DIR / "watch_revisits.json")
    args = parser.parse_args()
    figures = run(args.queries_per_site)
    print(f"{figures['queries']} testbed requests, each watched twice on an unchanged site ({figures['machine']})")
    totals = figures["totals"]
    print_table(
        ("figure", "first watch", "second watch", "second / first"),
        [(name, totals["first"][name], totals["second"][name], ratio(totals["second"][name], totals["first"][name]))
         for name in FIGURES],
    )  # fmt: skip
    same = sum(row["same_items"] for row in figures["rows"])
    new = sum(row["new_on_second"] for row in figures["rows"])
    print(f"same items both times: {same} of {figures['queries']}; items new on the second watch: {new}")
    write_json(args.out, figures)


if __name__ == "__main__":
    main()
