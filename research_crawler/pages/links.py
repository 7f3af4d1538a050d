"""Numbering a page's links: each anchor becomes `[n] text`, and n maps to one canonical URL.

An LLM names links by these numbers, so a number must stand for exactly one URL and every "[n]" in a
view must be one of ours: numbers are written as private-use sentinels while the page is converted, and
only turned into brackets after the page's own "[12]"s have been rewritten "(12)".

A link the page shows more than once is named as a careful reader names it: by its most telling anchor (one in
the page's content rather than its menu, a name rather than "Browse", "More" or "PDF"), with the count the page
shows beside that anchor ("Value Theory (12)"), and the words around that anchor as its context.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from dataclasses import dataclass
from typing import Any
from urllib.parse import unquote, urlsplit

from lxml import etree

from research_crawler.context.urls import is_same_site, try_canonicalize_url
from research_crawler.pages.archived_copies import copied_pages
from research_crawler.pages.cleanup import (
    collapse_whitespace,
    neutralise_link_markers,
    remove_invisible,
    shorten,
)
from research_crawler.pages.listing_results import result_titles
from research_crawler.pages.page import Link
from research_crawler.pages.page_frame import in_page_frame

__all__ = ["BLOCK_TAGS", "LinkNumbering", "reveal_markers"]

#: Elements that start a new block of text (for link contexts and the text-only rendering).
BLOCK_TAGS = frozenset(
    {
        "address",
        "article",
        "aside",
        "blockquote",
        "body",
        "br",
        "caption",
        "center",
        "dd",
        "details",
        "div",
        "dl",
        "dt",
        "fieldset",
        "figcaption",
        "figure",
        "footer",
        "form",
        "h1",
        "h2",
        "h3",
        "h4",
        "h5",
        "h6",
        "header",
        "hgroup",
        "hr",
        "html",
        "legend",
        "li",
        "main",
        "menu",
        "nav",
        "ol",
        "p",
        "pre",
        "section",
        "summary",
        "table",
        "tbody",
        "td",
        "tfoot",
        "th",
        "thead",
        "tr",
        "ul",
    }
)
#: Page text never holds private-use characters (they are removed as icon-font glyphs), so these are ours.
_OPEN, _CLOSE = "\ue000", "\ue001"
_SENTINEL = re.compile(f"{_OPEN}(\\d+){_CLOSE}")
_NON_LINK_SCHEMES = ("javascript:", "mailto:", "tel:", "data:", "about:", "blob:", "sms:", "ftp:", "file:")
_CLOSING_PUNCTUATION = frozenset(",.;:!?)]}»”’'\"")
#: Where the label of an anchor without text (its title, aria-label or image alt) is kept meanwhile.
LABEL_ATTRIBUTE = "data-rc-label"
_CONTEXT_WORDS = 12
_MIN_CONTEXT_WORDS = 4
#: A block's text before its links that makes them an entry's ("Novak, S. and Haddad, J. Title. Journal, 2024."
#: then "[Abstract] [PDF]"), and how much of it their context keeps: a citation's authors come before its title.
_ENTRY_TEXT_WORDS = 8
_ENTRY_CONTEXT_WORDS = 40
#: A link's text this long reads as a work's title by itself (as `listing_results` reads one).
_TITLE_WORDS = 4
#: Links this short ("Abstract", "PDF", "BibTeX", "Full text") name what they open, not which work.
_LABEL_WORDS = 2
#: A link's whole text set in brackets, as older sites write their buttons ("[ Next ]", "[PDF]"): in a view where
#: "[n]" numbers links, the brackets are left out.
_BRACKETED_TEXT = re.compile(r"^\[\s*([^\[\]]*\w[^\[\]]*?)\s*\]$")
#: A table row's first cell labels the links of its other cells (a month, a year, a volume) up to this long.
_ROW_LABEL_WORDS = 8
#: A count in brackets right after a link's text: "(12)", "[0]", "(1,204)", "(3 papers)"; how far after it is looked
#: for. A year in brackets after a title ("(2021)") is the work's date, not a count.
_SHOWN_COUNT = re.compile(r"^\s*[(\[]\s*(\d[\d,.]*(?:\s+[^\W\d_]+)?)\s*[)\]]")
_YEAR = re.compile(r"(?:1[5-9]|20)\d\d")
_COUNT_REACH = 40


@dataclass(frozen=True)
class _Anchor:
    """One place a page shows a link: the anchor's text, the count written right after it ("12" of "(12)") and
    that count as written, and where it sits."""

    text: str
    count: str
    written_count: str
    in_frame: bool
    labelled: bool  # no text of its own: named by its title, image alt or address
    card: bool  # wraps blocks (a title, names, an abstract): its text is a whole entry, not a name

    @property
    def words(self) -> int:
        """How many words the view shows for this anchor after its number: its text, then its count."""
        return len(self.text.split()) + len(self.written_count.split())

    def telling(self) -> tuple[bool, bool, bool, bool, bool, int]:
        """How well this anchor names its link, to compare anchors of one link (higher is better): in the content,
        with text of its own, more than a label's few words, not a whole card, with a count, then its length."""
        named = len([word for word in self.text.split() if _has_alnum(word)])
        return (
            not self.in_frame,
            not self.labelled,
            named > _LABEL_WORDS,
            not self.card,
            bool(self.count),
            named,
        )


