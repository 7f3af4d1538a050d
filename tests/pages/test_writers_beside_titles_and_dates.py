"""Writers a page shows beside its item's title or its date, where no "By" line stands (the twentieth batch of the
page corpus showed them): a script-only player page that writes its track for readers without scripts inside
``<noscript>``, its heading "<title> by <uploader>"; a post's header line that is only its date, its writer's
linked name or handle and a count of comments or a rating ("4.12.22 Jane Roe 19", "solate 4 2008-09-22 22:55").

Each page below is written for the test in the shape of a kind of real page; none is a copy of one.
"""

from __future__ import annotations

from research_crawler.pages.metadata import read_item_metadata

URL = "https://media.example.org/view/abc123"
TEXT = "<p>" + "A sentence about the post that goes on for a while to make a paragraph of it. " * 4 + "</p>"
SHELL = "<div><p>Your current browser isn't compatible with this site.</p><p>Please download a newer one.</p></div>"


def _authors(body: str, *, head: str = "<title>A Post About Gardens</title>") -> list[str]:
    page = f"<!doctype html><html><head>{head}</head><body>{body}</body></html>"
    return [str(name) for name in read_item_metadata(page, url=URL).authors]


def _player(inside: str) -> str:
    return f"{SHELL}<noscript><article><header>{inside}</header><p>Genre: Dance</p></article></noscript>"


PLAYER_HEAD = (
    '<title>Lost Gardens by Bramble Sound | Listen online</title><meta property="og:title" content="Lost Gardens">'
)


def test_a_script_only_page_shows_its_item_and_its_uploader_inside_noscript() -> None:
    body = _player(
        '<h1><a href="/bramble/lost-gardens">Lost Gardens</a> by <a href="/bramble">Bramble Sound</a></h1>'
        "published on <time>2015-02-19T09:11:40Z</time>"
    )
    assert _authors(body, head=PLAYER_HEAD) == ["Bramble Sound"]


def test_a_noscript_copy_beside_a_page_that_shows_its_own_heading_stays_unseen() -> None:
    body = (
        f"<h1>Lost Gardens</h1>{TEXT}<noscript><article><h1><a href='/bramble/lost-gardens'>Lost Gardens</a> by "
        "<a href='/bramble'>Bramble Sound</a></h1></article></noscript>"
    )
    assert _authors(body, head=PLAYER_HEAD) == []


def test_a_heading_that_names_more_than_its_uploader_after_the_title_credits_no_one() -> None:
    body = _player(
        '<h1><a href="/bramble/lost-gardens">Lost Gardens</a> by <a href="/bramble">Bramble Sound</a> and friends</h1>'
    )
    assert _authors(body, head=PLAYER_HEAD) == []


def test_the_date_a_linked_name_and_a_count_of_comments_under_the_title_name_the_writer() -> None:
    body = (
        '<h1>A Post About Gardens</h1><div><em class="date">4.12.22</em><span><a href="/users/1029">Jane Roe'
        f'</a></span><span><a href="#comments">19</a></span></div>{TEXT}'
    )
    assert _authors(body) == ["Jane Roe"]


def test_a_linked_handle_a_rating_and_the_date_under_the_title_name_the_writer() -> None:
    body = f'<h1>A Post About Gardens</h1><div><a href="/people/solate/">solate</a> 4 2008-09-22 22:55:12</div>{TEXT}'
    assert _authors(body) == ["solate"]


def test_a_section_linked_beside_the_date_is_no_writer() -> None:
    body = f'<h1>A Post About Gardens</h1><div>4.12.22 <a href="/politics">Politics</a> 19</div>{TEXT}'
    assert _authors(body) == []


def test_a_linked_name_beside_the_date_among_other_words_is_no_writer_of_this_line() -> None:
    body = (
        f'<h1>A Post About Gardens</h1><div>4.12.22 photos courtesy of <a href="/users/1029">Jane Roe</a></div>{TEXT}'
    )
    assert _authors(body) == []


def test_an_events_host_under_its_title_is_no_writer() -> None:
    body = (
        '<div>Thursday, 24 May 2018</div><h1>An Evening of Flutter</h1><div><a href="/groups/gpul">Asociación G.</a>'
        f'</div><div><a href="/members/12">Hosted by<br>Asociación G.</a></div>{TEXT}'
    )
    assert _authors(body, head="<title>An Evening of Flutter</title>") == []


