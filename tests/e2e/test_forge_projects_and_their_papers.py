"""A code forge of research projects, with the simulated agents: the listing names each project by its handle
("Reef Lab / bleachmap") over a line on what it does; each project's page shows its files, a paper among them
(paper/paper.md) whose front matter gives the paper's title, authors and date. A project is no paper: it is never
stored (`tools/named_places.py`), it is a way to the paper it carries, which is read from its front matter
(`pages/front_matter.py`) and reported; a course and a group's website carry none and give nothing."""

from __future__ import annotations

import html
from collections.abc import Iterator
from pathlib import Path

import pytest
from fault_server import FaultServer
from unlike_sites import loopback_settings

from research_crawler.run.session import ResearchSession
from research_crawler.run.trace import read_trace

QUERY = "Find papers on coral reef bleaching"
#: (handle, the line under its name, the paper it carries: title, authors, date) — None: no paper.
PROJECTS = [
    (
        "bleachmap",
        "Coral Reef Bleaching Mapped from Drone Surveys",
        ("Coral Reef Bleaching Mapped from Drone Surveys", ["Amani Okafor", "Lena Voss"], "14 February 2025"),
    ),
    ("course-mar210", "Coral reef bleaching lecture notes and exercises", None),
    ("website", "Source of the lab's website", None),
    (
        "heatreef",
        "Marine Heatwaves and Coral Reef Bleaching in the Red Sea",
        ("Marine Heatwaves and Coral Reef Bleaching in the Red Sea", ["Omar Haddad"], "2 June 2024"),
    ),
]


@pytest.fixture
def server() -> Iterator[FaultServer]:
    with FaultServer() as running:
        yield running


def page(title: str, body: str) -> str:
    return f"<!doctype html><html><head><title>{html.escape(title)}</title></head><body>{body}</body></html>"


def forge(server: FaultServer) -> None:
    rows = "".join(
        f"<li><h2><a href='/reef-lab/{handle}'>Reef Lab / {handle}</a></h2><p>{html.escape(line)}</p>"
        "<span>Updated Oct 2, 2025</span></li>"
        for handle, line, _ in PROJECTS
    )
    server.page("/", page("Explore projects · Tidecode", f"<main><h1>Explore projects</h1><ul>{rows}</ul></main>"))
    for handle, line, paper in PROJECTS:
        files = f"<tr><td><a href='/reef-lab/{handle}/-/tree/main/src'>src</a></td><td>Refactor</td></tr>"
        cite = ""
        if paper is not None:
            files += f"<tr><td><a href='/reef-lab/{handle}/-/tree/main/paper'>paper</a></td><td>Add paper</td></tr>"
            title, authors, date = paper
            cite = (  # a README's DOI badge (off the site) beside the paper's title, and the paper's file
                f"<p><a href='https://doi.org/10.5281/zenodo.{len(handle)}'>DOI</a> {html.escape(title)}.</p>"
                f"<p>Please cite the paper (<a href='/reef-lab/{handle}/-/blob/main/paper/paper.md'>paper/paper.md</a>)"
                "</p>"
            )
            names = "".join(f"  - name: {name}\n    affiliation: 1\n" for name in authors)
            matter = f"---\ntitle: '{title}'\ntags:\n  - Python\nauthors:\n{names}date: {date}\n---"
            server.page(
                f"/reef-lab/{handle}/-/blob/main/paper/paper.md",
                page(
                    f"paper/paper.md · main · Reef Lab / {handle} · Tidecode",
                    f"<nav><a href='/reef-lab'>Reef Lab</a> / <a href='/reef-lab/{handle}'>{handle}</a></nav>"
                    f"<pre><code>{html.escape(matter)}</code></pre><h1>Summary</h1>"
                    "<p>We study coral reef bleaching with open code.</p><h1>References</h1>",
                ),
            )
        server.page(
            f"/reef-lab/{handle}",
            page(
                f"Reef Lab / {handle} · Tidecode",
                f"<nav><a href='/reef-lab'>Reef Lab</a> / {handle}</nav><h1>{handle}</h1><p>{html.escape(line)}</p>"
                f"<table>{files}</table>{cite}",
            ),
        )


def test_projects_are_ways_to_the_papers_they_carry(tmp_path: Path, server: FaultServer) -> None:
    forge(server)
    settings = loopback_settings(server, tmp_path / "runs")
    report = ResearchSession(settings, backend="simulated").run(QUERY, sites=[server.url("/")])
    events = read_trace(Path(report.run_dir or "") / "trace.jsonl")
    stored = [title for e in events if e["event"] == "items_stored" for title in e["titles"]]
    assert not [title for title in stored if title.startswith("Reef Lab /")]
    found = {item.title: item for item in report.items}
    for _, _, paper in PROJECTS:
        if paper is not None:
            title, authors, _ = paper
            assert title in found, sorted(found)
            assert found[title].url.endswith("/paper/paper.md")
            assert list(found[title].authors)[:1] == authors[:1]
    assert len(found) == 2
