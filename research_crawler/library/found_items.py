"""What one run found, as the library records it: the report's items, then every item the Collector stored (from
the run's saved state: the site and page each was found on, also for the works the report merged), each as a report
item marked reported or not. The library files them by identity, so an item in both is one item.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from pathlib import Path

from research_crawler.context.store import RunStore
from research_crawler.context.web_context import CollectedItem
from research_crawler.errors import StateError
from research_crawler.report.models import COLLECTOR_SOURCE, Report, ReportItem

__all__ = ["FoundItem", "found_items"]

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class FoundItem:
    """One item a run found; `reported` when the report lists it, else only collected (with its Collector score)."""

    item: ReportItem
    reported: bool


def found_items(report: Report, run_dir: Path | None = None) -> list[FoundItem]:
    """The report's items, then every item collected in `run_dir` (default: the report's), best score first.
    A run directory without a readable state gives the report's items only (logged)."""
    found = [FoundItem(item, reported=True) for item in report.items]
    where = run_dir or (Path(report.run_dir) if report.run_dir else None)
    if where is None:
        return found
    store = RunStore(where)
    if not store.exists():
        return found
    try:
        state = store.load()
    except StateError as exc:
        logger.warning("only the report's items are recorded from %s: %s", where, exc)
        return found
    # The report merged the works it found on several sites (`also_at`): their collected copies are that work.
    reported_at = {url: item for item in report.items for url in (item.url, *item.also_at)}
    collected = [item for web in state.web_contexts.values() for item in web.items()]
    collected.sort(key=lambda item: -item.score)
    found.extend(
        FoundItem(_as_report_item(item, rank, reported_at.get(item.url)), reported=False)
        for rank, item in enumerate(collected, len(found) + 1)
    )
    return found


def _as_report_item(item: CollectedItem, rank: int, work: ReportItem | None) -> ReportItem:
    """`item` as a report item; one the report merged into `work` carries that work's identity (its DOI, title
    and authors as read from its page), with its own URL, site and page."""
    if work is not None:
        return work.model_copy(
            update={
                "rank": rank,
                "url": item.url,
                "site": item.site,
                "found_on": item.found_on,
                "collector_score": item.score,
                "also_at": [],
            }
        )
    return ReportItem(
        rank=rank,
        title=item.title,
        url=item.url,
        site=item.site,
        found_on=item.found_on,
        description=item.description,
        collector_score=item.score,
        date=item.date,
        metadata_sources={"title": COLLECTOR_SOURCE, **({"date": COLLECTOR_SOURCE} if item.date else {})},
    )
