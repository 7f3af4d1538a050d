"""The request as a contract: what the user asked of the report — the topic, how many items, which dates,
in what order, which kind, which fields, on which sites, by whom — typed, validated and shown in one line.

`ResearchRequest` is part of the Search Context (Q made explicit). The Web Selector fills it with its
`record_request` tool; `request_rules.read_request` gives the same object from simple rules.
"""

from __future__ import annotations

import calendar
import re
from datetime import date, timedelta
from typing import Literal, Self

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from research_crawler.errors import ConfigError
from research_crawler.text.untrusted import untrusted

__all__ = [
    "COUNT_PATTERN",
    "FIELDS",
    "MAX_QUERY_CHARS",
    "NUMBER_WORDS",
    "DateFit",
    "Order",
    "ResearchRequest",
    "checked_item_kind",
    "checked_query",
    "date_span",
    "requested_count",
]

Order = Literal["relevance", "newest"]
DateFit = Literal["inside", "outside", "unknown"]
#: The fields a request may ask for, in the order a report shows them.
FIELDS = ("title", "authors", "date", "abstract", "link", "doi", "pdf")
_ISO = re.compile(r"^(\d{4})(?:-(\d{2})(?:-(\d{2}))?)?$")
#: The longest request taken, wherever it comes from (ask, chat, batch files, the API, the web app).
MAX_QUERY_CHARS = 2000
_EXAMPLE_QUERY = '"papers on graph neural networks"'


#: A kind of item in words ("paper", "job post", "dataset"): what the report names its entries, so nothing else.
_ITEM_KIND = re.compile(r"[^\W_][\w '’-]{0,59}")


def checked_item_kind(value: str) -> str:
    """`value` with its spaces tidied, when it names a kind of item in words (letters first; digits, spaces,
    hyphens and apostrophes after; at most 60 characters): the report writes it in its headings and counts.
    ValueError otherwise (a control character, markup, a sentence)."""
    kind = " ".join(value.split())
    if not _ITEM_KIND.fullmatch(kind):
        shown = kind[:40].encode("unicode_escape").decode("ascii")
        raise ValueError(f"the item kind is a word or two, e.g. paper, dataset, job post (not '{shown}')")
    return kind


def checked_query(
    text: str, *, what: str = "the query", example: str = _EXAMPLE_QUERY, count_alone: bool = False
) -> str:
    """`text` without surrounding space and without control, bidi or zero-width characters (a query may come from a
    batch file or a web form: it is printed back), when it can be a request: words (at least one letter) and at most
    `MAX_QUERY_CHARS` characters; with `count_alone` (a follow-up) a number of items alone too ("3"). Otherwise
    ConfigError, one line saying why and what to write instead, e.g. `example`: "0" asks for nothing, and a
    document pasted as a query is not a request."""
    stripped = untrusted(text).strip()
    if not stripped:
        raise ConfigError(f"{what} is empty: say what to look for, e.g. {example}")
    if len(stripped) > MAX_QUERY_CHARS:
        raise ConfigError(
            f"{what} is {len(stripped):,} characters long; a request is at most {MAX_QUERY_CHARS:,}: say what to look "
            f"for in a sentence or two, e.g. {example}"
        )
    said_count = count_alone and stripped.isdecimal() and 0 < int(stripped) <= 200
    if not said_count and not any(character.isalpha() for character in stripped):
        raise ConfigError(f"{what} {stripped[:40]!r} has no words: say what to look for, e.g. {example}")
    return stripped


def date_span(value: str | None) -> tuple[date, date] | None:
    """The days an ISO date stands for: '2025' is all of 2025, '2025-03' all of March; None when unreadable."""
    match = _ISO.match((value or "").strip())
    if match is None:
        return None
    year, month, day = int(match.group(1)), match.group(2), match.group(3)
    try:
        if day is not None and month is not None:
            exact = date(year, int(month), int(day))
            return exact, exact
        if month is not None:
            last = calendar.monthrange(year, int(month))[1]
            return date(year, int(month), 1), date(year, int(month), last)
        return date(year, 1, 1), date(year, 12, 31)
    except ValueError:
        return None


