"""Bylines whose markup glues the writer's name to what follows it: a Chinese or Japanese name and the date in
sibling elements with no space between ("<span class="writer">山田花子</span><span class="date">2019年04月13日</span>",
shown as one run "山田花子2019年04月13日"), and a name linked with the writer's e-mail beside it ("Jane Doe |
jdoe@example.com"), read as the name and the day they are.

Each page below is written for the test in the shape of a kind of page; none is a copy of a real one.
"""

from __future__ import annotations

from research_crawler.pages.html_tree import parse_html
from research_crawler.pages.metadata import read_item_metadata
from research_crawler.pages.page_shows import read_visible_page

URL = "https://news.example.org/articles/2019/harbour-festival.html"
TITLE = "The harbour festival returns with boats from twelve towns"
PARAGRAPH = "<p>" + "The festival brought boats, music and food stalls to the old harbour for two days. " * 3 + "</p>"


def _page(byline: str) -> str:
    return (
        f"<!doctype html><html><head><title>{TITLE}</title></head><body>"
        f'<nav><a href="/">Home</a> <a href="/news">News</a></nav><main><article><h1>{TITLE}</h1>{byline}'
        f"{PARAGRAPH}</article></main><footer>Example News</footer></body></html>"
    )


WRITER_AND_DAY = (
    '<div class="headline-info"><span class="writer">山田花子</span>'
    '<span class="date"><a href="/archives/2019/04/13/">2019年04月13日 09時00分</a></span></div>'
)
NAME_IN_AUTHOR_BOX = (
    '<div class="author"><a class="avatar" href="#"><img src="/face.jpg" alt=""></a>'
    '<span class="name">王小明</span><span class="date">2017-03-01 14:27:02</span></div>'
)


def test_a_date_glued_to_a_name_in_a_sibling_element_is_set_apart_from_it() -> None:
    texts = [block.text for block in read_visible_page(parse_html(_page(WRITER_AND_DAY))).blocks]
    assert "山田花子 2019年04月13日 09時00分" in texts


def test_a_number_glued_to_a_word_is_not_set_apart_unless_it_opens_a_date() -> None:
    page = _page('<p class="formula">Water is H<sub>2</sub>O, page<span>12</span> of the report.</p>')
    texts = [block.text for block in read_visible_page(parse_html(page)).blocks]
    assert "Water is H2O, page12 of the report." in texts


def test_the_writer_and_day_of_a_name_glued_to_its_date_are_read() -> None:
    meta = read_item_metadata(_page(WRITER_AND_DAY), url=URL)
    assert list(meta.authors) == ["山田花子"]
    assert meta.date == "2019-04-13"


def test_a_chinese_name_in_an_author_box_element_marked_as_a_name_is_the_writer() -> None:
    meta = read_item_metadata(_page(NAME_IN_AUTHOR_BOX), url=URL)
    assert list(meta.authors) == ["王小明"]
    assert meta.date == "2017-03-01"


def test_a_writer_linked_with_the_e_mail_beside_the_name_is_read_without_it() -> None:
    byline = (
        '<div class="byline"><span>By </span><ul class="byline__list"><li class="byline__author">'
        '<a class="byline__link" href="/staff/janedoe/">Jane Doe | jdoe@example.org</a></li></ul></div>'
    )
    meta = read_item_metadata(_page(byline), url=URL)
    assert list(meta.authors) == ["Jane Doe"]


def test_a_link_that_is_only_an_e_mail_stays_furniture_of_the_byline() -> None:
    byline = (
        '<div class="byline">By <a class="byline__link" href="/staff/janedoe/">Jane Doe</a> '
        '<a href="mailto:jdoe@example.org">jdoe@example.org</a></div>'
    )
    meta = read_item_metadata(_page(byline), url=URL)
    assert list(meta.authors) == ["Jane Doe"]
