"""A site whose address redirects ("/" to "/en/", as many portals do) is read once: the address the page answered from
is that page, so its own links back to it ("Home", the logo) are never offered as another page to read, and no
subpage of the site's budget is spent reading it again (issue 26: a portal's first run spent one of its five pages so).
"""

from __future__ import annotations

import html
from collections.abc import Iterator
from pathlib import Path

import pytest
from fault_server import FaultServer, Reply
from unlike_sites import Paper, entry, loopback_settings, serve_papers

from research_crawler.context.store import RunStore
from research_crawler.context.urls import canonicalize_url
from research_crawler.run.session import ResearchSession
from research_crawler.run.trace import read_trace

PAPERS = [
    Paper("gnn-chemistry", "Graph neural networks for reaction yield prediction", "2025-02-11"),
    Paper("gnn-power", "Graph neural networks for power grid state estimation", "2024-06-03"),
]


@pytest.fixture
def server() -> Iterator[FaultServer]:
    with FaultServer() as running:
        yield running


def portal(title: str, body: str) -> str:
    """A portal's page: its logo and "Home" lead to /en/, the address "/" redirects to."""
    return (
        f"<!doctype html><html><head><title>{html.escape(title)}</title></head><body><header>"
        "<a href='/en/'><img alt='Graph Portal' src='/logo.png'></a> <a href='/en/'>Home</a> "
        "<a href='/en/outputs'>Research outputs</a></header>"
        f"<main>{body}</main></body></html>"
    )


def test_the_address_a_redirected_page_answered_from_is_never_read_again(tmp_path: Path, server: FaultServer) -> None:
    serve_papers(server, PAPERS)
    server.route("/", Reply(302, "", headers={"Location": "/en/"}))
    server.page("/en/", portal("Graph Portal", "<h1>Graph Portal</h1><p>Research of the graph learning group.</p>"))
    outputs = "".join(entry(paper) for paper in PAPERS)
    server.page("/en/outputs", portal("Research outputs", f"<h1>Research outputs</h1><ul>{outputs}</ul>"))
    settings = loopback_settings(server, tmp_path / "runs")
    run_dir = tmp_path / "run"
    report = ResearchSession(settings, backend="simulated").run(
        "Find papers on graph neural networks", sites=[server.url("/")], run_dir=run_dir
    )
    assert {paper.title for paper in PAPERS} <= {item.title for item in report.items}
    (web,) = RunStore(run_dir).load().web_contexts.values()
    answered = canonicalize_url(server.url("/en/"))
    # the code before this test queued /en/ (the page's own "Home") as a page still to read, and could read it again
    assert answered not in web.pending and answered not in web.visited_urls
    read = [e["final_url"] for e in read_trace(run_dir / "trace.jsonl") if e["event"] == "fetch"]
    assert read.count(answered) == 1, read
