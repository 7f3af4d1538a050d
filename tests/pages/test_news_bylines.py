"""Articles, blog posts and news pages as the page corpus's fourth batch showed them: bylines written as datelines,
standfirsts and sharing links between a headline and its byline, section names in the <title>, a tag title only the
browser's tab shows, dates in prose beside the dateline, names that are no author (a pull quote's, a menu's, a
profile's address), and a second reader's vote where nothing else names an author; and as the fifth batch showed
them (institutes' news, agencies' releases, magazines): a dateline written "date - Name", a topic line run on from a
date, a byline cut off by the next heading or past a subtitle and a bar of sharing buttons, a wire service credited in
capitals over the date, a dateline the theme sets apart beside the title, "Von:" and "Par … le <date>" bylines, a
rubric under the heading, a blog theme's entry footer, and tag authors that are the publication or the site.

Each page below is written for the test in the shape of a kind of real page; none is a copy of one.
"""

from __future__ import annotations

import pytest

from research_crawler.pages.bylines import dated_people
from research_crawler.pages.item_dates import dates_in_text
from research_crawler.pages.metadata import read_item_metadata
from research_crawler.pages.person_names import is_person_name, split_people

URL = "https://news.example.org/2020/04/19/story"
TEXT = "<p>" + "A sentence of the article that goes on for a while to make a paragraph of it. " * 4 + "</p>"


def _page(body: str, *, title: str = "", head: str = "") -> str:
    return f"<!doctype html><html><head><title>{title}</title>{head}</head><body>{body}</body></html>"


def test_a_dateline_naming_the_writer_under_a_blurb_is_the_byline() -> None:
    body = (
        "<h1></h1><h2>cron notes issue 130: kernels and queues</h2>"
        "<p>cron notes is a newsletter about Linux and open source, sent every Sunday to whoever subscribes.</p>"
        "<p>I respect your privacy and you will not get spam, ever: a weekly newsletter and nothing more.</p>"
        f"<p>Mattias Geniar, April 19, 2020</p>{TEXT}"
    )
    found = read_item_metadata(_page(body, title="cron notes issue 130: kernels and queues"), url=URL)
    assert (found.authors, found.date) == (["Mattias Geniar"], "2020-04-19")


def test_a_byline_written_with_its_date_after_an_image_credit_and_sharing_links_is_read() -> None:
    body = (
        "<p>The Schmooze</p><h1>The Adorable Reason You Can Set Your Alert Sound to Hummus</h1>"
        "<ul><li>Share on Facebook</li><li>Share on Twitter</li><li>Print Article</li></ul>"
        "<p>Image by Getty Images</p><p>By Laura E. Adkins December 28, 2016</p>"
        f"{TEXT}<h3>UPCOMING EVENT</h3><p>NY-12 Candidate Forum</p><p>Aug 10, 2022</p>"
    )
    found = read_item_metadata(_page(body, title="Why Does Slack Say Hummus?"), url=URL)
    assert (found.title, found.authors, found.date) == (
        "The Adorable Reason You Can Set Your Alert Sound to Hummus",
        ["Laura E. Adkins"],
        "2016-12-28",
    )


def test_a_headline_over_its_standfirst_and_byline_is_the_title_not_the_standfirst() -> None:
    body = (
        "<p>Technology</p><h1>Why New Yorkers Received a Push Alert About a Manhunt</h1>"
        "<p>The city has never before used the emergency system the way it did Monday morning.</p>"
        f"<p>By Kaveh Waddell</p><p>September 19, 2016</p>{TEXT}"
    )
    found = read_item_metadata(
        _page(body, title="Why New Yorkers Received an Alert About a Manhunt - Monthly"), url=URL
    )
    assert found.title == "Why New Yorkers Received a Push Alert About a Manhunt"
    assert (found.authors, found.date) == (["Kaveh Waddell"], "2016-09-19")


def test_a_section_name_the_title_element_repeats_loses_to_the_headline_over_its_dateline() -> None:
    body = (
        "<h2>The Two-Way</h2><h3>America</h3><h1>Jury Finds The Defendant Guilty In Church Shooting</h1>"
        "<p>Facebook</p><p>Twitter</p><p>Email</p><p>December 15, 20163:33 PM ET</p><p>Rebecca Hersher</p>"
        "<p>The defendant is escorted from the police department on June 18, 2015, in a photograph.</p>"
        f"{TEXT}"
    )
    title = "Defendant Convicted Of Church Massacre : The Two-Way : Radio"
    found = read_item_metadata(_page(body, title=title), url=URL)
    assert found.title == "Jury Finds The Defendant Guilty In Church Shooting"
    assert (found.authors, found.date) == (["Rebecca Hersher"], "2016-12-15")


def test_a_tag_title_only_the_tab_shows_gives_way_to_the_heading_that_says_it_in_other_words() -> None:
    tag = "Die Ablehnung der Gendersprache » SciLogs - Wissenschaftsblogs"
    head = f'<meta property="og:title" content="{tag}">'
    body = (
        "<h1>BLOG: Die Engelbart-Galaxis</h1><p>Digitale Welten jenseits der Schriftkultur</p>"
        f"<h1>Die Ablehnung von „Gendersprache“ – medial produziert</h1><p>Von Henning Lobin</p>{TEXT}"
    )
    found = read_item_metadata(_page(body, title=tag, head=head), url=URL)
    assert found.title == "Die Ablehnung von „Gendersprache“ – medial produziert"
    assert found.sources["title"] == "page_heading" and tag in found.notes["title"]