def reveal_markers(text: str) -> str:
    """`text` with the page's own "[n]" written "(n)" and our link sentinels written "[n]"."""
    return neutralise_link_markers(text).replace(_OPEN, "[").replace(_CLOSE, "]")


class LinkNumbering:
    """Numbers the distinct link URLs of one page in order of first appearance and rewrites the anchors.

    Links to non-web schemes, fragments and the page itself stay plain text, as do distinct URLs beyond
    `max_links` (counted in `truncated`). An anchor's text is its text, else its kept label, else its
    URL's last path segment, shortened to `max_text_chars`.
    """

    def __init__(
        self,
        *,
        base_url: str | None,
        page_url: str | None,
        site_url: str | None,
        max_links: int,
        max_text_chars: int,
    ) -> None:
        self._base_url = base_url
        self._page_url = page_url
        self._site_url = site_url
        self._max_links = max_links
        self._max_text_chars = max_text_chars
        self._ids: dict[str, int] = {}
        self._anchors: list[list[_Anchor]] = []  # by link number - 1, in order of appearance
        self._named: list[int] = []  # by link number - 1: which of its anchors names it
        self._unnumbered: set[str] = set()
        self._copied: dict[str, str] = {}
        self._row_labels: dict[int, str] = {}
        self._result_titles: dict[int, int] = {}

    @property
    def truncated(self) -> int:
        """Distinct link URLs left without a number because of `max_links`."""
        return len(self._unnumbered)

    def rewrite(self, root: Any) -> None:
        """Replace every `<a href>` under `root` by its numbered plain-text form (or its bare text)."""
        anchors = list(root.iter("a"))
        for anchor in anchors:
            if any(ancestor.tag == "a" for ancestor in anchor.iterancestors()):
                anchor.drop_tag()
        resolved = [self._resolved(anchor.get("href")) for anchor in anchors]
        self._copied = copied_pages((url for url in resolved if url), page_url=self._page_url, site_url=self._site_url)
        urls = [self._link_url(href_url) if anchor.getparent() is not None else None
                for anchor, href_url in zip(anchors, resolved, strict=True)]  # fmt: skip
        in_results = result_titles(anchors, urls)  # read before the anchors are rewritten
        numbers: list[int | None] = []
        for anchor, url in zip(anchors, urls, strict=True):
            link_id = self._number(url) if url else None
            numbers.append(link_id)
            if url is None or link_id is None:
                if anchor.getparent() is not None:
                    anchor.drop_tag()
                continue
            shown = self._anchor(anchor, url)
            if link_id > len(self._anchors):
                self._anchors.append([])
            self._anchors[link_id - 1].append(shown)
            _mark(anchor, link_id, shown.text)
        self._named = [_most_telling(anchors) for anchors in self._anchors]
        self._row_labels = _row_labels(root, self._anchors)
        for index, title in in_results.items():
            link_id, title_id = numbers[index], numbers[title]
            if link_id is not None and title_id is not None and link_id != title_id:
                self._result_titles.setdefault(link_id, title_id)

    def links(self, blocks: list[str]) -> list[Link]:
        """The numbered links, each with a few words around its first appearance in `blocks`."""
        site = self._site_url
        entries: set[int] = set()
        spans = [[shown.words for shown in anchors] for anchors in self._anchors]
        contexts = _link_contexts(blocks, spans, self._named, entries)
        named = [anchors[k] for anchors, k in zip(self._anchors, self._named, strict=True)]
        return [
            Link(
                id=index + 1,
                url=url,
                text=named[index].text,
                count=named[index].count,
                same_site=bool(site) and is_same_site(url, str(site)),
                # a row's label says which link of a row of bare links is which; words borrowed from below do not
                context=self._row_labels.get(index + 1) or contexts.get(index + 1, ""),
                names_entry=index + 1 in entries,
                result_title=self._result_titles.get(index + 1),
            )
            for index, url in enumerate(self._ids)
        ]

    def _resolved(self, href: str | None) -> str | None:
        href = remove_invisible(href or "").strip()
        if not href or href.startswith("#") or href.lower().startswith(_NON_LINK_SCHEMES):
            return None
        return try_canonicalize_url(href, self._base_url)

    def _link_url(self, url: str | None) -> str | None:
        """The address a resolved link is numbered under: the page an archive's copy copies, on a page saved from
        the archive (`archived_copies`); None for a link to the page itself."""
        url = self._copied.get(url, url) if url else None
        return None if url is None or url == self._page_url else url

    def _number(self, url: str) -> int | None:
        if url in self._ids:
            return self._ids[url]
        if len(self._ids) >= self._max_links:
            self._unnumbered.add(url)
            return None
        self._ids[url] = len(self._ids) + 1
        return self._ids[url]

    def _anchor(self, anchor: Any, url: str) -> _Anchor:
        own = collapse_whitespace(anchor.text_content())
        text = own or anchor.get(LABEL_ATTRIBUTE) or ""
        text = _BRACKETED_TEXT.sub(r"\1", text)  # "[ Thread ]", "[PDF]": the page's brackets would read as ours
        if not text:
            path = urlsplit(url).path.rstrip("/")
            text = unquote(path.rsplit("/", 1)[-1]) if path else urlsplit(url).hostname or url
            text = collapse_whitespace(neutralise_link_markers(remove_invisible(text)))
        count = _SHOWN_COUNT.match(_text_after(anchor))
        if count is not None and _YEAR.fullmatch(count.group(1)):
            count = None
        return _Anchor(
            text=shorten(text, self._max_text_chars),
            count=collapse_whitespace(count.group(1)) if count else "",
            written_count=count.group(0) if count else "",
            in_frame=in_page_frame(anchor),
            labelled=not own,
            card=_wraps_blocks(anchor),
        )


