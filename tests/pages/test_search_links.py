"""The link that names a site's search page (`pages/search_links.py`)."""

from __future__ import annotations

import pytest

from research_crawler.pages.page import Link
from research_crawler.pages.search_links import names_search_page, search_page_link


@pytest.mark.parametrize(
    "text", ["Search", "  advanced   SEARCH ", "Search »", "Suche", "Recherche avancée", "検索", "搜索", "Поиск"]
)
def test_a_search_page_is_named_in_many_languages(text: str) -> None:
    assert names_search_page(text)


@pytest.mark.parametrize("text", ["Research", "Search results for graphs", "Searching for meaning in data", "Home", ""])
def test_words_that_only_contain_search_do_not_name_it(text: str) -> None:
    assert not names_search_page(text)


def link(id_: int, url: str, text: str, *, same_site: bool = True) -> Link:
    return Link(id=id_, url=url, text=text, same_site=same_site)


def test_the_first_search_link_on_the_site_is_taken_never_another_sites_nor_the_page_itself() -> None:
    links = [
        link(1, "https://other.example/search", "Search", same_site=False),
        link(2, "https://journal.example/search", "Search"),
        link(3, "https://journal.example/search/advanced", "Advanced search"),
    ]
    assert search_page_link(links, page_url="https://journal.example/") == links[1]
    assert search_page_link(links[1:2], page_url="https://journal.example/search") is None
    assert search_page_link(links[:1], page_url="https://journal.example/") is None
