"""What the web app's API accepts: a new run (`RunRequest`) and a follow-up (`FollowUpRequest`), validated and
bounded, and how a request's run options become the backend and settings it runs with (as ``ask``'s flags do).
"""

from __future__ import annotations

from typing import Any, Literal
from urllib.parse import urlsplit

from pydantic import BaseModel, ConfigDict, Field, field_validator

from research_crawler.api import Backend
from research_crawler.config.overrides import apply_overrides
from research_crawler.config.settings import Settings
from research_crawler.context.request import MAX_QUERY_CHARS, checked_item_kind, checked_query
from research_crawler.errors import ConfigError

__all__ = ["FollowUpRequest", "RunOptions", "RunRequest", "resolve_run_options"]

MAX_SITES = 20
MAX_URL_CHARS = 2000


def _checked_sites(sites: list[str]) -> list[str]:
    cleaned = [site.strip() for site in sites if site.strip()]
    for site in cleaned:
        parts = urlsplit(site)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise ValueError(f"a site must be an http(s) URL, e.g. https://arxiv.org/ (got {site[:80]!r})")
    return cleaned


class RunOptions(BaseModel):
    """The run options a request may set; None keeps what `serve` was started with."""

    model_config = ConfigDict(extra="forbid")

    model: str | None = Field(None, max_length=200, description="Model for every agent, or 'simulated'.")
    reranker: Literal["bge", "minilm", "bm25"] | None = Field(None, description="How items are ranked.")
    max_subpages: int | None = Field(None, ge=1, le=200, description="Pages read per site.")
    item_kind: str | None = Field(None, max_length=100, description="What to collect: paper, dataset, product…")

    @field_validator("model", "item_kind")
    @classmethod
    def _blank_is_none(cls, value: str | None) -> str | None:
        return value.strip() or None if value is not None else None

    @field_validator("item_kind")
    @classmethod
    def _kind_in_words(cls, value: str | None) -> str | None:
        return checked_item_kind(value) if value is not None else None


class RunRequest(RunOptions):
    """`POST /api/runs`: a research request and, optionally, its sites and run options."""

    query: str = Field(min_length=1, max_length=MAX_QUERY_CHARS, description="The research request.")
    sites: list[str] = Field(
        default_factory=list,
        max_length=MAX_SITES,
        description="Sites to explore (http(s) URLs); empty: the Web Selector chooses from the site pool.",
    )

    @field_validator("query")
    @classmethod
    def _query_has_words(cls, value: str) -> str:
        try:
            return checked_query(value)
        except ConfigError as exc:
            raise ValueError(str(exc)) from None

    @field_validator("sites")
    @classmethod
    def _sites_are_urls(cls, value: list[str]) -> list[str]:
        if any(len(site) > MAX_URL_CHARS for site in value):
            raise ValueError(f"a site URL is longer than {MAX_URL_CHARS} characters")
        return _checked_sites(value)


class FollowUpRequest(BaseModel):
    """`POST /api/runs/{id}/follow-up`: a follow-up in the same run ("only 2025", "also look at bioRxiv")."""

    model_config = ConfigDict(extra="forbid")

    query: str = Field(min_length=1, max_length=MAX_QUERY_CHARS, description="The follow-up request.")
    sites: list[str] = Field(
        default_factory=list, max_length=MAX_SITES, description="Sites to explore; empty: those of the run."
    )

    @field_validator("query")
    @classmethod
    def _query_has_words(cls, value: str) -> str:
        try:
            return checked_query(value, what="the follow-up", example='"only 2025"', count_alone=True)
        except ConfigError as exc:
            raise ValueError(str(exc)) from None

    @field_validator("sites")
    @classmethod
    def _sites_are_urls(cls, value: list[str]) -> list[str]:
        return _checked_sites(value)


def resolve_run_options(options: RunOptions, settings: Settings, backend: Backend) -> tuple[Settings, Backend]:
    """The settings and backend a request runs with: `serve`'s own, then the request's options over them
    (``model="simulated"`` picks the simulated model; another name sets every agent's model). Raises
    ConfigError for a value the settings refuse."""
    flags: dict[str, Any] = {
        "rerank.kind": options.reranker,
        "explore.max_subpages": options.max_subpages,
        "explore.item_kind": options.item_kind,
    }
    if options.model == "simulated":
        backend = "simulated"
    elif options.model is not None:
        backend = "openai"
        flags.update({"models.strong_model": options.model, "models.cheap_model": options.model})
    given = {name: value for name, value in flags.items() if value is not None}
    return apply_overrides(settings, given), backend
