"""A site's search page named by a link: many sites put no search form on their pages but a link to a page that has
one — "Search" or "Advanced search" in the header of a journal (Open Journal Systems does this), a repository, a
catalogue or a blog. A person who finds no search box clicks it; so does the Scraper, once per site, when the page
it reads has no search form (`nested_chats/scraper.py`).

A link names the search page when its whole text, after spaces, case and a closing arrow or ellipsis are set aside,
is one of the words below: a link whose words only contain "search" ("Search results for …", "Research") is not it.
The words are data, by language; add a language by adding its words.
"""

from __future__ import annotations

import re
import unicodedata

from research_crawler.pages.page import Link

__all__ = ["SEARCH_LINK_TEXTS", "names_search_page", "search_page_link"]

#: A link's whole text that names a site's search page, by language (lower case, single spaces).
SEARCH_LINK_TEXTS: dict[str, tuple[str, ...]] = {
    "en": (
        "search",
        "advanced search",
        "site search",
        "search the site",
        "search this site",
        "search site",
        "search the journal",
        "search the archive",
        "search the repository",
        "search the collection",
        "search the catalogue",
        "search the catalog",
        "search articles",
        "search publications",
        "search papers",
    ),
    "de": ("suche", "suchen", "erweiterte suche", "volltextsuche"),
    "fr": ("recherche", "rechercher", "recherche avancée"),
    "es": ("buscar", "búsqueda", "búsqueda avanzada", "buscador"),
    "it": ("cerca", "ricerca", "ricerca avanzata"),
    "pt": ("pesquisa", "pesquisar", "pesquisa avançada", "busca", "busca avançada"),
    "nl": ("zoeken", "uitgebreid zoeken"),
    "sv": ("sök", "avancerad sökning"),
    "da/no": ("søg", "søk", "avanceret søgning", "avansert søk"),
    "fi": ("haku", "hae", "tarkennettu haku"),
    "pl": ("szukaj", "wyszukiwanie", "wyszukiwanie zaawansowane"),
    "cs": ("hledat", "vyhledávání", "pokročilé vyhledávání"),
    "tr": ("ara", "arama", "gelişmiş arama"),
    "ru": ("поиск", "найти", "расширенный поиск"),
    "ja": ("検索", "詳細検索"),
    "zh": ("搜索", "检索", "高级检索", "高级搜索", "搜尋", "檢索", "進階搜尋"),
    "ko": ("검색", "상세검색"),
    "ar": ("بحث", "بحث متقدم"),
}

_TEXTS = frozenset(text for texts in SEARCH_LINK_TEXTS.values() for text in texts)
#: What may close a link's text without changing what it names: an arrow, an ellipsis, a colon, a chevron.
_CLOSING = re.compile(r"[\s:›»>→…\.]+$")


def names_search_page(text: str) -> bool:
    """Whether a link's whole text names a site's search page ("Search", "Advanced search", "Suche", "検索")."""
    words = " ".join(unicodedata.normalize("NFC", text).split()).lower()
    return _CLOSING.sub("", words) in _TEXTS


def search_page_link(links: list[Link], *, page_url: str) -> Link | None:
    """The first link of `links` on the page's own site that names the site's search page (never the page itself);
    None when there is none."""
    for link in links:
        if link.same_site and link.url != page_url and names_search_page(link.text):
            return link
    return None
