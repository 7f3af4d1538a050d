"""A group blog whose front page shows each post under its column's name, the column's link first, with the
simulated agents: a model may name a post by the first link of its heading (the column's) and the teaser under it; the
column's page — a table of its posts, each with its day, under the columnist's byline — is a list of posts, never a
work: the Collector stores the post the teaser sits under (`tools/items.py`: a link heading several entries' titles
is no work's), and the column is never reported."""

from __future__ import annotations

import html
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from fault_server import FaultServer
from unlike_sites import page, run_on_loopback

QUERY = "Find papers on coral reef bleaching"


@dataclass(frozen=True)
class Post:
    column: str
    slug: str
    title: str
    day: str
    teaser: str


COLUMNS = {"reef-diary": ("Reef Diary", "Ines Novak"), "shore-lines": ("Shore Lines", "Farid Haddad")}
POSTS = [
    Post("reef-diary", "heat-stress-and-symbiont-loss", "Heat Stress and Symbiont Loss in Branching Corals",
         "2025-04-02", "New preprint on coral reef bleaching: which corals lose their symbionts first in a heatwave."),
    Post("shore-lines", "a-week-of-transects", "A week of transects", "2025-03-11",
         "Five days of counting limpets along the north shore."),
    Post("reef-diary", "we-are-hiring", "We are hiring a technician", "2024-11-19",
         "A two-year post to help with the surveys."),
    Post("shore-lines", "storm-debris", "What the storm left on the strandline", "2024-09-30",
         "Notes from a morning after the October storm."),
    Post("shore-lines", "recovery-after-bleaching", "Recovery of Reef Fish Assemblages after Coral Bleaching",
         "2024-06-03", "New preprint: coral reef bleaching and how reef fish come back when corals recover."),
    Post("reef-diary", "photo-post", "Photo post: the lagoon at dawn", "2024-02-14",
         "Some pictures from the lagoon, early in the morning."),
]  # fmt: skip


def _day(iso: str) -> str:
    year, month, day = iso.split("-")
    months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
    return f"{int(day)} {months[int(month) - 1]} {year}"


def group_blog(server: FaultServer) -> None:
    """Home: the newest posts, each a card headed by its column's link and then its own; a page per column (a table
    of its posts with their days under the columnist's byline); a page per post (its text, no tags)."""
    cards = "".join(
        f"<article class='card'><h3><a href='/columns/{post.column}/'>{COLUMNS[post.column][0]}</a> · "
        f"<a href='/posts/{post.slug}/'>{html.escape(post.title)}</a></h3><p>{html.escape(post.teaser)}</p>"
        f"<p class='meta'>{_day(post.day)}</p></article>"
        for post in POSTS
    )
    server.page("/", page("Coastal Field Notes", f"<h1>Coastal Field Notes</h1>{cards}"))
    for slug, (name, author) in COLUMNS.items():
        rows = "".join(
            f"<tr><td><a href='/posts/{post.slug}/'>{html.escape(post.title)}</a></td><td>{_day(post.day)}</td></tr>"
            for post in POSTS
            if post.column == slug
        )
        server.page(
            f"/columns/{slug}/",
            page(f"{name} | Coastal Field Notes", f"<h1>{name}</h1><p>By {author}</p><table>{rows}</table>"),
        )
    for post in POSTS:
        name, author = COLUMNS[post.column]
        server.page(
            f"/posts/{post.slug}/",
            page(
                f"{post.title} | Coastal Field Notes",
                f"<h1>{html.escape(post.title)}</h1><p>Posted by {author} in <a href='/columns/{post.column}/'>{name}"
                f"</a> on {_day(post.day)}</p><p>{html.escape(post.teaser)} The paper is open for comments.</p>",
            ),
        )


@pytest.fixture
def server() -> Iterator[FaultServer]:
    with FaultServer() as running:
        yield running


def test_a_columns_page_is_never_reported_as_a_work_and_its_post_is(tmp_path: Path, server: FaultServer) -> None:
    group_blog(server)
    report, events = run_on_loopback(server, tmp_path / "runs", QUERY, pages=3)
    reported = [item.url for item in report.items]
    assert not [url for url in reported if "/columns/" in url], reported
    stored = [e for e in events if e["event"] == "tool_call" and e.get("tool") == "collect_items"]
    assert stored, "the Collector stored nothing on the front page"
    # the model named each relevant post by its column's link and its teaser: stored as the post the teaser is under
    bleaching = ["/posts/heat-stress-and-symbiont-loss/", "/posts/recovery-after-bleaching/"]
    assert [path for path in bleaching if any(url.endswith(path) for url in reported)], reported
