"""Whether a name-like line is one entry of a list of other things: a recipe card's facts and buttons ("25", "5
porções", "Favoritar Receita", "Imprimir Receita"), a box of related works ("Salmon Sushi Bowl", "Green Curry
Salmon", "Salmon Bites with Wasabi Mayo"). A reader takes the list for what its entries are: where another entry
of the same list is a line that names no one — no label, date, affiliation or profile link a byline's entries
carry — the entries that happen to read as names are titles or buttons too, no byline. A post's list of facts that
credits its writer says so ("By Jane Doe", beside the date).

A run of headings of one level, one under the other, is such a list too: a gallery's or a playlist's captions under
the headline ("Jane Roe 100 backstroke" / "John Doe North Diving" / "Ben Poe Trinity"), each a heading of its own,
where one that names no one shows the run for what it is. A byline set as a heading stands alone under the title."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Any

from research_crawler.pages.item_dates import dates_in_text
from research_crawler.pages.person_names import begins_with_by

__all__ = ["among_other_entries"]

# a line about the authors, a byline's own entry: "Authors Info & Affiliations", "Author information", "Autoren"
_ABOUT_AUTHORS = re.compile(r"\b(?:authors?|autor(?:en|in)?|auteurs?|affiliations?|contributors?)\b", re.I)


def among_other_entries(
    blocks: Sequence[Any], index: int, names_someone: Callable[[Any], bool], furniture: Callable[[str], bool]
) -> bool:
    """Whether block `index` sits in a list (<ul>/<ol>) with another entry none of whose lines names anyone
    (`names_someone`, a block) or is a byline's `furniture` (an affiliation, "View Profile", "Authors Info &
    Affiliations"), a label ("Authors:") or a date, and does not say "by" itself: one more of the list's titles or
    buttons."""
    block = blocks[index]
    if begins_with_by(block.text):
        return False
    if block.heading and not block.chrome:
        run = _heading_run(blocks, index)
        if len(run) >= _HEADING_RUN and any(not _byline_like(other, names_someone, furniture) for other in run):
            return True
    if block.list_item is None:
        return False
    own_list, own_item = block.list_item
    entries: dict[int, list[Any]] = {}
    for other in blocks:
        if other.list_item is not None and other.list_item[0] == own_list and other.list_item[1] != own_item:
            entries.setdefault(other.list_item[1], []).append(other)
    return any(not any(_byline_like(line, names_someone, furniture) for line in entry) for entry in entries.values())


def _byline_like(block: Any, names_someone: Callable[[Any], bool], furniture: Callable[[str], bool]) -> bool:
    text = block.text.strip()
    return (
        not any(ch.isalnum() for ch in text)
        or text.endswith(":")
        or bool(dates_in_text(text))
        or begins_with_by(text)
        or bool(_ABOUT_AUTHORS.search(text))
        or furniture(text)
        or names_someone(block)
    )


_HEADING_RUN = 3  # a title, its subtitle and a heading byline make two of a level at most; three are a list


def _heading_run(blocks: Sequence[Any], index: int) -> list[Any]:
    """The headings of block `index`'s level right before and after it, one under the other (itself left out)."""
    level, run = blocks[index].heading, []
    for step in (-1, 1):
        position = index + step
        while 0 <= position < len(blocks) and blocks[position].heading == level and not blocks[position].chrome:
            run.append(blocks[position])
            position += step
    return [blocks[index], *run]
