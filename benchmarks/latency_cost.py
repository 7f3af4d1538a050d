"""Benchmark: latency and cost of a query — the `default` preset against `paper`, in one run (prints tables and
writes JSON; not a timed test).

1. Wall time of a 3-site query with the simulated model answering every call after a fixed latency (1 s, as a
   hosted model might), its input tokens, recall and critical path: the model calls a user waits for one after
   the other (the time during which some call was under way, over the latency). `--web testbed` (the default)
   asks it on three testbed sites; `--web realweb` on three real sites' saved pages (below).
2. Input tokens per page as the pages grow (5, 10, 20, 40 subpages of one testbed site; the simulated model told
   to keep browsing), by preset, with recall beside them.
3. Cost per query at list prices, cached input counted (estimated offline as a provider's prompt cache would
   serve it), over testbed queries: `default` with the configured models (gpt-4.1-mini and gpt-4o-mini unless
   set), `paper` with the paper's (gpt-4o and gpt-4o-mini); the same tokens priced with other model pairs are
   printed for comparison.

The model is always the simulated one (`backend="simulated"`, a rule-based stand-in judging relevance by
meaning), never a real LLM: its recall is a regression signal, not what a real model achieves.

Part 1 on real saved pages (`--web realweb`, pages from ../shared/realweb or `--realweb DIR`):
- Real: the pages of arxiv.org (4 abstracts, 2 listings, 1 search; the astrophysics listing that calibrated the
  simulated model's thresholds is left out), aclanthology.org (2 papers, 1 author
  page) and dl.acm.org (1 paper, 1 search), their bytes as saved, each served on its own loopback port at the
  path and query of the URL it was saved from; their own links (those to the original host lead off the
  loopback site, as links to pages that were not saved would). The request ("papers on language models",
  `THREE_SITES_QUERY`) is fixed; its ground truth is read from the pages' own metadata
  by a rule (`research_crawler.eval.saved_pages.relevant_pages`: an item page whose citation_title, else
  <title>, shares a topic word with the request), the same for both presets. An item counts as found when the
  report lists its page at its loopback address or at its original URL.
- Added: each site's root `/`, an index of the site's saved pages linked by their real titles (none of the
  saved start pages links to a saved item page at a saved path). The agents start there.
- Not served: anything else (404).

Usage: .venv/bin/python benchmarks/latency_cost.py [--latency 1.0] [--queries-per-site 3] [--part wall growth cost]
       .venv/bin/python benchmarks/latency_cost.py --web realweb [--realweb DIR] [--latency 1.0]
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bench_output import print_table, ratio, write_json
from testbed_runs import OUT_DIR, REALWEB, QueryRun, machine, run_query, run_request, timed_alternately

from research_crawler.agents.roles import Role
from research_crawler.config.model_prices import list_prices
from research_crawler.config.settings import ModelSettings, Settings
from research_crawler.eval.query_splits import CALIBRATION_REAL_PAGES, benchmark_queries, evaluation_query
from research_crawler.eval.saved_pages import THREE_SITES_QUERY, read_saved_pages
from research_crawler.eval.saved_sites_server import SavedSitesServer
from research_crawler.eval.testbed import TestbedServer, generate_testbed
from research_crawler.eval.testbed.models import Testbed

PRESETS = ("paper", "default")
TOPIC = "diffusion"
WALL_SITES = ["arxiv-like", "journal-like", "repo-like"]
GROWTH_SITE = "arxiv-like"
SUBPAGES = (5, 10, 20, 40)
#: Other (strong, cheap) model pairs the default's tokens are priced with, for comparison.
OTHER_MODELS = [("gpt-4o", "gpt-4o-mini"), ("gpt-4.1", "gpt-4.1-mini"), ("gpt-4.1-mini", "gpt-4.1-nano")]
#: The paper's models, with which the `paper` preset's runs are priced (the default's are the configured ones).
PAPER_MODELS = {"strong_model": "gpt-4o", "cheap_model": "gpt-4o-mini"}
TARGETS = {"wall": 0.35, "tokens": 0.2, "growth": 1.3, "cost_usd": 0.01}
#: Roles that read a page or choose the next one: the calls whose number grows with the pages.
PAGE_AGENTS = [Role.PLANNER.agent_name, Role.CRAWLER.agent_name, Role.COLLECTOR.agent_name]


@dataclass
class WallWeb:
    """Where part 1's query runs: the web's name, the request, its sites, and one preset's run there."""

    name: str
    request: str
    sites: list[str]
    run: Callable[[Settings], QueryRun]
    about: dict[str, Any]


def testbed_web(server: TestbedServer, testbed: Testbed) -> WallWeb:
    queries = [evaluation_query(testbed, f"{site}/general/{TOPIC}") for site in WALL_SITES]
    return WallWeb(
        "testbed",
        queries[0].text,
        WALL_SITES,
        lambda settings: run_query(settings, server, queries, sites=WALL_SITES),
        {},
    )


