"""Recording one run in the library, in one transaction: the run, each item found (filed under its identity,
merged with the work it already is), where it was seen, its metadata with sources, and for a watch which items
are new since the earlier watches of the same request.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, date, datetime

from research_crawler.context.request import ResearchRequest
from research_crawler.library.database import write_transaction
from research_crawler.library.found_items import FoundItem
from research_crawler.library.records import Watch, identity_keys, key_rank
from research_crawler.report.identity import IDENTIFIER_KINDS, titles_agree
from research_crawler.report.models import Report, ReportItem

__all__ = ["RecordedRun", "record_run"]

#: Item fields kept in `metadata` with the source each value was read from.
_METADATA_FIELDS = ("title", "authors", "date", "abstract", "doi", "pdf_url")


@dataclass
class RecordedRun:
    """What recording a run did: its id, and its items' library ids in the order found — `new` ones (never
    found by an earlier watch of the same request; for a run outside a watch, never in the library) and `known`."""

    run_id: int
    previous_watch: str | None = None
    """When the same request was last watched before this run (None: never, or not a watch)."""
    new: list[int] = field(default_factory=list)
    known: list[int] = field(default_factory=list)
    reported: set[int] = field(default_factory=set)
    """The items the run's report lists."""
    scores: dict[int, float] = field(default_factory=dict)
    """Each item's best Collector score in this run."""
    dates: dict[int, str | None] = field(default_factory=dict)
    """Each item's date as this run read it."""

    def listed(
        self, ids: list[int], *, floor: float, request: ResearchRequest | None, today: date, recent_days: int
    ) -> list[int]:
        """Of `ids`, those worth listing as the report would: reported, or collected with a score of at least
        `floor` and dated inside the request's dates (an item the report left out for its date is not new)."""

        def fits(item_id: int) -> bool:
            if request is None:
                return True
            return request.date_fit(self.dates.get(item_id), today=today, recent_days=recent_days) == "inside"

        return [i for i in ids if i in self.reported or (self.scores.get(i, 0.0) >= floor and fits(i))]


def record_run(
    connection: sqlite3.Connection,
    report: Report,
    found: Sequence[FoundItem],
    *,
    watch: Watch | None = None,
    now: datetime | None = None,
    deliver: Callable[[RecordedRun], None] | None = None,
) -> RecordedRun:
    """Record `report`'s run and the items it `found` (one transaction: all of it or, on any error, nothing).

    Concurrent writers queue on the write lock; what is new is decided inside the transaction, so two watches
    of one request at once never both call the same item new. `deliver(recorded)` runs inside the transaction,
    before it commits (a watch writes its feed there): if it raises, nothing is recorded, so what it did not deliver
    stays new for the next watch.
    """
    stamp = (now or datetime.now(UTC)).isoformat(timespec="seconds")
    request = report.query
    with write_transaction(connection):
        seen_before: set[int] = set()
        previous_watch = None
        if watch is not None:
            row = connection.execute("SELECT last_watched FROM watches WHERE key = ?", (watch.key,)).fetchone()
            previous_watch = row[0] if row is not None else None
            rows = connection.execute(
                "SELECT DISTINCT ri.item_id FROM run_items ri JOIN runs r ON r.id = ri.run_id WHERE r.watch_key = ?",
                (watch.key,),
            )
            seen_before = {row[0] for row in rows}
        run_id = _insert_run(connection, report, watch, stamp)
        recorded = RecordedRun(run_id=run_id, previous_watch=previous_watch)
        for entry in found:
            item_id, created = _file_item(connection, entry.item, report.item_kind, stamp)
            recorded.scores[item_id] = max(recorded.scores.get(item_id, 0.0), entry.item.collector_score)
            recorded.dates[item_id] = recorded.dates.get(item_id) or entry.item.date
            if entry.reported:
                recorded.reported.add(item_id)
            already = connection.execute(
                "SELECT reported FROM run_items WHERE run_id = ? AND item_id = ?", (run_id, item_id)
            ).fetchone()
            if already is None:
                connection.execute(
                    "INSERT INTO run_items (run_id, item_id, reported) VALUES (?, ?, ?)",
                    (run_id, item_id, int(entry.reported)),
                )
                is_new = item_id not in seen_before if watch is not None else created
                (recorded.new if is_new else recorded.known).append(item_id)
            elif entry.reported and not already[0]:
                connection.execute(
                    "UPDATE run_items SET reported = 1 WHERE run_id = ? AND item_id = ?", (run_id, item_id)
                )
            _sighting(connection, item_id, entry.item, request=request, run_id=run_id, stamp=stamp)
            _metadata(connection, item_id, entry.item, stamp)
        if watch is not None:
            connection.execute(
                "INSERT INTO watches (key, request, sites, first_watched, last_watched, runs) "
                "VALUES (?, ?, ?, ?, ?, 1) "
                "ON CONFLICT(key) DO UPDATE SET last_watched = excluded.last_watched, runs = runs + 1",
                (watch.key, watch.request, json.dumps(watch.sites), stamp, stamp),
            )
        if deliver is not None:
            deliver(recorded)
    return recorded


