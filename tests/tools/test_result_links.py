"""A link found inside one result of a listing ("PDF", an e-print) belongs to that result: an item the Collector names
by it is the result's work, titled and addressed by the result's title link, so it is one item with the work's
record whatever the model called it (the abstract the result shows, its citation line). A record's own PDF, under
its heading, is the record's work. A passage or a line of fields is never an item's title, and a link whose text is
a count of papers is a collection's."""

from __future__ import annotations

from research_crawler.context.web_context import WebContext
from research_crawler.pages.page import Page
from research_crawler.tools.hints import HintState
from research_crawler.tools.items import collect_items
from research_crawler.web.page_building import html_page

SITE = "http://hep.test/"
STATE = HintState(subpages_left=4, items_collected=0)
ABSTRACT = (
    "Experiments look for double beta decay without neutrinos, whose rate sets the effective neutrino mass. We "
    "report background indices in tellurium dioxide bolometers. The half-life is limited to above ten to the 26 years."
)
CITATION = "e-Print: 2405.08169 [nucl-ex] Published in: Phys.Rev.C 109 (2024) 5, 021823"


def page(body: str, *, url: str, title: str, head: str = "") -> Page:
    html = f"<html><head><title>{title}</title>{head}</head><body>{body}</body></html>"
    return html_page(
        html, url=url, final_url=url, site_url=SITE, status=200, content_type="text/html", render="http", attempts=1
    )


def _result(key: str, title: str, abstract: str) -> str:
    return (
        f'<div class="result"><h3 class="result-title"><a href="/record/{key}">{title}</a></h3>'
        f'<div class="authors"><a href="/authors/{key}">Priya Banerjee</a> et al.</div>'
        f'<div class="info">e-Print: <a href="https://arxiv.org/abs/2405.0816{key}">2405.0816{key}</a> [nucl-ex] '
        f"Published in: Phys.Rev.C 109 (2024) 5, 021823</div><p>{abstract}</p>"
        f'<div class="actions"><a href="/files/{key}.pdf">PDF</a> <a href="/record/{key}/export">cite</a></div></div>'
    )


RESULTS = page(
    '<header><a href="/">HEP index</a></header><main><p>3 results</p>'
    + _result("1", "A Tonne-Scale Detector with Tellurium Dioxide Bolometers", ABSTRACT)
    + _result("2", "Selenium Foils and Point-Contact Germanium", "Another abstract about selenium foils in detectors.")
    + _result("3", "Xenon Time Projection Chambers at Depth", "A third abstract, about xenon chambers underground.")
    + "</main>",
    url="http://hep.test/literature?q=double+beta",
    title="Literature search: double beta - HEP index",
)
RECORD = page(
    '<header><a href="/">HEP index</a></header><main><div class="detail">'
    "<h2>A Tonne-Scale Detector with Tellurium Dioxide Bolometers</h2>"
    '<div><a href="/authors/1">Priya Banerjee</a>, <a href="/authors/2">Sven Lindqvist</a></div>'
    '<div>Collaboration: <a href="/experiments/7">XELENA</a></div><div>Published in: Phys.Rev.C 109 (2024)</div>'
    '<div>e-Print: <a href="https://arxiv.org/abs/2405.08169">2405.08169</a> [nucl-ex]</div>'
    '<div><a class="pdf" href="/files/1.pdf">pdf</a></div>'
    f"<div class='abstract'><h3>Abstract</h3><p>{ABSTRACT}</p></div>"
    '<div class="links">Accepted manuscript: <a href="/portal/record/99">The University Research Data Portal</a>'
    '</div><div class="full-text"><a href="/archive/articles/77/">Free article at the archive</a></div></div></main>',
    url="http://hep.test/record/1",
    title="A Tonne-Scale Detector with Tellurium Dioxide Bolometers - HEP index",
    head='<meta name="citation_title" content="A Tonne-Scale Detector with Tellurium Dioxide Bolometers">'
    '<meta name="citation_author" content="Banerjee, Priya">',
)
WORK = "A Tonne-Scale Detector with Tellurium Dioxide Bolometers"


def link_id(shown: Page, url: str) -> int:
    return next(link.id for link in shown.links if link.url == url)


def test_the_page_reader_tells_which_results_title_a_link_belongs_to() -> None:
    links = {link.url: link for link in RESULTS.links}
    title = links["http://hep.test/record/1"]
    for url in ("http://hep.test/files/1.pdf", "http://hep.test/record/1/export", "https://arxiv.org/abs/2405.08161"):
        if url in links:
            assert links[url].result_title == title.id, url
    assert links["http://hep.test/files/2.pdf"].result_title == links["http://hep.test/record/2"].id
    assert title.result_title is None  # the title itself belongs to no other link
    assert links["http://hep.test/"].result_title is None  # the page's header is in no result
    # a record's rows of fields are no listing: its PDF, its collaboration and its other copy belong to no result
    assert all(link.result_title is None for link in RECORD.links)


def test_a_pdf_of_a_listings_result_titled_by_its_abstract_is_the_results_work() -> None:
    web = WebContext.for_site(SITE)
    pdf = link_id(RESULTS, "http://hep.test/files/1.pdf")
    result = collect_items(web, RESULTS, [{"id": pdf, "title": ABSTRACT, "score": 9}], state=STATE)
    (item,) = web.items()
    assert (item.url, item.title) == ("http://hep.test/record/1", WORK)
    assert "belongs to the listing's result titled" in result.retitled[0]


