"""Lines under a headline that read like a byline and are none: a press release's dateline place on a line of its own
("GENEVA, SWITZERLAND", a town and its country, not "Doe, Jane"), and a gallery's or a playlist's captions set as a
run of headings under the headline ("Jane Roe 100 backstroke" / "John Doe North Diving" / "Ben Poe Trinity").

Each page below is written for the test in the shape of a kind of real page; none is a copy of one.
"""

from __future__ import annotations

import pytest

from research_crawler.pages.dateline_places import names_a_dateline_place
from research_crawler.pages.metadata import read_item_metadata
from research_crawler.pages.person_names import is_person_name, split_people

URL = "https://news.example.org/2019/08/20/story"
TEXT = "<p>" + "A sentence of the article that goes on for a while to make a paragraph of it. " * 4 + "</p>"


def _page(body: str, *, title: str = "") -> str:
    return f"<!doctype html><html><head><title>{title}</title></head><body>{body}</body></html>"


@pytest.mark.parametrize(
    "place", ["GENEVA, SWITZERLAND", "Lucerne, Switzerland", "OSLO, Norway", "AMMAN, Jordan", "ZÜRICH, Schweiz"]
)
def test_a_town_and_its_country_is_a_place_not_a_name_written_surname_first(place: str) -> None:
    assert names_a_dateline_place(place)
    assert not is_person_name(place) and split_people(place) == []


@pytest.mark.parametrize("name", ["Smith, Jordan", "Doe, Jane", "Roe, J.", "Lee, Min"])
def test_a_surname_and_a_given_name_stays_a_person(name: str) -> None:
    """A country's name that is also a given name ("Jordan") is a place only after a town in capitals."""
    assert not names_a_dateline_place(name)
    assert split_people(name) == [name]


def test_a_press_releases_dateline_place_under_its_date_is_no_writer() -> None:
    html = _page(
        "<h1>Example Corp opens a new plant in the north of the country</h1><p>August 23, 2018</p>"
        "<p>The new plant will build parts for the company's machines and employ two hundred people.</p>"
        f"<p>GENEVA, SWITZERLAND</p>{TEXT}"
    )
    found = read_item_metadata(html, url=URL)
    assert found.authors == []


def test_a_byline_with_its_town_and_country_keeps_the_writer() -> None:
    html = _page(f"<h1>Example Corp opens a new plant</h1><p>By Jane Doe</p><p>GENEVA, SWITZERLAND</p>{TEXT}")
    assert read_item_metadata(html, url=URL).authors == ["Jane Doe"]


def test_a_run_of_caption_headings_under_the_headline_is_no_byline() -> None:
    tiles = "".join(
        f'<a href="#clip{number}"><img src="clip{number}.jpg" alt=""><h5>{caption}</h5></a>'
        for number, caption in enumerate(["Jane Roe 100 backstroke", "John Doe North Diving", "Ben Poe Trinity"])
    )
    html = _page(f"<h1>State Swim Results</h1>{tiles}<p>Posted: Fri 6:45 PM, Feb 16, 2018</p>{TEXT}")
    assert read_item_metadata(html, url=URL).authors == []


def test_a_byline_set_as_a_heading_of_its_own_is_read() -> None:
    html = _page(f"<h1>State Swim Results</h1><h5>John Doe</h5><p>Posted: Fri 6:45 PM, Feb 16, 2018</p>{TEXT}")
    assert read_item_metadata(html, url=URL).authors == ["John Doe"]


def test_a_heading_byline_over_its_affiliation_and_date_headings_stays_a_byline() -> None:
    """A run of headings whose every line is a byline's (a name, an affiliation, a date) is no run of captions."""
    html = _page(
        f"<h1>State Swim Results</h1><h4>Jane Roe</h4><h4>Westfield University</h4><h4>February 16, 2018</h4>{TEXT}"
    )
    assert read_item_metadata(html, url=URL).authors == ["Jane Roe"]
