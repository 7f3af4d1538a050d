"""A hand-written list of papers names each work's authors and year only in its citation string; the abstract page
its "[Abstract]" link opens names neither. The report takes them from the citation that led there, and says so
(`pages/citations.py`, `nested_chats/report_items.with_metadata`). The pages are the tests' own."""

from __future__ import annotations

from research_crawler.config.settings import Settings
from research_crawler.context.graph import NavigationGraph
from research_crawler.context.search_context import SearchContext, SiteRef
from research_crawler.context.web_context import WebContext
from research_crawler.nested_chats.report_items import collected_report_items, with_metadata
from research_crawler.pages.citations import cited_fields, own_citation
from research_crawler.pages.page import Determination, Link, Page
from research_crawler.report.models import CITATION_SOURCE
from research_crawler.run.trace import Trace
from research_crawler.tools.exploration import Exploration, PageAccess
from research_crawler.web.page_building import html_page

TITLE = "Nitrate Leaching from Tile-Drained Fields after Wet Springs"


def test_a_citation_gives_the_names_before_the_title_and_its_one_year() -> None:
    fields = cited_fields(f"Okafor, B., Lindqvist, M. and Arrow, T.. {TITLE}. Soil Use, 12:101–115, 2021.", TITLE)
    assert (fields.authors, fields.year) == (["Okafor, B.", "Lindqvist, M.", "Arrow, T."], "2021")
    apa = cited_fields(f"Arrow, T. & Okafor, B. (2019). {TITLE.lower()}. Soil Use, 11(2), 3–4.", TITLE)
    assert (apa.authors, apa.year) == (["Arrow, T.", "Okafor, B."], "2019")
    full = cited_fields(f"Tariq Arrow and Bola Okafor. {TITLE}. In Proc. Soils 2020, pages 1-9.", TITLE)
    assert (full.authors, full.year) == (["Tariq Arrow", "Bola Okafor"], "2020")


def test_a_citation_that_does_not_show_the_title_or_is_unsure_gives_nothing() -> None:
    other = cited_fields("Okafor, B. (2021). Cover Crops and Phosphorus Loss. Soil Use.", TITLE)
    assert (other.authors, other.year) == ([], None)
    reprinted = cited_fields(f"Okafor, B. (2001). {TITLE}. Reprinted in Classics, 2021.", TITLE)
    assert reprinted.authors == ["Okafor, B."] and reprinted.year is None, "two years: which is the work's?"
    sentence = cited_fields(f"Read more about {TITLE} in our 2021 newsletter", TITLE)
    assert sentence.authors == [] and sentence.year == "2021"


SITE = "http://staff.test/"
LIST = "http://staff.test/papers.html"
ABSTRACT = "http://staff.test/p/nitrate.html"


def _pages(url: str, site: SiteRef) -> Page:
    if url == LIST:
        citation = f"Okafor, B., Lindqvist, M. and Arrow, T.. {TITLE}. Soil Use, 12:101–115, 2021."
        links = [Link(id=1, url=ABSTRACT, text="Abstract", same_site=True, context=citation)]
        return Page(url=LIST, final_url=LIST, status=200, determination=Determination.OK, links=links,
                    html="<html><body><ul><li>(the list)</li></ul></body></html>")  # fmt: skip
    html = f"<html><head><title>{TITLE}</title></head><body><h1>{TITLE}</h1><h2>Abstract</h2><p>Wet springs.</p>"
    return Page(url=ABSTRACT, final_url=ABSTRACT, status=200, determination=Determination.OK, title=TITLE,
                html=html + "</body></html>")  # fmt: skip


def test_an_abstract_page_naming_no_authors_or_year_takes_them_from_the_citation_that_led_there() -> None:
    web = WebContext.for_site(SITE)
    web.add_item(ABSTRACT, title=TITLE, description="", score=8, found_on=ABSTRACT)  # collected on its own page
    graph = NavigationGraph()
    graph.add_link(SITE, LIST)
    graph.add_link(LIST, ABSTRACT)
    search = SearchContext(query="nitrate leaching")
    search.add_site(SiteRef(name="staff", url=SITE))
    x = Exploration(settings=Settings(), search=search, pages=PageAccess(_pages), trace=Trace(None),
                    web_contexts={SITE: web}, graph=graph)  # fmt: skip
    (item,) = collected_report_items(x)
    assert item.path[-2:] == [LIST, ABSTRACT]
    read = with_metadata(x, item)
    assert read is not None
    assert (read.title, read.authors, read.date) == (TITLE, ["Okafor, B.", "Lindqvist, M.", "Arrow, T."], "2021")
    assert read.metadata_sources["authors"] == read.metadata_sources["date"] == CITATION_SOURCE


def test_a_record_page_gives_its_work_the_authors_and_year_of_its_own_citation() -> None:
    # a bibliography's record: its heading, then its own citation, names linked, the year in the venue; a reference
    # to another work and a line naming the title with no names before it say nothing
    title = "Keyboard Next-Word Prediction at Scale: Personalised Fine-Tuning"
    view = (
        f"# {title}\n  * (1)\n    * [6] electronic edition\n"
        f"[10] Mateo Berg, [11] Daniel Zhang, [12] Arjun Petrova: {title}. [13] FLEdge 2026: 139-148\n"
        "## References\n[14] Ana Silva: Secure Aggregation on Phones. TMC 2021: 1-9\n"
    )
    fields = own_citation(view, title)
    assert fields.authors == ["Mateo Berg", "Daniel Zhang", "Arjun Petrova"] and fields.year == "2026"
    assert own_citation(f"# {title}\nPublished in 2026\n", title).authors == []
    assert own_citation(view, "Another Work Entirely Unlisted Here").authors == []


def test_a_record_page_collected_from_a_listing_is_reported_with_its_own_citations_names_and_year() -> None:
    record = "http://staff.test/rec/Nitrate21.html"
    html = (
        f"<html><head><title>Bib: {TITLE}</title></head><body><main><h1>{TITLE}</h1><ul><li><cite><a href='/pid/1'>"
        f"Maria Keller</a>, <a href='/pid/2'>Daniel Zhang</a>: <span>{TITLE}.</span> <a href='/db/soil21.html'>Soil "
        "Use 12: 101-115 (2021)</a></cite></li></ul><p>No abstract available.</p><p><a href='/ee/Nitrate21.pdf'>"
        "electronic edition</a></p></main></body></html>"
    )

    def pages(url: str, site: SiteRef) -> Page:
        if url != record:
            return Page(url=url, final_url=url, status=404, determination=Determination.NOT_FOUND)
        return html_page(html, url=record, final_url=record, site_url=SITE, status=200, content_type="text/html",
                         render="http", attempts=1)  # fmt: skip

    web = WebContext.for_site(SITE)
    web.add_item(record, title=TITLE, description="", score=8, found_on=SITE)
    search = SearchContext(query="nitrate leaching")
    search.add_site(SiteRef(name="staff", url=SITE))
    x = Exploration(settings=Settings(), search=search, pages=PageAccess(pages), trace=Trace(None),
                    web_contexts={SITE: web})  # fmt: skip
    (item,) = collected_report_items(x)
    read = with_metadata(x, item)
    assert read is not None and (read.authors, read.date) == (["Maria Keller", "Daniel Zhang"], "2021")
