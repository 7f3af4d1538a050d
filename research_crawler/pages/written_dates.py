"""Whether a text writes a day as a reader may read it — "Friday 18 November 2011", "04.10.17", "7/12/21" — and the
text a page writes in elements it hides from assistive readers only (a dateline marked aria-hidden is still shown
on screen), never a script's or a style's: a tag's day written nowhere is a stamp the page does not show. Where the
page's tags give different days, the one the page writes is the item's."""

from __future__ import annotations

import datetime
import re
from collections.abc import Callable
from typing import Any

from research_crawler.pages.html_tree import parse_html
from research_crawler.pages.item_dates import dates_in_text, year_of
from research_crawler.pages.metadata_sources import Reading
from research_crawler.pages.other_calendars import calendar_days
from research_crawler.pages.page_shows import VisiblePage, hidden_from_readers

__all__ = ["hidden_text", "marked_published_text", "next_day", "page_writes", "tag_the_page_writes", "writes_day"]

# a day written in numbers, its year in two digits or four: "04.10.17", "7/12/21", "18-11-2011"
_NUMERIC_DAY = re.compile(r"(?<![\d.:/-])(\d{1,2})([./-])(\d{1,2})\2(\d{4}|\d{2})(?![\d]|[./-]\d)")
_NO_TEXT = ("script", "style", "noscript", "template")
# schema.org's types of a reply to the item, and the names a theme gives its readers' comments
_REPLY_TYPE = re.compile(r"(?:Comment|Answer|Review)$")
_REPLIES = re.compile(r"(?:^|[\s_-])comments?(?:$|[\s_-])", re.I)


def _names(element: Any) -> str:
    return f"{element.get('id') or ''} {element.get('class') or ''}"


def hidden_text(document: str | Any) -> str:
    """The text of the elements of the page's body hidden from its reader view (aria-hidden, screen-reader-only,
    hidden by a class or style): a dateline a theme shows on screen may be marked so. `document` is the page's
    HTML or its parsed tree (which is not changed); a hidden element inside another is read once, with it."""
    tree = parse_html(document) if isinstance(document, str) else document
    body = tree.find(".//body") if tree is not None else None
    if body is None:
        return ""
    parts: list[str] = []
    inside: set[Any] = set()  # the elements read already, inside a hidden one
    for element in body.iter():
        if element in inside or not isinstance(element.tag, str) or element.tag in _NO_TEXT:
            continue
        if hidden_from_readers(element):
            for node in element.iter():
                inside.add(node)
                if isinstance(node.tag, str) and node.tag not in _NO_TEXT:
                    parts += [node.text or "", node.tail or "" if node is not element else ""]
    return " ".join(" ".join(parts).split())


def marked_published_text(document: str | Any) -> str:
    """The text a reader sees in the elements of the page's body that schema.org microdata marks as its own item's
    publication date (itemprop="datePublished" in an item that is no other item's property and no reply to it —
    not a comment's, an answer's or a teaser's — outside the readers' comments): a dateline so marked is the item's
    own, wherever the page's layout sets it. `document` is the page's HTML or its parsed tree (not changed)."""
    tree = parse_html(document) if isinstance(document, str) else document
    if tree is None:
        return ""
    parts: list[str] = []
    for element in tree.xpath("//body//*[@itemprop='datePublished']"):
        scope = next((above for above in element.iterancestors() if above.get("itemscope") is not None), None)
        ancestry = [node for node in (element, *element.iterancestors()) if isinstance(node.tag, str)]
        if scope is not None and (scope.get("itemprop") or _REPLY_TYPE.search(scope.get("itemtype") or "")):
            continue  # another item's: a comment's, an answer's, a review's, a teaser's
        if any(node.tag in _NO_TEXT or hidden_from_readers(node) or _REPLIES.search(_names(node)) for node in ancestry):
            continue
        parts.append(element.text_content())
    return " | ".join(" ".join(part.split()) for part in parts)


def writes_day(text: str, day: str) -> bool:
    """Whether `text` writes `day` (YYYY-MM-DD), or the day beside it (a tag's timestamp in another time zone than
    the day shown), as a date: with its month in words or its numbers in either order, its year in two digits or
    four, or in another calendar that converts to that day ("31 اردیبهشت 1403" is 2024-05-20)."""
    if len(day) != len("YYYY-MM-DD"):
        return False
    if any(written == day or next_day(written, day) for written in [*dates_in_text(text), *calendar_days(text)]):
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


def page_writes(
    page: VisiblePage,
    document: str | Any,
    day: str,
    reach: tuple[int | None, int, int],
    presents: Callable[[str], bool],
) -> bool:
    """Whether the page writes a tag's date where a reader sees it (`writes_day`): outside the chrome, in the chrome
    within `reach` of a showing of the title (its block, the blocks before and after it: a theme's dateline), or
    in a dateline hidden from assistive readers (`document`: the page's HTML or its parsed tree); or its year in a
    line outside the chrome that `presents` as a date ("11 Tetor, 2019", "First published in 2018"), outside the
    title's own words."""
    title_index, before, after = reach
    title = page.blocks[title_index].words if title_index is not None else None
    anchors = [block.index for block in page.blocks if title and block.words == title]
    year = year_of(day)
    for block in page.blocks:
        if block.chrome and not any(-before <= block.index - anchor <= after for anchor in anchors):
            continue  # a comment's date, a teaser's: another item's
        # (a year in the item's own title is what it is about, "Top Trends in 2025", not its date)
        words = f" {block.words} ".replace(f" {title} ", " ") if title else f" {block.words} "
        if writes_day(block.text, day) or (year and not block.chrome and f" {year} " in words and presents(block.text)):
            return True
    return writes_day(hidden_text(document), day)


def tag_the_page_writes(readings: list[Reading], page: VisiblePage) -> Reading | None:
    """The first tag that gives a day (YYYY-MM-DD) — or, where the page writes that day nowhere and another tag's
    day it writes as a date, that other tag: a CMS's creation stamp a day after the publication the page shows and
    another vocabulary gives ("dateCreated" 2017-11-17 in JSON-LD, microdata's datePublished and the dateline's
    "16 November 2017"). None where no tag gives a day."""
    days = [reading for reading in readings if reading.date and len(reading.date) == len("YYYY-MM-DD")]
    if len({reading.date for reading in days}) < 2:
        return days[0] if days else None
    written = {day for block in page.blocks for day in dates_in_text(block.text)}
    if days[0].date in written:
        return days[0]
    return next((reading for reading in days if reading.date in written), days[0])
