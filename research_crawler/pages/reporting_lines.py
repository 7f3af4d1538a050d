"""A writer named on a line of their own a few lines under the title, over the line that says they write — "Atli
Steinn Guðmundsson" over "skrifar frá Porsgrunn", "Jane Doe" over "reports from Kyiv", "Max Muster" over "berichtet
aus Brüssel" — or over the item's date ("Ángeles Escrivá | Madrid" over "Actualizado domingo 28/10/2012 03:21
horas"): a correspondent's byline set in two lines, past a standfirst's points (often in the page's furniture,
where a reader still reads it as the byline). And the line right under the title that is "by" and the writer's
linked name, run together by the page's markup ("bySauli Giliard"). And a "By" line a few lines under the title past
the lead photo's credit and caption ("Getty Images" / "The governor at the White House in 2018." / "By Jane Doe |
Example Media"): the photo's lines are the page's furniture, the byline under them the item's."""

from __future__ import annotations

import re
from typing import Any

from research_crawler.pages.bylines import names_after_by
from research_crawler.pages.item_dates import dates_in_text
from research_crawler.pages.person_names import split_people

__all__ = ["by_glued_to_link", "by_line_past_the_photo", "writer_over_date_line", "writer_over_reporting_line"]

# "writes", "reports", "reporting" in the languages pages are written in, opening the line under the name
_WRITES = re.compile(
    r"^(?:writes|reports|reporting|skrifar|skriver|skrev|schreibt|berichtet|schrijft|rapporteert|écrit|rapporte"
    r"|escribe|informa|scrive|racconta|kirjoittaa|rapporterer|rapporterar|pisze|píše)\b",
    re.I,
)
_NEAR = 6  # blocks under the title where the byline may stand (a standfirst, a photo between)
_LINE_WORDS = 8
_DATE_LINE_WORDS = 10  # "Actualizado domingo 28/10/2012 03:21 horas"
# a place after the name, as a correspondent's byline gives it: "Ángeles Escrivá | Madrid", "Jane Doe, Kyiv"
# a byline's opening words, then a colon or a space: "By ", "Posted By: ", "Written by "
_OPENS_WITH_BY = re.compile(r"^(?:(?:posted|written|published|story|text|words)\s+)?by(?::\s*|\s+)", re.I)
_PLACE = re.compile(r"\s*[|,•·]\s*[A-ZÀ-Þ][^\W\d_]+(?:\s+[A-ZÀ-Þ][^\W\d_]+)?$")


def writer_over_reporting_line(blocks: list[Any], index: int) -> list[str]:
    """The one person named on a line right over a short line that says they write or report, a few blocks under
    the title (block `index`); [] where no such pair stands there."""
    for position in range(index + 1, min(len(blocks) - 1, index + 1 + _NEAR)):
        named, saying = blocks[position].text.strip(), blocks[position + 1].text.strip()
        if len(saying.split()) > _LINE_WORDS or not _WRITES.match(saying):
            continue
        people = split_people(named)
        if len(people) == 1:
            return people
    return []


def writer_over_date_line(blocks: list[Any], index: int) -> list[str]:
    """The one person named on a short line of their own, a place after the name or none, right over a line that
    gives the item's date, a few blocks under the title (block `index`) and outside the page's chrome."""
    for position in range(index + 1, min(len(blocks) - 1, index + 1 + _NEAR)):
        block, under = blocks[position], blocks[position + 1]
        if block.chrome or block.heading or len(block.text.split()) > _LINE_WORDS:
            continue
        if len(under.text.split()) > _DATE_LINE_WORDS or not dates_in_text(under.text, bare_years=False):
            continue
        people = split_people(_PLACE.sub("", block.text.strip()))
        if len(people) == 1:
            return people
    return []


def by_glued_to_link(blocks: list[Any], index: int) -> list[str]:
    """The person linked on the line right under the title (block `index`) where that line is only "by" and the
    link, run together or not ("bySauli Giliard"), or where the link follows the line's "By" at once and the rest
    of the line runs on glued to it ("Posted By: Hannah Curranon: March 02, 2022In: Education": the link sets the
    name apart from the date line's words); [] for any other line."""
    for block in blocks[index + 1 : index + 2]:
        text = block.text.strip()
        if not block.links:
            continue
        link = block.links[0]
        if len(block.links) == 1 and text[:2].casefold() == "by" and text[2:].strip() == link:
            return people if len(people := split_people(link)) == 1 else []
        opener = _OPENS_WITH_BY.match(text)
        if opener and text[opener.end() :].startswith(link) and len(people := split_people(link)) == 1:
            return people
    return []


def by_line_past_the_photo(blocks: list[Any], index: int) -> list[str]:
    """The names of a "By" line a few blocks under the title (block `index`) where only the page's furniture (a
    photo's credit and caption, sharing buttons) and short date and time lines stand between; [] where the story's
    text, a heading or another line comes first."""
    for block in blocks[index + 1 : index + 1 + _NEAR]:
        text = block.text.strip()
        if block.heading:
            return []
        if not block.chrome and _OPENS_WITH_BY.match(text):
            return names_after_by(text)
        # (a date line may give no year, "Updated Nov 19, 9:41 AM;Posted Nov 18, 8:19 PM": a short line of numbers)
        if not block.chrome and not (len(text.split()) <= _DATE_LINE_WORDS and re.search(r"\d", text)):
            return []
    return []
