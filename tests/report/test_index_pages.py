"""A page that plainly lists other works is never reported as one (a model may take a journal's name for a paper's)."""

from __future__ import annotations

from research_crawler.pages.metadata import ItemMetadata
from research_crawler.report.index_pages import index_page_reason

SITE = "https://society.example.org"
JOURNAL = f"{SITE}/journal/marine-science"


def test_a_journals_list_of_volumes_is_no_item() -> None:
    links = [f"{SITE}/", f"{SITE}/about", *(f"{JOURNAL}/volume/{year}" for year in (2023, 2024, 2025))]
    reason = index_page_reason(JOURNAL, links, ItemMetadata(title="Halden Journal of Marine Science", date="2024"))
    assert reason is not None and "3 pages below it" in reason


def test_a_page_other_items_were_found_on_is_no_item() -> None:
    meta = ItemMetadata(title="Working papers, page 2", authors=["A. Okafor"])
    assert index_page_reason(f"{SITE}/papers?page=2", [], meta, listed_on=[f"{SITE}/papers?page=2"]) is not None


def test_an_article_with_its_files_below_it_is_an_item() -> None:
    article = f"{SITE}/paper/123"
    files = [f"{article}/fulltext.pdf", f"{article}/figure-1", f"{article}/supplement"]
    assert index_page_reason(article, files, ItemMetadata(title="Coral Bleaching")) is None
    figures = [f"{article}/figure-{n}" for n in range(1, 6)]
    with_authors = ItemMetadata(title="Coral Bleaching", authors=["Ines Novak"])
    assert index_page_reason(article, figures, with_authors) is None  # an item's own figures, with its byline
    assert index_page_reason(article, figures, ItemMetadata(title="Coral Bleaching", abstract="Corals bleach…")) is None
