"""A site search that says it found one or two results for a phrase of several words is offered again with fewer
words, as pending pages the Planner may open: each phrase between the linking words, through the site's GET search."""

from __future__ import annotations

from collections.abc import Callable
from datetime import date

from research_crawler.config.settings import Settings
from research_crawler.context.request_rules import read_request
from research_crawler.context.search_context import SearchContext, SiteRef
from research_crawler.pages.page import Determination, Page
from research_crawler.pages.search_forms import SearchMechanism
from research_crawler.run.trace import Trace
from research_crawler.tools.broader_search import (
    BROADER_SEARCH_SCORE,
    broader_queries,
    offer_broader_search,
    results_count,
)
from research_crawler.tools.exploration import Exploration, PageAccess

SITE = "https://registry.example/"
QUERY = "phonics instruction in early reading"


def exploring(method: str = "GET", robots_refusal: Callable[[str], str | None] | None = None) -> Exploration:
    search = SearchContext(query=QUERY, request=read_request(QUERY, today=date(2025, 6, 1)))
    search.add_site(SiteRef(name="registry", url=SITE))

    def fetch(url: str, _site: SiteRef, /, **_: object) -> Page:
        raise AssertionError("offering a search fetches nothing")

    x = Exploration(
        settings=Settings(), search=search, pages=PageAccess(fetch, robots_refusal=robots_refusal), trace=Trace(None)
    )
    x.start_next_site(None)
    template = f"{SITE}search?term={{query}}" if method == "GET" else f"{SITE}search"
    x.findings.site_search[SITE] = [SearchMechanism(kind="form", method=method, url_template=template, usable=True)]
    return x


def results(markdown: str) -> Page:
    url = f"{SITE}search?term=phonics+instruction+in+early+reading"
    return Page(url=url, final_url=url, determination=Determination.OK, markdown=markdown)


def offered(x: Exploration) -> list:  # type: ignore[type-arg]
    return [entry for entry in x.web.top_urls(10) if entry.url != SITE]


def test_the_shorter_searches_are_the_phrases_between_linking_words() -> None:
    assert broader_queries(QUERY) == ["phonics instruction", "early reading"]
    assert broader_queries("fire resistance of mass timber buildings") == ["mass timber buildings", "fire resistance"]
    assert broader_queries("the history of the wool textile industry") == ["wool textile industry"]
    assert broader_queries("automated program repair") == ["program repair"]
    assert broader_queries("graph networks") == [] and broader_queries("phonics") == []
    assert broader_queries("programmes prevent falls older people") == []  # keywords: none is the one to drop


def test_a_results_page_is_read_for_the_count_it_states() -> None:
    assert results_count("# Find a study\n1 studies found\n* [3] Learning to Read") == 1
    assert results_count("Showing 1 - 10 of 245 results") == 245
    assert results_count("No matching studies found.") == 0
    assert results_count("# Search\n* [3] Learning to Read with Phonics") is None


def test_a_search_that_found_little_is_offered_again_with_fewer_words() -> None:
    x = exploring()
    assert offer_broader_search(x, results("1 studies found\n* [3] Learning to Read with Phonics"), QUERY) == 2
    first, second = offered(x)
    assert first.url == f"{SITE}search?term=phonics+instruction" and first.score == BROADER_SEARCH_SCORE
    assert first.anchor_text.startswith("site search: phonics instruction — the same search with fewer words")
    assert second.url == f"{SITE}search?term=early+reading"
    assert offer_broader_search(x, results("1 studies found"), QUERY) == 0  # once each


def test_a_search_that_found_enough_none_or_says_nothing_of_its_count_is_left_as_it_is() -> None:
    x = exploring()
    assert offer_broader_search(x, results("12 studies found\n* [3] Learning to Read"), QUERY) == 0
    assert offer_broader_search(x, results("No matching studies found."), QUERY) == 0  # the Planner is told
    assert offer_broader_search(x, results("* [3] Learning to Read with Phonics"), QUERY) == 0
    assert offered(x) == []


def test_a_post_search_or_one_robots_txt_forbids_is_not_offered() -> None:
    assert offer_broader_search(exploring("POST"), results("2 results"), QUERY) == 0
    forbidden = exploring(robots_refusal=lambda url: "Disallow: /search" if "/search" in url else None)
    assert offer_broader_search(forbidden, results("2 results"), QUERY) == 0
