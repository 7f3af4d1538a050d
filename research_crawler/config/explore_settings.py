"""The explore section of `Settings`: how one site is explored.

Subpages and sites per query, the Web Selector's site pool, the Planner's view of pending URLs, parallel sites.
"""

from __future__ import annotations

from pathlib import Path

from pydantic import Field, field_validator

from research_crawler.config.settings_section import SettingsSection
from research_crawler.context.request import checked_item_kind

__all__ = ["ExploreSettings"]


class ExploreSettings(SettingsSection):
    """How one site is explored."""

    max_subpages: int = Field(5, ge=1, description="Pages scraped per site (the paper's limit).")
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
