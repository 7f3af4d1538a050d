"""A bibliography whose header links its busiest category as "Browse" before its content names it, with the
simulated agents: the link is named by the content's anchor and the count beside it ("Graph Neural Networks (3 papers)",
`pages/links.py`), so the Crawler ranks that category first and the Collector sees the count that makes it a
collection, never a work ("is followed by a count of what it holds"); the page budget reaches its works."""

from __future__ import annotations

import html
import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from fault_server import FaultServer
from unlike_sites import LISTED, entry, page, run_on_loopback, serve_papers

QUERY = "Find papers on graph neural networks"
#: (address, name, the papers it lists): the header's "Browse" opens the first, the busiest.
CATEGORIES = [
    ("/browse/gnn", "Graph Neural Networks", [paper for paper in LISTED if paper.slug.startswith("gnn")]),
    ("/browse/graph-theory", "Graph Theory", [LISTED[0]]),
    ("/browse/networks", "Networks and Security", LISTED[1:3]),
]


@pytest.fixture
def server() -> Iterator[FaultServer]:
    with FaultServer() as running:
        yield running


def bibliography(server: FaultServer) -> None:
    """Home page: a header whose "Browse" opens the busiest category, then every category with its count; each
    category's page lists its papers."""
    serve_papers(server, LISTED)
    areas = "".join(
        f"<li><a href='{path}'>{html.escape(name)}</a> ({len(papers)} papers)</li>" for path, name, papers in CATEGORIES
    )
    server.page(
        "/",
        "<!doctype html><html><head><title>Bibliography</title></head><body>"
        f"<header><nav><a href='{CATEGORIES[0][0]}'>Browse</a> <a href='/about'>About</a></nav></header>"
        f"<main><h1>Bibliography</h1><h2>Topics</h2><ul>{areas}</ul></main></body></html>",
    )
    server.page("/about", page("About", "<h1>About</h1><p>A bibliography of computing and the sciences.</p>"))
    for path, name, papers in CATEGORIES:
        body = f"<h1>{html.escape(name)}</h1><ol>{''.join(map(entry, papers))}</ol>"
        server.page(path, page(name, body))


def test_the_busiest_category_is_opened_by_its_name_not_by_the_header_s_browse(
    tmp_path: Path, server: FaultServer
) -> None:
    bibliography(server)
    report, events = run_on_loopback(server, tmp_path / "runs", QUERY, pages=2)
    assert [json.loads(e["arguments"])["url"] for e in events if e.get("tool") == "scrape_url"][:1] == [
        CATEGORIES[0][0]
    ]
    stored = [title for e in events if e["event"] == "items_stored" for title in e["titles"]]
    assert not [title for title in stored if any(title.startswith(name) for _, name, _ in CATEGORIES)]
    found = {item.title for item in report.items}
    assert {paper.title for paper in CATEGORIES[0][2]} <= found
