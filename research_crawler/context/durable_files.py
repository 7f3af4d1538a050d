"""Files on disk that a crash or another process cannot leave half-made: files replaced atomically (a reader, or a
run killed at any instant, sees the old file or the new one), and SQLite files several processes read and write at
once (the library, the revisit cache: WAL mode, a writer waiting for the others rather than failing)."""

from __future__ import annotations

import logging
import os
import sqlite3
import tempfile
import time
from pathlib import Path

__all__ = ["atomic_write_bytes", "atomic_write_text", "open_shared_sqlite"]

logger = logging.getLogger(__name__)

_FILE_MODE = 0o644


def atomic_write_bytes(path: Path, data: bytes) -> None:
    """Replace `path` with `data` so that readers see the old file or the new one, never a part.

    Writes a temporary file in the same directory, fsyncs it, renames it over `path` and fsyncs the
    directory (where the platform allows) so that the rename itself survives a power cut.
    """
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp_name = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    tmp_path = Path(tmp_name)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(tmp_path, _FILE_MODE)
        os.replace(tmp_path, path)
    except BaseException:
        tmp_path.unlink(missing_ok=True)
        raise
    _fsync_directory(path.parent)


def atomic_write_text(path: Path, text: str) -> None:
    """`atomic_write_bytes` for UTF-8 text (no newline translation)."""
    atomic_write_bytes(path, text.encode("utf-8"))


def _fsync_directory(directory: Path) -> None:
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:  # e.g. Windows cannot open a directory
        return
    try:
        os.fsync(fd)
    except OSError:
        logger.debug("could not fsync directory %s", directory)
    finally:
        os.close(fd)


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
