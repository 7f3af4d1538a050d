"""Text written into a CSV file a spreadsheet may open (the library's export, a batch's summary, an evaluation's
results): a cell that would start a formula is quoted, so a page's or a model's text is shown, never run.
"""

from __future__ import annotations

from collections.abc import Mapping

from research_crawler.text.untrusted import untrusted

__all__ = ["spreadsheet_cell", "spreadsheet_row"]

#: A spreadsheet runs a cell that starts with one of these as a formula (CSV injection): such text is quoted.
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def spreadsheet_cell(value: object) -> object:
    """`value` as a CSV cell: text without control characters, and quoted with "'" when it would start a formula;
    numbers and other values as they are."""
    if not isinstance(value, str):
        return value
    text = untrusted(value)
    return "'" + text if text.startswith(_FORMULA_START) else text


def spreadsheet_row(row: Mapping[str, object]) -> dict[str, object]:
    """Every cell of `row` made safe by `spreadsheet_cell`."""
    return {key: spreadsheet_cell(value) for key, value in row.items()}
