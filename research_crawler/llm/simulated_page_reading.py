"""How the simulated model reads a page in its task: the numbered links, and the entries of a list of items.

Both read the text after ``<page-content``: a link view ("[n] text — context" lines) or the page's Markdown.
"""

from __future__ import annotations

import re

__all__ = ["abstract_shown", "authors_shown", "entries", "link_lines", "year_cited"]

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
    date, badge or names the line puts after it. A table's row whose title is a later cell's link (a schedule:
    date, time, speaker, then the talk) is an entry too, and so is a list's citation followed by its links
    ("Surname, A. and Other, B. Title. Journal, 2024. [Abstract] [PDF]"): its title read from the citation, its
    first link the entry's."""
    lines = _page_body(text).splitlines()
    found = []
    for index, line in enumerate(lines):
        match = _LINK.search(line)
        if match is not None and not _ENTRY_START.match(line):
            if (row := _row_entry(line)) is not None or (row := _citation_entry(line)) is not None:
                found.append(row)
            continue
        if match is None:
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


def _row_entry(line: str) -> tuple[int, str, str] | None:
    """A table row whose title-long link (four words or more) sits in a later cell, as (number, title, row)."""
    if not line.lstrip().startswith("|"):
        return None
    for match in _LINK.finditer(line):
        title = _OTHER_CELLS.sub("", match.group(2)).strip()
        if len(title.split()) >= 4:
            return int(match.group(1)), title, line
    return None


#: A citation's authors before its title: "Novak, S., Torres, K. and Haddad, J." or "Novak S, Haddad J" or
#: "S. Novak, K. Torres and J. Haddad", with a year after them or not ("(2024).").
_INITIALS = r"(?:(?:[A-Z]\.[ -]?){1,3}|[A-Z]{1,3}\b\.?)"
_NAME = rf"(?:[A-Z][\w'’-]+(?: [A-Z][\w'’-]+)?,? {_INITIALS}|(?:[A-Z]\. ?){{1,3}}[A-Z][\w'’-]+)"
_CITED_AUTHORS = re.compile(
    rf"^\s*(?:[*+-]|\d+\.)?\s*{_NAME}(?:(?:\s*(?:,|;|\band\b|&)\s*)+{_NAME})*(?:,? et al\.?)?[.,]*\s*"
    r"(?:\(?(?:19|20)\d\d[a-z]?\)?[.,:]?\s*)?"
)
_QUOTED_TITLE = re.compile(r"[\"“]([^\"”]{12,}?)[,.]?[\"”]")


def _citation_entry(line: str) -> tuple[int, str, str] | None:
    """A list's citation followed by its short links ("[Abstract] [PDF]"), as (its first link, title, line): the
    title is the quoted one, or the first sentence after the authors (and year) of four words or more."""
    first = _LINK.search(line)
    if first is None or not re.match(r"^\s*(?:[*+-]|\d+\.)\s", line):
        return None
    cited = line[: first.start()].rstrip(" [(")
    if len(cited.split()) < 6 or any(len(m.group(2).split()) > 2 for m in _LINK.finditer(line)):
        return None
    if not re.search(r"\b(?:19|20)\d\d\b", cited):
        return None  # a sentence with a link ("See also my talks [Talks]"), not a work's citation
    if (quoted := _QUOTED_TITLE.search(cited)) is not None:
        title = quoted.group(1)
    else:
        rest = _CITED_AUTHORS.sub("", cited, count=1)
        title = next((s.strip() for s in re.split(r"(?<=[a-z0-9)?])[.?]\s+", rest) if len(s.split()) >= 4), "")
    title = title.strip(" .*_")
    return (int(first.group(1)), title, cited) if len(title.split()) >= 4 else None


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
    Surname, Given", or a citation's leading names ("Novak, S., Torres, K. and Haddad, J.")."""
    if _citation(block) and (cited := _CITED_AUTHORS.match(block)) is not None:
        return [name.strip(" ,") for name in re.findall(_NAME, cited.group(0))]
    if (inverted := _INVERTED.search(block)) is not None:
        return [name.strip() for name in inverted.group(1).split(";") if name.strip()]
    if (byline := _BYLINE.search(block)) is not None:
        names = re.split(r",\s*|\s+and\s+|\s*&\s*", byline.group(1).strip())
        if all(1 <= len(name.split()) <= 4 for name in names if name):
            return [name.strip() for name in names if name.strip()]
    return []


def _citation(block: str) -> bool:
    """Whether an entry's block is a citation read as a whole (a list's line that does not open with a link)."""
    return not _LINK.search(block.split("\n", 1)[0][:12]) and not block.lstrip().startswith("|")


def year_cited(block: str) -> str | None:
    """The year a citation names ("…, 54:180–194, 2024." or "Novak, S. (2023)."), None for any other entry."""
    if not _citation(block):
        return None
    years = re.findall(r"(?<![\d:–-])((?:19|20)\d\d)(?![\d–-])", block)
    return years[-1] if years else None


#: What a reader takes in of an abstract before judging what a paper is about.
_ABSTRACT_CHARS = 300


def abstract_shown(text: str) -> str:
    """The start of the abstract a page shows (the text after its "Abstract" heading or label), "" when none."""
    body = _page_body(text)
    match = re.search(r"\babstract\b[\s|:*#_-]*(\S.*)", body, re.IGNORECASE | re.DOTALL)
    return " ".join(match.group(1).split())[:_ABSTRACT_CHARS] if match else ""
