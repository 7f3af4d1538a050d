"""What a page shows its reader, read for an item's title, authors and date: the visible text block by block,
its headings, the values of its labelled fields ("Title:", "Author(s)", "Jahr", a DSpace ``dc.title`` row),
the byline under a title, and the dates written beside labels that say publication.

Only what a browser shows counts (scripts, hidden elements and ``<head>`` are left out), plus the HTML a page's
inline scripts write with ``document.write`` (a browser shows that too): the evidence `metadata.py` weighs tags
against."""

from __future__ import annotations

import copy
import html as html_entities
import re
import unicodedata
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from lxml import etree

from research_crawler.pages.bylines import (
    MAX_SKIPPED,
    between_names,
    linked_names,
    marked_authors,
    people_in,
    unmistakable,
    without_furniture,
)
from research_crawler.pages.cleanup import clean_text, collapse_whitespace
from research_crawler.pages.field_labels import FieldKind, label_kind
from research_crawler.pages.html_tree import (
    home_heading,
    put_shown_parts_in_place,
    values_side_by_side,
)
from research_crawler.pages.item_dates import date_label_in_line, dates_in_text
from research_crawler.pages.links import BLOCK_TAGS
from research_crawler.pages.listed_names import among_other_entries
from research_crawler.pages.person_names import split_people

__all__ = ["Block", "VisiblePage", "hidden_from_readers", "read_visible_page", "words_of"]

_UNSEEN = frozenset(
    {
        "script",
        "style",
        "noscript",
        "template",
        "head",
        "title",
        "meta",
        "link",
        "select",
        "option",
        "svg",
        "iframe",
        "object",
        "embed",
        "textarea",
        "rt",  # a ruby annotation (furigana) is a reading aid shown over its characters, not part of the text
        "rp",
    }
)
_HIDING = re.compile(r"display\s*:\s*none|visibility\s*:\s*hidden", re.I)
_BYLINE_RUN = 80  # blocks a byline may run on once it has started (names with their affiliations)
# Class names that hide an element by convention (Bootstrap, WordPress, screen-reader-only text).
_HIDING_CLASSES = re.compile(
    r"(?:^|\s)(?:sr-only|visually-?hidden|[\w-]*screen[-_]?reader[\w-]*|offscreen|d-none|hidden|hide)(?:$|\s)",
    re.I,
)
# Bootstrap's class that shows an element again from a screen width on ("d-none d-sm-block": hidden only on a
# phone's narrow screen, shown on any wider one): what a reader on a computer sees.
_SHOWN_FROM_A_WIDTH = re.compile(
    r"(?:^|\s)d-(?:sm|md|lg)-(?:block|inline|inline-block|flex|inline-flex|table|grid)(?:$|\s)"
)
_CHROME_TAGS = frozenset({"nav", "footer", "aside"})
_HEADINGS = frozenset({"h1", "h2", "h3", "h4", "h5", "h6"})
# A class or id names chrome when it begins or ends with one of these words ("site-footer", "nav-primary"); a
# layout wrapper that only mentions one ("content-sidebar-wrap", a theme's "mega-menu-1" on <body>) holds content.
# (readers' comments under a post are no part of the item: their writers and dates are the commenters')
_CHROME_WORDS = frozenset({"nav", "navbar", "menu", "footer", "breadcrumb", "breadcrumbs", "sidebar", "masthead",
                           "cookie", "comment", "comments"})  # fmt: skip
_CONTENT_WORDS = frozenset({"content", "article", "entry"})
# HTML's link types for another page of a sequence or a taxonomy (WordPress writes rel="category tag" on every
# category link, rel="prev"/"next" on the links to the neighbouring posts)
_NAVIGATION_RELATIONS = frozenset({"next", "prev", "previous", "tag", "category"})

_AUTHOR_ROLE = re.compile(
    r"(?P<name>[^\s,;()\[\]][^;()\[\]]{1,80}?)\s*¬?\s*[\[(](?:creator|author|autor(?:in)?|verfasser(?:in)?|"
    r"auteur|autore)[\])]",
    re.I,
)


