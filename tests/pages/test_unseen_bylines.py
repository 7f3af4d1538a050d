"""Writers as the rebuilt twelfth and thirteenth batches of the page corpus showed them (news and magazine pages in
several languages): page furniture that reads like two capitalised words ("Printer-Friendly Version", "FONT SIZE")
is no one's name, while the real byline is read — under the title's second showing, in a Chinese, Japanese or Korean
reporter's credit, in a "By" line that goes on past the names, or as the e-mail address an agency signs with.

Each page below is written for the test in the shape of a kind of real page; none is a copy of one.
"""

from __future__ import annotations

import pytest

from research_crawler.pages.bylines import names_after_by
from research_crawler.pages.given_names import is_ordinary_word
from research_crawler.pages.metadata import read_item_metadata
from research_crawler.pages.person_names import is_person_name, split_people
from research_crawler.pages.reporter_credits import reporters_named

URL = "https://news.example.org/2019/08/20/story"
TEXT = "<p>" + "A sentence of the article that goes on for a while to make a paragraph of it. " * 4 + "</p>"


def _page(body: str, *, title: str = "") -> str:
    return f"<!doctype html><html><head><title>{title}</title></head><body>{body}</body></html>"


@pytest.mark.parametrize("furniture", ["Printer-Friendly Version", "Recent Activity", "FONT SIZE", "Latest Posts"])
def test_furniture_that_opens_with_an_ordinary_word_is_no_name(furniture: str) -> None:
    assert not is_person_name(furniture) and split_people(furniture) == []


@pytest.mark.parametrize(
    "name",
    ["Ana Lopez", "Rose Hill", "JOHN SMITH", "Will Knight", "Os Keyes", "Jemele Hill", "In-Sue Oh", "Bola Okafor"],
)
def test_a_name_whose_given_name_is_also_a_word_or_rare_stays_a_name(name: str) -> None:
    assert is_person_name(name)


def test_a_word_is_ordinary_only_when_common_and_nobodys_given_name() -> None:
    assert is_ordinary_word("Printer-Friendly") and is_ordinary_word("recent")
    assert not is_ordinary_word("Rose") and not is_ordinary_word("Avianne") and not is_ordinary_word("Chien-Ming")


def test_the_byline_under_the_titles_second_showing_is_read_not_the_furniture_under_the_first() -> None:
    body = (
        "<div><p>The Ins and Outs of Native Client</p><p>Page 1</p><p>Page 2</p><p>Printer-Friendly Version</p>"
        "<p>View All</p></div>"
        "<div><p>Editor-In-Chief:</p><p>Kris Graft</p><p>Features Director:</p><p>Chris Nutter</p></div>"
        f"<div><p>The Ins and Outs of Native Client</p><p>by Jeff Ward [Programming]</p><p>August 2, 2012</p>"
        f"{TEXT}</div>"
    )
    found = read_item_metadata(_page(body, title="Example - Features - The Ins and Outs of Native Client"), url=URL)
    assert found.authors == ["Jeff Ward"]


def test_a_headline_is_where_the_byline_is_looked_for_not_a_copy_of_the_title_in_a_bar() -> None:
    body = (
        "<div><p>N. Korea slams S. Korea for joint drill</p><p>Seoul Forecast</p><p>CAI Moderate 80</p></div>"
        "<div><p>Facebook X</p><p>Copy URL</p><p>URL is copied.</p><p>OK</p></div>"
        "<h1>N. Korea slams S. Korea for joint drill</h1><p>North Korea 09:31 August 20, 2019</p>"
        "<p>LIKE SAVE PRINT</p><p>FONT SIZE</p>"
        f"{TEXT}<p>kokobj@news.example.org</p><p>(END)</p><footer><p>Keywords</p></footer>"
    )
    found = read_item_metadata(_page(body, title="N. Korea slams S. Korea for joint drill | Example"), url=URL)
    assert found.authors == ["kokobj"]  # the story is signed by the writer's address alone


