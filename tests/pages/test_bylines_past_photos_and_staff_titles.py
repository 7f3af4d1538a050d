"""Bylines a reader finds where the page's furniture or a staff box seem to say otherwise: a "By" line under the lead
photo's credit and caption, and a writer the page signs its item with ("… by Jane Doe") whom a staff box elsewhere
sets over a job title ("Jane Doe" / "Editor").

Each page below is written for the test in the shape of a kind of real page; none is a copy of one.
"""

from __future__ import annotations

import json

from research_crawler.pages.byline_labels import role_credits
from research_crawler.pages.html_tree import parse_html
from research_crawler.pages.metadata import read_item_metadata
from research_crawler.pages.page_shows import read_visible_page

URL = "https://news.example.org/2019/11/18/story"
TEXT = "<p>" + "A sentence of the article that goes on for a while to make a paragraph of it. " * 4 + "</p>"
PHOTO = (
    '<figure><img src="lead.jpg" alt=""><figcaption><span>Jane Roe | Example Images</span>'
    "<p>The governor at a ceremony in the capital last year, when she was still a member of the house.</p>"
    "</figcaption></figure>"
)


def _page(body: str, *, head: str = "") -> str:
    return f"<!doctype html><html><head><title>Story</title>{head}</head><body>{body}</body></html>"


def _json_ld_author(name: str) -> str:
    data = {"@context": "https://schema.org", "@type": "NewsArticle", "author": {"@type": "Person", "name": name}}
    return f'<script type="application/ld+json">{json.dumps(data)}</script>'


def test_a_by_line_under_the_lead_photo_and_its_caption_is_the_byline() -> None:
    html = _page(
        f"<article><h1>The state doubles down on its slogan</h1><p>Updated Nov 19, 9:41 AM</p>{PHOTO}"
        f'<p>By <a href="/staff/jdoe">Jane Doe | Example Media</a></p>{TEXT}</article>'
    )
    assert read_item_metadata(html, url=URL).authors == ["Jane Doe"]


def test_a_by_line_past_the_photo_beats_a_tag_author_written_with_the_outlet() -> None:
    html = _page(
        f"<article><h1>The state doubles down on its slogan</h1><p>Updated Nov 19, 9:41 AM</p>{PHOTO}"
        f"<p>By Jane Doe | Example Media</p>{TEXT}</article>",
        head=_json_ld_author("Jane Doe | Example Media for example.org"),
    )
    assert read_item_metadata(html, url=URL).authors == ["Jane Doe"]


def test_a_by_line_after_the_storys_first_paragraph_is_no_header_byline() -> None:
    """Past the story's own text a "By" line may quote another work ("By Jane Doe" over a book's review)."""
    html = _page(
        f"<article><h1>Five books for the winter</h1>{PHOTO}{TEXT}<p>By Jane Doe</p>{TEXT}</article>",
    )
    assert read_item_metadata(html, url=URL).authors == []


STAFF_BOX = (
    "<aside><h3>Our team</h3><div><p>John Roe</p><p>Editor</p></div><div><p>Jane Doe</p><p>Editor</p></div></aside>"
)


def test_a_writer_signed_by_the_item_stays_a_writer_though_a_staff_box_calls_them_editor() -> None:
    html = _page(
        f"<article><h1>A new laptop is expected next year</h1>"
        f'<p>Monday November 18, 2019 7:45 am PST by <a href="/staff/jdoe">Jane Doe</a></p>{TEXT}</article>'
        f"{STAFF_BOX}",
        head=_json_ld_author("Jane Doe"),
    )
    assert read_item_metadata(html, url=URL).authors == ["Jane Doe"]


def test_a_name_shown_only_over_an_editors_role_is_no_writer() -> None:
    tree = parse_html(_page(f"<h1>A new laptop is expected next year</h1>{TEXT}{STAFF_BOX}"))
    writers, others = role_credits(read_visible_page(tree).blocks)
    assert writers == [] and others == {"John Roe", "Jane Doe"}


def test_a_signed_name_is_taken_out_of_the_other_roles() -> None:
    tree = parse_html(_page(f"<h1>A new laptop is expected next year</h1><p>by Jane Doe</p>{TEXT}{STAFF_BOX}"))
    assert role_credits(read_visible_page(tree).blocks)[1] == {"John Roe"}


def test_a_bare_name_under_the_headline_stays_the_writer_though_the_author_box_calls_them_editor() -> None:
    html = _page(
        "<article><h1>A new laptop is expected next year</h1><p>Jane Doe</p><p>9:00 AM PST · January 12, 2016</p>"
        f"{TEXT}<div class='author-box'><p>Jane Doe</p><p>Editor</p><p>Jane covers hardware.</p></div></article>",
        head=_json_ld_author("Jane Doe"),
    )
    assert read_item_metadata(html, url=URL).authors == ["Jane Doe"]


def test_a_name_shown_alone_only_below_its_editors_role_is_still_no_writer() -> None:
    tree = parse_html(_page(f"<h1>A new laptop is expected next year</h1>{TEXT}{STAFF_BOX}<p>Jane Doe</p>"))
    assert role_credits(read_visible_page(tree).blocks)[1] == {"John Roe", "Jane Doe"}


def test_names_above_a_box_that_credits_a_writer_and_an_editor_keep_the_boxs_roles() -> None:
    credits = "<div><p>Jane Doe</p><p>Penulis</p><p>John Roe</p><p>Editor</p></div>"
    tree = parse_html(_page(f"<h1>A new laptop is expected next year</h1><p>Jane Doe,</p><p>John Roe</p>{credits}"))
    assert role_credits(read_visible_page(tree).blocks) == (["Jane Doe"], {"John Roe"})