@dataclass(frozen=True)
class Block:
    """One run of visible text: what it says, the heading level it sits in (0: none), its place on the page,
    and whether it is in the page's chrome (navigation, footer, forms)."""

    text: str
    heading: int
    index: int
    chrome: bool
    header_cell: bool = False
    words: str = ""
    links: tuple[str, ...] = ()  # the texts of the links it holds, in order
    list_item: tuple[int, int] | None = None  # (its list, its item) where it sits in a <ul>/<ol>'s item
    home: bool = False  # a heading that is only a link to the site's home page: the site's name, no title


@dataclass
class VisiblePage:
    """The page as its reader sees it, and the labelled values found in it."""

    blocks: list[Block]
    title_element: str
    fields: dict[FieldKind, list[tuple[int, str]]] = field(default_factory=dict)
    author_labels: list[int] = field(default_factory=list)
    chrome_fields: set[tuple[int, str]] = field(default_factory=set)  # the (index, value) of fields in the chrome
    marked: list[str] = field(default_factory=list)
    navigation: frozenset[str] = frozenset()  # the words of links to other pages of the site's sequence or taxonomy
    _words: str = ""
    _compact: str = ""

    def shows(self, text: str | None) -> bool:
        """Whether `text`'s words are written on the page, in that order (case, accents and punctuation aside)."""
        words = words_of(text or "")
        if not words:
            return False
        if f" {words} " in self._words:
            return True
        compact = words.replace(" ", "")  # "K<sub>2</sub>LaCl<sub>5</sub>" shows "K2LaCl5"
        return len(compact) >= 6 and compact in self._compact

    def writers(self, names: list[str]) -> list[str]:
        """`names` without those that are the page's navigation (`navigation_links`): "Next Post", a category's
        name ("Kit Reviews") or a tag's is a link to other pages, never a writer."""
        return [name for name in names if words_of(name) not in self.navigation]

    def field_values(self, kind: FieldKind) -> list[str]:
        return [value for _, value in self.fields.get(kind, [])]

    def byline_after(self, index: int, *, reach: int = 8, strict: bool = False) -> list[str]:
        """The names written just below block `index` (a title): the first run of blocks that read as names,
        starting within `reach` blocks; affiliation, address, e-mail and "More by" lines between names do not end
        the run. With `strict`, a run counts only if it reads unmistakably as a byline (two names or more, "by …",
        initials or affiliation marks), not one capitalised pair of words that could be anything."""
        names: list[str] = []
        skipped = 0
        for offset, block in enumerate(self.blocks[index + 1 : index + 1 + reach + _BYLINE_RUN]):
            if offset >= reach and not names:
                break  # the byline starts within `reach`; once started, it runs as long as its names go on
            if not names and block.words == self.blocks[index].words:
                continue  # the title shown twice (a heading, then its text)
            if not names and block.heading and block.words and f" {block.words} " in f" {self.blocks[index].words} ":
                continue  # the title shown again in parts, a heading each: "Jane Doe" over "Wins the Cup" is no byline
            if (block.text.rstrip().endswith(":") and label_kind(block.text) != "authors") or (
                block.chrome and not self.blocks[index].chrome
            ):
                break  # a labelled field starts: "Medientyp:" is no byline; chrome, unless the title is in it too
            # a byline ends at a heading, at a date line ("Oct 5, 2025 · Marine Geology Reports" names a venue) and
            # after the line that gave its date ("Posted by Jane Doe on May 4, 2021" / "Getty Images": a photo's credit)
            if names and (block.heading or any(dates_in_text(b.text) for b in (block, self.blocks[index + offset]))):
                break
            # (a run of linked names first: its links set the names apart from the marks glued on, "Verdea, b")
            text, links = without_furniture(block.text, block.links)  # "Alice Smith ORCID": the name and its link
            people = linked_names(text, links) or people_in(text, continuing=bool(names)) if text else []
            if people and among_other_entries(self.blocks, block.index, _names_someone, between_names):
                people = []  # one more entry of a list of titles or buttons ("Related Recipes", a recipe card)
            if people:
                if not names and strict and not unmistakable(block.text, people):
                    return []
                names += [name for name in people if name not in names]
                skipped = 0
            elif names and not block.heading and between_names(block.text) and skipped < MAX_SKIPPED:
                skipped += 1
            elif names or block.heading or len(block.text.split()) > (24 if dates_in_text(block.text) else 12):
                break  # (a line of dates over the byline, "Published … Updated …", may run longer)
        return names

    def lists_items(self) -> bool:
        """Whether the page labels several titles ("Title: …" per entry): a listing, not one item's page."""
        return len({words_of(value) for value in self.field_values("title")}) > 1

    def role_marked_authors(self) -> list[str]:
        """Names the page marks with an author's role — "Jiang, Zhijun (creator)", "Glattauer, Robin [VerfasserIn]"
        — in the order shown; a contributor with another role (director, reader, referee) is no author."""
        names: list[str] = []
        for block in self.blocks:
            for match in _AUTHOR_ROLE.finditer(block.text):
                people = split_people(match.group("name"))
                names += [name for name in people if name not in names]
        return names

    def marked_authors(self) -> list[str]:
        """Names the page's markup calls its authors (rel=author, class "author"/"byline"/"fn", itemprop)."""
        return list(self.marked)

    def labelled_dates(self) -> list[tuple[int, str]]:
        """(block index, date) for each publication date written beside a label that says so."""
        found = []
        for index, value in self.fields.get("date", []):
            dates = dates_in_text(value, bare_years=True)
            if dates:
                found.append((index, dates[0]))
        # a later label giving the first one's date more precisely ("Publication: … 2020", "Published: 7 Feb 2020")
        finer = [
            pair for pair in found[1:] if found and len(pair[1]) > len(found[0][1]) and pair[1].startswith(found[0][1])
        ]
        return [max(finer, key=lambda pair: len(pair[1])), *found] if finer else found


