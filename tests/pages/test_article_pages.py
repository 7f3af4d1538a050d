"""Publishers' article pages as the page corpus's sixth batch showed them: a publication history written without
colons and with English ordinal days ("Received 3rd August 2017, Accepted 2nd October 2017, First published on
2nd October 2017") under tags that give only the year, and author lists whose names carry a current-address mark
("Harry C. Hwang1¤a").

Each page below is written for the test in the shape of a kind of real page; none is a copy of one.
"""

from __future__ import annotations

import pytest

from research_crawler.pages.item_dates import dates_in_text, normalise_date
from research_crawler.pages.metadata import read_item_metadata
from research_crawler.pages.person_names import split_people

URL = "https://journals.example.org/en/content/articlehtml/2017/ta/x7ta00001a"
TEXT = "<p>" + "A sentence of the article that goes on for a while to make a paragraph of it. " * 4 + "</p>"


def _page(body: str, *, title: str = "", head: str = "") -> str:
    return f"<!doctype html><html><head><title>{title}</title>{head}</head><body>{body}</body></html>"


@pytest.mark.parametrize(
    ("text", "dates"),
    [
        ("First published on 2nd October 2017", ["2017-10-02"]),
        ("Received 21st September 2016", ["2016-09-21"]),
        ("October 3rd, 2017", ["2017-10-03"]),
        ("12. März 2020", ["2020-03-12"]),
    ],
)
def test_an_english_ordinal_day_before_its_month_is_read_with_the_day(text: str, dates: list[str]) -> None:
    assert dates_in_text(text) == dates


def test_a_date_with_an_ordinal_day_normalises_whole() -> None:
    assert normalise_date("26th September 2016") == "2016-09-26"
    assert normalise_date("September 26th, 2016") == "2016-09-26"


def test_first_published_on_a_day_beats_the_received_date_and_a_tag_s_bare_year() -> None:
    body = (
        "<p>DOI: 10.9999/X7TA00001A (Paper) J. Mater. Chem. A, 2017, 5, 22316-22324</p>"
        "<h1>Hollow nanocrystals as anodes for lithium and sodium storage</h1>"
        "<p><span>Huinan</span> <span>Guo</span> a, <span>Kai</span> <span>Chen</span> a and "
        "<span>Caiyun</span> <span>Wang</span> *c</p>"
        "<p>aCollege of Chemistry, Nankai University, Tianjin 300071, China</p>"
        "<div>Received</div><div>3rd August 2017</div><div>, Accepted 2nd October 2017</div>"
        f"<div>First published on 2nd October 2017</div>{TEXT}"
    )
    head = '<meta name="citation_title" content="Hollow nanocrystals as anodes for lithium and sodium storage">'
    head += '<meta name="citation_publication_date" content="2017">'
    found = read_item_metadata(_page(body, title="Hollow nanocrystals - Journal (RSC Publishing)", head=head), url=URL)
    assert found.date == "2017-10-02"


def test_first_published_on_the_web_without_tags_gives_the_day() -> None:
    body = (
        "<p>Org. Biomol. Chem., 2016, Advance Article</p>"
        "<h1>Denitrogenative hydrofluorination of aldehyde hydrazones</h1>"
        "<p>Kaivalya G. Kulkarni and Graham K. Murphy *</p>"
        "<p>Department of Chemistry, University of Waterloo, Canada</p>"
        "<div>Received</div><div>21st September 2016</div><div>, Accepted 26th September 2016</div>"
        f"<div>First published on the web 26th September 2016</div>{TEXT}"
    )
    found = read_item_metadata(_page(body, title="Denitrogenative hydrofluorination of aldehyde hydrazones"), url=URL)
    assert found.date == "2016-09-26"


def test_a_sentence_telling_of_something_done_on_a_day_labels_no_publication_date() -> None:
    body = (
        "<h1>Field notes from the glacier</h1><p>By Ana Ruiz</p><p>March 3, 2021</p>"
        f"<p>The samples were collected on 2nd February 2019</p>{TEXT}"
    )
    found = read_item_metadata(_page(body, title="Field notes from the glacier"), url=URL)
    assert found.date == "2021-03-03"


def test_a_current_address_mark_after_a_name_is_no_part_of_it() -> None:
    line = "Daniel A. Kuppers1, Harry C. Hwang1¤a, Aimee L. Jackson2¤b, Matthew L. Fero1*"
    assert split_people(line) == ["Daniel A. Kuppers", "Harry C. Hwang", "Aimee L. Jackson", "Matthew L. Fero"]
    body = (
        "<p>Open Access</p><p>Research Article</p><h1>Effect of gene activation on expression in lymphoma</h1>"
        f"<p>{line}</p><p>1 Clinical Research Division, Cancer Research Center, Seattle, Washington</p>"
        "<h2>Abstract</h2><p>Published: March 11, 2011</p>"
        f"{TEXT}"
    )
    found = read_item_metadata(_page(body, title="PLoS ONE: Effect of gene activation on expression"), url=URL)
    assert found.authors == ["Daniel A. Kuppers", "Harry C. Hwang", "Aimee L. Jackson", "Matthew L. Fero"]


def test_a_footnote_mark_set_after_the_comma_that_ends_a_name_is_no_part_of_the_next() -> None:
    assert split_people("Emilie Cauët ,† Dominique Dehareng ,‡ and Jacques Liévin *†") == [
        "Emilie Cauët",
        "Dominique Dehareng",
        "Jacques Liévin",
    ]