def test_a_dateline_beats_a_date_in_the_standfirst_nearer_the_title() -> None:
    body = (
        "<h1>Die Abmahnungen gegen Nutzer freier Bilder</h1>"
        "<p>Seit Dezember 2015 verschickt eine Firma zahlreiche Abmahnungen wegen fehlerhafter Lizenzangaben.</p>"
        f"<p>23.06.2016 um 16:14 Uhr - Markus Reuter - 91 Ergänzungen</p>{TEXT}"
    )
    found = read_item_metadata(_page(body, title="Die Abmahnungen gegen Nutzer freier Bilder"), url=URL)
    assert (found.authors, found.date) == (["Markus Reuter"], "2016-06-23")


def test_a_date_glued_to_its_time_is_read() -> None:
    assert dates_in_text("December 15, 20163:33 PM ET") == ["2016-12-15"]
    assert dates_in_text("issue 20163 of 2016") == []


def test_an_editor_s_initials_in_parentheses_after_a_name_are_no_part_of_it() -> None:
    assert split_people("Julia Hitz (eg)") == ["Julia Hitz"]
    body = f"<h1>Berlin confronts its colonial past</h1>{TEXT}<p>Author: Julia Hitz (eg)</p>"
    found = read_item_metadata(_page(body, title="Berlin confronts its colonial past | News"), url=URL)
    assert found.authors == ["Julia Hitz"]


def test_words_with_digits_are_no_person_s_name() -> None:
    assert not is_person_name("NY-12 Candidate Forum")
    assert is_person_name("Jean-Luc Picard")


def test_where_nothing_else_names_an_author_a_second_reader_s_name_is_kept_if_the_page_shows_it() -> None:
    head = '<meta name="author" content="Jane Doe">'
    body = f"<h1>Resolving the Time Paradox</h1>{TEXT}<p>Jane Doe writes software and essays in Lisbon.</p>"
    found = read_item_metadata(_page(body, title="Resolving the Time Paradox", head=head), url=URL)
    assert (found.authors, found.sources.get("authors")) == (["Jane Doe"], "trafilatura")
    hidden = read_item_metadata(_page(f"<h1>Resolving the Time Paradox</h1>{TEXT}", head=head), url=URL)
    assert hidden.authors == []  # a name the page never shows is no vote


def test_the_day_htmldate_finds_is_kept_where_the_page_writes_that_day_in_its_chrome() -> None:
    body = (
        f"<h1>Die Ablehnung von Gendersprache, medial produziert</h1>{TEXT * 3}"
        "<aside class='sidebar'><span>8. April 2019|</span> <span>Von Henning Lobin</span></aside>"
        f"{TEXT * 9}<p>Akt drei: am Dienstag, den 2.4.2019, stehen die Ergebnisse der Umfrage auf der Titelseite.</p>"
    )
    head = '<meta property="article:published_time" content="2019-04-08T09:00:00+00:00">'
    page = _page(body, title="Die Ablehnung von Gendersprache » Blogs", head=head)
    found = read_item_metadata(page, url="https://blogs.example.org/engelbart/ablehnung")
    # (the Open Graph stamp htmldate reads is a tag of its own since pages43: the day the chrome writes confirms it)
    assert (found.date, found.sources.get("date")) == ("2019-04-08", "opengraph")


