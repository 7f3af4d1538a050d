"""What a dateline is: a line of a page that presents a date (a date with a few words besides, a byline with its
date, the dateline that opens a story), not a sentence that tells of one; the labels of events other than the
item's publication ("Updated", "Received", "©"), and the part of a line before them that dates publication."""

from __future__ import annotations

import re

from research_crawler.pages.item_dates import dates_in_text, short_year_dateline, without_dates
from research_crawler.pages.person_names import begins_with_by

__all__ = [
    "NOT_PUBLICATION",
    "POSTED",
    "has_date_part",
    "is_dateline",
    "nothing_but_a_date",
    "publication_part",
    "short_year_part",
]

NOT_PUBLICATION = re.compile(
    r"\b(?:updated?|modified|modification|created|received|accepted|revised|submitted|accessed|retrieved|copyright|"
    r"aktualisiert|aggiornamento|soumis|eingereicht|deposited|last|"
    # the end of a period, an embargo's or an offer's ("gesperrt bis 05.05.2024", "embargoed until 1 May 2025")
    r"until|till|embargo(?:ed)?|gesperrt|sperrfrist|bis|jusqu'?(?:au|à)|fino al|hasta|"
    # the start of a period, a membership's or a career's ("Member since 2006", "… CSS since 2001", a forum
    # member's card beside their post: "Join Date: Mar 2016")
    r"since|seit|depuis|join date|joined)\b|©|"
    # German's abbreviated update label ("Akt.: 29. Juni 2025 - 21.18 Uhr")
    r"\bakt\.(?=\s|:)",
    re.I,
)
_DATELINE_WORDS = 12  # the words a dateline has besides its date ("um 16:14 Uhr - Markus Reuter - 91 Ergänzungen")
_SENTENCE_WORDS = 6  # a line of as many words besides its date, ended by a full stop, is a sentence
POSTED = re.compile(
    r"\b(?:posted|published|publi(?:é|ee)e?|ver(?:ö|oe)ffentlicht|pubblicato|publicado|gepubliceerd)\b", re.I
)
_POSTED_LINE_WORDS = 20
_META_SEPARATORS = re.compile(r"\s·\s|[|•]")  # a bullet or a bar, spaced or not ("By: A •7/2/23")
_COUNT_AFTER = re.compile(r"\s+\d+\s+[^\W\d]+\s*$")
_PLACE_WORDS = 3  # "WASHINGTON -", "Darmstadt -" before a story's opening date
# (after the date, a wire's credit may come before the dash: "April 29, 2015 /PRNewswire/ --", "… (Reuters) -")
_OFF = re.compile(r"\s*(?:[/(][^/()]{1,30}[/)]\s*)?(?:--|[-–—.:])(?:\s|$)")
_TIME_WORDS = 2  # "8:00 am"
_FIRST_SENTENCE = re.compile(r"(?<=[.!?])\s+")


def is_dateline(text: str) -> bool:
    """Whether a line is about its date: a date with a few words besides (a time, a name), not a sentence; a line
    of short parts set apart, one of them the date ("By A for B | May 24, 2016 -- 13:30 GMT | Topic: Security");
    a sentence that says when the item was posted; or the dateline that opens a story ("Feb. 23, 2015 -- Life-
    threatening …", "Darmstadt - Januar 2021. Mit …")."""
    besides = len(without_dates(text).replace("|", " ").split())
    if _opens_with_date(text) or (POSTED.search(text) and besides <= _POSTED_LINE_WORDS):
        return True  # a sentence that says when the item was posted is its dateline ("This entry was posted …")
    # (the first sentence ends at a full stop that ends no month's abbreviation: "By A Jul. 25, 2012 10:46 a.m.")
    if _dated_byline(_FIRST_SENTENCE.split(without_dates(text, mark=" 2000-01-01 "), maxsplit=1)[0]):
        return True  # "By A | Friday June 7, 2013 @ 6:43pm", "Von A am 21/02/2021. Abgelegt unter …"
    sentence = text.rstrip().endswith((".", "!", "?")) and besides >= _SENTENCE_WORDS
    if sentence:
        return False
    if besides <= _DATELINE_WORDS:
        return True
    parts = [part for part in _META_SEPARATORS.split(text) if part.strip()]
    return (
        len(parts) > 1
        and all(len(part.split()) <= _DATELINE_WORDS for part in parts)
        and any(dates_in_text(part) for part in parts)
    )


def _dated_byline(text: str) -> bool:
    """Whether a line is a byline with its date: "By <name> …" and a date after the name, a few words besides (not
    "By March 2020, the virus …", whose date follows "By" at once)."""
    if not begins_with_by(text) or not dates_in_text(text):
        return False
    name = without_dates(text, mark="\x00").partition("\x00")[0]
    return len(name.split()) >= 2 and len(without_dates(text).replace("|", " ").split()) <= _POSTED_LINE_WORDS


def _opens_with_date(text: str) -> bool:
    """Whether a story opens with its dateline: a date, after at most a place, set off by a dash or a full stop."""
    head, found, tail = without_dates(text, mark="\x00").partition("\x00")
    return bool(found) and len(head.split()) <= _PLACE_WORDS and bool(_OFF.match(tail))


def publication_part(text: str) -> str:
    """A line up to its first label of another event than publication: such a label names the date after it, not
    one before it ("2 December 2011 Last updated at 00:03 GMT", "Published on Mar. 09, 2010 Last updated on Mar.
    22, 2010"); the whole line where it has none."""
    other = NOT_PUBLICATION.search(text)
    return text[: other.start()] if other else text


def short_year_part(text: str) -> str | None:
    """The day a dateline gives with a two-digit year, alone on its line or as one of the line's parts set apart
    ("By A & B | 10/9/10 7:15 AM EDT")."""
    parts = [text, *(_META_SEPARATORS.split(text) if _META_SEPARATORS.search(text) else [])]
    # (a count may follow the date, the comments' or the views': "7/2/23 43 Comments")
    parts = [re.sub(_COUNT_AFTER, "", part) for part in parts]
    return next((found for part in parts if (found := short_year_dateline(part))), None)


def has_date_part(text: str) -> bool:
    """Whether a line is nothing but a date, or a line of short parts set apart one of which is nothing but a
    date ("CHQ Staff | 10/17/18", "Jane Roe | 3 March 2015")."""
    parts = [text, *(_META_SEPARATORS.split(text) if _META_SEPARATORS.search(text) else [])]
    return any(short_year_dateline(part) or nothing_but_a_date(part) for part in parts) and (
        len(parts) == 1 or all(len(part.split()) <= _DATELINE_WORDS for part in parts)
    )


def nothing_but_a_date(text: str) -> bool:
    """Whether a line is a date and at most its time ("3 March 2015 8:00am"), nothing else."""
    return bool(dates_in_text(text)) and len(without_dates(text, mark=" ").split()) <= _TIME_WORDS
