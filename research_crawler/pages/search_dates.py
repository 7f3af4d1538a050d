"""The date and sort fields of a search form ("year", "from"/"to", "sort by date"), read from its controls,
and a search URL with them filled from a request's dates — so a site's own search does the filtering.
"""

from __future__ import annotations

import re
from datetime import date

import lxml.html
from pydantic import BaseModel, Field

from research_crawler.pages.html_forms import FormSubmission

__all__ = ["DateFields", "find_date_fields", "with_dates"]

_YEAR_NAME = re.compile(r"(?:^|[_.\-\[])(?:year|yr|py)(?:$|[_.\-\]])", re.I)
_START_NAME = re.compile(r"(?:from|start|begin|after|since|min|lower)", re.I)
_END_NAME = re.compile(r"(?:to|end|until|before|max|upper)$|(?:_to_|until|before)", re.I)
_DATE_WORD = re.compile(r"date|year|time|publi|posted|limit|period", re.I)
_SORT_NAME = re.compile(r"sort|order", re.I)
_NEWEST = re.compile(r"newest|latest|recent|date.?desc|desc.?date|publication.?date|pub.?date|^date$", re.I)


class DateFields(BaseModel):
    """Where a form takes dates: one `year` field, or a `start`/`end` pair (years or ISO dates), and how to
    sort by date (`sort` field set to `newest`)."""

    year: str | None = None
    start: str | None = None
    end: str | None = None
    years_only: bool = Field(default=False, description="The start/end fields take a year, not a date.")
    sort: str | None = None
    newest: str | None = None

    @property
    def any(self) -> bool:
        return any((self.year, self.start, self.end, self.sort))


def find_date_fields(controls: list[lxml.html.HtmlElement]) -> DateFields:
    """The date and sort fields among a form's `controls` (by their names, labels and options)."""
    found = DateFields()
    for control in controls:
        name = control.get("name") or ""
        if not name:
            continue
        kind = (control.get("type") or "text").lower()
        words = " ".join([name, control.get("id", ""), control.get("placeholder", ""), control.get("aria-label", "")])
        if control.tag == "select" and _SORT_NAME.search(name):
            newest = next((v for v, text in _options(control) if _NEWEST.search(v) or _NEWEST.search(text)), None)
            if newest is not None:
                found = found.model_copy(update={"sort": name, "newest": newest})
            continue
        if _YEAR_NAME.search(name) and not _START_NAME.search(name) and not _END_NAME.search(name):
            found = found.model_copy(update={"year": name})
        elif _DATE_WORD.search(words) or kind == "date":
            years = kind == "number" or bool(_YEAR_NAME.search(name))
            if _START_NAME.search(name):
                found = found.model_copy(update={"start": name, "years_only": years})
            elif _END_NAME.search(name):
                found = found.model_copy(update={"end": name, "years_only": years})
    return found


def with_dates(
    submission: FormSubmission, fields: DateFields, *, start: date | None, end: date | None, newest: bool
) -> tuple[FormSubmission, list[str]]:
    """`submission` (a search built from the form) with its date fields set to `start`/`end` and its sort set to
    newest first when asked; and the changes, in words. A single-year field is set only for a one-year range."""
    changes: list[str] = []
    values: dict[str, str] = {}
    if fields.year and start is not None and end is not None and start.year == end.year:
        values[fields.year] = str(start.year)
    else:
        if fields.start and start is not None:
            values[fields.start] = str(start.year) if fields.years_only else start.isoformat()
        if fields.end and end is not None:
            values[fields.end] = str(end.year) if fields.years_only else end.isoformat()
    if newest and fields.sort and fields.newest is not None:
        values[fields.sort] = fields.newest
    for name, value in values.items():
        changes.append(f"{name}={value}")
    if not values:
        return submission, []
    return submission.with_values(values), changes


def _options(select: lxml.html.HtmlElement) -> list[tuple[str, str]]:
    return [
        (
            option.get("value") if option.get("value") is not None else option.text_content().strip(),
            option.text_content(),
        )
        for option in select.iter("option")
    ]
