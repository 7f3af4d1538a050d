"""`watch` end to end with the simulated model: everything new the first time, nothing new the second (served by
304s, fewer model calls), exactly the item a site gained, one work on two sites as one item with two sightings,
two watches at once losing nothing, the Atom feed, and the library commands."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

import feedparser
import pytest
from library_helpers import paper, report_of, reported
from small_site import Paper, SmallSite
from typer.testing import CliRunner

from research_crawler.cli.app import app
from research_crawler.errors import ConfigError
from research_crawler.eval.testbed import TestbedServer
from research_crawler.eval.testbed.models import Testbed
from research_crawler.library.database import open_library
from research_crawler.library.recording import record_run
from research_crawler.report.models import Report
from research_crawler.run.trace import read_trace

runner = CliRunner()
GNN_REQUEST = "Find papers on graph neural networks"


def _watch(*args: str, allowed: str) -> dict[str, Any]:
    result = runner.invoke(
        app, ["--set", f"fetch.allowed_hosts={allowed}", "watch", *args, "--model", "simulated", "--json"]
    )
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def _report(outcome: dict[str, Any]) -> Report:
    return Report.model_validate_json((Path(outcome["run_dir"]) / "report.json").read_text(encoding="utf-8"))


def _given_up_then_read(run_dir: Path) -> set[str]:
    """The pages fetched ahead, cancelled, then read from the web answered 304 (the trace says each)."""
    events = read_trace(run_dir / "trace.jsonl")
    cancelled = {e["url"] for e in events if e["event"] == "fetch_ahead" and e["action"] == "cancelled"}
    return {e["url"] for e in events if e["event"] == "fetch" and e.get("revisited") and e["url"] in cancelled}


def _titles(entries: list[dict[str, Any]]) -> list[str]:
    return sorted(entry["title"] for entry in entries)


def test_two_watches_of_an_unchanged_testbed_site(
    home: Path, testbed: Testbed, testbed_server: TestbedServer, tmp_path: Path
) -> None:
    query = testbed.queries_for("arxiv-like")[0]
    site = testbed_server.base_url("arxiv-like")
    allowed = ",".join(testbed_server.allowed_hosts())
    feed = tmp_path / "feed.xml"

    first = _watch(query.text, "--site", site, "--feed", str(feed), allowed=allowed)
    assert first["new"] and first["known"] == [] and first["previous_watch"] is None
    library = Path(first["library"])
    assert library == tmp_path / "data" / "research-crawler" / "library.sqlite3"  # the user data directory
    first_report = _report(first)
    assert {item.url for item in first_report.items} <= {entry["url"] for entry in first["new"]}
    # A guess fetched ahead and given up while its answer was arriving may be asked for again when it is chosen (a
    # 304 then: its validators were kept); no other page of the first watch is answered from the revisit cache.
    assert first_report.stats.pages_not_modified <= len(_given_up_then_read(Path(first["run_dir"])))

    second = _watch(query.text, "--site", site, "--feed", str(feed), allowed=allowed)
    assert second["new"] == []
    assert sorted(entry["id"] for entry in second["known"]) == sorted(entry["id"] for entry in first["new"])
    assert second["previous_watch"] is not None
    second_report = _report(second)
    assert [item.title for item in second_report.items] == [item.title for item in first_report.items]
    # served by 304s: every page the second watch fetched was unchanged and read by no model
    assert second_report.stats.pages_fetched == second_report.stats.pages_not_modified > 0
    assert second_report.stats.model_calls < first_report.stats.model_calls
    assert second_report.stats.input_tokens < first_report.stats.input_tokens
    markdown = (Path(second["run_dir"]) / "report.md").read_text(encoding="utf-8")
    assert f"({second_report.stats.pages_not_modified} unchanged since last read: 304, not downloaded)" in markdown
    events = read_trace(Path(second["run_dir"]) / "trace.jsonl")
    assert any(event["event"] == "unchanged_page" for event in events)
    assert all(event.get("revisited") for event in events if event["event"] == "fetch" and event["source"] == "web")

    connection = sqlite3.connect(library)
    runs = [row[0] for row in connection.execute("SELECT id FROM runs ORDER BY id")]
    assert len(runs) == 2
    found = [
        {row[0] for row in connection.execute("SELECT item_id FROM run_items WHERE run_id = ?", (run,))} for run in runs
    ]
    assert found[0] == found[1]  # the same items, each held once
    assert connection.execute("SELECT COUNT(*) FROM items").fetchone()[0] == len(found[0])

    parsed = feedparser.parse(feed.read_bytes())
    assert not parsed.bozo and parsed.version == "atom10"
    assert sorted(entry.title for entry in parsed.entries) == _titles(first["new"])


def test_a_site_that_gains_an_item_has_exactly_that_item_new(home: Path, gnn_site: SmallSite, tmp_path: Path) -> None:
    args = (GNN_REQUEST, "--site", gnn_site.url("/"), "--feed", str(tmp_path / "feed.xml"))
    first = _watch(*args, allowed=gnn_site.host_port)
    assert _titles(first["new"]) == sorted(paper.title for paper in gnn_site.papers)

    gained = Paper(
        4, "Graph neural networks for protein interface design", ("Cara New",), "2025-06-01", "10.5555/gnn.4"
    )
    gnn_site.add(gained)
    gnn_site.requests.clear()
    second = _watch(*args, allowed=gnn_site.host_port)
    assert _titles(second["new"]) == [gained.title]
    assert len(second["known"]) == 3
    [new] = second["new"]
    assert new["doi"] == "10.5555/gnn.4" and new["url"] == gnn_site.url(gained.path)
    # the listing changed (200), the three old papers did not (304), the new one was fetched in full
    statuses = {request.path: request.status for request in gnn_site.page_requests()}
    assert statuses == {"/": 200, "/paper/1": 304, "/paper/2": 304, "/paper/3": 304, "/paper/4": 200}

    entries = feedparser.parse((tmp_path / "feed.xml").read_bytes()).entries
    assert entries[0].title == gained.title and len(entries) == 4


def test_the_same_work_on_two_sites_is_one_item_with_two_sightings(
    home: Path, gnn_site: SmallSite, mirror_site: SmallSite
) -> None:
    allowed = f"{gnn_site.host_port},{mirror_site.host_port}"
    outcome = _watch(GNN_REQUEST, "--site", gnn_site.url("/"), "--site", mirror_site.url("/"), allowed=allowed)
    assert len(outcome["new"]) == 3
    shown = runner.invoke(app, ["library", "show", "doi:10.5555/gnn.1", "--json"])
    assert shown.exit_code == 0, shown.output
    item = json.loads(shown.stdout)
    assert sorted((s["site"], s["url"]) for s in item["sightings"]) == sorted(
        [(gnn_site.url("/"), gnn_site.url("/paper/1")), (mirror_site.url("/"), mirror_site.url("/paper/1"))]
    )
    listed = json.loads(runner.invoke(app, ["library", "list", "--json"]).stdout)
    assert len(listed) == 3


def test_two_watches_at_once_on_one_library_lose_nothing(
    home: Path, gnn_site: SmallSite, mirror_site: SmallSite, tmp_path: Path
) -> None:
    library = tmp_path / "shared.sqlite3"
    env_args = ["--set", f"fetch.allowed_hosts={gnn_site.host_port},{mirror_site.host_port}"]
    commands = [
        [sys.executable, "-m", "research_crawler", *env_args, "watch", GNN_REQUEST, "--site", site.url("/"),
         "--model", "simulated", "--json", "--quiet", "--library", str(library)]
        for site in (gnn_site, gnn_site, mirror_site)
    ]  # fmt: skip
    running = [
        subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for command in commands
    ]
    outcomes = []
    for process in running:
        out, err = process.communicate(timeout=240)
        assert process.returncode == 0, err
        outcomes.append(json.loads(out))
    # the two watches of the same request and site: each item new to exactly one of them
    same = [{entry["id"] for entry in outcome["new"]} for outcome in outcomes[:2]]
    assert not same[0] & same[1] and len(same[0] | same[1]) == 3
    connection = sqlite3.connect(library)
    assert connection.execute("SELECT COUNT(*) FROM runs").fetchone()[0] == 3
    assert connection.execute("SELECT COUNT(*) FROM items").fetchone()[0] == 3  # the mirror's paper is the same work
    assert connection.execute("SELECT COUNT(*) FROM run_items").fetchone()[0] == 3 + 3 + 1
    sightings = connection.execute("SELECT times_seen FROM sightings WHERE url = ?", (gnn_site.url("/paper/1"),))
    assert [row[0] for row in sightings] == [2]


def test_the_watch_speaks_plainly_and_the_library_commands_read_it(
    home: Path, gnn_site: SmallSite, tmp_path: Path
) -> None:
    base = ["--set", f"fetch.allowed_hosts={gnn_site.host_port}"]
    args = [*base, "watch", GNN_REQUEST, "--site", gnn_site.url("/"), "--model", "simulated", "--quiet"]
    first = runner.invoke(app, args)
    assert first.exit_code == 0, first.output
    assert "First watch of this request: 3 item(s), all new." in first.stdout
    assert "Scalable graph neural networks" in first.stdout
    second = runner.invoke(app, args)
    assert second.exit_code == 0, second.output
    assert "0 new since the last watch" in second.stdout and "3 item(s) found again" in second.stdout

    found = runner.invoke(app, ["library", "search", "traffic forecasting", "--json"])
    assert [item["title"] for item in json.loads(found.stdout)] == [GNN_PAPERS_TITLE_3]
    table = runner.invoke(app, ["library", "list"])
    assert table.exit_code == 0 and "Ada Author1" in table.stdout
    shown = runner.invoke(app, ["library", "show", "10.5555/gnn.2"])
    assert shown.exit_code == 0 and "Sightings" in shown.stdout and "Metadata and where it was read" in shown.stdout
    missing = runner.invoke(app, ["library", "show", "doi:10.0000/none"])
    assert missing.exit_code == 1 and "library search" in missing.stderr

    out = tmp_path / "items.bib"
    exported = runner.invoke(app, ["library", "export", "--format", "bibtex", "--out", str(out)])
    assert exported.exit_code == 0 and out.read_text(encoding="utf-8").count("@misc{") == 3
    as_csv = runner.invoke(app, ["library", "export", "--format", "csv"])
    assert as_csv.stdout.splitlines()[0].startswith("id,key,title") and len(as_csv.stdout.splitlines()) == 4

    not_a_file = runner.invoke(app, ["library", "list", "--library", str(tmp_path)])
    assert not_a_file.exit_code != 0
    nowhere = runner.invoke(app, ["library", "list", "--library", str(tmp_path / "none.sqlite3")])
    assert nowhere.exit_code == 1 and "no library at" in nowhere.stderr


GNN_PAPERS_TITLE_3 = "Message passing graph neural networks for traffic forecasting"


def test_ask_records_what_it_found_unless_told_not_to(home: Path, gnn_site: SmallSite, tmp_path: Path) -> None:
    allowed = ["--set", f"fetch.allowed_hosts={gnn_site.host_port}"]
    ask = ["ask", GNN_REQUEST, "--site", gnn_site.url("/"), "--model", "simulated", "--quiet"]
    library = tmp_path / "data" / "research-crawler" / "library.sqlite3"

    off = runner.invoke(app, [*allowed, "--set", "library.record_runs=false", *ask])
    assert off.exit_code == 0, off.output
    assert not library.exists()

    recorded = runner.invoke(app, [*allowed, *ask])
    assert recorded.exit_code == 0, recorded.output
    listed = json.loads(runner.invoke(app, ["library", "list", "--json"]).stdout)
    assert sorted(item["title"] for item in listed) == sorted(paper.title for paper in gnn_site.papers)
    assert all(item["sightings"][0]["request"] == GNN_REQUEST for item in listed)

    broken = tmp_path / "broken.sqlite3"
    broken.write_text("not a database " * 200, encoding="utf-8")
    warned = runner.invoke(app, [*allowed, "--set", f"library.path={broken}", *ask])
    assert warned.exit_code == 0, warned.output  # the report stands
    assert "not recorded in the library" in warned.stderr and "library.record_runs=false" in warned.stderr


def test_a_feed_of_another_watch_fails_before_the_crawl_and_loses_nothing(
    home: Path, gnn_site: SmallSite, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    allowed = gnn_site.host_port
    others = tmp_path / "others.xml"
    _watch("papers on protein design", "--site", gnn_site.url("/"), "--feed", str(others), allowed=allowed)
    gnn_site.requests.clear()
    arguments = ["--set", f"fetch.allowed_hosts={allowed}", "watch", GNN_REQUEST, "--site", gnn_site.url("/"),
                 "--model", "simulated", "--out", str(tmp_path / "run")]  # fmt: skip
    refused = runner.invoke(app, [*arguments, "--feed", str(others)])
    assert refused.exit_code == 1 and refused.stderr.count("\n") == 1, refused.output
    assert "a feed of something else (not this watch); give a new file" in refused.stderr
    assert gnn_site.requests == [] and not (tmp_path / "run").exists(), "the crawl ran before the feed was checked"

    # a feed that fails only once the run is done (replaced meanwhile): nothing is recorded, all of it stays new
    def replaced_meanwhile(*args: object, **kwargs: object) -> int:
        raise ConfigError(f"--feed {others}: a feed of something else (not this watch); give a new file")

    with monkeypatch.context() as patched:
        patched.setattr("research_crawler.library.atom_feed.write_feed", replaced_meanwhile)
        failed = runner.invoke(app, [*arguments, "--feed", str(tmp_path / "mine.xml")])
    assert failed.exit_code == 1 and "give a new file" in failed.stderr
    assert gnn_site.requests, "this time the crawl ran"
    fresh = _watch(GNN_REQUEST, "--site", gnn_site.url("/"), "--feed", str(tmp_path / "fresh.xml"), allowed=allowed)
    assert _titles(fresh["new"]) == sorted(paper.title for paper in gnn_site.papers) and fresh["known"] == []
    entries = feedparser.parse((tmp_path / "fresh.xml").read_bytes()).entries
    assert sorted(entry.title for entry in entries) == _titles(fresh["new"])


def damage_one_page(library: Path) -> None:
    """Overwrite one page of the library file (the first of its items table), as a bad sector or a stray write would."""
    connection = sqlite3.connect(library)
    connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    (page,) = connection.execute("SELECT rootpage FROM sqlite_master WHERE name = 'items'").fetchone()
    (size,) = connection.execute("PRAGMA page_size").fetchone()
    connection.close()
    data = bytearray(library.read_bytes())
    data[(page - 1) * size : page * size] = b"\xde\xad" * (size // 2)
    library.write_bytes(bytes(data))


def test_a_library_with_one_damaged_page_is_one_line_for_every_command(
    home: Path, gnn_site: SmallSite, tmp_path: Path
) -> None:
    library = tmp_path / "library.sqlite3"
    connection = open_library(library)
    items = [
        paper(f"Paper {n} on graph neural networks " + "words " * 80, url=f"https://a.example/{n}", doi=f"10.1/{n}")
        for n in range(300)
    ]
    record_run(connection, report_of("papers on graph neural networks", items), reported(items))
    connection.close()
    damage_one_page(library)
    allowed = ["--set", f"fetch.allowed_hosts={gnn_site.host_port}"]
    commands = [
        ["library", "list"], ["library", "search", "graph"], ["library", "show", "1"], ["library", "export"],
        [*allowed, "watch", GNN_REQUEST, "--site", gnn_site.url("/"), "--model", "simulated"],
    ]  # fmt: skip
    for command in commands:
        result = runner.invoke(app, [*command, "--library", str(library)])
        assert result.exit_code == 1, (command, result.output)
        assert result.stderr.count("\n") == 1 and "Traceback" not in result.output, result.output
        assert f"the library {library} is damaged (" in result.stderr
        assert f"move it aside with `mv {library} {library}.damaged`" in result.stderr
    assert gnn_site.requests == [], "watch crawled before finding its library damaged"
    ask = [*allowed, "--set", f"library.path={library}", "ask", GNN_REQUEST, "--site", gnn_site.url("/")]
    asked = runner.invoke(app, [*ask, "--model", "simulated"])
    assert asked.exit_code == 0, asked.output  # the report stands; the library is one warning line
    assert "not recorded in the library" in asked.stderr and "is damaged (" in asked.stderr


def test_a_watch_for_new_papers_lists_only_what_its_report_would_keep(home: Path, tmp_path: Path) -> None:
    from datetime import date, timedelta

    recent = (date.today() - timedelta(days=40)).isoformat()
    papers = [
        Paper(1, "Graph neural networks for molecule property prediction", ("Ada Lovelace",), "2019-03-01", "10.5/1"),
        Paper(2, "Scalable graph neural networks on large citation graphs", ("Bo Chen",), recent, "10.5/2"),
        Paper(3, "Message passing graph neural networks for traffic", ("Cy Diaz",), "2018-05-01", "10.5/3"),
    ]
    site = SmallSite("Graph Learning Preprints", papers).start()
    try:
        feed = tmp_path / "feed.xml"
        outcome = _watch("new papers on graph neural networks", "--site", site.url("/"), "--feed", str(feed),
                         allowed=site.host_port)  # fmt: skip
    finally:
        site.stop()
    report = _report(outcome)
    assert [item.title for item in report.items] == [papers[1].title]
    assert _titles(outcome["new"]) == [papers[1].title], "an item the report left out for its date is not new"
    [entry] = feedparser.parse(feed.read_bytes()).entries
    assert entry.title == papers[1].title and entry.author == "Bo Chen" and recent in entry.summary
