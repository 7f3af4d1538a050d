"""The date a reader takes off any page, whatever its site: the dateline the page shows over a general web
vocabulary's timestamp it shows nowhere; a WebPage's own date where no article is described; a byline's date,
whatever follows it on its line; a two-digit year in a line's part set apart; a last update's date where it is the
only date the page gives; and, where the page shows none, the day its own address carries.

Each page below is written for the test in the shape of a kind of page; none is a copy of a real one.
"""

from __future__ import annotations

import json
from typing import Any

from research_crawler.pages.metadata import read_item_metadata

URL = "https://news.example.com/world/harbour-reopens"
TITLE = "The old harbour reopens after ten years of works"
TEXT = "<p>" + "The harbour that closed a decade ago took its first ships again this week, to the town's relief. " * 3
TEXT += "</p>"  # a paragraph of running text


def _date(body: str, *, head: str = "", url: str = URL) -> str | None:
    html = (
        f"<!doctype html><html><head><title>{TITLE} - Example News</title>{head}</head><body>"
        f'<nav><a href="/">Home</a> <a href="/world">World</a></nav><main><h1>{TITLE}</h1>{body}</main>'
        "<footer>Example News</footer></body></html>"
    )
    item = read_item_metadata(html, url=url)
    return str(item.date) if item.date else None


def _json_ld(data: dict[str, Any]) -> str:
    return f'<script type="application/ld+json">{json.dumps(data)}</script>'


def test_the_dateline_under_the_title_beats_a_json_ld_day_the_page_presents_nowhere() -> None:
    """A live page's JSON-LD keeps the day its first entry was posted; the page's dateline shows today's, and the
    tag's day appears only inside a sentence of the text."""
    head = _json_ld({"@type": "NewsArticle", "headline": TITLE, "datePublished": "2023-10-07T08:00:00Z"})
    body = "<p>Newsroom 18.07.2024, 11.08 Uhr 7 min</p>" + TEXT
    body += "<p>The fighting began with the attack of 7 October 2023 and has not stopped since, the agency says.</p>"
    assert _date(body, head=head) == "2024-07-18"


def test_a_day_under_another_fields_label_leaves_the_tag_its_day() -> None:
    """ "Broadcast: Radio One, 25.04.2024" dates the broadcast the story was made for, not the story."""
    head = _json_ld({"@type": "NewsArticle", "headline": TITLE, "datePublished": "2024-04-27T10:00:00+02:00"})
    assert _date(TEXT + "<p>Broadcast: Radio One, 25.04.2024, 10.45 Uhr</p>", head=head) == "2024-04-27"


def test_a_webpage_node_in_a_json_ld_graph_dates_a_page_that_describes_no_article() -> None:
    graph = {
        "@context": "https://schema.org",
        "@graph": [
            {"@type": "WebPage", "@id": f"{URL}#page", "name": TITLE, "datePublished": "2023-05-15T09:00:37+00:00"},
            {"@type": "WebSite", "@id": "https://news.example.com/#website", "name": "Example News"},
        ],
    }
    # (the page writes the day, in a dateline hidden from assistive readers: a date written nowhere is no date)
    assert _date(TEXT + '<p aria-hidden="true">15 May 2023</p>', head=_json_ld(graph)) == "2023-05-15"


def test_a_byline_carries_its_date_whatever_follows_on_its_line() -> None:
    body = "<p>By Jane Roe, Executive Editor | Friday June 7, 2013 @ 6:43pm EDT"
    body += "Tags: Harbour Reopening, Shipping News, Town Council, Local Economy, Weather</p>"
    assert _date(body + TEXT) == "2013-06-07"


def test_a_two_digit_year_in_a_part_of_a_byline_line() -> None:
    """ "10/9/10" as an American site writes it: month first."""
    assert _date("<p>By JANE ROE &amp; JOHN DOE | 10/9/10 7:15 AM EDT</p>" + TEXT) == "2010-10-09"


def test_the_last_update_dates_a_page_that_shows_no_other_date() -> None:
    assert _date("<p>Updated: August 13, 2010, 5:02 PM ET</p>" + TEXT) == "2010-08-13"


def test_a_static_pages_last_modified_stamp_dates_no_item() -> None:
    """A personal homepage prints "Last modified" under every page: the day its webmaster last touched the file, not
    the paper's (which its publications list gives)."""
    body = TEXT + "<p><a href='/'>Home</a> | <a href='/pubs'>Publications</a></p><p>Last modified: 2 October 2026</p>"
    assert _date(body, url="https://www.example.edu/~jdoe/papers/harbour.html") is None


def test_an_update_beside_the_publication_date_does_not_replace_it() -> None:
    body = "<p>Published: August 2, 2010</p><p>Updated: August 13, 2010, 5:02 PM ET</p>" + TEXT
    assert _date(body) == "2010-08-02"


def test_the_day_in_the_pages_own_address_where_the_page_shows_none() -> None:
    assert _date(TEXT, url="https://news.example.com/2010/08/13/harbour-reopens.html") == "2010-08-13"
    assert _date(TEXT) is None  # no date anywhere: none is made up


def test_a_dated_byline_that_opens_a_longer_line() -> None:
    """A blog's line under the post: "By <name> on <date>." and then what it is filed under."""
    body = TEXT + "<p>Von Jane Roe am 21/02/2021. Abgelegt unter Welt. Kommentare sind derzeit geschlossen.</p>"
    assert _date(body) == "2021-02-21"


def test_dates_written_as_east_asian_and_arabic_sites_write_them() -> None:
    assert _date("<p>2018年6月18日 10:01 発信地：カノ</p>" + TEXT) == "2018-06-18"
    assert _date("<p>승인 2016.03.16 21:14</p>" + TEXT) == "2016-03-16"
    # a month in its two Arabic names, "آب/اغسطس" (August)
    assert _date("<p>الأحد، 04 آب/اغسطس 2013، آخر تحديث 02:21</p>" + TEXT) == "2013-08-04"


def test_the_byline_under_the_title_beats_the_mastheads_date_above_it() -> None:
    """A site's banner shows today's date as far above the title as the byline's date is below it."""
    html = (
        f"<!doctype html><html><head><title>{TITLE}</title></head><body><p>Welcome to Example News</p>"
        f"<p>Mon, 25 Dec 2023</p><p>The world for people who read</p><p>World</p><h1>{TITLE}</h1><p>Jane Roe</p>"
        f"<p>Example Wire</p><p>Thu, 14 May 2020 17:55 UTC</p>{TEXT}</body></html>"
    )
    assert read_item_metadata(html, url=URL).date == "2020-05-14"


def test_a_byline_and_its_date_past_a_long_list_of_tags() -> None:
    tags = "".join(f'<p><a href="/tag/{n}">topic {n}</a></p>' for n in range(20))
    assert _date(f"{tags}<p>Jane Roe | 10/17/18</p>{TEXT}") == "2018-10-17"
