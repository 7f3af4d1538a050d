"""Opening the library file: where it lives by default, SQLite in WAL mode (readers never wait for a writer),
a generous busy timeout so concurrent writers queue instead of failing, and the schema brought up to date.
"""

from __future__ import annotations

import shlex
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import platformdirs

from research_crawler.config.settings import Settings
from research_crawler.context.durable_files import open_shared_sqlite
from research_crawler.errors import LibraryError
from research_crawler.library.schema import migrate

__all__ = [
    "LIBRARY_FILE_NAME",
    "check_library",
    "default_library_path",
    "library_error",
    "library_errors",
    "library_path",
    "open_library",
    "write_transaction",
]

LIBRARY_FILE_NAME = "library.sqlite3"
#: How long a writer waits for another one (a run's commit takes milliseconds; a crowded cron minute, seconds).
BUSY_TIMEOUT_S = 60.0


def default_library_path() -> Path:
    """library.sqlite3 in the user data directory (~/.local/share/research-crawler on Linux)."""
    return Path(platformdirs.user_data_dir("research-crawler", appauthor=False)) / LIBRARY_FILE_NAME


def library_path(settings: Settings, given: Path | None = None) -> Path:
    """The library a command uses: `given` (``--library PATH``), else ``library.path``, else the default."""
    return given or settings.library.path or default_library_path()


def open_library(path: Path, *, create: bool = True) -> sqlite3.Connection:
    """A connection to the library at `path`, its schema migrated to this version's (created when missing and
    `create`). The connection is in autocommit mode: writes go through `write_transaction`.

    Raises LibraryError, in one line naming the file and the fix, for a file that is missing (create=False), is
    not a SQLite database, or was made by a newer version.
    """
    if path.is_dir():
        raise LibraryError(f"the library {path} is a directory: give a file, e.g. --library {path / LIBRARY_FILE_NAME}")
    if not path.exists():
        if not create:
            raise LibraryError(f"no library at {path} yet: the first `research-crawler watch` (or `ask`) makes it")
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise LibraryError(f"cannot create the library's directory {path.parent}: {exc.strerror or exc}") from None
    try:
        connection = open_shared_sqlite(path, busy_timeout_s=BUSY_TIMEOUT_S)
    except sqlite3.DatabaseError as exc:
        raise library_error(path, exc) from None
    try:
        connection.row_factory = sqlite3.Row
        connection.execute("PRAGMA foreign_keys = ON")
        migrate(connection, where=str(path))
    except sqlite3.DatabaseError as exc:
        connection.close()
        raise library_error(path, exc) from None
    except BaseException:
        connection.close()
        raise
    return connection


def library_error(path: Path, exc: sqlite3.DatabaseError) -> LibraryError:
    """What SQLite's `exc` on the library at `path` means for the user, in one line with the command that fixes it."""
    reason = " ".join(str(exc).split()) or type(exc).__name__
    if isinstance(exc, sqlite3.OperationalError):
        if "locked" in reason or "busy" in reason:
            return LibraryError(
                f"the library {path} stayed locked by another process for {BUSY_TIMEOUT_S:g} s: try again when it "
                "is done"
            )
        return LibraryError(f"the library {path} cannot be used ({reason}): choose another with --library PATH")
    if "not a database" in reason:
        return LibraryError(f"the library {path} cannot be used ({reason}): choose another with --library PATH")
    # A damaged database (a page overwritten, a file cut short): what it held cannot be trusted, the file is kept.
    return LibraryError(
        f"the library {path} is damaged ({reason}): move it aside with `mv {shlex.quote(str(path))} "
        f"{shlex.quote(f'{path}.damaged')}` (the next watch "
        "starts a new one), or choose another with --library PATH"
    )


@contextmanager
def library_errors(path: Path) -> Iterator[None]:
    """SQLite errors raised inside, while the library at `path` is read or written, as one `library_error` line."""
    try:
        yield
    except sqlite3.DatabaseError as exc:
        raise library_error(path, exc) from None


def check_library(path: Path) -> None:
    """Raise LibraryError before any work when the library at `path` cannot be used: not a library, a newer
    schema, or damaged anywhere (SQLite's quick check reads every page once)."""
    connection = open_library(path)
    try:
        with library_errors(path):
            problems = [row[0] for row in connection.execute("PRAGMA quick_check(3)")]
        if problems != ["ok"]:
            raise library_error(path, sqlite3.DatabaseError("; ".join(problems)))
    finally:
        connection.close()


@contextmanager
def write_transaction(connection: sqlite3.Connection) -> Iterator[sqlite3.Connection]:
    """One write transaction, taken at once (BEGIN IMMEDIATE: a second writer waits here, never half-way
    through reading what it is about to change); committed on success, rolled back on any exception."""
    connection.execute("BEGIN IMMEDIATE")
    try:
        yield connection
    except BaseException:
        connection.execute("ROLLBACK")
        raise
    connection.execute("COMMIT")
