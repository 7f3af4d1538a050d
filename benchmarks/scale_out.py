"""Benchmark: queries per minute of a batch against the number of workers (1, 2, 4), the local backend (queries at
once in one process) against Ray (one task per query on a local Ray instance), in one run, with the per-host delay
as the limit every worker must respect together (prints a table and writes JSON; not a timed test).

The simulated model answers every call after a fixed latency (a hosted model's wait); the queries are the testbed's
general ones spread over its five sites, so several queries share each host. The smallest gap between two
requests to one host, read from the testbed's own request log (each request at the time the kernel received it), is
printed beside the delay it must not undercut: apart for the JavaScript-only site, whose pages go through Chromium.

Usage: .venv/bin/python benchmarks/scale_out.py [--queries 10] [--latency 0.3] [--delay 0.2] [--workers 1 2 4]
"""

from __future__ import annotations

import argparse
import itertools
import json
import re
import tempfile
import time
from pathlib import Path

from bench_output import print_table, ratio, write_json
from testbed_runs import OUT_DIR, machine

from research_crawler.cli.batch import BatchRunner
from research_crawler.cli.batch_file import load_batch
from research_crawler.config.settings import Settings
from research_crawler.eval.query_splits import benchmark_queries
from research_crawler.eval.testbed import TestbedServer, generate_testbed

#: What Chromium loads for a page it renders (stylesheets, scripts, icons): part of that page, not another request.
SUBRESOURCE = re.compile(r"\.(?:css|js|ico|png|svg|woff2?)(?:\?|$)")
#: The testbed's JavaScript-only site, read through Chromium (its pages begin in the render's guard proxy, as the
#: browser's request leaves): its gaps are shown apart.
BROWSER_SITES = {"js-site"}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--queries", type=int, default=10)
    parser.add_argument("--latency", type=float, default=0.3, help="seconds the simulated model takes per call")
    parser.add_argument("--delay", type=float, default=0.2, help="fetch.per_host_delay_s")
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 2, 4])
    parser.add_argument("--out", type=Path, default=OUT_DIR / "scale_out.json")
    args = parser.parse_args()

    import ray

    testbed = generate_testbed()
    general = benchmark_queries(testbed, per_site=100, kind="general")
    chosen = [general[i] for i in range(0, len(general), max(1, len(general) // args.queries))][: args.queries]
    results: list[dict[str, object]] = []
    with TestbedServer(testbed, slow_seconds=0.0) as server, tempfile.TemporaryDirectory() as scratch:
        batch = Path(scratch) / "queries.jsonl"
        batch.write_text(
            "".join(json.dumps({"query": q.text, "sites": [server.base_url(q.site)]}) + "\n" for q in chosen),
            encoding="utf-8",
        )
        entries = load_batch(batch)
        settings = Settings.from_preset(
            "default", fetch={"per_host_delay_s": args.delay}, simulated={"latency_s": args.latency},
            rerank={"kind": "bm25"},
        )  # fmt: skip
        settings.fetch.allowed_hosts = server.allowed_hosts()
        ray.init(num_cpus=max(args.workers), include_dashboard=False, configure_logging=False, log_to_driver=False)
        try:
            for scale, workers in itertools.product(("local", "ray"), args.workers):
                server.reset_hits()
                out = Path(scratch) / f"{scale}-{workers}"
                runner = BatchRunner(
                    entries, settings=settings, out_dir=out, backend="simulated", concurrency=workers,
                    scale=scale,  # type: ignore[arg-type]
                )  # fmt: skip
                started = time.monotonic()
                tally = runner.run()
                wall = time.monotonic() - started
                gaps: dict[str, list[float]] = {"http": [], "browser": []}
                for site in testbed.site_names():  # between page requests: a browser's own subresources left out
                    times = sorted(hit.time for hit in server.hits(site) if not SUBRESOURCE.search(hit.path))
                    kind = "browser" if site in BROWSER_SITES else "http"
                    gaps[kind] += [b - a for a, b in itertools.pairwise(times)]
                results.append(
                    {
                        "backend": scale,
                        "workers": workers,
                        "done": tally.statuses["done"],
                        "wall_s": round(wall, 2),
                        "queries_per_min": round(len(entries) / wall * 60, 2),
                        "min_gap_s": round(min(gaps["http"]), 3) if gaps["http"] else None,
                        "min_gap_browser_s": round(min(gaps["browser"]), 3) if gaps["browser"] else None,
                    }
                )
        finally:
            ray.shutdown()
    base = next(r for r in results if r["backend"] == "local" and r["workers"] == min(args.workers))
    print(
        f"{len(entries)} testbed queries over {len(testbed.site_names())} sites; simulated model "
        f"{args.latency:g} s per call; per-host delay {args.delay:g} s"
    )
    print(f"({machine()})")
    print_table(
        ["backend", "workers", "done", "wall s", "queries/min", "vs local x1", "min gap http s", "min gap browser s",
     "delay s"],
        [
            [r["backend"], r["workers"], r["done"], r["wall_s"], r["queries_per_min"],
             ratio(float(r["queries_per_min"]), float(base["queries_per_min"])),  # type: ignore[arg-type]
             r["min_gap_s"], r["min_gap_browser_s"], args.delay]
            for r in results
        ],
    )  # fmt: skip
    smallest = _smallest_gap(
        results,
        "min_gap_s",
        args.delay,
        "two plain-HTTP page requests to one host, as the server saw them",
        "each begins on the host's schedule as its headers are written, the gap counted from the reported send",
    )
    smallest_browser = _smallest_gap(
        results,
        "min_gap_browser_s",
        args.delay,
        "two page requests to the site read through Chromium",
        "its shells are fetched over HTTP first, so HTTP and browser requests alternate there",
    )
    write_json(
        args.out,
        {"benchmark": "scale_out", "machine": machine(), "latency_s": args.latency, "delay_s": args.delay,
         "queries": len(entries), "results": results, "smallest_gap_s": smallest,
         "smallest_gap_browser_s": smallest_browser},
    )  # fmt: skip


def _smallest_gap(results: list[dict[str, object]], key: str, delay: float, what: str, how: str) -> float | None:
    """The smallest of the runs' `key` gaps, printed against the delay (None when no run measured one)."""
    gaps: list[float] = [gap for r in results if isinstance(gap := r[key], float)]
    smallest = min(gaps, default=None)
    if smallest is not None:
        print(f"Smallest gap between {what}: {smallest:.3f} s ({smallest / delay:.2f}x the delay; {how}).")
    return smallest


if __name__ == "__main__":
    main()
