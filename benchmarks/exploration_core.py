"""Benchmark of the exploration core (prints a table and writes JSON; not a timed test).

1. Pages fetched per second on the testbed web, for the HTTP and the browser strategy (cold cache).
2. Tokens of what an agent reads versus the raw HTML on the real saved pages of shared/realweb:
   the Collector's Markdown view and the Crawler's link view (median and worst ratio).

Usage: .venv/bin/python benchmarks/exploration_core.py [--pages N] [--out benchmarks/out/exploration_core.json]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import statistics
import time
from pathlib import Path

from testbed_runs import REALWEB

from research_crawler.config.settings import FetchSettings
from research_crawler.eval.testbed import TestbedServer, generate_testbed
from research_crawler.pages.view import view_token_stats
from research_crawler.web.fetcher import Fetcher

REPO = Path(__file__).resolve().parents[1]


async def _fetch_rate(urls: list[str], render: str, allowed_hosts: list[str]) -> dict[str, float]:
    settings = FetchSettings(
        per_host_delay_s=0.0,
        per_host_concurrency=4,
        render=render,  # type: ignore[arg-type]
        allowed_hosts=allowed_hosts,  # the testbed is on loopback, which the URL guard refuses otherwise
    )
    async with Fetcher(settings) as fetcher:
        await fetcher.fetch(urls[0])  # start-up (robots.txt, the browser) is not what we measure
        started = time.perf_counter()
        pages = await asyncio.gather(*(fetcher.fetch(url) for url in urls[1:]))
        elapsed = time.perf_counter() - started
    ok = sum(page.ok for page in pages)
    return {"pages": len(pages), "ok": ok, "seconds": round(elapsed, 3), "pages_per_s": round(len(pages) / elapsed, 2)}


def fetch_rates(page_count: int) -> dict[str, dict[str, float]]:
    testbed = generate_testbed()
    with TestbedServer(testbed, slow_seconds=0.0) as server:
        site = "arxiv-like"
        urls = [server.base_url(site), *[server.url_for(item) for item in testbed.items_on(site)][:page_count]]
        allowed = server.allowed_hosts()
        results = {"http": asyncio.run(_fetch_rate(urls, "http", allowed))}
        try:
            results["browser"] = asyncio.run(_fetch_rate(urls[: max(6, page_count // 4)], "browser", allowed))
        except Exception as exc:  # no Chromium here: say so in the figures rather than failing
            results["browser"] = {"error": str(exc)[:200]}  # type: ignore[dict-item]
    return results


def token_ratios() -> dict[str, object]:
    rows = []
    for path in sorted((REALWEB / "pages").glob("*.html")):
        html = path.read_bytes().decode("utf-8", errors="replace")
        stats = view_token_stats(html, None)
        rows.append({"page": path.name, **stats})
    if not rows:
        return {"error": f"no pages at {REALWEB}"}

    def summary(key: str) -> dict[str, float]:
        values = [float(row[key]) for row in rows]
        return {"median": round(statistics.median(values), 3), "worst": round(max(values), 3)}

    return {
        "pages": len(rows),
        "markdown_vs_html": summary("markdown_ratio"),
        "links_vs_html": summary("link_view_ratio"),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pages", type=int, default=60)
    parser.add_argument("--out", type=Path, default=REPO / "benchmarks" / "out" / "exploration_core.json")
    args = parser.parse_args()
    results = {
        "machine": f"{platform.machine()} {os.cpu_count()} cores, Python {platform.python_version()}",
        "fetch": fetch_rates(args.pages),
        "tokens": token_ratios(),
    }
    print(f"machine: {results['machine']}")
    print(f"{'strategy':<10} {'pages':>6} {'ok':>4} {'seconds':>8} {'pages/s':>8}")
    for strategy, row in results["fetch"].items():  # type: ignore[union-attr]
        if "error" in row:
            print(f"{strategy:<10} unavailable: {row['error']}")
        else:
            print(f"{strategy:<10} {row['pages']:>6} {row['ok']:>4} {row['seconds']:>8} {row['pages_per_s']:>8}")
    tokens = results["tokens"]
    if "error" in tokens:  # type: ignore[operator]
        print(f"tokens: {tokens['error']}")  # type: ignore[index]
    else:
        for key in ("markdown_vs_html", "links_vs_html"):
            figures = tokens[key]  # type: ignore[index]
            print(f"{key:<18} median {figures['median']:.3f}  worst {figures['worst']:.3f}  ({tokens['pages']} pages)")  # type: ignore[index]
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(results, indent=2), encoding="utf-8")
    print(f"written: {args.out}")


if __name__ == "__main__":
    main()
