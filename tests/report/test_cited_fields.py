"""A hand-written list of papers names each work's authors and year only in its citation string; the abstract page
its "[Abstract]" link opens names neither. The report takes them from the citation that led there, and says so
(`pages/citations.py`, `nested_chats/report_items.with_metadata`). The pages are the tests' own."""

from __future__ import annotations

from research_crawler.config.settings import Settings
from research_crawler.context.graph import NavigationGraph
from research_crawler.context.search_context import SearchContext, SiteRef
from research_crawler.context.web_context import WebContext
from research_crawler.nested_chats.report_items import collected_report_items, with_metadata
from research_crawler.pages.citations import cited_fields
from research_crawler.pages.page import Determination, Link, Page
from research_crawler.report.models import CITATION_SOURCE
from research_crawler.run.trace import Trace
from research_crawler.tools.exploration import Exploration, PageAccess

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