def test_a_pdf_named_by_its_url_with_the_right_title_is_the_results_work_too() -> None:
    web = WebContext.for_site(SITE)
    collect_items(web, RESULTS, [{"url": "/files/2.pdf", "title": "Selenium Foils and Point-Contact Germanium",
                                  "score": 8}], state=STATE)  # fmt: skip
    (item,) = web.items()
    assert (item.url, item.title) == ("http://hep.test/record/2", "Selenium Foils and Point-Contact Germanium")


def test_the_results_pdf_and_its_record_page_are_one_item() -> None:
    web = WebContext.for_site(SITE)
    pdf = link_id(RESULTS, "http://hep.test/files/1.pdf")
    collect_items(web, RESULTS, [{"id": pdf, "title": ABSTRACT, "score": 9}], state=STATE)
    collect_items(web, RECORD, [{"url": RECORD.url, "title": WORK, "score": 9}], state=STATE)
    (item,) = web.items()
    assert item.url == "http://hep.test/record/1" and item.title == WORK


def test_a_records_own_pdf_titled_by_the_abstract_is_the_record() -> None:
    web = WebContext.for_site(SITE)
    pdf = link_id(RECORD, "http://hep.test/files/1.pdf")
    result = collect_items(web, RECORD, [{"id": pdf, "title": ABSTRACT, "score": 9}], state=STATE)
    (item,) = web.items()
    assert (item.url, item.title) == ("http://hep.test/record/1", WORK)
    assert "is the work this page shows" in result.retitled[0]
    collect_items(web, RECORD, [{"id": pdf, "title": WORK, "score": 9}], state=STATE)  # the right title: the same
    assert [i.url for i in web.items()] == ["http://hep.test/record/1"]


def test_a_records_link_the_model_titles_as_the_records_work_is_the_record() -> None:
    # a full-text link named by no file or action words: the model's title (the work's, or its abstract) says
    # which work it means
    archive = link_id(RECORD, "http://hep.test/archive/articles/77/")
    for title in (ABSTRACT, WORK):
        web = WebContext.for_site(SITE)
        collect_items(web, RECORD, [{"id": archive, "title": title, "score": 9}], state=STATE)
        assert [(i.url, i.title) for i in web.items()] == [("http://hep.test/record/1", WORK)]


def test_a_link_named_by_its_own_title_stays_that_link() -> None:
    # the other copy's link on a record, named by its own text: that page, not the record
    web = WebContext.for_site(SITE)
    other = link_id(RECORD, "http://hep.test/portal/record/99")
    collect_items(web, RECORD, [{"id": other, "title": "The University Research Data Portal", "score": 5}], state=STATE)
    assert [i.url for i in web.items()] == ["http://hep.test/portal/record/99"]


def test_a_citation_line_or_a_passage_is_never_an_items_title() -> None:
    web = WebContext.for_site(SITE)
    record = link_id(RESULTS, "http://hep.test/record/1")
    result = collect_items(web, RESULTS, [{"id": record, "title": CITATION, "score": 7}], state=STATE)
    (item,) = web.items()
    assert item.title == WORK and "a passage or a line of fields" in result.retitled[0]
    web = WebContext.for_site(SITE)
    collect_items(web, RECORD, [{"url": RECORD.url, "title": ABSTRACT, "score": 9}], state=STATE)
    (item,) = web.items()
    assert item.title.startswith(WORK)  # the page's own title, not its abstract


def test_a_pdf_on_a_page_that_shows_no_work_of_its_own_is_not_that_page() -> None:
    # one result, so no listing is seen: its PDF is not taken for the search page's own file
    lone = page(
        '<main><h1>Search results</h1><div class="result"><a href="/record/5">Neutrino Mass from Tritium Decay</a>'
        '<p>Some abstract sentence here. And another one follows.</p><a href="/files/5.pdf">PDF</a></div></main>',
        url="http://hep.test/literature?q=tritium",
        title="Search results - HEP index",
    )
    web = WebContext.for_site(SITE)
    pdf = link_id(lone, "http://hep.test/files/5.pdf")
    collect_items(web, lone, [{"id": pdf, "title": "Tritium decay and the neutrino mass", "score": 8}], state=STATE)
    assert [i.url for i in web.items()] == ["http://hep.test/files/5.pdf"]


def test_a_link_whose_text_is_a_count_of_papers_is_a_collection() -> None:
    experiment = page(
        '<main><h1>DARKLIGHT-2</h1><p>Experiment in hep-ex.</p><p><a href="/literature?q=exp+DARKLIGHT-2">4 papers'
        "</a> associated with DARKLIGHT-2</p></main>",
        url="http://hep.test/experiments/3",
        title="DARKLIGHT-2 - HEP index",
    )
    web = WebContext.for_site(SITE)
    listing = link_id(experiment, "http://hep.test/literature?q=exp+DARKLIGHT-2")
    entry = {"id": listing, "title": "4 papers associated with DARKLIGHT-2", "score": 7}
    result = collect_items(web, experiment, [entry], state=STATE)
    assert web.items() == [] and "a collection" in result.rejected[0] and "'4 papers'" in result.rejected[0]
