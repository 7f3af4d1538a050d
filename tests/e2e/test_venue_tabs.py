"""A venue whose page shows one of its lists behind tabs ("Oral", "Poster", "Rejected") and marks the tab it shows as
the current one: its other tabs show other lists, so they are queued and read like any listing, never taken for
facets narrowing the list the page shows whole (issue 26: an open-review venue's accepted posters were never read
so, its tabs refused as "narrows this page's list").
"""

from __future__ import annotations

import html
from collections.abc import Iterator
from pathlib import Path

import pytest
from fault_server import FaultServer
from unlike_sites import Paper, entry, explore, page, serve_papers

ORAL = [Paper("tidal-marsh", "Sediment budgets of restored tidal marshes", "2025-05-02")]
POSTER = [
    Paper("gnn-chemistry", "Graph neural networks for reaction yield prediction", "2025-05-11"),
    Paper("gnn-power", "Graph neural networks for power grid state estimation", "2025-05-03"),
]
VENUE = "/group?id=Workshop-2025"
TABS = [("oral", "Oral presentations", ORAL), ("poster", "Poster presentations", POSTER), ("rejected", "Rejected", [])]


@pytest.fixture
def server() -> Iterator[FaultServer]:
    with FaultServer() as running:
        yield running


def venue_page(shown: str) -> str:
    tabs = "".join(
        f"<li class='{'active' if name == shown else ''}'><a href='{html.escape(f'{VENUE}&tab={name}')}'>{label}</a>"
        "</li>"
        for name, label, _ in TABS
    )
    papers = next(papers for name, _, papers in TABS if name == shown)
    listed = "".join(entry(paper) for paper in papers) or "<li>No papers to display.</li>"
    return page("Workshop 2025", f"<h1>Workshop 2025</h1><ul class='nav-tabs'>{tabs}</ul><ul>{listed}</ul>")


def test_the_other_tabs_of_a_venue_are_read(tmp_path: Path, server: FaultServer) -> None:
    serve_papers(server, ORAL + POSTER)
    venues = f"<h1>Venues</h1><ul><li><a href='{html.escape(VENUE)}'>Workshop 2025</a></li></ul>"
    server.page("/", page("Open Review", venues))
    server.page(VENUE, venue_page("oral"))  # the first tab is shown at the venue's own address
    for name, _, _ in TABS:
        server.page(f"{VENUE}&tab={name}", venue_page(name))
    report = explore(server, "Find papers on graph neural networks", tmp_path / "run")
    # the code before this test refused the tabs as facets of the oral list and reported nothing
    assert {paper.title for paper in POSTER} <= {item.title for item in report.items}
