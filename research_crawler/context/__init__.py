"""State of a search: Web Context per site, Search Context per query, URLs, navigation graph, persistence."""

from __future__ import annotations

from research_crawler.context.atomic_files import atomic_write_bytes, atomic_write_text
from research_crawler.context.graph import NavigationGraph
from research_crawler.context.search_context import (
    Completion,
    FinishedSite,
    PendingSite,
    SearchContext,
    SiteRef,
    StopReason,
)
from research_crawler.context.store import RunState, RunStore
from research_crawler.context.urls import (
    canonicalize_url,
    host_of,
    is_same_site,
    site_root,
    try_canonicalize_url,
)
from research_crawler.context.web_context import CollectedItem, ItemUpdate, PendingURL, WebContext

__all__ = [
    "CollectedItem",
    "Completion",
    "FinishedSite",
    "ItemUpdate",
    "NavigationGraph",
    "PendingSite",
    "PendingURL",
    "RunState",
    "RunStore",
    "SearchContext",
    "SiteRef",
    "StopReason",
    "WebContext",
    "atomic_write_bytes",
    "atomic_write_text",
    "canonicalize_url",
    "host_of",
    "is_same_site",
    "site_root",
    "try_canonicalize_url",
]
