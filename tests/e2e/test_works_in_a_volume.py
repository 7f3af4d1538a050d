"""A publisher's home lists its books' volumes, and only a volume's own page (its table of contents) lists the
chapters, each with its authors: a link stored as an item although it names a volume is still opened, so the works
it holds are reached within the site's budget (issue 26, deep sites)."""

from __future__ import annotations

import html
from collections.abc import Iterator
from pathlib import Path

import pytest
from fault_server import FaultServer
from unlike_sites import Paper, loopback_settings, page, serve_papers

from research_crawler.run.session import ResearchSession

CHAPTERS = [
    Paper("gnn-chemistry", "Graph neural networks for reaction yield prediction", "2025-02-11"),
    Paper("gnn-power", "Graph neural networks for power grid state estimation", "2025-02-11"),
    Paper("gnn-proteins", "Message passing graph networks for protein interfaces", "2025-02-11"),
]
OTHER = [Paper("tides", "Tidal energy siting along rocky coasts", "2024-05-02", subject="energy")]


@pytest.fixture
def server() -> Iterator[FaultServer]:
    with FaultServer() as running:
        yield running


def publisher_site(server: FaultServer) -> None:
    serve_papers(server, CHAPTERS + OTHER)
    volumes = (
        "<ul><li><a href='/book/978-1'>Advances in Graph Neural Networks, Volume 4</a> (2025)</li>"
        "<li><a href='/book/978-2'>Advances in Ocean Energy, Volume 9</a> (2024)</li></ul>"
    )
    server.page("/", page("Meridian Press", f"<h1>Meridian Press</h1><h2>Book series</h2>{volumes}"))

    def contents(title: str, chapters: list[Paper]) -> str:
        rows = "".join(
            f"<li><a href='{c.path}'>{html.escape(c.title)}</a><br>Ana Ruiz, Kofi Mensah · pp. {10 * n}–{10 * n + 9}"
            "</li>"
            for n, c in enumerate(chapters, 1)
        )
        return page(title, f"<h1>{html.escape(title)}</h1><p>Edited by Lena Ott.</p><h2>Chapters</h2><ol>{rows}</ol>")

    server.page("/book/978-1", contents("Advances in Graph Neural Networks, Volume 4", CHAPTERS))
    server.page("/book/978-2", contents("Advances in Ocean Energy, Volume 9", OTHER))


def test_the_chapters_of_a_volume_stored_as_an_item_are_reached(tmp_path: Path, server: FaultServer) -> None:
    publisher_site(server)
    settings = loopback_settings(server, tmp_path / "runs")
    report = ResearchSession(settings, backend="simulated").run(
        "Find papers on graph neural networks", sites=[server.url("/")]
    )
    titles = {item.title for item in report.items}
    assert {c.title for c in CHAPTERS[:2]} <= titles, titles  # the code before this test reported only the volume
    assert "Advances in Graph Neural Networks, Volume 4" not in titles  # a table of contents is no work
    assert OTHER[0].title not in titles
