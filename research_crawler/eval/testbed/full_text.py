"""The testbed sites' own search engine: all query words must match, title matches rank first.

It is deliberately a plain keyword engine, like many real site searches: it finds items that use the
words, which is not the same thing as the items a query is about (the ground truth).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import lru_cache
from typing import Literal

from research_crawler.eval.testbed.models import Item

__all__ = ["SearchField", "search_items", "search_terms"]

SearchField = Literal["all", "title", "author", "abstract"]

_WORD = re.compile(r"\w+", re.UNICODE)
_STOPWORDS = frozenset(
    (
        "a",
        "about",
        "an",
        "and",
        "are",
        "as",
        "at",
        "be",
        "by",
        "for",
        "from",
        "in",
        "into",
        "is",
        "it",
        "of",
        "on",
        "or",
        "that",
        "the",
        "their",
        "this",
        "to",
        "with",
    )
)


def search_terms(text: str) -> list[str]:
    """The words a query must match: lower-cased, stop words dropped, plural 's' dropped from long words."""
    terms: list[str] = []
    for word in _WORD.findall(text.casefold()):
        if word in _STOPWORDS:
            continue
        if len(word) > 3 and word.endswith("s") and not word.endswith("ss"):
            word = word[:-1]
        if word not in terms:
            terms.append(word)
    return terms


def search_items(items: Iterable[Item], text: str, *, field: SearchField = "all") -> list[Item]:
    """Items whose words start with every query term; best first (title hits, then newest)."""
    terms = search_terms(text)
    if not terms:
        return []
    scored: list[tuple[int, str, str, Item]] = []
    for item in items:
        words = _words(item)
        if not all(_matches(term, words[field]) for term in terms):
            continue
        score = sum(3 if _matches(term, words["title"]) else 1 for term in terms)
        scored.append((score, item.date, item.id, item))
    # Stable sorts, least significant key first: score, then newest, then id.
    scored.sort(key=lambda entry: entry[2])
    scored.sort(key=lambda entry: entry[1], reverse=True)
    scored.sort(key=lambda entry: entry[0], reverse=True)
    return [entry[3] for entry in scored]


@lru_cache(maxsize=4096)
def _words(item: Item) -> dict[str, tuple[str, ...]]:
    """The searchable words of an item per field (items are immutable, so this is cached)."""
    fields = {
        "title": tuple(_WORD.findall(item.title.casefold())),
        "author": tuple(_WORD.findall(" ".join(item.authors).casefold())),
        "abstract": tuple(_WORD.findall(item.abstract.casefold())),
    }
    keywords = tuple(_WORD.findall(" ".join(item.keywords).casefold()))
    fields["all"] = fields["title"] + fields["author"] + fields["abstract"] + keywords
    return fields


def _matches(term: str, words: tuple[str, ...]) -> bool:
    return any(word.startswith(term) for word in words)
