"""What the Collector's model says it read is checked against the page: an item named by its title alone is the link
that shows that title; a title the page does not show is replaced by the page's; a date or author the page does not
show is dropped; and where the item's own page has no such field, the report keeps the checked reading and says the
model read it. Nothing is ever made up."""

from __future__ import annotations

from research_crawler.config.settings import Settings
from research_crawler.context.search_context import SearchContext, SiteRef
from research_crawler.context.web_context import WebContext
from research_crawler.nested_chats.report_items import collected_report_items, with_metadata
from research_crawler.pages.page import Determination, Link, Page
from research_crawler.report.models import FOUND_ON_SOURCE, OWN_PAGE_SOURCE
from research_crawler.run.trace import Trace
from research_crawler.tools.exploration import Exploration, PageAccess
from research_crawler.tools.hints import HintState
from research_crawler.tools.items import collect_items

SITE = "http://papers.test/"
STATE = HintState(subpages_left=4, items_collected=0)
LISTING = """# Graph learning, new submissions

[A Benchmark of Graph Transformers for Link Prediction][1]
Ada Lovelace, Alan Turing · 5 Oct 2025

[Message Passing Without Messages][2]
Grace Hopper · February 2024
[PDF][3] · next
"""


def listing() -> Page:
    links = [
        ("http://papers.test/abs/1", "A Benchmark of Graph Transformers for Link Prediction"),
        ("http://papers.test/abs/2", "Message Passing Without Messages"),
        ("http://papers.test/pdf/2", "PDF"),
    ]
    return Page(
        url="http://papers.test/list",
        final_url="http://papers.test/list",
        status=200,
        determination=Determination.OK,
        title="Graph learning | papers.test",
        markdown=LISTING,
        links=[Link(id=n, url=url, text=text, same_site=True) for n, (url, text) in enumerate(links, 1)],
    )


def stored(*entries: dict[str, object]) -> tuple[WebContext, list[str]]:
    web = WebContext.for_site(SITE)
    result = collect_items(web, listing(), list(entries), state=STATE)
    return web, [*result.rejected, *result.retitled]


def test_an_item_named_by_its_title_alone_is_the_link_showing_that_title() -> None:
    web, notes = stored({"title": "a benchmark of graph transformers for link prediction.", "score": 8})
    (item,) = web.items()
    assert item.url == "http://papers.test/abs/1" and notes == []
    assert item.title == "A Benchmark of Graph Transformers for Link Prediction"  # as the page shows it


def test_a_title_no_link_shows_names_nothing() -> None:
    web, notes = stored({"title": "Deep Graph Transformers for Link Prediction", "score": 8})
    assert web.items() == [] and "no link on this page shows this title" in notes[0]


def test_a_title_the_page_does_not_show_is_replaced_by_the_links_text() -> None:
    web, notes = stored({"id": 1, "title": "Deep Graph Transformers for Link Prediction", "score": 8})
    (item,) = web.items()
    assert item.title == "A Benchmark of Graph Transformers for Link Prediction"
    assert "is not on this page" in notes[0]


def test_a_title_that_is_another_links_text_takes_that_link() -> None:
    web, _ = stored({"id": 3, "title": "Message Passing Without Messages", "score": 7})  # [3] is its PDF link
    (item,) = web.items()
    assert item.url == "http://papers.test/abs/2" and item.title == "Message Passing Without Messages"


def test_the_page_itself_with_a_title_it_does_not_show_gets_the_pages_title() -> None:
    web, notes = stored({"url": "http://papers.test/list", "title": "x", "score": 3})  # an x in "next", not a word
    (item,) = web.items()
    assert item.title == "Graph learning | papers.test" and notes


def test_dates_and_authors_are_kept_only_where_the_page_shows_them() -> None:
    web, _ = stored(
        {
            "id": 1,
            "title": "A Benchmark of Graph Transformers for Link Prediction",
            "score": 8,
            "date": "5 Oct 2025",
            "authors": ["Ada Lovelace", "alan turing", "Charles Babbage"],
        },
        {
            "id": 2,
            "title": "Message Passing Without Messages",
            "score": 7,
            "date": "2026-11-26T10:00:00",
            "authors": ["x"],
        },
    )
    first, second = web.items()
    assert (first.date, first.authors) == ("2025-10-05", ("Ada Lovelace", "alan turing"))
    assert (second.date, second.authors) == (None, ())  # a date and an author no page shows: never stored


def _exploration(web: WebContext, item_page: Page) -> Exploration:
    search = SearchContext(query="graph transformers")
    search.add_site(SiteRef(name="papers", url=SITE))
    return Exploration(
        settings=Settings(),
        search=search,
        pages=PageAccess(lambda url, site: item_page),
        trace=Trace(None),
        web_contexts={SITE: web},
    )


#: One stored entry, as the Collector wrote it from a listing (its date as the listing shows it).
GRAPH_TRANSFORMERS = {
    "id": 1,
    "title": "A Benchmark of Graph Transformers for Link Prediction",
    "score": 8,
    "date": "5 Oct 2025",
    "authors": ["Ada Lovelace"],
}


