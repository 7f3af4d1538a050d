"""What a run did with works, counted against the testbed's ground truth: relevant works reported and read, report
entries that are relevant or wrong (title, year or first author unlike the page's item, or no item at all, as
`bibliographic_match` compares them, apart from the product's readers), works listed twice. A work on two sites (a
preprint and its journal version) is one work: either copy counts for it.

These are issue 26's figures for the unfamiliar web; `unfamiliar_table` pools them over requests.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from pathlib import Path

from pydantic import BaseModel, Field

from research_crawler.eval.addresses import address_key
from research_crawler.eval.bibliographic_match import authors_match, match_words, titles_match, years_match
from research_crawler.eval.evidence import PAGES_DIR
from research_crawler.eval.testbed import Item
from research_crawler.eval.testbed_sites import TestbedSites
from research_crawler.report.models import Report, ReportItem
from research_crawler.web.page_store import PageArchive

__all__ = ["WorkFigures", "entry_problems", "work_figures"]


class WorkFigures(BaseModel):
    """One run's works against the ground truth (counts, so that requests can be pooled)."""

    relevant_works: int = Field(description="Works that answer the request.")
    relevant_works_reported: int = Field(description="Of those, works the report lists (under either copy).")
    relevant_works_read: int = Field(
        description="Relevant works one of whose own pages (either copy's page or PDF) the run fetched and could read."
    )
    entries: int = Field(description="The report's entries.")
    relevant_entries: int = Field(description="Entries that are a copy of a relevant work.")
    wrong_entries: int = Field(
        description="Entries whose title, year or first author differs from the item at their URL, or that are no "
        "item at all (a listing, a citation string)."
    )
    works_twice: int = Field(description="Works the report lists in more than one entry.")


def entry_problems(entry: ReportItem, item: Item | None) -> list[str]:
    """What is wrong with `entry` as a report of `item` (the testbed item at its URL): empty when nothing is."""
    if item is None:
        return ["no item at this address"]
    problems = []
    if not titles_match(entry.title, item.title):
        problems.append(f"title {entry.title!r}, not {item.title!r}")
    if not years_match(entry.date, item.year):
        problems.append(f"date {entry.date or 'none'}, not in {item.year}")
    if not entry.authors or not authors_match(entry.authors[0], item.authors[0]):
        problems.append(f"first author {(entry.authors or ['none'])[0]!r}, not {item.authors[0]!r}")
    return problems


def work_figures(report: Report, sites: TestbedSites, relevant_ids: Sequence[str]) -> WorkFigures:
    """`report`'s works against `relevant_ids` (testbed item ids; copies of one work count as one)."""
    at = {url: item for item in sites.testbed.items if item.site in sites.base_urls for url in sites.urls_of(item)}
    relevant = {sites.testbed.item(item_id).work_id for item_id in relevant_ids}
    found = [at.get(address_key(entry.url)) for entry in report.items]
    works = Counter(item.work_id for item in found if item is not None)
    return WorkFigures(
        relevant_works=len(relevant),
        relevant_works_reported=len(relevant & set(works)),
        relevant_works_read=_works_read(report, sites, relevant),
        entries=len(report.items),
        relevant_entries=sum(1 for item in found if item is not None and item.work_id in relevant),
        wrong_entries=sum(1 for entry, item in zip(report.items, found, strict=True) if entry_problems(entry, item)),
        works_twice=sum(1 for count in works.values() if count > 1),
    )


def _works_read(report: Report, sites: TestbedSites, relevant: set[str]) -> int:
    """Relevant works of which the run fetched a copy's own page and it was that page (not a consent notice or a
    sign-in form in its place), or its PDF."""
    if report.run_dir is None:
        return 0
    archive = PageArchive(Path(report.run_dir) / PAGES_DIR)
    read = 0
    for work in relevant:
        copies = [item for item in sites.testbed.items if item.work_id == work and item.site in sites.base_urls]
        if any(_read(archive, sites, item) for item in copies):
            read += 1
    return read


def _read(archive: PageArchive, sites: TestbedSites, item: Item) -> bool:
    page_url, pdf_url = sites.urls_of(item)
    page = archive.get(page_url)
    if page is not None and page.ok and f" {match_words(item.title)} " in f" {match_words(page.markdown)} ":
        return True
    pdf = archive.get(pdf_url)
    return pdf is not None and pdf.status == 200 and pdf.content_type.startswith("application/pdf")
