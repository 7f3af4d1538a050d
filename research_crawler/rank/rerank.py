"""Reranking: every collected item, across all sites, is ordered against the query before the report.

The seam is `Reranker` (a name and `score(query, texts)`); `load_reranker` builds the one the settings
choose — the bge cross-encoder by default, MiniLM or BM25 when asked — and never falls back silently
to another: a reranker that cannot load is a `ConfigError` naming the alternatives.
"""

from __future__ import annotations

import logging
import math
from collections.abc import Callable, Sequence
from typing import Protocol, TypeVar

from research_crawler.config.settings import RerankSettings
from research_crawler.errors import ConfigError, ToolInputError
from research_crawler.rank.model_weights import download_reranker_weights
from research_crawler.rank.models import BM25Reranker, clear_model_cache, load_bge, load_minilm

__all__ = [
    "MAX_ITEM_TEXT_CHARS",
    "Reranker",
    "clear_model_cache",
    "download_reranker_weights",
    "item_text",
    "load_reranker",
    "rerank",
]

logger = logging.getLogger(__name__)

T = TypeVar("T")

#: Longest item text handed to a reranker: models read at most `max_length` tokens anyway, and an
#: untrusted page must not make tokenisation slow with a megabyte-long "description".
MAX_ITEM_TEXT_CHARS = 4000


class Reranker(Protocol):
    """Scores texts against a query; a higher score means more relevant.

    Scores are comparable only within one reranker and one call (BM25 depends on the texts scored together).
    """

    name: str

    def score(self, query: str, texts: Sequence[str]) -> list[float]:
        """One score per text, in the order of `texts`."""
        ...


def load_reranker(settings: RerankSettings) -> Reranker:
    """The reranker that `settings.kind` names; its model is loaded once per process and then reused.

    Raises:
        ConfigError: the chosen reranker cannot load (weights missing offline, a missing package, a bad
            directory, no CUDA when ``device='cuda'``); the message names the alternatives.
    """
    if settings.kind == "bge":
        return load_bge(settings)
    if settings.kind == "minilm":
        return load_minilm(settings)
    return BM25Reranker()


def item_text(
    title: str | None,
    abstract: str | None = None,
    description: str | None = None,
    *,
    max_chars: int = MAX_ITEM_TEXT_CHARS,
) -> str:
    """The text a reranker reads for one item: its title, then its abstract, else its description.

    The abstract is preferred because it is the publisher's own summary, read from the page's metadata;
    the description is the Item Collector's one or two sentences, used when the page carried no abstract.
    Whitespace is collapsed and the result cut to `max_chars`.
    """
    parts = [_clean(title), _clean(abstract) or _clean(description)]
    text = "\n".join(part for part in parts if part)
    return text[:max_chars].rstrip() if len(text) > max_chars else text


def rerank(query: str, items: Sequence[T], text_of: Callable[[T], str], reranker: Reranker) -> list[tuple[T, float]]:
    """The items with their scores, best first; items with equal scores keep their order.

    An item the reranker could not score (NaN, e.g. an fp16 overflow) is ranked last, keeping its NaN.

    Args:
        query: the user's request the items are ranked against.
        items: the collected items, of any type.
        text_of: the text to score for an item, usually `item_text` over its metadata.
        reranker: from `load_reranker`.

    Raises:
        ToolInputError: the query is empty.
        ConfigError: the reranker did not return one score per item.
    """
    if not query.strip():
        raise ToolInputError("the query to rerank the items against is empty")
    if not items:
        return []
    texts = [text_of(item) for item in items]
    scores = reranker.score(query, texts)
    if len(scores) != len(items):
        raise ConfigError(f"reranker {reranker.name} returned {len(scores)} scores for {len(items)} items")
    clean = [float(score) for score in scores]
    unscored = sum(math.isnan(score) for score in clean)
    if unscored:
        logger.warning("reranker %s gave no score (NaN) to %d item(s); they are ranked last", reranker.name, unscored)
    order = sorted(range(len(items)), key=lambda index: -clean[index] if not math.isnan(clean[index]) else math.inf)
    logger.debug("reranked %d items with %s", len(items), reranker.name)
    return [(items[index], clean[index]) for index in order]


def _clean(text: str | None) -> str:
    return " ".join(text.split()) if text else ""