def _most_telling(anchors: list[_Anchor]) -> int:
    """The place of the anchor that names a link best among its anchors (`_Anchor.telling`); the first of equals."""
    return max(range(len(anchors)), key=lambda place: anchors[place].telling())


def _wraps_blocks(anchor: Any) -> bool:
    return any(isinstance(d.tag, str) and d.tag in BLOCK_TAGS for d in anchor.iterdescendants())


def _text_after(anchor: Any) -> str:
    """The start of the text the page shows right after `anchor` in its block, up to the next link: where a count of
    what it holds is written ("Value Theory</a> (12)", "</a> <span class=count>[0]</span>", "</a></b> (3)")."""
    parts = [anchor.tail or ""]
    node = anchor
    while len("".join(parts)) < _COUNT_REACH:
        following = node.getnext()
        if following is None:
            node = node.getparent()
            if node is None or node.tag in BLOCK_TAGS:
                break
            parts.append(node.tail or "")
            continue
        if not isinstance(following.tag, str) or following.tag in BLOCK_TAGS or following.tag == "a":
            break
        if next(following.iter("a"), None) is not None or _OPEN in following.text_content():
            break
        parts.append(following.text_content())
        parts.append(following.tail or "")
        node = following
    return "".join(parts)


def _mark(anchor: Any, link_id: int, text: str) -> None:
    """An inline anchor becomes `[n] text`; an anchor wrapping blocks (a card) keeps them, `[n]` first."""
    marker = f"{_OPEN}{link_id}{_CLOSE}"
    if not _wraps_blocks(anchor):
        span = etree.Element("span")
        span.text = f"{marker} {text}"
        tail = anchor.tail or ""
        # an icon link followed by a name ("[6] ORCID" + "Jane Doe") would otherwise read as one word
        span.tail = tail if tail[:1].isspace() or tail[:1] in _CLOSING_PUNCTUATION else f" {tail}"
        anchor.getparent().replace(anchor, span)
        return
    for element in anchor.iter():
        if (element.text or "").strip():
            element.text = f"{marker} {element.text.lstrip()}"
            break
    else:
        anchor.text = f"{marker} {text}"
    anchor.tag = "div"
    anchor.attrib.clear()


