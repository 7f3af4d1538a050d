"""The Atom feed (parsed back by feedparser, hostile titles included) and the exports (JSON, CSV, BibTeX)."""

from __future__ import annotations

import csv
import io
import json
import xml.etree.ElementTree as ET
from datetime import UTC, datetime
from pathlib import Path

import bibtexparser
import feedparser
import pytest
from library_helpers import paper, report_of, reported

from research_crawler.errors import ConfigError
from research_crawler.library.atom_feed import write_feed
from research_crawler.library.database import open_library
from research_crawler.library.export import export_items
from research_crawler.library.queries import items_by_id, list_items
from research_crawler.library.recording import record_run
from research_crawler.library.records import LibraryItem, Watch

A = "https://site-a.example/"
HOSTILE = "Evil \x1b]0;pwned\x07 <b>bold</b> & [/red] \u202etxt.exe =cmd|' /C calc'!A0"


def _items(tmp_path: Path, titles: list[str], *, first: int = 0) -> list[LibraryItem]:
    connection = open_library(tmp_path / "library.sqlite3")
    items = [paper(title, url=f"{A}abs/{n}", site=A, doi=f"10.9999/{n}") for n, title in enumerate(titles, first)]
    recorded = record_run(connection, report_of("q", items), reported(items))
    return items_by_id(connection, recorded.new)


def test_the_feed_parses_back_and_an_update_puts_new_entries_first(tmp_path: Path) -> None:
    feed_path = tmp_path / "feeds" / "watch.xml"
    watch = Watch.of("protein design", [A])
    first = _items(tmp_path, ["Protein design one", HOSTILE])
    assert write_feed(feed_path, watch, first, max_entries=10) == 2
    parsed = feedparser.parse(feed_path.read_bytes())
    assert not parsed.bozo, parsed.get("bozo_exception")
    assert parsed.version == "atom10"
    assert "protein design" in parsed.feed.title
    titles = [entry.title for entry in parsed.entries]
    assert titles[0] == "Protein design one"
    assert "\x1b" not in titles[1] and "\u202e" not in titles[1] and "<b>bold</b> & [/red]" in titles[1]
    assert parsed.entries[0].link == f"{A}abs/0"
    assert parsed.entries[0].author == "Ada Lovelace"

    later = _items(tmp_path / "later", ["Protein design three"], first=2)
    assert write_feed(feed_path, watch, later, max_entries=2) == 2  # the oldest drops off
    parsed = feedparser.parse(feed_path.read_bytes())
    assert not parsed.bozo
    assert [entry.title for entry in parsed.entries] == ["Protein design three", "Protein design one"]
    assert len({entry.id for entry in parsed.entries}) == 2
    ET.parse(feed_path)  # well-formed XML for a strict parser too


def test_entries_kept_by_an_update_keep_everything_they_said(tmp_path: Path) -> None:
    feed_path = tmp_path / "watch.xml"
    watch = Watch.of("protein design", [A])
    [item] = _items(tmp_path, ["Protein design one"])
    item = item.model_copy(update={"pdf_url": f"{A}pdf/0", "authors": ["Ada Lovelace", "Alan Turing"]})
    write_feed(feed_path, watch, [item], max_entries=5, now=datetime(2025, 1, 2, 3, 4, 5, tzinfo=UTC))
    before = feedparser.parse(feed_path.read_bytes()).entries[0]
    write_feed(feed_path, watch, _items(tmp_path / "later", ["Protein design two"], first=1), max_entries=5)
    parsed = feedparser.parse(feed_path.read_bytes())
    kept = parsed.entries[1]
    assert not parsed.bozo and kept.title == "Protein design one"
    for field in ("id", "updated", "published", "summary", "authors", "links"):
        assert kept[field] == before[field], field
    assert kept.published == "2025-01-02T03:04:05+00:00" and "DOI: 10.9999/0" in kept.summary
    assert {"href": f"{A}pdf/0", "rel": "related", "type": "application/pdf"} in kept.links
    assert [author.name for author in kept.authors] == ["Ada Lovelace", "Alan Turing"]


def test_a_feed_of_something_else_is_refused_and_left_alone(tmp_path: Path) -> None:
    path = tmp_path / "feed.xml"
    write_feed(path, Watch.of("one request"), _items(tmp_path, ["Protein design one"]), max_entries=5)
    before = path.read_bytes()
    with pytest.raises(ConfigError, match="a feed of something else"):
        write_feed(path, Watch.of("another request"), [], max_entries=5)
    garbage = tmp_path / "notes.xml"
    garbage.write_text("not xml at all", encoding="utf-8")
    with pytest.raises(ConfigError, match="not an Atom feed"):
        write_feed(garbage, Watch.of("one request"), [], max_entries=5)
    assert path.read_bytes() == before


def test_exports_hold_every_item_with_hostile_text_made_harmless(tmp_path: Path) -> None:
    _items(tmp_path, ["Protein design one", HOSTILE])
    items = list_items(open_library(tmp_path / "library.sqlite3"))

    as_json = json.loads(export_items(items, "json"))
    assert {entry["doi"] for entry in as_json} == {"10.9999/0", "10.9999/1"}
    assert all(entry["sightings"] and entry["metadata"] for entry in as_json)

    rows = list(csv.DictReader(io.StringIO(export_items(items, "csv"))))
    assert {row["doi"] for row in rows} == {"10.9999/0", "10.9999/1"}
    hostile_row = next(row for row in rows if "Evil" in row["title"])
    assert "\x1b" not in hostile_row["title"] and "\u202e" not in hostile_row["title"]
    assert rows[0]["sites"] == A

    formula = _items(tmp_path / "f", ['=HYPERLINK("http://evil")'])
    [row] = list(csv.DictReader(io.StringIO(export_items(formula, "csv"))))
    assert row["title"].startswith("'=")  # a spreadsheet shows it, never runs it

    bib = bibtexparser.parse_string(export_items(items, "bibtex"))
    assert len(bib.entries) == 2
    assert {entry.fields_dict["doi"].value for entry in bib.entries} == {"10.9999/0", "10.9999/1"}


def test_a_title_holding_a_noncharacter_leaves_the_feed_well_formed(tmp_path: Path) -> None:
    # U+FFFE and U+FFFF may be in a page's text; no XML may hold them: the feed was unreadable, its next update refused
    feed_path = tmp_path / "watch.xml"
    watch = Watch.of("protein design", [A])
    write_feed(feed_path, watch, _items(tmp_path, ["Protein \ufffe design \uffff one \U0010ffff"]), max_entries=5)
    ET.parse(feed_path)
    assert write_feed(feed_path, watch, _items(tmp_path / "later", ["Protein design two"], first=1), max_entries=5) == 2
    parsed = feedparser.parse(feed_path.read_bytes())
    assert not parsed.bozo
    assert [entry.title for entry in parsed.entries] == ["Protein design two", "Protein  design  one"]
