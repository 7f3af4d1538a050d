"""Titles a reader takes where a page offers look-alikes: the heading over the article, not a question further down
(an FAQ) that repeats the <title>'s words; the item's name, not a breadcrumb trail written out as a line; and a title
set over several headings of a word each (a masthead), read as one.

Each page below is written for the test in the shape of a kind of page; none is a copy of a real one.
"""

from __future__ import annotations

from research_crawler.pages.breadcrumbs import is_trail_line
from research_crawler.pages.html_tree import parse_html
from research_crawler.pages.metadata import read_item_metadata
from research_crawler.pages.page_shows import read_visible_page
from research_crawler.pages.title_variants import split_heading

URL = "https://studio.example.com/post/garden-pond"
TEXT = "<p>" + "A pond needs a sunny corner, a liner that lasts and plants that keep its water clear. " * 3 + "</p>"


def test_the_heading_over_the_post_beats_a_question_further_down_with_more_of_the_titles_words() -> None:
    """A blog's <title> says its post in other words; the post's heading comes first, and an FAQ at its end asks a
    question that happens to hold more of the <title>'s words."""
    heading = "Garden Pond Ideas That Work in Small Gardens"
    page = (
        "<html><head><title>Garden Pond Ideas for Small Gardens 2025</title>"
        '<meta property="og:title" content="Garden Pond Ideas for Small Gardens 2025"></head><body>'
        f"<h2>{heading}</h2><p>Team Example</p><p>March 3, 2025</p>{TEXT}"
        "<h2>FAQs</h2><h3>1. What are the best garden pond ideas for small gardens in 2025?</h3>"
        "<p>Keep it small.</p></body></html>"
    )
    item = read_item_metadata(page, url=URL)
    assert item.title == heading
    assert str(item.date) == "2025-03-03"


def test_a_breadcrumb_trail_written_as_a_line_is_where_the_item_stands_not_its_title() -> None:
    page = (
        "<html><head><title>The Fox and the Grapes (Fables for Children, Fables of the Month)</title></head><body>"
        "<p>Fables for Children &gt; Fables of the Month</p>"
        "<p>Fables for Children &gt; Fables of the Month &gt; January &gt; The Fox and the Grapes</p>"
        f"<p>The Fox and the Grapes</p>{TEXT}</body></html>"
    )
    assert read_item_metadata(page, url=URL).title == "The Fox and the Grapes"
    assert is_trail_line("Home › Physics › 2024")
    assert not is_trail_line("Why 3 > 2 is not always true in floating point arithmetic, and what to do about it")
    assert not is_trail_line("The Fox and the Grapes")


def test_a_title_set_over_several_one_word_headings_is_read_as_one() -> None:
    page = (
        "<html><head><title>Weekend Pond Project | Example Labs</title></head><body>"
        "<p>Example Labs</p><p>PROJECT: Weekend Pond Project</p>"
        f"<h1>WEEKEND</h1><h1>POND</h1><h1>PROJECT</h1>{TEXT}<h2>What You Will Need</h2>{TEXT}</body></html>"
    )
    assert read_item_metadata(page, url=URL).title == "Weekend Pond Project"
    visible = read_visible_page(parse_html(page))
    assert split_heading(visible, ["Weekend Pond Project", "Example Labs"]) is not None
    assert split_heading(visible, ["Weekend Pond", "Example Labs"]) is None  # not a whole part of the <title>


def test_headings_of_a_word_each_that_say_no_part_of_the_title_stay_apart() -> None:
    page = (
        "<html><head><title>Pond liners compared | Example Labs</title></head><body>"
        "<h2>Price</h2><h2>Weight</h2><h2>Labs</h2></body></html>"
    )
    assert split_heading(read_visible_page(parse_html(page)), ["Pond liners compared", "Example Labs"]) is None
