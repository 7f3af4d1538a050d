"""Recording runs: one work is one item with a sighting per site, a second watch of a request finds nothing new,
metadata keeps its sources, and writers at once (threads and processes) lose nothing."""

from __future__ import annotations

import multiprocessing
import sqlite3
import threading
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from library_helpers import paper, report_of, reported

from research_crawler.library.database import open_library
from research_crawler.library.found_items import FoundItem
from research_crawler.library.queries import find_item, items_by_id, list_items, search_items
from research_crawler.library.recording import record_run
from research_crawler.library.records import Watch

A = "https://site-a.example/"
B = "https://site-b.example/"


def test_the_same_work_on_two_sites_is_one_item_with_two_sightings(tmp_path: Path) -> None:
    connection = open_library(tmp_path / "library.sqlite3")
    on_a = paper("Diffusion models for protein design", url=A + "abs/1", site=A, doi="10.5555/dm.1")
    on_b = paper("Diffusion Models for Protein Design", url=B + "paper/77", site=B, authors=["Lovelace, Ada"])
    other = paper("Protein folding with transformers", url=B + "paper/78", site=B)
    recorded = record_run(connection, report_of("protein design", [on_a, on_b, other]), reported([on_a, on_b, other]))
    assert len(recorded.new) == 2 and recorded.known == []
    [item] = search_items(connection, "diffusion")
    assert item.key == "doi:10.5555/dm.1"
    assert sorted((s.site, s.url) for s in item.sightings) == [(A, A + "abs/1"), (B, B + "paper/77")]
    assert {s.found_on for s in item.sightings} == {A, B}
    assert {s.request for s in item.sightings} == {"protein design"}
    assert connection.execute("SELECT COUNT(*) FROM items").fetchone()[0] == 2
    sources = {(m.field, m.source) for m in item.metadata}
    assert ("title", "citation_title") in sources and ("authors", "citation_author") in sources


def test_a_second_watch_of_a_request_finds_nothing_new_and_a_gained_item_is_new(tmp_path: Path) -> None:
    connection = open_library(tmp_path / "library.sqlite3")
    watch = Watch.of("protein design", [A])
    first_items = [paper(f"Protein design study number {n}", url=f"{A}abs/{n}", site=A) for n in range(3)]
    start = datetime(2026, 1, 1, tzinfo=UTC)
    first = record_run(
        connection, report_of("protein design", first_items), reported(first_items), watch=watch, now=start
    )
    assert len(first.new) == 3 and first.known == [] and first.previous_watch is None

    day = start + timedelta(days=1)
    second = record_run(
        connection, report_of("protein design", first_items), reported(first_items), watch=watch, now=day
    )
    assert second.new == [] and second.known == first.new
    assert second.previous_watch == start.isoformat(timespec="seconds")

    gained = paper("A protein design study added later", url=f"{A}abs/99", site=A)
    third = record_run(
        connection, report_of("protein design", [*first_items, gained]), reported([*first_items, gained]), watch=watch
    )
    assert [item.title for item in items_by_id(connection, third.new)] == ["A protein design study added later"]
    assert connection.execute("SELECT COUNT(*) FROM items").fetchone()[0] == 4
    [again] = [item for item in list_items(connection) if item.title == "Protein design study number 0"]
    [sighting] = again.sightings
    assert sighting.times_seen == 3 and sighting.first_seen == start.isoformat(timespec="seconds")
    assert sighting.last_seen > sighting.first_seen


def test_another_request_does_not_make_a_watchs_items_known(tmp_path: Path) -> None:
    connection = open_library(tmp_path / "library.sqlite3")
    item = paper("Graph neural networks for chemistry", url=A + "abs/5", site=A)
    record_run(connection, report_of("chemistry", [item]), reported([item]), watch=Watch.of("chemistry"))
    recorded = record_run(connection, report_of("gnn", [item]), reported([item]), watch=Watch.of("gnn"))
    assert len(recorded.new) == 1  # new to this watch, though the library knew it
    assert connection.execute("SELECT COUNT(*) FROM items").fetchone()[0] == 1


def test_an_item_is_found_by_id_key_doi_or_url(tmp_path: Path) -> None:
    connection = open_library(tmp_path / "library.sqlite3")
    item = paper("Graph neural networks for chemistry", url=A + "abs/5?utm_source=x", site=A, doi="10.7/GNN")
    [item_id] = record_run(connection, report_of("q", [item]), reported([item])).new
    for reference in (str(item_id), "doi:10.7/gnn", "10.7/GNN", A + "abs/5"):
        found = find_item(connection, reference)
        assert found is not None and found.id == item_id, reference
    assert find_item(connection, "doi:10.7/other") is None
    assert find_item(connection, "999") is None


