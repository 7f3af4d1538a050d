"""Whole requests, with the simulated model, on small sites whose works are not linked by their titles: a staff
homepage whose papers are citation strings followed by "[Abstract] [PDF] [BibTeX]", and a seminar programme whose
talks are rows of schedule tables with the title in the last cell (issue 26, found on the fifth fresh batch)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fault_server import FaultServer
from unlike_sites import loopback_settings

from research_crawler.config.settings import Settings
from research_crawler.run.session import ResearchSession
from research_crawler.run.trace import read_trace

#: (slug, authors as the citation writes them, title, journal, year)
CITED = [
    ("gnn-molecules", "Okafor, A., Lindqvist, M. and Berg, T.", "Graph neural networks for molecular property "
     "prediction", "Machine Learning Letters", 2024),
    ("soil-carbon", "Berg, T. and Okafor, A.", "Soil carbon mapping from satellite imagery", "Remote Sensing "
     "Notes", 2024),
    ("gnn-traffic", "Lindqvist, M. and Okafor, A.", "Spatio-temporal graph neural networks for traffic forecasting",
     "Transport Learning", 2022),
]  # fmt: skip


def _page(title: str, body: str) -> str:
    return f"<!doctype html><html><head><title>{title}</title></head><body>{body}</body></html>"


def homepage(server: FaultServer) -> None:
    """A hand-written homepage: a list of citations, each followed by links named only by what they open; abstract
    pages that name neither authors nor year; BibTeX as text; a private folder robots.txt forbids."""
    server.robots("User-agent: *\nDisallow: /private/\n")
    server.page(
        "/",
        _page("Ada Okafor", "<h1>Ada Okafor</h1><p>I study learning on graphs and the soil.</p><ul>"
              "<li><a href='/papers.html'>Publications</a></li><li><a href='/private/drafts.html'>Drafts</a></li>"
              "</ul>"),
    )  # fmt: skip
    rows = "".join(
        f"<li>{authors}. {title}. <i>{journal}</i>, 12:100–114, {year}. [<a href='/p/{slug}.html'>Abstract</a>] "
        f"[<a href='/p/{slug}.pdf'>PDF</a>] [<a href='/p/{slug}.bib'>BibTeX</a>]</li>"
        for slug, authors, title, journal, year in CITED
    )
    server.page("/papers.html", _page("Publications", f"<h1>Publications</h1><ul>{rows}</ul>"))
    for slug, _, title, _, _ in CITED:
        server.page(
            f"/p/{slug}.html",
            _page(title, f"<h1>{title}</h1><h2>Abstract</h2><p>We study {title.lower()} on public benchmarks.</p>"),
        )


@pytest.fixture
def server() -> Iterator[FaultServer]:
    with FaultServer() as running:
        yield running


def _settings(tmp_path: Path, server: FaultServer) -> Settings:
    return loopback_settings(server, tmp_path / "runs")


def test_a_homepages_citations_are_reported_with_the_year_and_authors_they_name(
    tmp_path: Path, server: FaultServer
) -> None:
    homepage(server)
    report = ResearchSession(_settings(tmp_path, server), backend="simulated").run(
        "Find papers on graph neural networks published in 2024", sites=[server.url("/")]
    )
    (item,) = report.items
    assert item.title == CITED[0][2]
    assert item.url == server.url("/p/gnn-molecules.html"), "the entry's abstract page, not its BibTeX"
    assert (item.date or "").startswith("2024")
    assert item.authors[:1] == ["Okafor, A."]
    assert not server.hits_for("/private/drafts.html"), "a link robots.txt forbids is never queued"
    events = read_trace(Path(report.run_dir or "") / "trace.jsonl")
    assert not [e for e in events if e["event"] == "fetch" and e["determination"] == "blocked_by_robots"]


def test_a_seminar_programmes_talks_are_read_from_its_schedule_table(tmp_path: Path, server: FaultServer) -> None:
    talks = [
        ("1", "Thu 8 Feb", "Rosa Lind", "Graph neural networks for molecular property prediction"),
        ("2", "Thu 15 Feb", "Omar Diaz", "Sediment phosphorus release in reservoirs"),
        ("3", "Thu 22 Feb", "Mei Tan", "Message passing graph neural networks at scale"),
        ("4", "Thu 7 Mar", "Ian Ross", "Graph neural networks for traffic forecasting"),
        ("5", "Thu 14 Mar", "Ana Sousa", "Explaining the predictions of graph neural networks"),
        ("6", "Thu 21 Mar", "Lea Wolf", "Graph neural networks for protein structure"),
        ("7", "Thu 28 Mar", "Tom Hale", "Oversmoothing in deep graph neural networks"),
        ("8", "Thu 4 Apr", "Eva Nagy", "Graph neural networks for weather forecasting"),
    ]
    rows = "".join(
        f"<tr><td>{day}</td><td>16:00</td><td>Talk</td><td>{speaker} <i>et al.</i></td>"
        f"<td><a href='/talks/{key}.html'>{title}</a></td></tr>"
        for key, day, speaker, title in talks
    )
    server.page("/", _page("Seminar", "<h1>Seminar</h1><p><a href='/programme/2024.html'>Programme 2024</a></p>"))
    server.page(
        "/programme/2024.html",
        _page("Programme 2024", "<h1>Programme 2024</h1><table><tr><th>Date</th><th>Time</th><th>Type</th>"
              f"<th>Speaker</th><th>Title</th></tr>{rows}<tr><td>Thu 29 Feb</td><td>18:00</td>"
              "<td>Invited lecture</td><td>Ingrid Holm</td><td>Fifty years of graph theory</td></tr></table>"),
    )  # fmt: skip
    for key, day, speaker, title in talks:
        server.page(
            f"/talks/{key}.html",
            _page(title, f"<h1>{title}</h1><p><b>Speaker:</b> {speaker}</p><p><b>When:</b> {day} 2024</p>"
                  f"<h2>Abstract</h2><p>We study {title.lower()}.</p>"),
        )  # fmt: skip
    report = ResearchSession(_settings(tmp_path, server), backend="simulated").run(
        "Find papers on graph neural networks", sites=[server.url("/")]
    )
    # seven talks on the topic, more than the site's pages allow opening: they are taken from the table's rows
    wanted = [talk for talk in talks if talk[0] != "2"]
    assert {item.title for item in report.items} == {title for *_, title in wanted}
    assert {item.url for item in report.items} == {server.url(f"/talks/{key}.html") for key, *_ in wanted}
    events = read_trace(Path(report.run_dir or "") / "trace.jsonl")
    explored = {e["url"] for e in events if e["event"] == "scrape" and "/talks/" in e["url"]}
    assert len(explored) < len(wanted), "not every talk's page was explored to find it"
