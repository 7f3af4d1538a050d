"""The feeds a page names and the sitemaps robots.txt names are queued as pages for the Planner, on the site only,
once each, a feed near the top when the request asks for the newest."""

from __future__ import annotations

from collections.abc import Callable
from datetime import date

from research_crawler.config.settings import Settings
from research_crawler.context.request_rules import read_request
from research_crawler.context.search_context import SearchContext, SiteRef
from research_crawler.pages.page import Determination, Link, Page
from research_crawler.pages.search_forms import SearchMechanism
from research_crawler.run.trace import Trace
from research_crawler.tools.exploration import Exploration, PageAccess
from research_crawler.tools.site_offers import (
    DATED_SCORE,
    FEED_SCORE,
    FEED_SCORE_NEWEST,
    NEXT_PAGE_SCORE,
    SITEMAP_SCORE,
    offer_author_entries,
    offer_dated_links,
    offer_feeds,
    offer_next_page,
    offer_sitemaps,
)

SITE = "https://journal.example/"
HOME = (
    "<html><head><title>Journal</title>"
    "<link rel='alternate' type='application/atom+xml' title='Latest articles' href='/feed.atom'>"
    "<link rel='alternate' type='application/rss+xml' href='https://elsewhere.example/rss'></head><body></body></html>"
)


def exploring(
    request: str, sitemaps: list[str] | None = None, robots_refusal: Callable[[str], str | None] | None = None
) -> Exploration:
    search = SearchContext(query=request, request=read_request(request, today=date(2025, 6, 1)))
    search.add_site(SiteRef(name="journal", url=SITE))

    def fetch(url: str, _site: SiteRef, /, **_: object) -> Page:
        raise AssertionError("offering pages fetches nothing")

    x = Exploration(
        settings=Settings(),
        search=search,
        pages=PageAccess(
            fetch,
            robots_sitemaps=(lambda _url: list(sitemaps)) if sitemaps is not None else None,
            robots_refusal=robots_refusal,
        ),
        trace=Trace(None),
    )
    x.start_next_site(None)
    return x


def offered(x: Exploration) -> list:  # type: ignore[type-arg]
    return [entry for entry in x.web.top_urls(10) if entry.url != SITE]  # the start page is pending too


def home() -> Page:
    return Page(url=SITE, final_url=SITE, determination=Determination.OK, html=HOME)


def test_a_feed_is_queued_for_the_planner_with_what_it_is() -> None:
    x = exploring("Find papers on graph neural networks")
    assert offer_feeds(x, home()) == 1 and offer_feeds(x, home()) == 0  # once; the off-site feed never
    (pending,) = offered(x)
    assert pending.url == "https://journal.example/feed.atom" and pending.score == FEED_SCORE
    assert pending.anchor_text == "Atom feed 'Latest articles': the site's newest entries, newest first"
    assert pending.found_on == SITE


def test_a_feed_goes_near_the_top_for_the_newest() -> None:
    x = exploring("Find the 3 most recent papers on graph neural networks")
    offer_feeds(x, home())
    assert offered(x)[0].score == FEED_SCORE_NEWEST


def test_sitemaps_of_robots_txt_are_queued_on_the_site_only() -> None:
    x = exploring(
        "Find papers on graph neural networks",
        sitemaps=["https://journal.example/sitemap.xml", "https://cdn.other.example/sitemap.xml"],
    )
    assert offer_sitemaps(x, home()) == 1
    (pending,) = offered(x)
    assert pending.url == "https://journal.example/sitemap.xml" and pending.score == SITEMAP_SCORE
    assert pending.anchor_text.startswith("sitemap named by robots.txt")
    assert offer_sitemaps(exploring("Find papers", sitemaps=None), home()) == 0


LISTING = f"{SITE}papers?page=2"


def listing_page() -> Page:
    links = [
        Link(id=1, url=f"{SITE}papers/wp1", text="Smoke Detectors in Rental Housing", same_site=True),
        Link(id=2, url=f"{SITE}papers?page=1", text="1", same_site=True),
        Link(id=3, url=f"{SITE}papers?page=3", text="3", same_site=True),
        Link(id=4, url=f"{SITE}papers?page=4", text="4", same_site=True),
    ]
    return Page(url=LISTING, final_url=LISTING, determination=Determination.OK, title="Working papers", links=links)


