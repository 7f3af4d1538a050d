"""What a listing's entry shows of the work its link leads to: its people and its one date.

A search's results, a database's rows and a news river write each work as a title link with a line or two under it
(or beside it): "1. Preprint [12] Peak Viral Load Explained by Delay Differential Equations" / "Mbeki Z, Costa S,
Wang R" / "bioRxiv ; 2024 Aug 4 · PPRID: PPR701945". A reader who opens the work's page and finds no date or byline
there keeps what the entry showed. The entry is read as `pages/entry_bylines.py` reads it (the line where the link's
text follows its number and, when the link is alone on that line, the lines under it up to the next line holding a
link, at most three); its people are that module's. Its date is the one date those lines write, the link's own
words left out (a title's "2030" is what it is about); two different dates (posted and revised, a range) say
nothing for sure, and neither does none.
"""

from __future__ import annotations

import re

from research_crawler.pages.entry_bylines import entry_people, entry_showings
from research_crawler.pages.item_dates import iso_date_shown
from research_crawler.pages.page import Link

__all__ = ["EntryFields", "entry_fields"]


class EntryFields:
    """The people and the date a listing's entry shows beside a link; empty when it shows none."""

    __slots__ = ("authors", "date")

    def __init__(self, authors: list[str], date: str | None) -> None:
        self.authors = authors
        self.date = date


def entry_fields(markdown: str, link: Link) -> EntryFields:
    """The people and the one date the entry of `link` shows on the page whose Markdown view is `markdown`."""
    return EntryFields(entry_people(markdown, link), _entry_date(markdown, link))


def _entry_date(markdown: str, link: Link) -> str | None:
    showings = entry_showings(markdown, link)
    if not showings:
        return None
    days = {day for part in showings[0] if (day := _date_in(part)) is not None}
    return days.pop() if len(days) == 1 else None


def _date_in(part: str) -> str | None:
    """The date `part` of an entry writes, read from where it starts: a list's number ("3.") is no date."""
    plain = re.sub(r"^\s*(?:[-*+]|\d{1,3}[.)])\s+", "", part).strip()
    return iso_date_shown(plain) if plain else None
