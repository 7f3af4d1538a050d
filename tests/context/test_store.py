"""Persistence of a run directory: exact restore, clear errors for damaged state, no torn files."""

from __future__ import annotations

import json
import os
import stat
import threading
from pathlib import Path

import pytest

from research_crawler.context import durable_files
from research_crawler.context import store as store_module
from research_crawler.context.durable_files import atomic_write_bytes, atomic_write_text
from research_crawler.context.graph import GRAPH_JSON_FILE, GRAPHML_FILE, NavigationGraph
from research_crawler.context.search_context import SearchContext, SiteRef, StopReason
from research_crawler.context.store import (
    STATE_FILE,
    STATE_VERSION,
    RunState,
    RunStore,
)
from research_crawler.context.web_context import WebContext
from research_crawler.errors import CorruptStateError, StateError

SITE = "https://ex.org/"


def small_state(query: str = "diffusion models für Proteine") -> RunState:
    search = SearchContext(query=query)
    search.add_site(SiteRef(name="Ex", url=SITE), priority=2)
    search.add_site(SiteRef(name="Other", url="https://other.org/", render="browser"))
    search.next_site()
    web = WebContext.for_site(SITE, name="Ex")
    root = web.take(web.top_urls(1)[0].url)
    assert root is not None
    graph = NavigationGraph()
    graph.add_page(root.url, determination="ok", title="Home")
    for path, score in [("list", 8.0), ("about", 1.5), ("search?q=x", 8.0)]:
        web.add_url(SITE + path, score, anchor_text=path, found_on=root.url)
        graph.add_link(root.url, SITE + path, anchor_text=path, score=score)
    web.add_item(SITE + "paper/1", title="Protein diffusion", description="Über…", score=9, found_on=root.url)
    return RunState(search=search, web_contexts={SITE: web}, graph=graph)


def save(store: RunStore, state: RunState) -> None:
    store.save(search=state.search, web_contexts=state.web_contexts, graph=state.graph)


def test_save_then_load_restores_exactly_and_keeps_working(tmp_path: Path) -> None:
    store = RunStore(tmp_path / "run")
    assert store.run_dir == tmp_path / "run" and not store.exists()
    state = small_state()
    save(store, state)
    assert store.exists()
    loaded = store.load()
    assert loaded == state
    assert loaded.saved_at is not None
    document = json.loads(store.state_path.read_text("utf-8"))
    assert (document["format"], document["version"]) == (store_module.STATE_FORMAT, STATE_VERSION)
    assert {p.name for p in store.run_dir.iterdir()} == {STATE_FILE, GRAPH_JSON_FILE, GRAPHML_FILE}
    # the restored contexts go on where they stopped
    web = loaded.web_contexts[SITE]
    assert [web.take(web.top_urls(1)[0].url).url for _ in range(2)] == [SITE + "list", SITE + "search?q=x"]
    assert loaded.search.next_site() == SiteRef(name="Other", url="https://other.org/", render="browser")
    assert loaded.search.beta == SiteRef(name="Ex", url=SITE)


def test_saving_without_a_graph_stores_an_empty_one_and_writes_no_graph_files(tmp_path: Path) -> None:
    store = RunStore(tmp_path)
    state = small_state()
    store.save(search=state.search, web_contexts=state.web_contexts)
    loaded = store.load()
    assert loaded.graph == NavigationGraph() and loaded.web_contexts == state.web_contexts
    assert {p.name for p in tmp_path.iterdir()} == {STATE_FILE}


def test_a_missing_state_is_a_state_error_not_corruption(tmp_path: Path) -> None:
    with pytest.raises(StateError, match="no saved state in") as raised:
        RunStore(tmp_path / "nowhere").load()
    assert not isinstance(raised.value, CorruptStateError)


def test_a_state_file_cut_at_any_byte_never_loads(tmp_path: Path) -> None:
    store = RunStore(tmp_path)
    save(store, small_state())
    data = store.state_path.read_bytes()
    assert len(data) < 20_000, "keep the sample state small so every cut point is tried"
    for cut in range(len(data)):
        store.state_path.write_bytes(data[:cut])
        with pytest.raises(CorruptStateError):
            store.load()
    store.state_path.write_bytes(data)
    assert store.load() == small_state()


