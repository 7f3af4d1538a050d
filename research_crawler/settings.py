"""One `Settings` object holding every tunable, built from sub-models; the only reader of environment variables.

Environment variables use the prefix ``RESEARCH_CRAWLER_`` and ``__`` between levels, e.g.
``RESEARCH_CRAWLER_FETCH__PER_HOST_DELAY_S=2``. Components receive the sub-model they need.
"""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field
from pydantic_settings import BaseSettings, SettingsConfigDict

__all__ = ["ExploreSettings", "FetchSettings", "PageViewSettings", "Settings"]

RenderMode = Literal["http", "browser"]


class _Section(BaseModel):
    model_config = ConfigDict(extra="forbid", validate_assignment=True)


class FetchSettings(_Section):
    """How pages are fetched: politeness, limits, retries and the browser."""

    user_agent: str = Field(
        "research-crawler/0.1 (+https://github.com/research-crawler/research-crawler; polite research bot)",
        description="User-Agent sent with every request and matched against robots.txt groups.",
    )
    render: RenderMode = Field("http", description="Default strategy: plain HTTP or the headless browser.")
    obey_robots: bool = Field(True, description="Obey robots.txt (RFC 9309).")
    per_host_delay_s: float = Field(1.0, ge=0, description="Minimum gap between two requests to one host.")
    max_crawl_delay_s: float = Field(30.0, ge=0, description="Cap on a robots.txt Crawl-delay.")
    per_host_concurrency: int = Field(1, ge=1, description="Requests in flight to one host at once.")
    connect_timeout_s: float = Field(10.0, gt=0, description="TCP connect timeout.")
    read_timeout_s: float = Field(10.0, gt=0, description="Idle timeout between two reads.")
    page_deadline_s: float = Field(30.0, gt=0, description="Total deadline for one page, all retries included.")
    max_retries: int = Field(2, ge=0, description="Retries after the first attempt (timeouts, resets, 408/429/5xx).")
    backoff_base_s: float = Field(0.5, ge=0, description="First retry backoff; doubles each retry.")
    backoff_max_s: float = Field(8.0, ge=0, description="Longest backoff between retries.")
    max_retry_after_s: float = Field(60.0, ge=0, description="Longest Retry-After honoured; longer gives up.")
    max_page_bytes: int = Field(4 * 1024 * 1024, gt=0, description="Largest body accepted, after decompression.")
    max_robots_bytes: int = Field(512 * 1024, gt=0, description="Largest robots.txt read.")
    max_redirects: int = Field(10, ge=0, description="Redirect hops followed for one page.")
    max_url_length: int = Field(2083, gt=0, description="Longer URLs are rejected (crawler-trap guard).")
    max_links_per_page: int = Field(1000, gt=0, description="Links numbered on one page; the rest are dropped.")
    chromium_path: str | None = Field(None, description="Chromium binary; found on PATH when unset.")
    cdp_url: str | None = Field(None, description="Use an already running browser at this CDP URL.")
    browser_wait_s: float = Field(1.0, ge=0, description="Extra wait after load for JavaScript to render.")


class PageViewSettings(_Section):
    """How a page is shown to an LLM."""

    chunk_tokens: int = Field(6000, ge=200, description="Token budget of one chunk of a page's Markdown.")
    max_link_text_chars: int = Field(160, ge=10, description="Anchor text longer than this is shortened.")


class ExploreSettings(_Section):
    """How one site is explored."""

    max_subpages: int = Field(5, ge=1, description="Pages scraped per site (the paper's limit).")
    top_k_urls: int = Field(10, ge=1, description="Pending URLs the Planner sees at once.")
    allow_offsite_links: bool = Field(False, description="Queue links that leave the current site.")
    item_kind: str = Field("paper", description="What the Item Collector collects: paper, dataset, product…")


class Settings(BaseSettings):
    """Every tunable of research-crawler."""

    model_config = SettingsConfigDict(
        env_prefix="RESEARCH_CRAWLER_",
        env_nested_delimiter="__",
        extra="forbid",
        validate_assignment=True,
    )

    fetch: FetchSettings = Field(default_factory=FetchSettings)  # type: ignore[arg-type]
    page_view: PageViewSettings = Field(default_factory=PageViewSettings)  # type: ignore[arg-type]
    explore: ExploreSettings = Field(default_factory=ExploreSettings)  # type: ignore[arg-type]
    runs_dir: Path = Field(Path("runs"), description="Where run directories are created.")
