"""How the simulated model reads a page in its task: the numbered links, and the entries of a list of items.

Both read the text after ``<page-content``: a link view ("[n] text — context" lines) or the page's Markdown.
"""

from __future__ import annotations

import re

__all__ = ["abstract_shown", "authors_shown", "entries", "link_lines"]

_LINK = re.compile(r"\[(\d+)\]\s+([^\[\]\n]+?)(?=\s*\[|\s*\]|\s+—|\n|$)")
# A link that opens a line, after a list number, a bullet or a heading mark, or a number and a heading ("1. ### [12]"),
# or a table's row ("| [12] Title | 1–12 |").
_ENTRY_START = re.compile(r"^\s*(?:\|\s*)?(?:\d+\.\s*)?(?:[*+-]\s*)?(?:#+\s*)?\[(\d+)\]")
#: A table row's other cells, after the one that holds the entry's title.
_OTHER_CELLS = re.compile(r"\s*\|.*$")


def _page_body(text: str) -> str:
    """The page between its markers, as a reader tells the page from the task's own words around it."""
    start = text.find("<page-content")
    if start < 0:
        return text
    end = text.find("</page-content>", start)
    return text[start:end] if end >= 0 else text[start:]


def link_lines(text: str) -> list[tuple[int, str, str]]:
    """(number, anchor text, context) from a link view ("[n] text — context" lines) or Markdown."""
    found: dict[int, tuple[str, str]] = {}
    for line in _page_body(text).splitlines():
        for match in _LINK.finditer(line):
            context = line.split(" — ", 1)[1] if " — " in line else line
            found.setdefault(int(match.group(1)), (match.group(2).strip(" ,"), context))
    return [(number, anchor, context) for number, (anchor, context) in found.items()]


def entries(text: str) -> list[tuple[int, str, str]]:
    """(link number, title, block text: its lines) for each link that opens a line of the page, as a reader sees a
    list of items: the title is the anchor when it is long enough, else the next line of plain text; without the
    date, badge or names the line puts after it."""
    lines = _page_body(text).splitlines()
    found = []
    for index, line in enumerate(lines):
        match = _LINK.search(line)
        if match is None or not _ENTRY_START.match(line):
            continue
        title = _OTHER_CELLS.sub("", match.group(2)).strip()
        block = [line]
        for following in lines[index + 1 : index + 5]:
            if not following.strip() or _ENTRY_START.match(following):
                break
            block.append(following)
        if len(title.split()) < 4:
            title = next(
                (f.strip() for f in block[1:] if len(f.split()) >= 4 and not _LINK.search(f) and ":" not in f[:12]),
                title,
            )
        found.append((int(match.group(1)), _title_alone(title), "\n".join(block)))
    return found


#: What a listing's line puts after an entry's title, as a reader tells them apart: a date in brackets, an access
#: badge, a byline ("Costa, Oskar; Eze, Minh", "by A, B and C").
_TAIL_DATE = re.compile(r"\s*\([^()]*\b(?:19|20)\d\d\)\s*$")
_TAIL_BADGE = re.compile(
    r"\s+(?:subscribers only|members only|open access|free access|free|paywalled|subscription)\s*$", re.IGNORECASE
)
_TAIL_INVERTED_NAMES = re.compile(r"\s+[A-Z][\w'’-]+, [A-Z][\w.'’ -]*(?:; [A-Z][\w'’-]+, [A-Z][\w.'’ -]*)+\s*$")


def _title_alone(line: str) -> str:
    """An entry's title without what the line puts after it (date, badge, byline); the line itself when that
    would leave fewer than three words."""
    title = line
    for tail in (_TAIL_DATE, _TAIL_BADGE, _TAIL_INVERTED_NAMES, _TAIL_DATE, _TAIL_BADGE):
        title = tail.sub("", title)
    return title.strip() if len(title.split()) >= 3 else line.strip()


_BYLINE = re.compile(r"^\s*by ([A-Z][^·|\n()]+?)(?:\s*[·|(]|\s*$)", re.MULTILINE)
_INVERTED = re.compile(r"([A-Z][\w'’-]+, [A-Z][\w.'’ -]*(?:; [A-Z][\w'’-]+, [A-Z][\w.'’ -]*)+)")


def authors_shown(block: str) -> list[str]:
    """The authors an entry (its lines) shows, as it shows them: a line "by A, B and C", or "Surname, Given;
    Surname, Given"."""
    if (inverted := _INVERTED.search(block)) is not None:
        return [name.strip() for name in inverted.group(1).split(";") if name.strip()]
    if (byline := _BYLINE.search(block)) is not None:
        names = re.split(r",\s*|\s+and\s+|\s*&\s*", byline.group(1).strip())
        if all(1 <= len(name.split()) <= 4 for name in names if name):
            return [name.strip() for name in names if name.strip()]
    return []


#: What a reader takes in of an abstract before judging what a paper is about.
_ABSTRACT_CHARS = 300


def abstract_shown(text: str) -> str:
    """The start of the abstract a page shows (the text after its "Abstract" heading or label), "" when none."""
    body = _page_body(text)
    match = re.search(r"\babstract\b[\s|:*#_-]*(\S.*)", body, re.IGNORECASE | re.DOTALL)
    return " ".join(match.group(1).split())[:_ABSTRACT_CHARS] if match else ""
