"""Benchmark of a batch file's memory (prints a table and writes JSON; not a timed test): `research-crawler batch`
run as a user runs it, on a JSONL file of a million short queries and on one of a hundred, for the same time, with
the simulated model on a testbed site; the command's peak RSS, its RSS once its queries are running, the queries
ended, summary.csv's rows, and the time the million-line file took to be checked before the first query ran.

Usage: .venv/bin/python benchmarks/batch_memory.py [--lines 1000000] [--seconds 120]
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import psutil
from bench_output import print_table, ratio, write_json
from testbed_runs import OUT_DIR, machine

from research_crawler.eval.testbed import TestbedServer, generate_testbed

_MIB = 1024 * 1024
_WORDS = ("graph", "neural", "protein", "diffusion", "battery", "language", "vision", "quantum")


def _write_queries(path: Path, lines: int, site: str) -> None:
    with path.open("w", encoding="utf-8") as handle:
        for number in range(lines):
            words = f"{_WORDS[number % len(_WORDS)]} {_WORDS[(number // 8) % len(_WORDS)]} {number}"
            handle.write(json.dumps({"query": f"papers on {words}", "sites": [site]}) + "\n")


def _tree_rss(process: psutil.Process) -> float:
    total = 0
    for member in [process, *process.children(recursive=True)]:
        try:
            total += member.memory_info().rss
        except psutil.Error:
            continue
    return total / _MIB


def _run(batch: Path, out: Path, *, seconds: float, env: dict[str, str]) -> dict[str, Any]:
    command = [sys.executable, "-m", "research_crawler", "batch", str(batch), "--out", str(out), "--model",
               "simulated", "--reranker", "bm25", "--quiet"]  # fmt: skip
    started = time.monotonic()
    child = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    process = psutil.Process(child.pid)
    samples: list[tuple[float, float]] = []
    first_query_s = None
    while child.poll() is None and time.monotonic() - started < seconds:
        samples.append((time.monotonic() - started, _tree_rss(process)))
        if first_query_s is None and any(out.glob("*/run.json")):
            first_query_s = time.monotonic() - started
        time.sleep(0.5)
    child.send_signal(signal.SIGINT)  # as Ctrl-C: the running queries stop gracefully
    try:
        _, errors = child.communicate(timeout=120)
    except subprocess.TimeoutExpired:
        child.kill()
        _, errors = child.communicate()
    summary = out / "summary.csv"
    rows = max(0, len(summary.read_text(encoding="utf-8").splitlines()) - 1) if summary.exists() else 0
    running = [rss for at, rss in samples if first_query_s is not None and at >= first_query_s]
    return {
        "peak_rss_mb": round(max(rss for _, rss in samples), 1) if samples else None,
        "rss_while_running_mb": round(sum(running) / len(running), 1) if running else None,
        "last_rss_mb": round(samples[-1][1], 1) if samples else None,
        "first_query_after_s": round(first_query_s, 1) if first_query_s is not None else None,
        "queries_ended": rows,
        "exit_code": child.returncode,
        "last_words": errors.strip().splitlines()[-1][:200] if errors.strip() else "",
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lines", type=int, default=1_000_000)
    parser.add_argument("--small", type=int, default=100, help="lines of the reference file")
    parser.add_argument("--seconds", type=float, default=120.0)
    parser.add_argument("--out", type=Path, default=OUT_DIR / "batch_memory.json")
    args = parser.parse_args()

    results: dict[str, dict[str, Any]] = {}
    with TestbedServer(generate_testbed(), slow_seconds=0.0) as server, tempfile.TemporaryDirectory() as scratch:
        env = {
            **os.environ,
            "RESEARCH_CRAWLER_FETCH__ALLOWED_HOSTS": json.dumps(server.allowed_hosts()),
            "RESEARCH_CRAWLER_FETCH__PER_HOST_DELAY_S": "0",
            "RESEARCH_CRAWLER_LIBRARY__RECORD_RUNS": "false",
        }
        for name, lines in (("large", args.lines), ("small", args.small)):
            batch = Path(scratch) / f"{name}.jsonl"
            _write_queries(batch, lines, server.base_url("arxiv-like"))
            result = _run(batch, Path(scratch) / f"out-{name}", seconds=args.seconds, env=env)
            results[name] = {"lines": lines, "file_mb": round(batch.stat().st_size / _MIB, 1), **result}
    large, small = results["large"], results["small"]
    print(f"machine: {machine()}; {args.seconds:.0f} s each")
    print_table(
        ["file", "lines", "MB", "first query after s", "queries ended", "peak RSS MB", "RSS while running MB"],
        [
            [name, r["lines"], r["file_mb"], r["first_query_after_s"], r["queries_ended"], r["peak_rss_mb"],
             r["rss_while_running_mb"]]
            for name, r in results.items()
        ],
    )  # fmt: skip
    peak_ratio = ratio(large["peak_rss_mb"] or 0, small["peak_rss_mb"] or 0)
    print(f"peak RSS, {args.lines:,} lines vs {args.small}: {peak_ratio}x")
    write_json(args.out, {"machine": machine(), "seconds": args.seconds, "runs": results, "peak_ratio": peak_ratio})


if __name__ == "__main__":
    main()
