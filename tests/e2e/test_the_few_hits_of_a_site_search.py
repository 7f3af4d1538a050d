"""A library catalogue whose search matches the words typed in its records' abstracts, with the simulated agents:
the search for the request's words says it found two records whose titles share no word with the topic. A person
opens each of so few hits rather than judging them by their titles; the team does the same (`tools/search_hits.py`),
reads on their pages that both are on the topic, and reports them — within a budget of four pages, which the
catalogue's browsing links would otherwise take."""

from __future__ import annotations

import html
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from fault_server import FaultServer, Hit, Reply
from unlike_sites import page, run_on_loopback

from research_crawler.tools.broader_search import results_count

QUERY = "Find papers on graph neural networks"


@dataclass(frozen=True)
class Record:
    slug: str
    title: str
    abstract: str


RECORDS = [
    Record("messages", "Messages Between Nodes",
           "We study graph neural networks that pass messages along the edges of molecules and proteins."),
    Record("relations", "Learning on Relational Structures",
           "Graph neural networks learn from relational structures such as citation graphs and road maps."),
    Record("glaciers", "Glaciers in Retreat", "Glacier retreat recorded in a century of photographs."),
    Record("soil", "Soil Carbon from Orbit", "A study of soil carbon mapped from satellite imagery."),
]  # fmt: skip


@pytest.fixture
def server() -> Iterator[FaultServer]:
    with FaultServer() as running:
        yield running


def catalogue(server: FaultServer) -> None:
    """Home: a search form and browsing links; the search lists the records whose title or abstract holds every word,
    under a line that says how many; each record has a page with its abstract."""
    browse = "".join(
        f"<li><a href='/browse/{slug}'>Browse {name} collections</a></li>"
        for slug, name in (("maps", "map"), ("letters", "letter"), ("photos", "photograph"), ("music", "music"))
    )
    form = "<form action='/search' method='get'><input name='q'><button>Search the catalogue</button></form>"
    server.page("/", page("Harbour Library Catalogue", f"<h1>Harbour Library Catalogue</h1>{form}<ul>{browse}</ul>"))
    for slug in ("maps", "letters", "photos", "music"):
        server.page(f"/browse/{slug}", page("Browse", "<h1>Browse</h1><p>Collections of the library.</p>"))
    for record in RECORDS:
        server.page(
            f"/record/{record.slug}",
            page(
                f"{record.title} | Harbour Library",
                f"<h1>{html.escape(record.title)}</h1><p>By Ada Okafor and Bo Lee</p><p>Published 12 March 2025</p>"
                f"<h2>Abstract</h2><p>{html.escape(record.abstract)} We describe the data, the method and its limits, "
                "and compare it with earlier work on the same questions.</p>"
                "<p><a href='/'>Back to the catalogue</a> · <a href='/browse/maps'>Related collections</a></p>",
            ),
        )

    def search(hit: Hit) -> Reply:
        words = (hit.form.get("q") or [""])[0].lower().split()
        found = [r for r in RECORDS if words and all(w in f"{r.title} {r.abstract}".lower() for w in words)]
        rows = "".join(
            f"<div class='hit'><a href='/record/{r.slug}'><h2>{html.escape(r.title)}</h2></a><p>Article, 2025</p></div>"
            for r in found
        )
        return Reply(200, page("Search", f"<h1>Search results</h1><p>{len(found)} records</p>{rows}"))

    server.handle("/search", search)


def test_a_count_written_as_the_names_of_what_is_listed_is_read() -> None:
    assert results_count("# Search results\n2 records\n## Messages Between Nodes") == 2
    assert results_count("# Search results\n1 releases\n## New findings") == 1
    assert results_count("We hold 40 records of the city's mills in the archive.") is None


def test_the_few_hits_of_the_search_are_opened_and_reported(tmp_path: Path, server: FaultServer) -> None:
    catalogue(server)
    report, events = run_on_loopback(server, tmp_path / "runs", QUERY, pages=4)
    titles = sorted(item.title for item in report.items)
    assert titles == ["Learning on Relational Structures", "Messages Between Nodes"]
    raised = sorted(e["url"] for e in events if e["event"] == "offered" and e.get("kind") == "search_hit")
    assert raised == [server.url("/record/messages"), server.url("/record/relations")]
