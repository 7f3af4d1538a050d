"""A SQLite file that several processes read and write at once (the library, the revisit cache): opened in WAL mode,
waiting for the other writers rather than failing."""

from __future__ import annotations

import sqlite3
import time
from pathlib import Path

__all__ = ["open_shared_sqlite"]


def open_shared_sqlite(path: Path, *, busy_timeout_s: float) -> sqlite3.Connection:
    """A connection to `path` (created if missing) in autocommit mode, usable from any thread, in WAL mode with
    ``synchronous = NORMAL``; a writer waits up to `busy_timeout_s` for another. sqlite3.Error when it cannot be."""
    connection = sqlite3.connect(path, timeout=busy_timeout_s, isolation_level=None, check_same_thread=False)
    try:
        _use_wal(connection, busy_timeout_s)
        connection.execute("PRAGMA synchronous = NORMAL")
    except BaseException:
        connection.close()
        raise
    return connection


def _use_wal(connection: sqlite3.Connection, busy_timeout_s: float) -> None:
    """Switch to WAL (once per file; it stays). Changing the journal mode takes an exclusive lock that SQLite's busy
    handler does not wait for, so a file being set up by another opener is asked again for a while."""
    deadline = time.monotonic() + busy_timeout_s
    while True:
        try:
            connection.execute("PRAGMA journal_mode = WAL")
            return
        except sqlite3.OperationalError as exc:
            if "locked" not in str(exc) or time.monotonic() > deadline:
                raise
            time.sleep(0.02)
