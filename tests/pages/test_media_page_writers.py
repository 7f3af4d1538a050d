"""Writers on media and code pages (the twentieth batch of the page corpus showed them): the uploader a page shows
beside the date is the writer; a button's or a pager's words ("Copy Embed", "Prev Next") and a count under the
date ("235" views) are no one's name; a labelled "Posted by:" credit ends where its date begins.

Each page below is written for the test in the shape of a kind of real page; none is a copy of one.
"""

from __future__ import annotations

from research_crawler.pages.metadata import read_item_metadata

URL = "https://media.example.org/view/abc123"
TEXT = "<p>" + "A sentence about the clip that goes on for a while to make a paragraph of it. " * 4 + "</p>"


def _page(body: str, *, title: str = "A Clip About Gardens") -> str:
    return f"<!doctype html><html><head><title>{title}</title></head><body>{body}</body></html>"


def _authors(body: str) -> list[str]:
    return [str(name) for name in read_item_metadata(_page(body), url=URL).authors]


def test_sharing_buttons_under_the_title_are_no_writer() -> None:
    body = (
        f"<h1>A Clip About Gardens</h1><p>A short description of the clip.</p><div>Share</div>"
        f'<div><a href="#">Copy Embed</a></div><div><a href="#">Copy Link</a></div>{TEXT}'
    )
    assert _authors(body) == []


def test_a_pager_over_the_caption_is_no_writer() -> None:
    body = (
        f'<h1>A Clip About Gardens</h1><div>26</div><div><a href="/p/1">Prev</a> <a href="/p/3">Next</a></div>'
        f"<p>The view from the hill; July 2011</p>{TEXT}"
    )
    assert _authors(body) == []


def test_a_linked_handle_over_the_bare_date_under_the_title_is_the_writer_not_the_count_under_it() -> None:
    body = (
        f'<h1>A Clip About Gardens</h1><div><a href="/u/wecsum">wecsum</a></div><div>Jul 5th, 2013</div>'
        f"<div>235</div><div>0</div>{TEXT}"
    )
    assert _authors(body) == ["wecsum"]


def test_a_number_under_the_date_is_no_poster() -> None:
    body = f"<h1>A Clip About Gardens</h1><div>Jul 5th, 2013</div><div>235</div>{TEXT}"
    assert _authors(body) == []


def test_a_posted_by_credit_ends_where_its_date_begins() -> None:
    body = (
        f"<h1>A Clip About Gardens</h1><ul><li>Language: English</li><li>Views: 9,541</li>"
        f"<li>Posted by: gardenfan on Mar 5, 2008</li></ul>{TEXT}"
    )
    assert _authors(body) == ["gardenfan"]


def test_a_by_line_under_the_title_credits_its_uploader_by_handle() -> None:
    body = f"<h1>A Clip About Gardens</h1><div>by gardenfan42</div><div>00:00</div>{TEXT}"
    assert _authors(body) == ["gardenfan42"]


def test_a_by_line_with_the_post_s_age_credits_the_uploader_without_it() -> None:
    body = f"<h1>A Clip About Gardens</h1><div>by gardenfan 16h</div>{TEXT}"
    assert _authors(body) == ["gardenfan"]


def test_an_uploaded_by_label_over_an_organisation_s_name_credits_it() -> None:
    body = f"<h1>A Clip About Gardens</h1><h3>Uploaded by</h3><div>Joint Garden Science Program</div>{TEXT}"
    assert _authors(body) == ["Joint Garden Science Program"]


def test_a_by_line_of_furniture_words_credits_no_one() -> None:
    body = f"<h1>A Clip About Gardens</h1><div>by category</div>{TEXT}"
    assert _authors(body) == []


def test_a_sentence_after_by_under_the_title_credits_no_one() -> None:
    body = f"<h1>A Clip About Gardens</h1><p>By clicking Subscribe, you agree</p>{TEXT}"
    assert _authors(body) == []
