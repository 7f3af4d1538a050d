"""On a deep site the Planner sees where each short link was found ("2024 (on: Physics)"), and among links judged
equally promising those of the page read last come first: it goes on down the branch it is on (subject → year →
month) before going back up."""

from __future__ import annotations

from research_crawler.context.graph import NavigationGraph
from research_crawler.context.web_context import WebContext
from research_crawler.tools.hints import HintState
from research_crawler.tools.navigation import get_top_urls

SITE = "https://archive.example/"
STATE = HintState(subpages_left=3, items_collected=0)


def test_equal_links_of_the_page_read_last_come_first_in_its_order() -> None:
    web = WebContext.for_site(SITE)
    web.take(SITE)
    web.add_url(SITE + "physics", 3.0, anchor_text="Physics", found_on=SITE)
    web.add_url(SITE + "biology", 3.0, anchor_text="Biology", found_on=SITE)
    web.take(SITE + "physics")
    web.add_url(SITE + "physics/2025", 3.0, anchor_text="2025", found_on=SITE + "physics")
    web.add_url(SITE + "physics/2024", 3.0, anchor_text="2024", found_on=SITE + "physics")
    web.add_url(SITE + "physics/news", 1.0, anchor_text="News", found_on=SITE + "physics")
    assert [p.url for p in web.top_urls(5)] == [
        SITE + "physics/2025",  # down the branch, in the page's order
        SITE + "physics/2024",
        SITE + "biology",  # then back up
        SITE + "physics/news",  # a better score still wins over a later page
    ]


def test_short_anchors_below_the_start_page_say_where_they_were() -> None:
    web = WebContext.for_site(SITE)
    web.take(SITE)
    web.add_url(SITE + "physics", 5.0, anchor_text="Physics", found_on=SITE)
    web.add_url(SITE + "cs/2024", 4.0, anchor_text="2024", found_on=SITE + "cs")
    web.add_url(SITE + "cs/best", 4.0, anchor_text="The best papers of the year", found_on=SITE + "cs")
    graph = NavigationGraph()
    graph.add_page(SITE + "cs", determination="ok", title="Computer Science — browse by year")
    lines = get_top_urls(web, 5, state=STATE, page_titles=graph.title).message.splitlines()
    assert "1. /physics — Physics" in lines  # found on the start page: nothing to add
    assert "2. /cs/2024 — 2024 (on: Computer Science — browse by year)" in lines
    assert "3. /cs/best — The best papers of the year" in lines  # a long anchor says enough
