"""Bylines as the page corpus's twenty-third batch showed them (news and blog pages): a byline that gives its date
is whole — the line under it (a photo's agency credit, a sharing widget's label) names no co-writer; a JSON-LD
Person whose name is a whole byline ("By A and B, Associated Press") names each writer; and a "By" line whose
linked name runs on into the writer's role ("By Jane HollowayBusiness Columnist") is a person's byline, no desk's
credit.

Each page below is written for the test in the shape of a kind of real page; none is a copy of one.
"""

from __future__ import annotations

import json

import pytest

from research_crawler.pages.desk_credits import desk_credit_near
from research_crawler.pages.html_tree import parse_html
from research_crawler.pages.metadata import read_item_metadata
from research_crawler.pages.metadata_sources import read_tag_sources
from research_crawler.pages.page_shows import read_visible_page

URL = "https://news.example.org/2019/11/19/story"
TEXT = "<p>" + "A sentence of the story that goes on for a while to make a paragraph of it. " * 4 + "</p>"


def _page(body: str, *, title: str = "", head: str = "") -> str:
    return f"<!doctype html><html><head><title>{title}</title>{head}</head><body>{body}</body></html>"


def _json_ld(article: dict[str, object]) -> str:
    return f'<script type="application/ld+json">{json.dumps({"@context": "https://schema.org", **article})}</script>'


@pytest.mark.parametrize(
    "under",
    ["<p>Getty Images</p>", "<p>AddThis Sharing Buttons</p>", "<p>Peter Marsh</p>"],
)
def test_a_byline_that_gives_its_date_ends_there(under: str) -> None:
    title = "The coach says the team must win the next game"
    body = f"<h1>{title}</h1><p>Posted by Jane Holloway on November 19, 2019, 6:21 AM EST</p>{under}{TEXT}"
    found = read_item_metadata(_page(body, title=title), url=URL)
    assert (found.authors, found.date) == (["Jane Holloway"], "2019-11-19")


def test_a_byline_without_a_date_goes_on_to_the_next_name() -> None:
    title = "The coach says the team must win the next game"
    body = f"<h1>{title}</h1><p>By Jane Holloway</p><p>Peter Marsh</p><p>November 19, 2019</p>{TEXT}"
    assert read_item_metadata(_page(body, title=title), url=URL).authors == ["Jane Holloway", "Peter Marsh"]


def test_a_json_ld_person_named_by_a_whole_byline_is_its_writers() -> None:
    person = {"@type": "Person", "name": "By JANE HOLLOWAY and PETER MARSH, Associated Press"}
    html = _page("<h1>A story</h1>", head=_json_ld({"@type": "NewsArticle", "headline": "A story", "author": person}))
    tree = parse_html(html)
    assert tree is not None
    reading = next(r for r in read_tag_sources(tree, html, base=URL) if r.source == "json_ld")
    assert reading.authors == ("JANE HOLLOWAY", "PETER MARSH")


def test_a_json_ld_person_named_as_usual_stays_one_name() -> None:
    person = {"@type": "Person", "name": "Jane Holloway"}
    html = _page("", head=_json_ld({"@type": "NewsArticle", "headline": "A story", "author": person}))
    tree = parse_html(html)
    assert tree is not None
    reading = next(r for r in read_tag_sources(tree, html, base=URL) if r.source == "json_ld")
    assert reading.authors == ("Jane Holloway",)


def test_a_linked_name_glued_to_its_role_is_no_desk_credit() -> None:
    body = (
        "<h1>Column: the merger bodes ill for local news</h1>"
        '<div><span>By </span><a href="/people/jane-holloway">Jane Holloway</a><span>Business Columnist</span></div>'
        f"<p>Nov. 19, 2019</p>{TEXT}"
    )
    page = read_visible_page(parse_html(_page(body)))
    assert desk_credit_near(page.blocks, 0) == []
    # the tag's writer, shown on that line, is the byline (the tag's headline differs from the one shown)
    head = _json_ld(
        {"@type": "NewsArticle", "headline": "Merger bodes ill for the future of local news",
         "author": {"@type": "Person", "name": "Jane Holloway"}, "datePublished": "2019-11-19"}
    )  # fmt: skip
    assert read_item_metadata(_page(body, head=head), url=URL).authors == ["Jane Holloway"]


def test_a_desk_credit_with_its_date_is_still_the_desk() -> None:
    body = f"<h1>Storm closes the harbour for a day</h1><p>By The Associated Press</p><p>Nov. 19, 2019</p>{TEXT}"
    page = read_visible_page(parse_html(_page(body)))
    assert desk_credit_near(page.blocks, 0) == ["The Associated Press"]