def test_the_next_page_of_a_listing_is_queued_whatever_the_crawler_made_of_it() -> None:
    # a model that left the pager's numbers out, or scored them 0, still leaves the listing to be read on
    for crawler_score in (None, 0.0):
        x = exploring("Find papers on wildfire smoke")
        if crawler_score is not None:
            x.web.add_url(f"{SITE}papers?page=3", crawler_score, anchor_text="3", found_on=LISTING)
        x.web.add_url(f"{SITE}papers/wp9", 1.0, anchor_text="Antibiotic Discovery", found_on=LISTING)
        assert offer_next_page(x, listing_page(), new_items=0)  # a site with no search: paged through
        first = offered(x)[0]
        assert first.url == f"{SITE}papers?page=3" and first.score == NEXT_PAGE_SCORE
        assert first.anchor_text == "page 3 — the next page of the listing “Working papers”"
        assert not x.web.is_pending(f"{SITE}papers?page=4")  # one page at a time


def test_a_listing_that_gave_nothing_on_a_site_with_a_search_is_not_paged() -> None:
    x = exploring("Find papers on wildfire smoke")
    x.findings.site_search[SITE] = [SearchMechanism(kind="form", url_template=f"{SITE}search?q={{query}}", usable=True)]
    assert not offer_next_page(x, listing_page(), new_items=0)
    assert offer_next_page(x, listing_page(), new_items=2)  # it gave items: what follows may too
    x.web.take(f"{SITE}papers?page=3")
    assert not offer_next_page(x, listing_page(), new_items=2)  # a page read already is not queued again


ISSUES = f"{SITE}loi"


def issues_page() -> Page:
    """A journal's list of issues: short link texts, the dates beside them; and an article whose title names a year."""
    links = [
        Link(id=1, url=f"{SITE}toc/15/2", text="Issue 2", same_site=True, context="April–June 2026"),
        Link(id=2, url=f"{SITE}toc/14/3", text="Issue 3", same_site=True, context="July–September 2025"),
        Link(id=3, url=f"{SITE}toc/13/4", text="Issue 4", same_site=True, context="October–December 2024"),
        Link(id=4, url=f"{SITE}toc/13/1", text="Issue 1", same_site=True, context="January–March 2024"),
        Link(id=5, url=f"{SITE}proceedings/2024", text="Proceedings 2024", same_site=True),
        Link(
            id=6,
            url=f"{SITE}article/a1",
            text="What the 2024 Drought Did to Coral Reef Fisheries",  # an item's title, not an index
            same_site=True,
        ),
        Link(id=7, url="https://other.example/2024", text="2024", same_site=False),
    ]
    return Page(url=ISSUES, final_url=ISSUES, determination=Determination.OK, title="All issues", links=links)


def test_links_naming_the_year_asked_for_are_offered_whatever_the_crawler_made_of_them() -> None:
    # a model that scored the issues alike (or left them out) still has the year's issues opened first
    x = exploring("Find papers on solid-state battery electrolytes published in 2024")
    x.web.add_url(f"{SITE}toc/14/3", 3.0, anchor_text="Issue 3", found_on=ISSUES)
    x.web.add_url(f"{SITE}toc/13/4", 3.0, anchor_text="Issue 4", found_on=ISSUES)
    x.web.add_url(f"{SITE}about", 4.0, anchor_text="About the journal", found_on=SITE)
    assert offer_dated_links(x, issues_page()) == 3
    first = offered(x)[:3]
    assert [entry.url for entry in first] == [f"{SITE}toc/13/4", f"{SITE}toc/13/1", f"{SITE}proceedings/2024"]
    assert [entry.score for entry in first] == [DATED_SCORE, DATED_SCORE - 0.01, DATED_SCORE - 0.02]  # page order
    assert first[0].anchor_text == "Issue 4 (October–December 2024) — names 2024, the year the request asks for"
    assert x.web.pending_entry(f"{SITE}toc/14/3").score == 3.0  # another year keeps the crawler's score
    assert not x.web.is_pending(f"{SITE}article/a1")  # a title naming a year is no index
    x.web.take(f"{SITE}toc/13/1")
    assert offer_dated_links(x, issues_page()) == 2  # a page read already is not queued again


