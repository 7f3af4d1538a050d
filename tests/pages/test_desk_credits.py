"""Bylines that credit no person — an agency, a desk, initials — are the page's one writer, read as shown; a person
beside an agency is the person; the site's own name is a writer only where the page shows it as a byline.

Each page below is written for the test in the shape of a kind of real page; none is a copy of one.
"""

from __future__ import annotations

import json

import pytest

from research_crawler.pages.desk_credits import credit_of
from research_crawler.pages.metadata import read_item_metadata

URL = "https://news.example.org/2024/07/18/story"
TEXT = "<p>" + "A sentence of the article that goes on for a while to make a paragraph of it. " * 4 + "</p>"


def _page(body: str, *, title: str = "", head: str = "") -> str:
    return f"<!doctype html><html><head><title>{title}</title>{head}</head><body>{body}</body></html>"


def _json_ld(data: dict[str, object]) -> str:
    return f'<script type="application/ld+json">{json.dumps(data)}</script>'


@pytest.mark.parametrize(
    ("line", "credit"),
    [
        ("By The Associated Press", "The Associated Press"),
        ("Associated Press in Valencia", "Associated Press"),
        ("dpa", "dpa"),
        ("Reuters", "Reuters"),
        ("Example-Redaktion", "Example-Redaktion"),
        ("AFP", "AFP"),
        ("Jane Doe, AP", None),
        ("Andrew Smith / AP", None),
        ("Read more", None),
        ("Example-Bildredaktion", None),  # a photo desk is no writer
    ],
)
def test_a_credit_line_is_read_as_a_credit_only_where_it_names_no_person(line: str, credit: str | None) -> None:
    assert credit_of(line) == credit


def test_an_agency_credit_over_the_date_under_the_standfirst_is_the_one_writer() -> None:
    body = (
        "<h1>Death toll in the fire rises to ten</h1><p>Police continue to search the debris after the blaze</p>"
        f"<p>Associated Press in Valencia</p><p>Sat 24 Feb 2024 12.42 CET</p>{TEXT}"
    )
    found = read_item_metadata(_page(body, title="Death toll in the fire rises to ten | Example"), url=URL)
    assert found.authors == ["Associated Press"]


def test_the_paper_crediting_itself_with_an_agency_is_one_credit_the_papers() -> None:
    body = (
        "<h1>Vers une sortie du conflit ?</h1><p>Le médiateur a remis son texte à la direction et aux syndicats.</p>"
        "<p>Exemple.fr avec AFP</p><p>Publié le 12 avril 2015 à 22h23 - Mis à jour le 13 avril 2015 à 12h28</p>"
        f"{TEXT}"
    )
    page = _page(body, title="Vers une sortie du conflit ? | Exemple")
    assert read_item_metadata(page, url="https://www.exemple.fr/article/2015/04/12/conflit").authors == ["Exemple.fr"]


def test_a_byline_of_linked_credits_with_its_date_glued_on_credits_the_first() -> None:
    body = (
        "<h1>Der Schriftsteller ist gestorben</h1><p>Er galt als mächtigste Stimme seiner Generation.</p>"
        '<p><a href="/autor/dpa">dpa</a><a href="/autor/red">Example-Redaktion</a> Palma15.04.25 09:56</p>'
        f"{TEXT}"
    )
    assert read_item_metadata(_page(body, title="Der Schriftsteller ist gestorben"), url=URL).authors == ["dpa"]


def test_initials_and_an_agency_signing_off_the_story_credit_the_initials() -> None:
    body = f"<h1>Notenbank räumt Versäumnisse ein</h1>{TEXT}{TEXT}<p>sak/Reuters</p><p>Diskutieren Sie mit</p>"
    assert read_item_metadata(_page(body, title="Notenbank räumt Versäumnisse ein"), url=URL).authors == ["sak"]


def test_a_live_blogs_desk_credit_beats_its_json_ld_roster_of_editors() -> None:
    editors = [{"@type": "Person", "name": name} for name in ("Ann Berg", "Olaf Marx", "Mia Pohl", "Tom Vogt")]
    head = _json_ld({"@type": "LiveBlogPosting", "headline": "Krieg in Nahost: die Entwicklungen", "author": editors})
    body = (
        "<h1>Krieg in Nahost: die Entwicklungen</h1><p>Die wichtigsten Neuigkeiten im Überblick</p>"
        f"<p>Example-Redaktion 18.07.2024, 11.08 Uhr</p>{TEXT}<p>Ann Berg (abe)</p>{TEXT}<p>Olaf Marx (oma)</p>"
    )
    found = read_item_metadata(_page(body, title="Krieg in Nahost: die Entwicklungen", head=head), url=URL)
    assert found.authors == ["Example-Redaktion"]


def test_a_json_ld_organisation_that_is_the_site_gives_way_to_the_initials_signing_the_story() -> None:
    head = _json_ld({"@type": "BlogPosting", "headline": "Ostsee ist ein Krokodil", "author": "Der Beispiel"})
    body = (
        '<div class="post-author"><span class="fn">Der Beispiel</span></div>'
        f"<h1>Ostsee ist ein Krokodil</h1>{TEXT}{TEXT}<p>ssi, dan; Foto: Archiv</p>"
    )
    page = _page(body, title="Der Beispiel: Ostsee ist ein Krokodil", head=head)
    assert read_item_metadata(page, url="https://www.der-beispiel.com/2018/04/krokodil.html").authors == ["ssi"]


def test_a_person_beside_an_agency_is_the_person() -> None:
    body = f"<h1>Markets fall on rate fears</h1><p>By Jane Doe, AP</p><p>May 3, 2021</p>{TEXT}"
    assert read_item_metadata(_page(body, title="Markets fall on rate fears"), url=URL).authors == ["Jane Doe"]


