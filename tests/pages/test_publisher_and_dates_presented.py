"""What a careful reader does on any page, whatever its site: the publisher's name is no writer unless the page
shows it as the item's byline; a date label or a button is no name; a date is the work's only where the page
presents it as a date (a dateline in the article's header, a labelled field, metadata), never a date a sentence
of the text tells of, another field's value ("Founded") or a link to another page.

Each page below is written for the test in the shape of a kind of page; none is a copy of a real one.
"""

from __future__ import annotations

import json

from research_crawler.pages.html_tree import parse_html
from research_crawler.pages.item_dates import short_year_dateline
from research_crawler.pages.metadata import read_item_metadata
from research_crawler.pages.person_names import is_person_name
from research_crawler.pages.publisher_names import publisher_names

URL = "https://news.example.com/2019/05/harbour-reopens"
TITLE = "The old harbour reopens after ten years of works"
TEXT = "<p>" + "The harbour that closed a decade ago took its first ships again this week, to the town's relief. " * 3
TEXT += "</p>"  # a paragraph of running text


def _page(body: str, *, head: str = "", site: str = "Example News") -> str:
    return (
        f"<!doctype html><html><head><title>{TITLE} - {site}</title>{head}</head><body>"
        f'<nav><a href="/">Home</a> <a href="/world">World</a></nav><main><h1>{TITLE}</h1>{body}</main>'
        f"<footer>© 2019 {site}</footer></body></html>"
    )


def _read(body: str, *, head: str = "", site: str = "Example News") -> tuple[list[str], str | None]:
    item = read_item_metadata(_page(body, head=head, site=site), url=URL)
    return [str(name) for name in item.authors], (str(item.date) if item.date else None)


def _json_ld(article: dict[str, object]) -> str:
    return f'<script type="application/ld+json">{json.dumps(article)}</script>'


# --- the publisher's name -----------------------------------------------------------------------------------


def test_a_json_ld_author_that_is_the_publishing_organisation_names_no_writer() -> None:
    """A news site's JSON-LD gives its masthead as the author, typed as an organisation (whose name reads like a
    person's: "Correio de Lisboa"): the page names no writer."""
    publisher = {"@type": "NewsMediaOrganization", "name": "Correio de Lisboa"}
    head = _json_ld({"@type": "NewsArticle", "headline": TITLE, "author": publisher, "publisher": publisher})
    authors, _ = _read(TEXT, head=head, site="Correio de Lisboa")
    assert authors == []


def test_a_microdata_author_that_is_the_publisher_names_no_writer() -> None:
    org = '<div itemprop="{}" itemscope itemtype="https://schema.org/Organization">'
    org += '<meta itemprop="name" content="Gazeta Nova"></div>'
    body = f'<div itemscope itemtype="https://schema.org/NewsArticle">{org.format("publisher")}{org.format("author")}{TEXT}</div>'
    authors, _ = _read(body, site="Gazeta Nova")
    assert authors == []


def test_the_sites_application_name_in_the_title_is_no_one_person_sites_owner() -> None:
    """ "<title>… - LA VOZ DIARIO</title>" over a column that shows no byline: the name after the title is the
    publication's (it calls itself so as an application), not a one-person site's owner."""
    head = '<meta name="application-name" content="LA VOZ DIARIO">'
    authors, _ = _read(f"<p>Foto: LA VOZ DIARIO</p>{TEXT}", head=head, site="LA VOZ DIARIO")
    assert authors == []


def test_a_one_person_sites_owner_is_still_its_author() -> None:
    """A blog named after its owner declares no publishing organisation: the name in its <title> is a person's."""
    authors, _ = _read(f"{TEXT}<p>Written and kept by Maren Holt.</p>", site="Maren Holt")
    assert authors == ["Maren Holt"]


def test_a_site_named_after_a_field_is_no_one_person_sites_owner() -> None:
    """A knowledge graph's record page: "<title>… - Archaeogenetics Knowledge Graph", its footer "About
    Archaeogenetics Knowledge Graph", no byline. Three capitalised words that open with no given name are the site's
    name, not its owner's: the page names no writer."""
    authors, _ = _read(f"{TEXT}<p>About Archaeogenetics Knowledge Graph</p>", site="Archaeogenetics Knowledge Graph")
    assert authors == []


