"""A categorised bibliography that says which of its categories are empty, with the simulated agents: the categories
shown with a count of zero beside them ("Graph Learning (0)") and an empty category re-sorted ("order by year") are
never opened, so a small page budget reaches the category that holds the works (`pages/empty_links.py`,
`context/pagination.reorders_listing`)."""

from __future__ import annotations

import html
from collections.abc import Iterator
from pathlib import Path

import pytest
from fault_server import FaultServer
from unlike_sites import LISTED, entry, page, run_on_loopback, serve_papers

QUERY = "Find papers on graph neural networks"
#: Categories named close to the request that the index has not filled yet, and the one that holds its entries.
EMPTY = {"graph-learning": "Graph Learning", "neural-networks": "Neural Networks"}
FILLED = ("computing", "Computing and Data")


@pytest.fixture
def server() -> Iterator[FaultServer]:
    with FaultServer() as running:
        yield running


def bibliography(server: FaultServer) -> None:
    """Home page: three categories with their counts, the two empty ones first; each category's page lists its
    entries (none for the empty ones) with a link that orders them by year instead."""
    serve_papers(server, LISTED)
    categories = [*EMPTY.items(), FILLED]
    areas = "".join(
        f"<li><a href='/browse/{slug}'>{html.escape(name)}</a> ({len(LISTED) if slug == FILLED[0] else 0})</li>"
        for slug, name in categories
    )
    server.page("/", page("Bibliography", f"<h1>Bibliography</h1><h2>Browse by topic</h2><ul>{areas}</ul>"))
    for slug, name in categories:
        listed = LISTED if slug == FILLED[0] else []
        body = (
            f"<h1>{html.escape(name)}</h1><p>Contents: {len(listed)} entries · Order: title · "
            f"<a href='/browse/{slug}?sort=year'>order by publication year</a></p>"
            f"<ol>{''.join(map(entry, listed))}</ol>"
        )
        server.page(f"/browse/{slug}", page(name, body))
        server.page(f"/browse/{slug}?sort=year", page(name, body))


def test_empty_categories_are_left_unopened_and_the_filled_one_is_read(tmp_path: Path, server: FaultServer) -> None:
    bibliography(server)
    report, events = run_on_loopback(server, tmp_path / "runs", QUERY, pages=2)
    fetched = [e["url"] for e in events if e["event"] == "fetch"]
    assert not [url for url in fetched if any(f"/browse/{slug}" in url for slug in EMPTY)]
    assert server.url(f"/browse/{FILLED[0]}") in fetched
    found = {item.title for item in report.items}
    assert {"Graph neural networks for protein structure", "Graph neural networks for traffic forecasting"} <= found