def test_a_link_robots_txt_forbids_is_never_offered_whatever_year_it_names() -> None:
    # a "Login" whose words beside it name the year asked for, on a site whose robots.txt forbids /login/: raising it
    # would spend a page of the budget on a fetch that is refused; the year's issues are offered as before
    def refusal(url: str) -> str | None:
        return "robots.txt forbids it" if "/login/" in url else None

    x = exploring("Find papers on solid-state battery electrolytes published in 2024", robots_refusal=refusal)
    login = Link(id=8, url=f"{SITE}login/", text="Login", same_site=True, context="| FLEdge Days 2024")
    page = issues_page()
    page = page.model_copy(update={"links": [login, *page.links]})
    assert offer_dated_links(x, page) == 3
    assert not x.web.is_pending(f"{SITE}login/")
    assert f"{SITE}toc/13/4" in [entry.url for entry in offered(x)]
    listing = listing_page()
    forbidding_all = exploring("Find papers on wildfire smoke", robots_refusal=lambda _url: "robots.txt forbids it")
    assert not offer_next_page(forbidding_all, listing, new_items=2)
    assert offer_sitemaps(exploring("Find papers", [f"{SITE}sitemap.xml"], lambda _url: "robots.txt forbids it"),
                          home()) == 0  # fmt: skip


def test_the_newest_year_a_page_lists_is_offered_for_the_newest() -> None:
    x = exploring("Find the 3 most recent papers on wildfire smoke")
    assert offer_dated_links(x, issues_page()) == 1
    assert offered(x)[0].url == f"{SITE}toc/15/2"
    assert offered(x)[0].anchor_text.endswith("names 2026, the newest year this page lists")


def test_no_year_is_offered_for_a_request_without_dates_or_on_a_page_naming_one_year() -> None:
    assert offer_dated_links(exploring("Find papers on wildfire smoke"), issues_page()) == 0
    one_year = issues_page().model_copy(update={"links": issues_page().links[4:5]})
    assert offer_dated_links(exploring("Find the 3 most recent papers on wildfire smoke"), one_year) == 0


def test_a_site_whose_only_search_robots_txt_forbids_is_paged_as_one_with_no_search() -> None:
    # the forbidden form is remembered, unusable: the listing is read on, and the Planner is not told to search
    x = exploring("Find papers on wildfire smoke")
    x.findings.site_search[SITE] = [
        SearchMechanism(kind="form", url_template=f"{SITE}search?q={{query}}", usable=False, note="robots.txt forbids")
    ]
    assert not x.hint_state().search_unused
    assert offer_next_page(x, listing_page(), new_items=0)


def test_a_citations_first_link_names_its_year_and_a_day_beside_a_link_none() -> None:
    # a homepage's list of papers: each "[Abstract] [PDF]" follows a citation with its year; the page's links at its
    # foot stand beside "Last modified: 2 October 2026", which names no year they lead to
    nitrate = "Okafor, B. and Arrow, T.. Nitrate Leaching from Fields. Soil Use, 12:1–9, 2024."
    page = Page(
        url=f"{SITE}papers.html",
        final_url=f"{SITE}papers.html",
        determination=Determination.OK,
        links=[
            Link(id=1, url=f"{SITE}p/a.html", text="Abstract", same_site=True, names_entry=True, context=nitrate),
            Link(id=2, url=f"{SITE}p/a.pdf", text="PDF", same_site=True, names_entry=True, context=nitrate),
            Link(id=3, url=f"{SITE}p/b.html", text="Abstract", same_site=True, names_entry=True,
                 context="Arrow, T.. Cover Crops and Phosphorus. Soil Use, 11:3–4, 2021."),
            Link(id=4, url=f"{SITE}teaching.html", text="Teaching", same_site=True,
                 context="Home | Publications | Teaching … | Last modified: 2 October 2026"),
            Link(id=5, url=f"{SITE}archive/2023", text="Archive", same_site=True, context="Papers of 2023"),
        ],
    )  # fmt: skip
    newest = exploring("Find the 3 most recent papers on nitrate leaching")
    assert offer_dated_links(newest, page) == 1, "the newest citation's first link, not its PDF nor the footer's"
    assert offered(newest)[0].url == f"{SITE}p/a.html"
    assert offered(newest)[0].anchor_text == f"Abstract: {nitrate} — names 2024, the newest year this page lists"
    dated = exploring("Find papers on nitrate leaching published in 2023")
    assert offer_dated_links(dated, page) == 1 and offered(dated)[0].url == f"{SITE}archive/2023"
    assert offer_dated_links(exploring("Find papers on nitrate leaching published in 2026"), page) == 0
    collected = exploring("Find papers on nitrate leaching published in 2024")
    collected.web.add_item(f"{SITE}p/a.html", title="Nitrate Leaching from Fields", description="", score=8,
                           found_on=page.url)  # fmt: skip
    assert offer_dated_links(collected, page) == 0, "a work collected already is not opened for its year"