def realweb_web(server: SavedSitesServer) -> WallWeb:
    query = THREE_SITES_QUERY
    truth = server.ground_truth(query.text)
    start_urls = [server.start_url(site) for site in query.sites]
    pages = [page for site in query.sites for page in server.pages(site)]
    relevant = sorted(set(truth.values()))
    return WallWeb(
        "realweb",
        query.text,
        list(query.sites),
        lambda settings: run_request(
            settings, query.text, start_urls, server.allowed_hosts(), truth, query_id="realweb/three-sites"
        ),
        {
            "pages_served": {page.file.name: page.target for page in pages},
            "added": "each site's root '/': an index of its saved pages linked by their real titles",
            "ground_truth_rule": "item pages whose citation_title (else <title>) shares a topic word with the request",
            "ground_truth": relevant,
        },
    )


def wall_time(web: WallWeb, latency: float, repeats: int) -> dict[str, Any]:
    """Part 1, warm: each preset once untimed, then the presets in turn (A B A B …) and the median wall time."""

    def preset_run(preset: str) -> Callable[[], QueryRun]:
        settings = Settings.from_preset(preset, explore={"max_sites": len(web.sites)}, simulated={"latency_s": latency})
        return lambda: web.run(settings)

    runs = timed_alternately({preset: preset_run(preset) for preset in PRESETS}, repeats=repeats)
    paper, default = runs["paper"], runs["default"]
    where = f'"{web.request}" on {", ".join(web.sites)}'
    pages = "the testbed" if web.name == "testbed" else "real saved pages (an added index page per site)"
    print(f"\n1. A 3-site query, {where}, {pages}; simulated model, {latency:g} s per call")
    print(f"   warm, median of {repeats} alternating runs per preset; 1 s between requests to a host (the default)")
    if web.name == "realweb":
        print(f"Ground truth ({web.about['ground_truth_rule']}): {', '.join(web.about['ground_truth'])}")
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
                run.critical_path_calls,
                round(run.model_wait_s / latency) if latency else None,
                run.pages_scraped,
                round(run.recall, 3),
                run.extra["ahead"]["started"],
                run.extra["ahead"]["wasted"],
            ]
        )
    print_table(
        [
            "preset",
            "wall s",
            "vs paper",
            "input tokens",
            "vs paper",
            "model calls",
            "critical path",
            "model wait / latency",
            "pages",
            "recall",
            "fetched ahead",
            "wasted",
        ],
        rows,
    )
    wall = ratio(default.extra["measured_wall_s"], paper.extra["measured_wall_s"]) or 0
    tokens = ratio(default.total_input_tokens, paper.total_input_tokens) or 0
    path = ratio(default.critical_path_calls, paper.critical_path_calls)
    recall_ok = default.recall >= paper.recall
    print(
        f"Targets: wall time <= {TARGETS['wall']} x paper: {'met' if wall <= TARGETS['wall'] else 'NOT met'} "
        f"({wall}); input tokens <= {TARGETS['tokens']} x paper: {'met' if tokens <= TARGETS['tokens'] else 'NOT met'}"
        f" ({tokens}); recall {'equal or better' if recall_ok else 'LOWER'}; critical path "
        f"{default.critical_path_calls} vs {paper.critical_path_calls} ({path})."
    )
    print(
        "critical path: the longest chain of model calls each started after the one before it ended (calls under "
        "way at once count once); model wait / latency: the time some call was under way over the latency "
        "(more than the critical path when calls take longer than the latency: the simulated model's own work)."
    )
    return {
        "web": web.name,
        "model": "simulated",
        "latency_s": latency,
        "repeats": repeats,
        "per_host_delay_s": 1.0,
        "split": "evaluation" if web.name == "testbed" else "real pages (no calibration page served)",
        "query": web.request,
        "sites": web.sites,
        **web.about,
        "wall_vs_paper": wall,
        "tokens_vs_paper": tokens,
        "critical_path_vs_paper": path,
        "recall_equal_or_better": recall_ok,
        "runs": {preset: vars(run) for preset, run in runs.items()},
    }


