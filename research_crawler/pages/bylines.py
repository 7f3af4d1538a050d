"""Who a page says wrote its item, as a reader sees it: the names of a byline block (a list, or one name and its
affiliation), the lines a byline runs across (affiliations, e-mails, "View Profile"), and the names its markup
calls authors (rel=author, hCard's ``fn``, publishers' ``author``/``byline`` classes)."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from research_crawler.pages.cleanup import clean_text, collapse_whitespace
from research_crawler.pages.item_dates import dates_in_text
from research_crawler.pages.person_names import split_people

__all__ = [
    "MAX_SKIPPED",
    "between_names",
    "byline_above",
    "linked_names",
    "marked_authors",
    "people_in",
    "shortened",
    "unmistakable",
]

#: Affiliation, e-mail, ORCID and "View Profile" lines between two names of one byline.
MAX_SKIPPED = 5

# Markup that names an element as the item's author (rel=author, hCard/hAtom and publishers' class names).
_AUTHOR_CLASSES = re.compile(r"(?:^|[\s_-])(?:author|authors|byline|creator|fn)(?:$|[\s_-])", re.I)
_FURNITURE = re.compile(r"@|\[at\]|orcid|^more by\b|^view\b|^show\b|^search for|^contact\b|^e-?mail\b|^\W*$", re.I)
_INSTITUTION = re.compile(
    r"\b(?:universit\w*|institut\w*|department|dept\.|school|college|laborator\w*|centre|center|hospital|faculty|"
    r"research|group|division|academy|observatory|inc\.|ltd|gmbh)\b",
    re.I,
)

# Containers of other works' entries, by their id or class: reference lists, "Cited by", recommendations.
_OTHER_WORKS = re.compile(r"reference|bibliograph|cited-?by|citing|recommend|related-?(?:articles|content)", re.I)

# What may sit between the links of a linked byline: spacing, commas, semicolons, "&", "and", bars and dots.
_LINK_SEPARATORS = re.compile(r"[\s,;&|·•]+|\band\b", re.I)

# A postal address under a name: "…, Notkestrasse 85, 22603 Hamburg, Germany" (a postcode before a place, in a
# line of comma-separated parts).
_ADDRESS = re.compile(r",\s*(?:[A-Z]{1,2}-)?\d{4,6}\s+[^\W\d_]{2,}.*,\s*[^\W\d_]{2,}")


def people_in(text: str, *, continuing: bool = False) -> list[str]:
    """The names of a byline block: a list of names, or one name followed by its affiliation (any text after the
    name once a run of names has started: "Samantha Blickhan, The Adler Planetarium, Zooniverse")."""
    people = split_people(text)
    if people:
        return people
    name, comma, rest = text.partition(",")
    # a reference line ("First Monday, Volume 25, Number 10") is no name followed by its affiliation
    if comma and not re.search(r"\d", text) and (continuing or _INSTITUTION.search(rest)):
        return split_people(name)
    return []


def linked_names(text: str, links: tuple[str, ...]) -> list[str]:
    """The names of a byline written as a run of links, one name each, with nothing but spacing or separators
    between them ("Zukeran, A.  Looy, P.C.  Chakrabarti, A." on an old IEEE Xplore page): [] when any link is no
    one person's name or other words sit between them."""
    if len(links) < 2:
        return []
    rest = text
    for link in links:
        before, found, after = rest.partition(link)
        if not found:
            return []
        rest = f"{before} {after}"
    if _LINK_SEPARATORS.sub("", rest):
        return []
    names = [split_people(link) for link in links]
    return [people[0] for people in names] if all(len(people) == 1 for people in names) else []


def byline_above(blocks: list[Any], index: int) -> list[str]:
    """The names written right above block `index` (a title) where none follow it: a block of names just before it,
    beside a date or reading unmistakably as a byline ("22.11.2022 / Christian Mihatsch / <h1>…")."""
    before = [block for block in blocks[max(0, index - 2) : index] if not block.chrome]
    for position, block in enumerate(reversed(before)):
        people = people_in(block.text)
        if not people:
            continue
        beside = before[: len(before) - 1 - position]
        dated = any(dates_in_text(other.text, bare_years=False) and len(other.text.split()) <= 4 for other in beside)
        return people if dated or unmistakable(block.text, people) else []
    return []


def shortened(names: list[str], shown: list[str]) -> bool:
    """Whether a tag gives the names the page shows, each cut short ("Todd" where the byline reads "Todd Bates")."""
    if len(names) != len(shown):
        return False
    pairs = [(set(_words(tag)), set(_words(seen))) for tag, seen in zip(names, shown, strict=True)]
    return any(tag < seen for tag, seen in pairs) and all(tag <= seen for tag, seen in pairs)


def between_names(text: str) -> bool:
    """Whether a line may sit between two names of one byline: an affiliation, an e-mail, a profile link."""
    return bool(_FURNITURE.search(text) or _INSTITUTION.search(text) or _ADDRESS.search(text))


def unmistakable(text: str, people: list[str]) -> bool:
    """Whether a block of names reads as a byline beyond doubt: two names or more, "by …", initials or marks."""
    return len(people) > 1 or text.lower().startswith("by ") or bool(re.search(r"\b[A-Z]\.|[\d*†‡]", text))


def marked_authors(root: Any, *, skip: Callable[[Any], bool]) -> list[str]:
    """The names in the first element the markup calls the author (rel=author, itemprop=author, class "author",
    "byline", "fn"), and in its siblings marked the same way (one list item per author): a reference list further
    down marks its authors too, but in other containers, and names in a list of other works (references, "Cited
    by", recommendations) are never the item's. Elements `skip` names (hidden, chrome) are left out."""
    names: list[str] = []
    group: tuple[Any, Any] | None = None
    for element in root.iter():
        if not isinstance(element.tag, str):
            continue
        rel = (element.get("rel") or "").lower().split()
        marked = "author" in rel or (element.get("itemprop") or "").lower() == "author"
        if not marked and not _AUTHOR_CLASSES.search(element.get("class") or ""):
            continue
        signature = (element.tag, element.get("class"))
        if group is not None and (signature != group[0] or group[1] not in element.iterancestors()):
            continue
        text = collapse_whitespace(clean_text(element.text_content()))
        if not text or len(text.split()) > 40 or skip(element) or _in_other_works(element):
            continue
        people = split_people(text) or ([text] if "author" in rel and len(text.split()) == 1 else [])
        if people and group is None:
            ancestors = list(element.iterancestors())
            group = (signature, ancestors[min(2, len(ancestors) - 1)] if ancestors else root)
        names += [name for name in people if name not in names]
    return names


def _in_other_works(element: Any) -> bool:
    return any(
        isinstance(node.tag, str) and _OTHER_WORKS.search(f"{node.get('id') or ''} {node.get('class') or ''}")
        for node in (element, *element.iterancestors())
    )


def _words(name: str) -> list[str]:
    return re.findall(r"[^\W_]+", name.casefold())
