"""Dates as pages write them, made YYYY-MM-DD, YYYY-MM or YYYY: tag values, dates in a page's text, htmldate's.

A tag's date is usually clean ("2019-05-13", "2008/07/01"); a page shows dates as people write them
("15 November 2018", "28. Januar 2015", "18 mar 2016", "May 2025", "(2011)"), which dateparser reads in the
languages of the corpus's sites. The precision written is the precision kept: "May 2025" is 2025-05.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable, Iterator
from datetime import date
from functools import lru_cache
from typing import Any

from research_crawler.pages.html_tree import MONTHS
from research_crawler.pages.quantities import is_quantity

__all__ = [
    "date_label_in_line",
    "dates_in_text",
    "htmldate_date",
    "iso_date_shown",
    "normalise_date",
    "short_year_dateline",
    "short_year_dates",
    "tag_date",
    "without_dates",
    "year_of",
]

logger = logging.getLogger(__name__)

_NUMERIC_DATE = re.compile(r"^(\d{4})(?:[-/.](\d{1,2})(?:[-/.](\d{1,2}))?)?(?:[T\s]\d{1,2}:\d{2}\S*)?$")
_YEAR_MONTH_DAY = re.compile(r"^(\d{4})\s+([A-Za-z]+)\.?(?:\s+(\d{1,2}))?$")
# an English day may carry its ordinal suffix ("26th September 2016", "October 2nd, 2017")
_MONTH_DAY_YEAR = re.compile(r"^([A-Za-z]+)\.?\s+(\d{1,2})(?:st|nd|rd|th)?,?\s+(\d{4})$")
_DAY_MONTH_YEAR = re.compile(r"^(\d{1,2})(?:st|nd|rd|th)?\s+([A-Za-z]+)\.?,?\s+(\d{4})$")
_MONTH_YEAR = re.compile(r"^([A-Za-z]+)\.?,?\s+(\d{4})$")
# "03/01/2003" in a tag: month first, as Highwire tags and Zotero read it (a first number over 12 is the day).
_SLASHED_YEAR_LAST = re.compile(r"^\d{1,2}/\d{1,2}/\d{4}$")
_YEAR = re.compile(r"(?<!\d)(1[5-9]\d\d|20\d\d)(?!\d)")
_TWO_NAMES = re.compile(r"[^\W\d_]+/[^\W\d_]+")
_ISO_LIKE = re.compile(r"^\d{4}(?:-\d\d){0,2}$")
_BASIC_ISO = re.compile(r"^((?:1[5-9]|20)\d\d)(\d\d)(\d\d)T\d{2,6}(?:[.,]\d+)?(?:Z|[+-]\d\d:?\d\d)?$")

# a time in a North American zone after a slashed date ("11/04/2014 08:05:13 AM PST", "03/10/2015 12:08 am EDT",
# "08/20/2014 AT 08:20 AM EDT"): the date is written as the US and Canada write it, month first
_NORTH_AMERICAN_TIME = re.compile(
    r",?\s+(?i:at\s+|@\s*)?\d{1,2}:\d\d(?::\d\d)?\s*(?i:[ap]\.?m\.?)?\s*(?:[ECMP][SD]?T|AK[SD]T|H[SA]?T)\b"
)
_LANGUAGES = ["en", "de", "fr", "it", "es", "pt", "nl", "ar"]
# the year first, then an English month ("2024 Mar 12", "2024 Mar"), a run of months ("2024 Mar-Apr") or a season
# ("2024 Spring"), as NLM/PubMed and the databases built on it date a record; a month or season with no day must end
# its phrase ("the 2017 May government" dates nothing)
_MONTH_WORD = "|".join(sorted((name.capitalize() for name in MONTHS), key=len, reverse=True))
_SEASON = r"(?:Spring|Summer|Autumn|Fall|Winter)"
_PHRASE_END = r"(?=\s*(?:[;:,.)\]|]|$))"
# Date-like runs in a text: ISO, day-first numbers, and a month word with a year (the words dateparser reads).
_LETTER = r"[^\W\d_]"
_ORDINAL = r"(?:st|nd|rd|th)?"
_TO = r"\s*[-–—]\s*"
_DATE_IN_TEXT = re.compile(
    r"(?<![\w/.-])(?:"
    # "2016-03-16", "2008/07/01" and, as Korean and Chinese sites write it, "2016.03.16" (a day with the dots; as
    # Hungarian and Korean sites write it, each part may end in its dot and a space: "2024. 07. 20.")
    r"(?P<iso>(?:1[5-9]|20)\d\d(?P<sep>[-/])\d{1,2}(?:(?P=sep)\d{1,2})?|(?:1[5-9]|20)\d\d\.\s?\d{1,2}\.\s?\d{1,2}\.?)"
    # "2018年6月18日", "2016년 3월 16일": year, month and day each followed by its sign
    r"|(?P<cjk>(?:1[5-9]|20)\d\d\s*[年년]\s*\d{1,2}\s*[月월](?:\s*\d{1,2}\s*[日일])?)"
    r"|(?P<dmy>\d{1,2}[./-]\d{1,2}[./-](?:1[5-9]|20)\d\d)"
    rf"|(?P<year_first>(?:1[5-9]|20)\d\d\s+(?:(?:{_MONTH_WORD})\.?\s+\d{{1,2}}(?!\d|:\d|,?\s+(?:1[5-9]|20)\d\d)|(?:(?:{_MONTH_WORD})\.?"
    rf"(?:{_TO}(?:{_MONTH_WORD})\.?)?|{_SEASON}){_PHRASE_END}))"
    # "Fri Mar  1 10:42:12 UTC 2024": C's asctime, as Unix `date` and mail archives write a message's time (weekday,
    # month, day, time, a zone perhaps, then the year)
    r"|(?P<ctime>(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun)[a-z]*\.?,?\s+[A-Z][a-z]{2,8}\.?\s+\d{1,2}\s+\d{1,2}:\d\d(?::\d\d)?"
    r"(?:\s+[A-Z]{2,5}|\s+[+-]\d{4})?\s+(?:1[5-9]|20)\d\d)"
    # a run of days, "1-4 June 2004", "June 1–4, 2004", "30 May - 2 June 2004": dated as precisely as both ends agree
    rf"|(?P<range>(?:\d{{1,2}}{_ORDINAL}(?:\s+{_LETTER}{{3,10}}\.?)?{_TO}\d{{1,2}}{_ORDINAL}\s+{_LETTER}{{3,10}}\.?"
    rf"|{_LETTER}{{3,10}}\.?\s+\d{{1,2}}{_ORDINAL}{_TO}(?:{_LETTER}{{3,10}}\.?\s+)?\d{{1,2}}{_ORDINAL}),?\s+"
    r"(?:1[5-9]|20)\d\d)"
    # (a month may be written in two names, "آب/اغسطس", as Levantine and Egyptian Arabic name it)
    # (Spanish and Portuguese join day, month and year with "de": "3 de junio de 2022", "março de 2021")
    rf"|(?P<words>(?:\d{{1,2}}(?:st|nd|rd|th|\.)?\s+(?:de\s+)?)?(?:{_LETTER}{{2,10}}/{_LETTER}{{2,10}}|{_LETTER}{{3,10}})\.?,?\s+(?:de\s+)?(?:\d{{1,2}}(?:st|nd|rd|th)?,?\s+)?(?:1[5-9]|20)\d\d)"
    # "25 March 2015Full publication history": a capital may follow, glued; so may a time ("20163:33 PM ET", and
    # after a day's sign "2011年4月15日12時24分")
    r")(?!(?!\d{1,2}:\d\d|(?<=[日일])\d)[\d/-]|[^\W\d_A-Z])",
)


# a date label and the capitalised month after it glued together, where a theme sets the two in adjacent inline
# elements with no space between ("UpdatedSeptember 18, 2024", "PostedMay 2025"); another word glued to a date
# ("mentionedMay 24, 2024", a reply's stamp) stays one run that dates nothing
_GLUED_LABEL = re.compile(
    r"\b(?P<label>(?i:updated|posted|published|modified|released|dated|on|aktualisiert|ver(?:ö|oe)ffentlicht|publié))"
    r"(?=[A-Z][a-z]{2,9}\.?\s+\d)"
)


# a name glued to the month after it, where a theme sets a source's name and its date in adjacent inline elements
# ("Fox NationOctober 3, 2016", "Reuters StaffMay 2, 2019"): a capitalised word, no verb ("mentionedMay 24, 2024")
_GLUED_NAME = re.compile(
    r"\b(?P<name>[A-Z][a-z]+)(?=(?:January|February|March|April|May|June|July|August|September|October|November|"
    r"December|(?:Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sept?|Oct|Nov|Dec)\.?)\s+\d)"
)


# a weekday written between a date's day and its year ("Dec 28 Sat 2013", as some blog themes stamp a post): no
# month, and read as one ("28 Sat 2013") it makes another day; the date is the day and year around it
_WEEKDAY_BEFORE_YEAR = re.compile(
    r"(?<=\d)(?P<space>,?\s+)(?:mon|tue|wed|thu|fri|sat|sun)(?:[a-z]{0,6}day)?\.?,?(?=\s+(?:1[5-9]|20)\d\d(?!\d))",
    re.I,
)


def _unglued(text: str) -> str:
    unglued = _GLUED_NAME.sub(r"\g<name> ", _GLUED_LABEL.sub(r"\g<label> ", text))
    return _WEEKDAY_BEFORE_YEAR.sub("", unglued)


def normalise_date(raw: str) -> str:
    """`raw` as YYYY-MM-DD, YYYY-MM or YYYY when it is a recognisable date, else `raw` stripped."""
    text = " ".join(raw.split())
    if match := _NUMERIC_DATE.match(text):
        parts = _date_parts(match.group(1), match.group(2), match.group(3))
    elif match := _YEAR_MONTH_DAY.match(text):
        parts = _date_parts(match.group(1), MONTHS.get(match.group(2).lower()), match.group(3), named=True)
    elif match := _MONTH_DAY_YEAR.match(text):
        parts = _date_parts(match.group(3), MONTHS.get(match.group(1).lower()), match.group(2), named=True)
    elif match := _DAY_MONTH_YEAR.match(text):
        parts = _date_parts(match.group(3), MONTHS.get(match.group(2).lower()), match.group(1), named=True)
    elif match := _MONTH_YEAR.match(text):
        parts = _date_parts(match.group(2), MONTHS.get(match.group(1).lower()), None, named=True)
    elif _SLASHED_YEAR_LAST.match(text):
        parts = _month_first(text)
    else:
        parts = None
    return parts or text


def year_of(value: str | None) -> str | None:
    """The four-digit year in `value`, or None."""
    match = _YEAR.search(value or "")
    return match.group(1) if match else None


def dates_in_text(text: str, *, bare_years: bool = False) -> list[str]:
    """The dates written in `text`, in order, each as YYYY-MM-DD / YYYY-MM / YYYY. With `bare_years`, a year
    written alone ("2016", "(2011)", "Vol. 37 (2008)") counts too; without, only dates with a month."""
    found: list[str] = []
    unglued = _unglued(text)
    for match in _date_runs(unglued):
        value: str | None
        if is_quantity(unglued, match.end()):
            continue  # "Mar 1711 min": a day glued to a reading time, no year ("1694 kcal")
        if match.group("iso"):
            value = normalise_date(re.sub(r"\s", "", match.group("iso")).rstrip("."))
        elif match.group("dmy"):
            if "/" in match.group("dmy") and _NORTH_AMERICAN_TIME.match(unglued, match.end()):
                value = _month_first(match.group("dmy"))
            else:
                value = _day_first(match.group("dmy"))
        elif match.group("cjk"):
            numbers = re.findall(r"\d+", match.group("cjk"))
            value = _date_parts(numbers[0], numbers[1], numbers[2] if len(numbers) > 2 else None)
        elif match.group("ctime"):
            month, day, *_ = match.group("ctime").split()[1:]
            value = _words_date(f"{month} {day}, {year_of(match.group('ctime'))}")
        elif match.group("year_first"):
            value = _year_first_date(match.group("year_first"))
        elif match.group("range"):
            value = _range_date(match.group("range"))
        else:
            value = _words_date(match.group("words"))
        if value and _is_date(value):  # a run that reads as no date ("2018/0 Comments", "2018/19") is none
            found.append(value)
    if bare_years and not found:
        found = [match.group(1) for match in _YEAR.finditer(text) if not is_quantity(text, match.end())]
    return found


def _date_runs(text: str) -> Iterator[re.Match[str]]:
    """The date-like runs in `text`, in order; where a word and a year read as no date ("Nature. 2024", "Epub 2024"),
    the search goes on from the year, which may begin a year-first date ("Epub 2024 Mar 12")."""
    position = 0
    while match := _DATE_IN_TEXT.search(text, position):
        yield match
        words = match.group("words")
        position = match.end()
        if words and _words_date(words) is None and (space := re.search(r"\s(?=\d{4})", words)):
            position = match.start() + space.end()


_LABEL_WORDS_REACH = 40  # the length of a label that stands before its date with no colon
_LABEL_ON_DATE = re.compile(r"^(?P<label>[^\W\d][^:;|]{0,40}?)\s+on\s+(?P<value>[^:;|]{6,60})$", re.I)
# A publication history's online date, its label capitalised as labels are (a reference's "[published online ahead of
# print …]" is no label) and not set in brackets; the date right after it, even glued on ("…eLife.04407Published …").
_ONLINE_DATE = re.compile(
    r"(?<![\[(a-z])(?P<label>First published online|Published online ahead of print|Available online|"
    r"Version of Record online|Published online|Published)\s*:?\s+(?P<value>[^:;|\[\]()]{6,40}?(?:1[5-9]|20)\d\d)"
    r"(?!\d)"
)


def date_label_in_line(text: str, label_kind: Callable[[str], str | None]) -> tuple[str, str] | None:
    """(label, date) where a line writes a date label and its date with no colon between: "First published on (the
    web) 26th September 2016" (a label `label_kind` calls "date", then "on"), or a publication history's online
    date inside a longer line ("…, Accepted 8 October 2014, Available online 26 November 2014", "Published 15 June
    2016.DOI: …"); else None."""
    on = _LABEL_ON_DATE.match(text)
    if on and label_kind(on["label"]) == "date" and dates_in_text(on["value"]):
        return on["label"], on["value"]
    history = _ONLINE_DATE.search(text)
    if history and (dated := _DATE_IN_TEXT.match(history["value"])) and dated.end() == len(history["value"]):
        return history["label"], history["value"]
    # a line, or its last part after a comma, that is a date label and a date, nothing else: "released September
    # 14, 2013", "from Symmetry, released September 14, 2013" (an album's credits)
    line = " ".join(text.split())
    for part in [line, *(line[comma.end() :] for comma in re.finditer(r",\s", line))]:
        for space in (found.start() for found in re.finditer(" ", part[:_LABEL_WORDS_REACH])):
            label, value = part[:space], part[space + 1 :]
            dated = _DATE_IN_TEXT.match(value)
            if dated and dated.end() == len(value) and label_kind(label) == "date" and dates_in_text(value):
                return label, value
    return None


def tag_date(raw: str) -> str:
    """A tag's date as `normalise_date` writes it, or, where that cannot read it whole, the one date written in it
    ("Thursday, September 29, 2016" → "2016-09-29"), or its day in ISO 8601's basic format ("20180619T055000+0900":
    the day as written, in the tag's own zone)."""
    if basic := _BASIC_ISO.match(raw.strip()):
        return _date_parts(basic[1], basic[2], basic[3]) or raw.strip()
    normalised = normalise_date(raw)
    if _ISO_LIKE.match(normalised):
        return normalised
    found = dates_in_text(raw)
    return found[0] if len(found) == 1 else normalised


# a line that is nothing but a date with a two-digit year (and its time): "10.15.15", "3/09/15 8:00am",
# "10/16/12 at 1:13 PM"
_SHORT_YEAR_LINE = re.compile(
    r"^\s*(?P<a>\d{1,2})(?P<sep>[./])(?P<b>\d{1,2})(?P=sep)(?P<yy>\d\d)"
    r"(?:,?\s+(?:at\s+|@\s*)?\d{1,2}[:.]\d\d\s*(?:[ap]\.?m\.?)?(?:\s+[A-Z]{2,4}T)?)?(?:\s+(?P=a)(?P=sep)(?P=b)(?P=sep)(?P=yy)\b.*)?\s*$",
    re.I,
)


def short_year_dateline(text: str, *, today: date | None = None) -> str | None:
    """The day a line gives when it is nothing but a numeric date with a two-digit year (and its time), as a site's
    dateline writes it: the slashed form is month first ("3/09/15" is 9 March 2015, as American sites write it),
    the dotted one day first ("08.04.15"), unless its numbers allow only the other order ("10.15.15"). A year
    not yet reached this century is the last century's. None for any other line."""
    match = _SHORT_YEAR_LINE.match(text)
    if match is None:
        return None
    first, second, short = int(match["a"]), int(match["b"]), int(match["yy"])
    month, day = (first, second) if match["sep"] == "/" else (second, first)
    if month > 12:
        month, day = day, month
    century = 2000 if short <= (today or date.today()).year % 100 else 1900
    return _date_parts(str(century + short), month, str(day))


_SHORT_YEAR_DATE = re.compile(r"(?<![\w./])\d{1,2}([./])\d{1,2}\1\d\d(?!\d|[./]\d)")


def short_year_dates(text: str) -> list[str]:
    """The days written in `text` as numbers with a two-digit year ("on 11/15/13"), each read as
    `short_year_dateline` reads a dateline."""
    return [day for match in _SHORT_YEAR_DATE.finditer(text) if (day := short_year_dateline(match.group()))]


def without_dates(text: str, *, mark: str = " | ") -> str:
    """`text` with each date written in it replaced by `mark` ("By Laura E. Adkins | ")."""
    return _DATE_IN_TEXT.sub(mark, _unglued(text))


def htmldate_date(html: str, *, url: str | None, extensive: bool = False) -> str | None:
    """The date htmldate takes for the page's first publication (its meta tags, JSON-LD, time elements and
    text, not the URL's), as YYYY-MM-DD; None when it finds none. With `extensive`, htmldate also looks for a date
    in the page's text at large (its "extensive search": any element whose text is a date). Never raises."""
    try:
        from htmldate import find_date

        found: Any = find_date(html, original_date=True, extensive_search=extensive, url=url, outputformat="%Y-%m-%d")
    except Exception as exc:  # a page that trips htmldate gives no date, never an error
        logger.debug("htmldate failed: %s", exc)
        return None
    return str(found) if found else None


def _is_date(value: str) -> bool:
    """Whether `value` is a real YYYY-MM-DD, YYYY-MM or YYYY (not "2018-00", "2018-02-30" or unread text)."""
    if not _ISO_LIKE.match(value):
        return False
    year, month, day = (*(int(part) for part in value.split("-")), 1, 1)[:3]
    return _date_parts(str(year), month, str(day)) is not None


def _range_date(text: str) -> str | None:
    """A run of days as precisely as its two ends agree: "1-4 June 2004" is 2004-06, "30 May - 2 June 2004" 2004."""
    year = year_of(text)
    months = {_words_date(f"{word} {year}") for word in re.findall(rf"{_LETTER}{{3,10}}\.?", text)}
    if None in months or not year:
        return None  # a word that names no month: no run of days
    first, last = (int(day) for day in re.findall(r"(?<!\d)\d{1,2}(?!\d)", text)[:2])
    if len(months) == 1 and first >= last:
        # no run of days but a number before a date: "Number 10 - 5 October 2020"
        after = re.split(_TO, text, maxsplit=1)[1]
        return _words_date(after) if re.match(rf"\d{{1,2}}{_ORDINAL}\s+{_LETTER}", after) else None
    return months.pop() if len(months) == 1 else year


def _year_first_date(text: str) -> str | None:
    """A year-first date at the precision written: "2024 Mar 12" is 2024-03-12, "2024 Mar" 2024-03; a double
    issue's run of months ("2024 Mar-Apr") is dated by its first month, as PubMed dates it; a season ("2024
    Spring") is the year alone."""
    first = re.match(rf"\d{{4}}\s+(?:{_MONTH_WORD})\.?(?:\s+\d{{1,2}})?", text)
    return normalise_date(first.group()) if first else year_of(text)


def _day_first(text: str) -> str | None:
    day, month, year = (int(part) for part in re.split(r"[./-]", text))
    if month > 12 and day <= 12:  # "11/22/2022" is American
        day, month = month, day
    return _date_parts(str(year), month, str(day))


def _month_first(text: str) -> str | None:
    """A tag's "MM/DD/YYYY", read by dateparser in month-day-year order ("13/01/2003" can only be day-first)."""
    from dateparser import parse

    order = "DMY" if int(text.split("/")[0]) > 12 else "MDY"
    found = parse(text, settings={"DATE_ORDER": order, "REQUIRE_PARTS": ["day", "month", "year"]})
    return found.date().isoformat() if found else None


@lru_cache(maxsize=1)
def _parser() -> Any:
    from dateparser.date import DateDataParser

    return DateDataParser(languages=_LANGUAGES, settings={"PREFER_DAY_OF_MONTH": "first", "REQUIRE_PARTS": ["year"]})


@lru_cache(maxsize=4096)
def _words_date(text: str) -> str | None:
    """A date written with a month word, in one of the corpus's languages, at the precision written."""
    clean = normalise_date(text)
    if clean != " ".join(text.split()):
        return clean
    if named := _TWO_NAMES.search(text):
        # a month in two names: the date both readings give, where the other names no month or the same one
        readings = {_words_date(text.replace(named[0], name)) for name in named[0].split("/")} - {None}
        return readings.pop() if len(readings) == 1 else None
    try:
        data = _parser().get_date_data(text)
    except Exception as exc:  # dateparser rejects some inputs by raising
        logger.debug("dateparser could not read %r: %s", text, exc)
        return None
    if data is None or data.date_obj is None or data.period not in ("day", "month"):
        return None
    found = data.date_obj.date()
    return found.isoformat() if data.period == "day" else f"{found.year:04d}-{found.month:02d}"


def _date_parts(year: str, month: str | int | None, day: str | None, *, named: bool = False) -> str | None:
    if named and month is None:
        return None
    try:
        if month is None:
            return f"{int(year):04d}"
        if day is None:
            date(int(year), int(month), 1)
            return f"{int(year):04d}-{int(month):02d}"
        return date(int(year), int(month), int(day)).isoformat()
    except ValueError:
        return None


def iso_date_shown(shown: str | None) -> str | None:
    """The date a text shows ("3 May 2025", "2025/05/03", "bioRxiv ; 2026 Aug 6 · ID") as ISO, or None when it
    shows no recognisable date: the first date among its first twelve words."""
    words = (shown or "").replace(",", " , ").split()[:12]
    for start in range(len(words)):  # the date may sit inside words: "Submitted 3 May 2025 (v2)"
        for end in range(len(words), start, -1):
            value = normalise_date(" ".join(words[start:end]).strip(" .;:()"))
            if _ISO_LIKE.match(value):
                return value
    return None
