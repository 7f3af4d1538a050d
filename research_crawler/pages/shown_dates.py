"""The date of a page's item: the publication date the page shows (beside a label that says so, or written near
its title, a dateline first), against the date its tags give — a tag's date is believed when the page shows its
year; where it does not and the page shows another, what the page shows wins (the rule of `metadata`)."""

from __future__ import annotations

import re

from research_crawler.pages.item_dates import dates_in_text, htmldate_date, without_dates, year_of
from research_crawler.pages.metadata_sources import MetadataSource, Reading
from research_crawler.pages.page_shows import VisiblePage

__all__ = ["DATE_REACH_AFTER", "DATE_REACH_BEFORE", "DateDecision", "decide_date"]

_NOT_PUBLICATION = re.compile(
    r"\b(?:updated?|modified|modification|created|received|accepted|revised|submitted|accessed|retrieved|copyright|"
    r"aktualisiert|aggiornamento|soumis|eingereicht|deposited|last|"
    # the end of a period, an embargo's or an offer's ("gesperrt bis 05.05.2024", "embargoed until 1 May 2025")
    r"until|till|embargo(?:ed)?|gesperrt|sperrfrist|bis|jusqu'?(?:au|à)|fino al|hasta)\b|©",
    re.I,
)
DATE_REACH_BEFORE, DATE_REACH_AFTER = 4, 10
_YEAR_REACH = (4, 3)
_BESIDE_TITLE = 2  # blocks from the title within which a dateline in the page's chrome still counts
_DATELINE_WORDS = 12  # the words a dateline has besides its date ("um 16:14 Uhr - Markus Reuter - 91 Ergänzungen")
_SENTENCE_WORDS = 6  # a line of as many words besides its date, ended by a full stop, is a sentence
_YEAR_LINE_WORDS = 30  # a year alone counts in a short line (a citation line), never in a paragraph
_CITED_TITLE_WORDS = 4  # a title as long as this, repeated in a line with a year, is a citation of the item
_YEAR_IN_BRACKETS = re.compile(r"\((1[5-9]\d\d|20\d\d)[a-z]?\)")


#: A date decided: its value, where it was read, and the tag it overruled (None: none).
DateDecision = tuple[str | None, MetadataSource | None, str | None]


def decide_date(
    readings: list[Reading], page: VisiblePage, title_index: int | None, *, html: str, url: str
) -> DateDecision:
    """The item's date by the rule of the module docstring, where it was read, and the note on a tag it overruled."""
    tagged = next((r for r in readings if r.date and year_of(r.date)), None)
    shown = _shown_date(page, title_index)
    if tagged is not None:
        year = year_of(tagged.date)
        if shown is not None and year is not None and not page.shows(year):
            return *shown, f"the page's {tagged.source} date {tagged.date} is not shown; the page shows {shown[0]}"
        if shown is not None and len(shown[0]) > len(tagged.date or "") and shown[0].startswith(tagged.date or "?"):
            return *shown, None  # the page shows the same date more precisely
        if (labelled := _labelled_day_instead(page, tagged.date or "")) is not None:
            return (
                labelled,
                "page_field",
                f"the page's {tagged.source} date {tagged.date} is not shown; the page says {labelled}",
            )
        return tagged.date, tagged.source, None
    if shown is not None:
        return *shown, None
    found = htmldate_date(html, url=url if url.startswith("http") else None)
    if found and _history_date_only(page, found):
        return None, None, None  # "(Received December 10 2015)": when the work was received, not published
    year = year_of(found)
    if year and any(
        f" {year} " in f" {block.words} " and not block.chrome and not _NOT_PUBLICATION.search(block.text)
        for block in page.blocks
    ):
        # its day too, where the page writes that day (in a dateline its theme sets apart: "8. April 2019|")
        shown_days = {day for block in page.blocks for day in dates_in_text(block.text)}
        return (found if found in shown_days else year), "htmldate", None
    return None, None, None


def _history_date_only(page: VisiblePage, day: str) -> bool:
    """Whether the page writes `day` only in lines that date another event than publication (received, revised,
    accepted, updated): the date htmldate took from the text is then none of the work's publication."""
    lines = [block.text for block in page.blocks if day in dates_in_text(block.text)]
    return bool(lines) and all(_NOT_PUBLICATION.search(line) for line in lines)


def _dateline(text: str) -> bool:
    """Whether a line is about its date: a date with a few words besides (a time, a name), not a sentence."""
    besides = len(without_dates(text).replace("|", " ").split())
    sentence = text.rstrip().endswith((".", "!", "?")) and besides >= _SENTENCE_WORDS
    return besides <= _DATELINE_WORDS and not sentence


def _labelled_day_instead(page: VisiblePage, tagged: str) -> str | None:
    """The day the page labels as the work's publication ("First published: 10 November 2015") where a tag gives
    a day the page never shows — an issue's cover date made the 1st of its month, a record's date of entry — or
    only the issue's year ("2012" for "First published on 10th November 2011"), in the same year or the next: None
    when the page shows the tag's day or labels no day."""
    year = year_of(tagged)
    days = [value for _, value in page.labelled_dates() if len(value) == 10]
    if not days or year is None or len(tagged) not in (4, 10) or tagged in days:
        return None  # a tag's month ("2021/08", an issue's) is kept as the tag gives it
    if not 0 <= int(year) - int(days[0][:4]) <= 1:
        return None
    shown_days = {found for block in page.blocks if not block.chrome for found in dates_in_text(block.text)}
    return None if tagged in shown_days else days[0]


def _shown_date(page: VisiblePage, title_index: int | None) -> tuple[str, MetadataSource] | None:
    """The publication date the page shows: beside a label that says so, else written near the title (where the
    page shows the title more than once, near any of them): a date with a month first, nearest the title first;
    then a year alone just around it, as in "Vol. 37 (2008)" or "68 (4), 2023: 709"."""
    labelled = page.labelled_dates()
    if labelled:
        return labelled[0][1], "page_field"
    if title_index is None:
        return None
    title = page.blocks[title_index].words
    anchors = [b.index for b in page.blocks if b.words == title] or [title_index]
    for bare_years, (before, after) in ((False, (DATE_REACH_BEFORE, DATE_REACH_AFTER)), (True, _YEAR_REACH)):
        near: dict[int, int] = {}
        for anchor in anchors:
            for block in page.blocks[max(0, anchor - before) : anchor + after + 1]:
                near[block.index] = min(near.get(block.index, 1_000), abs(block.index - anchor))
        # a date on a line of its own (a dateline, a byline) is the page's; one in a paragraph is what it tells of
        for index in sorted(near, key=lambda i: (not _dateline(page.blocks[i].text), near[i], i)):
            block = page.blocks[index]
            # chrome's dates are the site's, unless right beside the title (a theme may set its dateline apart)
            beside = near[index] <= _BESIDE_TITLE and _dateline(block.text)
            if (block.chrome and not page.blocks[title_index].chrome and not beside) or _NOT_PUBLICATION.search(
                block.text
            ):
                continue
            if bare_years and len(block.text.split()) > _YEAR_LINE_WORDS:
                continue
            dates = dates_in_text(block.text, bare_years=bare_years)
            if dates:
                return dates[0], "page_text"
    cited = _cited_year(page, title_index)
    return (cited, "page_text") if cited else None


def _cited_year(page: VisiblePage, title_index: int) -> str | None:
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
