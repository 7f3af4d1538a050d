"""Benchmark: latency and cost of a query — the `default` preset against `paper`, in one run (prints tables and
writes JSON; not a timed test).

1. Wall time of a 3-site query with the simulated model answering every call after a fixed latency (1 s, as a
   hosted model might), its input tokens, recall and critical path: the model calls a user waits for one after
   the other (the time during which some call was under way, over the latency).
2. Input tokens per page as the pages grow (5, 10, 20, 40 subpages of one testbed site; the simulated model told
   to keep browsing), by preset, with recall beside them.
3. Cost per query at list prices with the configured models (gpt-4o and gpt-4o-mini by default), cached input
   counted (estimated offline as a provider's prompt cache would serve it), over testbed queries; the same
   tokens priced with other model pairs are printed for comparison.

Usage: .venv/bin/python benchmarks/latency_cost.py [--latency 1.0] [--queries-per-site 3] [--part wall growth cost]
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path
from typing import Any

from bench_output import print_table, ratio, write_json
from testbed_runs import OUT_DIR, QueryRun, machine, run_query

from research_crawler.agents.roles import Role
from research_crawler.config.model_prices import list_prices
from research_crawler.config.settings import ModelSettings, Settings
from research_crawler.eval.testbed import TestbedServer, generate_testbed
from research_crawler.eval.testbed.models import Testbed

PRESETS = ("paper", "default")
TOPIC = "diffusion"
WALL_SITES = ["arxiv-like", "journal-like", "repo-like"]
GROWTH_SITE = "arxiv-like"
SUBPAGES = (5, 10, 20, 40)
#: Other (strong, cheap) model pairs the default's tokens are priced with, for comparison.
OTHER_MODELS = [("gpt-4.1", "gpt-4.1-mini"), ("gpt-4.1-mini", "gpt-4o-mini"), ("gpt-4.1-mini", "gpt-4.1-nano")]
TARGETS = {"wall": 0.35, "tokens": 0.2, "growth": 1.3, "cost_usd": 0.01}
#: Roles that read a page or choose the next one: the calls whose number grows with the pages.
PAGE_AGENTS = [Role.PLANNER.agent_name, Role.CRAWLER.agent_name, Role.COLLECTOR.agent_name]


def wall_time(server: TestbedServer, testbed: Testbed, latency: float) -> dict[str, Any]:
    queries = [testbed.query(f"{site}/general/{TOPIC}") for site in WALL_SITES]
    runs: dict[str, QueryRun] = {}
    for preset in PRESETS:
        settings = Settings.from_preset(
            preset, explore={"max_sites": len(WALL_SITES)}, simulated={"latency_s": latency}
        )
        started = time.monotonic()
        run = run_query(settings, server, queries, sites=WALL_SITES)
        run.extra["measured_wall_s"] = round(time.monotonic() - started, 2)
        runs[preset] = run
    paper, default = runs["paper"], runs["default"]
    where = f'"{queries[0].text}" on {", ".join(WALL_SITES)}'
    print(f"\n1. A 3-site query, {where}; simulated model, {latency:g} s per call")
    rows = []
    for preset, run in runs.items():
        rows.append(
            [
                preset,
                run.extra["measured_wall_s"],
                ratio(run.extra["measured_wall_s"], paper.extra["measured_wall_s"]),
                run.total_input_tokens,
                ratio(run.total_input_tokens, paper.total_input_tokens),
                run.model_calls,
                round(run.model_wait_s / latency) if latency else None,
                run.pages_scraped,
                round(run.recall, 3),
            ]
        )
    print_table(
        ["preset", "wall s", "vs paper", "input tokens", "vs paper", "model calls", "critical path", "pages", "recall"],
        rows,
    )
    wall = ratio(default.extra["measured_wall_s"], paper.extra["measured_wall_s"]) or 0
    tokens = ratio(default.total_input_tokens, paper.total_input_tokens) or 0
    recall_ok = default.recall >= paper.recall
    print(
        f"Targets: wall time <= {TARGETS['wall']} x paper: {'met' if wall <= TARGETS['wall'] else 'NOT met'} "
        f"({wall}); input tokens <= {TARGETS['tokens']} x paper: {'met' if tokens <= TARGETS['tokens'] else 'NOT met'}"
        f" ({tokens}); recall {'equal or better' if recall_ok else 'LOWER'}."
    )
    print("critical path: model calls waited for one after the other (time some call was under way / latency).")
    return {
        "latency_s": latency,
        "query": queries[0].text,
        "sites": WALL_SITES,
        "wall_vs_paper": wall,
        "tokens_vs_paper": tokens,
        "recall_equal_or_better": recall_ok,
        "runs": {preset: vars(run) for preset, run in runs.items()},
    }


def growth(server: TestbedServer, testbed: Testbed) -> dict[str, Any]:
    query = testbed.query(f"{GROWTH_SITE}/general/{TOPIC}")
    results: dict[str, dict[int, QueryRun]] = {}
    for preset in PRESETS:
        results[preset] = {}
        for subpages in SUBPAGES:
            settings = Settings.from_preset(
                preset,
                explore={"max_subpages": subpages},
                run={"max_model_calls_per_site": None},
                simulated={"enough_items": 1000},  # keep browsing: the point is many pages
            )
            results[preset][subpages] = run_query(settings, server, [query])
    print(f'\n2. Input tokens per page as pages grow: "{query.text}" on {GROWTH_SITE}, the simulated model browsing on')
    rows = []
    summary: dict[str, Any] = {}
    for preset, runs in results.items():
        first = runs[SUBPAGES[0]]
        for subpages, run in runs.items():
            per_page = run.total_input_tokens / max(1, run.pages_scraped)
            page_agents = sum(run.input_tokens.get(agent, 0) for agent in PAGE_AGENTS) / max(1, run.pages_scraped)
            first_page_agents = sum(first.input_tokens.get(a, 0) for a in PAGE_AGENTS) / max(1, first.pages_scraped)
            planner = run.input_tokens.get(Role.PLANNER.agent_name, 0) / max(1, run.pages_scraped)
            rows.append(
                [
                    preset,
                    subpages,
                    run.pages_scraped,
                    round(per_page),
                    ratio(per_page, first.total_input_tokens / max(1, first.pages_scraped)),
                    round(page_agents),
                    ratio(page_agents, first_page_agents),
                    round(planner),
                    round(run.recall, 3),
                ]
            )
            summary.setdefault(preset, {})[subpages] = {
                "pages": run.pages_scraped,
                "per_page": round(per_page, 1),
                "page_agents_per_page": round(page_agents, 1),
                "planner_per_page": round(planner, 1),
                "recall": round(run.recall, 3),
                "collected_recall": round(run.collected_recall, 3),
            }
    print_table(
        ["preset", "subpages", "pages", "tokens/page", "vs 5", "Planner+Crawler+Collector/page", "vs 5",
         "Planner/page", "recall"],
        rows,
    )
    last, first = summary["default"][SUBPAGES[-1]], summary["default"][SUBPAGES[0]]
    growth_ratio = ratio(last["per_page"], first["per_page"]) or 0
    print(
        f"Target (default, tokens per page at {SUBPAGES[-1]} <= {TARGETS['growth']} x at {SUBPAGES[0]}): "
        f"{'met' if growth_ratio <= TARGETS['growth'] else 'NOT met'} ({growth_ratio}; the agents that read pages: "
        f"{ratio(last['page_agents_per_page'], first['page_agents_per_page'])})"
    )
    return {"site": GROWTH_SITE, "query": query.text, "by_preset": summary, "default_growth": growth_ratio}


def cost(server: TestbedServer, testbed: Testbed, queries_per_site: int) -> dict[str, Any]:
    queries = [q for site in testbed.site_names() for q in testbed.queries_for(site, kind="general")[:queries_per_site]]
    runs = {preset: [run_query(Settings.from_preset(preset), server, [q]) for q in queries] for preset in PRESETS}
    models = ModelSettings()
    prices = list_prices()
    print(f"\n3. Cost per query at list prices, {len(queries)} testbed queries (cached input counted, estimated)")
    rows = []
    summary: dict[str, Any] = {}
    for preset, preset_runs in runs.items():
        costs = [run.list_price_cost_usd for run in preset_runs]
        cached = sum(sum(run.cached_input_tokens.values()) for run in preset_runs)
        total = sum(run.total_input_tokens for run in preset_runs)
        recall = sum(run.relevant_reported for run in preset_runs) / max(1, sum(r.relevant_total for r in preset_runs))
        row = {
            "mean_usd": round(sum(costs) / len(costs), 5),
            "max_usd": round(max(costs), 5),
            "cached_share": ratio(cached, total),
            "input_tokens_per_query": round(total / len(preset_runs)),
            "recall": round(recall, 3),
        }
        for strong, cheap in OTHER_MODELS:
            other = [_priced(run, strong=strong, cheap=cheap) for run in preset_runs]
            row[f"{strong}/{cheap}"] = round(sum(other) / len(other), 5)
        summary[preset] = row
        rows.append(
            [preset, row["mean_usd"] * 100, row["max_usd"] * 100, row["cached_share"], row["input_tokens_per_query"],
             row["recall"], *(row[f"{s}/{c}"] * 100 for s, c in OTHER_MODELS)]
        )
    print_table(
        ["preset", "mean ¢", "max ¢", "cached share", "input/query", "recall",
         *(f"{s}/{c} ¢" for s, c in OTHER_MODELS)],
        rows,
    )
    used = {name: prices[name].describe() for name in (models.strong_model, models.cheap_model)}
    print("Prices used (USD per 1M tokens): " + "; ".join(f"{name}: {text}" for name, text in used.items()))
    mean = summary["default"]["mean_usd"]
    print(
        f"Target (default, <= {TARGETS['cost_usd'] * 100:g} ¢ a query with {models.strong_model}/"
        f"{models.cheap_model}): {'met' if mean <= TARGETS['cost_usd'] else 'NOT met'} ({mean * 100:.2f} ¢)"
    )
    return {"queries": [q.id for q in queries], "prices": used, "by_preset": summary}


def _priced(run: QueryRun, *, strong: str, cheap: str) -> float:
    """What `run`'s calls would cost with `strong` for the roles that judge and `cheap` for the others."""
    prices = list_prices()
    settings = ModelSettings(strong_model=strong, cheap_model=cheap)
    roles = {role.agent_name: role for role in Role}
    total = 0.0
    for agent, tokens in run.input_tokens.items():
        price = prices[settings.model_for(roles[agent].value)]
        total += price.cost(
            input_tokens=tokens,
            output_tokens=run.output_tokens_by_agent.get(agent, 0),
            cached_input_tokens=run.cached_input_tokens.get(agent, 0),
        )
    return total


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--latency", type=float, default=1.0, help="seconds the simulated model takes per call")
    parser.add_argument("--queries-per-site", type=int, default=3, help="general testbed queries per site (cost)")
    parser.add_argument("--part", nargs="+", choices=["wall", "growth", "cost"], default=["wall", "growth", "cost"])
    parser.add_argument("--out", type=Path, default=OUT_DIR / "latency_cost.json")
    args = parser.parse_args()

    testbed = generate_testbed()
    started = time.monotonic()
    document: dict[str, Any] = {"benchmark": "latency_cost", "machine": machine(), "targets": TARGETS}
    print(f"Latency and cost, default vs paper preset ({machine()})")
    with TestbedServer(testbed, slow_seconds=0.0) as server:
        if "wall" in args.part:
            document["wall"] = wall_time(server, testbed, args.latency)
        if "growth" in args.part:
            document["growth"] = growth(server, testbed)
        if "cost" in args.part:
            document["cost"] = cost(server, testbed, args.queries_per_site)
    document["seconds"] = round(time.monotonic() - started, 1)
    write_json(args.out, document)


if __name__ == "__main__":
    main()
