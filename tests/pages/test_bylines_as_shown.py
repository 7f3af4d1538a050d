"""Writers as the fifteenth batch of the page corpus showed them (news, magazine and blog pages of 2003-2018): a
line of role credits set apart by commas ("INTERVIEW BY …, PHOTO BY …"), a dateline whose parts a slash sets apart
or whose writer is followed by the time, a letter's closing words over its writer's name, an "Author:" field that
gives a pen name, a staff list's role under each name (no label over names), and a sharing button's service (no
writer).

Each page below is written for the test in the shape of a kind of real page; none is a copy of one.
"""

from __future__ import annotations

from research_crawler.pages.bylines import dated_people, people_in
from research_crawler.pages.metadata import read_item_metadata

URL = "https://magazine.example.org/2010/01/story"
TEXT = "<p>" + "A sentence of the article that goes on for a while to make a paragraph of it. " * 4 + "</p>"


def _page(body: str, *, title: str = "Example Magazine") -> str:
    return f"<!doctype html><html><head><title>{title}</title></head><body>{body}</body></html>"


def test_a_line_of_role_credits_set_apart_by_commas_credits_the_interviewer_not_the_photographer() -> None:
    assert people_in("INTERVIEW BY JANE ROEBUCK, PHOTO BY JOHN MARLOWE") == ["JANE ROEBUCK"]
    assert people_in("PHOTOS BY JOHN MARLOWE, STORY BY JANE ROEBUCK") == ["JANE ROEBUCK"]
    body = f"<h1>A Talk With a Cartoonist</h1><p>INTERVIEW BY JANE ROEBUCK, PHOTO BY JOHN MARLOWE</p>{TEXT}"
    assert read_item_metadata(_page(body), url=URL).authors == ["JANE ROEBUCK"]


def test_a_dateline_whose_parts_a_slash_sets_apart_names_its_writer() -> None:
    line = "Written by Ann Kowalczyk / January 10, 2010 2:30 PM / 0 Comments"
    assert dated_people(line) == ["Ann Kowalczyk"]
    body = f"<h1>Cartoon: A Tablet With Everything</h1><p>{line}</p>{TEXT}"
    assert read_item_metadata(_page(body), url=URL).authors == ["Ann Kowalczyk"]


def test_a_dateline_that_gives_the_time_after_the_writers_name_names_the_writer() -> None:
    assert dated_people("Ann Kowalczyk at 8:00 pm Sun, Apr 13, 2014") == ["Ann Kowalczyk"]
    body = (
        "<h1>Tick, tick, tick</h1><p><a href='/author/ann'>Ann Kowalczyk</a> at 8:00 pm Sun, Apr 13, 2014</p>"
        f"{TEXT}<nav><p><a href='/x'>A Vindication for the Public: a statement</a></p></nav>"
    )
    assert read_item_metadata(_page(body), url=URL).authors == ["Ann Kowalczyk"]


def test_a_letter_signed_under_its_closing_words_names_its_writer() -> None:
    body = (
        "<header><h1><a href='/'>ann</a></h1></header><p>August 01, 2012</p><h2>Dear Editor</h2>"
        f"<p>Sir,</p>{TEXT}{TEXT}<p>Respectfully,</p><p>Ann Kowalczyk</p>"
        "<footer><p><a href='/'>Back to blog</a></p></footer>"
    )
    assert read_item_metadata(_page(body), url=URL).authors == ["Ann Kowalczyk"]


def test_a_name_alone_after_a_paragraph_without_closing_words_signs_nothing() -> None:
    body = f"<h2>Dear Editor</h2>{TEXT}{TEXT}<p>Ann Kowalczyk</p><footer><p><a href='/'>Back</a></p></footer>"
    assert read_item_metadata(_page(body), url=URL).authors == []


def test_an_author_field_that_links_one_pen_name_names_that_writer() -> None:
    body = (
        "<h1>Holiday Homes Are a Family Necessity</h1>"
        "<p>November 29, 2010 | Author: <a href='/author/coastgal'>CoastGal</a></p>"
        f"{TEXT}"
    )
    assert read_item_metadata(_page(body), url=URL).authors == ["CoastGal"]


def test_a_staff_lists_role_under_each_name_is_no_label_over_the_byline() -> None:
    body = (
        f"<h1>No Time to Rest for the Defense</h1><p>By ANN KOWALCZYK</p>{TEXT}"
        "<h4>Contributors</h4><h5><a href='/ann'>Ann Kowalczyk</a></h5><h6>Editor</h6>"
        "<p><a href='https://social.example/ann'>@annk</a></p>"
        "<h5><a href='/bea'>Bea Lindqvist</a></h5><h6>News Editor</h6>"
        "<p><a href='https://social.example/bea'>@beal</a></p>"
    )
    assert read_item_metadata(_page(body), url=URL).authors == ["ANN KOWALCZYK"]


def test_a_sharing_buttons_service_is_no_writer() -> None:
    body = (
        "<h1>How Paper Money Saved a Country</h1><p>03:00 pm</p><p>October 4, 2010</p>"
        "<p><a href='/s1'>Twitter (28)</a></p><p><a href='/s2'>Facebook (5)</a></p>"
        "<p><a href='/s3'>Stumble Upon</a></p><p><a href='/s4'>Reddit</a></p>"
        f"{TEXT}<p>by <a href='/people/ann' rel='author'>Ann Kowalczyk</a></p>"
    )
    assert "Stumble Upon" not in read_item_metadata(_page(body), url=URL).authors


def test_a_close_button_after_the_writers_bio_is_no_writer() -> None:
    body = (
        "<h1>Who Wrote the Best Lines</h1><p>by <a href='/ann'>Ann Kowalczyk</a></p>"
        "<p>A former copywriter, Ann Kowalczyk is now the founder of the <a href='/x'>Soundbite Institute</a>, "
        "a firm that writes speeches for people who have to give them.</p><p><a href='#'>X Close</a></p>"
        f"{TEXT}"
    )
    assert read_item_metadata(_page(body), url=URL).authors == ["Ann Kowalczyk"]


def test_a_writers_title_at_the_site_after_the_name_is_no_second_writer() -> None:
    body = (
        "<h1>A Star Avoids the Question</h1><p>By <a href='/ann'>Ann Kowalczyk</a>, Example Entertainment Diva</p>"
        f"<p>on Friday, December 9, 2011</p>{TEXT}"
    )
    found = read_item_metadata(_page(body), url="https://example.com/article/37/a-star-avoids-the-question")
    assert found.authors == ["Ann Kowalczyk"]


def test_an_agencys_dashed_sign_off_at_the_end_of_the_story_is_its_writer() -> None:
    body = (
        f"<h2>A Team Parts Ways With Its Coach</h2><p>Example Sports</p>{TEXT * 5}"
        "<p>— The Associated Press</p><p><a href='/next'>Next: another story about another team &gt;</a></p>"
    )
    found = read_item_metadata(_page(body, title="A Team Parts Ways With Its Coach - Example Sports"), url=URL)
    assert found.authors == ["The Associated Press"]