def _insert_run(connection: sqlite3.Connection, report: Report, watch: Watch | None, stamp: str) -> int:
    stats = report.stats
    cursor = connection.execute(
        "INSERT INTO runs (run_dir, request, sites, recorded_at, stop_reason, pages_fetched, model_calls, "
        "input_tokens, output_tokens, watch_key) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (
            report.run_dir or "",
            report.query,
            json.dumps([site.url for site in report.sites]),
            stamp,
            report.stop_reason,
            stats.pages_fetched,
            stats.model_calls,
            stats.input_tokens,
            stats.output_tokens,
            watch.key if watch is not None else None,
        ),
    )
    return int(cursor.lastrowid or 0)


def _file_item(connection: sqlite3.Connection, item: ReportItem, kind: str, stamp: str) -> tuple[int, bool]:
    """The library id of `item`'s work (created when no identity of it is known), its fields filled in where the
    library lacked them, and every identity of it pointing there; whether it was created."""
    keys = identity_keys(item)
    placeholders = ",".join("?" * len(keys))
    owners = dict(
        connection.execute(f"SELECT key, item_id FROM identities WHERE key IN ({placeholders})", keys).fetchall()
    )
    # A DOI or arXiv identifier names a work only where the titles agree: another paper's page claiming it is not it.
    disputed = {
        key
        for key, owner in owners.items()
        if key.startswith(IDENTIFIER_KINDS) and not _same_title(connection, owner, item)
    }
    keys = [key for key in keys if key not in disputed]
    owners = {key: owner for key, owner in owners.items() if key not in disputed}
    owner = next((owners[key] for key in keys if key in owners), None)
    created = owner is None
    if owner is None:
        cursor = connection.execute(
            "INSERT INTO items (key, kind, title, url, authors, date, abstract, doi, pdf_url, first_seen, last_seen) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                keys[0],
                kind,
                item.title,
                item.url,
                json.dumps(list(item.authors)),
                item.date,
                item.abstract,
                item.doi,
                item.pdf_url,
                stamp,
                stamp,
            ),
        )
        owner = int(cursor.lastrowid or 0)
    else:
        connection.execute(
            "UPDATE items SET last_seen = ?, date = COALESCE(date, ?), abstract = COALESCE(abstract, ?), "
            "doi = COALESCE(doi, ?), pdf_url = COALESCE(pdf_url, ?), "
            "authors = CASE WHEN authors = '[]' THEN ? ELSE authors END WHERE id = ?",
            (stamp, item.date, item.abstract, item.doi, item.pdf_url, json.dumps(list(item.authors)), owner),
        )
        current = connection.execute("SELECT key FROM items WHERE id = ?", (owner,)).fetchone()[0]
        if key_rank(keys[0]) < key_rank(current) and owners.get(keys[0], owner) == owner:
            # known so far by a weaker identity (a URL, from a collected copy): filed under the better one now,
            # with the title its page gave
            connection.execute("UPDATE items SET key = ?, title = ? WHERE id = ?", (keys[0], item.title, owner))
    connection.executemany(
        "INSERT OR IGNORE INTO identities (key, item_id) VALUES (?, ?)", [(key, owner) for key in keys]
    )
    return owner, created


def _same_title(connection: sqlite3.Connection, item_id: int, item: ReportItem) -> bool:
    row = connection.execute("SELECT title FROM items WHERE id = ?", (item_id,)).fetchone()
    return row is not None and titles_agree(str(row[0]), item.title)


def _sighting(
    connection: sqlite3.Connection, item_id: int, item: ReportItem, *, request: str, run_id: int, stamp: str
) -> None:
    """Where `item` was seen (its own URL; the other URLs of a merged work are recorded from the collected items,
    with their own site and page). Seen again by the same run: counted once."""
    connection.execute(
        "INSERT INTO sightings (item_id, request, site, url, found_on, first_run_id, last_run_id, first_seen, "
        "last_seen) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT(item_id, request, site, url) DO UPDATE SET "
        "times_seen = times_seen + (last_run_id <> excluded.last_run_id), last_run_id = excluded.last_run_id, "
        "last_seen = excluded.last_seen",
        (item_id, request, item.site, item.url, item.found_on, run_id, run_id, stamp, stamp),
    )


def _metadata(connection: sqlite3.Connection, item_id: int, item: ReportItem, stamp: str) -> None:
    rows = []
    for name in _METADATA_FIELDS:
        value = getattr(item, name)
        if not value:
            continue
        text = json.dumps(list(value), ensure_ascii=False) if isinstance(value, list) else str(value)
        rows.append((item_id, name, text, item.metadata_sources.get(name, "page"), stamp))
    connection.executemany(
        "INSERT OR IGNORE INTO metadata (item_id, field, value, source, first_seen) VALUES (?, ?, ?, ?, ?)", rows
    )
