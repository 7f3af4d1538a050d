"""Helpers of the library tests: reports and found items made by hand (no crawl needed)."""

from __future__ import annotations

from collections.abc import Sequence

from research_crawler.library.found_items import FoundItem
from research_crawler.report.models import Report, ReportItem, SiteSummary


def paper(
    title: str,
    *,
    url: str,
    site: str = "https://site-a.example/",
    authors: Sequence[str] = ("Ada Lovelace",),
    doi: str | None = None,
    date: str | None = "2025-03-01",
) -> ReportItem:
    """A reported paper found on `site`'s front page."""
    return ReportItem(
        rank=1,
        title=title,
        url=url,
        site=site,
        found_on=site,
        collector_score=8.0,
        authors=list(authors),
        doi=doi,
        date=date,
        metadata_sources={"title": "citation_title", "authors": "citation_author", "date": "citation_date"},
    )


def report_of(query: str, items: Sequence[ReportItem], *, run_dir: str = "runs/r1") -> Report:
    """A finished report of `items` (ranks renumbered)."""
    ranked = [item.model_copy(update={"rank": rank}) for rank, item in enumerate(items, 1)]
    sites = sorted({item.site for item in items})
    return Report(
        query=query,
        simulated_model=True,
        items=ranked,
        sites=[SiteSummary(name=site, url=site, reason="completed") for site in sites],
        run_dir=run_dir,
        stop_reason="all_sites_done",
    )


def reported(items: Sequence[ReportItem]) -> list[FoundItem]:
    return [FoundItem(item, reported=True) for item in items]