def test_the_report_keeps_the_checked_reading_where_the_items_page_has_no_such_field() -> None:
    web, _ = stored(dict(GRAPH_TRANSFORMERS))
    bare = Page(
        url="http://papers.test/abs/1",
        final_url="http://papers.test/abs/1",
        status=200,
        determination=Determination.OK,
        html="<html><head></head><body><p>No tags at all.</p></body></html>",
    )
    x = _exploration(web, bare)
    (item,) = collected_report_items(x)
    assert item.metadata_sources == {"authors": FOUND_ON_SOURCE, "date": FOUND_ON_SOURCE}
    read = with_metadata(x, item)
    assert read is not None
    assert (read.title, read.authors, read.date) == (
        "A Benchmark of Graph Transformers for Link Prediction",
        ["Ada Lovelace"],
        "2025-10-05",
    )
    assert read.metadata_sources == {"title": FOUND_ON_SOURCE, "authors": FOUND_ON_SOURCE, "date": FOUND_ON_SOURCE}


def test_the_items_own_tags_win_over_the_models_reading() -> None:
    web, _ = stored(dict(GRAPH_TRANSFORMERS))
    tagged = Page(
        url="http://papers.test/abs/1",
        final_url="http://papers.test/abs/1",
        status=200,
        determination=Determination.OK,
        html=(
            '<html><head><meta name="citation_title" content="A Benchmark of Graph Transformers">'
            '<meta name="citation_author" content="Lovelace, Ada"><meta name="citation_author" content="Turing, Alan">'
            '<meta name="citation_date" content="2025/10/04"></head><body></body></html>'
        ),
    )
    x = _exploration(web, tagged)
    read = with_metadata(x, collected_report_items(x)[0])
    assert read is not None and read.authors == ["Lovelace, Ada", "Turing, Alan"] and read.date == "2025-10-04"
    assert FOUND_ON_SOURCE not in read.metadata_sources.values()


#: The work's own page, with no tags: its heading, its whole byline and its date written in its text.
ITEM_PAGE = """# A Benchmark of Graph Transformers for Link Prediction

By Ada Lovelace, Alan Turing and Charles Babbage

Published 14 March 2024; this version 5 Oct 2025.
"""


def test_what_the_model_reads_on_the_items_own_page_stands_over_the_listing_line_in_the_report() -> None:
    """The listing shows the date of the latest version and a byline cut short; the model, reading the work's own
    page afterwards, gives the date it was published and the whole byline: the report keeps the own page's."""
    web, _ = stored(dict(GRAPH_TRANSFORMERS))  # from the listing: "5 Oct 2025", Ada Lovelace alone
    own = Page(
        url="http://papers.test/abs/1",
        final_url="http://papers.test/abs/1",
        status=200,
        determination=Determination.OK,
        title="A Benchmark of Graph Transformers for Link Prediction",
        markdown=ITEM_PAGE,
        html="<html><head></head><body><p>No tags at all.</p></body></html>",
    )
    reading = {
        "url": "http://papers.test/abs/1",
        "title": "A Benchmark of Graph Transformers for Link Prediction",
        "score": 8,
        "date": "14 March 2024",
        "authors": ["Ada Lovelace", "Alan Turing", "Charles Babbage"],
    }
    collect_items(web, own, [reading], state=STATE)
    x = _exploration(web, own)
    (item,) = collected_report_items(x)
    assert (item.date, item.authors) == ("2024-03-14", ["Ada Lovelace", "Alan Turing", "Charles Babbage"])
    assert item.metadata_sources == {"authors": OWN_PAGE_SOURCE, "date": OWN_PAGE_SOURCE}
    read = with_metadata(x, item)
    assert read is not None and read.date == "2024-03-14" and read.authors[-1] == "Charles Babbage"
    # a listing read later (a second page of it, the same line) does not undo the own page's reading
    collect_items(web, listing(), [dict(GRAPH_TRANSFORMERS)], state=STATE)
    (again,) = collected_report_items(x)
    assert (again.date, len(again.authors)) == ("2024-03-14", 3)


def test_a_title_that_runs_past_its_links_text_is_the_links_text() -> None:
    """A page's text view puts what follows a link on its line (a badge, a byline): a model that reads them into the
    title is corrected to the link's text, unless that text is too short to be a title or shortened by the site."""
    web, notes = stored(
        {"id": 1, "title": "A Benchmark of Graph Transformers for Link Prediction Ada Lovelace", "score": 8}
    )
    (item,) = web.items()
    assert item.title == "A Benchmark of Graph Transformers for Link Prediction" and len(notes) == 1
    web, notes = stored({"id": 2, "title": "Message Passing Without Messages", "score": 8})
    assert web.items()[0].title == "Message Passing Without Messages" and notes == []


