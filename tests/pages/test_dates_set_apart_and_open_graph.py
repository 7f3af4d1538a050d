"""Dates a reader sees that the reader of the page missed: a post's date in a theme's bar of details whose
separators are elements of their own ("October 12, 2018 / 0 Comments / in News", glued in the markup with no
space), a run of text that only looks like a date ("2018/0", "2018/19") read as none, and Open Graph's
``article:published_time``, a blog's or a news site's publication stamp, read as a tag.

Each page below is written for the test in the shape of a kind of page; none is a copy of a real one.
"""

from __future__ import annotations

import pytest

from research_crawler.pages.html_tree import parse_html
from research_crawler.pages.item_dates import dates_in_text
from research_crawler.pages.metadata import read_item_metadata
from research_crawler.pages.page_shows import read_visible_page

URL = "https://theatre.example.org/blog/visitors-reviews/"
TITLE = "What our visitors said about the autumn season"
PARAGRAPH = "<p>" + "Visitors wrote to us about the season's shows, the music and the costumes they liked. " * 3
PARAGRAPH += "</p>"


def _page(body: str, *, head: str = "") -> str:
    return (
        f"<!doctype html><html><head><title>{TITLE} - Example Theatre</title>{head}</head><body>"
        f'<nav><a href="/">Home</a> <a href="/blog">Blog</a></nav><main><h1>{TITLE}</h1>{body}{PARAGRAPH}</main>'
        "<footer>Example Theatre</footer></body></html>"
    )


DETAILS_BAR = (
    '<span class="meta"><time class="date">March 3, 2021</time><span class="sep">/</span>'
    '<span><a href="#respond">0 Comments</a></span><span class="sep">/</span>'
    '<span>in <a href="/blog/category/news/">News</a></span></span>'
)


def test_a_separator_in_an_element_of_its_own_sets_the_details_of_a_post_apart() -> None:
    blocks = read_visible_page(parse_html(_page(DETAILS_BAR))).blocks
    assert "March 3, 2021 / 0 Comments / in News" in [block.text for block in blocks]
    # a number after a number styled apart is still two values; text around a glyph in the text itself is kept
    glued = read_visible_page(parse_html("<p>Season <b>2020</b>/<i>21</i></p>")).blocks
    assert glued[0].text == "Season 2020/21"


def test_the_day_in_a_bar_of_post_details_dates_the_post() -> None:
    found = read_item_metadata(_page(DETAILS_BAR), url=URL)
    assert (found.date, found.sources["date"]) == ("2021-03-03", "page_text")


@pytest.mark.parametrize("text", ["2018/0 Comments", "Season 2018/19", "2018-00", "2018-02-30"])
def test_a_run_that_only_looks_like_a_date_is_none(text: str) -> None:
    assert dates_in_text(text) == []


def test_open_graph_s_publication_time_is_a_tag_the_page_s_dateline_confirms() -> None:
    head = (
        '<meta property="og:title" content="What our visitors said">'
        '<meta property="article:published_time" content="2021-03-03T21:43:54+00:00">'
        '<meta property="article:modified_time" content="2021-04-10T08:00:00+00:00">'
    )
    found = read_item_metadata(_page("<p class=byline>Posted on 3 March 2021</p>", head=head), url=URL)
    assert (found.date, found.sources["date"]) == ("2021-03-03", "opengraph")


def test_open_graph_s_modification_time_alone_dates_nothing() -> None:
    head = '<meta property="article:modified_time" content="2021-04-10T08:00:00+00:00">'
    assert read_item_metadata(_page("", head=head), url=URL).date is None


def test_a_stamp_the_page_says_it_was_published_on_is_shown_even_in_an_aside() -> None:
    head = '<meta property="article:published_time" content="2021-01-18T19:55+01:00">'
    related = "".join(f'<li><a href="/notes/{n}">Related note number {n}</a></li>' for n in range(12))
    page = (
        f"<!doctype html><html><head><title>{TITLE}</title>{head}</head><body><main><article><h1>{TITLE}</h1>"
        f"{PARAGRAPH * 3}</article></main><aside class='sidebar'><ul>{related}</ul>"
        "<p>Published on <time datetime='2021-01-18T19:55'>2021-01-18T19:55</time></p></aside></body></html>"
    )
    found = read_item_metadata(page, url=URL)
    assert (found.date, found.sources["date"]) == ("2021-01-18", "opengraph")