def test_a_year_facet_of_a_result_list_shown_whole_is_not_offered_but_of_a_paged_one_it_is() -> None:
    # the search's results all on one page: its year facet lists only some of them again
    results = f"{SITE}search?q=electrolytes"
    links = [
        Link(id=1, url=f"{results}&year=2024", text="2024", same_site=True),
        Link(id=2, url=f"{results}&year=2023", text="2023", same_site=True),
        Link(id=3, url=f"{SITE}toc/13/4", text="Issue 4 (2024)", same_site=True),
    ]
    page = Page(url=results, final_url=results, determination=Determination.OK, title="Search results", links=links)
    x = exploring("Find papers on solid-state battery electrolytes published in 2024")
    assert offer_dated_links(x, page) == 1
    assert [entry.url for entry in offered(x)] == [f"{SITE}toc/13/4"]
    pager = Link(id=4, url=f"{results}&page=2", text="Next", same_site=True)
    paged = page.model_copy(update={"links": [*links, pager]})
    x = exploring("Find papers on solid-state battery electrolytes published in 2024")
    assert offer_dated_links(x, paged) == 2


CHANNEL = f"{SITE}channel/seminars/7"
CHANNEL_HTML = (
    "<html><body><ul class='gallery'><li><a href='/media/a/1'>Wildfire smoke and asthma visits</a></li>"
    "<li><a href='/media/b/2'>Smoke plumes seen from orbit</a></li></ul>"
    "<button class='btn' data-url='/channel/media/7/page/2' onclick='portal.loadMore(this)'>Load More</button>"
    "</body></html>"
)


def channel_page(reason: str = "") -> Page:
    links = [
        Link(id=1, url=f"{SITE}media/a/1", text="Wildfire smoke and asthma visits", same_site=True),
        Link(id=2, url=f"{SITE}media/b/2", text="Smoke plumes seen from orbit", same_site=True),
    ]
    return Page(url=CHANNEL, final_url=CHANNEL, determination=Determination.OK, title="Seminars", links=links,
                html=CHANNEL_HTML, reason=reason)  # fmt: skip


def test_the_part_a_load_more_control_names_is_the_next_page_when_its_script_loaded_nothing() -> None:
    x = exploring("Find papers on wildfire smoke")
    stopped = "pressed its 'load more' control 1 time(s) in the browser: 12 → 12 links (the list stopped growing)"
    assert offer_next_page(x, channel_page(stopped), new_items=2)
    first = offered(x)[0]
    assert first.url == f"{SITE}channel/media/7/page/2" and first.score == NEXT_PAGE_SCORE
    assert first.anchor_text == "Load more — the next page of the listing “Seminars”"


def test_the_part_a_load_more_control_names_is_not_offered_when_the_browser_loaded_it() -> None:
    x = exploring("Find papers on wildfire smoke")
    grown = "pressed its 'load more' control 2 time(s) in the browser: 12 → 36 links (the list is whole)"
    assert not offer_next_page(x, channel_page(grown), new_items=2)
    elsewhere = CHANNEL_HTML.replace("/channel/media/7/page/2", "https://cdn.example/channel/7/page/2")
    page = channel_page().model_copy(update={"html": elsewhere})
    assert not offer_next_page(x, page, new_items=2)  # another site's address is never offered


def test_a_link_taking_the_year_off_the_page_s_filters_is_not_offered_for_that_year() -> None:
    # a result list filtered to 2024: the "remove" beside the active year facet names 2024 in the words beside it,
    # but opens the list without it; a narrower link that keeps the year (another facet) still names it
    filtered = f"{SITE}search?type=all&filter=year%3A2024"
    links = [
        Link(id=1, url=f"{SITE}search?type=all", text="(remove)", same_site=True, context="Year: 2024"),
        Link(id=2, url=f"{filtered}&format=article&page=1", text="Articles", same_site=True, context="2024"),
        Link(id=3, url=f"{SITE}search?filter=year%3A2024", text="(clear type)", same_site=True, context="2024"),
    ]
    page = Page(url=filtered, final_url=filtered, determination=Determination.OK, title="Results", links=links)
    x = exploring("Find papers on solid-state battery electrolytes published in 2024")
    assert offer_dated_links(x, page) == 2
    assert not x.web.is_pending(f"{SITE}search?type=all")  # the list without the year is not raised for it
    assert all("names 2024" in entry.anchor_text for entry in offered(x))