class ResearchRequest(BaseModel):
    """What the request asks of the report. Anything the reader could not map stays in `unmapped`."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    text: str = Field(description="The request as the user wrote it.")
    topic: str = Field(default="", description="What to search for: the subject alone, without counts or dates.")
    count: int | None = Field(default=None, ge=1, le=200, description="How many items, when a number is asked.")
    date_from: date | None = Field(default=None, description="Earliest date an item may have (inclusive).")
    date_to: date | None = Field(default=None, description="Latest date an item may have (inclusive).")
    recent: bool = Field(default=False, description="'Recent' or 'latest' without dates: a window up to today.")
    order: Order = Field(default="relevance", description="newest: the items by date, newest first.")
    item_kind: str | None = Field(default=None, description="paper, dataset…, when the request names a kind.")
    fields: list[str] = Field(default_factory=list, description=f"Fields asked for, of: {', '.join(FIELDS)}.")
    fields_only: bool = Field(default=False, description="Only those fields ('titles and dates only').")
    sites: list[str] = Field(default_factory=list, description="Sites named in the request: URLs or names.")
    authors: list[str] = Field(default_factory=list, description="Authors the request names.")
    unmapped: str = Field(default="", description="What the request asks that none of the fields above holds.")
    like: str = Field(
        default="", description="'More like this': the title of the item found before; it is not shown again."
    )

    @field_validator("item_kind")
    @classmethod
    def _kind_in_words(cls, value: str | None) -> str | None:
        return checked_item_kind(value) if value is not None else None

    @field_validator("fields")
    @classmethod
    def _known_fields(cls, value: list[str]) -> list[str]:
        unknown = sorted(set(value) - set(FIELDS))
        if unknown:
            raise ValueError(f"unknown field(s) {unknown}; fields are {', '.join(FIELDS)}")
        return [field for field in FIELDS if field in value]

    @model_validator(mode="after")
    def _dates_in_order(self) -> Self:
        if self.date_from is not None and self.date_to is not None and self.date_from > self.date_to:
            raise ValueError(f"date_from {self.date_from} is after date_to {self.date_to}")
        return self

    @property
    def search_words(self) -> str:
        """What a site's search box gets: the topic, or the request itself when no topic was read."""
        return self.topic.strip() or self.text.strip()

    def window(self, *, today: date, recent_days: int) -> tuple[date | None, date | None]:
        """The dates an item must fall in: the explicit ones, else for 'recent' the last `recent_days` days."""
        if self.date_from is None and self.date_to is None and self.recent:
            return today - timedelta(days=recent_days), today
        return self.date_from, self.date_to

    def has_dates(self) -> bool:
        return self.date_from is not None or self.date_to is not None or self.recent

    def date_fit(self, value: str | None, *, today: date, recent_days: int) -> DateFit:
        """Whether an item dated `value` (ISO, possibly only a year or month) meets the date constraint."""
        start, end = self.window(today=today, recent_days=recent_days)
        if start is None and end is None:
            return "inside"
        span = date_span(value)
        if span is None:
            return "unknown"
        first, last = span
        if (start is not None and last < start) or (end is not None and first > end):
            return "outside"
        if (start is not None and first < start) or (end is not None and last > end):
            return "unknown"  # a year-only date that straddles the window's edge
        return "inside"

    def describe_dates(self, *, today: date, recent_days: int, in_sentence: bool = False) -> str:
        """The date constraint in words: '2025 only' ('in 2025' `in_sentence`), 'since 2024-03-01', 'the last
        365 days' ('in the last 365 days')."""
        start, end = self.date_from, self.date_to
        if start is None and end is None:
            return ("in " if in_sentence else "") + f"the last {recent_days} days" if self.recent else ""
        if start is not None and end is not None:
            if (start.month, start.day, end.month, end.day) == (1, 1, 12, 31):
                if start.year == end.year:
                    return f"in {start.year}" if in_sentence else f"{start.year} only"
                return f"{'in ' if in_sentence else ''}{start.year}–{end.year}"
            return f"{'from ' if in_sentence else ''}{start.isoformat()} to {end.isoformat()}"
        if start is not None:
            return f"since {start.year}" if (start.month, start.day) == (1, 1) else f"since {start.isoformat()}"
        assert end is not None
        return f"until {end.year}" if (end.month, end.day) == (12, 31) else f"until {end.isoformat()}"

    def summary(self, *, today: date, recent_days: int, item_kind: str = "paper") -> str:
        """The contract in one line: '5 papers · 2025 only · newest first · titles and dates'."""
        kind = self.item_kind or item_kind
        parts = [f"1 {kind}" if self.count == 1 else f"{self.count} {kind}s" if self.count else f"{kind}s"]
        if self.topic:
            parts[0] += f" on {self.topic}"
        if dates := self.describe_dates(today=today, recent_days=recent_days):
            parts.append(dates)
        if self.order == "newest":
            parts.append("newest first")
        if self.fields:
            names = [_FIELD_WORDS[field] for field in self.fields]
            shown = " and ".join(names) if len(names) <= 2 else ", ".join(names[:-1]) + " and " + names[-1]
            parts.append(shown + (" only" if self.fields_only else ""))
        if self.authors:
            parts.append("by " + ", ".join(self.authors))
        if self.sites:
            parts.append("on " + ", ".join(self.sites))
        return " · ".join(parts)


_FIELD_WORDS = {
    "title": "titles",
    "authors": "authors",
    "date": "dates",
    "abstract": "abstracts",
    "link": "links",
    "doi": "DOIs",
    "pdf": "PDF links",
}

NUMBER_WORDS = _WORDS = {
    "one": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
    "eleven": 11,
    "twelve": 12,
    "fifteen": 15,
    "twenty": 20,
    "a couple of": 2,
    "a few": 3,
    "dozen": 12,
    "a dozen": 12,
}
_NUMBER = r"(\d{1,3}|" + "|".join(sorted(map(re.escape, _WORDS), key=len, reverse=True)) + r")"
_COUNT = re.compile(
    rf"\b(?:top|best|first|find|list|give me|show me|get|recommend|suggest)?\s*{_NUMBER}\s+"
    r"(?:\w+[\s-]+){0,6}?(?:papers?|articles?|preprints?|publications?|items?|studies|results?|works?|"
    r"datasets?|reviews?|documents?|entries|sources?|references?)\b",
    re.IGNORECASE,
)
#: The phrase `_COUNT` matched, for the readers that take it out of the topic.
COUNT_PATTERN = _COUNT


def requested_count(query: str) -> int | None:
    """The number of items the request asks for, or None when it names none.

    >>> requested_count("find five recent papers on protein design")
    5
    >>> requested_count("top 3 preprints about CRISPR, titles only")
    3
    >>> requested_count("papers on graph neural networks") is None
    True
    """
    match = _COUNT.search(query)
    if match is None:
        return None
    raw = match.group(1).lower()
    value = int(raw) if raw.isdigit() else _WORDS[raw]
    return value if 0 < value <= 200 else None
