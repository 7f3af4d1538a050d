"""A research group's handbook whose sidebar lists every section, the years of its publications too, and whose
"Publications" page lists those same years again under a paragraph on how the papers are kept, with the simulated
agents: the pages before it (the first week, lab safety) gave nothing, and the Publications page adds no link the
sidebar had not shown, yet it points at pages still to read, so the site is no dead end
(`pages/navigation_pages.leads_still_open`): the years are opened and their papers reported, not the site left
as stuck after three pages that added nothing."""

from __future__ import annotations

import html
from collections.abc import Iterator
from pathlib import Path

import pytest
from fault_server import FaultServer
from unlike_sites import LISTED, entry, run_on_loopback, serve_papers

QUERY = "Find papers on graph neural networks"
YEARS = ("2025", "2024", "2023", "2022", "2021")
GUIDES = {
    "/guide/first-week.html": ("Your first week", "Ask for an account, a desk and a key to the lab."),
    "/guide/safety.html": ("Lab safety", "Wear goggles, log every experiment and never work alone at night."),
}


@pytest.fixture
def server() -> Iterator[FaultServer]:
    with FaultServer() as running:
        yield running


def _frame(title: str, body: str) -> str:
    guides = "".join(f"<li><a href='{path}'>{html.escape(name)}</a></li>" for path, (name, _) in GUIDES.items())
    years = "".join(f"<li><a href='/publications/{year}.html'>Papers from {year}</a></li>" for year in YEARS)
    sidebar = (
        f"<nav class='sidebar'><p>The group</p><ul>{guides}</ul><p>Publications</p><ul><li><a "
        f"href='/publications/index.html'>About our publications</a></li>{years}</ul></nav>"
    )
    return (
        f"<!doctype html><html><head><title>{html.escape(title)} — Group Handbook</title></head><body>{sidebar}"
        f"<main>{body}</main><footer><a href='/contact.html'>Contact</a></footer></body></html>"
    )


def handbook(server: FaultServer, *, publications: str = "Publications") -> None:
    serve_papers(server, LISTED)
    server.page(
        "/",
        _frame(
            "Welcome",
            "<h1>Welcome to the group</h1><p>Start with <a href='/guide/first-week.html'>Your first week</a> and "
            "<a href='/guide/safety.html'>Lab safety</a>. The papers we publish, with the code behind them, are under "
            f"<a href='/publications/index.html'>{html.escape(publications)}</a>.</p>",
        ),
    )
    for path, (name, text) in GUIDES.items():
        server.page(path, _frame(name, f"<h1>{html.escape(name)}</h1><p>{html.escape(text)}</p>"))
    years = "".join(f"<li><a href='/publications/{year}.html'>Papers from {year}</a></li>" for year in YEARS)
    server.page(
        "/publications/index.html",
        _frame(
            "Publications",
            "<h1>Publications</h1><p>Everything the group has published, with the data and the code behind each "
            "paper, is kept here so that anyone can check our results again and build on them. Papers are grouped by "
            f"the year they appeared in print, and each year lists its papers by first author.</p><ul>{years}</ul>",
        ),
    )
    for year in YEARS:
        papers = [p for p in LISTED if p.date.startswith(year)]
        server.page(
            f"/publications/{year}.html",
            _frame(f"Papers from {year}", f"<h1>Papers from {year}</h1><ol>{''.join(map(entry, papers))}</ol>"),
        )


def test_an_index_of_pages_still_to_read_is_no_dead_end(tmp_path: Path, server: FaultServer) -> None:
    handbook(server)
    report, events = run_on_loopback(server, tmp_path / "runs", QUERY)
    opened = [e["url"] for e in events if e["event"] == "fetch"]
    assert any("/publications/20" in url for url in opened), opened
    found = {item.title for item in report.items}
    assert {"Graph neural networks for protein structure", "Graph neural networks for traffic forecasting"} <= found


def test_a_part_named_paper_is_opened_before_the_first_week(tmp_path: Path, server: FaultServer) -> None:
    """The simulated Crawler scores "Your first week", "Lab safety" and "Paper companions" alike (none names the
    request's subject): the one whose words name works is opened first (`tools/link_kinds.py`, the singular too)."""
    handbook(server, publications="Paper companions")
    _, events = run_on_loopback(server, tmp_path / "runs", QUERY)
    opened = [e["url"] for e in events if e["event"] == "fetch" and e["url"] != server.url("/")]
    assert opened[:1] == [server.url("/publications/index.html")], opened
