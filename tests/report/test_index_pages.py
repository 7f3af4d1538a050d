"""A page that plainly lists other works is never reported as one (a model may take a journal's name for a paper's)."""

from __future__ import annotations

from datetime import date

from research_crawler.config.settings import Settings
from research_crawler.context.request_rules import read_request
from research_crawler.context.search_context import SearchContext, SiteRef
from research_crawler.context.web_context import WebContext
from research_crawler.nested_chats.report_items import choose_items
from research_crawler.pages.metadata import ItemMetadata
from research_crawler.pages.page import Determination, Link, Page
from research_crawler.report.index_pages import index_page_reason
from research_crawler.run.trace import Trace
from research_crawler.tools.exploration import Exploration, PageAccess

SITE = "https://society.example.org"
JOURNAL = f"{SITE}/journal/marine-science"
ARTICLE = (
    '<html><head><meta name="citation_title" content="Coral Bleaching in 2024">'
    '<meta name="citation_author" content="Novak, Ines"><meta name="citation_date" content="2024/03/01"></head>'
    "<body><h1>Coral Bleaching in 2024</h1></body></html>"
)


def test_a_journals_list_of_volumes_is_no_item() -> None:
    links = [f"{SITE}/", f"{SITE}/about", *(f"{JOURNAL}/volume/{year}" for year in (2023, 2024, 2025))]
    reason = index_page_reason(JOURNAL, links, ItemMetadata(title="Halden Journal of Marine Science", date="2024"))
    assert reason is not None and "3 pages below it" in reason


def test_a_page_other_items_were_found_on_is_no_item() -> None:
    meta = ItemMetadata(title="Working papers, page 2", authors=["A. Okafor"])
    assert index_page_reason(f"{SITE}/papers?page=2", [], meta, listed_on=[f"{SITE}/papers?page=2"]) is not None


def test_an_article_with_its_files_below_it_is_an_item() -> None:
    article = f"{SITE}/paper/123"
    files = [f"{article}/fulltext.pdf", f"{article}/figure-1", f"{article}/supplement"]
    assert index_page_reason(article, files, ItemMetadata(title="Coral Bleaching")) is None
    figures = [f"{article}/figure-{n}" for n in range(1, 6)]
    with_authors = ItemMetadata(title="Coral Bleaching", authors=["Ines Novak"])
    assert index_page_reason(article, figures, with_authors) is None  # an item's own figures, with its byline
    assert index_page_reason(article, figures, ItemMetadata(title="Coral Bleaching", abstract="Corals bleach…")) is None


def test_a_journal_the_model_took_for_a_paper_is_left_out_of_a_dated_report() -> None:
    # what a model may do on a society's home page: store a journal's name, dated by its listing, beside a paper
    web = WebContext.for_site(f"{SITE}/")
    paper = f"{SITE}/doi/10.5555/x.2024.1"
    web.add_item(JOURNAL, title="Journal of Marine Science", score=7.0, found_on=f"{SITE}/", date="2024-10-10")
    web.add_item(paper, title="Coral Bleaching in 2024", score=8.0, found_on=f"{SITE}/search", date="2024-03-01")
    volumes = [
        Link(id=n, url=f"{JOURNAL}/volume/{y}", text=str(y), same_site=True) for n, y in enumerate((23, 24, 25), 1)
    ]
    pages = {
        JOURNAL: Page(
            url=JOURNAL, final_url=JOURNAL, determination=Determination.OK, html="<h1>Journal</h1>", links=volumes
        ),
        paper: Page(url=paper, final_url=paper, determination=Determination.OK, html=ARTICLE),
    }
    request = "Find papers on coral bleaching published in 2024"
    search = SearchContext(query=request, request=read_request(request, today=date(2025, 6, 1)))
    search.add_site(SiteRef(name="society", url=f"{SITE}/"))
    x = Exploration(
        settings=Settings(),
        search=search,
        pages=PageAccess(lambda url, site, **_: pages[url]),
        trace=Trace(None),
        web_contexts={f"{SITE}/": web},
    )
    chosen = choose_items(x, None, today=date(2025, 6, 1))
    assert [item.url for item in chosen.items] == [paper]
