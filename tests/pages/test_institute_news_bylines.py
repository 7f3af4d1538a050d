"""Institutes' news, agencies' releases and magazines' articles as the page corpus's fifth batch showed them: a
dateline written "date - Name", a topic line run on from a date, a byline cut off by the next heading, a byline
past a subtitle and a bar of sharing buttons, a wire service credited in capitals over the date, and a dateline the
theme sets apart beside the title.

Each page below is written for the test in the shape of a kind of real page; none is a copy of one.
"""

from __future__ import annotations

from research_crawler.pages.bylines import dated_people
from research_crawler.pages.metadata import read_item_metadata

URL = "https://institute.example.org/news/2022/story"
TEXT = "<p>" + "A sentence of the article that goes on for a while to make a paragraph of it. " * 4 + "</p>"


def _page(body: str, *, title: str = "", head: str = "") -> str:
    return f"<!doctype html><html><head><title>{title}</title>{head}</head><body>{body}</body></html>"


def test_a_date_then_a_dash_then_a_name_is_a_dateline_naming_the_writer() -> None:
    body = f"<h1>Die Freiheit der Planung</h1><p>Essay</p><p>25.10.2022 - Reiner Nagel</p>{TEXT}"
    found = read_item_metadata(_page(body, title="Die Freiheit der Planung | Urania Berlin"), url=URL)
    assert (found.authors, found.date) == (["Reiner Nagel"], "2022-10-25")
    assert found.sources["authors"] == "page_byline"


def test_words_run_on_from_a_date_are_topics_and_a_label_before_a_date_is_no_name() -> None:
    assert dated_people("07.12.2022 Wissenschaft Atmosphäre Klima") == []
    assert dated_people("Last Modified: Feb 18, 2020") == []
    assert dated_people("07.12.2022, von Anna Beispiel") == ["Anna Beispiel"]
    body = (
        "<h1>Neuer Blick auf ein altes Foto: ein Modell simuliert das Klimasystem</h1>"
        "<p>07.12.2022 <a href='/t/w'>Wissenschaft</a> <a href='/t/a'>Atmosphäre</a> <a href='/t/k'>Klima</a></p>"
        f"{TEXT}<p>Kontakt:</p><p>Dr. Hendrik Muster</p>"
    )
    found = read_item_metadata(_page(body, title="Neuer Blick auf ein altes Foto"), url=URL)
    assert (found.authors, found.date) == ([], "2022-12-07")


def test_a_heading_after_a_byline_ends_it() -> None:
    body = (
        "<h1>Kommunalwahlen in Nordmazedonien</h1><p>von Daniel Braun, Davor Pasoski</p>"
        f"<h2>Erdrutschsieg der Opposition</h2><p>5. November 2021</p>{TEXT}"
    )
    found = read_item_metadata(_page(body, title="Kommunalwahlen in Nordmazedonien"), url=URL)
    assert found.authors == ["Daniel Braun", "Davor Pasoski"]


def test_a_byline_past_a_subtitle_and_a_bar_of_sharing_buttons_over_its_date_beats_a_photo_credit() -> None:
    body = (
        "<p>Ciencia</p><h1>¿Ha llegado realmente la Antártida a los 20 grados?</h1>"
        "<h2>Los científicos cuestionan el reciente récord y advierten de la tendencia al calentamiento</h2>"
        "<div class='share-menu'><a href='#f'>Compartir en Facebook</a> <a href='#t'>Compartir en Twitter</a></div>"
        "<div class='share-menu'><a href='#g'>Guardar</a></div>"
        "<p>Nuño Domínguez</p><p><a href='#tw'>Twitter</a></p><p>19 FEB 2020 - 18:37 CET</p>"
        f"{TEXT}<figure><img src='a.jpg'><figcaption>Una base antártica. "
        "<span class='author'>Camila Buvinic</span></figcaption></figure>"
    )
    found = read_item_metadata(_page(body, title="Antártida"), url=URL)
    assert (found.authors, found.date) == (["Nuño Domínguez"], "2020-02-19")


def test_a_wire_service_in_capitals_over_the_date_is_a_corporate_author_and_the_date_beside_the_title_counts() -> None:
    body = (
        "<h2>National / Crime &amp; Legal</h2><h1>Losing face: 6,000 surgical masks stolen from a hospital</h1>"
        "<p>JIJI</p><aside><p>Feb 18, 2020</p><p>Article history</p><p>Online: Feb 18, 2020</p>"
        f"<p>Last Modified: Feb 18, 2020</p></aside>{TEXT}"
    )
    found = read_item_metadata(_page(body, title="Losing face | The Daily"), url=URL)
    assert (found.authors, found.date) == (["JIJI"], "2020-02-18")
    # a word in capitals over no date is a rubric ("AVOCAT"), not a wire service
    rubric = f"<h1>Libre cours : un titre</h1><p>AVOCAT</p><p>Un chapeau qui résume l’article en une phrase.</p>{TEXT}"
    assert read_item_metadata(_page(rubric, title="Libre cours : un titre"), url=URL).authors == []


