"""The eval section of `Settings`: the LLM judges of batch evaluation, the ground-truth metrics and LangSmith.

The LangSmith key and endpoint default to the variables the LangSmith SDK itself reads.
"""

from __future__ import annotations

import os
from typing import Literal

from pydantic import Field, SecretStr

from research_crawler.config.settings_section import SettingsSection

__all__ = ["EvalSettings"]


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
