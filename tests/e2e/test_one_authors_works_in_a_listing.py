"""A publisher's list of new books, each shown with its subtitle and byline under its title, with the simulated agents:
asked for works on a topic by one author, the team opens the book whose byline names that author although its title
shares no word with the topic (`pages/entry_bylines.py`, raised by `site_offers.offer_author_entries`), reads on its
page that it is on the topic, and reports it — not the book on the topic by someone else."""

from __future__ import annotations

import html
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from fault_server import FaultServer
from unlike_sites import page, run_on_loopback

QUERY = "Find papers on graph neural networks by Okafor"


@dataclass(frozen=True)
class Book:
    slug: str
    title: str
    subtitle: str
    authors: tuple[str, ...]
    abstract: str


BOOKS = [
    Book("soil", "Soil Carbon from Orbit", "Mapping with Satellites", ("Dana Lindqvist", "Eli Moreau"),
         "A study of soil carbon mapped from satellite imagery across farmland."),
    Book("traffic", "Graph Neural Networks for Traffic Forecasting", "Roads as Graphs", ("Chen Wu", "Ines Park"),
         "Graph neural networks forecast traffic on road networks."),
    Book("messages", "Messages Between Nodes", "Essays from a Decade", ("Ada Okafor", "Bo Lee"),
         "A book on graph neural networks: message passing, graph convolutions and their use on molecules."),
    Book("glaciers", "Glaciers in Retreat", "Photographs and Measurements", ("Farid Haddad",),
         "Glacier retreat recorded in a century of photographs."),
]  # fmt: skip


@pytest.fixture
def server() -> Iterator[FaultServer]:
    with FaultServer() as running:
        yield running


def press(server: FaultServer) -> None:
    """Home: the press's menu and its new books, each a heading link, its subtitle, its byline and its format."""
    listed = "".join(
        f"<h3><a href='/books/{book.slug}'>{html.escape(book.title)}</a></h3><p>{html.escape(book.subtitle)}</p>"
        f"<p>{html.escape(', '.join(book.authors))}</p><p>Hardcover · 2025</p>"
        for book in BOOKS
    )
    menu = "".join(f"<a href='/{slug}'>{slug.title()}</a> · " for slug in ("about", "catalogs", "contact"))
    server.page("/", page("Harbour University Press", f"<p>{menu}</p><h1>New and noteworthy</h1>{listed}"))
    for path in ("/about", "/catalogs", "/contact"):
        server.page(path, page("Harbour University Press", "<p>The press publishes scholarship for every reader.</p>"))
    for book in BOOKS:
        server.page(
            f"/books/{book.slug}",
            page(
                f"{book.title} | Harbour University Press",
                f"<h1>{html.escape(book.title)}</h1><p>{html.escape(book.subtitle)}</p>"
                f"<p>By {html.escape(' and '.join(book.authors))}</p><p>Published 12 March 2025</p>"
                f"<h2>Abstract</h2><p>{html.escape(book.abstract)}</p>",
            ),
        )


def test_the_entry_whose_byline_names_the_author_is_opened_and_reported(tmp_path: Path, server: FaultServer) -> None:
    press(server)
    report, events = run_on_loopback(server, tmp_path / "runs", QUERY, pages=2)
    assert [item.title for item in report.items] == ["Messages Between Nodes"]
    assert any("Okafor" in name for name in report.items[0].authors)
    raised = [e["url"] for e in events if e["event"] == "offered" and e.get("kind") == "author_entry"]
    assert raised == [server.url("/books/messages")]


def test_without_an_author_asked_for_no_entry_is_raised_for_its_byline(tmp_path: Path, server: FaultServer) -> None:
    press(server)
    _, events = run_on_loopback(server, tmp_path / "runs", "Find papers on graph neural networks", pages=2)
    assert not [e for e in events if e["event"] == "offered" and e.get("kind") == "author_entry"]
