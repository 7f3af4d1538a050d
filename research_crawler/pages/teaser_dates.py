"""Whether a date a page writes near its item's title belongs to something else: another item — a teaser's, in a box
of related stories (a linked headline over each date), or another story's above the title's box — or another field,
a table's value under a header cell that labels no publication date."""

from __future__ import annotations

from research_crawler.pages.field_labels import label_kind
from research_crawler.pages.page_shows import VisiblePage
from research_crawler.pages.person_names import begins_with_by, split_people

__all__ = ["another_fields_value", "in_a_list_of_teasers", "under_a_link_to_another_item"]

_HEADLINE_WORDS = 4


def under_a_link_to_another_item(page: VisiblePage, index: int, anchors: list[int]) -> bool:
    """Whether block `index` comes right under a link to another item in a list of them — a box of related
    stories, each a headline linked and its date ("Knight's future in balance after trading disaster" / "Thu, Aug 2
    2012" / the next headline) — or, above a showing of the title and a heading before it, right under another
    story's headline — so that its date is that item's, not the page's."""
    if index < 1 or index - 1 in anchors:
        return False
    nearest = min(anchors, key=lambda anchor: abs(anchor - index))
    between = page.blocks[index + 1 : nearest]
    if nearest > index and _another_headline(page, index - 1, anchors) and any(block.heading for block in between):
        return True  # above the title's box, under another story's headline: a teaser's date in a box of them
    return _headline_link(page, index - 1) and (
        _headline_link(page, index + 1) or (index >= 3 and _headline_link(page, index - 3))
    )


def in_a_list_of_teasers(page: VisiblePage, index: int, title_index: int | None) -> bool:
    """Whether block `index` dates one teaser in a list of them: another item's linked headline one or two blocks
    above it (its standfirst between) and another teaser's headline right after it or just above its own
    ("Raspberry Pi : …" / "Le Modèle B …" / "29/02/2012 Informatique" / "Interpol annonce …")."""
    title = page.blocks[title_index].words if title_index is not None else None
    above = [i for i in (index - 1, index - 2) if i >= 0 and _headline_link(page, i) and page.blocks[i].words != title]
    # (the next teaser's headline after it, or the last teaser's before its own: the list's last entry)
    others = [index + 1, *range(max(0, min(above, default=index) - 3), min(above, default=index))]
    return bool(above) and any(_headline_link(page, i) for i in others)


def _another_headline(page: VisiblePage, index: int, anchors: list[int]) -> bool:
    """Whether block `index` is a heading of a headline's length that is not the item's title."""
    block = page.blocks[index]
    title = page.blocks[anchors[0]].words
    return bool(block.heading) and block.words != title and len(block.words.split()) >= _HEADLINE_WORDS


def _headline_link(page: VisiblePage, index: int) -> bool:
    """Whether block `index` is nothing but a link naming another item outside the chrome: a headline, no name."""
    if index >= len(page.blocks):
        return False
    block = page.blocks[index]
    text = block.text.strip()
    return (
        text in block.links
        and not block.chrome  # (the site's "Next post" link in its chrome, over the item's own dateline)
        and len(text.split()) >= _HEADLINE_WORDS
        and not begins_with_by(text)
        and not split_people(text)
    )


def another_fields_value(page: VisiblePage, index: int) -> bool:
    """Whether block `index` is a table's value under a header cell that labels no publication date ("Founded",
    "Born", "Release"): the date of what the row names, not of the page's item."""
    if index == 0:
        return False
    header = page.blocks[index - 1]
    return header.header_cell and not page.blocks[index].header_cell and label_kind(header.text) != "date"
