"""A page's tags against what it shows, on the kinds of page a recipe site makes: a JSON-LD datePublished on a page
that shows no date at all (no date is read: the page shows none), kept where the page does write it — in a
dateline marked hidden from assistive readers, or with a two-digit year; a social card's title that is the heading
with a shop's words added (the heading is the title); and a heading whose element runs on past the title with a
place line (the title ends where the tags' title does).

Each page below is written for the test in the shape of a kind of page; none is a copy of a real one.
"""

from __future__ import annotations

import json

from research_crawler.pages.metadata import read_item_metadata

URL = "https://recipes.example.com/dishes/plum-cake"
PARAGRAPH = "<p>" + "Stone the plums, lay them on the dough in rows and bake the cake until the edges brown. " * 3
PARAGRAPH += "</p>"


def _json_ld(published: str) -> str:
    data = {"@context": "https://schema.org", "@type": "Article", "headline": "Plum cake", "datePublished": published}
    return f'<script type="application/ld+json">{json.dumps(data)}</script>'


def _page(body: str, *, head: str = "", title_element: str = "Plum cake | Example Recipes") -> str:
    return (
        f"<!doctype html><html><head><title>{title_element}</title>{head}</head><body>"
        '<nav><a href="/">Home</a> <a href="/cakes">Cakes</a></nav>'
        f"<main>{body}{PARAGRAPH}</main>"
        "<footer><p>Copyright © 2015–2023 Example Recipes</p></footer></body></html>"
    )


def test_a_json_ld_date_on_a_page_that_shows_no_date_is_not_read() -> None:
    item = read_item_metadata(_page("<h1>Plum cake</h1>", head=_json_ld("2023-05-05T08:00:00+00:00")), url=URL)
    assert item.date is None
    assert "written nowhere" in item.notes["date"]


def test_a_json_ld_date_the_page_writes_in_a_dateline_hidden_from_assistive_readers_is_read() -> None:
    body = '<h1>Plum cake</h1><p aria-hidden="true">Friday 5 May 2023</p>'
    item = read_item_metadata(_page(body, head=_json_ld("2023-05-05T08:00:00+00:00")), url=URL)
    assert item.date == "2023-05-05"


def test_a_json_ld_date_the_page_writes_with_a_two_digit_year_is_read() -> None:
    body = "<h1>Plum cake</h1><p>By: Jane Roe Posted: 5/5/23</p>"
    item = read_item_metadata(_page(body, head=_json_ld("2023-05-05T08:00:00+00:00")), url=URL)
    assert item.date == "2023-05-05"


def test_a_json_ld_date_whose_year_a_dateline_shows_is_read() -> None:
    body = "<h1>Plum cake</h1><p>First published in 2023</p>"
    item = read_item_metadata(_page(body, head=_json_ld("2023-05-05T08:00:00+00:00")), url=URL)
    assert item.date == "2023-05-05"


def test_a_social_title_that_adds_a_shops_words_to_the_heading_gives_way_to_the_heading() -> None:
    """The heading is one word, which the <title> only begins: the social card's title, shown nowhere, is the
    heading with the shop's words before it."""
    head = '<meta property="og:title" content="My Example Shop recipe tip: Zwetschgenkuchen">'
    page = _page("<h1>Zwetschgenkuchen</h1>", head=head, title_element="Zwetschgenkuchen Rezept | Shop")
    assert read_item_metadata(page, url=URL).title == "Zwetschgenkuchen"


def test_a_place_line_inside_the_heading_is_not_part_of_the_title() -> None:
    heading = (
        '<h1><span class="main">Authentic Bavarian plum cake</span>\n<span class="place">Bavaria, Germany</span></h1>'
    )
    head = '<meta property="og:title" content="Bavarian Plum Cake Authentic | Example Atlas">'
    page = _page(heading, head=head, title_element="Bavarian Plum Cake Authentic | Example Atlas")
    assert read_item_metadata(page, url=URL).title == "Authentic Bavarian plum cake"


def test_a_day_written_year_first_each_part_ending_in_its_dot_is_read() -> None:
    """As Hungarian and Korean sites write a day: "2024. 07. 20." under the title."""
    body = "<h1>Plum cake</h1><p>2024. 07. 20.</p>"
    assert read_item_metadata(_page(body), url=URL).date == "2024-07-20"


def test_a_two_digit_year_day_after_a_glued_bullet_and_before_a_comment_count_is_the_day_shown() -> None:
    """The byline "By: Jane Roe •7/2/23 43 Comments" shows the day (month first, as American sites write it); the
    JSON-LD's other day, written nowhere, is a stamp."""
    body = "<h1>Plum cake</h1><p>By: Jane Roe •7/2/23 43 Comments</p>"
    item = read_item_metadata(_page(body, head=_json_ld("2020-02-16T08:00:00+00:00")), url=URL)
    assert item.date == "2023-07-02"
