"""Datelines a reader finds around an article's title however the page sets them: above a bar of sharing buttons
over the title; before a same-line "Last updated" label, which names the time or date after it, not the day before
it; in a "Published on …" line at the end of a long header of captions and links; and a two-digit year with its time
written "at 1:13 PM".

Each page below is written for the test in the shape of a kind of page; none is a copy of a real one.
"""

from __future__ import annotations

from research_crawler.pages.metadata import read_item_metadata

URL = "https://news.example.com/world/harbour-reopens"
TITLE = "The old harbour reopens after ten years of works"
TEXT = "<p>" + "The harbour that closed a decade ago took its first ships again this week, to the town's relief. " * 3
TEXT += "</p>"  # a paragraph of running text
BUTTONS = "<h3>Share this page</h3>" + "".join(f"<p>{b}</p>" for b in ("Delicious", "Facebook", "Twitter", "Email"))


def _date(above: str, below: str) -> str | None:
    html = (
        f"<!doctype html><html><head><title>Example News - {TITLE}</title></head><body>"
        f'<nav><a href="/">Home</a> <a href="/world">World</a></nav><div>{above}<h1>{TITLE}</h1>{below}</div>'
        "<footer>Example News</footer></body></html>"
    )
    item = read_item_metadata(html, url=URL)
    return str(item.date) if item.date else None


def test_a_dateline_over_sharing_buttons_above_the_title_with_its_last_updates_time() -> None:
    above = f"<p>2 December 2011 Last updated at 00:03 GMT</p>{BUTTONS}"
    below = f"<p>By Jane Doe Harbour historian</p><p>The harbour was first dug in May 1929</p>{TEXT}"
    assert _date(above, below) == "2011-12-02"


def test_the_published_day_before_a_last_update_on_the_same_line_late_in_the_header() -> None:
    captions = "".join(f"<p>{line}</p>" for line in ("Ships at the quay THE PRESS/Jo Roe", "Share", "Print", "(78)"))
    links = "".join(f"<p>Another harbour story number {n}</p>" for n in range(1, 9))
    dateline = (
        "<p>Porto — From Tuesday's Example News Published on Tuesday, Mar. 09, 2010 2:28AM EST "
        "Last updated on Monday, Mar. 22, 2010 6:49PM EDT</p>"
    )
    assert _date("", captions + links + "<p>Jane Doe</p>" + dateline + TEXT) == "2010-03-09"


def test_a_two_digit_year_with_its_time_at_an_hour() -> None:
    assert _date("<p>10/16/12 at 1:13 PM</p>", f"<p>By Jane Doe</p>{TEXT}") == "2012-10-16"


def test_a_dated_byline_whose_month_is_abbreviated_with_a_full_stop() -> None:
    byline = "<p>By Jane Doe Jul. 25, 2012 10:46 a.m. Harbours and Quays, Ships and Shipping, Town and Country Life</p>"
    assert _date("", byline + TEXT) == "2012-07-25"


def test_the_dates_of_related_stories_between_the_title_and_the_byline_are_theirs() -> None:
    related = "<h3>Related News</h3>" + "".join(
        f'<p><a href="/world/story-{n}">Another story about the harbour number {n}</a></p><p>Thu, Aug 2 2012</p>'
        for n in range(1, 4)
    )
    byline = "<p>By Jane Doe and John Roe</p><p>Fri Aug 3, 2012 5:10am EDT</p>"
    assert _date("", related + "<p>Credit: Example/Jo Roe</p>" + byline + TEXT) == "2012-08-03"
