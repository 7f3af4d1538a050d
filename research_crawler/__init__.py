"""research-crawler: answers research requests by exploring websites with a team of LLM agents.

The public API is re-exported here, each name imported on first use (PEP 562): `import research_crawler` costs
nothing, so the command line starts without the model SDK, AG2 or pydantic models it does not need yet.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from research_crawler.api import EventStream, ResearchCrawler
    from research_crawler.config.settings import Settings
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
    from research_crawler.pages.page import Determination, Link, Page
    from research_crawler.report.models import Report, ReportItem
    from research_crawler.run.session import ResearchSession

__version__ = "0.1.0"

#: Each public name and the module it lives in.
_EXPORTS = {
    "BrowserError": "errors",
    "CollectedItem": "context.web_context",
    "ConfigError": "errors",
    "CorruptStateError": "errors",
    "Determination": "pages.page",
    "EventStream": "api",
    "InvalidURLError": "errors",
    "Link": "pages.page",
    "ModelError": "errors",
    "Page": "pages.page",
    "Report": "report.models",
    "ReportItem": "report.models",
    "ResearchCrawler": "api",
    "ResearchCrawlerError": "errors",
    "ResearchSession": "run.session",
    "SearchContext": "context.search_context",
    "Settings": "config.settings",
    "SiteRef": "context.search_context",
    "StateError": "errors",
    "StopReason": "context.search_context",
    "ToolInputError": "errors",
    "WebContext": "context.web_context",
}


def __getattr__(name: str) -> Any:
    if name not in _EXPORTS:
        raise AttributeError(f"module 'research_crawler' has no attribute {name!r}")
    value = getattr(importlib.import_module(f"research_crawler.{_EXPORTS[name]}"), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted([*globals(), *_EXPORTS])


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
