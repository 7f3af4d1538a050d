"""Schema migrations: a new file gets every one, an old file is brought up to date with its data kept, a newer or
foreign file is refused in one line, and openers at once never run a migration twice."""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path

import pytest
from library_helpers import paper, report_of, reported

from research_crawler.errors import LibraryError
from research_crawler.library.database import open_library
from research_crawler.library.queries import list_items
from research_crawler.library.recording import record_run
from research_crawler.library.records import Watch
from research_crawler.library.schema import MIGRATIONS, SCHEMA_VERSION, migrate, schema_version


def test_a_new_library_has_every_migration_and_is_in_wal_mode(tmp_path: Path) -> None:
    connection = open_library(tmp_path / "deep" / "library.sqlite3")
    assert schema_version(connection) == SCHEMA_VERSION == len(MIGRATIONS) >= 2
    assert connection.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    tables = {row[0] for row in connection.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    assert {"runs", "items", "identities", "sightings", "run_items", "metadata", "watches"} <= tables


def test_a_version_1_library_is_migrated_with_its_items_kept(tmp_path: Path) -> None:
    path = tmp_path / "library.sqlite3"
    old = sqlite3.connect(path, isolation_level=None)
    assert migrate(old, where=str(path), target=1) == 1
    old.execute(
        "INSERT INTO runs (id, run_dir, request, recorded_at) VALUES (1, 'runs/old', 'old request', '2025-01-01')"
    )
    old.execute(
        "INSERT INTO items (id, key, title, url, first_seen, last_seen) "
        "VALUES (1, 'doi:10.1/old', 'An old paper', 'https://a.example/old', '2025-01-01', '2025-01-01')"
    )
    old.execute("INSERT INTO identities (key, item_id) VALUES ('doi:10.1/old', 1)")
    columns = {row[1] for row in old.execute("PRAGMA table_info(runs)")}
    assert "watch_key" not in columns
    old.close()

    connection = open_library(path)
    assert schema_version(connection) == SCHEMA_VERSION
    assert "watch_key" in {row[1] for row in connection.execute("PRAGMA table_info(runs)")}
    assert [item.title for item in list_items(connection)] == ["An old paper"]
    # and the migrated library takes a watch, the old item found again under its DOI
    again = paper("An old paper", url="https://b.example/else", doi="10.1/OLD")
    recorded = record_run(connection, report_of("q", [again]), reported([again]), watch=Watch.of("q"))
    assert recorded.new == [1]  # new to this watch, filed under the item the old version held
    assert connection.execute("SELECT COUNT(*) FROM items").fetchone()[0] == 1


def test_a_library_from_a_newer_version_is_refused_in_one_line(tmp_path: Path) -> None:
    path = tmp_path / "library.sqlite3"
    newer = sqlite3.connect(path)
    newer.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    newer.close()
    with pytest.raises(LibraryError) as caught:
        open_library(path)
    message = str(caught.value)
    assert "\n" not in message and "newer" in message and "pip install -U research-crawler" in message


def test_a_file_that_is_not_a_library_is_refused_and_left_alone(tmp_path: Path) -> None:
    path = tmp_path / "notes.txt"
    path.write_text("my notes, not a database\n" * 100, encoding="utf-8")
    with pytest.raises(LibraryError, match=r"cannot be used .* --library PATH"):
        open_library(path)
    assert path.read_text(encoding="utf-8").startswith("my notes")


def test_a_missing_library_is_not_created_when_only_read(tmp_path: Path) -> None:
    with pytest.raises(LibraryError, match=r"no library at .* watch"):
        open_library(tmp_path / "none.sqlite3", create=False)
    assert not (tmp_path / "none.sqlite3").exists()


def test_openers_at_once_migrate_once(tmp_path: Path) -> None:
    path = tmp_path / "library.sqlite3"
    errors: list[BaseException] = []

    def open_it() -> None:
        try:
            open_library(path).close()
        except BaseException as exc:
            errors.append(exc)

    threads = [threading.Thread(target=open_it) for _ in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    assert schema_version(open_library(path)) == SCHEMA_VERSION
