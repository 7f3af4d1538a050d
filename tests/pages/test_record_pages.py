"""Records of archives and registries: a component headed by its title and the day it was made ("Letters of the
mill, 2024 March 12"), a registered study whose writers are its investigators and whose dates are of several
events. The day after the comma is no part of the title; a study's principal investigator is its first author, the
day its results were posted its date, and the register's name is nobody's.

Each page below is written for the test in the shape of a kind of page; none is a copy of a real one.
"""

from __future__ import annotations

import pytest

from research_crawler.pages.metadata import read_item_metadata
from research_crawler.pages.record_headings import without_trailing_date

URL = "https://records.example.org/objects/4021"
TITLE = "Night Shifts in the Combing Sheds of the Upper Valley"


def _page(title: str, body: str, head: str = "") -> str:
    return f"<!doctype html><html><head><title>{title}</title>{head}</head><body>{body}</body></html>"


@pytest.mark.parametrize(
    ("written", "title"),
    [
        (f"{TITLE}, 2024 March 12", TITLE),
        (f"{TITLE}, 12 March 2024", TITLE),
        (f"{TITLE}, March 12, 2024", TITLE),
        (f"{TITLE}, 1850-1914", f"{TITLE}, 1850-1914"),  # a span of years is part of a title
        (f"{TITLE}, May 2024", f"{TITLE}, May 2024"),
        ("Paper, Rock, Scissors", "Paper, Rock, Scissors"),
    ],
)
def test_a_full_date_after_a_comma_is_no_part_of_a_title(written: str, title: str) -> None:
    assert without_trailing_date(written) == title


def test_an_archival_components_heading_gives_its_title_without_its_date() -> None:
    shown = f"{TITLE}, 2023 October 4"
    body = (
        '<div class="breadcrumb"><a href="/">Home</a> › <a href="/coll/3">Mill Records</a></div>'
        f"<h1>{shown}</h1><h2>Dates</h2><p>Creation: 2023 October 4</p><h2>Creator</h2><ul><li>Marsh, Edith "
        "(Person)</li></ul><h2>Scope and Contents</h2><p>Interviews with former combers about the night shifts of "
        "the sheds, the pay and the noise, recorded over two winters.</p>"
    )
    meta = read_item_metadata(_page(f"{shown} | County Archives", body), url=URL)
    assert meta.title == TITLE
    assert meta.date is not None and meta.date.startswith("2023")


def test_a_registered_studys_principal_investigator_is_its_first_author() -> None:
    study = "Balance Classes for Tenants of Sheltered Housing"
    body = (
        '<header><a href="/">Westfield Trials Registry</a></header><main>'
        f"<p>WSR01234</p><h1>{study}</h1><h2>Brief Summary</h2><p>Whether weekly balance classes reduce falls "
        "among tenants of sheltered housing over one year.</p><h2>Study Dates</h2><dl><dt>First Submitted</dt>"
        "<dd>March 3, 2021</dd><dt>First Posted</dt><dd>March 12, 2021</dd><dt>Study Start (Actual)</dt>"
        "<dd>May 1, 2021</dd><dt>Results First Posted</dt><dd>June 9, 2024</dd><dt>Last Update Posted</dt>"
        "<dd>July 14, 2024</dd></dl><h2>Sponsor</h2><p>Westfield Health Board</p>"
        "<h2>Investigators</h2><p>Principal Investigator: Maren Holt, Westfield University</p>"
        "<p>Study team:</p><ul><li>Idris Kane</li><li>Lena Barros</li></ul></main>"
    )
    meta = read_item_metadata(_page(f"{study} | Westfield Trials Registry", body), url=URL)
    assert meta.title == study
    assert meta.authors[:1] == ["Maren Holt"]
    assert meta.date == "2024-06-09"  # its results were posted then: the work; the rest are the study's events


def test_a_registers_name_in_the_title_is_nobodys_name() -> None:
    study = "Balance Classes for Tenants of Sheltered Housing"
    body = f'<header><a href="/">Westfield Trials Registry</a></header><main><h1>{study}</h1><p>Recruiting</p></main>'
    assert read_item_metadata(_page(f"{study} | Westfield Trials Registry", body), url=URL).authors == []
