"""Dates written year first, as NLM/PubMed and the literature databases built on it date a record: "2024 Mar 12"
(a day), "2024 Mar" (a month), "2024 Mar-Apr" (a double issue: its first month, as PubMed dates it) and "2024
Spring" (a season: the year).

Each page below is written for the test in the shape of a kind of page; none is a copy of a real one.
"""

from __future__ import annotations

import pytest

from research_crawler.pages.item_dates import dates_in_text, tag_date
from research_crawler.pages.metadata import read_item_metadata

URL = "https://literature.example.org/preprints/PPR000123"
TITLE = "Soil microbes shift under repeated drought in alpine meadows"


@pytest.mark.parametrize(
    ("text", "day"),
    [
        ("Posted: 2024 Mar 12", "2024-03-12"),
        ("Epub 2024 Mar 12.", "2024-03-12"),  # a word before the year is no month: the year begins the date
        ("J Soil Ecol. 2023 Sept 3;12(4):101-9.", "2023-09-03"),
        ("Published: 2024 Mar", "2024-03"),
        ("2024 Mar-Apr;18(2):33-41", "2024-03"),
        ("Issue: 2024 Spring", "2024"),
    ],
)
def test_a_year_first_date_is_read_at_the_precision_written(text: str, day: str) -> None:
    assert dates_in_text(text) == [day]


@pytest.mark.parametrize(
    ("value", "day"),
    [("2024 Mar 12", "2024-03-12"), ("2024 Mar", "2024-03"), ("2024 Mar-Apr", "2024-03"), ("2024 Spring", "2024")],
)
def test_a_tags_year_first_date_is_read(value: str, day: str) -> None:
    assert tag_date(value) == day


@pytest.mark.parametrize(
    "text",
    [
        "the 2017 May government fell",  # a year and a name, not a month ending its phrase
        "tickets for the 2024 Summer Olympics",
    ],
)
def test_a_year_before_a_capitalised_word_in_a_sentence_is_no_date(text: str) -> None:
    assert dates_in_text(text) == []


def test_a_year_that_ends_a_copyright_before_a_date_does_not_take_its_month() -> None:
    assert dates_in_text("Copyright 2016 March 3, 2017") == ["2017-03-03"]


def test_a_preprint_record_posted_year_first_is_dated() -> None:
    html = (
        f"<!doctype html><html><head><title>{TITLE} | Example Literature</title></head><body>"
        '<nav><a href="/">Search</a> <a href="/about">About</a></nav><main>'
        f"<p>Preprint</p><h1>{TITLE}</h1><p>Ana Ruiz, Tom Berg</p><p>Posted: 2024 Mar 12</p>"
        "<h2>Abstract</h2><p>"
        + "Repeated drought changed the soil community of alpine meadows in a way. " * 4
        + "</p></main><footer>Example Literature</footer></body></html>"
    )
    item = read_item_metadata(html, url=URL)
    assert (item.title, item.date) == (TITLE, "2024-03-12")