@pytest.mark.parametrize(
    ("line", "names"),
    [
        ("半月谈记者 史卫燕", ["史卫燕"]),
        ("編集委員 中沢克二", ["中沢克二"]),
        ("（中央社記者溫貴香台北21日電）行政院副院長今天表示", ["溫貴香"]),
        ("최윤호 기자 uknow@example.co.kr", ["최윤호"]),
        ("作者：王小明", ["王小明"]),
        ("新华社北京3月1日电（记者张三、李四）", ["张三", "李四"]),
        ("责任编辑：严玉洁", []),  # an editor
        ("记者 张三 摄", []),  # a photographer
        ("来源：中国日报网", []),  # the source, the site itself
        ("文化部长 王大明", []),  # a minister's title
    ],
)
def test_a_reporters_credit_names_the_writer_and_no_other_credit_does(line: str, names: list[str]) -> None:
    assert reporters_named(line) == names


def test_a_chinese_story_credits_its_reporter_under_the_title() -> None:
    body = f"<h1>益阳：数字是优长</h1><p>2020-01-02 17:11</p><p>来源：半月谈网</p><p>半月谈记者 史卫燕</p>{TEXT}"
    found = read_item_metadata(_page(body, title="益阳：数字是优长-半月谈"), url="https://www.example.cn/a/1")
    assert found.authors == ["史卫燕"]


@pytest.mark.parametrize(
    ("line", "names"),
    [
        ("By PHILLIP RAWLS 10/ 5/11 09:19 PM ET", ["PHILLIP RAWLS"]),
        (
            "By JORDAN ROBERTSON and RACHEL METZ - AP Technology Writers | AP – 1 hr ago",
            ["JORDAN ROBERTSON", "RACHEL METZ"],
        ),
        ("Par LILIAN ALEMAGNA, LAURE BRETTON Envoyés spéciaux à Toulouse", ["LILIAN ALEMAGNA", "LAURE BRETTON"]),
        ("By Dana A. Ford, James S.A. Corey and Tom Watkins, CNN", ["Dana A. Ford", "James S.A. Corey", "Tom Watkins"]),
        ("Byron Smith went home", []),
    ],
)
def test_a_by_line_names_its_writers_up_to_where_the_names_end(line: str, names: list[str]) -> None:
    assert names_after_by(line) == names


def test_a_by_line_that_goes_on_past_its_names_is_the_byline() -> None:
    body = (
        "<h1>Apple says its chief is resigning</h1>"
        "<p>By JORDAN ROBERTSON and RACHEL METZ - AP Technology Writers | AP – 1 hr 4 mins ago</p>"
        f"{TEXT}"
    )
    found = read_item_metadata(_page(body, title="Apple says its chief is resigning - Example News"), url=URL)
    assert found.authors == ["JORDAN ROBERTSON", "RACHEL METZ"]


def test_a_blog_post_signed_below_with_a_link_beside_the_name_names_its_writer() -> None:
    body = (
        "<p>by Jeff Atwood</p><h2>Feb 12, 2010</h2><h3>Welcome Back Comments</h3>"
        f"{TEXT}<p>Posted by Jeff Atwood <a href='/reactions'>View blog reactions</a></p>"
    )
    found = read_item_metadata(_page(body, title="Coding Example: Welcome Back Comments"), url=URL)
    assert found.authors == ["Jeff Atwood"]


def test_a_reporters_credit_is_read_where_no_title_is_found() -> None:
    body = f"<p>2018年6月19日</p><p>編集委員 中沢克二</p>{TEXT}"
    found = read_item_metadata(_page(body), url="https://www.example.jp/article/1")
    assert found.authors == ["中沢克二"]


def test_the_sites_own_name_is_no_writer_whoever_proposes_it() -> None:
    body = f"<h1>Cae en Francia la jefa del aparato</h1><p>Actualizado domingo 28/10/2012 03:21 horas</p>{TEXT}"
    head = "<meta name='author' content='Elmundo Es'>"
    page = f"<!doctype html><html><head><title>Cae en Francia la jefa del aparato | elmundo.es</title>{head}</head>"
    found = read_item_metadata(
        f"{page}<body>{body}<p>elmundo.es</p></body></html>", url="https://www.elmundo.es/a.html"
    )
    assert found.authors == []
