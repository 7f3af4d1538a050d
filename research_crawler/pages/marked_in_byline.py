"""The whole byline a name the markup calls the author stands in.

A page's markup often marks only some of the names its byline shows as the author's: ``By <span>Jane
Doe</span>, <span>John Roe</span> and <span class="last-byline">Ann Poe</span>`` marks one name of three, a theme
marks the first writer's link with ``rel=author`` and leaves the second's plain. A reader reads the line, not the
markup: where one line of the page opens with "By" and names every marked name among the people it lists, the line's
people, in its order, are the writers."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from research_crawler.pages.person_names import begins_with_by, split_people, without_by

__all__ = ["whole_byline"]

#: The most words a byline line may hold: a sentence of the story that says "by" is no byline.
_BYLINE_WORDS = 30


def whole_byline(blocks: Sequence[Any], marked: list[str]) -> list[str]:
    """The people of the first line outside the page's chrome that opens with "By", lists more people than
    `marked` and every one of them; `marked` itself where no line does."""
    if not marked:
        return marked
    for block in blocks:
        if block.chrome or not begins_with_by(block.text) or len(block.text.split()) > _BYLINE_WORDS:
            continue
        people = split_people(without_by(block.text))
        if len(people) > len(marked) and all(name in people for name in marked):
            return people
    return marked
