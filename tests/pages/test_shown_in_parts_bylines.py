"""Writers as the page corpus's twenty-second batch (Firefox Reader View's test pages) showed them: a name with the
initials or nickname its writer goes by in brackets or quotes, a dateline that gives the time after its date and
then "BY" a desk's credit in capitals, and a headline the page shows again in parts, a heading each, over its
dateline — the first part a person's name that is no byline.

Each page below is written for the test in the shape of a kind of real page; none is a copy of one.
"""

from __future__ import annotations

import pytest

from research_crawler.pages.bylines import dated_people
from research_crawler.pages.metadata import read_item_metadata
from research_crawler.pages.person_names import split_people, surname

URL = "https://news.example.org/2015/02/26/story"
TEXT = "<p>" + "A sentence of the article that goes on for a while to make a paragraph of it. " * 4 + "</p>"


def _page(body: str, *, title: str = "", head: str = "") -> str:
    return f"<!doctype html><html><head><title>{title}</title>{head}</head><body>{body}</body></html>"


@pytest.mark.parametrize(
    ("written", "names", "family"),
    [
        ("Richard (R.J.) Roe", ["Richard (R.J.) Roe"], "Roe"),
        ('William "Bill" Doe', ['William "Bill" Doe'], "Doe"),
        ("Mary (M.K.) Roe and Jane Doe", ["Mary (M.K.) Roe", "Jane Doe"], "Roe"),
    ],
)
def test_a_name_with_the_initials_or_nickname_its_writer_goes_by_is_one_name(
    written: str, names: list[str], family: str
) -> None:
    assert split_people(written) == names and surname(names[0]) == family


@pytest.mark.parametrize("written", ["(Jane) Doe Roe", "Jane Doe (Reuters) Weekly Desk News", "Jane (2019) Doe"])
def test_brackets_that_are_no_middle_name_make_no_name_of_them(written: str) -> None:
    assert split_people(written) != [written]


def test_a_byline_in_a_marked_element_with_a_bracketed_middle_name_is_read() -> None:
    body = (
        '<h1>The sharing economy, explained</h1><span class="byline"><a rel="author" href="/writer/roe">'
        "Richard (R.J.) Roe</a></span><p>Feb 1, 2015</p>" + TEXT
    )
    found = read_item_metadata(_page(body, title="The sharing economy, explained"), url=URL)
    assert found.authors == ["Richard (R.J.) Roe"]


@pytest.mark.parametrize(
    ("line", "names"),
    [
        ("2/26/2015 7:11 AM PST BY EXAMPLE STAFF", ["EXAMPLE STAFF"]),
        ("2/26/2015 7:11 AM PST BY Jane Doe", ["Jane Doe"]),
        ("23.06.2016 16:14 Uhr von Markus Roe", ["Markus Roe"]),
        ("March 3, 2015 7:11 pm Sports News", []),
    ],
)
def test_a_dateline_with_its_time_before_its_by_names_the_writer(line: str, names: list[str]) -> None:
    assert dated_people(line) == names


def test_a_headline_shown_again_in_parts_is_no_byline_and_the_dateline_under_it_is() -> None:
    body = (
        "<header><h1>Jane Example's Pearl Dress -- STOLEN!!!</h1></header>"
        "<article><h2>Jane Example</h2><h4>Pearl Dress ... STOLEN!!!</h4>"
        "<h5>2/26/2015 7:11 AM PST BY EXAMPLE STAFF</h5>" + TEXT + "</article>"
    )
    found = read_item_metadata(_page(body, title="Jane Example's Pearl Dress -- STOLEN!!!"), url=URL)
    assert (found.authors, found.date) == (["EXAMPLE STAFF"], "2015-02-26")
