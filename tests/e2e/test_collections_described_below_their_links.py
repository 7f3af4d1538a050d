"""A research institute whose series are linked by what they are ("Occasional series", "Briefings", "Discussion
series") and told apart only by the line under each link that says what it holds, with the simulated agents: the
Crawler's view gives each such link the text under it as its context (`pages/links._link_contexts`), so with a page
budget of one the series on the request's subject is the one opened, and its papers are reported."""

from __future__ import annotations

import html
from collections.abc import Iterator
from pathlib import Path

import pytest
from fault_server import FaultServer
from unlike_sites import LISTED, Paper, entry, page, run_on_loopback, serve_papers

QUERY = "Find papers on graph neural networks"
#: The institute's series: its address, its link's name, the line under the link, and the papers it lists.
SERIES: list[tuple[str, str, str, list[Paper]]] = [
    ("/series/os", "Occasional series", "Studies of soil carbon and weather radar from our remote sensing unit.",
     [p for p in LISTED if p.subject == "geoscience"]),
    ("/series/br", "Briefings", "Reports of the materials laboratory on alloy design.",
     [p for p in LISTED if p.subject == "materials"]),
    ("/series/ds", "Discussion series", "Research on graph neural networks and message passing from the learning lab.",
     [p for p in LISTED if p.subject == "machine learning"]),
]  # fmt: skip


@pytest.fixture
def server() -> Iterator[FaultServer]:
    with FaultServer() as running:
        yield running


def institute(server: FaultServer) -> None:
    """Home page: each series a heading that is a link, the line that says what it holds under it; each series' page
    lists its papers, each of which has its own page."""
    serve_papers(server, LISTED)
    cards = "".join(
        f"<section><h2><a href='{path}'>{html.escape(name)}</a></h2><p>{html.escape(about)}</p>"
        f"<p>{len(papers)} titles</p></section>"
        for path, name, about, papers in SERIES
    )
    server.page("/", page("Institute for Applied Research", f"<h1>Our publications</h1>{cards}"))
    for path, name, _, papers in SERIES:
        body = f"<h1>{html.escape(name)}</h1><ol>{''.join(map(entry, papers))}</ol>"
        server.page(path, page(name, body))


def test_the_series_whose_description_names_the_subject_is_opened(tmp_path: Path, server: FaultServer) -> None:
    institute(server)
    report, events = run_on_loopback(server, tmp_path / "runs", QUERY, pages=3)
    opened = [e["url"] for e in events if e["event"] == "fetch" and "/series/" in e["url"]]
    assert opened[:1] == [server.url("/series/ds")]
    found = {item.title for item in report.items}
    assert {"Graph neural networks for protein structure", "Graph neural networks for traffic forecasting"} <= found