def read_visible_page(tree: Any) -> VisiblePage:
    """The visible page of a parsed document (the tree is not changed)."""
    root = copy.deepcopy(tree)
    title_element = collapse_whitespace(clean_text(root.findtext(".//title") or ""))
    put_shown_parts_in_place(root)
    for element in list(root.iter()):
        if element.getparent() is None:
            continue
        if not isinstance(element.tag, str) or element.tag in _UNSEEN or hidden_from_readers(element):
            element.drop_tree()
    blocks = list(_blocks(root))
    page = VisiblePage(
        blocks=blocks,
        title_element=title_element,
        marked=marked_authors(root, skip=lambda e: e.tag in _UNSEEN or _in_chrome(e)),
        navigation=navigation_links(root),
    )
    page._words = " " + " ".join(block.words for block in blocks) + " "
    page._compact = page._words.replace(" ", "")
    page.fields, page.author_labels, page.chrome_fields = _fields(root, blocks)
    return page


def navigation_links(root: Any) -> frozenset[str]:
    """The words of the links whose relation (HTML's ``rel``) says they lead to another page of the site's sequence
    or taxonomy — the next or previous post, a tag, a category — and so name no person."""
    found = set()
    for link in root.iter("a", "link"):
        if _NAVIGATION_RELATIONS.intersection((link.get("rel") or "").lower().split()):
            words = words_of(collapse_whitespace(clean_text(link.text_content())))
            found.update([words] if words else [])
    return frozenset(found)


@lru_cache(maxsize=8192)
def _names_someone(block: Block) -> bool:
    """Whether a block reads as names, as a byline's run reads it (its links, without a name's furniture)."""
    text, links = without_furniture(block.text, block.links)
    return bool(text and (linked_names(text, links) or people_in(text)))


def words_of(text: str) -> str:
    """`text` reduced to its words: accents dropped, case folded, punctuation and spacing removed ("&" is "and")."""
    decomposed = unicodedata.normalize("NFKD", html_entities.unescape(text).replace("&", " and "))
    plain = "".join(ch for ch in decomposed if not unicodedata.combining(ch)).casefold()
    return " ".join(re.findall(r"[^\W_]+", plain))