def _json_ld_author(name: str, kind: str = "Organization") -> str:
    return (
        '<script type="application/ld+json">{"@context": "https://schema.org", "@type": "NewsArticle", '
        f'"author": {{"@type": "{kind}", "name": "{name}"}}}}</script>'
    )


def test_a_von_field_under_a_datum_field_names_the_writer_not_a_commenter_below() -> None:
    body = (
        "<h1>„Abgebrochene Forschung“ – Eine neue Studie</h1><p>Datum: 10 Feb 2020</p><p>Von: Wolfgang Schmale</p>"
        f"<p>Tags: Geschichte, Wissenschaft</p>{TEXT}<h3>One Comment</h3>"
        "<div class='comment'><span class='author'>Philipp Ther</span> 11. Februar 2020 at 9:41</div>"
    )
    found = read_item_metadata(_page(body, title="„Abgebrochene Forschung“ | Wolfgang Schmale"), url=URL)
    assert (found.authors, found.date) == (["Wolfgang Schmale"], "2020-02-10")


def test_a_rubric_in_capitals_under_the_title_is_no_subtitle_and_par_name_le_date_is_the_byline() -> None:
    body = f"<h1>Libre cours : un avocat et la guerre</h1><p>AVOCAT</p><p>Par Matthieu Hy le 07 Mai 2020</p>{TEXT}"
    head = '<meta property="og:title" content="Libre cours : un avocat et la guerre">'
    found = read_item_metadata(
        _page(body, title="Libre cours : un avocat et la guerre - Avocat | Actualité", head=head), url=URL
    )
    assert (found.title, found.authors, found.date) == (
        "Libre cours : un avocat et la guerre",
        ["Matthieu Hy"],
        "2020-05-07",
    )


def test_a_blog_theme_s_entry_footer_names_the_writer_even_by_a_handle() -> None:
    footer = (
        "<footer class='entry-meta'>Dieser Beitrag wurde am 04/02/2020 von kj in Bundesgericht, SVG veröffentlicht. "
        "Schlagworte: StGB 12.</footer>"
    )
    found = read_item_metadata(_page(f"<h1>Rasende Polizisten</h1>{TEXT}{footer}", title="Rasende Polizisten"), url=URL)
    assert found.authors == ["kj"]
    english = "<footer>This entry was posted in News on May 3, 2016 by Jane Roe. Bookmark the permalink.</footer>"
    posted = read_item_metadata(_page(f"<h1>A Post</h1>{TEXT}{english}", title="A Post"), url=URL)
    assert posted.authors == ["Jane Roe"]


def test_a_tag_author_that_is_the_publication_gives_way_to_the_people_the_byline_shows() -> None:
    body = (
        "<p>Circular Economy</p><h1>Warum es ein Ressourcenschutzgesetz braucht</h1>"
        "<p>Der jährliche Rohstoffkonsum muss bis Mitte des Jahrhunderts mindestens halbiert werden, sagen sie.</p>"
        f"<p>Clara Löw, Siddharth Prakash &amp; Klaus Jacob</p><p>26. Oktober 2023</p>{TEXT}<footer>Makronom</footer>"
    )
    found = read_item_metadata(
        _page(body, title="Warum es ein Ressourcenschutzgesetz braucht", head=_json_ld_author("Makronom")), url=URL
    )
    assert found.authors == ["Clara Löw", "Siddharth Prakash", "Klaus Jacob"]


def test_a_tag_author_that_is_the_site_s_name_on_an_unsigned_article_is_no_author() -> None:
    body = f"<h1>Open Progress</h1><p>Why collaborative thinking beats individual smarts</p><p>Jun 18th 2018</p>{TEXT}"
    title = "Why collaborative thinking beats individual smarts | Open Future | The Economist"
    found = read_item_metadata(_page(body, title=title, head=_json_ld_author("The Economist")), url=URL)
    assert found.authors == [] and "site's name" in found.notes["authors"]
    # a one-person site named after its owner keeps its owner as the tag's author
    personal = _page(
        f"<h1>On FAIR data</h1>{TEXT}<footer>© Donny Winston</footer>",
        title="On FAIR data | Donny Winston",
        head=_json_ld_author("Donny Winston", "Person"),
    )
    assert read_item_metadata(personal, url=URL).authors == ["Donny Winston"]
