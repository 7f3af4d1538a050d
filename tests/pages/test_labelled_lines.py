"""Article pages as the page corpus's eighth batch showed them: a line of labelled parts that holds the author list
("This paper appears in: …, Issue Date: …, Written by: Roe, J.; Doe, A."), tabs and section headings that look like
labels ("Authors", "Cited By"), names in capitals with affiliation marks glued on ("THOMSONa1"), a publication
history whose received date is not the publication date, and a conference's run of days ("1-4 June 2004").

Each page below is written for the test in the shape of a kind of real page; none is a copy of one.
"""

from __future__ import annotations

import pytest

from research_crawler.pages.item_dates import dates_in_text
from research_crawler.pages.metadata import read_item_metadata
from research_crawler.pages.person_names import same_person, split_people

URL = "https://library.example.org/document/4711"
TITLE = "Hybrid optical and radio links for metropolitan networks"
TEXT = "<p>" + "A sentence of the article that goes on for a while to make a paragraph of it. " * 4 + "</p>"


def _page(body: str, *, title: str = "") -> str:
    return f"<!doctype html><html><head><title>{title}</title></head><body>{body}</body></html>"


def _tabs(tag: str = "span") -> str:
    entries = "".join(f"<li><{tag} href='#{n}'>{n}</{tag}></li>" for n in ("Abstract", "Authors", "Cited By"))
    return f"<ul class='tab-menu'>{entries}</ul>"


@pytest.mark.parametrize("tag", ["span", "a"])
def test_an_authors_tab_is_no_label_and_the_tab_after_it_no_name(tag: str) -> None:
    body = f"<h1>{TITLE}</h1>{_tabs(tag)}{TEXT}"
    found = read_item_metadata(_page(body, title=f"Library : {TITLE}"), url=URL)
    assert "Cited By" not in found.authors
    assert found.authors == []


def test_a_link_to_the_authors_section_is_no_label() -> None:
    body = f"<h1>{TITLE}</h1><p><a href='#authors'>Authors</a></p><p><a href='#cited'>Cited By</a></p>{TEXT}"
    assert read_item_metadata(_page(body, title=TITLE), url=URL).authors == []


def test_a_section_heading_after_an_authors_heading_is_no_name() -> None:
    body = f"<h1>{TITLE}</h1>{TEXT}<h2>Authors</h2><h2>Cited By</h2><p>No citing works yet.</p>"
    assert read_item_metadata(_page(body, title=TITLE), url=URL).authors == []


def test_a_labelled_author_list_inside_a_line_of_labelled_parts_is_read_whole() -> None:
    body = (
        f"<h1>{TITLE}</h1>{_tabs()}{TEXT}"
        "<div class='footer'>This paper appears in: <a href='/j/1'>Wireless Letters, Example Society</a>, "
        "Issue Date: <a href='/i/2'>April 2003</a>, Written by: <span>Roe, J.; Doe, A.; Poe, E.K.</span></div>"
    )
    found = read_item_metadata(_page(body, title=f"Library : {TITLE}"), url=URL)
    assert found.authors == ["Roe, J.", "Doe, A.", "Poe, E.K."]
    assert found.date == "2003-04"


def test_a_person_named_in_two_fields_is_counted_once() -> None:
    body = (
        f"<h1>{TITLE}</h1>{TEXT}"
        "<p>This paper appears in: Wireless Letters, Issue Date: April 2003, Written by: Roe, J.; Doe, A.</p>"
        "<h2>Authors</h2><h3><a href='/author/1'>Jane Roe</a></h3><p>Jane Roe is a research scientist.</p>"
    )
    assert read_item_metadata(_page(body, title=TITLE), url=URL).authors == ["Roe, J.", "Doe, A."]


def test_one_surname_with_other_initials_is_another_person() -> None:
    assert same_person("Izadpanah, H.", "Hossein Izadpanah")
    assert not same_person("Chang, Y.-J.", "Chang, G.K.")
    assert not same_person("Roe, J.", "Doe, J.")


