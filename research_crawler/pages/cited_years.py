"""The year of a page's suggested citation of its own item ("Schmidt, F. L., & Oh, I.-S. (2016). The crisis of …"),
or the issue date of the journal source line over or under its title ("Eur J Med. 2014 Jul;41(7):1460."): where a
page shows no date of its own near its title, the date its citation of the item gives is the item's."""

from __future__ import annotations

import re

from research_crawler.pages.item_dates import normalise_date
from research_crawler.pages.page_shows import VisiblePage

__all__ = ["cited_year", "source_line_date"]

_CITED_TITLE_WORDS = 4  # a title as long as this, repeated in a line with a year, is a citation of the item
_YEAR_IN_BRACKETS = re.compile(r"\((1[5-9]\d\d|20\d\d)[a-z]?\)")
# a journal's source line as the NLM's citation style writes it, MEDLINE's and the databases that follow it: the
# issue's date (year, English month's abbreviation, day perhaps; a second month of a double issue), then a
# semicolon and the volume, its issue or its pages: "2014 Jul;41(7):1460", "2015 Mar 12;10(3):e0119", "2009;5:12"
_SOURCE_LINE_DATE = re.compile(
    r"(?<![\w/.-])(?P<date>(?:1[5-9]|20)\d\d(?:\s+[A-Z][a-z]{2,8}\.?(?:\s+\d{1,2})?)?)(?:\s*-\s*[A-Z][a-z]{2,8}\.?)?"
    r"\s*;\s*\d+\s*[(:]"
)
_SOURCE_LINE_REACH = (2, 3)  # blocks before and after the title where the source line stands


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


def source_line_date(page: VisiblePage, title_index: int) -> str | None:
    """The issue date of the journal source line right over or under the item's title, outside the chrome, as
    the NLM's style writes it ("Eur J Nucl Med Mol Imaging. 2014 Jul;41(7):1460. … Epub 2014 Apr 16."): the
    date of the issue that published the item, at the precision written (2014-07)."""
    before, after = _SOURCE_LINE_REACH
    for block in page.blocks[max(0, title_index - before) : title_index + after + 1]:
        if block.index == title_index or block.chrome:
            continue
        if found := _SOURCE_LINE_DATE.search(block.text):
            date = normalise_date(found["date"])
            if re.fullmatch(r"\d{4}(?:-\d\d){0,2}", date):
                return date
    return None