def test_a_fuller_title_than_a_shortened_link_is_kept() -> None:
    page = listing()
    page = page.model_copy(
        update={
            "markdown": "[A Benchmark of Graph Transformers…][1]\n"
            "A Benchmark of Graph Transformers for Link Prediction",
            "links": [
                Link(id=1, url="http://papers.test/abs/1", text="A Benchmark of Graph Transformers…", same_site=True)
            ],
        }
    )
    web = WebContext.for_site(SITE)
    collect_items(web, page, [{"id": 1, "title": "A Benchmark of Graph Transformers for Link Prediction", "score": 8}],
                  state=STATE)  # fmt: skip
    assert web.items()[0].title == "A Benchmark of Graph Transformers for Link Prediction"


def test_a_link_that_shows_only_its_address_names_no_item() -> None:
    # a sitemap read as a page names its pages by the words of their addresses: no title, no item (it may be a
    # subject's or a month's listing); what it is is read on its own page
    sitemap = Page(
        url="http://papers.test/sitemap.xml",
        final_url="http://papers.test/sitemap.xml",
        status=200,
        determination=Determination.OK,
        title="Sitemap of papers.test",
        markdown="[subject soil science 2024 12][1] — last changed 2024-12-26\n[graph neural networks][2]",
        links=[
            Link(id=1, url="http://papers.test/subject/soil-science/2024/12", text="subject soil science 2024 12",
                 same_site=True),
            Link(id=2, url="http://papers.test/graph-neural-networks", text="graph neural networks", same_site=True),
        ],
    )  # fmt: skip
    web = WebContext.for_site(SITE)
    entries = [{"id": 1, "title": "subject soil science 2024 12", "score": 7}, {"id": 2, "title": "x", "score": 6}]
    result = collect_items(web, sitemap, entries, state=STATE)
    assert [item.url for item in web.items()] == ["http://papers.test/graph-neural-networks"]  # a slug may be a title
    assert "shows only its address" in result.rejected[0] and "link 1" in result.rejected[0]
    by_url = collect_items(web, sitemap, [{"url": sitemap.links[0].url, "title": "Soils", "score": 7}], state=STATE)
    assert by_url.added == [] and "shows only its address" in by_url.rejected[0]


def test_a_file_link_named_only_by_its_action_is_never_reported_as_a_work() -> None:
    # a PDF stored by its link's words ("Download (PDF) - Accepted Version") from a page that is no work's own:
    # its own page is a PDF that cannot be read for a title, so the report has no title for it and leaves it out
    page = listing().model_copy(
        update={"links": [Link(id=1, url="http://papers.test/pdf/2", text="Download (PDF) - Accepted Version",
                               same_site=True)]}
    )  # fmt: skip
    web = WebContext.for_site(SITE)
    collect_items(web, page, [{"id": 1, "title": "Download (PDF) - Accepted Version", "score": 7}], state=STATE)
    unreadable = Page(
        url="http://papers.test/pdf/2",
        final_url="http://papers.test/pdf/2",
        status=200,
        determination=Determination.NON_HTML,
        reason="the body is a PDF document",
    )
    x = _exploration(web, unreadable)
    (item,) = collected_report_items(x)
    assert with_metadata(x, item) is None
    titled = item.model_copy(update={"title": "Message Passing Without Messages"})  # a title read on its listing
    assert with_metadata(x, titled) is not None


def test_a_second_listings_whole_byline_replaces_one_cut_short_that_names_its_first_author_otherwise() -> None:
    """The caller of `add_item` judges which byline is fuller, reading names as the pages layer does: "Lovelace A" of
    a reference list is "Ada Lovelace" of the listing read first (initials, surname first), so its longer byline is
    the whole one; a byline beginning with another person is another reading and leaves the first."""
    web = WebContext.for_site(SITE)
    cut_short = Page(
        url="http://papers.test/list",
        final_url="http://papers.test/list",
        status=200,
        determination=Determination.OK,
        title="Graph learning",
        markdown="[A Benchmark of Graph Transformers for Link Prediction][1]\nAda Lovelace et al.\n",
        links=[Link(id=1, url="http://papers.test/abs/1", text="A Benchmark of Graph Transformers for Link Prediction",
                    same_site=True)],
    )  # fmt: skip
    entry = {"id": 1, "title": "A Benchmark of Graph Transformers for Link Prediction", "score": 8}
    collect_items(web, cut_short, [{**entry, "authors": ["Ada Lovelace"]}], state=STATE)
    references = cut_short.model_copy(
        update={
            "url": "http://papers.test/refs",
            "final_url": "http://papers.test/refs",
            "markdown": "Lovelace A, Turing A, Hopper G. [A Benchmark of Graph Transformers for Link Prediction][1]\n"
            "Turing A, Lovelace A, Hopper G, Babbage C. [A Benchmark of Graph Transformers for Link Prediction][1]\n",
        }
    )
    collect_items(web, references, [{**entry, "authors": ["Lovelace A", "Turing A", "Hopper G"]}], state=STATE)
    assert web.items()[0].authors == ("Lovelace A", "Turing A", "Hopper G")
    collect_items(web, references, [{**entry, "authors": ["Turing A", "Lovelace A", "Hopper G", "Babbage C"]}],
                  state=STATE)  # fmt: skip
    assert web.items()[0].authors == ("Lovelace A", "Turing A", "Hopper G")