def test_a_failed_record_leaves_nothing_behind(tmp_path: Path) -> None:
    connection = open_library(tmp_path / "library.sqlite3")
    good = paper("A good paper on proteins", url=A + "1", site=A)
    bad = paper("A second paper on proteins", url=A + "2", site=A).model_copy(update={"date": object()})
    with pytest.raises(sqlite3.Error):  # the object() date cannot be stored: the whole run is rolled back
        record_run(connection, report_of("q", [good, bad]), reported([good, bad]))
    assert connection.execute("SELECT COUNT(*) FROM items").fetchone()[0] == 0
    assert connection.execute("SELECT COUNT(*) FROM runs").fetchone()[0] == 0


def _record_many(path: str, writer: int, runs: int) -> None:
    connection = open_library(Path(path))
    for run in range(runs):
        shared = paper("A paper every writer finds", url=A + "shared", site=A)
        own = paper(f"Writer {writer} run {run} finds this paper", url=f"{A}w{writer}/r{run}", site=A)
        record_run(
            connection,
            report_of("q", [shared, own], run_dir=f"runs/w{writer}-{run}"),
            reported([shared, own]),
            watch=Watch.of("q"),
        )
    connection.close()


def test_writers_in_processes_at_once_lose_nothing(tmp_path: Path) -> None:
    path = tmp_path / "library.sqlite3"
    open_library(path).close()
    context = multiprocessing.get_context("spawn")
    writers = [context.Process(target=_record_many, args=(str(path), n, 15)) for n in range(3)]
    for process in writers:
        process.start()
    for process in writers:
        process.join(timeout=120)
    assert [process.exitcode for process in writers] == [0, 0, 0]
    connection = open_library(path)
    assert connection.execute("SELECT COUNT(*) FROM runs").fetchone()[0] == 45
    assert connection.execute("SELECT COUNT(*) FROM items").fetchone()[0] == 1 + 45
    assert connection.execute("SELECT COUNT(*) FROM run_items").fetchone()[0] == 90
    [shared] = search_items(connection, "every writer")
    assert shared.sightings[0].times_seen == 45
    # exactly one run of the watch found the shared paper new: the decision is taken under the write lock
    new_counts = connection.execute(
        "SELECT COUNT(*) FROM runs r WHERE NOT EXISTS (SELECT 1 FROM run_items ri JOIN runs e ON e.id = ri.run_id "
        "WHERE ri.item_id = ? AND e.watch_key = r.watch_key AND e.id < r.id)",
        (shared.id,),
    ).fetchone()[0]
    assert new_counts == 1


def test_watches_in_threads_at_once_call_an_item_new_once(tmp_path: Path) -> None:
    path = tmp_path / "library.sqlite3"
    open_library(path).close()
    results: list[list[int]] = []
    lock = threading.Lock()

    def watch_once() -> None:
        connection = open_library(path)
        item = paper("A paper both watches find", url=A + "both", site=A)
        recorded = record_run(connection, report_of("q", [item]), reported([item]), watch=Watch.of("q"))
        with lock:
            results.append(recorded.new)

    threads = [threading.Thread(target=watch_once) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(len(new) for new in results) == [0, 0, 0, 1]


def test_an_item_known_by_its_url_is_filed_under_its_doi_once_its_page_gives_one(tmp_path: Path) -> None:
    connection = open_library(tmp_path / "library.sqlite3")
    collected = paper("Graph nets ... Ada Author, 2025", url=A + "abs/7", site=A, authors=())
    [first] = record_run(connection, report_of("q", [collected]), [FoundItem(collected, reported=False)]).new
    assert items_by_id(connection, [first])[0].key == f"url:{A}abs/7"
    read = paper("Graph networks for chemistry", url=A + "abs/7", site=A, doi="10.5555/gc.7")
    recorded = record_run(connection, report_of("q", [read]), reported([read]))
    assert recorded.known == [first] and recorded.new == []
    [item] = items_by_id(connection, [first])
    assert item.key == "doi:10.5555/gc.7" and item.title == "Graph networks for chemistry"
    assert item.doi == "10.5555/gc.7" and item.authors == ["Ada Lovelace"]
    assert f"url:{A}abs/7" in item.keys and "doi:10.5555/gc.7" in item.keys


def test_one_doi_on_the_pages_of_three_papers_files_three_items(tmp_path: Path) -> None:
    """A DOI names a work only where the titles agree: pages of other papers claiming it are filed apart."""
    connection = open_library(tmp_path / "library.sqlite3")
    titles = ("Sulfide glass ceramics for lithium cells", "Coral bleaching forecasts", "Erasure conversion in atoms")
    fakes = [
        paper(t, url=f"{A}p/{n}", site=A, doi="10.5555/fake", authors=[f"Author {n}"]) for n, t in enumerate(titles)
    ]
    recorded = record_run(connection, report_of("anything", fakes), reported(fakes))
    assert len(recorded.new) == 3
    assert sorted(item.title for item in list_items(connection)) == sorted(titles)
    again = paper("Sulfide Glass-Ceramics for Lithium Cells", url=f"{B}x/1", site=B, doi="10.5555/fake")
    assert len(record_run(connection, report_of("again", [again]), reported([again])).known) == 1