def growth(server: TestbedServer, testbed: Testbed) -> dict[str, Any]:
    query = evaluation_query(testbed, f"{GROWTH_SITE}/general/{TOPIC}")
    results: dict[str, dict[int, QueryRun]] = {}
    for preset in PRESETS:
        results[preset] = {}
        for subpages in SUBPAGES:
            settings = Settings.from_preset(
                preset,
                explore={"max_subpages": subpages},
                run={"max_model_calls_per_site": None},
                simulated={"enough_items": 1000},  # keep browsing: the point is many pages
                fetch={"per_host_delay_s": 0.0},  # tokens do not depend on the delay
            )
            results[preset][subpages] = run_query(settings, server, [query])
    print(
        f'\n2. Input tokens per page as pages grow: "{query.text}" on {GROWTH_SITE}, the simulated model browsing on '
        "(no per-host delay: tokens do not depend on it)"
    )
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
        [
            "preset",
            "subpages",
            "pages",
            "tokens/page",
            "vs 5",
            "Planner+Crawler+Collector/page",
            "vs 5",
            "Planner/page",
            "recall",
        ],
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
    queries = benchmark_queries(testbed, per_site=queries_per_site, kind="general")
    models_of = {"paper": ModelSettings(**PAPER_MODELS), "default": ModelSettings()}
    runs = {
        preset: [
            run_query(
                Settings.from_preset(
                    preset, models=PAPER_MODELS if preset == "paper" else {}, fetch={"per_host_delay_s": 0.0}
                ),
                server,
                [q],
            )
            for q in queries
        ]
        for preset in PRESETS
    }
    models = models_of["default"]
    prices = list_prices()
    print(
        f"\n3. Cost per query at list prices, {len(queries)} testbed queries of the evaluation split (cached input "
        "counted, estimated; no per-host delay: tokens do not depend on it)"
    )
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
            [
                preset,
                row["mean_usd"] * 100,
                row["max_usd"] * 100,
                row["cached_share"],
                row["input_tokens_per_query"],
                row["recall"],
                *(row[f"{s}/{c}"] * 100 for s, c in OTHER_MODELS),
            ]
        )
    print_table(
        [
            "preset",
            "mean ¢",
            "max ¢",
            "cached share",
            "input/query",
            "recall",
            *(f"{s}/{c} ¢" for s, c in OTHER_MODELS),
        ],
        rows,
    )
    names = [name for m in models_of.values() for name in (m.strong_model, m.cheap_model)]
    used = {name: prices[name].describe() for name in dict.fromkeys(names)}
    print(f"paper priced with {PAPER_MODELS['strong_model']}/{PAPER_MODELS['cheap_model']} (the paper's models)")
    print("Prices used (USD per 1M tokens): " + "; ".join(f"{name}: {text}" for name, text in used.items()))
    equal_models = {
        f"{s}/{c}": ratio(summary["default"][f"{s}/{c}"], summary["paper"][f"{s}/{c}"]) for s, c in OTHER_MODELS
    }
    print(
        "default vs paper at equal models: "
        + "; ".join(f"{pair} {value}x" for pair, value in equal_models.items())
        + f" (each on its own models: {ratio(summary['default']['mean_usd'], summary['paper']['mean_usd'])}x)"
    )
    mean = summary["default"]["mean_usd"]
    print(
        f"Target (default, <= {TARGETS['cost_usd'] * 100:g} ¢ a query with {models.strong_model}/"
        f"{models.cheap_model}): {'met' if mean <= TARGETS['cost_usd'] else 'NOT met'} ({mean * 100:.2f} ¢)"
    )
    return {"queries": [q.id for q in queries], "prices": used, "by_preset": summary, "equal_models": equal_models}


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
    parser.add_argument("--repeats", type=int, default=2, help="timed runs of each preset in part 1 (median kept)")
    parser.add_argument(
        "--part", nargs="+", choices=["wall", "growth", "cost"], help="default: all on the testbed, wall on realweb"
    )
    parser.add_argument(
        "--web", choices=["testbed", "realweb"], default="testbed", help="where part 1 (wall) asks its query"
    )
    parser.add_argument("--realweb", type=Path, default=REALWEB, help="the saved pages (with MANIFEST.tsv)")
    parser.add_argument("--out", type=Path, help="default: benchmarks/out/latency_cost[_realweb].json")
    args = parser.parse_args()
    parts = args.part or (["wall", "growth", "cost"] if args.web == "testbed" else ["wall"])
    out = args.out or OUT_DIR / ("latency_cost.json" if args.web == "testbed" else "latency_cost_realweb.json")

    testbed = generate_testbed()
    started = time.monotonic()
    document: dict[str, Any] = {"benchmark": "latency_cost", "machine": machine(), "targets": TARGETS}
    print(f"Latency and cost, default vs paper preset ({machine()}); the model is simulated in every run")
    with TestbedServer(testbed, slow_seconds=0.0) as server:
        if "wall" in parts and args.web == "testbed":
            document["wall"] = wall_time(testbed_web(server, testbed), args.latency, args.repeats)
        elif "wall" in parts:
            pages = read_saved_pages(args.realweb, THREE_SITES_QUERY.sites)
            pages = [page for page in pages if page.file.name not in CALIBRATION_REAL_PAGES]  # the double's
            with SavedSitesServer(pages) as saved:
                document["wall"] = wall_time(realweb_web(saved), args.latency, args.repeats)
        if "growth" in parts:
            document["growth"] = growth(server, testbed)
        if "cost" in parts:
            document["cost"] = cost(server, testbed, args.queries_per_site)
    document["seconds"] = round(time.monotonic() - started, 1)
    write_json(out, document)


if __name__ == "__main__":
    main()
