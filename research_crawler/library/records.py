"""What the library holds, as read back: an item with its identities, sightings and metadata sources."""

from __future__ import annotations

import json
import sqlite3

from pydantic import BaseModel, Field

from research_crawler.report.models import ReportItem
from research_crawler.text.untrusted import UntrustedText

__all__ = ["LibraryItem", "MetadataSource", "Sighting", "item_from_row"]


class Sighting(BaseModel):
    """Where an item was seen for one request: site, URL, the page it was found on, first and last time."""

    request: UntrustedText
    site: str
    url: str
    found_on: str
    first_seen: str
    last_seen: str
    first_run: str = Field(description="The run directory of the first run that saw it there.")
    last_run: str = Field(description="The run directory of the latest run that saw it there.")
    times_seen: int = 1


class MetadataSource(BaseModel):
    """One value of one field and where it was read (citation_title, JSON-LD, the Collector…)."""

    field: str
    value: UntrustedText
    source: str
    first_seen: str


class LibraryItem(BaseModel):
    """One work in the library, filed under its most telling identity (`key`)."""

    id: int
    key: str = Field(description="doi:…, arxiv:…, title:normalised title|first author, or url:… (the item's URL).")
    kind: str = "paper"
    title: UntrustedText
    url: str
    authors: list[UntrustedText] = Field(default_factory=list)
    date: UntrustedText | None = None
    abstract: UntrustedText | None = None
    doi: UntrustedText | None = None
    pdf_url: str | None = None
    first_seen: str
    last_seen: str
    keys: list[str] = Field(default_factory=list, description="Every identity the item is known by.")
    sightings: list[Sighting] = Field(default_factory=list)
    metadata: list[MetadataSource] = Field(default_factory=list)

    def to_report_item(self, rank: int = 1) -> ReportItem:
        """The item as a report's item (for the BibTeX writer), found where it was first seen."""
        first = self.sightings[0] if self.sightings else None
        return ReportItem(
            rank=rank,
            title=self.title,
            url=self.url,
            site=first.site if first else "",
            found_on=first.found_on if first else self.url,
            collector_score=0.0,
            authors=self.authors,
            date=self.date,
            abstract=self.abstract,
            doi=self.doi,
            pdf_url=self.pdf_url,
            metadata_sources={entry.field: entry.source for entry in self.metadata},
            also_at=sorted({s.url for s in self.sightings if s.url != self.url}),
        )


def item_from_row(row: sqlite3.Row) -> LibraryItem:
    """A LibraryItem from a row of `items` (identities, sightings and metadata are filled by the caller)."""
    return LibraryItem(
        id=row["id"],
        key=row["key"],
        kind=row["kind"],
        title=row["title"],
        url=row["url"],
        authors=json.loads(row["authors"]),
        date=row["date"],
        abstract=row["abstract"],
        doi=row["doi"],
        pdf_url=row["pdf_url"],
        first_seen=row["first_seen"],
        last_seen=row["last_seen"],
    )
