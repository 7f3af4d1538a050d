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
