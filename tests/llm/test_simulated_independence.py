"""The simulated model shares nothing with what it tests: its judge loads other weights than the product's link
pre-ranker (and minilm reranker), and its rules import none of the product's readers of requests or pages."""

from __future__ import annotations

import ast
import hashlib
from pathlib import Path
from typing import Any

from research_crawler.config.settings import RerankSettings
from research_crawler.llm.simulated_encoder import double_judge, double_model_dir
from research_crawler.rank import link_prerank
from research_crawler.rank.models import minilm_location

LLM = Path(__file__).resolve().parents[2] / "research_crawler" / "llm"
#: What the double must not read with: the product's reading of requests, its rankers, its page parsing.
PRODUCT_READERS = (
    "research_crawler.context",
    "research_crawler.rank",
    "research_crawler.pages",
    "research_crawler.web",
)


def _weights_digest(model: Any) -> str:
    """A digest of every parameter of a loaded model (same weights, same digest)."""
    digest = hashlib.sha256()
    for name, tensor in sorted(model.state_dict().items()):
        digest.update(name.encode())
        digest.update(tensor.detach().cpu().contiguous().numpy().tobytes())
    return digest.hexdigest()


def test_the_doubles_judge_and_the_link_pre_ranker_load_different_weights() -> None:
    judge = double_judge()
    judge_model = judge._encoder.model  # type: ignore[attr-defined]
    settings = RerankSettings(device="cpu")
    ranker_model = link_prerank._ranker(settings).model
    assert judge_model is not ranker_model
    judge_dir, ranker_dir = double_model_dir().resolve(), minilm_location(settings)[0].resolve()
    assert judge_dir != ranker_dir and judge_dir not in ranker_dir.parents and ranker_dir not in judge_dir.parents
    assert _weights_digest(judge_model) != _weights_digest(ranker_model)
    # and the two score the same pair differently: one cannot stand in for the other
    request, title = "graph neural networks", "Neural Message Passing for Quantum Chemistry"
    by_judge = judge.similarity(request, [title])[0]
    by_ranker = link_prerank._ranker(settings).score(request, [title])[0]
    assert abs(by_judge - by_ranker) > 1e-3, (by_judge, by_ranker)


def test_the_doubles_rules_import_none_of_the_products_readers() -> None:
    for path in sorted(LLM.glob("simulated*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = (
                [alias.name for alias in node.names] if isinstance(node, ast.Import)
                else [node.module or ""] if isinstance(node, ast.ImportFrom) else []
            )  # fmt: skip
            for name in names:
                assert not name.startswith(PRODUCT_READERS), f"{path.name} imports {name}"
