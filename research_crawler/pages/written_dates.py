"""Whether a page writes a day anywhere a reader may see it: in the text of its body, hidden from assistive readers
or not (a dateline marked aria-hidden is still shown), in any of the ways people write a day — "Friday 18 November
2011", "04.10.17", "7/12/21" — never in a script or a style. A tag's day written nowhere is a stamp the page does
not show its readers."""

from __future__ import annotations

import datetime
import re

from research_crawler.pages.html_tree import parse_html
from research_crawler.pages.item_dates import dates_in_text

__all__ = ["next_day", "writes_day"]

# a day written in numbers, its year in two digits or four: "04.10.17", "7/12/21", "18-11-2011"
_NUMERIC_DAY = re.compile(r"(?<![\d.:/-])(\d{1,2})([./-])(\d{1,2})\2(\d{4}|\d{2})(?![\d]|[./-]\d)")
_NO_TEXT = ("script", "style", "noscript", "template")


def _all_text(html: str) -> str:
    """The text of every element of the page's body, those hidden from assistive readers too (a dateline marked
    aria-hidden is still shown), never a script's or a style's."""
    tree = parse_html(html)
    body = tree.find(".//body") if tree is not None else None
    if body is None:
        return ""
    parts: list[str] = []
    for element in body.iter():
        if not isinstance(element.tag, str) or element.tag in _NO_TEXT:
            parts.append(element.tail or "")
            continue
        parts += [element.text or "", element.tail or ""]
    return " ".join(" ".join(parts).split())


def writes_day(html: str, day: str) -> bool:
    """Whether the page's text writes `day` (YYYY-MM-DD), or the day beside it (a tag's timestamp in another time
    zone than the day shown), as a date: with its month in words or its numbers in either order, its year in two
    digits or four."""
    if len(day) != len("YYYY-MM-DD"):
        return False
    text = _all_text(html)
    if any(written == day or next_day(written, day) for written in dates_in_text(text)):
        return True
    month, date_of_month = int(day[5:7]), int(day[8:10])
    return any(
        written_year in (day[:4], day[2:4])
        and (int(first), int(second)) in ((month, date_of_month), (date_of_month, month))
        for first, _, second, written_year in _NUMERIC_DAY.findall(text)
    )


def next_day(one: str, other: str) -> bool:
    """Whether two days (YYYY-MM-DD) are a day apart."""
    try:
        return abs((datetime.date.fromisoformat(one) - datetime.date.fromisoformat(other)).days) == 1
    except ValueError:
        return False