#: Pages whose authors are all the test reads: (what the page shows, its <title>, the authors a reader names).
AUTHORS_ONLY = {
    "a_dateline_with_a_weekday_and_von_in_the_header_right_above_the_title_is_the_byline": (
        (
            "<header><nav><a href='/'>Home</a> <a href='/archiv'>Archiv</a></nav>"
            "<div class='meta'>Dienstag, 13. Mai 2014, von Dr. Sebastian Brüggemann</div></header>"
            "<p><a href='#'>Weiterempfehlen</a> <a href='#'>Drucken</a></p>"
            f"<h1>Rezension: Internetrecht, 5. Auflage</h1>{TEXT}"
        ),
        "Rezension: Internetrecht, 5. Auflage - Rechtsblog",
        ["Sebastian Brüggemann"],
    ),
    "a_profile_address_given_as_the_markup_s_author_is_no_name": (
        (
            '<div itemscope itemtype="http://schema.org/BlogPosting">'
            '<a itemprop="author" href="/pages/jane-roe.html">/pages/jane-roe.html</a>'
            "<h1 itemprop='headline'>Rezension: Internetrecht</h1><p>13. Mai 2014, von Jane Roe</p>"
            f"{TEXT}</div>"
        ),
        "Rezension: Internetrecht",
        ["Jane Roe"],
    ),
    "a_pull_quote_s_attribution_names_no_author_of_the_article": (
        (
            "<h1>Why Your Office May Be Too Hot or Cold</h1>"
            f"{TEXT}<div class='pull-quote'><blockquote>I agree with my wife.</blockquote>"
            "<div class='pull-quote__author'><span class='author'>Boris Kingma</span></div></div>"
            f"{TEXT}"
        ),
        "Why Your Office May Be Too Hot or Cold",
        [],
    ),
    "a_menu_heading_over_the_site_s_writers_is_no_author_field": (
        (
            "<nav><h3>Auteurs</h3><ul><li>Pierre Puchot</li><li>Léo Guy-Denarcy</li>"
            "<li>Barbara Stiegler</li></ul></nav>"
            "<h2>Pour le néolibéralisme, la retraite est un archaïsme</h2>"
            f"<p class='byline'>Par <span class='author'>Barbara Stiegler</span></p>{TEXT}"
        ),
        "Pour le néolibéralisme, la retraite est un archaïsme | AOC",
        ["Barbara Stiegler"],
    ),
    "a_citation_line_with_its_date_names_its_journal_not_an_author": (
        (
            "<p>Surveillance, stigma and design for HIV</p><p>by Calvin Liang, Jevan Hutson, and Os Keyes.</p>"
            "<p>First Monday, Volume 25, Number 10 - 5 October 2020</p>"
            f"{TEXT}"
        ),
        "Surveillance, stigma and design for HIV",
        ["Calvin Liang", "Jevan Hutson", "Os Keyes"],
    ),
}


@pytest.mark.parametrize("case", list(AUTHORS_ONLY))
def test_the_authors_a_reader_names(case: str) -> None:
    body, title, authors = AUTHORS_ONLY[case]
    assert read_item_metadata(_page(body, title=title), url=URL).authors == authors


def test_a_dateline_naming_an_organisation_after_by_gives_it_as_the_author() -> None:
    body = (
        "<h1>Access to the encyclopedia restored after two and a half years</h1>"
        f"<p>By Wikimedia Foundation•15 January 2020</p>{TEXT}"
    )
    found = read_item_metadata(_page(body, title="Access restored – Wikimedia Foundation"), url=URL)
    assert (found.authors, found.date) == (["Wikimedia Foundation"], "2020-01-15")


def test_a_tag_date_written_with_its_weekday_is_read_as_a_date() -> None:
    head = (
        '<div itemscope itemtype="http://schema.org/BlogPosting"><h2 itemprop="name">Cloud sets a course</h2>'
        '<span itemprop="datePublished">Thursday, September 29, 2016</span></div>'
    )
    found = read_item_metadata(_page(head + TEXT, title="Cloud sets a course"), url=URL)
    assert found.date == "2016-09-29"


def test_a_post_signed_posted_by_a_surname_after_its_text_names_its_writer() -> None:
    body = (
        "<h1>Internet-Law</h1><p>Onlinerecht und Bürgerrechte</p><h2>17.7.11</h2>"
        f"<h3>Verstößt der Ausschluss von Pseudonymen gegen deutsches Recht?</h3>{TEXT}"
        "<p>posted by Stadler at 12:53</p><p>Comment by Mirko Lange — 17.07, 2011 @ 13:04</p>"
    )
    found = read_item_metadata(_page(body, title="Internet-Law » Verstößt der Ausschluss von Pseudonymen"), url=URL)
    assert found.authors == ["Stadler"]


def test_a_one_person_site_s_owner_is_the_author_where_no_post_names_one() -> None:
    body = f"<h2>Mercurial's Journey to Python 3</h2><p>January 13, 2020</p>{TEXT}<p>Copyright 2012- Gregory Szorc.</p>"
    title = "Gregory Szorc's Digital Home | Mercurial's Journey to Python 3"
    found = read_item_metadata(_page(body, title=title), url=URL)
    assert found.authors == ["Gregory Szorc"]
    essay = f"<h1>Zeitphilosophie</h1>{TEXT}"
    assert read_item_metadata(_page(essay, title="Zeitphilosophie – Alexander Klier"), url=URL).authors == []
    shown = f"<p>Alexander Klier</p><h1>Zeitphilosophie</h1>{TEXT}"
    found = read_item_metadata(_page(shown, title="Zeitphilosophie – Alexander Klier"), url=URL)
    assert found.authors == ["Alexander Klier"]


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


def test_a_weekly_report_s_heading_with_its_dates_is_the_title_not_a_breadcrumb_named_nav_in_camel_case() -> None:
    body = (
        "<div id='rootlineNav'><a href='/'>SLF Startseite</a><a href='/b'>Lawinenbulletin und Schneesituation</a>"
        "<a href='/b/w'>Wochen- und Winterberichte</a><span>WoB 14.-20. Januar</span></div>"
        "<article id='pagetitle'><h4>Wochenbericht 14. - 20. Januar 2022</h4></article>"
        f"<h2>Schwache Profile – günstige Lawinensituation</h2>{TEXT}"
    )
    found = read_item_metadata(_page(body, title="Wochenbericht 14. - 20. Januar 2022 - SLF"), url=URL)
    assert found.title == "Wochenbericht 14. - 20. Januar 2022"
