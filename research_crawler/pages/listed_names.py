"""Whether a name-like line is one entry of a list of other things: a recipe card's facts and buttons ("25", "5
porções", "Favoritar Receita", "Imprimir Receita"), a box of related works ("Salmon Sushi Bowl", "Green Curry
Salmon", "Salmon Bites with Wasabi Mayo"). A reader takes the list for what most of its entries are: where other
entries of the same list read as no one's name, the entries that happen to read as names are titles or buttons
too, no byline. A post's list of facts that credits its writer says so ("By Jane Doe", beside the date)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from research_crawler.pages.item_dates import dates_in_text
from research_crawler.pages.person_names import begins_with_by

__all__ = ["among_other_entries"]


def among_other_entries(blocks: Sequence[Any], index: int, reads_as_names: Callable[[str], bool]) -> bool:
    """Whether block `index` sits in a list (<ul>/<ol>) whose other entries read as no names (`reads_as_names`),
    and it does not say "by": one more of the list's titles or buttons. An entry that gives a date (a post's
    date beside its writer's name) or only furniture is no sign either way."""
    block = blocks[index]
    if block.list_item is None or begins_with_by(block.text):
        return False
    own_list, own_item = block.list_item
    others = [
        other
        for other in blocks
        if other.list_item is not None and other.list_item[0] == own_list and other.list_item[1] != own_item
    ]
    return any(
        other.text.strip() and not dates_in_text(other.text) and not reads_as_names(other.text) for other in others
    )
