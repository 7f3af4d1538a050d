"""A page that is only a script's shell, read without a browser from the data its own script loads: the same-origin
JSON it fetches is requested as a page is (robots.txt obeyed), and its entries count as read from that page."""

from __future__ import annotations

import json
from pathlib import Path

from fault_server import FaultServer, Hit, Reply

from research_crawler.config.settings import FetchSettings
from research_crawler.web.fetcher import Fetcher

SHELL = (
    "<!doctype html><html><head><title>Computer Science | Scholar</title></head><body><main><h1>Computer Science</h1>"
    "<div id='app'>Loading…</div><noscript>This site needs JavaScript to show its papers.</noscript><script>"
    "fetch('/api/v1/fields/cs').then(function (r) { return r.json(); }).then(function (d) { draw(d.data); });"
    "</script></main><footer><a href='/about'>About</a></footer></body></html>"
)
DATA = {
    "data": [
        {
            "title": f"Fixing Flaky Tests, Study {n}",
            "url": f"/paper/{n}",
            "year": 2024,
            "authors": [{"name": "Ana Silva"}],
        }
        for n in (1, 2, 3)
    ]
}


def _site(server: FaultServer) -> None:
    server.page("/fields/cs", SHELL)
    server.route("/api/v1/fields/cs", Reply(200, json.dumps(DATA), content_type="application/json"))


async def test_a_shell_without_a_browser_is_read_from_the_data_its_script_loads(
    fault_server: FaultServer, fast_settings: FetchSettings, tmp_path: Path
) -> None:
    _site(fault_server)
    settings = fast_settings.model_copy(update={"render": "auto", "chromium_path": str(tmp_path / "no-chromium")})
    async with Fetcher(settings) as fetcher:
        page = await fetcher.fetch(fault_server.url("/fields/cs"))
    assert page.ok and "needs JavaScript, no browser" in page.reason
    assert "read from the data its script loads" in page.reason and "/api/v1/fields/cs" in page.reason
    papers = [link for link in page.links if "/paper/" in link.url]
    assert [link.text for link in papers] == [f"Fixing Flaky Tests, Study {n}" for n in (1, 2, 3)]
    assert "Ana Silva · 2024" in page.markdown
    assert len(fault_server.hits_for("/api/v1/fields/cs")) == 1


async def test_data_robots_txt_forbids_is_not_read(
    fault_server: FaultServer, fast_settings: FetchSettings, tmp_path: Path
) -> None:
    _site(fault_server)
    fault_server.robots("User-agent: *\nDisallow: /api/\n")
    settings = fast_settings.model_copy(update={"render": "auto", "chromium_path": str(tmp_path / "no-chromium")})
    async with Fetcher(settings) as fetcher:
        page = await fetcher.fetch(fault_server.url("/fields/cs"))
    assert page.ok and not [link for link in page.links if "/paper/" in link.url]
    assert "needs JavaScript, no browser" in page.reason and "data its script loads" not in page.reason
    assert not fault_server.hits_for("/api/v1/fields/cs")


POSTS = [{"title": f"Beaver Dams on the Tarn, Part {n}", "canonical_url": f"/p/part-{n}", "post_date": f"2024-0{n}-02"}
         for n in range(1, 6)]  # fmt: skip
ARCHIVE = (
    "<!doctype html><html><head><title>Archive - Notes</title></head><body><main><h1>Archive</h1>"
    + "".join(
        f"<div class='post'><a href='{p['canonical_url']}'>{p['title']}</a> {p['post_date']}</div>" for p in POSTS[:2]
    )
    + '<div class=\'end\'></div><script>window._preloads = {"archiveApi": "/api/v1/archive?sort=new", "offset": 2, '
    "\"limit\": 2}; new IntersectionObserver(more).observe(document.querySelector('.end'));</script></main>"
    "<footer><a href='/about'>About</a></footer></body></html>"
)


def _batch(hit: Hit) -> Reply:
    start, size = int(hit.form["offset"][0]), int(hit.form["limit"][0])
    return Reply(200, json.dumps(POSTS[start : start + size]), content_type="application/json")


async def test_a_list_its_script_scrolls_in_is_read_on_batch_by_batch(
    fault_server: FaultServer, fast_settings: FetchSettings, tmp_path: Path
) -> None:
    fault_server.page("/archive", ARCHIVE)
    fault_server.handle("/api/v1/archive", _batch)
    settings = fast_settings.model_copy(update={"render": "auto", "chromium_path": str(tmp_path / "no-chromium")})
    async with Fetcher(settings) as fetcher:
        page = await fetcher.fetch(fault_server.url("/archive"))
    assert page.ok and "read from the data its script loads" in page.reason
    posts = [link.text for link in page.links if "/p/" in link.url]
    assert posts == [f"Beaver Dams on the Tarn, Part {n}" for n in range(1, 6)]
    asked = [hit.form["offset"] for hit in fault_server.hits if hit.path.startswith("/api/")]
    assert asked == [["2"], ["4"], ["6"]]  # the last batch came back empty: the list ends there


async def test_batches_robots_txt_forbids_are_not_read(
    fault_server: FaultServer, fast_settings: FetchSettings, tmp_path: Path
) -> None:
    fault_server.page("/archive", ARCHIVE)
    fault_server.handle("/api/v1/archive", _batch)
    fault_server.robots("User-agent: *\nDisallow: /api/\n")
    settings = fast_settings.model_copy(update={"render": "auto", "chromium_path": str(tmp_path / "no-chromium")})
    async with Fetcher(settings) as fetcher:
        page = await fetcher.fetch(fault_server.url("/archive"))
    assert page.ok and len([link for link in page.links if "/p/" in link.url]) == 2
    assert "data its script loads" not in page.reason
    assert not [hit for hit in fault_server.hits if hit.path.startswith("/api/")]