def test_an_organisation_the_page_shows_as_the_byline_stays_the_author() -> None:
    """ "By Example Foundation" under the title: the page says the foundation wrote it, and it is believed."""
    publisher = {"@type": "Organization", "name": "Example Foundation"}
    head = _json_ld({"@type": "BlogPosting", "headline": TITLE, "author": publisher, "publisher": publisher})
    authors, _ = _read(f"<p>By Example Foundation</p>{TEXT}", head=head, site="Example Foundation")
    assert authors == ["Example Foundation"]


def test_publisher_names_are_what_the_page_declares_and_nothing_else() -> None:
    head = '<meta name="application-name" content="Example News"><meta property="og:site_name" content="Jo Park">'
    head += _json_ld({"@type": "Article", "publisher": {"@type": "Organization", "name": "Example Media Group"}})
    tree = parse_html(_page(TEXT, head=head))
    assert tree is not None
    assert publisher_names(tree) == {"example news", "example media group"}


# --- labels and buttons are no names ----------------------------------------------------------------------


def test_a_date_label_and_a_button_are_no_names() -> None:
    for text in ("Last Updated January", "Posted October", "Follow Us", "Updated Daily"):
        assert not is_person_name(text), text
    for text in ("June Carter", "April Ryan", "August Wilson", "May Berenbaum"):
        assert is_person_name(text), text


# --- dates the page presents as the work's ------------------------------------------------------------------


def test_a_date_a_sentence_tells_of_is_no_publication_date() -> None:
    body = "<p>The port authority said traffic had doubled since March 1, 2018, when the first quay opened again.</p>"
    _, day = _read(body + TEXT)
    assert day is None


def test_a_year_in_the_title_itself_is_no_publication_date() -> None:
    page = _page(TEXT).replace(TITLE, "Ten ports to watch in 2020")
    assert read_item_metadata(page, url=URL).date is None


def test_a_date_another_field_labels_in_a_table_is_no_publication_date() -> None:
    """An infobox "Founded | February 28, 1998" dates what the row names, not the page."""
    table = (
        "<table><tr><th>Founded</th><td>February 28, 1998</td></tr><tr><th>Founder</th><td>A. Person</td></tr></table>"
    )
    _, day = _read(table + TEXT)
    assert day is None


def test_a_labelled_publication_date_in_a_table_is_still_read() -> None:
    table = "<table><tr><th>Published</th><td>February 28, 1998</td></tr></table>"
    _, day = _read(table + TEXT)
    assert day == "1998-02-28"


def test_a_date_in_a_category_link_is_no_publication_date() -> None:
    """The title repeated as a category link at the page's foot, beside "Articles from August 2015": not the
    page's date."""
    cats = '<div><p>Categories:</p><ul><li><a href="/c/1">Harbours</a></li>'
    cats += '<li><a href="/c/2">Articles from August 2015</a></li></ul></div>'
    page = _page(TEXT * 12 + cats).replace(TITLE, "Harbours")
    assert read_item_metadata(page, url=URL).date is None


def test_a_two_digit_year_dateline_under_the_title_is_read() -> None:
    _, day = _read(f"<p>10.15.15</p><p>By Ruth Okafor</p>{TEXT}")
    assert day == "2015-10-15"


def test_a_dateline_alone_after_many_tags_in_the_articles_header_is_read() -> None:
    tags = "".join(f'<p><a href="/tag/{n}">topic {n}</a></p>' for n in range(14))
    _, day = _read(f"<p>By Ruth Okafor</p>{tags}<p>3/09/15 8:00am</p>{TEXT}")
    assert day == "2015-03-09"


def test_short_year_datelines_take_the_order_their_numbers_allow() -> None:
    assert short_year_dateline("3/09/15 8:00am") == "2015-03-09"  # slashed: month first
    assert short_year_dateline("08.04.15") == "2015-04-08"  # dotted: day first
    assert short_year_dateline("10.15.15") == "2015-10-15"  # only month first is a date
    assert short_year_dateline("Published 3/09/15") is None  # only a line that is nothing but the date
    assert short_year_dateline("12/31/99") == "1999-12-31"


# --- a book chapter's heading and its "Written by" line -------------------------------------------------------


