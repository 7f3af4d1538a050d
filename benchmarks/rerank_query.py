"""Benchmark 5: reranking throughput and the peak memory of a whole query with each reranker on the CPU
(prints a table and writes JSON; not a timed test).

Each reranker runs the same whole 3-site testbed query (simulated model, `default` preset) in a fresh
Python process, so that its peak resident memory (RSS) is that of one query and nothing else: bm25 (no
model, the reference), minilm (the packaged all-MiniLM-L6-v2) and bge (BAAI/bge-reranker-v2-m3, only when
its weights are already on this machine: nothing is downloaded). Throughput is the items the query's own
reranking step scored per second of that step; benchmarks/rerank.py measures the rerankers alone on a
fixed larger batch.

Usage: .venv/bin/python benchmarks/rerank_query.py [--out benchmarks/out/rerank_query.json]
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from bench_output import print_table, ratio, write_json
from testbed_runs import OUT_DIR, machine, run_query

import research_crawler.run.session
from research_crawler.config.settings import RerankerKind, RerankSettings, Settings
from research_crawler.errors import ConfigError
from research_crawler.eval.query_splits import evaluation_query
from research_crawler.eval.testbed import TestbedServer, generate_testbed
from research_crawler.rank.model_weights import resolve_model_dir
from research_crawler.rank.rerank import Reranker, load_reranker

KINDS: list[RerankerKind] = ["bm25", "minilm", "bge"]
TOPIC = "diffusion"
SITES = ["arxiv-like", "journal-like", "repo-like"]


class TimedReranker:
    """A reranker that adds up the items it scored and the seconds it took."""

    def __init__(self, inner: Reranker) -> None:
        self.inner = inner
        self.name = inner.name
        self.items = 0
        self.seconds = 0.0

    def score(self, query: str, texts: Sequence[str]) -> list[float]:
        started = time.perf_counter()
        scores = self.inner.score(query, texts)
        self.seconds += time.perf_counter() - started
        self.items += len(texts)
        return scores


def bge_unavailable() -> str | None:
    """Why the bge weights cannot be used here, or None when they are on this machine."""
    settings = RerankSettings()
    try:
        resolve_model_dir(settings.bge_model, cache_dir=settings.cache_dir, download=False, alternatives="")
    except ConfigError as exc:
        return str(exc)
    return None


def child(kind: RerankerKind) -> dict[str, Any]:
    """One whole query with reranker `kind`, in this process (run by the parent in a fresh one)."""
    timed: list[TimedReranker] = []
    load_seconds: list[float] = []

    def load_timed(settings: RerankSettings) -> Reranker:
        started = time.perf_counter()
        reranker = TimedReranker(load_reranker(settings))
        load_seconds.append(time.perf_counter() - started)
        timed.append(reranker)
        return reranker

    research_crawler.run.session.load_reranker = load_timed  # measuring the reranking step, not changing it
    testbed = generate_testbed()
    queries = [evaluation_query(testbed, f"{site}/general/{TOPIC}") for site in SITES]
    with TestbedServer(testbed, slow_seconds=0.0) as server:
        settings = Settings.from_preset("default", explore={"max_sites": len(SITES)})
        run = run_query(settings, server, queries, sites=SITES, reranker=kind)
    items = sum(reranker.items for reranker in timed)
    seconds = sum(reranker.seconds for reranker in timed)
    return {
        "status": "ok",
        "reranker": timed[0].name if timed else kind,
        "load_s": round(sum(load_seconds), 2),
        "items_reranked": items,
        "rerank_s": round(seconds, 3),
        "items_per_s": round(items / seconds, 1) if seconds else None,
        "query_wall_s": run.wall_time_s,
        "recall": round(run.recall, 3),
        "peak_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
    }


def measure(kind: RerankerKind) -> dict[str, Any]:
    if kind == "bge" and (reason := bge_unavailable()) is not None:
        return {"status": "unavailable", "reason": reason}
    completed = subprocess.run([sys.executable, __file__, "--child", kind], capture_output=True, text=True, check=False)
    if completed.returncode != 0:
        return {"status": "failed", "reason": completed.stderr.strip().splitlines()[-1:] or ["(no output)"]}
    return dict(json.loads(completed.stdout.strip().splitlines()[-1]))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=OUT_DIR / "rerank_query.json")
    parser.add_argument("--child", choices=KINDS, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(json.dumps(child(args.child)))
        return

    results = {kind: measure(kind) for kind in KINDS}
    reference = results["bm25"]
    print(f"Whole 3-site testbed query per reranker, CPU, one process each ({machine()})")
    rows = []
    for kind, row in results.items():
        if row["status"] != "ok":
            rows.append([kind, None, None, None, None, None, None, f"{row['status']}: {str(row['reason'])[:70]}"])
            continue
        rows.append(
            [
                kind,
                row["items_reranked"],
                row["items_per_s"],
                row["load_s"],
                row["peak_rss_mb"],
                ratio(row["peak_rss_mb"], reference.get("peak_rss_mb") or 0),
                row["recall"],
                "",
            ]
        )
    print_table(["reranker", "items", "items/s", "load s", "peak RSS MB", "RSS vs bm25", "recall", "note"], rows)
    write_json(args.out, {"benchmark": "rerank_query", "machine": machine(), "sites": SITES, "rerankers": results})


if __name__ == "__main__":
    main()
