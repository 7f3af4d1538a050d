"""The real saved pages served as sites (`eval/saved_sites_server.py`) and the ground truth read from them
(`eval/saved_pages.py`), as `benchmarks/latency_cost.py --web realweb` uses them."""

from __future__ import annotations

import urllib.error
import urllib.request
from urllib.parse import urlsplit

import pytest
import realweb

from research_crawler.eval.saved_pages import (
    THREE_SITES_QUERY,
    SavedPage,
    page_key,
    read_saved_pages,
    relevant_pages,
    topic_words,
)
from research_crawler.eval.saved_sites_server import SavedSitesServer
from research_crawler.web.url_guard import UrlGuard

pytestmark = realweb.needs_realweb


def _get(url: str) -> tuple[int, str, bytes]:
    try:
        with urllib.request.urlopen(url, timeout=10) as response:
            return response.status, response.headers["Content-Type"], response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.headers["Content-Type"], error.read()


@pytest.fixture(scope="module")
def pages() -> list[SavedPage]:
    return read_saved_pages(realweb.REALWEB, THREE_SITES_QUERY.sites)


def test_every_saved_page_is_served_as_saved_at_its_original_path(pages: list[SavedPage]) -> None:
    with SavedSitesServer(pages) as server:
        for page in pages:
            url = server.url_of(page)
            assert urlsplit(url).path == urlsplit(page.original_url).path
            status, content_type, body = _get(url)
            assert status == 200
            assert body == page.file.read_bytes()
            assert content_type == page.content_type and content_type.startswith("text/html")


def test_a_page_with_a_query_is_served_only_with_that_query(pages: list[SavedPage]) -> None:
    search = next(page for page in pages if page.site == "arxiv" and page.kind == "search")
    with SavedSitesServer(pages) as server:
        base = server.start_url("arxiv").rstrip("/")
        shuffled = "&".join(reversed(urlsplit(search.original_url).query.split("&")))
        assert _get(f"{base}{urlsplit(search.original_url).path}?{shuffled}")[0] == 200
        assert _get(f"{base}{urlsplit(search.original_url).path}")[0] == 404
        assert _get(f"{base}{search.target}&start=50")[0] == 404


def test_everything_else_is_a_404_and_the_root_is_the_added_index(pages: list[SavedPage]) -> None:
    with SavedSitesServer(pages) as server:
        base = server.start_url("acm").rstrip("/")
        for target in ("/robots.txt", "/doi/abs/10.1145/0000000.0000000", "/abs/1706.03762", "/favicon.ico"):
            assert _get(base + target)[0] == 404, target
        status, _, index = _get(server.start_url("acm"))
        assert status == 200
        text = index.decode()
        acm_pages = server.pages("acm")
        assert {page.site for page in acm_pages} == {"acm"} and len(acm_pages) >= 2
        for page in acm_pages:
            assert page.title and page.title in text.replace("&amp;", "&").replace("&#x27;", "'")
        assert server.hits("acm").count("/robots.txt") == 1


def test_pages_without_a_real_original_url_are_left_out() -> None:
    # plos's saved search page was described ("PLoS ONE site search for …"), not saved from a URL.
    plos = read_saved_pages(realweb.REALWEB, ["plos"])
    assert plos and all(page.kind != "search" for page in plos)
    assert all(urlsplit(page.original_url).scheme in ("http", "https") for page in plos)


def test_the_ground_truth_rule_is_read_from_the_titles_and_is_not_empty(pages: list[SavedPage]) -> None:
    relevant = relevant_pages(THREE_SITES_QUERY.text, pages)
    assert relevant
    assert all(page.is_item for page in relevant)
    assert all(topic_words(THREE_SITES_QUERY.text) & topic_words(page.title) for page in relevant)
    others = [page for page in pages if page.is_item and page not in relevant]
    assert all(not topic_words(THREE_SITES_QUERY.text) & topic_words(page.title) for page in others)
    # Another request, another ground truth: nothing is fixed by hand.
    assert relevant_pages("protein folding", pages) == []
    with SavedSitesServer(pages) as server:
        truth = server.ground_truth(THREE_SITES_QUERY.text)
        assert set(truth.values()) == {page.file.name for page in relevant}
        assert all(server.url_of(page) in truth for page in relevant)


def test_topic_words_drop_stopwords_short_words_and_plural_s() -> None:
    assert topic_words("papers on Language Models for NLP") == {"language", "model", "nlp"}
    assert topic_words("a class of networks") == {"class", "network"}


def test_page_keys_ignore_the_order_of_query_parameters_only() -> None:
    assert page_key("/a?x=1&y=2") == page_key("/a?y=2&x=1")
    assert page_key("/a?x=1") != page_key("/a") != page_key("/a/")
    assert page_key("/search/abstract_title%3Amachine") == page_key("/search/abstract_title:machine")


async def test_the_url_guard_lets_the_sites_through_only_when_named(pages: list[SavedPage]) -> None:
    with SavedSitesServer(pages) as server:
        url = server.start_url("arxiv")
        assert await UrlGuard().refusal(url) is not None
        assert await UrlGuard(allowed_hosts=server.allowed_hosts()).refusal(url) is None
        other = f"http://127.0.0.1:{int(urlsplit(url).port or 0) % 65000 + 1}/"
        if other.removeprefix("http://").rstrip("/") not in server.allowed_hosts():
            assert await UrlGuard(allowed_hosts=server.allowed_hosts()).refusal(other) is not None
