"""Benchmark 1: input tokens per page and per query, by agent, for the `default` preset against `paper`
(prints a table and writes JSON; not a timed test).

The same testbed queries run with the simulated model under `paper`, then with each change of the token
diet added one at a time, ending with `default`; every row gives its recall on the testbed's ground truth
next to its tokens, so a change that costs recall shows. The testbed and the simulated model are
deterministic: where the presets read the same pages, the "same pages" column says so.

Usage: .venv/bin/python benchmarks/tokens_by_preset.py [--queries-per-site N] [--out FILE.json]
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path
from typing import Any

from bench_output import print_table, ratio, write_json
from testbed_runs import OUT_DIR, QueryRun, machine, run_query

from research_crawler.config.settings import Settings
from research_crawler.eval.query_splits import benchmark_queries
from research_crawler.eval.testbed import TestbedServer, generate_testbed

AGENTS = ["Planner", "Crawler", "Collector", "Supervisor", "WebSelector", "Presenter", "Critique"]
#: The token diet, one change at a time on top of `paper` (each row keeps the rows above it); the last row is
#: the `default` preset itself, which the rows must add up to (checked before anything runs).
STEPS: list[tuple[str, dict[str, dict[str, Any]]]] = [
    ("paper", {}),
    ("+ Crawler reads links", {"page_view": {"crawler_view": "links"}}),
    ("+ Collector reads main content", {"page_view": {"collector_view": "main"}}),
    ("+ site navigation shown once", {"page_view": {"hide_seen_links": True}}),
    ("+ Planner reads reports", {"run": {"planner_history": "reports"}}),
    ("+ older reports summarised", {"run": {"planner_history": "summary"}}),
    ("+ chats end on the tool call", {"run": {"stop_after_tool": True}}),
    ("+ reports list pending URLs", {"run": {"report_lists_top_urls": True}}),
    ("+ start page opened directly", {"run": {"open_start_page": True}}),
    ("+ no link scoring on last page", {"run": {"links_on_last_page": False}}),
    ("+ items given in the task", {"run": {"items_in_task": True}}),
    ("+ Crawler and Collector at once", {"run": {"scrape_concurrently": True}}),
    ("+ next page fetched ahead", {"fetch": {"fetch_ahead": 1}}),
    ("+ links pre-ranked (top 20)", {"page_view": {"crawler_top_links": 20}}),
    ("+ Presenter reads abstracts' start", {"report": {"summary_chars": 300}}),
    ("+ sites explored at once", {"explore": {"parallel_sites": 3}}),
]
DEFAULT_ROW = "default"


def _no_delay(settings: Settings) -> Settings:
    """Tokens and recall do not depend on the per-host delay: measured without it (the table says so)."""
    settings.fetch.per_host_delay_s = 0.0
    return settings


def configurations() -> list[tuple[str, Settings]]:
    configs: list[tuple[str, Settings]] = []
    overrides: dict[str, dict[str, Any]] = {}
    for name, change in STEPS:
        for section, values in change.items():
            overrides[section] = {**overrides.get(section, {}), **values}
        configs.append((name, _no_delay(Settings.from_preset("paper", **overrides))))
    default = _no_delay(Settings.from_preset("default"))
    if configs[-1][1] != default:
        raise SystemExit("the diet steps do not add up to the default preset: update STEPS")
    configs.append((DEFAULT_ROW, default))
    return configs


def summarise(name: str, runs: list[QueryRun], reference: list[QueryRun]) -> dict[str, Any]:
    pages = sum(run.pages_scraped for run in runs)
    by_agent = {agent: sum(run.input_tokens.get(agent, 0) for run in runs) for agent in AGENTS}
    total = sum(run.total_input_tokens for run in runs)
    reference_total = sum(run.total_input_tokens for run in reference)
    relevant = sum(run.relevant_total for run in runs)
    same_pages = sum(run.scraped_urls == ref.scraped_urls for run, ref in zip(runs, reference, strict=True))
    fixed = sum(sum(run.fixed_input_tokens.values()) for run in runs)
    return {
        "configuration": name,
        "queries": len(runs),
        "pages_scraped": pages,
        "same_pages_as_paper": same_pages,
        "input_tokens": total,
        "input_tokens_by_agent": by_agent,
        "per_query": round(total / len(runs), 1),
        "per_page": round(total / pages, 1) if pages else None,
        "per_page_by_agent": {agent: round(tokens / pages, 1) if pages else None for agent, tokens in by_agent.items()},
        "ratio_to_paper": ratio(total, reference_total),
        "fixed_input_tokens": fixed,
        "fixed_share": ratio(fixed, total),
        "recall": round(sum(run.relevant_reported for run in runs) / relevant, 3) if relevant else None,
        "collected_recall": round(sum(run.relevant_collected for run in runs) / relevant, 3) if relevant else None,
        "runs": [vars(run) for run in runs],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--queries-per-site", type=int, default=3, help="testbed queries per site (5 sites)")
    parser.add_argument("--out", type=Path, default=OUT_DIR / "tokens_by_preset.json")
    args = parser.parse_args()

    testbed = generate_testbed()
    queries = benchmark_queries(testbed, per_site=args.queries_per_site)
    started = time.monotonic()
    results: list[dict[str, Any]] = []
    with TestbedServer(testbed, slow_seconds=0.0) as server:
        reference: list[QueryRun] = []
        for name, settings in configurations():
            runs = [run_query(settings, server, [query]) for query in queries]
            reference = reference or runs
            results.append(summarise(name, runs, reference))

    print(
        f"Input tokens by preset: {len(queries)} testbed queries (evaluation split), simulated model, "
        f"no delay ({machine()})"
    )
    headers = [
        "configuration",
        "tokens/query",
        "tokens/page",
        "vs paper",
        "recall",
        "collected",
        "pages",
        "same pages",
        "prompts+schemas",
    ]
    print_table(
        headers,
        [
            [
                r["configuration"],
                r["per_query"],
                r["per_page"],
                r["ratio_to_paper"],
                r["recall"],
                r["collected_recall"],
                r["pages_scraped"],
                f"{r['same_pages_as_paper']}/{r['queries']}",
                r["fixed_share"],
            ]
            for r in results
        ],
    )
    print("\nInput tokens per page scraped, by agent")
    print_table(
        ["configuration", *AGENTS],
        [[r["configuration"], *(r["per_page_by_agent"][agent] for agent in AGENTS)] for r in results],
    )
    paper, default = results[0], results[-1]
    verdict = (
        "met"
        if (default["ratio_to_paper"] or 1) <= 1 / 3 and (default["recall"] or 0) >= (paper["recall"] or 0)
        else "NOT met"
    )
    print(f"\nTarget (default <= 1/3 of paper's input tokens at equal or better recall): {verdict}")
    print(
        "prompts+schemas: the share of input tokens that are system prompts and tool schemas, which every model "
        "call pays whatever it reads; the diet's rows that save whole model calls cut them too."
    )
    write_json(
        args.out,
        {
            "benchmark": "tokens_by_preset",
            "machine": machine(),
            "queries": [query.id for query in queries],
            "seconds": round(time.monotonic() - started, 1),
            "target_met": verdict == "met",
            "results": results,
        },
    )


if __name__ == "__main__":
    main()
