"""Reading the library: the items most recently seen, a search over titles, authors, abstracts and identifiers,
one item by id, key or URL, and items by id with their identities, sightings and metadata sources."""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence

from research_crawler.context.urls import try_canonicalize_url
from research_crawler.library.records import LibraryItem, MetadataSource, Sighting, item_from_row

__all__ = ["find_item", "items_by_id", "list_items", "search_items"]


def list_items(connection: sqlite3.Connection, *, limit: int | None = None) -> list[LibraryItem]:
    """Items last seen most recently first (then newest in the library first)."""
    rows = connection.execute(
        "SELECT * FROM items ORDER BY last_seen DESC, id DESC LIMIT ?", (-1 if limit is None else limit,)
    ).fetchall()
    return _complete(connection, [item_from_row(row) for row in rows])


def search_items(connection: sqlite3.Connection, text: str, *, limit: int | None = None) -> list[LibraryItem]:
    """Items whose title, authors, abstract, DOI or identity hold every word of `text` (case-insensitive)."""
    words = text.split()
    if not words:
        return list_items(connection, limit=limit)
    clauses = []
    values: list[object] = []
    for word in words:
        pattern = "%" + word.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"
        clauses.append(
            "(title LIKE ? ESCAPE '\\' OR authors LIKE ? ESCAPE '\\' OR abstract LIKE ? ESCAPE '\\' "
            "OR doi LIKE ? ESCAPE '\\' OR key LIKE ? ESCAPE '\\')"
        )
        values.extend([pattern] * 5)
    values.append(-1 if limit is None else limit)
    rows = connection.execute(
        f"SELECT * FROM items WHERE {' AND '.join(clauses)} ORDER BY last_seen DESC, id DESC LIMIT ?", values
    ).fetchall()
    return _complete(connection, [item_from_row(row) for row in rows])


def find_item(connection: sqlite3.Connection, reference: str) -> LibraryItem | None:
    """The item `reference` names: its library id, one of its keys (doi:…, arxiv:…), a bare DOI, or a URL it was
    seen at. None when none matches."""
    text = reference.strip()
    if text.isdigit():
        return next(iter(items_by_id(connection, [int(text)])), None)
    candidates = [text, f"doi:{text.lower()}", f"arxiv:{text.lower()}"]
    if (url := try_canonicalize_url(text)) is not None:
        candidates.append(f"url:{url}")
    placeholders = ",".join("?" * len(candidates))
    row = connection.execute(f"SELECT item_id FROM identities WHERE key IN ({placeholders})", candidates).fetchone()
    if row is None and url is not None:
        row = connection.execute("SELECT item_id FROM sightings WHERE url = ?", (url,)).fetchone()
    return None if row is None else next(iter(items_by_id(connection, [row[0]])), None)


def items_by_id(connection: sqlite3.Connection, ids: Sequence[int]) -> list[LibraryItem]:
    """The items with these ids, in that order (ids not in the library left out)."""
    if not ids:
        return []
    placeholders = ",".join("?" * len(ids))
    rows = {row["id"]: row for row in connection.execute(f"SELECT * FROM items WHERE id IN ({placeholders})", ids)}
    return _complete(connection, [item_from_row(rows[i]) for i in ids if i in rows])


def _complete(connection: sqlite3.Connection, items: list[LibraryItem]) -> list[LibraryItem]:
    """`items` with their keys, sightings (first seen first) and metadata sources filled in."""
    if not items:
        return items
    ids = [item.id for item in items]
    placeholders = ",".join("?" * len(ids))
    keys: dict[int, list[str]] = {}
    for row in connection.execute(
        f"SELECT item_id, key FROM identities WHERE item_id IN ({placeholders}) ORDER BY key", ids
    ):
        keys.setdefault(row[0], []).append(row[1])
    sightings: dict[int, list[Sighting]] = {}
    for row in connection.execute(
        "SELECT s.*, f.run_dir AS first_run, l.run_dir AS last_run FROM sightings s "
        "JOIN runs f ON f.id = s.first_run_id JOIN runs l ON l.id = s.last_run_id "
        f"WHERE s.item_id IN ({placeholders}) ORDER BY s.first_seen, s.id",
        ids,
    ):
        sightings.setdefault(row["item_id"], []).append(
            Sighting(
                request=row["request"],
                site=row["site"],
                url=row["url"],
                found_on=row["found_on"],
                first_seen=row["first_seen"],
                last_seen=row["last_seen"],
                first_run=row["first_run"],
                last_run=row["last_run"],
                times_seen=row["times_seen"],
            )
        )
    metadata: dict[int, list[MetadataSource]] = {}
    for row in connection.execute(
        f"SELECT * FROM metadata WHERE item_id IN ({placeholders}) ORDER BY field, first_seen, source", ids
    ):
        metadata.setdefault(row["item_id"], []).append(
            MetadataSource(field=row["field"], value=row["value"], source=row["source"], first_seen=row["first_seen"])
        )
    return [
        item.model_copy(
            update={
                "keys": keys.get(item.id, []),
                "sightings": sightings.get(item.id, []),
                "metadata": metadata.get(item.id, []),
            }
        )
        for item in items
    ]