# --- building ---------------------------------------------------------------------------------------------


def hidden_from_readers(element: Any) -> bool:
    """Whether an element is hidden from the page's reader view (a hidden attribute, aria-hidden, a hiding class
    or style)."""
    if element.get("hidden") is not None or (element.get("aria-hidden") or "").lower() == "true":
        return True
    style = element.get("style")
    if style and _HIDING.search(style):
        return True
    classes = element.get("class") or ""
    return bool(_HIDING_CLASSES.search(classes)) and not _SHOWN_FROM_A_WIDTH.search(classes)


def _in_chrome(element: Any) -> bool:
    for node in (element, *element.iterancestors()):
        if not isinstance(node.tag, str):
            continue
        if node.tag == "footer" and _articles_own(node):
            continue  # an article's own footer ("This entry was posted on May 3, 2019 by …"), not the site's
        if node.tag in _CHROME_TAGS or (node.get("role") or "").lower() in ("navigation", "banner", "contentinfo"):
            return True
        names = f"{node.get('id') or ''} {node.get('class') or ''}"
        if node.tag not in ("body", "html") and (_names_chrome(names) or _photo_caption(node, names)):
            return True
    return False


def _photo_caption(node: Any, names: str) -> bool:
    """Whether an element named a caption is a photo's: it names what the photo shows and who took it, never the
    item's writer or day. A caption set right over a heading is the heading's label (a record's kind, "Guidance")."""
    if not any(part.lower() == "caption" for name in names.split() for part in re.split(r"[-_]+", name)):
        return False
    after = node.getnext()
    return not (after is not None and isinstance(after.tag, str) and after.tag in _HEADINGS)


def _articles_own(footer: Any) -> bool:
    """Whether a <footer> is its article's own (HTML's footer belongs to its nearest article): inside an <article>,
    and holding no headings (a theme's "Related posts" set in the article's footer are other works)."""
    inside = any(above.tag == "article" for above in footer.iterancestors())
    return inside and not any(node.tag in _HEADINGS for node in footer.iterdescendants())


def _names_chrome(names: str) -> bool:
    """Whether an element's id and classes name chrome: one begins or ends with a chrome word, and none names the
    article's content ("c--article-sidebar", a theme's id="sidebar" with class "site-content" hold the article)."""
    # words joined by dashes, underscores or camel case: "site-footer", "nav_primary", "rootlineNav"
    split = [[part.lower() for part in re.split(r"[-_]+|(?<=[a-z])(?=[A-Z])", name) if part] for name in names.split()]
    if any(_CONTENT_WORDS.intersection(parts) for parts in split):
        return False
    return any(parts and (parts[0] in _CHROME_WORDS or parts[-1] in _CHROME_WORDS) for parts in split)


def _heading_level(element: Any) -> int:
    for node in (element, *element.iterancestors()):
        if isinstance(node.tag, str) and len(node.tag) == 2 and node.tag[0] == "h" and node.tag[1] in "123456":
            return int(node.tag[1])
    return 0


def _blocks(root: Any) -> list[Block]:
    """Visible text block by block, in document order (like the page view's blocks)."""
    blocks: list[Block] = []
    parts: list[str] = []
    links: list[str] = []
    owner: list[Any] = [root]
    keys: dict[Any, int] = {}

    def flush() -> None:
        text = collapse_whitespace(clean_text("".join(parts)))
        parts.clear()
        if text:
            element = owner[0]
            header = element.tag == "th" or any(a.tag == "thead" for a in element.iterancestors())
            shown = tuple(link for link in links if link)
            level, chrome = _heading_level(element), _in_chrome(element)
            item = _list_item(element, keys)
            home = bool(level) and home_heading(element)
            blocks.append(Block(text, level, len(blocks), chrome, header, words_of(text), shown, item, home))
        links.clear()

    for event, element in etree.iterwalk(root, events=("start", "end")):
        is_block = element.tag in BLOCK_TAGS or element.tag in ("td", "th", "dt", "dd")
        if event == "start":
            if is_block and parts:
                flush()
            if is_block or not parts:
                owner[0] = element
            if element.tag == "a":
                links.append(collapse_whitespace(clean_text(element.text_content())))
            if parts and values_side_by_side(element, parts[-1]):
                parts.append(" ")  # "<span>Mar 4, 2026</span><span>4 mins</span>": two values, not "20264"
            if element.text:
                parts.append(element.text)
        else:
            if is_block and parts:
                flush()
            if element.tail:
                if not parts:
                    owner[0] = element.getparent() if element.getparent() is not None else element
                parts.append(element.tail)
    flush()
    return blocks


