"""Bylines as the sixteenth batch of the page corpus showed them (news pages in many languages): the words that open
a byline in other languages ("Firmado por"), a linked name glued to the date line after it ("Posted By: Jane
Roeon: March 02"), a Chinese credit line that names the story's source first ("来源：…作者：…"), the outlet a writer
writes for set on the line under the name ("Do Example, em Lisboa", the site's own name) — no co-writer —, a page's
text-size buttons ("A A"), and a byline in a block a computer's screen shows though a phone's hides it.

Each page below is written for the test in the shape of a kind of real page; none is a copy of one.
"""

from __future__ import annotations

from research_crawler.pages.metadata import read_item_metadata
from research_crawler.pages.person_names import begins_with_by, split_people
from research_crawler.pages.reporter_credits import reporters_named

TEXT = "<p>" + "A sentence of the article that goes on for a while to make a paragraph of it. " * 4 + "</p>"


def _page(body: str, *, title: str = "") -> str:
    return f"<!doctype html><html><head><title>{title}</title></head><body>{body}</body></html>"


def test_a_linked_name_glued_to_the_date_line_after_posted_by_is_the_writer_not_a_staff_credit_below() -> None:
    body = (
        "<article><h1>Three students received scholarships</h1>"
        '<div>Posted By: <a href="/author/jroe">Jane Roe</a>on: March 02, 2022In: <a href="/c/ed">Education</a>'
        '</div><p><a href="#">Print</a> <a href="#">Email</a></p><p>From The Example staff reports</p>'
        f"{TEXT}</article>"
    )
    found = read_item_metadata(_page(body), url="https://www.example-tribune.com/2022/03/02/story/")
    assert found.authors == ["Jane Roe"]


def test_a_chinese_credit_line_that_names_the_source_first_credits_its_writer() -> None:
    assert reporters_named("来源：新华网作者：温素霞") == ["温素霞"]
    assert reporters_named("来源：人民网 作者：王小明") == ["王小明"]
    assert reporters_named("来源：新华网") == [] and reporters_named("来源：新华网 责任编辑：严玉洁") == []
    body = (
        "<div><h1>日本调查：三千余家日企剥削外国实习生</h1><p>来源：新华网作者：温素霞</p>"
        f"<p>2016-08-19 17:00</p>{TEXT}</div>"
    )
    assert read_item_metadata(_page(body), url="https://world.example.cn/hot/2016-08/9334639.html").authors == [
        "温素霞"
    ]


def test_signed_by_in_other_languages_opens_a_byline_and_a_desk_credit_is_read_without_it() -> None:
    assert begins_with_by("Firmado por Redacción") and begins_with_by("Escrito por Ana López")
    body = (
        "<div><h1>Nuevo encuentro para negociar la desafectación del suelo</h1>"
        '<p>Firmado por <a href="/autor/redaccion">Redacción</a></p><p>13/10/2016 10:02</p>'
        f"<p>/tiempo de lectura: 4 minutos/</p><p>A A</p>{TEXT}</div>"
    )
    found = read_item_metadata(_page(body), url="https://www.example-diario.es/2016/10/13/nuevo-encuentro/")
    assert found.authors == ["Redacción"]


def test_letters_alone_are_no_name() -> None:
    assert split_people("A A") == [] and split_people("A. B.") == ["A. B."]


def test_the_outlet_a_writer_writes_from_under_the_name_is_no_co_writer() -> None:
    body = (
        "<div><h1>O que o herói poderá fazer fora da franquia</h1><p>Imagem: Reprodução</p>"
        f"<p>Ana Beatriz Souza</p><p>Do Exemplo, em São Paulo</p><p>25/08/2019 04h00</p>{TEXT}</div>"
    )
    found = read_item_metadata(_page(body), url="https://www.exemplo.com.br/2019/08/25/heroi.htm")
    assert found.authors == ["Ana Beatriz Souza"]


def test_the_sites_name_under_the_writers_name_is_no_co_writer() -> None:
    body = (
        "<div><h1>Weekly calendar: community events beginning Dec. 1</h1>"
        '<p>By <a href="/people/mlc">Mary Lou Cruz</a></p><p>South Florida Sun-Courier</p>'
        f"<p>Nov 29, 2021 at 8:25 am</p>{TEXT}</div>"
    )
    found = read_item_metadata(_page(body), url="https://www.sun-courier.com/community/2021/11/29/calendar/")
    assert found.authors == ["Mary Lou Cruz"]


def test_a_block_hidden_only_on_a_phones_narrow_screen_is_shown() -> None:
    body = (
        "<div><h1>Cytogenetics Market</h1>"
        '<div class="d-none d-sm-block"><table><tr><td>Jul 2018 | 15419 Views</td></tr>'
        "<tr><td>Author(s) : Pallavi Jain</td><td>Tables: 132</td></tr></table></div>"
        '<div class="d-none"><p>Author(s) : Hidden Person</p></div>'
        f"{TEXT}</div>"
    )
    found = read_item_metadata(_page(body), url="https://www.example-research.com/reports/cytogenetics-market")
    assert found.authors == ["Pallavi Jain"]


def test_a_blog_post_footer_in_the_chrome_signed_with_a_handle_and_a_time_names_the_writer() -> None:
    body = (
        f"<div class='post'><h1>Search is now three times faster</h1>{TEXT}"
        '<div class="post-footer">Posted by <a href="/profile/1">@jdoe</a> at <a href="/p/1">11:30 AM</a></div>'
        "</div><div class='sidebar'><p>Posted by <a href='/profile/2'>Someone Else</a></p></div>"
    )
    page = _page(body, title="Example Engineering: Search is now three times faster")
    found = read_item_metadata(page, url="https://engineering.example.com/2011/04/search-faster.html")
    assert found.authors == ["@jdoe"]


def test_a_blog_themes_entry_footer_names_its_linked_writer_where_nothing_above_does() -> None:
    body = (
        f"<div><h1>Wir werden nicht aufgeben</h1>{TEXT}{TEXT}"
        "<p>Von <a href='/author/hausblog'>haus blog</a> am 21/02/2021. Abgelegt unter <a href='/c/x'>Politik</a>."
        " Sie können alle Antworten zu diesem Eintrag durch den RSS 2.0 verfolgen.</p></div>"
    )
    page = _page(body, title="Wir werden nicht aufgeben | Haus Blog")
    assert read_item_metadata(page, url="https://www.example-blog.de/2021/02/21/aufgeben/").authors == ["haus blog"]
