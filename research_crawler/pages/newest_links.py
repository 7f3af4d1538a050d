"""Links that lead to a site's newest works, as a person asked for "the most recent" looks for them on a site never
seen: a journal's current issue ("Current issue", "Número actual", "Aktuelle Ausgabe"), the latest additions ("Latest
articles", "Recently added", "New releases"), and a listing's own sort set to newest first ("Newest first", "Sort by
date", or a link that re-sorts the page it is on by date descending, ``?sort=date_desc``, ``?order=newest``). A link
whose address sorts by date but lists something else (another path, another filter: a journal's name, an author's)
is not the newest of this list and does not count by its address.

A link counts when its whole text is such a phrase, with at most the words that say what is listed ("issue",
"articles", "preprints"…): "Recent Advances in Graph Learning" is a work's title, not a way to the newest. The phrases
are data, by language (folded: no accents, lower case); add a language by adding its words. A sort that puts the
oldest first (``sort=date_asc``, "Oldest") never counts.
"""

from __future__ import annotations

import re
import unicodedata
from urllib.parse import parse_qsl, urlsplit

from research_crawler.pages.page import Link

__all__ = ["NEWEST_PHRASES", "leads_to_newest"]

#: Phrases that name the newest works or the current issue, by language (folded: no accents, lower case).
NEWEST_PHRASES: dict[str, tuple[str, ...]] = {
    "en": ("current issue", "latest issue", "newest issue", "current volume", "latest", "newest", "most recent",
           "recent", "recently added", "recently published", "recent additions", "new additions", "new arrivals",
           "new releases", "new titles", "just published", "just accepted", "early view", "online first",
           "ahead of print", "what's new", "whats new", "newest first", "latest first", "sort by date",
           "sort by newest", "date newest", "date newest first", "by date newest first"),
    "es": ("numero actual", "ultimo numero", "numero en curso", "mas recientes", "lo mas reciente", "recientes",
           "novedades", "ultimos articulos", "ultimas publicaciones", "publicacion anticipada"),
    "pt": ("numero atual", "edicao atual", "ultimo numero", "ultima edicao", "mais recentes", "recentes",
           "novidades", "ultimos artigos", "publicacao antecipada"),
    "fr": ("numero en cours", "numero actuel", "dernier numero", "plus recents", "les plus recents", "recents",
           "nouveautes", "derniers articles", "dernieres publications", "parutions recentes"),
    "de": ("aktuelle ausgabe", "aktuelles heft", "neueste ausgabe", "neueste", "neuerscheinungen", "neu erschienen",
           "neueste zuerst", "nach datum"),
    "it": ("numero corrente", "ultimo numero", "fascicolo corrente", "piu recenti", "novita", "ultimi articoli"),
}  # fmt: skip
#: Words a link may add to such a phrase: what is listed, and how ("Latest articles", "View the current issue").
_LISTED_WORDS = frozenset((
    "issue", "issues", "volume", "article", "articles", "paper", "papers", "preprints", "publications", "items",
    "works", "books", "titles", "entries", "records", "additions", "research", "studies", "first", "the", "all",
    "view", "see", "show", "browse", "sort", "by", "date", "order", "ordered", "list", "listing",
    "numero", "numeros", "artigos", "articulos", "publicaciones", "publicacoes", "parutions", "artikel", "ausgabe",
    "heft", "articoli", "pubblicazioni",
))  # fmt: skip
_PHRASES = {phrase for phrases in NEWEST_PHRASES.values() for phrase in phrases}
_LONGEST = max(len(phrase.split()) for phrase in _PHRASES)
#: A query key that sorts a listing, and values of it that put the newest first, or the oldest.
_SORT_KEY = re.compile(r"sort|order", re.I)
_NEWEST_VALUE = re.compile(r"newest|latest|recent|date.?desc|desc.?date|^-\w*date|^date$|^published$", re.I)
_OLDEST_VALUE = re.compile(r"asc|oldest|earliest", re.I)


def leads_to_newest(link: Link, *, on: str) -> bool:
    """Whether `link`, on the page at `on`, leads to the site's newest works: its text is a phrase of
    `NEWEST_PHRASES` with only words that say what is listed beside it, or it re-sorts that page by date, newest
    first (the same path and the same query but for its sort and page)."""
    return _names_newest(link.text) or (_sorts_newest(link.url) and _same_list(link.url, on))


def _folded(text: str) -> list[str]:
    plain = "".join(ch for ch in unicodedata.normalize("NFKD", text) if not unicodedata.combining(ch))
    return re.findall(r"[a-z]+(?:'[a-z]+)?", plain.casefold().replace("’", "'"))


def _names_newest(text: str) -> bool:
    words = _folded(text)
    if not words or len(words) > _LONGEST + 3:
        return False
    for start in range(len(words)):
        for end in range(min(len(words), start + _LONGEST), start, -1):
            if " ".join(words[start:end]) in _PHRASES:
                rest = words[:start] + words[end:]
                return all(word in _LISTED_WORDS for word in rest)
    return False


def _same_list(url: str, page_url: str) -> bool:
    """Whether `url` lists what `page_url` lists: the same path, and the same query but for its sort and page."""
    one, other = urlsplit(url), urlsplit(page_url)

    def kept(query: str) -> set[tuple[str, str]]:
        return {(k, v) for k, v in parse_qsl(query, keep_blank_values=True) if not _SORT_KEY.search(k) and k != "page"}

    return one.path.rstrip("/") == other.path.rstrip("/") and kept(one.query) == kept(other.query)


def _sorts_newest(url: str) -> bool:
    for key, value in parse_qsl(urlsplit(url).query, keep_blank_values=True):
        if _SORT_KEY.search(key) and _NEWEST_VALUE.search(value) and not _OLDEST_VALUE.search(value):
            return True
    return False
