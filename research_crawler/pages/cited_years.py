"""The year of a page's suggested citation of its own item ("Schmidt, F. L., & Oh, I.-S. (2016). The crisis of …"):
where a page shows no date of its own near its title, the year its citation line gives is the item's."""

from __future__ import annotations

import re

from research_crawler.pages.page_shows import VisiblePage

__all__ = ["cited_year"]

_CITED_TITLE_WORDS = 4  # a title as long as this, repeated in a line with a year, is a citation of the item
_YEAR_IN_BRACKETS = re.compile(r"\((1[5-9]\d\d|20\d\d)[a-z]?\)")


def cited_year(page: VisiblePage, title_index: int) -> str | None:
    """The year of the page's suggested citation of its own item: a line outside the chrome that holds the item's
    title and more, with a year in brackets ("Schmidt, F. L., & Oh, I.-S. (2016). The crisis of …")."""
    title = page.blocks[title_index].words
    if len(title.split()) < _CITED_TITLE_WORDS:
        return None
    for block in page.blocks:
        if block.index == title_index or block.chrome or block.words == title:
            continue
        if f" {title} " in f" {block.words} " and (year := _YEAR_IN_BRACKETS.search(block.text)):
            return year.group(1)
    return None
