"""A number with a unit after it is a quantity, never a year: a reading time glued to a day written without its
year ("Mar 9" and "12 min read" set side by side), a recipe's calories. Each page below is written for the test in
the shape of a kind of page; none is a copy of a real one."""

from __future__ import annotations

import pytest

from research_crawler.pages.item_dates import dates_in_text
from research_crawler.pages.metadata import read_item_metadata
from research_crawler.pages.quantities import is_quantity

URL = "https://blog.example.org/notes/soup-for-winter"
TITLE = "A soup for the long winter evenings"
PARAGRAPH = "<p>" + "Slow cooking brings the roots and the beans together into something warm and filling. " * 3
PARAGRAPH += "</p>"


def _page(body: str) -> str:
    return (
        f"<!doctype html><html><head><title>{TITLE} | Example Notes</title></head><body>"
        f'<nav><a href="/">Home</a></nav><main><h1>{TITLE}</h1>{body}</main><footer>Example Notes</footer>'
        "</body></html>"
    )


@pytest.mark.parametrize(
    ("text", "dates"),
    [
        ("Mar 1912 min read", []),  # "Mar 19" glued to "12 min read": no year is written
        ("Oct 2015 mins", []),
        ("Energy per serving 1850 kcal.", []),
        ("Дневная норма 1750 ккал", []),
        ("Mar 19, 2016 · 12 min read", ["2016-03-19"]),  # the day with its year, then the reading time
        ("May 3, 2015 Views: 120", ["2015-05-03"]),  # a counter's label after the year is no unit
        ("Published in 2011", ["2011"]),
    ],
)
def test_a_number_with_its_unit_is_no_year(text: str, dates: list[str]) -> None:
    assert dates_in_text(text, bare_years=True) == dates


def test_is_quantity_reads_the_unit_after_the_number() -> None:
    assert is_quantity("walk 2000 km.", len("walk 2000"))
    assert not is_quantity("Spring 2000 Minister", len("Spring 2000"))  # a word that only begins like a unit
    assert not is_quantity("Season 2000 min: 3", len("Season 2000"))  # a label, not a unit


def test_a_reading_time_glued_to_a_day_without_its_year_dates_nothing() -> None:
    page = _page(f"<p>Ann Example</p><p>Mar 1912 min read</p>{PARAGRAPH}")
    assert read_item_metadata(page, url=URL).date is None


def test_calories_by_the_title_date_nothing() -> None:
    page = _page(f"<p>Energy: 1850 kcal</p>{PARAGRAPH}")
    assert read_item_metadata(page, url=URL).date is None