def journal_home() -> Page:
    links = [
        Link(id=1, url=f"{SITE}about", text="About the journal", same_site=True),
        Link(id=2, url=f"{SITE}issue/current", text="Current issue", same_site=True),
        Link(id=3, url=f"{SITE}?sort=date_desc", text="Date", same_site=True),
        Link(id=5, url=f"{SITE}?sort=date&journal=Toxicon", text="Toxicon", same_site=True),  # another list by date
        Link(id=4, url=f"{SITE}article/recent-advances", text="Recent Advances in Wildfire Smoke", same_site=True),
    ]
    return Page(url=SITE, final_url=SITE, determination=Determination.OK, title="Journal", links=links)


def test_the_links_to_the_newest_works_are_offered_for_the_newest_whatever_the_crawler_made_of_them() -> None:
    x = exploring("Find the 3 most recent papers on wildfire smoke")
    x.web.add_url(f"{SITE}issue/current", 1.0, anchor_text="Current issue", found_on=SITE)  # scored as off the topic
    assert offer_dated_links(x, journal_home()) == 1
    assert offered(x)[0].url == f"{SITE}issue/current"
    assert not x.web.is_pending(f"{SITE}?sort=date&journal=Toxicon")  # another list, sorted by date
    assert not x.web.is_pending(f"{SITE}?sort=date_desc")  # a page with no next page, re-sorted, shows nothing new
    assert offered(x)[0].score == DATED_SCORE
    assert offered(x)[0].anchor_text == "Current issue — leads to the site's newest works, for the most recent"
    assert not x.web.is_pending(f"{SITE}article/recent-advances")  # a title, not a way to the newest
    # a model that already scored the current issue above it keeps its score
    keen = exploring("Find the 3 most recent papers on wildfire smoke")
    keen.web.add_url(f"{SITE}issue/current", 9.5, anchor_text="Current issue", found_on=SITE)
    offer_dated_links(keen, journal_home())
    assert keen.web.pending_entry(f"{SITE}issue/current").score == 9.5
    # a request with dates, or without a constraint of time, raises none of them
    assert offer_dated_links(exploring("Find papers on wildfire smoke published in 2024"), journal_home()) == 0
    assert offer_dated_links(exploring("Find papers on wildfire smoke"), journal_home()) == 0


def catalog_page() -> Page:
    markdown = (
        "[1] Catalogs · [2] Authors\n# New books\n### [3] Twopenny Seats\nTicket Prices in Buenos Aires\n"
        "Chen Suzuki, Amélie Fischer\n### [4] Holy Miles\nHannah Fischer and Olusegun Ali\n"
        "### [5] Flickering Lights\nIngrid Liu, Chen Suzuki\n"
    )
    links = [
        Link(id=1, url=f"{SITE}catalogs", text="Catalogs", same_site=True),
        Link(id=2, url=f"{SITE}authors", text="Authors", same_site=True),
        Link(id=3, url=f"{SITE}books/twopenny", text="Twopenny Seats", same_site=True),
        Link(id=4, url=f"{SITE}books/holy-miles", text="Holy Miles", same_site=True),
        Link(id=5, url=f"{SITE}books/flickering", text="Flickering Lights", same_site=True),
    ]
    return Page(url=f"{SITE}new", final_url=f"{SITE}new", determination=Determination.OK, title="New books",
                markdown=markdown, links=links)  # fmt: skip


def test_the_entries_whose_byline_names_the_author_asked_for_are_offered_unless_stored_already() -> None:
    x = exploring("Find papers on silent cinema audiences by Suzuki")
    assert offer_author_entries(x, catalog_page()) == 2
    raised = [entry.url for entry in offered(x)]
    assert raised == [f"{SITE}books/twopenny", f"{SITE}books/flickering"]
    assert offered(x)[0].anchor_text == "Twopenny Seats — by Chen Suzuki, an author the request names"
    # a work the Collector stored from the listing is not opened for its byline: the report reads it
    stored = exploring("Find papers on silent cinema audiences by Suzuki")
    stored.web.add_item(f"{SITE}books/twopenny", title="Twopenny Seats", score=6.0, found_on=f"{SITE}new")
    assert offer_author_entries(stored, catalog_page()) == 1
    assert offer_author_entries(exploring("Find papers on silent cinema audiences"), catalog_page()) == 0
    assert offer_author_entries(exploring("Find papers on silent cinema by Okafor"), catalog_page()) == 0
