"""The Crawler's link view with the site's repeated navigation shown once."""

from __future__ import annotations

from research_crawler.pages.page import Link
from research_crawler.pages.view import PageView, link_view


def view() -> PageView:
    links = [
        Link(id=1, url="https://site.example/about", text="About", same_site=True),
        Link(id=2, url="https://site.example/list/cs", text="Computer science", same_site=True, context="browse"),
        Link(id=3, url="https://site.example/abs/1", text="Graph networks", same_site=True, context="new paper"),
        Link(id=4, url="https://site.example/help", text="Help", same_site=True),
    ]
    return PageView(title="Listing", markdown="", links=links, base_url="https://site.example/list/cs")


def test_links_shown_before_are_counted_not_listed_and_numbers_do_not_move() -> None:
    text = link_view(view(), already_shown={"https://site.example/about", "https://site.example/help"})
    assert text.splitlines() == [
        "# Listing",
        "[2] Computer science — browse",
        "[3] Graph networks — new paper",
        "(2 links already shown on earlier pages of this site are left out)",
    ]


def test_nothing_seen_shows_every_link_without_a_count_line() -> None:
    text = link_view(view())
    assert "[1] About" in text and "[4] Help" in text and "left out" not in text
    assert link_view(view(), already_shown={"https://elsewhere.example/about"}) == text
