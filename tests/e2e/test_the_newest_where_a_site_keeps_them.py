"""A journal that keeps its newest papers in its current issue, with the simulated agents: asked for the most recent
papers on a topic, the team opens "Current issue" (`pages/newest_links.py`, raised by `site_offers`), whose words share
nothing with the request, as well as the collection named for the topic that holds only older papers — and reports
the newest, newest first."""

from __future__ import annotations

import html
from collections.abc import Iterator
from pathlib import Path

import pytest
from fault_server import FaultServer
from unlike_sites import Paper, entry, page, run_on_loopback, serve_papers

QUERY = "Find the 3 most recent papers on graph neural networks"
#: The topic's collection: older papers, their titles full of the request's words.
COLLECTED = [
    Paper("gnn-molecules", "Graph neural networks for molecular property prediction", "2019-05-02"),
    Paper("gnn-citations", "Graph neural networks on citation graphs", "2020-02-14"),
    Paper("gnn-survey", "A survey of graph neural networks", "2021-09-30"),
]
#: The current issue: the newest papers, on the topic and off it.
CURRENT = [
    Paper("gnn-weather", "Graph neural networks for weather forecasting", "2026-03-01"),
    Paper("soil-moisture", "Soil moisture retrieval from radar", "2026-03-01", "geoscience"),
    Paper("gnn-power", "Graph neural networks for power grid stability", "2026-02-20"),
    Paper("gnn-chips", "Graph neural networks for chip placement", "2026-02-11"),
]


@pytest.fixture
def server() -> Iterator[FaultServer]:
    with FaultServer() as running:
        yield running


def journal(server: FaultServer, current: str = "Current issue") -> None:
    """Home: the journal's menu (its current issue among pages about the journal) and a topic collection."""
    serve_papers(server, COLLECTED + CURRENT)
    menu = "".join(
        f"<li><a href='{path}'>{html.escape(text)}</a></li>"
        for path, text in [
            ("/about", "About the journal"),
            ("/board", "Editorial board"),
            ("/submit", "Submit a manuscript"),
            ("/issues/current", current),
            ("/contact", "Contact"),
        ]
    )
    body = (
        f"<h1>Journal of Applied Computing</h1><ul>{menu}</ul><h2>Collections</h2><ul><li>"
        "<a href='/collections/gnn'>Graph neural networks: the collection</a></li></ul>"
    )
    server.page("/", page("Journal of Applied Computing", body))
    for path in ("/about", "/board", "/submit", "/contact"):
        server.page(path, page("Journal of Applied Computing", "<p>About the journal and its editors.</p>"))
    server.page(
        "/collections/gnn",
        page("Collection", f"<h1>Graph neural networks: the collection</h1><ul>{''.join(map(entry, COLLECTED))}</ul>"),
    )
    server.page(
        "/issues/current", page("Vol. 9 No. 1", f"<h1>Vol. 9 No. 1</h1><ul>{''.join(map(entry, CURRENT))}</ul>")
    )


@pytest.mark.parametrize("current", ["Current issue", "Número actual"])
def test_the_current_issue_is_opened_for_the_most_recent(tmp_path: Path, server: FaultServer, current: str) -> None:
    journal(server, current)
    report, events = run_on_loopback(server, tmp_path / "runs", QUERY, pages=3)
    fetched = [e["url"] for e in events if e["event"] == "fetch"]
    assert server.url("/issues/current") in fetched
    assert [item.title for item in report.items] == [
        "Graph neural networks for weather forecasting",
        "Graph neural networks for power grid stability",
        "Graph neural networks for chip placement",
    ]


def test_for_a_request_on_the_topic_alone_the_current_issue_is_not_raised(tmp_path: Path, server: FaultServer) -> None:
    journal(server)
    _, events = run_on_loopback(server, tmp_path / "runs", "Find papers on graph neural networks", pages=3)
    assert not [e for e in events if e["event"] == "offered" and e.get("kind") == "newest"]
