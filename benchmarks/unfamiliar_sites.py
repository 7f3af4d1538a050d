"""Benchmark: the requests of the unfamiliar web (sites built as real publishers, repositories and archives are:
a consent wall, a POST-only search with "Load more", feeds and a sitemap, a deep hierarchy, a login wall, works on
two sites) with the simulated model — issue 26's figures, for the visible sites, the held-out ones and all.

It runs the testbed dataset's requests of kind ``unfamiliar`` through `eval` (simulated judge, bm25) and prints
the figures: relevant works reported, reported items that are relevant, requests that honour their constraints,
relevant item pages fetched and read, items with a wrong title / year / first author, works reported twice,
robots.txt violations, failed runs; then one row per request. The evaluation's own directory (table.md, runs/) is
kept under benchmarks/out/unfamiliar_sites/.

Usage: .venv/bin/python benchmarks/unfamiliar_sites.py [--sites NAME ...] [--concurrency N] [--out FILE.json]
"""

from __future__ import annotations

import argparse
import shutil
import time
from pathlib import Path

from bench_output import print_table, write_json
from testbed_runs import OUT_DIR, machine

from research_crawler.config.settings import Settings
from research_crawler.eval.dataset import builtin_dataset_path
from research_crawler.eval.runner import run_evaluation
from research_crawler.eval.table import HELDOUT_SITES, honoured, works_table


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sites", nargs="*", default=None, help="only these sites' requests (default: all)")
    parser.add_argument("--concurrency", type=int, default=2, help="requests at once")
    parser.add_argument("--out", type=Path, default=OUT_DIR / "unfamiliar_sites.json")
    args = parser.parse_args()
    evaluation = args.out.with_suffix("")
    ours = ("results.json", "table.md", "runs", "scratch")  # what a run of this benchmark leaves there
    if evaluation.exists() and any(evaluation.iterdir()) and not any((evaluation / name).exists() for name in ours):
        raise SystemExit(
            f"{evaluation} holds something other than an earlier run of this benchmark (it replaces that folder): "
            f"choose another --out, e.g. --out {evaluation.parent / 'unfamiliar_sites_run.json'}"
        )
    shutil.rmtree(evaluation, ignore_errors=True)  # an earlier run's evaluation (runs/, table.md, results.json)
    settings = Settings(runs_dir=evaluation / "scratch")
    settings.rerank.kind = "bm25"
    settings.fetch.per_host_delay_s = 0.0
    started = time.monotonic()
    result = run_evaluation(
        builtin_dataset_path("testbed"),
        settings=settings,
        backend="simulated",
        judge="simulated",
        kinds=["unfamiliar"],
        sites=args.sites,
        concurrency=args.concurrency,
        out=evaluation,
        on_query=lambda done, total, query_id, outcome: print(f"[{done}/{total}] {query_id}: {outcome}", flush=True),
    )
    print(f"\n{machine()}; {len(result.queries)} requests in {time.monotonic() - started:.0f} s; simulated model\n")
    print(works_table(result))
    rows = []
    for query in result.queries:
        works, compliance = query.works, query.compliance
        rows.append(
            [
                query.query_id + (" (held out)" if query.site in HELDOUT_SITES else ""),
                works.relevant_works if works else None,
                works.relevant_works_reported if works else None,
                works.relevant_works_read if works else None,
                works.entries if works else None,
                works.relevant_entries if works else None,
                works.wrong_entries if works else None,
                works.works_twice if works else None,
                "-" if compliance is None else "yes" if honoured(query) else "no",
                query.figures.stop_reason if query.figures else query.error[:40],
            ]
        )
    headers = ["request", "works", "reported", "read", "entries", "relevant", "wrong", "twice", "honoured", "stop"]
    print_table(headers, rows)
    print(f"robots.txt violations: {result.robots_violations}")
    write_json(
        args.out,
        {
            "machine": machine(),
            "evaluation": str(evaluation),
            "table": works_table(result),
            "requests": [q.model_dump(mode="json", exclude={"verdicts"}) for q in result.queries],
            "robots_violations": result.robots_violations,
        },
    )


if __name__ == "__main__":
    main()
