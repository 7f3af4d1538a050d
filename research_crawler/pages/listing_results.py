"""The results of a listing, as a reader sees them: a search's results, a journal issue's contents, a database's
rows — several elements alike, one under the other, each one work with its title link and, beside it, links that
open only a part of it (its PDF, its abstract, its export, its e-print) or name its people. A link inside one result
belongs to that result: the work it leads to is the one the result's title names, whatever text stands around it
(the abstract the result shows, its citation line).

A result is read from the page's structure, never from its words: it is the nearest element around a link that is
one of several siblings alike (the same tag and class) holding a title link of its own, while its alike siblings
hold title links too — a list of works, not a row of one record's fields ("Collaboration: …", "DOI: …", "pdf"), whose
siblings hold no title. Its title link is the one set in a heading or marked as the title (a class naming
"title"; two words at least), else its first link whose text is long enough to be a title (four words or more). A
link that is its result's title, or that sits in no result (a record's own PDF, under the record's heading), belongs
to no result. A link the page shows outside a result too (a blog's name in a river's headings "Field Margins — Seed
Dormancy in Arable Weeds" and in its list of members) is no result's title, even set in its heading, and a link that
sits in several results belongs to none of them.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

__all__ = ["result_titles"]

#: A link's text this long reads as a work's title by itself ("Deep Learning" could be a section's).
_TITLE_WORDS = 4
#: A link set in a heading or marked as the title is one this long at least ("Abstract" alone is a section's name).
_MARKED_TITLE_WORDS = 2
_HEADINGS = frozenset({"h1", "h2", "h3", "h4", "h5", "h6"})
#: Where climbing from a link stops looking for its result: the page as a whole is no result.
_PAGE_TAGS = frozenset({"body", "html", "main"})


def result_titles(anchors: Sequence[Any], urls: Sequence[str | None]) -> dict[int, int]:
    """For each anchor (by its index in `anchors`, `urls[i]` its canonical address or None when it is no link) that
    sits in one result of a listing and is not that result's title, the index of the result's title anchor."""
    reader = _Results(anchors, urls)
    titles: dict[int, int] = {}
    for index, anchor in enumerate(anchors):
        if not urls[index] or anchor.getparent() is None:
            continue
        title = reader.result_title(anchor)
        if title is not None and urls[title] != urls[index]:
            titles[index] = title
    # a link that sits in several results (a blog's name over each of its posts) belongs to none of them
    works: dict[str | None, set[str | None]] = {}
    for index, title in titles.items():
        works.setdefault(urls[index], set()).add(urls[title])
    return {index: title for index, title in titles.items() if len(works[urls[index]]) == 1}


class _Results:
    """One page's anchors, read for the results they sit in; each element's title and each group of alike siblings
    read once (a long page has thousands of links)."""

    def __init__(self, anchors: Sequence[Any], urls: Sequence[str | None]) -> None:
        self._position = {id(anchor): index for index, anchor in enumerate(anchors) if urls[index]}
        self._urls = urls
        self._shown: Counter[str | None] = Counter(url for url in urls if url)
        self._words = {
            id(anchor): len(anchor.text_content().split()) for anchor in anchors if id(anchor) in self._position
        }
        self._titles: dict[int, int | None] = {}
        self._titled_alike: dict[tuple[int, str, str], int] = {}
        #: The elements read so far, kept alive: lxml gives an element the same Python object (and id) only while
        #: one is held, so the caches above stay keyed by the elements they were read from.
        self._held: list[Any] = []

    def result_title(self, anchor: Any) -> int | None:
        """The index of the title anchor of the result `anchor` sits in, or None when it sits in none."""
        for element in anchor.iterancestors():
            if not isinstance(element.tag, str) or element.tag.lower() in _PAGE_TAGS:
                return None
            parent = element.getparent()
            if parent is None:
                return None
            own = self.title_of(element)
            if self._titled_among(parent, element) - (own is not None) < 1:
                continue  # a row of one record's fields, or no list at all: the result, if any, is further up
            return own  # one of a list of works: its title, or none (a result with no title)
        return None

    def _titled_among(self, parent: Any, element: Any) -> int:
        """How many of `parent`'s children alike `element` (the same tag and class) hold a title link."""
        key = (id(parent), element.tag, element.get("class") or "")
        if key not in self._titled_alike:
            self._held.append(parent)
            self._titled_alike[key] = sum(
                1 for child in parent if _alike(child, element) and self.title_of(child) is not None
            )
        return self._titled_alike[key]

    def title_of(self, element: Any) -> int | None:
        """The index of `element`'s title anchor: set in a heading or marked as the title, else its first link whose
        text reads as a title; None when it holds none."""
        key = id(element)
        if key not in self._titles:
            self._held.append(element)
            self._titles[key] = self._read_title(element)
        return self._titles[key]

    def _read_title(self, element: Any) -> int | None:
        anchors = [a for a in element.iter("a") if id(a) in self._position]
        inside = Counter(self._url(a) for a in anchors)
        # a link the page shows outside this element too names what several results share (a river's heading "Field
        # Margins — Seed Dormancy in Arable Weeds": the blog, then the post), never this result's own work
        own = [a for a in anchors if inside[self._url(a)] == self._shown[self._url(a)]]
        for anchor in own + [a for a in anchors if a not in own]:
            if self._words[id(anchor)] >= _MARKED_TITLE_WORDS and _marked_within(anchor, element):
                return self._position[id(anchor)]
        return next((self._position[id(a)] for a in anchors if self._words[id(a)] >= _TITLE_WORDS), None)

    def _url(self, anchor: Any) -> str | None:
        return self._urls[self._position[id(anchor)]]


def _alike(one: Any, other: Any) -> bool:
    return isinstance(one.tag, str) and one.tag == other.tag and (one.get("class") or "") == (other.get("class") or "")


def _marked_within(anchor: Any, element: Any) -> bool:
    """Whether `anchor`, or an element around it inside `element`, is a heading or says it is a title by its class
    ("result-item-title", "title")."""
    node = anchor
    while node is not None:
        tag = node.tag.lower() if isinstance(node.tag, str) else ""
        if tag in _HEADINGS or any("title" in name for name in (node.get("class") or "").lower().split()):
            return True
        if node is element:
            return False
        node = node.getparent()
    return False