def test_the_sites_name_over_its_date_is_no_byline() -> None:
    body = f"<h1>Actress looks stunning in new photos</h1><p>Example Naija October 06, 2018</p>{TEXT}"
    page = _page(body, title="Actress looks stunning in new photos")
    assert read_item_metadata(page, url="https://www.examplenaija.com/2018/10/photos.html").authors == []


@pytest.mark.parametrize(
    ("lines", "credit"),
    [
        ("<h2>By THE EXAMPLE TIMES</h2><h2>Published: November 13, 2010</h2>", "THE EXAMPLE TIMES"),
        ("<h2>Short stays are back in fashion again</h2><p>Apr 16th 2015, 20:31 by B.R.</p>", "B.R."),
        ("<p>Published November 13, 2015</p><p>Associated Press</p>", "Associated Press"),
        ("<p>Scotland is worst hit, with winds of up to 84mph.</p><p>Press Association</p>", "Press Association"),
    ],
)
def test_a_credit_under_the_title_by_its_date_or_alone_as_an_agency_is_the_one_writer(lines: str, credit: str) -> None:
    body = f"<h1>Thousands without power as the storm closes schools</h1>{lines}<p>Share on Facebook</p>{TEXT}"
    page = _page(body, title="Thousands without power as the storm closes schools")
    assert read_item_metadata(page, url=URL).authors == [credit]


def test_a_journals_citation_line_under_the_title_is_no_agency_credit() -> None:
    body = (
        "<h1>Prediction of bleeding outcomes with warfarin</h1>"
        "<p>EXJ 2016; 353 doi: 10.1136/exj.i2607 (Published 24 May 2016) Cite this as: EXJ 2016;353:i2607</p>"
        f"<p>Related content</p>{TEXT}"
    )
    assert read_item_metadata(_page(body, title="Prediction of bleeding outcomes with warfarin"), url=URL).authors == []


def test_a_link_naming_a_thing_with_its_date_credits_no_one() -> None:
    """A venue's page lists its years as links ("APR 2024"): a word in capitals with a date, but a link to what it
    names, not a desk's credit."""
    body = "<main><h1>International Workshop on Program Repair</h1><ul><li><a href='/apr2024'>APR 2024</a></li></ul>"
    found = read_item_metadata(_page(body + "</main>", title="Bib: International Workshop on Program Repair"), url=URL)
    assert found.authors == []


def test_the_sites_account_by_the_date_is_no_byline_though_its_json_ld_calls_it_the_author() -> None:
    """A blog's account named after the site, in its JSON-LD author and over the date under the headline, is the
    masthead's; a caption under the photo naming the person the headline names is whom the story is about."""
    head = _json_ld({"@type": "BlogPosting", "author": {"@type": "Person", "name": "ExampleNaija"}})
    body = (
        "<h1>Actress Kate Example is looking stunning in new photos</h1><p>ExampleNaija October 06, 2018</p>"
        f"<p>Photos released online show the actress at an event.</p><p>Kate Example</p>{TEXT}"
    )
    page = _page(body, title="Actress Kate Example is looking stunning in new photos", head=head)
    assert read_item_metadata(page, url="https://www.examplenaija.com/2018/10/photos.html").authors == []


@pytest.mark.parametrize(
    "head",
    [
        _json_ld({"@type": "BlogPosting", "author": {"@type": "Organization", "name": "AcmeTunnel Team"}}),
        '<meta property="og:site_name" content="AcmeTunnel Team">',
    ],
)
def test_a_teams_credit_under_the_title_is_the_byline_though_it_bears_the_sites_name(head: str) -> None:
    """A credit "AcmeTunnel Team" under the headline is the group that wrote the post, never the masthead, even
    where the site declares that name as its own or as its JSON-LD author."""
    body = (
        "<header><h1>How tunnels work</h1><div><div>AcmeTunnel Team</div><div>Published by our engineers</div></div>"
        f"</header><p>December 17, 2025</p>{TEXT}"
    )
    page = _page(body, title="How tunnels work | AcmeTunnel Blog", head=head)
    assert read_item_metadata(page, url="https://acmetunnel.example/blog/how-tunnels-work").authors == [
        "AcmeTunnel Team"
    ]


def test_a_writer_the_headline_names_and_signs_with_by_is_the_byline() -> None:
    body = f"<h1>Big Media With Jane Example, Episode 38</h1><p>By JANE EXAMPLE, Executive Editor</p>{TEXT}"
    page = _page(body, title="Big Media With Jane Example, Episode 38")
    assert read_item_metadata(page, url=URL).authors == ["JANE EXAMPLE"]


def test_an_agency_credit_alone_after_the_story_signs_it() -> None:
    body = f"<h1>The coach says he was wrong</h1>{TEXT}{TEXT}<p>XPN</p><p>Related topics</p>"
    found = read_item_metadata(_page(body, title="The coach says he was wrong"), url=URL)
    assert found.authors == ["XPN"]


def test_a_wires_end_mark_after_the_story_is_no_credit() -> None:
    body = f"<h1>The coach says he was wrong</h1>{TEXT}{TEXT}<p>(END)</p>"
    found = read_item_metadata(_page(body, title="The coach says he was wrong"), url=URL)
    assert found.authors == []


def test_a_word_in_capitals_after_a_line_that_runs_on_is_no_sign_off() -> None:
    body = f"<h1>The coach says he was wrong</h1>{TEXT}<p>For the symptoms and the advice, check</p><p>XPN</p>"
    found = read_item_metadata(_page(body, title="The coach says he was wrong"), url=URL)
    assert found.authors == []
