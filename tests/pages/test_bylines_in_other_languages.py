"""Bylines as pages in other languages and scripts set them: a correspondent's name over "skrifar frá …" (writes
from), a Japanese writer's name alone in an element marked as the author, a "Redaktion:" or "Text:" credit.

Each page below is written for the test in the shape of a kind of real page; none is a copy of one.
"""

from __future__ import annotations

import pytest

from research_crawler.pages.metadata import read_item_metadata

URL = "https://news.example.org/2025/02/11/story"
TEXT = "<p>" + "A sentence of the article that goes on for a while to make a paragraph of it. " * 4 + "</p>"


def _page(body: str, *, title: str = "") -> str:
    return f"<!doctype html><html><head><title>{title}</title></head><body>{body}</body></html>"


@pytest.mark.parametrize(
    ("name", "saying"),
    [
        ("Atli Steinn Guðmundsson", "skrifar frá Porsgrunn"),
        ("Jane Roe", "reports from Kyiv"),
        ("Max Mustermann", "berichtet aus Brüssel"),
    ],
)
def test_a_name_over_a_line_that_says_they_write_is_the_byline(name: str, saying: str) -> None:
    body = (
        "<h1>Sálfræðihernaður fyrir dómi</h1><p>Íslensku konurnar fjórar mættu til að styðja við bakið á vitnum.</p>"
        f'<aside class="menu"><p>{name}</p><p>{saying}</p></aside>{TEXT}'
    )
    assert read_item_metadata(_page(body, title="Sálfræðihernaður fyrir dómi"), url=URL).authors == [name]


def test_a_japanese_name_alone_in_an_element_marked_as_the_author_is_the_writer() -> None:
    body = (
        "<h1>停戦「最も合意に近い」　最終案に双方同意か</h1>"
        '<div class="articletag"><a href="/reporter/x/" class="articletag-author">松岡大地</a>'
        f'<a href="/world/">国際</a></div>{TEXT}'
    )
    assert read_item_metadata(_page(body, title="停戦「最も合意に近い」"), url=URL).authors == ["松岡大地"]


@pytest.mark.parametrize(
    ("credit", "names"),
    [
        ("Redaktion: Roman Beispiel und Marcel Muster", ["Roman Beispiel", "Marcel Muster"]),
        ("Text: Jane Roe", ["Jane Roe"]),
        ("Tekst: Anne Berg", ["Anne Berg"]),
    ],
)
def test_a_desk_or_text_credit_naming_people_names_the_writers(credit: str, names: list[str]) -> None:
    body = f"<h1>Schnellere Integration in den Arbeitsmarkt</h1>{TEXT}{TEXT}<p>{credit}</p><p>Sendung: 25.04.2024</p>"
    assert read_item_metadata(_page(body, title="Schnellere Integration"), url=URL).authors == names


def test_a_correspondents_name_and_place_over_the_date_past_the_standfirsts_points_is_the_byline() -> None:
    body = (
        "<p>En Macon, cerca de Lyon</p><h1>Cae en Francia la jefa del aparato militar</h1>"
        "<ul><li>Bajo su mando se encontraba el control de todo</li><li>Su pareja, implicado en el atentado</li></ul>"
        f"<p>Ángeles Escrivá | Madrid</p><p>Actualizado domingo 28/10/2012 03:21 horas</p>{TEXT}"
    )
    found = read_item_metadata(_page(body, title="Cae en Francia la jefa del aparato militar"), url=URL)
    assert found.authors == ["Ángeles Escrivá"]


@pytest.mark.parametrize("credit", ["文・写真 山田太郎", "文・写真：山田太郎", "取材・文／山田太郎"])
def test_a_japanese_text_and_photos_credit_names_the_writer(credit: str) -> None:
    body = f"<h1>春の京都を歩く</h1><p>{credit}</p><p>2025年4月1日</p>{TEXT}"
    assert read_item_metadata(_page(body, title="春の京都を歩く"), url=URL).authors == ["山田太郎"]


def test_a_by_run_together_with_the_linked_name_under_the_title_is_the_byline_not_the_related_posts() -> None:
    related = "".join(
        f'<h3><a href="/p{n}">Another story number {n}</a></h3><div>by<a href="/a{n}">{name}</a>'
        "</div><p>September 27, 2021</p>"
        for n, name in enumerate(["James Kamala", "Esther Takwa"])
    )
    body = (
        '<h1>Solar-powered streetlights boost women’s businesses</h1><div>by<a href="/a">Sauli '
        f"Giliard</a></div><p>April 24, 2019</p>{TEXT}<h2>Related Posts</h2>{related}"
    )
    found = read_item_metadata(_page(body, title="Solar-powered streetlights boost women’s businesses"), url=URL)
    assert found.authors == ["Sauli Giliard"]