def _list_item(element: Any, keys: dict[Any, int]) -> tuple[int, int] | None:
    """(its list, its item) for the nearest list item that holds `element`, numbered in `keys`; None outside lists."""
    for node in (element, *element.iterancestors()):
        if node.tag == "li":
            parent = node.getparent()
            if parent is None or parent.tag not in ("ul", "ol", "menu"):
                return None
            return keys.setdefault(parent, len(keys)), keys.setdefault(node, len(keys))
    return None


def _tab_or_section(label: Block, value: Block) -> bool:
    """Whether a label-like block and the block after it are a page's tabs, menu entries or section headings, not a
    label and its value: the label is a link ("Authors" leading to the authors' section), the two are items of one
    list ("Abstract | Authors | Cited By" tabs), or the value is a heading at the label's level or above."""
    if label.text.rstrip().endswith(":"):
        return False  # a tab or a section's name never ends with a colon; a label does
    if label.text.strip() in label.links:
        return True
    if label.list_item and value.list_item and label.list_item[0] == value.list_item[0]:
        return label.list_item[1] != value.list_item[1]
    return bool(label.heading and value.heading and value.heading <= label.heading)


#: Inline elements that set a label apart from its value in the same line ("<b>Title</b> …").
_SET_APART = ("em", "strong", "b", "i", "label", "span")
# "…, Issue Date: April 2003, Written by: …": a known label after a comma starts a field of its own.
_LABEL_AFTER_COMMA = re.compile(r"(?:^|,\s+)(?P<label>[^,:;|]{1,60}?)\s*:(?=\s)")


def _role_under_name(blocks: list[Block], index: int) -> bool:
    """Whether a label's block is a person's role set under their name, as a list of staff shows them ("Jane Doe"
    / "Editor" / "@janedoe"): the block before it is that one name and nothing else, so it labels no names below."""
    previous = blocks[index - 1].text.strip() if index > 0 else ""
    return split_people(previous) == [previous] and not blocks[index].text.rstrip().endswith(":")


def _labelled_parts(text: str) -> list[tuple[str, str]]:
    """(label, value) for each known label in a line of labelled parts ("Received: …; Published: …", "This paper
    appears in: X, Issue Date: April 2003, Written by: A, H.; B, T."): parts are split at ";" and "|", and at a
    comma before a known label; an author list's parts without a label ("B, T.") run on from the label before them."""
    found: list[tuple[str, str]] = []
    for segment in re.split(r"\s*[;|]\s*", text):
        starts = [m for m in _LABEL_AFTER_COMMA.finditer(segment) if label_kind(m["label"])]
        head = segment[: starts[0].start()] if starts else segment
        if not starts or starts[0].start() > 0:
            label, colon, value = head.partition(":")
            if colon and label_kind(label):
                found.append((label, value))
            elif not colon and found and label_kind(found[-1][0]) == "authors" and split_people(head):
                found[-1] = (found[-1][0], f"{found[-1][1]}; {head}")
            elif colon or found:
                found.append(("", ""))  # another field: the author list before it has ended
        for start, end in zip(starts, [*starts[1:], None], strict=False):
            value = segment[start.end() : end.start() if end else len(segment)]
            found.append((start["label"], value))
    return [(label, value) for label, value in found if label and value.strip()]


