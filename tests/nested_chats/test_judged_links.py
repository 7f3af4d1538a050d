"""Links the Crawler judged on a site's earlier pages: hidden again only as they were seen."""

from __future__ import annotations

from research_crawler.nested_chats.judged_links import JudgedLinks

YEAR = "https://lab.example/papers/2024/"
GUIDE = "https://lab.example/guide/"


def test_a_link_judged_in_the_menu_is_judged_again_where_a_page_lists_it_as_its_own() -> None:
    judged = JudgedLinks()
    judged.note([YEAR, GUIDE], menu={YEAR})  # the start page: the year in the sidebar, the guide in its text
    assert judged.covers(YEAR, menu={YEAR}), "the menu again: judged once"
    assert not judged.covers(YEAR, menu=set()), "among this page's own links: judged anew"
    assert judged.covers(GUIDE, menu=set()) and judged.covers(GUIDE, menu={GUIDE})


def test_once_judged_among_a_pages_own_links_it_is_not_shown_again() -> None:
    judged = JudgedLinks()
    judged.note([YEAR], menu={YEAR})
    judged.note([YEAR], menu=set())
    assert judged.covers(YEAR, menu=set()) and judged.covers(YEAR, menu={YEAR})
    assert judged.menu == set() and judged.own == {YEAR}