def test_a_title_that_credits_its_item_by_a_name_the_page_shows_alone_names_the_writer() -> None:
    body = (
        "<section><h2>Gardens of the Coast : Deep Dive</h2><p>Jane Roe</p>"
        '<p><a href="https://code.example.net/janeroe">https://code.example.net/janeroe</a></p></section>'
        "<section><h2>Why gardens?</h2><p>Soil</p></section>"
    )
    assert _authors(body, head="<title>Gardens of the Coast by Jane Roe</title>") == ["Jane Roe"]


def test_a_title_by_a_name_the_page_never_shows_alone_names_no_writer() -> None:
    body = f"<section><h2>Gardens of the Coast</h2><p>Jane Roe and others met here.</p>{TEXT}</section>"
    assert _authors(body, head="<title>Gardens of the Coast by Jane Roe</title>") == []


NEWS_HEAD = '<title>Cloud Profits Rise - Example News</title><meta property="og:site_name" content="Example News">'


def test_the_papers_name_in_square_brackets_under_the_dateline_is_its_one_writer() -> None:
    body = f"<h1>Cloud Profits Rise</h1><div>» 28 October 2024 17:55</div><div>[Example News]</div>{TEXT}"
    assert _authors(body, head=NEWS_HEAD) == ["Example News"]


def test_a_word_in_square_brackets_under_the_dateline_credits_no_one() -> None:
    body = f"<h1>Cloud Profits Rise</h1><div>» 28 October 2024 17:55</div><div>[Video]</div>{TEXT}"
    assert _authors(body, head=NEWS_HEAD) == []


def test_a_wire_storys_writer_in_brackets_after_its_last_sentence_is_the_writer() -> None:
    story = (
        "<p>Taipei, Nov. 17 (Agency) The ministry released updated guidelines on Thursday, adding targets for "
        "the coming decade and a plan for wind power and solar power across the island's counties. The plan is "
        "also a highlight of the updated policies. (By Alison Hsiao) Enditem/</p>"
    )
    body = f"<h1>Guidelines Released</h1><div>11/17/2023 05:40 PM</div>{story}<div>Latest</div><div>Sports</div>"
    assert _authors(body, head="<title>Guidelines Released</title>") == ["Alison Hsiao"]


def test_a_bracketed_by_inside_a_sentence_is_no_signature() -> None:
    story = (
        "<p>The ministry released updated guidelines (by Alison Hsiao's count, the fourth this year) on Thursday, "
        "adding targets for the coming decade and a plan for wind power and solar power across the counties.</p>"
    )
    body = f"<h1>Guidelines Released</h1><div>11/17/2023 05:40 PM</div>{story}<div>Latest</div>"
    assert _authors(body, head="<title>Guidelines Released</title>") == []


CODE_HEAD = '<title>Fix the login · abc1234 · garden/garden</title><meta property="og:title" content="garden">'


def test_a_commits_author_is_its_writer_where_the_page_wraps_the_commit_in_its_furniture() -> None:
    body = (
        '<nav><a href="/">Explore</a> <a href="/garden">garden</a></nav><div class="site-nav-container">'
        "<p>Fix the login, so that users of the other provider are signed in too</p><p>commit abc1234 1 parent</p>"
        '<p><a href="/jroe">jroe</a> authored August 01, 2013</p><p>Showing 1 changed file</p></div>'
    )
    assert _authors(body, head=CODE_HEAD) == ["jroe"]


def test_an_unlinked_word_before_authored_is_no_commits_writer() -> None:
    body = (
        '<nav><a href="/">Explore</a></nav><div class="site-nav-container"><p>Fix the login, so that users of the '
        "other provider are signed in too</p><p>Everything authored August 01, 2013</p></div>"
    )
    assert _authors(body, head=CODE_HEAD) == []


def test_a_posted_by_label_over_a_linked_handle_and_its_date_beside_the_item_names_the_writer() -> None:
    body = (
        '<div class="details"><div>Posted By</div><div><a href="/users/ginop">ginop</a> on 11/15/13</div>'
        "<div>Tagged: html template</div></div><div><h1>A Starter Template</h1><p>A basic template that I use "
        f"when I start a new project.</p><pre>&lt;!doctype html&gt;</pre></div>{TEXT}"
    )
    assert _authors(body, head="<title>A Starter Template</title>") == ["ginop"]
