"""A register heads a document's page with the record — a label, the document's number and a date ("Bibliographic
data: XY1234567 (A1) ― 2023-06-14") — and shows the work's own title in the heading under it: the work's title is
that heading, not the record's. A heading with words of its own beside a date and a number stays a title.

Each page below is written for the test in the shape of a kind of page; none is a copy of a real one.
"""

from __future__ import annotations

import pytest

from research_crawler.pages.metadata import read_item_metadata
from research_crawler.pages.record_headings import is_record_heading

TITLE = "SELF-HEALING MORTAR WITH ENCAPSULATED SPORES"
FIELDS = (
    "<table><tr><th>Applicant(s):</th><td>Example Building Materials Ltd</td></tr><tr><th>Classification:</th>"
    "<td>C04B28/04</td></tr><tr><th>Priority number(s):</th><td>XY20210012345 20211121</td></tr></table>"
    "<h4>Abstract</h4><p>"
    + "A mortar that closes its own cracks when water reaches the spores it carries. " * 3
    + "</p>"
)


def _register(record: str, *, title: str = TITLE) -> str:
    return (
        "<!doctype html><html><head><title>Example Register - Bibliographic data</title></head><body>"
        '<div id="header"><a href="/">Example Register</a><ul><li><a href="/">Home</a></li><li><a href="/help">Help'
        f'</a></li></ul></div><div id="content"><h2>{record}</h2><h3>{title}</h3>{FIELDS}</div></body></html>'
    )


@pytest.mark.parametrize(
    "record",
    [
        "Bibliographic data: XY4300922 (A1) ― 2023-06-14",
        "Record: XY4300922 B1, 14.06.2023",
        "XY4300922 (A2) 2023-06-14",
    ],
)
def test_the_heading_under_a_records_heading_is_the_works_title(record: str) -> None:
    found = read_item_metadata(_register(record), url="https://register.example.org/publication/XY4300922A1")
    assert found.title == TITLE


def test_a_heading_with_words_of_its_own_is_no_records_heading() -> None:
    assert is_record_heading("Bibliographic data: XY4300922 (A1) ― 2023-06-14")
    assert not is_record_heading("COVID-19 in 2021: a review of 14 March 2022")
    assert not is_record_heading("Annual report 2023-06-14")
    assert not is_record_heading("XY4300922 (A1)")  # no date: a number alone is left to the other rules
