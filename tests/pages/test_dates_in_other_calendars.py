"""A day a page shows in another calendar than the Gregorian: an Iranian news page shows its story's day only in
the Solar Hijri calendar ("31 اردیبهشت 1403"), an Arabic one in the Hijri calendar beside no Gregorian day, a
Taiwanese one in the Minguo calendar ("民國113年5月20日"). A JSON-LD datePublished that converts to the day shown is
a day the page shows, so it is read; one that converts to no day shown is still a stamp written nowhere.

Each page below is written for the test in the shape of a kind of page; none is a copy of a real one.
"""

from __future__ import annotations

import json

import pytest

from research_crawler.pages.metadata import read_item_metadata
from research_crawler.pages.other_calendars import calendar_days
from research_crawler.pages.written_dates import hidden_text

URL = "https://news.example.com/story/7781"
PARAGRAPH = "<p>" + "The club's appeal was heard by the committee, which suspended the ban until a later hearing. " * 3
PARAGRAPH += "</p>"


def _page(heading: str, dateline: str, published: str) -> str:
    data = {"@context": "https://schema.org", "@type": "NewsArticle", "headline": heading, "datePublished": published}
    return (
        f'<!doctype html><html><head><title>{heading}</title><script type="application/ld+json">{json.dumps(data)}'
        f'</script></head><body><nav><a href="/">Home</a> <a href="/football">Football</a></nav><main>'
        f'<h1>{heading}</h1><div class="info"><span>Code: 2022643 | </span><span>{dateline} | </span></div>{PARAGRAPH}'
        "</main><footer><p>All rights reserved</p></footer></body></html>"
    )


@pytest.mark.parametrize(
    ("dateline", "day"),
    [
        ("31 اردیبهشت 1403 ساعت 12:22", "2024-05-20"),  # Solar Hijri, Western digits, with the time
        ("۳۱ اردیبهشت ۱۴۰۳", "2024-05-20"),  # Solar Hijri, Persian digits
        ("الاثنين 12 ذو القعدة 1445 هـ", "2024-05-20"),  # Hijri, with its weekday and the era's sign
        ("民國113年5月20日 08:36", "2024-05-20"),  # Minguo
    ],
)
def test_a_json_ld_day_the_page_shows_in_another_calendar_is_read(dateline: str, day: str) -> None:
    item = read_item_metadata(_page("محرومیت مربی به حالت تعلیق درآمد", dateline, f"{day}T08:52:32Z"), url=URL)
    assert item.date == day


def test_a_json_ld_day_that_converts_to_no_day_the_page_shows_is_still_a_stamp() -> None:
    item = read_item_metadata(
        _page("محرومیت مربی به حالت تعلیق درآمد", "5 خرداد 1403", "2024-05-20T08:52:32Z"), url=URL
    )
    assert item.date is None  # 5 Khordad 1403 is 2024-05-25: the tag's day is written nowhere
    assert "written nowhere" in item.notes["date"]


def test_numbers_and_words_that_are_no_date_of_another_calendar_give_no_day() -> None:
    assert calendar_days("قال 12 شخصا في عام 1400 كان") == []
    assert calendar_days("15 May 2024, 2022643 views") == []


def test_a_hidden_dateline_inside_another_hidden_element_is_read_once() -> None:
    html = (
        '<html><body><div aria-hidden="true">Posted <span class="sr-only">Friday</span> 5 May 2023</div>'
        "<p>Shown text</p></body></html>"
    )
    assert hidden_text(html) == "Posted Friday 5 May 2023"