def test_a_chapters_heading_over_written_by_is_its_title_and_author_not_its_summary_paragraph() -> None:
    """A book site's chapter: no <title> text, sections set as <h1> too, "Written by" and "Edited by" under the
    chapter's heading, then a summary paragraph of two sentences — the heading is the title, the writer its
    author (the editor is none), and the paragraph no title."""
    summary = "<p>Our teams share a few rules for watching systems in production. "
    summary += "This chapter sets out which alerts should wake a person.</p>"
    sections = "".join(
        f"<h1>Why {word} matters for the long-running services we keep</h1>{TEXT}" for word in ("paging", "latency")
    )
    page = (
        "<!doctype html><html><head><title></title></head><body><h2>Chapter 6 - Watching Systems</h2>"
        "<h1>Watching Systems</h1><p>Written by Rob Ewald</p><p>Edited by Betty Byers</p>"
        f"{summary}{TEXT}{sections}</body></html>"
    )
    item = read_item_metadata(page, url="https://book.example.org/chapters/watching/")
    assert item.title == "Watching Systems"
    assert item.authors == ["Rob Ewald"]


def test_a_story_that_opens_with_its_dateline_is_dated_by_it() -> None:
    for opening, day in (("Feb. 23, 2015 -- ", "2015-02-23"), ("Darmstadt - Januar 2021. ", "2021-01")):
        _, found = _read(f"<p>{opening}The harbour that closed a decade ago took its first ships again.</p>{TEXT}")
        assert found == day, opening


def test_a_meta_line_of_parts_set_apart_holds_the_date() -> None:
    line = "<p>By Ruth Okafor for The Harbour Desk | May 24, 2016 -- 13:30 GMT (06:30 PDT) | Topic: Shipping</p>"
    _, day = _read(f"<p>Founded in 2009, the port trust runs three quays along the river.</p>{TEXT}{line}")
    assert day == "2016-05-24"


def test_a_year_the_heading_adds_after_the_title_dates_it() -> None:
    """A repository's heading "Title (1988)" under a citation tag that gives the title alone."""
    head = f'<meta name="citation_title" content="{TITLE}"><meta name="citation_author" content="Moggi, Eugenio">'
    page = _page(TEXT, head=head).replace(f"<h1>{TITLE}</h1>", f"<h2>{TITLE} (1988)</h2>")
    assert read_item_metadata(page, url=URL).date == "1988"


# --- writers named where the text ends, or by a handle ------------------------------------------------------


def test_a_writer_shown_by_a_handle_in_the_dateline_is_read_as_written() -> None:
    authors, day = _read(f"<p>On 6/13/2018 by @ruthok</p>{TEXT}")
    assert (authors, day) == (["@ruthok"], "2018-06-13")


def test_an_editors_initials_after_the_last_sentence_sign_the_story() -> None:
    last = "<p>Die neue Version kostet knapp 50 Euro und setzt mindestens die aktuelle Fassung voraus. (rok)</p>"
    body = f"{TEXT}{last}"
    page = _page(body).replace("</main>", "</main><aside class='sidebar'><a href='/forum'>Forum</a></aside>")
    assert read_item_metadata(page, url=URL).authors == ["rok"]


def test_an_op_eds_closing_note_names_its_writers() -> None:
    note = "<p><i>Ana Lima es politóloga en la Universidad de Lisboa. Tomás Ruiz es abogado y analista.</i></p>"
    authors, _ = _read(f"{TEXT}{TEXT}{note}")
    assert authors == ["Ana Lima", "Tomás Ruiz"]


def test_a_signature_line_with_the_editorial_team_names_both() -> None:
    authors, _ = _read(f"{TEXT}<p>Guido Sand und Redaktion Example.ch</p><p>Diese Seite drucken</p>")
    assert authors == ["Guido Sand", "Redaktion Example.ch"]


def test_a_name_alone_after_a_paragraph_is_no_signature() -> None:
    """A caption or a quote's speaker after a paragraph, with no dash and no team beside it, signs nothing."""
    authors, _ = _read(f"{TEXT}<p>Guido Sand</p>{TEXT}")
    assert authors == []


def test_a_paragraph_about_a_named_subject_before_a_section_heading_is_no_closing_note() -> None:
    """An encyclopedia's section ends "Harbour Mobile is currently available …" before the next heading: no note."""
    section = (
        "<p>Harbour Mobile is currently available for ships of the inner sea with a radio licence of class two.</p>"
    )
    authors, _ = _read(f"{TEXT}{section}<h2>Harbour Radio</h2>{TEXT}")
    assert authors == []
