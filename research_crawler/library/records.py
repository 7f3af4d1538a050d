"""What the library holds, as read back: an item with its identities, sightings and metadata sources; what makes two
items the same work across runs; and a watch (one request followed over time)."""

from __future__ import annotations

import hashlib
import json
import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass

from pydantic import BaseModel, Field

from research_crawler.context.urls import try_canonicalize_url
from research_crawler.report.identity import work_keys
from research_crawler.report.models import ReportItem
from research_crawler.text.untrusted import UntrustedText

__all__ = [
    "LibraryItem",
    "MetadataSource",
    "Sighting",
    "Watch",
    "identity_keys",
    "item_from_row",
    "key_rank",
    "primary_key",
]


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


# What makes an item the same work across runs: the report's own keys (DOI, arXiv identifier without version,
# normalised title with first author's surname), best first, and the canonical URL for an item that has none of them.


#: The kinds of key, most telling first: an item is filed under the first it has.
_ORDER = ("doi:", "arxiv:", "title:", "url:")


def key_rank(key: str) -> int:
    """How telling a key is: 0 for a DOI, then arXiv, title and author, URL (an unknown kind last)."""
    return next((rank for rank, prefix in enumerate(_ORDER) if key.startswith(prefix)), len(_ORDER))


def identity_keys(item: ReportItem) -> list[str]:
    """Every identity of `item`, most telling first. The item's canonical URL is always one of them, so a
    collected item without authors still meets the reported item it became in a later run."""
    keys = set(work_keys(item))
    url = try_canonicalize_url(item.url) or item.url
    keys.add(f"url:{url}")
    return sorted(keys, key=lambda key: (key_rank(key), key))


def primary_key(item: ReportItem) -> str:
    """The key `item` is filed under: its DOI, else its arXiv identifier, else title and first author, else URL."""
    return identity_keys(item)[0]


# A watch: one request followed over time. Two watches are the same when their request reads the same (case and
# spacing aside) and they name the same sites (order and URL spelling aside).


@dataclass(frozen=True)
class Watch:
    """The request and sites of a watch, and the key its runs are filed under."""

    request: str
    sites: list[str]

    @classmethod
    def of(cls, request: str, sites: Sequence[str] = ()) -> Watch:
        """The watch of `request` on `sites` (none: the sites the Web Selector picks)."""
        canonical = sorted({try_canonicalize_url(site) or site.strip() for site in sites if site.strip()})
        return cls(request=" ".join(request.split()), sites=canonical)

    @property
    def key(self) -> str:
        """A stable key: a hash of the request (case-folded) and the sorted canonical sites."""
        text = json.dumps([self.request.casefold(), self.sites], ensure_ascii=False)
        return hashlib.sha256(text.encode("utf-8")).hexdigest()[:32]
