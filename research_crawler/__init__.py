"""research-crawler: answers research requests by exploring websites with a team of LLM agents.

The public API is re-exported here; everything else is internal.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from research_crawler.api import EventStream, ResearchCrawler
from research_crawler.context.search_context import SearchContext, SiteRef, StopReason
from research_crawler.context.web_context import CollectedItem, WebContext
from research_crawler.errors import (
    BrowserError,
    ConfigError,
    CorruptStateError,
    InvalidURLError,
    ModelError,
    ResearchCrawlerError,
    StateError,
    ToolInputError,
)
from research_crawler.report.models import Report, ReportItem

if TYPE_CHECKING:
    from research_crawler.run.session import ResearchSession
from research_crawler.config.settings import Settings
from research_crawler.pages.page import Determination, Link, Page

__version__ = "0.1.0"


def __getattr__(name: str) -> object:
    # The session pulls in AG2 (seconds to import); load it only when it is asked for.
    if name == "ResearchSession":
        from research_crawler.run.session import ResearchSession

        return ResearchSession
    raise AttributeError(f"module 'research_crawler' has no attribute {name!r}")

__all__ = [
    "BrowserError",
    "CollectedItem",
    "ConfigError",
    "CorruptStateError",
    "Determination",
    "EventStream",
    "InvalidURLError",
    "Link",
    "ModelError",
    "Page",
    "Report",
    "ReportItem",
    "ResearchCrawler",
    "ResearchCrawlerError",
    "ResearchSession",
    "SearchContext",
    "Settings",
    "SiteRef",
    "StateError",
    "StopReason",
    "ToolInputError",
    "WebContext",
    "__version__",
]