def _value_text(element: Any) -> str:
    """A field's value as the page shows it: a list's items one after another, each apart ("Karimi, Ibrahim;
    Moreno, Marta"), where their text alone would run together."""
    items = [collapse_whitespace(item.text_content()) for item in element.iter("li")]
    items = [item for item in items if item]
    return "; ".join(items) if items else element.text_content()


def _fields(
    root: Any, blocks: list[Block]
) -> tuple[dict[FieldKind, list[tuple[int, str]]], list[int], set[tuple[int, str]]]:
    """Labelled values: `<dt>`/`<dd>` pairs, two-cell table rows, "Label: value" segments of a block ("Received:
    …; Published: …") and a label block followed by its value's block; and the blocks of author labels that stand
    alone (their names follow, one block each), and which fields sit in the page's chrome. The index is the value's
    block (for rows and pairs, the label's)."""
    found: dict[FieldKind, list[tuple[int, str]]] = {}
    author_labels: list[int] = []
    in_chrome: set[tuple[int, str]] = set()
    positions = {block.text: block.index for block in blocks}

    def add(label: str, value: str, index: int, chrome: bool) -> None:
        kind = label_kind(label)
        value = collapse_whitespace(clean_text(value))
        if kind and value and len(value) < 2000:
            found.setdefault(kind, []).append((index, value))
            if chrome:
                in_chrome.add((index, value))

    for term in root.iter("dt"):
        definition = term.getnext()
        if definition is not None and definition.tag == "dd":
            label = collapse_whitespace(term.text_content())
            add(label, _value_text(definition), positions.get(label, 0), _in_chrome(term))
    for row in root.iter("tr"):
        cells = [cell for cell in row if isinstance(cell.tag, str) and cell.tag in ("td", "th")]
        if len(cells) >= 2:
            label = collapse_whitespace(cells[0].text_content())
            add(label, _value_text(cells[1]), positions.get(label, 0), _in_chrome(row))
    for label_element in root.iter(*_SET_APART):
        # "<div><em>Title</em> <strong>Heavy Flavour Physics Review</strong></div>": a line of two elements, a label
        # with no colon and its value (as <dt> and <dd> are; "<em>Title</em> pages are …" is a sentence)
        line, value = label_element.getparent(), label_element.getnext()
        if line is None or value is None or len(line) != 2 or label_element.getprevious() is not None:
            continue
        if any((text or "").strip() for text in (line.text, label_element.tail, value.tail)):
            continue
        label = collapse_whitespace(label_element.text_content())
        whole = collapse_whitespace(line.text_content())
        if label and whole in positions and whole.startswith(label) and not label.endswith(":") and label_kind(label):
            add(label, whole[len(label) :], positions[whole], _in_chrome(line))  # (label and value one block)
    for index, block in enumerate(blocks):
        labelled = _labelled_parts(block.text)
        for label, value in labelled:
            add(label, value, index, block.chrome)
        # a date label and its date in a line with no colon between ("First published on the web 26th September
        # 2016", "…, Available online 26 November 2014"), unless the line is a link: it dates the work it leads to
        written = None if labelled or block.text.strip() in block.links else date_label_in_line(block.text, label_kind)
        if written:
            labelled = [written]
            add(*written, index, block.chrome)
        # (a menu's section heading, "Auteurs" over the site's writers, labels no value of the item)
        if labelled or block.header_cell or not label_kind(block.text) or (block.chrome and block.heading):
            continue
        following = [b for b in blocks[index + 1 : index + 3] if b.text.strip(" :")]
        if (following and _tab_or_section(block, following[0])) or _role_under_name(blocks, index):
            continue
        if following and not label_kind(following[0].text) and not following[0].header_cell:
            add(block.text, following[0].text, following[0].index, block.chrome or following[0].chrome)
            # an author label stands over its names, one block each: "Authors:", or "Authors" as a heading or a
            # field's label of its own (never a tab or a link: those were passed over above)
            if label_kind(block.text) == "authors" and not block.chrome:
                author_labels.append(index)
    return found, author_labels, in_chrome
