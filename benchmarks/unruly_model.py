"""Benchmark: the careful simulated model against the unruly one (what real models do) on the testbed — recall,
model calls, the misbehaviours it made, and pages lost, which must be 0 (prints a table and writes JSON).

The unruly model makes parallel tool calls, calls tools it was not given, sends malformed or invalid arguments,
names link numbers that do not exist, answers in text instead of calling a tool and pads its report; the
guards must absorb all of it: every run ends with a report, no page taken for scraping is lost, and recall
stays close to the careful model's.

Usage: .venv/bin/python benchmarks/unruly_model.py [--queries-per-site N] [--rate R] [--out FILE.json]
"""

from __future__ import annotations

import argparse
import time
from collections import Counter
from pathlib import Path
from typing import Any

from bench_output import print_table, ratio, write_json
from testbed_runs import OUT_DIR, QueryRun, machine, run_query

from research_crawler.config.settings import Settings
from research_crawler.eval.query_splits import benchmark_queries
from research_crawler.eval.testbed import TestbedServer, generate_testbed


def seeded(settings: Settings, seed: int) -> Settings:
    """`settings` with the simulated model's seed set: each query draws its own misbehaviours."""
    settings = settings.model_copy(deep=True)
    settings.simulated.seed = seed
    return settings


def summarise(name: str, runs: list[QueryRun]) -> dict[str, Any]:
    relevant = sum(run.relevant_total for run in runs)
    faults: Counter[str] = Counter()
    for run in runs:
        faults.update(run.extra.get("faults", {}))
    return {
        "behaviour": name,
        "queries": len(runs),
        "recall": round(sum(run.relevant_reported for run in runs) / relevant, 3) if relevant else None,
        "collected_recall": round(sum(run.relevant_collected for run in runs) / relevant, 3) if relevant else None,
        "model_calls": sum(run.model_calls for run in runs),
        "max_calls_in_a_query": max(run.model_calls for run in runs),
        "pages_scraped": sum(run.pages_scraped for run in runs),
        "pages_lost": sum(len(run.extra.get("pages_lost", [])) for run in runs),
        "misbehaviours": sum(v for k, v in faults.items() if k.startswith("unruly:")),
        "faults": dict(sorted(faults.items())),
        "runs": [vars(run) for run in runs],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--queries-per-site", type=int, default=3, help="testbed queries per site (5 sites)")
    parser.add_argument("--rate", type=float, default=0.3, help="share of the unruly model's replies that misbehave")
    parser.add_argument("--out", type=Path, default=OUT_DIR / "unruly_model.json")
    args = parser.parse_args()

    testbed = generate_testbed()
    queries = benchmark_queries(testbed, per_site=args.queries_per_site)
    careful = Settings()
    unruly = Settings()
    for settings in (careful, unruly):  # recall, calls and pages lost do not depend on the delay (said below)
        settings.fetch.per_host_delay_s = 0.0
    unruly.simulated.behaviour = "unruly"
    unruly.simulated.unruly_rate = args.rate
    started = time.monotonic()
    with TestbedServer(testbed, slow_seconds=0.0) as server:
        results = [
            summarise(name, [run_query(seeded(settings, n), server, [query]) for n, query in enumerate(queries)])
            for name, settings in (("careful", careful), ("unruly", unruly))
        ]
    print(
        f"Careful vs unruly simulated model: {len(queries)} testbed queries (evaluation split), no delay ({machine()})"
    )
    print_table(
        ["behaviour", "recall", "collected", "model calls", "max/query", "pages", "pages lost", "misbehaviours"],
        [
            [
                r["behaviour"],
                r["recall"],
                r["collected_recall"],
                r["model_calls"],
                r["max_calls_in_a_query"],
                r["pages_scraped"],
                r["pages_lost"],
                r["misbehaviours"],
            ]
            for r in results
        ],
    )
    careful_row, unruly_row = results
    print(f"\nmisbehaviours made: {unruly_row['faults']}")
    print(
        f"unruly/careful: recall {ratio(unruly_row['recall'] or 0, careful_row['recall'] or 0)}, "
        f"model calls {ratio(unruly_row['model_calls'], careful_row['model_calls'])}; "
        f"pages lost {unruly_row['pages_lost']} (must be 0); {time.monotonic() - started:.0f} s"
    )
    write_json(args.out, {"machine": machine(), "rate": args.rate, "results": results})


if __name__ == "__main__":
    main()
