"""What the judges see of one run: the report, every collected item (the retrieved context) and the fetched pages.

Read back from the run directory (``state.json`` for the collected items, ``pages/`` for the fetched pages), so a
run is judged on what it really did, and an evaluation can be re-judged later from its run directories alone.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from pathlib import Path

from research_crawler.context.store import RunStore
from research_crawler.context.urls import try_canonicalize_url
from research_crawler.context.web_context import CollectedItem
from research_crawler.errors import StateError
from research_crawler.report.models import Report, ReportItem
from research_crawler.web.page_store import PageArchive

__all__ = ["PAGES_DIR", "RunEvidence", "collected_items_of", "read_evidence"]

logger = logging.getLogger(__name__)

#: Where a run directory keeps the pages it fetched (the page archive).
PAGES_DIR = "pages"
_TITLE_WINDOW_BEFORE = 200


@dataclass(frozen=True)
class RunEvidence:
    """One run as the judges and the deterministic metrics see it."""

    report: Report
    collected_items: list[CollectedItem] = field(default_factory=list)
    page_excerpts: dict[str, str] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)

    @property
    def collected_urls(self) -> set[str]:
        return {item.url for item in self.collected_items}


def collected_items_of(run_dir: Path) -> list[CollectedItem]:
    """Every item the run collected, site by site, best first (raises StateError without a saved state)."""
    state = RunStore(run_dir).load()
    items: list[CollectedItem] = []
    for site_url in sorted(state.web_contexts):
        items.extend(state.web_contexts[site_url].items())
    return items


def read_evidence(report: Report, *, excerpt_chars: int) -> RunEvidence:
    """The evidence of `report`'s run; what cannot be read is said in `notes`, never silently left out."""
    notes: list[str] = []
    if report.run_dir is None:
        return RunEvidence(report=report, notes=["the report names no run directory: no collected items"])
    run_dir = Path(report.run_dir)
    try:
        collected = collected_items_of(run_dir)
    except StateError as exc:
        logger.warning("no collected items for %s: %s", run_dir, exc)
        collected = []
        notes.append(f"the collected items could not be read: {exc}")
    excerpts: dict[str, str] = {}
    if excerpt_chars > 0:
        archive = PageArchive(run_dir / PAGES_DIR)
        for item in report.items:
            excerpt = _excerpt_for(item, archive, excerpt_chars)
            if excerpt:
                excerpts[item.url] = excerpt
    return RunEvidence(report=report, collected_items=collected, page_excerpts=excerpts, notes=notes)


def _excerpt_for(item: ReportItem, archive: PageArchive, limit: int) -> str:
    """The item's own page when it was fetched, else the part of the page it was found on around its title."""
    own = archive.get(item.url)
    if own is not None and own.markdown.strip():
        return _clip(own.markdown, limit)
    found_on = archive.get(item.found_on) if item.found_on else None
    if found_on is None or not found_on.markdown.strip():
        return ""
    text = found_on.markdown
    at = text.lower().find(item.title.strip().lower()[:80]) if item.title.strip() else -1
    if at < 0:
        canonical = try_canonicalize_url(item.url) or item.url
        at = max(text.find(canonical), -1)
    start = max(0, at - _TITLE_WINDOW_BEFORE) if at >= 0 else 0
    return _clip(text[start:], limit)


def _clip(text: str, limit: int) -> str:
    text = text.strip()
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"
