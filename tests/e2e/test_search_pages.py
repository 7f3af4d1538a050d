"""Whole requests, with the simulated model, on sites whose pages carry no search form but a link to a search page
that has one ("Search" in the header, as Open Journal Systems and many catalogues do): the Scraper reads that page
once, as a person who clicks it, and the Planner can search the site (issue 26)."""

from __future__ import annotations

import html
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest
from fault_server import FaultServer, Hit, Reply
from unlike_sites import LISTED, entry, explore, serve_papers

from research_crawler.run.trace import read_trace

PAPERS = LISTED
RELEVANT = {paper.title for paper in PAPERS[3:]}


@pytest.fixture
def server() -> Iterator[FaultServer]:
    with FaultServer() as running:
        yield running


def journal_with_a_search_page(server: FaultServer, *, search_link: str = "Search") -> None:
    """A journal whose header links to its search page (no form on any other page); the home lists two papers of
    other fields and links to the issue holding the rest; the search page's GET form matches every word in titles."""
    serve_papers(server, PAPERS)
    header = (
        f"<header><nav><a href='/'>Home</a> <a href='/about'>About</a> <a href='/search'>{search_link}</a></nav>"
        "</header>"
    )

    def framed(title: str, body: str) -> str:
        head = f"<!doctype html><html><head><title>{html.escape(title)}</title></head>"
        return f"{head}<body>{header}<main>{body}</main></body></html>"

    listed = "".join(entry(paper) for paper in PAPERS[:2])
    server.page("/", framed("Journal of Linked Search", f"<h1>Journal of Linked Search</h1><ul>{listed}</ul>"
                            "<p><a href='/issue/1'>Issue 1</a></p>"))  # fmt: skip
    rest = "".join(entry(paper) for paper in PAPERS[2:])
    server.page("/issue/1", framed("Issue 1", f"<h1>Issue 1</h1><ul>{rest}</ul>"))
    server.page("/about", framed("About", "<h1>About the journal</h1><p>Published by volunteers.</p>"))
    form = "<form action='/search/results' method='get'><input name='query'><button>Search</button></form>"
    server.page("/search", framed("Search", f"<h1>Search</h1>{form}"))

    def results(hit: Hit) -> Reply:
        words = parse_qs(urlsplit(hit.path).query).get("query", [""])[0].lower().split()
        found = [paper for paper in PAPERS if words and all(word in paper.title.lower() for word in words)]
        items = "".join(entry(paper) for paper in found) or "<li>No results.</li>"
        return Reply(200, framed("Search results", f"<h1>{len(found)} results</h1><ul>{items}</ul>"))

    server.handle("/search/results", results)


def test_a_search_form_on_the_search_page_a_link_names_is_used(tmp_path: Path, server: FaultServer) -> None:
    journal_with_a_search_page(server)
    report = explore(server, "Find papers on graph neural networks", tmp_path / "run")
    assert len(server.hits_for("/search")) == 1  # read once for its form, though every page links to it
    searched = [
        parse_qs(urlsplit(hit.path).query) for hit in server.page_hits() if hit.path.startswith("/search/results?")
    ]
    assert searched and searched[0]["query"] == ["graph neural networks"]
    assert {item.title for item in report.items} >= RELEVANT
    events = read_trace(Path(report.run_dir or "") / "trace.jsonl")
    told = [e["content"] for e in events if e["event"] == "message" and e.get("sender") == "ScraperProxy"]
    assert "this site has a search form, on its search page /search (search_site can use it)" in told[0]
    [coverage] = report.coverage
    assert coverage.search_form and coverage.search_tried


def test_a_search_page_robots_txt_forbids_is_never_fetched(tmp_path: Path, server: FaultServer) -> None:
    journal_with_a_search_page(server, search_link="Advanced search")
    server.robots("User-agent: *\nDisallow: /search\n")
    report = explore(server, "Find papers on graph neural networks", tmp_path / "run")
    assert not [hit for hit in server.page_hits() if hit.path.startswith("/search")]
    events = read_trace(Path(report.run_dir or "") / "trace.jsonl")
    told = [e["content"] for e in events if e["event"] == "message" and e.get("sender") == "ScraperProxy"]
    assert "search is forbidden to crawlers by its robots.txt" in told[0]
    [coverage] = report.coverage
    assert coverage.search_refusal and "robots.txt forbids" in coverage.search_refusal