def _rewrite(store: RunStore, change) -> None:
    document = json.loads(store.state_path.read_text("utf-8"))
    change(document)
    store.state_path.write_text(json.dumps(document), "utf-8")


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d.update(version=STATE_VERSION + 1), "version 2; this version reads 1"),
        (lambda d: d.pop("version"), "version None"),
        (lambda d: d.update(format="something-else"), "not a research-crawler state file"),
        (lambda d: d.update(search={"query": ""}), "search.query"),
        (
            lambda d: d["web_contexts"][SITE].update(visited_urls=["https://ex.org/x"]),
            "visited but not discovered",
        ),
        (lambda d: d["web_contexts"][SITE]["collected"].clear(), "discovered item URLs differ"),
        (lambda d: d["graph"].update(nodes=[{"id": "a"}, {"id": "a"}]), "twice"),
        (lambda d: d.update(extra=1), "extra"),
        (lambda d: d.pop("web_contexts"), "web_contexts"),
    ],
)
def test_invalid_state_gives_a_clear_corrupt_state_error(tmp_path: Path, change, message: str) -> None:
    store = RunStore(tmp_path)
    save(store, small_state())
    _rewrite(store, change)
    with pytest.raises(CorruptStateError, match=message) as raised:
        store.load()
    assert str(store.state_path) in str(raised.value)


@pytest.mark.parametrize("content", [b"", b"\xff\xfe\x00garbage", b"[1, 2]", b"null", b"[" * 100_000])
def test_garbage_is_corrupt_state(tmp_path: Path, content: bytes) -> None:
    (tmp_path / STATE_FILE).write_bytes(content)
    with pytest.raises(CorruptStateError):
        RunStore(tmp_path).load()


def test_a_crash_during_save_leaves_the_previous_state_loadable(tmp_path: Path, monkeypatch) -> None:
    store = RunStore(tmp_path)
    first = small_state()
    save(store, first)
    second = small_state()
    second.web_contexts[SITE].take(second.web_contexts[SITE].top_urls(1)[0].url)
    second.search.complete(StopReason.ABORTED, "test")

    def crash(src, dst) -> None:
        raise OSError("disk on fire")

    monkeypatch.setattr(durable_files.os, "replace", crash)
    with pytest.raises(OSError, match="disk on fire"):
        save(store, second)
    monkeypatch.undo()
    assert store.load() == first
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".tmp")], "the temporary file is cleaned up"
    save(store, second)
    assert store.load() == second


def test_an_interrupt_while_writing_leaves_the_previous_state(tmp_path: Path, monkeypatch) -> None:
    store = RunStore(tmp_path)
    first = small_state()
    save(store, first)

    def interrupted(fd: int) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(durable_files.os, "fsync", interrupted)
    with pytest.raises(KeyboardInterrupt):
        save(store, small_state(query="another query"))
    monkeypatch.undo()
    assert store.load() == first
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([STATE_FILE, GRAPH_JSON_FILE, GRAPHML_FILE])


def test_concurrent_saves_always_leave_a_whole_state(tmp_path: Path) -> None:
    store = RunStore(tmp_path)
    states = [small_state(query=f"query {n}") for n in range(4)]

    def keep_saving(state: RunState) -> None:
        for _ in range(10):
            save(store, state)

    threads = [threading.Thread(target=keep_saving, args=(state,)) for state in states]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert store.load() in states
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".tmp")]


def test_atomic_write_replaces_creates_parents_and_sets_a_readable_mode(tmp_path: Path) -> None:
    target = tmp_path / "a" / "b" / "report.md"
    atomic_write_text(target, "first\r\nline é")
    assert target.read_bytes() == "first\r\nline é".encode()
    atomic_write_bytes(target, b"\x00second")
    assert target.read_bytes() == b"\x00second"
    if os.name == "posix":
        assert stat.S_IMODE(target.stat().st_mode) == 0o644
    assert [p.name for p in target.parent.iterdir()] == ["report.md"]


def test_the_sites_earned_pages_are_saved_with_the_state(tmp_path: Path) -> None:
    store = RunStore(tmp_path / "run")
    state = small_state()
    budget = {SITE: {"extra": 3, "pages": [{"relevant_items": 2, "leads": False}]}}
    store.save(search=state.search, web_contexts=state.web_contexts, graph=state.graph, budget=budget)
    assert store.load().budget == budget


def test_a_state_saved_before_budgets_were_saved_loads_with_none(tmp_path: Path) -> None:
    store = RunStore(tmp_path / "run")
    save(store, small_state())
    document = json.loads(store.state_path.read_text("utf-8"))
    del document["budget"]
    store.state_path.write_text(json.dumps(document), encoding="utf-8")
    assert store.load().budget == {}
