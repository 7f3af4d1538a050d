"""The people a listing's entry shows beside one of its links: under a title, or before it in a reference."""

from __future__ import annotations

from research_crawler.pages.entry_bylines import entry_people
from research_crawler.pages.page import Link

CATALOG = """[1] Subjects · [2] Catalogs · [3] About
# Spring catalog
### [4] Twopenny Seats
Ticket Prices in Buenos Aires
Chen Suzuki, Amélie Fischer, et al.
Hardcover · Apr 2025
### [5] Holy Miles
Hannah Fischer and Olusegun Ali
"""
REFERENCES = """  * [1] Papers from 2024
    * [2] When Hillsides Give Way
# Papers from 2024
Hussain, A., Sato, L., & Brown, S. (2024). [2] When Hillsides Give Way. _Earth Surface Letters_ , 16(1), 1–23. [3] https://doi.org/10.1/x
"""


def link(number: int, text: str) -> Link:
    return Link(id=number, url=f"https://press.test/{number}", text=text, same_site=True)


def test_the_byline_under_a_title_is_its_entrys_and_stops_at_the_next_entry() -> None:
    assert entry_people(CATALOG, link(4, "Twopenny Seats")) == ["Chen Suzuki", "Amélie Fischer"]
    assert entry_people(CATALOG, link(5, "Holy Miles")) == ["Hannah Fischer", "Olusegun Ali"]


def test_a_references_names_before_its_title_are_its_entrys_though_a_menu_shows_the_title_first() -> None:
    assert entry_people(REFERENCES, link(2, "When Hillsides Give Way")) == ["Hussain, A.", "Sato, L.", "Brown, S."]


def test_a_menus_links_and_a_title_whose_entry_shows_no_names_have_none() -> None:
    assert entry_people(CATALOG, link(2, "Catalogs")) == []
    assert entry_people(REFERENCES, link(1, "Papers from 2024")) == []
    assert entry_people(CATALOG, link(9, "Not on the page")) == []
