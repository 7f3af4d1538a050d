"""A writer's dashed sign-off at the foot of a post ("— Jane Doe", "— Jane Doe, Program Chair") where the line
under the title credits only the site's own name.

Each page below is written for the test in the shape of a kind of real page; none is a copy of one.
"""

from __future__ import annotations

from research_crawler.pages.closing_signatures import closing_signature
from research_crawler.pages.html_tree import parse_html
from research_crawler.pages.metadata import read_item_metadata
from research_crawler.pages.page_shows import read_visible_page

URL = "https://news.example.org/2016/02/inside-the-conference"
TEXT = "<p>" + "A sentence of the post that goes on for a while to make a paragraph of it. " * 4 + "</p>"


def _page(sign_off: str) -> str:
    return (
        "<!doctype html><html><head><title>Inside the Conference | Example News</title></head><body>"
        "<h1>Inside the Conference</h1><p><a href='/'>Example News</a> on February 23, 2016 at 5:31 pm</p>"
        f"{TEXT}{TEXT}<p>I hope you join us there, and I look forward to meeting many of you.</p>"
        f"<p>{sign_off}</p><p>About the site</p><footer><p><a href='/about'>About</a></p></footer></body></html>"
    )


def test_a_dashed_name_at_the_foot_of_a_post_signed_by_the_site_names_its_writer() -> None:
    assert read_item_metadata(_page("— Jane Roebuck"), url=URL).authors == ["Jane Roebuck"]


def test_a_dashed_name_and_role_after_a_comma_names_the_person_not_the_role() -> None:
    assert read_item_metadata(_page("— Jane Roebuck, Program Chair"), url=URL).authors == ["Jane Roebuck"]


def test_a_dashed_line_that_is_no_name_signs_nothing() -> None:
    page = read_visible_page(parse_html(_page("— Good luck, everyone")))
    assert closing_signature(page.blocks, 0) == []
