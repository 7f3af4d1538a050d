"""A blog aggregator's river, with the simulated agents: each entry is a heading of two links — the member blog's name,
then the post's title — with the post's teaser under it, and the posts that announce papers on the request's subject
say so only in their teasers ("Out at last", "Two winters of work"). The Crawler's view gives a post's title link
the teaser under its heading as its context (`pages/links._link_contexts`), so with a page budget of three the two
announcements are opened, ahead of the field notes, job posts and photo posts listed before them."""

from __future__ import annotations

import html
from collections.abc import Iterator
from pathlib import Path

import pytest
from fault_server import FaultServer
from unlike_sites import page, run_on_loopback

QUERY = "Find papers on graph neural networks"
#: The river's entries, newest first: the post's address, its blog, its title, its teaser, and the paper it announces.
POSTS: list[tuple[str, str, str, str, str]] = [
    ("/2025/06/02/field-notes/", "Hedgerow Diary", "Field notes: a wet week on the coast",
     "Four days of rain and two of sun; the pools were full and the terns were back on the spit.", ""),
    ("/2025/05/20/hiring/", "Lab Bench", "We are hiring a technician",
     "A two-year post to help with surveys and lab work; a driving licence is needed.", ""),
    ("/2025/05/11/photos/", "Hedgerow Diary", "Photo post: spring favourites",
     "A few pictures from the week, taken through a hand lens with a phone.", ""),
    ("/2025/04/30/recorders/", "County Notes", "Notes from the recorders' day",
     "Talks on new atlases, data standards and how to encourage beginners to send in records.", ""),
    ("/2025/04/12/out-at-last/", "Lab Bench", "Out at last",
     "New preprint: graph neural networks that forecast traffic on road networks from sparse sensors.",
     "Graph neural networks for traffic forecasting"),
    ("/2025/03/28/two-winters/", "Signal and Noise", "Two winters of work",
     "Our preprint on graph neural networks for protein structure is online, with code.",
     "Graph neural networks for protein structure"),
]  # fmt: skip


@pytest.fixture
def server() -> Iterator[FaultServer]:
    with FaultServer() as running:
        yield running


def river(server: FaultServer) -> None:
    """Home page: the river (blog name — post title as each entry's heading, the teaser under it, a "Read more" link)
    and the blogs' list; a post's page shows its title, its blog, its text and the paper it announces."""
    entries = "".join(
        f"<article class='entry'><h3><a href='/blogs/{blog.lower().replace(' ', '-')}/'>{html.escape(blog)}</a> — "
        f"<a href='{path}'>{html.escape(title)}</a></h3><p>{html.escape(teaser)}</p>"
        f"<p class='meta'>by a member · <a href='{path}'>Read more</a></p></article>"
        for path, blog, title, teaser, _ in POSTS
    )
    blogs = sorted({blog for _, blog, _, _, _ in POSTS})
    members = "".join(f"<li><a href='/blogs/{name.lower().replace(' ', '-')}/'>{html.escape(name)}</a></li>"
                      for name in blogs)  # fmt: skip
    body = f"<h1>Planet Naturalists</h1><main>{entries}</main><aside><h2>Members</h2><ul>{members}</ul></aside>"
    server.page("/", page("Planet Naturalists", body))
    for path, blog, title, teaser, paper in POSTS:
        announced = f"<h2>{html.escape(paper)}</h2><p>Preprint, 2025.</p>" if paper else ""
        text = f"<h1>{html.escape(title)}</h1><p>Posted on {html.escape(blog)}</p><p>{html.escape(teaser)}</p>"
        server.page(path, page(title, text + announced))
    for name in blogs:
        server.page(f"/blogs/{name.lower().replace(' ', '-')}/", page(name, f"<h1>{html.escape(name)}</h1>"))


def test_the_posts_whose_teasers_announce_the_subject_are_opened(tmp_path: Path, server: FaultServer) -> None:
    river(server)
    _, events = run_on_loopback(server, tmp_path / "runs", QUERY, pages=3)
    opened = {e["url"] for e in events if e["event"] == "fetch"}
    announcing = {server.url(path) for path, _, _, _, paper in POSTS if paper}
    assert announcing <= opened, f"opened {sorted(opened)}"
