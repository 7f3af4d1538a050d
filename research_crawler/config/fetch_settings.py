"""The fetch and page-view sections of `Settings`: how pages are fetched and how one is shown to an LLM.

Politeness, limits, retries and the browser (`FetchSettings`); chunking and the agents' views (`PageViewSettings`).
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Literal

from pydantic import Field, field_validator
from pydantic_settings import NoDecode

from research_crawler.config.sections import SettingsSection

__all__ = ["FetchSettings", "PageViewSettings", "RenderMode"]

RenderMode = Literal["http", "browser", "auto"]


class FetchSettings(SettingsSection):
    """How pages are fetched: politeness, limits, retries and the browser."""

    user_agent: str = Field(
        "research-crawler/0.1 (+https://github.com/research-crawler/research-crawler; polite research bot)",
        description="User-Agent sent with every request and matched against robots.txt groups.",
    )
    render: RenderMode = Field(
        "auto",
        description="Default strategy: plain HTTP, the headless browser, or auto: HTTP, and the browser again for "
        "a page that asks for JavaScript and shows next to no text without it (web/rendering.py).",
    )
    obey_robots: bool = Field(True, description="Obey robots.txt (RFC 9309).")
    per_host_delay_s: float = Field(1.0, ge=0, description="Minimum gap between two requests to one host.")
    max_crawl_delay_s: float = Field(30.0, ge=0, description="Cap on a robots.txt Crawl-delay.")
    per_host_concurrency: int = Field(1, ge=1, description="Requests in flight to one host at once.")
    fetch_ahead: int = Field(
        1,
        ge=0,
        le=5,
        description="Pages fetched in the background while the agents read the current one: the site's best "
        "pending URLs once the Crawler has scored the page's links, and the next site's start page (same robots.txt, "
        "delay and guard; a guess not chosen is cancelled before its request leaves, or left to finish once it has, "
        "so no page is asked for twice, and is never recorded unless read). 0: none.",
    )
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
    robots_ttl_s: float = Field(6 * 3600.0, gt=0, description="How long a host's robots.txt rules are reused.")
    robots_retry_s: float = Field(
        300.0,
        gt=0,
        description="How long an unreadable robots.txt (5xx, timeout, network error) keeps its host "
        "disallowed before it is asked for again.",
    )
    max_url_length: int = Field(2083, gt=0, description="Longer URLs are rejected (crawler-trap guard).")
    max_path_repetition: int = Field(
        2,
        ge=1,
        description="A path segment (or run of segments) repeated more times than this in a row, as in "
        "/a/a/a/ or /x/y/x/y/x/y/, marks a crawler trap: such URLs are neither queued nor fetched (Heritrix: 2).",
    )
    max_links_per_page: int = Field(
        20_000,
        gt=0,
        description="Links numbered on one page; the rest are dropped. A table of contents of thousands of papers "
        "is kept whole (the Crawler's view still shows only page_view.crawler_top_links of them).",
    )
    chromium_path: str | None = Field(None, description="Chromium binary; found on PATH when unset.")
    cdp_url: str | None = Field(None, description="Use an already running browser at this CDP URL.")
    browser_wait_s: float = Field(1.0, ge=0, description="Extra wait after load for JavaScript to render.")
    browser_wait_until: Literal["commit", "domcontentloaded", "load", "networkidle"] = Field(
        "load",
        description="Page event the browser waits for before the extra wait (Playwright's wait_until).",
    )
    load_more_presses: int = Field(
        5,
        ge=0,
        le=50,
        description="Presses of a page's 'Load more' / 'Show more' control (or scrolls of an endless list) in the "
        "browser, each on the host's turn, so the items its script adds are read with the page; render 'auto' reads "
        "such a page in the browser. Stops earlier when the list stops growing or the page reaches half of "
        "max_page_bytes or max_links_per_page links. 0: never pressed.",
    )
    load_more_s: float = Field(
        15.0, gt=0, description="Longest time spent pressing one page's 'Load more' control (within its deadline)."
    )
    browser_max_memory_mb: int = Field(
        1024,
        ge=128,
        description="Memory one page may take in the launched Chromium (its renderer's resident size); past it the "
        "renderer is stopped and the page reported too_large, as when the browser's processes together grow by more "
        "than 3 times this. A page's JavaScript heap is limited to half of it. Not applied to a browser given by "
        "cdp_url.",
    )
    max_render_bytes: int = Field(
        64 * 1024 * 1024,
        gt=0,
        description="Bytes one render may receive through the guard proxy (the page and all it loads); past it the "
        "render's connections are cut and the page reported too_large.",
    )
    browser_start_timeout_s: float = Field(
        20.0, gt=0, description="How long a launched Chromium may take to open its DevTools endpoint."
    )
    allowed_hosts: Annotated[list[str], NoDecode] = Field(
        default_factory=list,
        description="Hosts exempt from the URL guard's address rules ('host' for any port, 'host:port' for one): "
        "without an entry, loopback, private, link-local (metadata), CGNAT, multicast and reserved addresses "
        "are never fetched. The local testbed and tests name their loopback servers here.",
    )
    dns_pin_ttl_s: float = Field(
        300.0,
        gt=0,
        description="How long a host's checked address is reused; every connection goes to that address "
        "(no DNS rebinding) and it is resolved and checked again after this.",
    )

    revisit_cache: bool = Field(
        False,
        description="Keep fetched pages across runs with their ETag and Last-Modified, so a page seen before is "
        "asked for conditionally and a 304 Not Modified costs no download and, for a page read before, no model "
        "call (`watch` turns it on).",
    )
    revisit_cache_path: Path | None = Field(
        None,
        description="The revisit cache's SQLite file. None: pages.sqlite3 in the user cache directory (platformdirs).",
    )
    revisit_cache_max_mb: float = Field(
        256.0, gt=0, description="Size the revisit cache is kept under: the pages used longest ago go first."
    )
    revisit_cache_max_age_days: float = Field(
        30.0, gt=0, description="A page kept longer than this is fetched again in full, not conditionally."
    )

    @field_validator("allowed_hosts")
    @classmethod
    def _check_allowed_hosts(cls, value: list[str]) -> list[str]:
        cleaned = [entry.strip() for entry in value]
        bad = [entry for entry in cleaned if not entry or any(char.isspace() for char in entry) or "/" in entry]
        if bad:
            raise ValueError(f"allowed_hosts entries are 'host' or 'host:port', not {bad}")
        return cleaned


class PageViewSettings(SettingsSection):
    """How a page is shown to an LLM."""

    chunk_tokens: int = Field(6000, ge=200, description="Token budget of one chunk of a page's Markdown.")
    max_link_text_chars: int = Field(160, ge=10, description="Anchor text longer than this is shortened.")
    crawler_view: Literal["links", "markdown"] = Field(
        "links",
        description="What the Crawler reads: the numbered links with their context, or the whole page.",
    )
    collector_view: Literal["main", "markdown"] = Field(
        "main",
        description="What the Item Collector reads: the page's main content (navigation, headers, footers, "
        "sidebars and cookie banners pruned; link numbers unchanged), or the whole page's Markdown.",
    )
    hide_seen_links: bool = Field(
        True,
        description="Leave out of the Crawler's link view the links already shown to it on this site (the "
        "site's repeated navigation), with a line counting them; and out of the Collector's view, from a site's "
        "third page on, the lines made only of links that were on every page read there (its menu).",
    )
    crawler_top_links: int = Field(
        20,
        ge=0,
        description="When a page has more links than this for the Crawler (those hide_seen_links leaves out not "
        "counted), the local embedding model (all-MiniLM-L6-v2, as the minilm reranker loads it) ranks them "
        "against the request and the Crawler is shown only this many, the best, in the page's order; with "
        "hide_seen_links, a link ranked out is not shown again on the site. 0: every link (the paper).",
    )