def test_an_author_list_the_markup_names_by_id_is_read_past_a_paywall_box_between_it_and_the_title() -> None:
    paywall = "".join(f"<p>Access option {n}: purchase this content for 48 hours of reading.</p>" for n in range(12))
    body = (
        "<h1>Ab Initio Study of the Ionization of the Bases</h1>"
        f"<div>{paywall}<form action='/action/doLogin'><p>Log In</p><input name='login'></form></div>"
        "<div id='authors'><a href='/author/Cauet'>Emilie Cauët</a><span>,</span><sup>†</sup> "
        "<a href='/author/Dehareng'>Dominique Dehareng</a><span>,</span><sup>‡</sup> and "
        "<a href='/author/Lievin'>Jacques Liévin</a> *<sup>†</sup></div>"
        "<p>J. Phys. Chem. A, 2006, 110 (29), pp 9200–9211</p><p>Publication Date (Web): May 13, 2006</p>"
        f"<h2>Abstract</h2>{TEXT}"
    )
    found = read_item_metadata(_page(body, title="Ab Initio Study of the Ionization of the Bases"), url=URL)
    assert found.authors == ["Emilie Cauët", "Dominique Dehareng", "Jacques Liévin"]


def test_a_labelled_first_publication_day_beats_a_tag_giving_only_the_issue_s_year_before_it() -> None:
    body = (
        "<p>DOI: 10.9999/X1JM00001K (Highlight) J. Mater. Chem., 2012, 22, 19-30</p>"
        "<h1>Metal sulfide nanostructures: synthesis and applications</h1>"
        "<p>Chen-Ho Lai, Ming-Yen Lu and Lih-Juann Chen *</p>"
        "<p>Department of Materials Science, National University, Hsinchu</p>"
        "<div>Received</div><div>10th August 2011</div><div>, Accepted 10th October 2011</div>"
        f"<div>First published on 10th November 2011</div>{TEXT}"
    )
    head = '<meta name="citation_publication_date" content="2012">'
    found = read_item_metadata(_page(body, title="Metal sulfide nanostructures", head=head), url=URL)
    assert found.date == "2011-11-10"


def test_an_online_date_in_a_publication_history_line_is_the_publication_date() -> None:
    body = (
        "<p>Molecular Phylogenetics and Evolution</p><p>Volume 83, February 2015, Pages 56–71</p>"
        "<h1>A tribal level phylogeny of lake cichlid fishes</h1><p>Britta S. Meyer, Walter Salzburger</p>"
        "<p>Zoological Institute, University of Basel, Switzerland</p>"
        "<p>Received 25 November 2013, Revised 5 October 2014, Accepted 8 October 2014, Available online 26 November "
        f"2014</p>{TEXT}"
    )
    found = read_item_metadata(_page(body, title="A tribal level phylogeny of lake cichlid fishes"), url=URL)
    assert found.date == "2014-11-26"
    sidebar = (
        f"<h1>A mutualistic endophyte alters the niche of its host</h1><p>Melanie R. Kazenel and Jennifer Rudgers</p>"
        f"{TEXT}<div><p>AoB PLANTS (2015) 7 : plv005 doi: 10.9999/aobpla/plv005 First published online: January "
        "19, 2015</p></div>"
    )
    head = '<meta name="citation_date" content="2015/01/01">'
    assert read_item_metadata(_page(sidebar, title="A mutualistic endophyte", head=head), url=URL).date == "2015-01-19"


def test_a_dated_link_to_another_work_labels_no_publication_date_of_this_one() -> None:
    body = (
        "<h1>Correlation slopes of mercury and carbon monoxide in Asia</h1>"
        f"<p>X. W. Fu1, H. Zhang1,2, and S. X. Fang5</p>{TEXT}<p>Atmos. Chem. Phys., 15, 1013-1028, 2015</p>"
        "<fieldset><legend>Discussion Paper</legend><div><a href='/discussion/14/24985/'>Published on 30 Sep 2014</a>"
        "</div></fieldset>"
    )
    head = '<meta name="citation_publication_date" content="2015">'
    found = read_item_metadata(_page(body, title="ACP - Correlation slopes of mercury", head=head), url=URL)
    assert found.date == "2015"


@pytest.mark.parametrize(
    ("line", "date"),
    [
        ("DOI: http://dx.doi.org/10.9999/eLife.04407Published December 29, 2014", "2014-12-29"),
        ("Published 15 June 2016.DOI: 10.9999/rsos.160123", "2016-06-15"),
        ("Version of Record online: 21 JAN 2016", "2016-01-21"),
    ],
)
def test_a_published_line_written_against_its_neighbours_gives_the_day_over_a_tag_s_first_of_month(
    line: str, date: str
) -> None:
    body = (
        f"<h1>Genetic transformation of circuitry in the fly brain</h1><p>Sonia Sen, Deshou Cao</p><p>{line}</p>{TEXT}"
    )
    head = f'<meta name="citation_date" content="{date[:8]}01">'
    found = read_item_metadata(_page(body, title="Genetic transformation of circuitry", head=head), url=URL)
    assert found.date == date


def test_a_reference_s_bracketed_online_date_is_no_publication_date() -> None:
    body = (
        "<h1>Knee findings after ligament injuries in ice hockey</h1><p>Melissa A. Kluczynski, MS*</p>"
        f"<p>Leslie J. Bisson, MD*,†</p>{TEXT}<h2>References</h2><ol><li>Li X. Analysis of injury patterns "
        "[published online ahead of print September 2, 2015]. J Sports Med.</li></ol>"
        "<div><p>Published</p><p>May 23, 2016,</p></div>"
    )
    head = '<meta name="citation_date" content="2016/05/01">'
    found = read_item_metadata(_page(body, title="Knee findings after ligament injuries", head=head), url=URL)
    assert found.date == "2016-05-23"
