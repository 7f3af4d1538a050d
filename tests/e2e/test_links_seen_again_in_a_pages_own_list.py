"""A group's site whose sidebar lists every page, the years of its papers too, and whose "Publications" page lists
those same years again as its own content, with the simulated agents and a budget of four pages. On the start page the
years are the site's menu: queued below the page's own links (the guides). On the Publications page they are the
page's own list: the Crawler is shown them again and judges them there, and the years are raised above the guides
(`nested_chats/judged_links.py`, `WebContext.raise_pending`), so the pages left go to the years and their papers,
not to the guides. Without it the Publications page shows the Crawler nothing new, and the budget goes to "Your first
week" and "Lab safety"."""

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
    "/guide/cluster.html": ("Using the cluster", "Ask for an account and keep your jobs under a day."),
}


@pytest.fixture
def server() -> Iterator[FaultServer]:
    with FaultServer() as running:
        yield running


def _frame(title: str, body: str) -> str:
    guides = "".join(f"<li><a href='{path}'>{html.escape(name)}</a></li>" for path, (name, _) in GUIDES.items())
    years = "".join(f"<li><a href='/papers/{year}/'>Papers from {year}</a></li>" for year in YEARS)
    return (
        f"<!doctype html><html><head><title>{html.escape(title)} — Lab Pages</title></head><body>"
        f"<nav class='sidebar'><p>The lab</p><ul>{guides}</ul><p>Our papers</p><ul><li>"
        f"<a href='/papers/'>Publications</a></li>{years}</ul></nav>"
        f"<main>{body}</main><footer><a href='/contact.html'>Contact</a></footer></body></html>"
    )


def lab_site(server: FaultServer) -> None:
    serve_papers(server, LISTED)
    guides = ", ".join(f"<a href='{path}'>{html.escape(name)}</a>" for path, (name, _) in GUIDES.items())
    server.page(
        "/",
        _frame(
            "Welcome",
            f"<h1>Welcome to the lab</h1><p>New here? Read {guides}. What we publish is kept under "
            "<a href='/papers/'>Publications</a>.</p>",
        ),
    )
    for path, (name, text) in GUIDES.items():
        server.page(path, _frame(name, f"<h1>{html.escape(name)}</h1><p>{html.escape(text)}</p>"))
    years = "".join(f"<li><a href='/papers/{year}/'>Papers from {year}</a></li>" for year in YEARS)
    server.page(
        "/papers/",
        _frame(
            "Publications",
            "<h1>Publications</h1><p>Every paper the lab publishes is kept here with the data and the code behind it, "
            f"grouped by the year it appeared in print.</p><ul>{years}</ul>",
        ),
    )
    for year in YEARS:
        papers = [p for p in LISTED if p.date.startswith(year)]
        server.page(
            f"/papers/{year}/",
            _frame(f"Papers from {year}", f"<h1>Papers from {year}</h1><ol>{''.join(map(entry, papers))}</ol>"),
        )


def _opened(events: list[dict[str, object]]) -> list[str]:
    return [str(e["url"]) for e in events if e["event"] == "fetch" and e.get("source") == "web"]


def test_years_first_seen_in_the_menu_are_opened_from_the_publications_page(
    tmp_path: Path, server: FaultServer
) -> None:
    lab_site(server)
    report, events = run_on_loopback(server, tmp_path / "runs", QUERY, pages=4)
    opened = _opened(events)
    assert server.url("/papers/") in opened, opened
    assert not any("/guide/" in url for url in opened), opened
    assert server.url("/papers/2025/") in opened, opened
    found = {item.title for item in report.items}
    assert "Graph neural networks for traffic forecasting" in found, found
