"""A listing paged by number: its page read from its address, its next page found among its links."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from research_crawler.context.pagination import listing_position, narrows_listing, next_listing_page, reorders_listing

SITE = "https://papers.example.org"


@dataclass(frozen=True)
class Link:
    url: str
    text: str


@pytest.mark.parametrize(
    ("url", "expected"),
    [
        (f"{SITE}/papers?page=3", (f"{SITE}/papers", 3)),
        (f"{SITE}/list/cs?show=25&skip=50", (f"{SITE}/list/cs?show=25", 50)),
        (f"{SITE}/blog/page/4/", (f"{SITE}/blog", 4)),
        (f"{SITE}/search?q=coral&start=20", (f"{SITE}/search?q=coral", 20)),
        (f"{SITE}/?p=123", None),  # WordPress names a post so, not a page of a listing
        (f"{SITE}/papers?page=last", None),
        (f"{SITE}/papers/wp2025-004", None),
        # a parameter named for the page in another way numbers it too, one that sizes the page does not
        (f"{SITE}/browse.cfm?journal_id=7&npage=2", (f"{SITE}/browse.cfm?journal_id=7", 2)),
        (f"{SITE}/list?currentPage=3", (f"{SITE}/list", 3)),
        (f"{SITE}/list?pageSize=50", None),
        (f"{SITE}/list?per_page=50", None),
        (f"{SITE}/list?pageIndex=4", (f"{SITE}/list", 4)),
        (f"{SITE}/pages/viewpage.action?pageId=98213", None),  # Confluence names a page of the wiki so
        (f"{SITE}/?page_id=42", None),  # and WordPress a static page
        (f"{SITE}/diff.action?pageId=7&selectedPageVersions=2", None),
    ],
)
def test_a_listing_page_is_read_from_its_address(url: str, expected: tuple[str, int] | None) -> None:
    assert listing_position(url) == expected


def test_the_pagers_next_link_comes_before_the_numbers() -> None:
    links = [
        Link(f"{SITE}/papers/wp1", "Antibiotic Discovery by Substructure Search"),
        Link(f"{SITE}/papers?page=1", "1"),
        Link(f"{SITE}/papers?page=4", "4"),
        Link(f"{SITE}/papers?page=3", "Next ›"),
    ]
    assert next_listing_page(f"{SITE}/papers?page=2", links) == links[3]


def test_without_a_next_link_the_nearest_numbered_page_after_this_one() -> None:
    links = [Link(f"{SITE}/papers?page=1", "1"), Link(f"{SITE}/papers?page=4", "4"), Link(f"{SITE}/papers?page=3", "3")]
    assert next_listing_page(f"{SITE}/papers?page=2", links) == links[2]
    first = [Link(f"{SITE}/list?skip=20", "21-30"), Link(f"{SITE}/list?skip=10", "11-20")]
    assert next_listing_page(f"{SITE}/list", first) == first[1]  # a page that names none is the first


def test_an_older_entries_link_continues_a_home_pages_list() -> None:
    links = [Link(f"{SITE}/about", "About"), Link(f"{SITE}/papers?page=2", "Older working papers")]
    assert next_listing_page(f"{SITE}/", links) == links[1]


def test_no_next_page_on_the_last_page_nor_on_a_page_of_another_listing() -> None:
    last = [Link(f"{SITE}/papers?page=1", "1"), Link(f"{SITE}/papers?page=2", "‹ Previous")]
    assert next_listing_page(f"{SITE}/papers?page=3", last) is None
    other = [Link(f"{SITE}/search?q=smoke&page=2", "2")]  # a number of another listing says nothing of this one
    assert next_listing_page(f"{SITE}/papers?page=1", other) is None
    assert next_listing_page(f"{SITE}/papers/wp1", [Link(f"{SITE}/papers/wp2", "Next ›")]) is None  # an article's


@pytest.mark.parametrize(
    ("link", "narrows"),
    [
        (f"{SITE}/search?q=coral&filter=year%3A2024", True),  # a facet
        (f"{SITE}/search?filter=year%3A2024&q=coral&sort=date", True),  # in any order, and a sort
        (f"{SITE}/search?q=coral&rows=100", False),  # a page size shows more, not fewer
        (f"{SITE}/search?q=coral&page=2", False),  # another page of it
        (f"{SITE}/search?q=reef", False),  # another search
        (f"{SITE}/search", False),  # the filter removed: a wider list
        (f"{SITE}/browse?q=coral&filter=x", False),  # another address
    ],
)
def test_a_link_that_narrows_a_listing_is_its_address_with_a_filter_added(link: str, narrows: bool) -> None:
    assert narrows_listing(f"{SITE}/search?q=coral", link) is narrows
    assert narrows_listing(f"{SITE}/", f"{SITE}/?subject=reefs") is False  # a page with no query is no result list


def test_another_page_of_a_listing_named_by_its_own_parameter_narrows_nothing() -> None:
    journal = f"{SITE}/browse.cfm?form=browse&journal_id=7"
    assert narrows_listing(journal, f"{journal}&npage=2") is False
    links = [Link(f"{journal}&npage=2", "2"), Link(f"{journal}&npage=2", "Next")]
    assert next_listing_page(journal, links) == links[1]


def test_a_parameter_the_current_tab_adds_switches_views_and_narrows_nothing() -> None:
    venue = f"{SITE}/group?id=venue-2025"
    shown = f"{venue}&tab=accepted"  # the tab the page marks as the one it shows
    assert narrows_listing(venue, f"{venue}&tab=rejected") is True  # without the mark: a filter
    assert narrows_listing(venue, f"{venue}&tab=rejected", views=[shown]) is False
    assert narrows_listing(venue, f"{venue}&sort=date", views=[shown]) is True  # another parameter still narrows


def test_a_link_that_only_changes_the_order_reorders_the_listing() -> None:
    page = "http://index.test/browse/ethics"
    assert reorders_listing(page, f"{page}?sort=pubYear")
    assert reorders_listing(f"{page}?sort=title", f"{page}?sort=date&order=desc")
    assert reorders_listing(f"{page}?q=luck&sort_by=title", f"{page}?q=luck&sort_by=date")
    # another page, a filter, another category or the same address are no re-ordering
    assert not reorders_listing(page, f"{page}?start=10&sort=pubYear")
    assert not reorders_listing(page, f"{page}?year=2024")
    assert not reorders_listing(page, "http://index.test/browse/logic?sort=pubYear")
    assert not reorders_listing(f"{page}?sort=date", f"{page}?sort=date")
    assert not reorders_listing(page, f"{page}?order_id=7")
