"""What a citation string says of the work it cites: its authors and its year.

A hand-written list of papers writes each work as one line — "Novak, S., Torres, K. and Haddad, J.. Title. Journal,
54:180–194, 2024." or "Haddad, J. (2023). Title. Journal." — followed by links named only by what they open
("[Abstract] [PDF]"). The page those links open may name neither the authors nor the year (an abstract page with
only a heading and a paragraph): a reader takes them from the citation that led there. Only a citation that shows
the work's title is read: the names before the title (all of them names, or none is taken) and its one year. A
bibliography's record page shows its own work's citation under its heading ("A, B, C: Title. Venue 2026: 1-9"):
where no tag names them, the reader takes the authors and year from there (`own_citation`).
"""

from __future__ import annotations

import re

from research_crawler.pages.person_names import split_people

__all__ = ["CitedFields", "cited_fields", "own_citation"]

_YEAR = re.compile(r"(?<![\d/.:–-])((?:19|20)\d\d)(?![\d/–-])")
#: What may stand between a citation's authors and its title: a year in brackets, punctuation (the full stop after
#: a name, not an initial's: "Haddad, J.." keeps "J.", "Julia Haddad." loses its stop).
_BEFORE_TITLE = re.compile(r"(?:(?<=\.)\.|(?<=\w\w)\.)?[\s,;:]*(?:\(\s*(?:19|20)\d\d[a-z]?\s*\)[\s.,;:]*)?$")


class CitedFields:
    """The authors (as the citation writes them) and the year a citation gives its work; empty when it gives none."""

    __slots__ = ("authors", "year")

    def __init__(self, authors: list[str], year: str | None) -> None:
        self.authors = authors
        self.year = year


def cited_fields(citation: str, title: str) -> CitedFields:
    """The authors and year `citation` gives the work titled `title`; nothing when the citation does not show the
    title (it cites another work, or was cut before it), names before it that are not all people, or several years
    (a reprint, an access date: which is the work's cannot be told)."""
    words = re.findall(r"\w+", title)
    if len(words) < 2:
        return CitedFields([], None)
    shown = re.search(r"\W+".join(re.escape(word) for word in words), citation, re.IGNORECASE)
    if shown is None:
        return CitedFields([], None)
    before, after = citation[: shown.start()], citation[shown.end() :]
    authors = split_people(_BEFORE_TITLE.sub("", before.rstrip()).strip(" ,;:")) if before.strip() else []
    years = {match.group(1) for match in _YEAR.finditer(f"{before} {after}")}
    return CitedFields(authors, years.pop() if len(years) == 1 else None)


#: A link number of the agents' view ("[12] ") before a linked name of a citation.
_LINK_NUMBER = re.compile(r"\[\d+\]\s*")


def own_citation(markdown: str, title: str) -> CitedFields:
    """The authors and year of the first line of a page's view (`markdown`, its links numbered) that cites the page's
    own work, titled `title`, with names before it ("[10] Mateo Berg, [11] Daniel Zhang: Title. FLEdge 2026: 139-148");
    nothing when no line does."""
    for line in markdown.splitlines():
        text = _LINK_NUMBER.sub("", line).strip(" *-#")
        fields = cited_fields(text, title) if text else CitedFields([], None)
        if fields.authors:
            return fields
    return CitedFields([], None)
