"""The reliability report: runs the catalogue against loopback fault servers, and optionally a soak, then prints
a table and writes JSON. A benchmark, not a timed test.

Usage::

    python -m research_crawler.eval.reliability [--soak N] [--group NAME …] [--out benchmarks/out/reliability.json]

Per group it gives the cases tried and held, items lost (must be 0), pages refetched after a resume,
canary/admin hits (must be 0) and the longest single fetch against its deadline. The soak (default 200
queries; ``--soak 0`` skips it) runs whole queries with the simulated model at 10% injected model faults
over the testbed with 10% injected network faults (see `soak.py`).
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import platform
import sys
import time
from collections.abc import Sequence
from dataclasses import asdict
from pathlib import Path
from typing import Any

from research_crawler.eval.reliability.catalogue import GROUPS, CaseResult, registered_cases, run_case
from research_crawler.eval.reliability.soak import SoakResult, run_soak

__all__ = ["group_summary", "main", "run_report"]

logger = logging.getLogger(__name__)

DEFAULT_OUT = Path("benchmarks") / "out" / "reliability.json"


def _load_cases() -> None:
    """Import the modules whose cases register themselves."""
    from research_crawler.eval.reliability import (  # noqa: F401
        agreement_cases,
        block_cases,
        crawl_cases,
        fetch_cases,
        hostile_file_cases,
        hostile_text_cases,
        interstitial_cases,
        listing_cases,
        model_cases,
        one_work_cases,
        page_truth_cases,
        report_markup_cases,
        resource_cases,
        run_cases,
        run_directory_cases,
        security_cases,
    )


def group_summary(results: Sequence[CaseResult]) -> list[dict[str, Any]]:
    """One row per group: cases tried and held, items lost, refetches, canary/admin hits, longest fetch."""
    rows = []
    for group in GROUPS:
        mine = [result for result in results if result.group == group]
        if not mine:
            continue
        tried = [result for result in mine if not result.skipped]
        slowest = max(tried, key=lambda result: result.longest_fetch_s, default=None)
        rows.append(
            {
                "group": group,
                "tried": len(tried),
                "held": sum(result.held for result in tried),
                "skipped": len(mine) - len(tried),
                "items_lost": sum(result.items_lost for result in tried),
                "refetched_after_resume": sum(result.refetched for result in tried),
                "canary_admin_hits": sum(result.canary_hits for result in tried),
                "longest_fetch_s": slowest.longest_fetch_s if slowest else 0.0,
                "its_deadline_s": slowest.deadline_s if slowest else 0.0,
            }
        )
    return rows


def run_report(*, groups: Sequence[str] | None = None, soak: int = 200, seed: int = 0) -> dict[str, Any]:
    """Run the catalogue (and the soak when `soak` > 0); returns everything the JSON file holds."""
    _load_cases()
    started = time.monotonic()
    results = []
    for group, name, function in registered_cases(groups):
        result = run_case(group, name, function)
        logger.info("%s / %s: %s", group, name, "held" if result.held else result.skipped or "FAILED")
        results.append(result)
    soak_result: SoakResult | None = run_soak(soak, seed=seed) if soak > 0 else None
    return {
        "machine": f"{platform.machine()} {os.cpu_count()} cores, Python {platform.python_version()}",
        "seconds": round(time.monotonic() - started, 1),
        "groups": group_summary(results),
        "cases": [asdict(result) for result in results],
        "soak": asdict(soak_result) if soak_result is not None else None,
    }


def _table(report: dict[str, Any]) -> str:
    lines = [
        f"{'group':<23} {'tried':>5} {'held':>5} {'lost':>5} {'refetch':>7} {'canary':>6}  longest fetch / deadline",
    ]
    for row in report["groups"]:
        lines.append(
            f"{row['group']:<23} {row['tried']:>5} {row['held']:>5} {row['items_lost']:>5} "
            f"{row['refetched_after_resume']:>7} {row['canary_admin_hits']:>6}  "
            f"{row['longest_fetch_s']:.2f} s / {row['its_deadline_s']:.1f} s"
            + (f"  ({row['skipped']} skipped)" if row["skipped"] else "")
        )
    # Past the deadline by more than the event loop's scheduling slack (the fetch layer notes the same 0.1 s).
    overran = [c for c in report["cases"] if c["deadline_s"] and c["longest_fetch_s"] > c["deadline_s"] + 0.1]
    if overran:
        lines += ["", "Fetches that ran past their deadline (and why):"]
        lines += [
            f"- {c['group']} / {c['name']}: {c['longest_fetch_s']:.2f} s / {c['deadline_s']:.1f} s: {c['detail']}"
            for c in overran
        ]
    failed = [case for case in report["cases"] if not case["held"]]
    if failed:
        lines += ["", "Cases that did not hold (or were skipped):"]
        lines += [f"- {c['group']} / {c['name']}: {c['skipped'] or c['detail']}" for c in failed]
    soak = report.get("soak")
    if soak:
        lines += [
            "",
            f"Soak: {soak['queries']} queries, {soak['finished']} finished, {soak['items_lost']} items lost, "
            f"{soak['model_faults']} model faults and {soak['network_faults']} network faults injected, "
            f"{soak['seconds']:.0f} s",
            f"  RSS {soak['start']['rss_mb']:.0f} -> {soak['after_first']['rss_mb']:.0f} (after the first query) "
            f"-> {soak['end']['rss_mb']:.0f} MB; open files "
            f"{soak['start']['open_files']} -> {soak['end']['open_files']}; threads {soak['start']['threads']} -> "
            f"{soak['end']['threads']}; child processes {soak['start']['children']} -> {soak['end']['children']}",
        ]
        if soak["errors"]:
            lines += [f"  errors: {error}" for error in soak["errors"][:5]]
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m research_crawler.eval.reliability", description=__doc__.split("\n")[0]
    )
    parser.add_argument("--soak", type=int, default=200, help="Queries in the soak (0 skips it; default 200).")
    parser.add_argument("--group", action="append", choices=GROUPS, help="Only these groups (repeatable).")
    parser.add_argument("--seed", type=int, default=0, help="Seed of the soak's faults and queries.")
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT, help="Where to write the JSON.")
    parser.add_argument("--verbose", action="store_true", help="Log each case as it finishes.")
    args = parser.parse_args(argv)
    # The cases raise some loggers' levels to watch what is logged; this handler still shows only these.
    console = logging.StreamHandler(sys.stderr)
    console.setLevel(logging.INFO if args.verbose else logging.ERROR)
    logging.basicConfig(level=logging.INFO if args.verbose else logging.ERROR, handlers=[console])
    if args.soak < 0:
        parser.error("--soak must be 0 or more")
    report = run_report(groups=args.group, soak=args.soak, seed=args.seed)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(report, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"machine: {report['machine']}; {report['seconds']:.0f} s")  # the report is this entry point's output
    print(_table(report))
    print(f"\nJSON written to {args.out}")
    held = all(case["held"] or case["skipped"] for case in report["cases"])
    return 0 if held else 1
