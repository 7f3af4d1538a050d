"""The library's schema as numbered migrations: the file's ``PRAGMA user_version`` says which have run, and
opening a library runs the missing ones in order, each in its own transaction.

Never edit a migration that has shipped: add the next one. A file made by a newer version (a higher
user_version than this code knows) is refused rather than guessed at.
"""

from __future__ import annotations

import sqlite3

from research_crawler.errors import LibraryError

__all__ = ["MIGRATIONS", "SCHEMA_VERSION", "migrate", "schema_version"]

#: Migration n (1-based) takes a library from version n-1 to n.
MIGRATIONS: tuple[str, ...] = (
    # 1: runs, items keyed by identity, where each was seen (request, site, URL, page; first and last), what each
    # run found, and the items' metadata with sources.
    """
    CREATE TABLE runs (
        id INTEGER PRIMARY KEY,
        run_dir TEXT NOT NULL,
        request TEXT NOT NULL,
        sites TEXT NOT NULL DEFAULT '[]',
        recorded_at TEXT NOT NULL,
        stop_reason TEXT NOT NULL DEFAULT '',
        pages_fetched INTEGER NOT NULL DEFAULT 0,
        model_calls INTEGER NOT NULL DEFAULT 0,
        input_tokens INTEGER NOT NULL DEFAULT 0,
        output_tokens INTEGER NOT NULL DEFAULT 0
    );
    CREATE TABLE items (
        id INTEGER PRIMARY KEY,
        key TEXT NOT NULL UNIQUE,
        kind TEXT NOT NULL DEFAULT 'paper',
        title TEXT NOT NULL,
        url TEXT NOT NULL,
        authors TEXT NOT NULL DEFAULT '[]',
        date TEXT,
        abstract TEXT,
        doi TEXT,
        pdf_url TEXT,
        first_seen TEXT NOT NULL,
        last_seen TEXT NOT NULL
    );
    CREATE TABLE identities (
        key TEXT PRIMARY KEY,
        item_id INTEGER NOT NULL REFERENCES items(id) ON DELETE CASCADE
    );
    CREATE TABLE sightings (
        id INTEGER PRIMARY KEY,
        item_id INTEGER NOT NULL REFERENCES items(id) ON DELETE CASCADE,
        request TEXT NOT NULL,
        site TEXT NOT NULL,
        url TEXT NOT NULL,
        found_on TEXT NOT NULL,
        first_run_id INTEGER NOT NULL REFERENCES runs(id),
        last_run_id INTEGER NOT NULL REFERENCES runs(id),
        first_seen TEXT NOT NULL,
        last_seen TEXT NOT NULL,
        times_seen INTEGER NOT NULL DEFAULT 1,
        UNIQUE (item_id, request, site, url)
    );
    CREATE INDEX sightings_by_item ON sightings(item_id);
    CREATE TABLE run_items (
        run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
        item_id INTEGER NOT NULL REFERENCES items(id) ON DELETE CASCADE,
        reported INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (run_id, item_id)
    );
    CREATE INDEX run_items_by_item ON run_items(item_id);
    CREATE TABLE metadata (
        item_id INTEGER NOT NULL REFERENCES items(id) ON DELETE CASCADE,
        field TEXT NOT NULL,
        value TEXT NOT NULL,
        source TEXT NOT NULL,
        first_seen TEXT NOT NULL,
        PRIMARY KEY (item_id, field, value, source)
    );
    """,
    # 2: watches: a run may belong to the watch of one request, whose earlier sightings say what is not new.
    """
    ALTER TABLE runs ADD COLUMN watch_key TEXT;
    CREATE INDEX runs_by_watch ON runs(watch_key);
    CREATE TABLE watches (
        key TEXT PRIMARY KEY,
        request TEXT NOT NULL,
        sites TEXT NOT NULL DEFAULT '[]',
        first_watched TEXT NOT NULL,
        last_watched TEXT NOT NULL,
        runs INTEGER NOT NULL DEFAULT 0
    );
    """,
)
SCHEMA_VERSION = len(MIGRATIONS)


def schema_version(connection: sqlite3.Connection) -> int:
    """The migrations this library has had (0: a new, empty file)."""
    return int(connection.execute("PRAGMA user_version").fetchone()[0])


def migrate(connection: sqlite3.Connection, *, where: str, target: int = SCHEMA_VERSION) -> int:
    """Run the migrations `connection`'s file lacks, up to `target`, each in one transaction (concurrent openers
    wait for each other: the version is read again once the write lock is held). Returns the version reached.

    Raises LibraryError for a file made by a newer version of research-crawler.
    """
    while True:
        connection.execute("BEGIN IMMEDIATE")
        try:
            version = schema_version(connection)
            if version > SCHEMA_VERSION:
                raise LibraryError(
                    f"the library {where} has schema version {version}, newer than this research-crawler knows "
                    f"({SCHEMA_VERSION}): upgrade with `pip install -U research-crawler`, or use another --library PATH"
                )
            if version >= target:
                connection.execute("COMMIT")
                return version
            for statement in _statements(MIGRATIONS[version]):
                connection.execute(statement)
            connection.execute(f"PRAGMA user_version = {version + 1}")
            connection.execute("COMMIT")
        except BaseException:
            if connection.in_transaction:
                connection.execute("ROLLBACK")
            raise


def _statements(script: str) -> list[str]:
    """The statements of a migration (executescript would commit on its own; these run inside our transaction)."""
    return [statement.strip() for statement in script.split(";") if statement.strip()]
