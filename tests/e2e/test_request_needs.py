"""What a constrained request still needs, on small sites of the tests' own, with the simulated model: items of other
years do not count toward a request for one year's items (issue 26)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fault_server import FaultServer
from unlike_sites import Paper, entry, page, serve_papers

from research_crawler.config.settings import Settings
from research_crawler.run.session import ResearchSession


@pytest.fixture
def server() -> Iterator[FaultServer]:
    with FaultServer() as running:
        yield running


def settings_for(tmp_path: Path, server: FaultServer) -> Settings:
    settings = Settings(runs_dir=tmp_path / "runs")
    settings.fetch.allowed_hosts = [server.host_port]
    settings.fetch.per_host_delay_s = 0.0
    settings.rerank.kind = "bm25"
    return settings


#: A society's news page showing ten papers of earlier years, and a page for each year.
EARLIER = [
    Paper(f"kelp-{year}-{n}", f"Kelp forest decline {topic}", f"{year}-{n % 9 + 1:02d}-10", "ecology")
    for n, (year, topic) in enumerate(
        [
            (2021, "in the North Sea"),
            (2021, "after storm seasons"),
            (2022, "and urchin grazing"),
            (2022, "seen from satellites"),
            (2022, "under nutrient loss"),
            (2023, "in cold upwelling zones"),
            (2023, "and fish nurseries"),
            (2023, "in citizen surveys"),
            (2023, "at range edges"),
            (2023, "and carbon burial"),
        ]
    )
]
OF_2024 = [
    Paper("kelp-2024-a", "Kelp forest decline during the 2024 heatwave", "2024-08-19", "ecology"),
    Paper("kelp-2024-b", "Recovery after kelp forest decline in sheltered bays", "2024-03-02", "ecology"),
]


def society(server: FaultServer) -> None:
    serve_papers(server, EARLIER + OF_2024)
    listed = "".join(entry(paper) for paper in EARLIER)
    server.page(
        "/",
        page(
            "Kelp Society",
            f"<h1>Kelp Society</h1><h2>Papers by our members</h2><ul>{listed}</ul>"
            "<p>By year: <a href='/year/2024'>2024</a> <a href='/year/2023'>2023</a></p>",
        ),
    )
    of_2024 = "".join(entry(paper) for paper in OF_2024)
    server.page("/year/2024", page("2024", f"<h1>Papers of 2024</h1><ul>{of_2024}</ul>"))
    older = "".join(entry(paper) for paper in EARLIER if paper.date.startswith("2023"))
    server.page("/year/2023", page("2023", f"<h1>Papers of 2023</h1><ul>{older}</ul>"))


def test_items_of_other_years_do_not_count_toward_a_year_asked_for(tmp_path: Path, server: FaultServer) -> None:
    society(server)
    report = ResearchSession(settings_for(tmp_path, server), backend="simulated").run(
        "Find papers on kelp forest decline published in 2024", sites=[server.url("/")]
    )
    # the home's ten papers of earlier years are as many as a report lists, but none is of 2024
    assert {item.title for item in report.items} == {paper.title for paper in OF_2024}
    assert server.hits_for("/year/2024")
