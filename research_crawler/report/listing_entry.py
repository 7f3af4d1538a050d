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

from research_crawler.pages.entry_bylines import entry_people
from research_crawler.pages.page import Link
from research_crawler.tools.items import iso_date_shown

__all__ = ["EntryFields", "entry_fields"]

#: How many lines an entry may run after its title's line (`pages/entry_bylines.py` reads as many).
_ENTRY_LINES = 3
_MARKER = re.compile(r"\[(\d+)\]")


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
    text = " ".join(link.text.split())
    if not text:
        return None
    lines = markdown.splitlines()
    marker = f"[{link.id}] {text}"
    for index, line in enumerate(lines):
        at = line.find(marker)
        if at < 0:
            continue
        after = line[at + len(marker) :]
        parts = [line[:at], after]
        if len(_MARKER.findall(line)) == 1 and not after.strip(" .:"):  # a title alone on its line: the lines under it
            for below in lines[index + 1 : index + 1 + _ENTRY_LINES]:
                if _MARKER.search(below):
                    break
                parts.append(below)
        days = {day for part in parts if (day := _date_in(part)) is not None}
        return days.pop() if len(days) == 1 else None
    return None


def _date_in(part: str) -> str | None:
    """The date `part` of an entry writes, read from where it starts: a list's number ("3.") is no date."""
    plain = re.sub(r"^\s*(?:[-*+]|\d{1,3}[.)])\s+", "", part).strip()
    return iso_date_shown(plain) if plain else None