def _link_contexts(blocks: list[str], spans: list[list[int]], named: list[int], entries: set[int]) -> dict[int, str]:
    """For each link number, a few words around the anchor that names it (`named`: which of its anchors, in order of
    appearance; its first one when that one is not in `blocks`): what the link text alone does not say.

    Context words are the block's words that belong to no anchor (an anchor of link n shows the `spans[n - 1][k]`
    words after its marker, k its place among the link's anchors: its text and the count after it) and hold a letter
    or digit; a link gets up to ~12 words minus its anchor's length (at least 4), about half before it. A one-word
    link ("pdf", "arXiv:2411.14419") whose context reaches the end of its block borrows the start of the next block
    unless that block begins with a link: an arXiv listing's identifier link gets the title that follows it. So does
    a link that is its block's whole text (a heading that is a link, a card's linked name: "Working papers" above
    "Papers of the coastal ecology group, newest first"), whatever its length: the text under it says what it opens,
    as a reader sees it, up to ~12 words whatever the anchor's length. So does the title that ends a line of links
    alone (the second of two, or its one title-long link: a river's heading "[Field Margins] — [Out at last]", the
    blog's name, then the post's title, the teaser under them the post's). Borrowed words follow a "|". The links
    that only name what they open of the entry written before them (`_entry_text`) have that entry as their context,
    and their numbers are added to `entries`.
    """
    found: dict[tuple[int, int], tuple[str, bool]] = {}  # (link number, its anchor's place) -> context, of an entry
    seen = [0] * len(spans)
    for block_index, block in enumerate(blocks):
        if _OPEN not in block:
            continue
        words = block.split(" ")
        in_link = [False] * len(words)
        markers: list[tuple[int, int, int, int]] = []  # position, link number, its anchor's place, the anchor's words
        for index, word in enumerate(words):
            match = _SENTINEL.search(word)
            if match and 1 <= int(match.group(1)) <= len(spans):
                link_id = int(match.group(1))
                shown = spans[link_id - 1]
                place = seen[link_id - 1]
                seen[link_id - 1] += 1
                length = shown[min(place, len(shown) - 1)]
                markers.append((index, link_id, place, length))
                end = min(len(words), index + 1 + length)
                in_link[index:end] = [True] * (end - index)
        usable = [index for index, word in enumerate(words) if not in_link[index] and _has_alnum(word)]
        entry = _entry_text(words, usable, [(position, length) for position, _, _, length in markers])
        titles = [marker for marker in markers if marker[3] >= _TITLE_WORDS]
        # a heading of links alone ("[Field Margins] — [Seed Dormancy in Arable Weeds]": the blog, then the post) ends
        # with its title: the teaser under the heading says what that title opens, as under a lone heading link
        ends_with_title = len(markers) == 2 or (len(titles) == 1 and titles[0] == markers[-1])
        headed = markers[-1] if not usable and ends_with_title else None
        for marker in markers:
            position, link_id, place, length = marker
            if entry:
                found[(link_id, place)] = (neutralise_link_markers(entry), True)
                continue
            alone = (len(markers) == 1 and not usable) or marker == headed  # a heading or a line of its links alone
            # the text under a heading is all its context (no word of the line is taken): a teaser's opening words
            # ("New preprint by Yilmaz et al.:") say what the title opens only with the few words after them
            budget = _CONTEXT_WORDS if alone else max(_MIN_CONTEXT_WORDS, _CONTEXT_WORDS - length)
            cut = bisect_left(usable, position)
            before = [words[i] for i in usable[max(0, cut - budget // 2) : cut]]
            after = [words[i] for i in usable[cut : cut + budget - len(before)]]
            if alone or (length <= 1 and len(before) + len(after) < budget and cut + len(after) == len(usable)):
                after += _borrowed_words(blocks, block_index + 1, budget - len(before) - len(after))
            context = " … ".join(part for part in (" ".join(before), " ".join(after)) if part)
            found[(link_id, place)] = (neutralise_link_markers(context), False)
    contexts: dict[int, str] = {}
    for (link_id, place), (context, of_entry) in sorted(found.items()):
        if link_id in contexts and place != named[link_id - 1]:
            continue
        contexts[link_id] = context
        if of_entry:
            entries.add(link_id)
        else:
            entries.discard(link_id)
    return contexts


def _row_labels(root: Any, anchors: list[list[_Anchor]]) -> dict[int, str]:
    """For the links of a table row's cells that hold nothing but links ("[ Thread ] [ Subject ] [ Date ]" beside
    "March 2024:", "[PDF] [HTML]" beside "Volume 12"), the row's first cell, when it holds no link and a few words:
    a reader tells such links apart by the row they sit in, which their own cell never says. Link numbers (the
    rewritten tree's sentinels) map to that label; a link keeps its first row's."""
    labels: dict[int, str] = {}
    for row in root.iter("tr"):
        cells = [cell for cell in row if isinstance(cell.tag, str) and cell.tag in ("td", "th")]
        if len(cells) < 2:
            continue
        label = collapse_whitespace(cells[0].text_content())
        if _OPEN in label or not _has_alnum(label) or len(label.split()) > _ROW_LABEL_WORDS:
            continue
        for cell in cells[1:]:
            text = cell.text_content()
            numbers = [int(found) for found in _SENTINEL.findall(text) if 1 <= int(found) <= len(anchors)]
            rest = _SENTINEL.sub(" ", text)
            for number in numbers:
                for shown in anchors[number - 1]:
                    rest = rest.replace(shown.text, " ", 1)
                    rest = rest.replace(shown.written_count, " ", 1) if shown.written_count else rest
            if not numbers or _has_alnum(rest):
                continue  # no link, or words of its own that say which link is which
            for number in numbers:
                labels.setdefault(number, neutralise_link_markers(label))
    return labels


def _entry_text(words: list[str], usable: list[int], markers: list[tuple[int, int]]) -> str:
    """The text of an entry whose links all follow it and only name what they open (a citation, then "[Abstract]
    [PDF] [BibTeX]"): each of those links is the entry's, so its context is the entry's text (its start, up to
    `_ENTRY_CONTEXT_WORDS` words), not the few words nearest it (the end of the citation, or the next one's
    start). `markers` are the block's anchors, as (position, words shown). "" for any other block."""
    if not markers or any(length > _LABEL_WORDS for _, length in markers):
        return ""
    first = markers[0][0]
    before = [words[index] for index in usable if index < first]
    if len(before) < _ENTRY_TEXT_WORDS or any(index > first for index in usable):
        return ""
    return " ".join(before[:_ENTRY_CONTEXT_WORDS]) + (" …" if len(before) > _ENTRY_CONTEXT_WORDS else "")


def _has_alnum(word: str) -> bool:
    return any(character.isalnum() for character in word)


def _borrowed_words(blocks: list[str], index: int, count: int) -> list[str]:
    if index >= len(blocks) or count <= 0 or blocks[index].startswith(_OPEN):
        return []
    words = [word for word in blocks[index].split(" ") if _has_alnum(word) and _OPEN not in word]
    return ["|", *words[:count]] if words else []
