"""The library written out: JSON (every field, sightings and sources), CSV (one row per item, for a spreadsheet)
and BibTeX (the report's writer)."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Sequence
from typing import Literal

from research_crawler.library.records import LibraryItem
from research_crawler.report.bibtex import to_bibtex
from research_crawler.text.spreadsheet import spreadsheet_cell

__all__ = ["CSV_COLUMNS", "ExportFormat", "export_items"]

ExportFormat = Literal["json", "csv", "bibtex"]

CSV_COLUMNS = ("id", "key", "title", "authors", "date", "doi", "url", "pdf_url", "first_seen", "last_seen", "sites")


def export_items(items: Sequence[LibraryItem], kind: ExportFormat) -> str:
    """`items` as one document of `kind`."""
    if kind == "json":
        return json.dumps([item.model_dump(mode="json") for item in items], ensure_ascii=False, indent=2) + "\n"
    if kind == "bibtex":
        return to_bibtex([item.to_report_item(rank) for rank, item in enumerate(items, 1)])
    return _csv(items)


def _csv(items: Sequence[LibraryItem]) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for item in items:
        sites = sorted({sighting.site for sighting in item.sightings})
        row = [
            str(item.id),
            item.key,
            item.title,
            "; ".join(item.authors),
            item.date or "",
            item.doi or "",
            item.url,
            item.pdf_url or "",
            item.first_seen,
            item.last_seen,
            " ".join(sites),
        ]
        writer.writerow([spreadsheet_cell(value) for value in row])
    return out.getvalue()
