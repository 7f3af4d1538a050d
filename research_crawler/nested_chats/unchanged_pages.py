"""Pages unchanged since an earlier run read them (a 304 answered from the revisit cache) are not read by a model
again: what the Crawler and the Collector did there last time for the same request — the links they stored with
their scores, the items — is done again through the same tools, and the Planner is told the page is unchanged and
what was found there then.

What is remembered is kept per request (another request reads the page afresh) and only when the scrape ended
well; a page that changed is stored anew by the revisit cache, which forgets what was made of the old copy.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any

from pydantic import ValidationError

from research_crawler.pages.page import Page
from research_crawler.tools.collector_tools import CollectorTools
from research_crawler.tools.crawler_tools import CrawlerTools
from research_crawler.tools.exploration import Exploration
from research_crawler.tools.items import ItemCandidate
from research_crawler.tools.navigation import LinkScore

__all__ = ["UnchangedPages"]

logger = logging.getLogger(__name__)

#: The shape of what is remembered; another version is read afresh rather than guessed at.
_VERSION = 1
#: The page report kept is cut here (the Planner reads it again).
_MAX_REPORT_CHARS = 2000


@dataclass
class UnchangedPages:
    """Replays, or remembers, what the agents made of one page (one per scrape)."""

    exploration: Exploration
    crawler_tools: CrawlerTools
    collector_tools: CollectorTools

    def __post_init__(self) -> None:
        self.crawler_tools.saved = []
        self.collector_tools.collected = []

    def _key(self) -> str:
        x = self.exploration
        return " ".join(f"{x.settings.explore.item_kind} {x.search.query}".casefold().split())

    def _links_wanted(self) -> bool:
        x = self.exploration
        return not x.last_subpage or x.settings.run.links_on_last_page

    def replay(self, page: Page) -> str | None:
        """For a page unchanged since it was read for this request: its links and items stored again through the
        tools, no model asked; the page report to hand the Planner. None when the page must be read."""
        x = self.exploration
        if not page.revisited or x.pages.page_memory is None:
            return None
        stored = x.pages.page_memory.memory(page.final_url)
        entry: Any = stored.get(self._key()) if isinstance(stored, dict) else None
        if not isinstance(entry, dict) or entry.get("version") != _VERSION:
            return None
        if self._links_wanted() and not entry.get("crawled"):
            return None  # its links were not scored last time (the site's last subpage): they are needed now
        try:
            links = [LinkScore.model_validate(link) for link in entry.get("links", [])]
            items = [ItemCandidate.model_validate(item) for item in entry.get("items", [])]
        except (ValidationError, TypeError, AttributeError) as exc:
            logger.warning("reading %s again: what was remembered of it cannot be used (%s)", page.final_url, exc)
            return None
        if links and self._links_wanted():
            self.crawler_tools.save_links(links)
        if items:
            self.collector_tools.collect_items(items)
        reason = "unchanged since it was last read (304 Not Modified): last time's links and items restored"
        for step in ("crawler", "collector"):
            x.trace.emit("skip", step=step, url=page.final_url, reason=reason)
        x.trace.emit("unchanged_page", url=page.final_url, links=len(links), items=len(items))
        report = str(entry.get("report") or "")
        return (
            "Unchanged since it was last read (304 Not Modified): not read again; the links and items found there "
            f"then are restored.\n{report}"
        ).rstrip()

    def remember(self, page: Page, report: str) -> None:
        """Keep what the agents made of `page` for this request (after a scrape that ended well)."""
        x = self.exploration
        if x.pages.page_memory is None or not page.ok:
            return
        stored = x.pages.page_memory.memory(page.final_url)
        memory = dict(stored) if isinstance(stored, dict) else {}
        memory[self._key()] = {
            "version": _VERSION,
            "crawled": self._links_wanted(),
            "links": [link.model_dump() for link in self.crawler_tools.saved],
            "items": [item.model_dump() for item in self.collector_tools.collected],
            "report": report[:_MAX_REPORT_CHARS],
        }
        x.pages.page_memory.remember(page.final_url, memory)
