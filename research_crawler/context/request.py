"""What the user's request asks of the report: how many items ("five papers", "top 10")."""

from __future__ import annotations

import re

__all__ = ["requested_count"]

_WORDS = {
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
