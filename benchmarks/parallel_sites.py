"""Benchmark 3: wall time of a 3-site query with `--parallel-sites 3` against the same query explored one site
after another (prints a table and writes JSON; not a timed test).

Three testbed sites that hold the same topic (an evaluation-split query), the simulated model answering every call
after a fixed latency (1 s by default, as a hosted model might), the `default` preset otherwise, at the default
politeness (1 s between two requests to a host). Measured warm: each mode runs once untimed (the double's model
loaded, its embeddings cached), then the modes alternate (A B A B …, `--repeats`) and the median wall time is kept.
Whether the sites really ran in parallel is read from the run's trace (its "parallel" event): without it the
benchmark says that parallel sites are not available instead of printing a number.

Usage: .venv/bin/python benchmarks/parallel_sites.py [--latency 1.0] [--repeats 2] [--out FILE.json]
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from pathlib import Path

from bench_output import print_table, ratio, write_json
from testbed_runs import OUT_DIR, QueryRun, machine, run_query, timed_alternately

from research_crawler.config.settings import Settings
from research_crawler.eval.query_splits import evaluation_query
from research_crawler.eval.testbed import TestbedServer, generate_testbed

TOPIC = "diffusion"
SITES = ["arxiv-like", "journal-like", "repo-like"]
TARGET = 0.5


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--latency", type=float, default=1.0, help="seconds the simulated model takes per call")
    parser.add_argument("--repeats", type=int, default=2, help="timed runs of each mode, alternating (median kept)")
    parser.add_argument("--out", type=Path, default=OUT_DIR / "parallel_sites.json")
    args = parser.parse_args()

    testbed = generate_testbed()
    queries = [evaluation_query(testbed, f"{site}/general/{TOPIC}") for site in SITES]
    with TestbedServer(testbed, slow_seconds=0.0) as server:

        def mode(lanes: int) -> Callable[[], QueryRun]:
            settings = Settings.from_preset(
                "default",
                explore={"parallel_sites": lanes, "max_sites": len(SITES)},
                simulated={"latency_s": args.latency},
            )
            return lambda: run_query(settings, server, queries, sites=SITES)

        runs = timed_alternately(
            {"sequential": mode(1), f"parallel x{len(SITES)}": mode(len(SITES))}, repeats=args.repeats
        )

    sequential, parallel = runs["sequential"], runs[f"parallel x{len(SITES)}"]
    available = "parallel" in parallel.trace_events
    print(f'3-site query "{queries[0].text}" on {", ".join(SITES)}; simulated model, {args.latency:g} s per call')
    print(f"warm, median of {args.repeats} alternating runs; 1 s per host; evaluation split ({machine()})")
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
                run.extra["ahead"]["started"],
                run.extra["ahead"]["wasted"],
            ]
        )
    print_table(["mode", "wall s", "vs sequential", "model calls", "pages", "recall", "fetched ahead", "wasted"], rows)
    speedup = ratio(parallel.extra["measured_wall_s"], sequential.extra["measured_wall_s"]) if available else None
    if speedup is not None:
        print(f"Target (parallel <= {TARGET} x sequential): {'met' if speedup <= TARGET else 'NOT met'}")
    write_json(
        args.out,
        {
            "benchmark": "parallel_sites",
            "machine": machine(),
            "latency_s": args.latency,
            "repeats": args.repeats,
            "per_host_delay_s": 1.0,
            "split": "evaluation",
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