def test_affiliation_marks_glued_to_names_in_capitals_are_no_part_of_them() -> None:
    assert split_people("SARAH ROEa1, ELLEN A. DOEa1, NICK N. POEa2 and FRANK LEEa1 c1") == [
        "SARAH ROE",
        "ELLEN A. DOE",
        "NICK N. POE",
        "FRANK LEE",
    ]
    assert split_people("MARY McDONALDa1,a2 and JO SMITHb2") == ["MARY McDONALD", "JO SMITH"]


def test_a_byline_in_capitals_with_glued_marks_under_an_author_query_box_is_read() -> None:
    body = (
        f"<h3>{TITLE}</h3>"
        "<ul><li>Article author query</li><li>roe s <a href='/q?a=roe'>[Scholar]</a></li>"
        "<li>doe ea <a href='/q?a=doe'>[Scholar]</a></li></ul>"
        "<h3 class='author'>SARAH ROE<sup>a1</sup> and ELLEN A. DOE<sup>a2</sup> <sup><a href='#c1'>c1</a></sup></h3>"
        f"<p><sup>a1</sup> Example Research Institute, Edinburgh, UK</p>{TEXT}"
    )
    found = read_item_metadata(_page(body, title=f"Journals Online - {TITLE}"), url=URL)
    assert found.authors == ["SARAH ROE", "ELLEN A. DOE"]


# a publication history set apart as the journal sets it (htmldate reads an element whose class says "date")
HISTORY = (
    "<p class='Dates'>(Received December 10 2015)</p><p class='Dates'>(Revised February 25 2016)</p>"
    "<p class='Dates'>(Accepted March 12 2016)</p>"
)
REFERENCES = "<ul><li>Roe, S. (2015). An earlier study. Example Journal 4, 1–9.</li></ul>"
TOOLS = "".join(f"<p><a href='/{n}'>{n}</a></p>" for n in ("PDF", "Send to Kindle", "Previous Article", "Next"))


def test_the_online_publication_year_beats_the_received_day() -> None:
    body = (
        f"<p>Open Journal, Volume 2, e5</p><p>DOI: https://doi.org/10.9999/oj.2016.2 (About DOI), "
        f"Published online: 2016</p>{TOOLS}<h3>{TITLE}</h3><p>SARAH ROE and ELLEN A. DOE</p>{TEXT}{HISTORY}"
        f"{REFERENCES}"
    )
    assert read_item_metadata(_page(body, title=TITLE), url=URL).date == "2016"


def test_a_day_the_page_writes_only_as_its_received_day_is_no_publication_date() -> None:
    body = f"<h1>{TITLE}</h1><p>SARAH ROE and ELLEN A. DOE</p>{TEXT}{HISTORY}{REFERENCES}"
    found = read_item_metadata(_page(body, title=TITLE), url=URL)
    assert found.date is None


@pytest.mark.parametrize(
    ("text", "dates"),
    [
        ("1-4 June 2004", ["2004-06"]),
        ("1–4 June 2004", ["2004-06"]),
        ("June 1-4, 2004", ["2004-06"]),
        ("3rd-5th September 2015", ["2015-09"]),
        ("2.-3. Juni 2019", ["2019-06"]),
        ("30 May - 2 June 2004", ["2004"]),
        ("4 June 2004", ["2004-06-04"]),
        ("Volume 25, Number 10 - 5 October 2020", ["2020-10-05"]),  # a number before a date: no run of days
    ],
)
def test_a_run_of_days_is_dated_as_precisely_as_its_ends_agree(text: str, dates: list[str]) -> None:
    assert dates_in_text(text) == dates


def test_a_conference_s_days_give_its_month() -> None:
    body = f"<h1>{TITLE}</h1>{TEXT}<p>This paper appears in: Conference 2004, Issue Date: 1–4 June 2004</p>"
    assert read_item_metadata(_page(body, title=TITLE), url=URL).date == "2004-06"


