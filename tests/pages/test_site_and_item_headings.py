"""A blog's or a small site's page whose site name is a heading too: the site's name heads every page, the item's
title is the other part of the <title>, and a title with its subtitle in two headings stays one title.

Each page below is written for the test in the shape of a kind of page; none is a copy of a real one.
"""

from __future__ import annotations

import pytest

from research_crawler.pages.metadata import read_item_metadata

URL = "https://seanotes.example.org/2021/03/post.html"
POST = "Why the tides of an enclosed sea rise twice a day"
TEXT = "<p>" + "We study how the tides of an inner sea change across seasons and what drives them. " * 3 + "</p>"


def _page(title: str, body: str) -> str:
    return f"<!doctype html><html><head><title>{title}</title></head><body>{body}</body></html>"


@pytest.mark.parametrize("title", [f"Sea Notes » {POST}", f"{POST} | Sea Notes"])
def test_the_sites_name_as_the_first_heading_is_not_the_items_title(title: str) -> None:
    body = (
        '<div id="header"><h1><a href="/">Sea Notes</a></h1><p>Notes on the sea and its tides</p></div>'
        f'<h2>17.7.11</h2><h3><a href="/2021/03/post.html">{POST}</a></h3>{TEXT}<p>posted by Jane Doe at 12:53</p>'
    )
    assert read_item_metadata(_page(title, body), url=URL).title == POST


def test_a_title_and_its_subtitle_in_two_headings_stay_one_title() -> None:
    title = "Beneath the surface - How enclosed seas keep their tides through the seasons and the years"
    main, subtitle = title.split(" - ")
    body = f"<main><h1>{main}</h1><h2>{subtitle}</h2><p>By Jane Doe</p>{TEXT}</main>"
    assert read_item_metadata(_page(f"{title} | Sea Review", body), url=URL).title == title


@pytest.mark.parametrize(
    "title", [f"Sea Notes: a journal of the tides: {POST}", f"{POST} « Sea Notes: a journal of the tides"]
)
def test_a_title_that_is_the_sites_heading_and_the_posts_joined_is_the_posts(title: str) -> None:
    # the two headings make the <title> whole, whatever joins them (": " inside the site's name, "«")
    body = (
        "<h1>Sea Notes: a journal of the tides</h1><p>Jane Doe's notebook, mostly about the sea.</p>"
        f"<h2>Sunday, January 10, 2010</h2><h3>{POST}</h3>{TEXT}"
    )
    assert read_item_metadata(_page(title, body), url=URL).title == POST


def test_a_heading_the_title_says_whole_beats_the_blogs_name_with_its_motto() -> None:
    # "Post - Blog: its motto - Site": the blog's heading begins with a part of the <title> and runs on
    body = (
        "<h1>Sea Notes: the latest word on tides, currents and waves</h1><p>by Jane Doe</p>"
        f"<p>Aug 18, 2010</p><h3>{POST}</h3>{TEXT}"
    )
    title = f"{POST} - Sea Notes: Tides News from the Coast - Example Times"
    assert read_item_metadata(_page(title, body), url=URL).title == POST


def test_the_title_a_block_begins_with_beats_a_teaser_that_runs_on() -> None:
    # a list of the site's posts repeats the title with the start of the post after it: a longer block, no title
    body = (
        f"<p>17 Feb 2010 - 11 Comments</p><p>{POST}</p>{TEXT}"
        f"<ul><li>{POST} - We study how the tides of an inner sea change across seasons and what drives them, "
        "and what the moon has to do with it... - Sea Notes</li></ul>"
    )
    meta = read_item_metadata(_page(POST, body), url=URL)
    assert (meta.title, meta.date) == (POST, "2010-02-17")


def test_a_heading_that_shortens_the_titles_headline_beats_a_sidebar_heading_named_after_the_site() -> None:
    headline = "Harbour master of the old port retires, leaving the quay to his deputy - Example Sports"
    body = (
        "<p>Updated: December 30, 2010, 10:05 PM ET</p><h1>Old harbour master retires</h1>"
        f"{TEXT}<p>Copyright 2010 by The Example Press</p><h3>Example Sports Conversations</h3>"
    )
    meta = read_item_metadata(_page(headline, body), url=URL)
    assert (meta.title, meta.date) == ("Old harbour master retires", "2010-12-30")


def test_a_posts_byline_past_its_sharing_buttons_is_the_posts() -> None:
    title = f"{POST} - Sea Notes: Tides News from the Coast - Example Times"
    body = (
        "<h1>Sea Notes: the latest word on tides, currents and waves</h1><p>by Jane Doe</p>"
        f"<p>Aug 18, 2010</p><h3>{POST}</h3><p>02:11 PM</p><nav>Share</nav><p>Print</p>"
        f"<p>By John Roe, Example Times</p><p>Comment</p>{TEXT}"
    )
    meta = read_item_metadata(_page(title, body), url=URL)
    assert (meta.title, meta.authors) == (POST, ["John Roe"])
