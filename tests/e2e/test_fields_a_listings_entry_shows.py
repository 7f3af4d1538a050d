"""A catalogue of working papers whose list writes each paper as its title link over two lines — the authors as
"Surname I" and "Series ; 2023 Nov 2 · ID: WP-…" — while each paper's own page gives only its heading and abstract,
no date and no byline, with the simulated agents: the report keeps what the list's entry showed beside the link that
led to each paper (`report/listing_entry.py`), so every reported paper has its authors and its date, and a request
for the newest papers is answered newest first."""

from __future__ import annotations

import html
from collections.abc import Iterator
from pathlib import Path

import pytest
from fault_server import FaultServer
from unlike_sites import page, run_on_loopback

QUERY = "Find the 3 most recent papers on graph neural networks"
#: (address, title, authors as the list writes them, the day the list writes, abstract)
PAPERS = [
    ("/wp/0412", "Graph Neural Networks for Traffic Forecasting in Dense Cities", "Okafor A, Rossi C",
     "2023 Nov 2", "We forecast traffic on road graphs with graph neural networks and message passing."),
    ("/wp/0388", "Message Passing Graph Neural Networks for Molecule Property Prediction", "Lindqvist M, Haddad J",
     "2023 Mar 14", "Graph neural networks predict the properties of molecules from their bonds."),
    ("/wp/0451", "Graph Neural Networks on Power Grids Under Line Failures", "Brennan T, Ito K, Osei P",
     "2024 Feb 20", "We train graph neural networks to find the lines whose failure splits a power grid."),
    ("/wp/0301", "Soil Carbon Under Long-Term Grazing in Upland Pastures", "Fairley D",
     "2022 Jun 9", "Soil carbon was measured across grazed and ungrazed upland plots."),
]  # fmt: skip


@pytest.fixture
def server() -> Iterator[FaultServer]:
    with FaultServer() as running:
        yield running


def catalogue(server: FaultServer) -> None:
    """Home: the list of working papers, each its kind, its title link, its authors' line and its series' line; each
    paper's page: its heading and abstract alone."""
    rows = "".join(
        f"<li><span>Working paper</span> <a href='{path}'>{html.escape(title)}</a>"
        f"<div>{html.escape(authors)}</div><div>Discussion series ; {day} · ID: WP-{path[-4:]}</div></li>"
        for path, title, authors, day, _ in PAPERS
    )
    server.page("/", page("Working papers - Institute", f"<h1>Working papers</h1><ol>{rows}</ol>"))
    for path, title, _, _, abstract in PAPERS:
        body = f"<h1>{html.escape(title)}</h1><h2>Abstract</h2><p>{html.escape(abstract)}</p>"
        server.page(path, page(f"{title} - Institute", body))


def test_a_paper_s_authors_and_date_are_read_off_the_entry_that_led_to_it(tmp_path: Path, server: FaultServer) -> None:
    catalogue(server)
    report, _ = run_on_loopback(server, tmp_path / "runs", QUERY)
    shown = {server.url(path): (authors.split(", ")[0], day) for path, _, authors, day, _ in PAPERS}
    assert report.items, "the papers on graph neural networks are reported"
    years = {"2023 Nov 2": "2023-11-02", "2023 Mar 14": "2023-03-14", "2024 Feb 20": "2024-02-20"}
    for item in report.items:
        first, day = shown[item.url]
        assert item.authors[:1] == [first]
        assert item.date == years[day]
    dates = [item.date or "" for item in report.items]
    assert dates == sorted(dates, reverse=True), "the newest first, as asked"
