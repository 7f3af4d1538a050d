"""A byline sets links beside a writer's name that a browser shows as icons or as one short word — a social
network's, the writer's bio or site — and a saved page's text glues them to the name ("Sarah LazareTwitter"). They
are no part of the name, in a "By" line under the title and in an element the markup calls the author's.

Each page below is written for the test in the shape of a kind of real page; none is a copy of one.
"""

from __future__ import annotations

import pytest

from research_crawler.pages.metadata import read_item_metadata

URL = "https://magazine.example.org/article/2023/05/union-democracy/"
TEXT = "<p>" + "A sentence of the article that goes on for a while to make a paragraph of it. " * 4 + "</p>"


def _page(body: str) -> str:
    return f"<!doctype html><html><head><title>Union Democracy | Example</title></head><body>{body}</body></html>"


@pytest.mark.parametrize("icon", ["Twitter", "X", "LinkedIn", "Bluesky", "Bio"])
def test_an_icon_link_after_the_name_in_a_by_line_is_no_part_of_it(icon: str) -> None:
    body = (
        '<article><header><h1 class="title">Union Democracy Looks Like This</h1>'
        "<h2>In one city, a local is preparing for what could be the largest strike in its history.</h2>"
        '<div class="byline"><h2 class="author_name">By <a class="author" href="/authors/jane-doe/">Jane Doe</a>'
        f'<a class="author-social" href="https://social.example.com/janedoe"><span>{icon}</span></a></h2>'
        f"<h4>Today 5:00 am</h4></div></header>{TEXT}</article>"
    )
    assert read_item_metadata(_page(body), url=URL).authors == ["Jane Doe"]


def test_a_bio_link_beside_the_name_in_an_author_block_is_no_part_of_it() -> None:
    body = (
        '<main><header><h1 class="entry-title">Union Democracy Looks Like This</h1>'
        "<h2>One local's brief, backbreaking time inside the machine.</h2>"
        '<div class="widget"><ul class="author-bios"><li class="author-bio vcard"><div class="author-data">'
        '<h3 class="byline"><span class="fn n"><a rel="author" href="/author/jane-doe/">Jane Doe</a></span></h3>'
        '<a class="byline-bio" rel="author" href="/author/jane-doe/">Bio</a></div></li></ul></div></header>'
        f"{TEXT}</main>"
    )
    assert read_item_metadata(_page(body), url=URL).authors == ["Jane Doe"]


def test_a_word_of_the_name_glued_to_a_link_that_is_no_icon_stays_as_written() -> None:
    body = (
        "<article><h1>Union Democracy Looks Like This</h1>"
        '<div class="meta"><h2>By <a href="/authors/jane-doe/">Jane Doe</a> and '
        '<a href="/authors/john-roe/">John Roe</a></h2>'
        f"<p>May 15, 2023</p></div>{TEXT}</article>"
    )
    assert read_item_metadata(_page(body), url=URL).authors == ["Jane Doe", "John Roe"]
