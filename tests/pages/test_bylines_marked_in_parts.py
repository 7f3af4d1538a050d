"""Bylines whose markup says less, or more, than the reader sees (the page corpus's heldout24 batch): an author box
reads as its names without its "Follow" button and with its blocks apart; a social handle linked beside the
writer's linked name is the writer's account, no byline of its own; a date line above the byline that runs long
("Published … Updated …") is passed over; the markup that marks one name of a "By A, B and C" line as the author
stands for the whole line; and a byline whose words are hidden from assistive readers and said in its
``aria-label`` is read from that label.

Each page below is written for the test in the shape of a kind of real page; none is a copy of one.
"""

from __future__ import annotations

from research_crawler.pages.byline_runs import item_byline_run
from research_crawler.pages.bylines import without_furniture
from research_crawler.pages.html_tree import parse_html
from research_crawler.pages.marked_in_byline import whole_byline
from research_crawler.pages.metadata import read_item_metadata
from research_crawler.pages.page_shows import read_visible_page
from research_crawler.pages.shown_text import shown_text

URL = "https://news.example.org/2019/03/18/story"
TEXT = "<p>" + "A sentence of the story that goes on for a while to make a paragraph of it. " * 4 + "</p>"
TITLE = "The harbour board votes to rebuild the old pier by next summer"


def _page(body: str) -> str:
    return f"<!doctype html><html><head><title>{TITLE}</title></head><body>{body}</body></html>"


def test_an_author_box_reads_without_its_button_and_with_its_blocks_apart() -> None:
    box = parse_html(
        '<div class="author"><div><a href="/@maren">Maren Oswald</a></div><div><button>Follow</button></div>'
        "<div>Staff Writer</div></div>"
    )
    assert shown_text(box).split() == ["Maren", "Oswald", "Staff", "Writer"]
    body = (
        f'<h1>{TITLE}</h1><div class="pw-author"><div><a href="/@maren">Maren Oswald</a></div>'
        f"<div><button>Follow</button></div></div><p>Mar 18, 2019 · 7 min read</p>{TEXT}"
    )
    assert read_item_metadata(_page(body), url=URL).authors == ["Maren Oswald"]


def test_a_handle_linked_beside_the_writers_name_is_the_writers_account() -> None:
    body = (
        f"<h1>{TITLE}</h1>"
        "<p>Published Mon, Mar 18 2019 9:29 AM EDT Updated Mon, Mar 18 2019 11:37 AM EDT</p>"
        '<p><a href="/people/tom-reyes">Tom Reyes</a><a href="https://social.example/tomreyes">@TomReyes</a></p>'
        f"{TEXT}"
    )
    assert read_item_metadata(_page(body), url=URL).authors == ["Tom Reyes"]


def test_a_handle_alone_stays_a_credit() -> None:
    assert without_furniture("@quietfox", ("@quietfox",)) == ("@quietfox", ("@quietfox",))
    assert without_furniture("Tom Reyes@TomReyes", ("Tom Reyes", "@TomReyes")) == ("Tom Reyes", ("Tom Reyes",))


def test_a_long_paragraph_above_any_name_still_ends_the_search_for_a_byline() -> None:
    body = f"<h1>{TITLE}</h1>{TEXT}<p>Tom Reyes</p>{TEXT}"
    visible = read_visible_page(parse_html(_page(body)))
    assert visible.byline_after(0) == []


def test_one_marked_name_of_a_by_line_stands_for_the_whole_line() -> None:
    byline = (
        '<p>By <span><a href="/by/ann-holt">Ann Holt</a>, </span><span><a href="/by/ben-ives">Ben Ives</a></span>'
        ' and <span class="last-byline"><a href="/by/cara-lund">Cara Lund</a></span></p>'
    )
    video = "<div><h2>Watch: the pier at dawn</h2><p>0:00/2:33</p></div>"
    body = f"<h1>{TITLE}</h1>{video * 3}<p>Teaser under the video.</p>{byline}<p>Oct. 9, 2018</p>{TEXT}"
    assert read_item_metadata(_page(body), url=URL).authors == ["Ann Holt", "Ben Ives", "Cara Lund"]


def test_a_by_line_that_does_not_hold_the_marked_name_changes_nothing() -> None:
    page = read_visible_page(parse_html(_page(f"<h1>{TITLE}</h1><p>By Ann Holt and Ben Ives</p>{TEXT}")))
    assert whole_byline(page.blocks, ["Cara Lund"]) == ["Cara Lund"]
    assert whole_byline(page.blocks, ["Ben Ives"]) == ["Ann Holt", "Ben Ives"]
    assert whole_byline(page.blocks, []) == []


def test_a_byline_hidden_from_assistive_readers_is_read_from_its_label() -> None:
    byline = (
        '<div class="Byline__Group" aria-label="By Lena Marsh"><span aria-hidden="true">By</span>'
        '<span aria-hidden="true"><a href="/profile/lena-marsh">Lena Marsh</a></span></div>'
    )
    body = f"<h1>{TITLE}</h1><p>A short dek that sums the story up.</p>{byline}<p>8 min read</p>{TEXT}"
    assert read_item_metadata(_page(body), url=URL).authors == ["Lena Marsh"]


def test_an_empty_element_without_a_label_reads_empty() -> None:
    assert shown_text(parse_html('<div class="byline"><span></span></div>')).strip() == ""


def test_the_teasers_bylines_further_down_are_other_stories() -> None:
    teaser = "<div><h3>Another story of the week, told at length</h3><p>By {}</p><p>{}</p></div>"
    teasers = "".join(
        teaser.format(name, "A teaser line, one sentence long, for the story listed. " * 3)
        for name in ("Ed Kirby", "Mona Hart", "Ed Kirby", "Ross Bale")
    )
    body = f"<h1>{TITLE}</h1><p>By Gail Sherwood</p>{TEXT}{TEXT}{teasers}"
    assert read_item_metadata(_page(body), url=URL).authors == ["Gail Sherwood"]


def test_author_rows_set_together_are_one_byline() -> None:
    assert item_byline_run([(3, "Ann Holt"), (5, "Ben Ives"), (40, "Ed Kirby")], 1) == [
        (3, "Ann Holt"),
        (5, "Ben Ives"),
    ]
    assert item_byline_run([(3, "Ann Holt"), (5, "Ben Ives")], 1) == [(3, "Ann Holt"), (5, "Ben Ives")]
    # the byline over a second form of the headline is nearer than the teasers far below it
    assert item_byline_run([(54, "Ann Holt"), (163, "Ed Kirby")], 57) == [(54, "Ann Holt")]
    assert item_byline_run([(20, "Ann Holt"), (90, "Ed Kirby")], None) == [(20, "Ann Holt")]


def test_a_summary_box_heading_under_the_byline_is_no_co_writer() -> None:
    body = (
        f"<h1>{TITLE}</h1><p>Published Wed, Nov 20 2019 4:29 AM EST Updated an hour ago</p>"
        '<p><a href="/people/tom-reyes">Tom Reyes</a><a href="https://social.example/tomreyes">@TomReyes</a></p>'
        f"<p>Key Points</p><ul><li>The board votes on Monday.</li></ul>{TEXT}"
    )
    assert read_item_metadata(_page(body), url=URL).authors == ["Tom Reyes"]
