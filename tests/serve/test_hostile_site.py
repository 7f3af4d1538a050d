"""A hostile site through the web app, end to end: the reliability catalogue's site (terminal control sequences,
bidi overrides, zero-width characters, console markup) with HTML added to its titles, explored with the simulated
model; nothing from it reaches the run page, the past runs or the event stream raw, and no markup of it runs."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from conftest import BASE_URL, read_events
from fastapi.testclient import TestClient

from research_crawler.config.overrides import apply_overrides
from research_crawler.config.settings import Settings
from research_crawler.eval.reliability.fault_web import FaultServer, Reply
from research_crawler.eval.reliability.hostile_site import FORBIDDEN, QUERY, REFUSED_ITEM_PATH, hostile_site
from research_crawler.serve.app import create_app

#: Written escaped in the site's HTML, so the text the crawler reads holds the markup itself.
MARKUP = "&lt;script&gt;alert(1)&lt;/script&gt;&lt;img src=x onerror=alert(2)&gt;"
TOPIC = "Graph neural networks for protein design"


@pytest.fixture(scope="module")
def site() -> Iterator[FaultServer]:
    pages = hostile_site()
    with FaultServer() as server:
        for path, html in pages.pages.items():
            server.page(path, html.replace(TOPIC, f"{TOPIC} {MARKUP}"))
        server.route(REFUSED_ITEM_PATH, Reply(302, headers={"Location": pages.refused_target}))
        yield server


def test_a_hostile_site_reaches_the_browser_only_as_text(serve_settings: Settings, site: FaultServer) -> None:
    settings = apply_overrides(serve_settings, {"fetch.allowed_hosts": [site.host_port]})
    with TestClient(create_app(settings, backend="simulated"), base_url=BASE_URL) as client:
        created = client.post("/api/runs", json={"query": QUERY, "sites": [site.url("/")]})
        assert created.status_code == 201, created.text
        run_id = created.json()["id"]
        events = read_events(client, run_id)
        assert events[-1][1]["status"] == "done"
        stream = client.get(f"/api/runs/{run_id}/events").text + repr(events)
        report = client.get(f"/api/runs/{run_id}").json()["report"]
        assert report["items"], "the site's items were collected: the payloads had a way to the page"
        pages = {
            "run": client.get(f"/runs/{run_id}").text,
            "index": client.get("/").text,
            "graph": client.get(f"/api/runs/{run_id}/graph.svg").text,
        }
    # The page text's own tags are stripped on the way in; what is left of the payload is on the page, inert.
    assert "alert(1)" in pages["run"] and "Graph neural networks for protein design" in pages["run"]
    for name, text in {**pages, "stream": stream}.items():
        assert not FORBIDDEN.search(text), f"{name}: a control, bidi or zero-width character reached it raw"
    for name, text in pages.items():
        without_ours = text.replace('<script src="/static/app.js" defer></script>', "")
        assert "<script" not in without_ours and "<img" not in without_ours, name
        assert not re.search(r"(?i)\bon\w+\s*=\s*[\"']?alert", without_ours.replace("onerror=alert(2)&gt;", "")), name
        assert "[link=" not in text or "<a href=\"http://evil.example" not in text, name
        assert 'href="http://evil.example' not in text and 'href="http://10.0.0.7' not in text, name
