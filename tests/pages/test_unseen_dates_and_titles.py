"""Dates and titles read off kinds of page the reader had not seen: a day written with "de" between its parts
(Spanish, Portuguese); the publication day htmldate finds, where the page writes it before a later event's label
("Posted: … | Last Updated: …"); and a line under the headline that only begins the site's name the <title> ends
with, which is no subtitle.

Each page below is written for the test in the shape of a kind of page; none is a copy of a real one.
"""

from __future__ import annotations

import pytest

from research_crawler.pages.item_dates import dates_in_text
from research_crawler.pages.metadata import read_item_metadata

URL = "https://news.example.com/world/harbour-reopens"
TITLE = "The old harbour reopens after ten years of works"
PARAGRAPH = "<p>" + "The harbour that closed a decade ago took its first ships again this week, to relief. " * 3
PARAGRAPH += "</p>"


def _page(body: str, *, head: str = "", title_element: str = f"{TITLE} - Example News") -> str:
    return (
        f"<!doctype html><html><head><title>{title_element}</title>{head}</head><body>"
        f'<nav><a href="/">Home</a> <a href="/world">World</a></nav><main><h1>{TITLE}</h1>{body}</main>'
        "<footer>Example News</footer></body></html>"
    )


@pytest.mark.parametrize(
    ("text", "day"),
    [
        ("3 de junio de 202210:09", "2022-06-03"),  # a time set right after the year
        ("Publicado el 14 de março de 2021", "2021-03-14"),
        ("Viernes, 30 de abril de 2021", "2021-04-30"),
        ("junio de 2022", "2022-06"),
    ],
)
def test_a_day_written_with_de_between_its_parts_is_read(text: str, day: str) -> None:
    assert dates_in_text(text) == [day]


def test_a_word_before_de_and_a_year_is_no_date() -> None:
    assert dates_in_text("El Acuerdo de 2020 sigue vigente") == []


def test_a_spanish_dateline_under_the_title_dates_the_item() -> None:
    assert read_item_metadata(_page("<p>3 de junio de 2022 10:09</p>" + PARAGRAPH), url=URL).date == "2022-06-03"


def test_the_posted_day_before_a_last_update_label_confirms_htmldates_day() -> None:
    """The dateline sits far below the headline (past the header), and names the day "Posted:" before its last
    update: the day htmldate reads from the page's publication tag is the day the page shows posted."""
    head = '<meta property="article:published_time" content="2019-07-30T17:05:28Z">'
    body = PARAGRAPH * 12 + "<p>Example News · Posted: Jul 30, 2019 1:05 PM ET | Last Updated: July 31, 2019</p>"
    item = read_item_metadata(_page(body, head=head), url=URL)
    assert item.date == "2019-07-30"


def test_a_line_that_only_begins_the_sites_name_is_no_subtitle() -> None:
    """<title>Headline - Example Daily Newspaper</title>: the "Example Daily" under the headline is the site's
    credit, not a subtitle the <title> joins to it (it ends inside the <title>'s last part)."""
    html = _page("<p>Example Daily</p>" + PARAGRAPH, title_element=f"{TITLE} - Example Daily Newspaper")
    assert read_item_metadata(html, url=URL).title == TITLE


def test_a_subtitle_the_title_element_writes_whole_is_kept() -> None:
    subtitle = "Ships return to the quay"
    html = _page(f"<p>{subtitle}</p>" + PARAGRAPH, title_element=f"{TITLE}: {subtitle} - Example News")
    assert read_item_metadata(html, url=URL).title == f"{TITLE}: {subtitle}"


def _json_ld_dated(day: str) -> str:
    data = f'{{"@type": "NewsArticle", "headline": "{TITLE}", "datePublished": "{day}T08:00:00+05:30"}}'
    return f'<script type="application/ld+json">{data}</script>'


def test_a_last_update_the_page_shows_beats_a_json_ld_day_it_shows_nowhere() -> None:
    """The only date under the headline is the last update's; the JSON-LD's earlier day is written nowhere: a
    reader is given the update."""
    body = "<p>Updated on Jul 21, 2022, 19:28 IST - 7 min read</p>" + PARAGRAPH
    item = read_item_metadata(_page(body, head=_json_ld_dated("2022-03-01")), url=URL)
    assert item.date == "2022-07-21"


def test_a_json_ld_day_the_page_also_writes_stays_beside_its_update() -> None:
    body = "<p>Updated on Jul 21, 2022</p>" + PARAGRAPH + "<p>First published on 1 March 2022.</p>"
    assert read_item_metadata(_page(body, head=_json_ld_dated("2022-03-01")), url=URL).date == "2022-03-01"
