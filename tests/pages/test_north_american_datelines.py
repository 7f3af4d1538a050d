"""A slashed numeric date followed by a time in a North American zone ("11/04/2014 08:05 AM PST") is written as
the US and Canada write it, month first; without such a zone, or in another one, a date that allows both orders
stays day first, as the rest of the world writes it.

Each page below is written for the test in the shape of a kind of page; none is a copy of a real one.
"""

from __future__ import annotations

import pytest

from research_crawler.pages.item_dates import dates_in_text
from research_crawler.pages.metadata import read_item_metadata

URL = "https://news.example.com/local/bridge-reopens"
TITLE = "The river bridge reopens to traffic after a long repair"
PARAGRAPH = "<p>" + "Drivers crossed the repaired bridge this morning for the first time in a year, to relief. " * 3
PARAGRAPH += "</p>"


@pytest.mark.parametrize(
    ("text", "day"),
    [
        ("Posted: 11/04/2014 08:05:13 AM PST", "2014-11-04"),
        ("03/10/2015 12:08 am EDT", "2015-03-10"),
        ("05/06/2016 at 9:15 PM CDT", "2016-05-06"),
        ("05/06/2016, 5:30 p.m. ET", "2016-05-06"),
    ],
)
def test_a_slashed_date_with_a_north_american_time_is_month_first(text: str, day: str) -> None:
    assert dates_in_text(text) == [day]


@pytest.mark.parametrize(
    "text", ["05/06/2016", "05/06/2016 10:51 IST", "05/06/2016 8:05 pm CET", "05.06.2016 08:05 PST"]
)
def test_any_other_numeric_date_that_allows_both_orders_stays_day_first(text: str) -> None:
    assert dates_in_text(text) == ["2016-06-05"]


def test_a_dateline_under_the_title_in_pacific_time_dates_the_item() -> None:
    html = (
        f"<!doctype html><html><head><title>{TITLE} - Example Herald</title></head><body>"
        f'<nav><a href="/">Home</a> <a href="/local">Local</a></nav><main><h1>{TITLE}</h1>'
        f"<p>By Dana Lee</p><p>Posted: 05/06/2016 08:05:13 AM PDT</p>{PARAGRAPH}</main>"
        "<footer>Example Herald</footer></body></html>"
    )
    assert read_item_metadata(html, url=URL).date == "2016-05-06"
