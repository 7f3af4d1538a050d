"""What a record's heading adds to a work's title, and a heading that is only the record's: a catalogue's identifier
written after the title in brackets, the day a record was made written after it past a comma, and a register's
heading that names a record by a label, its number and a date ("Bibliographic data: EP4300922 (A1) ― 2023-06-14")
with the work's own title shown under it.
"""

from __future__ import annotations

import re
from urllib.parse import unquote, urlsplit

from research_crawler.pages.item_dates import dates_in_text, normalise_date

__all__ = ["is_record_heading", "without_record_id", "without_trailing_date"]

_LABEL_WORDS = 4
_WORD = re.compile(r"[^\W_]+")


def is_record_heading(text: str) -> bool:
    """Whether a heading names a record, not a work: a date, and otherwise only identifiers (words with digits in
    them: "EP4300922", "A1", "2023-06-14"), after a short label ending in a colon ("Bibliographic data:",
    "Record:"), a label at most. A register heads a document's page so and shows the work's title elsewhere; a
    title has words of its own ("Report 2024", "COVID-19 in 2021: a review" have them)."""
    if not dates_in_text(text):
        return False
    label, colon, rest = text.partition(":")
    if not colon or len(label.split()) > _LABEL_WORDS:
        rest = text
    words = _WORD.findall(rest)
    return len(words) >= 2 and all(any(ch.isdigit() for ch in word) for word in words)


_FULL_DATE = re.compile(r"^\d{4}-\d\d-\d\d$")
_WEEKDAY_LAST = re.compile(
    r"\b(?:(?:mon|tues|wednes|thurs|fri|satur|sun)day|(?:lun|mar|mercre|jeu|vendre|same)di|dimanche|mittwoch|"
    r"(?:mon|diens|donners|frei|sams|sonn)tag|lunes|martes|miércoles|jueves|viernes|sábado|domingo)$",
    re.I,
)
_TRAILING_ID = re.compile(r"\s+\(([^\s()]{2,24})\)$")


def without_record_id(title: str, url: str) -> str:
    """`title` without the record's identifier a catalogue or knowledge base writes after it, in brackets, when the
    page's own address ends in that identifier ("Ancient Genomes of the Steppe (Q1424)" at ``…/wiki/Item:Q1424``,
    "Annual Survey (ds-2023-07)" at ``…/dataset/ds-2023-07``): the number names the record, not the work. A
    bracketed word the address does not end in ("Surveys (2nd edition)") is the title's own."""
    match = _TRAILING_ID.search(title)
    if match is None or not any(ch.isdigit() for ch in match.group(1)):
        return title
    last = urlsplit(url).path.rstrip("/").rsplit("/", 1)[-1]
    segment = unquote(last).rsplit(":", 1)[-1].casefold()
    return title[: match.start()] if segment == match.group(1).casefold() and match.start() > 0 else title


def without_trailing_date(title: str) -> str:
    """`title` without the day written after it, past a comma, as archives and catalogues head a record ("Letters
    of a Mill Manager, 2024 March 12", "Annual Report, 12 March 2024"): a full date (day, month and year) names
    when the record was made, not what it is called. A year or a span of years ("…, 1850-1914") is kept: titles
    end so."""
    for cut in (title.rfind(", "), title.rfind(", ", 0, max(0, title.rfind(", ")))):
        if cut > 0 and _FULL_DATE.match(normalise_date(title[cut + 2 :].strip(" ."))):
            head = title[:cut].rstrip()
            # a day named with its weekday names a daily programme's or paper's issue ("Democracy Now! Friday,
            # February 20, 2015"): the title's own words, which the cut would leave ending in "Friday"
            return head if len(head.split()) >= 2 and not _WEEKDAY_LAST.search(head) else title
    return title
