"""Dates of kinds of page the reader had missed: the update's day a page shows where its JSON-LD's publication day
is written nowhere (a guide whose breadcrumb repeats a title with a year in it; a theme that wraps the whole
article in its layout's containers; a label glued to its date); a journal source line in the NLM's style ("Eur J
Example. 2014 Jul;41(7):1460.").

Each page below is written for the test in the shape of a kind of page; none is a copy of a real one.
"""

from __future__ import annotations

import json

import pytest

from research_crawler.pages.cited_years import source_line_date
from research_crawler.pages.html_tree import parse_html
from research_crawler.pages.item_dates import dates_in_text, without_dates
from research_crawler.pages.metadata import read_item_metadata
from research_crawler.pages.page_shows import read_visible_page

URL = "https://guides.example.org/travel/road-trips"
PARAGRAPH = "<p>" + "The coast road runs past small towns, long beaches and a lighthouse that is open in summer. " * 3
PARAGRAPH += "</p>"


def _json_ld(**fields: str) -> str:
    data = {"@context": "https://schema.org", "@type": "Article", **fields}
    return f'<script type="application/ld+json">{json.dumps(data)}</script>'


def _page(body: str, *, head: str = "", title_element: str = "Example Guides") -> str:
    return (
        f"<!doctype html><html><head><title>{title_element}</title>{head}</head><body>"
        f'<nav><a href="/">Home</a> <a href="/travel">Travel</a></nav>{body}'
        "<footer>Example Guides</footer></body></html>"
    )


def test_the_update_shown_under_a_title_whose_breadcrumb_repeats_its_year_dates_the_item() -> None:
    title = "Nine Road Trips to Plan for 2031"
    html = _page(
        f'<div class="crumbs"><a href="/">Home</a> › <span>{title}</span></div>'
        f"<main><h1>{title}</h1><p>Updated: March 04, 2030</p>{PARAGRAPH}</main>",
        head=_json_ld(headline=title, datePublished="2028-01-15"),
    )
    meta = read_item_metadata(html, url=URL)
    assert meta.date == "2030-03-04"  # not the title's own "2031", nor the stamp the page never writes


def test_a_year_in_a_line_that_is_more_than_the_repeated_title_still_counts() -> None:
    title = "Harbour Lights"
    html = _page(
        f"<main><h1>{title}</h1><p>{title}, a film by the river guild (2019)</p>{PARAGRAPH}</main>",
    )
    assert read_item_metadata(html, url=URL).date == "2019"


def test_the_update_shown_under_a_title_the_theme_wraps_in_its_layout_dates_the_item() -> None:
    title = "What Coastal Erosion Means for Small Harbours"
    # the whole article stands in the theme's <aside> containers: the reader counts it all as the page's chrome
    html = _page(
        f'<aside class="layout"><h1>{title}</h1><p>By Example Staff</p><p>Updated September 28, 2030</p>'
        f"{PARAGRAPH}</aside>",
        head=_json_ld(headline=title, datePublished="2021-04-06"),
    )
    page = read_visible_page(parse_html(html))
    assert all(block.chrome for block in page.blocks if block.text in (title, "Updated September 28, 2030"))
    assert read_item_metadata(html, url=URL).date == "2030-09-28"


@pytest.mark.parametrize(
    ("text", "dates"),
    [
        ("Recipe By Jo Roe UpdatedSeptember 18, 2030", ["2030-09-18"]),
        ("PostedMay 2029", ["2029-05"]),
        ("McDonald 2020 and iPhone 12", []),  # a name glued to a name, no month
        ("mentionedMay 24, 2024", []),  # a word glued to a date that labels none (a reply's stamp)
    ],
)
def test_a_month_glued_to_the_label_before_it_is_read(text: str, dates: list[str]) -> None:
    assert dates_in_text(text) == dates


def test_without_dates_parts_a_glued_label_from_its_date() -> None:
    assert without_dates("UpdatedSeptember 18, 2030", mark="#") == "Updated #"


def test_a_glued_update_line_under_the_title_beats_a_stamp_the_page_never_writes() -> None:
    title = "Slow Cooked Harbour Stew"
    html = _page(
        f"<main><h1>{title}</h1><p>Recipe <span>By</span><a>Jo Roe</a> <span>Updated</span><span>September 18,"
        f" 2030</span></p>{PARAGRAPH}</main>",
        head=_json_ld(headline=title, datePublished="2030-08-07T10:00:00+00:00"),
    )
    assert read_item_metadata(html, url=URL).date == "2030-09-18"


@pytest.mark.parametrize(
    ("line", "date"),
    [
        ("Eur J Example Med. 2014 Jul;41(7):1460. doi: 10.1000/x. Epub 2014 Apr 16.", "2014-07"),
        ("Example Biol. 2015 Mar 12;10(3):e0119. eCollection 2015.", "2015-03-12"),
        ("J Example Res. 2009;5:12-19.", "2009"),
        ("Ann Example. 2011 Jan-Feb;3(1):4-9.", "2011-01"),
    ],
)
def test_a_journal_source_line_over_the_title_dates_the_item(line: str, date: str) -> None:
    title = "Unusual uptake of tracer in the harbour seal"
    html = _page(f'<main><div class="cit">{line}</div><h1>{title}</h1>{PARAGRAPH}</main>')
    page = read_visible_page(parse_html(html))
    index = next(block.index for block in page.blocks if block.text == title)
    assert source_line_date(page, index) == date
    assert read_item_metadata(html, url=URL).date == date


def test_a_year_and_a_semicolon_in_a_sentence_is_no_source_line() -> None:
    title = "Unusual uptake of tracer in the harbour seal"
    html = _page(f"<main><h1>{title}</h1><p>Counted in 2014; 3 seals were seen.</p>{PARAGRAPH}</main>")
    page = read_visible_page(parse_html(html))
    index = next(block.index for block in page.blocks if block.text == title)
    assert source_line_date(page, index) is None


def test_a_sharing_buttons_repeat_of_a_titles_year_dates_nothing() -> None:
    title = "The Twelve Best Harbour Walks of 2029"
    html = _page(
        f"<main><h1>{title}</h1><p>By Ann Reed Updated Mar 4, 2031, 2:15pm EST</p>"
        f'<p><a href="/share">Share</a> {title}</p>{PARAGRAPH}</main>',
    )
    assert read_item_metadata(html, url=URL).date == "2031-03-04"  # the update shown, not the title's year
