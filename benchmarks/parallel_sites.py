"""Benchmark 3: wall time of a 3-site query with `--parallel-sites 3` against the same query explored one site
after another (prints a table and writes JSON; not a timed test).

Three testbed sites that hold the same topic, the simulated model answering every call after a fixed
latency (1 s by default, as a hosted model might), the `default` preset otherwise. Whether the sites really
ran in parallel is read from the run's trace (its "parallel" event): without it the benchmark says that
parallel sites are not available instead of printing a number.

Usage: .venv/bin/python benchmarks/parallel_sites.py [--latency 1.0] [--out benchmarks/out/parallel_sites.json]
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from bench_output import print_table, ratio, write_json
from testbed_runs import OUT_DIR, QueryRun, machine, run_query

from research_crawler.config.settings import Settings
from research_crawler.eval.testbed import TestbedServer, generate_testbed

TOPIC = "diffusion"
SITES = ["arxiv-like", "journal-like", "repo-like"]
TARGET = 0.5


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--latency", type=float, default=1.0, help="seconds the simulated model takes per call")
    parser.add_argument("--out", type=Path, default=OUT_DIR / "parallel_sites.json")
    args = parser.parse_args()

    testbed = generate_testbed()
    queries = [testbed.query(f"{site}/general/{TOPIC}") for site in SITES]
    runs: dict[str, QueryRun] = {}
    with TestbedServer(testbed, slow_seconds=0.0) as server:
        for lanes in (1, len(SITES)):
            settings = Settings.from_preset(
                "default",
                explore={"parallel_sites": lanes, "max_sites": len(SITES)},
                simulated={"latency_s": args.latency},
            )
            started = time.monotonic()
            run = run_query(settings, server, queries, sites=SITES)
            run.extra["measured_wall_s"] = round(time.monotonic() - started, 2)
            runs["sequential" if lanes == 1 else f"parallel x{lanes}"] = run

    sequential, parallel = runs["sequential"], runs[f"parallel x{len(SITES)}"]
    available = "parallel" in parallel.trace_events
    print(f'3-site query "{queries[0].text}" on {", ".join(SITES)}; simulated model, {args.latency:g} s per call')
    print(f"({machine()})")
    if not available:
        print("parallel sites not available: the run with parallel_sites=3 explored its sites one after another")
    rows = []
    for name, run in runs.items():
        measured = available or name == "sequential"
        rows.append(
            [
                name,
                run.extra["measured_wall_s"] if measured else None,
                ratio(run.extra["measured_wall_s"], sequential.extra["measured_wall_s"]) if measured else None,
                run.model_calls,
                run.pages_scraped,
                round(run.recall, 3),
            ]
        )
    print_table(["mode", "wall s", "vs sequential", "model calls", "pages", "recall"], rows)
    speedup = ratio(parallel.extra["measured_wall_s"], sequential.extra["measured_wall_s"]) if available else None
    if speedup is not None:
        print(f"Target (parallel <= {TARGET} x sequential): {'met' if speedup <= TARGET else 'NOT met'}")
    write_json(
        args.out,
        {
            "benchmark": "parallel_sites",
            "machine": machine(),
            "latency_s": args.latency,
            "sites": SITES,
            "query": queries[0].text,
            "parallel_available": available,
            "parallel_vs_sequential": speedup,
            "target": TARGET,
            "runs": {name: vars(run) for name, run in runs.items()} if available else {"sequential": vars(sequential)},
        },
    )


if __name__ == "__main__":
    main()
