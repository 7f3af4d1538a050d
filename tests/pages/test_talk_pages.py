"""A seminar's talk page as a series' site writes it: the series' name in a banner above the talk's title, then
labelled lines ("Speaker:", "Joint work with:", "When:"), no metadata tags; and a report's "Prepared by". Each page is
written for the test in the shape of such a page; none is a copy of one."""

from __future__ import annotations

from research_crawler.pages.metadata import read_item_metadata
from research_crawler.pages.person_names import is_person_name

URL = "https://ponds.example.org/talks/4.html"
TITLE = "Ice Cover Loss and Winter Oxygen in Shallow Ponds"


def _talk(people: str) -> str:
    return (
        f"<!doctype html><html><head><title>{TITLE} - Pond Seminar</title></head><body>"
        "<div id='top'><a href='/'>Pond Seminar</a><br><small>The seminar series of the Pond Society</small></div>"
        "<div id='menu'><a href='/'>Home</a> | <a href='/programme/2023.html'>Programme 2023</a></div>"
        f"<div id='content'><h1>{TITLE}</h1>{people}"
        "<p><b>When:</b> Tuesday 3 October 2023, 16:00<br><b>Where:</b> Room 1.02</p>"
        "<h2>Abstract</h2><p>Ponds lose their ice earlier each winter, and the water under it holds less oxygen.</p>"
        "<p><a href='/slides/4.pdf'>Slides (PDF)</a> · <a href='/programme/2023.html'>Back to the programme</a></p>"
        "</div><div id='bottom'>Pond Society · <a href='/contact.html'>Contact</a></div></body></html>"
    )


def test_a_talks_speaker_and_co_authors_are_its_authors() -> None:
    meta = read_item_metadata(_talk("<p><b>Speaker:</b> Rosa Lind<br><b>Joint work with:</b> Omar Diaz, Mei Tan</p>"),
                              url=URL)  # fmt: skip
    assert meta.title == TITLE
    assert meta.authors == ["Rosa Lind", "Omar Diaz", "Mei Tan"]
    assert (meta.date or "").startswith("2023-10-03")
    presented = read_item_metadata(_talk("<p><b>Presented by:</b> Rosa Lind</p>"), url=URL)
    assert presented.authors == ["Rosa Lind"]


def test_the_series_name_in_the_banner_above_the_title_is_no_author() -> None:
    meta = read_item_metadata(_talk(""), url=URL)
    assert meta.title == TITLE and meta.authors == []
    assert not is_person_name("Inland Fisheries Colloquium") and not is_person_name("Pond Seminar")
    assert is_person_name("Rosa Lind")


def test_a_reports_preparers_are_its_authors() -> None:
    page = (
        "<!doctype html><html><head><title>Report 2023/4: Nitrate in Private Wells - Water Agency</title></head>"
        "<body><main><p class='caption'>Report 2023/4</p><h1>Nitrate in Private Wells</h1><dl><dt>Published</dt>"
        "<dd>04/09/2023</dd><dt>Prepared by</dt><dd>Rosa Lind and Omar Diaz</dd></dl><h2>Summary</h2>"
        "<p>Wells in farming areas hold more nitrate than the limit in one sample of five.</p></main></body></html>"
    )
    meta = read_item_metadata(page, url="https://water.example.org/reports/2023-04")
    assert meta.authors == ["Rosa Lind", "Omar Diaz"]
