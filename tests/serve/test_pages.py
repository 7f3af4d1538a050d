"""The web app's pages: a hostile report rendered inert (no markup, script or javascript: link from a page ever
runs), the report's parts on the run page, and the navigation graph drawn as SVG."""

from __future__ import annotations

import json
import re
from pathlib import Path
from xml.etree import ElementTree

from fastapi.testclient import TestClient

from research_crawler.config.settings import Settings
from research_crawler.report.models import Report, ReportItem, SiteSummary
from research_crawler.run.run_dir import RunMeta, new_run_dir
from research_crawler.serve.graph_svg import draw_graph_svg
from research_crawler.serve.pages import safe_href

SCRIPT = "<script>alert('pwned')</script>"
IMG = '<img src=x onerror="alert(1)">'
SITE = "http://127.0.0.1:18800/"


def _hostile_run(settings: Settings) -> Path:
    run_dir = new_run_dir(settings.runs_dir, "hostile")
    RunMeta(query=f"papers {SCRIPT}", backend="simulated").write(run_dir)
    items = [
        ReportItem(
            rank=1,
            title=f"Graph networks {SCRIPT}\x1b[2J",
            url="javascript:alert(1)",
            site=SITE,
            found_on="javascript:alert(2)",
            collector_score=9,
            authors=[IMG, "Ada Lovelace"],
            date='2025"><b>bold</b>',
            doi="10.1/<i>x</i>",
            pdf_url="data:text/html,<script>alert(3)</script>",
            metadata_sources={"title": "citation_title <u>x</u>"},
        ),
        ReportItem(
            rank=2, title="A plain title", url=f"{SITE}abs/2", site=SITE, found_on=f"{SITE}list", collector_score=7
        ),
    ]
    report = Report(
        query=f"papers {SCRIPT}",
        simulated_model=True,
        items=items,
        compliance=[f"2 of 5 requested {IMG}"],
        guard_notes=[f"removed an invented item {SCRIPT}"],
        sites=[SiteSummary(name=f"Site {SCRIPT}", url=SITE, reason="completed", detail=IMG)],
        markdown=f"# Report\n\n{SCRIPT}\n[click](javascript:alert(4))",
        stop_reason="all_sites_done",
        stop_detail=IMG,
    )
    (run_dir / "report.json").write_text(report.model_dump_json(), encoding="utf-8")
    graph = {
        "directed": True,
        "nodes": [
            {"id": SITE, "title": f"Home {SCRIPT}", "determination": "ok", "visit_order": 1},
            {"id": f"{SITE}list", "title": "List <b>", "determination": "ok", "visit_order": 2},
            {"id": f"{SITE}broken", "title": "", "determination": "not_found", "visit_order": 3},
            {"id": f"{SITE}abs/2", "title": "", "determination": None, "visit_order": None},
        ],
        "edges": [
            {"source": SITE, "target": f"{SITE}list", "anchor_text": "list"},
            {"source": SITE, "target": f"{SITE}broken", "anchor_text": "x"},
            {"source": f"{SITE}list", "target": f"{SITE}abs/2", "anchor_text": "paper"},
        ],
    }
    (run_dir / "graph.json").write_text(json.dumps(graph), encoding="utf-8")
    return run_dir


def test_a_hostile_report_is_shown_as_text(client: TestClient, serve_settings: Settings) -> None:
    run_dir = _hostile_run(serve_settings)
    page = client.get(f"/runs/{run_dir.name}").text
    assert "<script" not in page.replace('<script src="/static/app.js" defer></script>', ""), "only our own script"
    assert "&lt;script&gt;alert(&#39;pwned&#39;)&lt;/script&gt;" in page, "the title is there, as text"
    assert "<img" not in page and "<b>bold" not in page and "<i>x" not in page and "<u>x" not in page
    assert not re.search(r"""(href|src)\s*=\s*["']?\s*(javascript|data):""", page, re.IGNORECASE)
    assert "\x1b" not in page
    assert 'href="http://127.0.0.1:18800/abs/2"' in page, "a real http link stays a link"
    listing = client.get("/").text
    assert "&lt;script&gt;" in listing and "<script>alert" not in listing


def test_the_run_page_shows_the_report_its_sources_and_downloads(client: TestClient, serve_settings: Settings) -> None:
    run_dir = _hostile_run(serve_settings)
    page = client.get(f"/runs/{run_dir.name}").text
    for part in ('id="items"', 'id="item-1"', 'id="sources-2"', 'id="compliance"', 'id="guard-notes"'):
        assert part in page, part
    assert "2 of 5 requested" in page and "removed an invented item" in page
    assert f'href="/api/runs/{run_dir.name}/files/report.json"' in page
    assert "simulated model" in page
    assert 'id="follow-up"' in page and "<svg" in page


def test_the_graph_is_an_inert_svg_of_the_visited_pages(client: TestClient, serve_settings: Settings) -> None:
    run_dir = _hostile_run(serve_settings)
    response = client.get(f"/api/runs/{run_dir.name}/graph.svg")
    assert response.status_code == 200 and response.headers["content-type"].startswith("image/svg+xml")
    root = ElementTree.fromstring(response.text)  # well-formed XML: every label escaped
    svg = "{http://www.w3.org/2000/svg}"
    pages = root.findall(f"{svg}g")
    assert len(pages) == 3, "the visited pages, not the links only seen"
    kinds = [page.get("class") for page in pages]
    assert kinds == ["page visited", "page items", "page dead_end"]
    assert not root.findall(f".//{svg}script") and not root.findall(f".//{svg}a") and "<script" not in response.text
    titles = [page.find(f"{svg}title").text or "" for page in pages]  # type: ignore[union-attr]
    assert "1 item(s) found here" in titles[1] and "could not be read (not_found)" in titles[2]
    assert "+1 links not followed" in "".join(pages[1].itertext())


def test_the_graph_draws_a_tree_from_each_start_page() -> None:
    graph = {
        "nodes": [
            {"id": "a", "title": "A", "determination": "ok", "visit_order": 1},
            {"id": "b", "title": "B", "determination": "ok", "visit_order": 2},
            {"id": "c", "title": "C", "determination": "ok", "visit_order": 3},
            {"id": "z", "title": "Z", "determination": "ok", "visit_order": 4},
        ],
        "edges": [{"source": "a", "target": "b"}, {"source": "b", "target": "c"}, {"source": "c", "target": "a"}],
    }
    svg = draw_graph_svg(graph, ["c"])
    assert svg.count('class="followed"') == 2, "a link back to an earlier page is not a followed step"
    assert svg.count("<circle") == 4 + 3, "four pages and the legend's three dots"
    assert "No page visited yet." in draw_graph_svg({}, [])


def test_only_http_links_are_links() -> None:
    assert safe_href("https://arxiv.org/abs/1") == "https://arxiv.org/abs/1"
    for url in ("javascript:alert(1)", " JavaScript:alert(1)", "data:text/html,x", "vbscript:x", "//evil.example/x",
                "http://", "ftp://x/y", 'http://a/"onmouseover=x', None, 3):
        assert safe_href(url) is None, url