def test_linked_affiliation_marks_glued_to_linked_names_are_no_part_of_them() -> None:
    body = (
        f"<h1>{TITLE}</h1><ul class='authorGroup'>"
        "<li><a href='#'>Ana Roe</a><a href='#af1'><sup>a</sup></a><sup>, </sup><a href='#af2'><sup>b</sup></a>, </li>"
        "<li><a href='#'>Ben Poe</a><a href='#af3'><sup>c</sup></a>, </li>"
        "<li><a href='#'>Cleo Lee</a><a href='#af1'><sup>a</sup></a></li></ul>"
        f"<p><a href='/doi'>doi:10.9999/j.x.2014.09.003</a></p>{TEXT}"
    )
    found = read_item_metadata(_page(body, title=""), url=URL)
    assert found.authors == ["Ana Roe", "Ben Poe", "Cleo Lee"]


def test_the_page_s_suggested_citation_of_its_item_gives_the_year() -> None:
    body = (
        f"<h1>{TITLE}</h1><p>Ana Roe , Ben Poe</p><p>© 2016 The Author(s)</p><p>CITATION</p>"
        f"<p>Roe, A., &amp; Poe, B. (2016). {TITLE.lower()}. Example Letters, 2, 1–9.</p>"
        f"{TEXT * 4}<p>Received January 26, 2016</p><p>Accepted April 20, 2016</p>"
    )
    found = read_item_metadata(_page(body, title=f"Articles - {TITLE}"), url=URL)
    assert found.date == "2016"
    other = body.replace(TITLE.lower(), "an earlier work on the same links")
    assert read_item_metadata(_page(other, title=f"Articles - {TITLE}"), url=URL).date is None


def test_a_kind_of_author_labels_authors_and_a_list_in_a_field_is_read_name_by_name() -> None:
    # a catalogue's record: "Main Author:" over one linked name, "Other Authors:" over a list of them in one cell
    rows = (
        "<tr><th>Main Author:</th><td><a href='/people?n=Roe'>Roe, Jana</a></td></tr>"
        "<tr><th>Other Authors:</th><td><ul><li><a href='/people?n=Doe'>Doe, Alan</a></li>"
        "<li><a href='/people?n=Poe'>Poe, Mira</a></li></ul></td></tr><tr><th>Published:</th><td>2023</td></tr>"
    )
    found = read_item_metadata(_page(f"<h1>{TITLE}</h1><table>{rows}</table>{TEXT}"), url=URL)
    assert [name.split(",")[0] for name in found.authors] == ["Roe", "Doe", "Poe"]
    assert found.date == "2023"
    # "About the author" heads a biography, not a kind of author
    bio = f"<h1>{TITLE}</h1>{TEXT}<dl><dt>About the author</dt><dd>Lena Roe teaches optics.</dd></dl>"
    assert read_item_metadata(_page(bio), url=URL).authors == []
    # nor does a statistics box's "Top authors" over a table of its own
    top = f"<h1>{TITLE}</h1>{TEXT}<table><tr><th>Top authors</th><td>Scholarly Output</td></tr></table>"
    assert read_item_metadata(_page(top), url=URL).authors == []


@pytest.mark.parametrize("tags", [("em", "strong"), ("b", "span"), ("span", "span")])
def test_a_label_set_apart_in_its_own_element_without_a_colon_labels_the_rest_of_its_line(
    tags: tuple[str, str],
) -> None:
    label, value = tags
    body = (
        "<h1>PoS(EXAMPLE 2013)001</h1><div id='identifier'>"
        f"<div><{label}>Title</{label}> <{value}>{TITLE}</{value}></div>"
        f"<div><{label}>Conference</{label}> <{value}>31st Symposium on Examples</{value}></div>"
        f"<div><{label}>Authors</{label}><div>A. Roe</div></div></div>"
    )
    found = read_item_metadata(_page(body, title="PoS(EXAMPLE 2013)001"), url=URL)
    assert found.title == TITLE
    assert found.authors == ["A. Roe"]  # the label over its value's own block is read once, not twice


def test_an_emphasised_word_opening_a_sentence_is_no_label() -> None:
    body = f"<h1>{TITLE}</h1><p><em>Title</em> pages are where a book names itself.</p>{TEXT}"
    assert read_item_metadata(_page(body, title=TITLE), url=URL).title == TITLE
