"""The browser strategy: our own headless Chromium over CDP, JavaScript pages, deadlines and clean shutdown."""

from __future__ import annotations

import asyncio
import logging
import os
import subprocess
import sys
from pathlib import Path
from typing import Any, Literal

import httpx
import pytest
from browser_rule import browser_gate
from fault_server import FaultServer

from research_crawler.config.settings import FetchSettings
from research_crawler.errors import BrowserError
from research_crawler.pages.page import Determination
from research_crawler.web.browser import chromium_flags, chromium_process_count, launch_chromium
from research_crawler.web.fetcher import Fetcher

REPO = Path(__file__).resolve().parents[2]

JS_LISTING = """<!doctype html><html><head><title>Latest preprints</title></head><body>
<h1>Latest preprints</h1><ul id="listing"></ul>
<script>
document.addEventListener("DOMContentLoaded", function () {
  setTimeout(function () {
    var items = [["/abs/101", "Protein folding with diffusion"], ["/abs/102", "Graph transformers for chemistry"]];
    var list = document.getElementById("listing");
    items.forEach(function (item) {
      var li = document.createElement("li"), a = document.createElement("a");
      a.href = item[0]; a.textContent = item[1]; li.appendChild(a); list.appendChild(li);
    });
  }, 50);
});
</script></body></html>"""

ENDLESS_JS = "<html><head><title>spin</title></head><body><p>loading…</p><script>while (true) {}</script></body></html>"


@pytest.fixture
def browser_settings(fast_settings: FetchSettings) -> FetchSettings:
    return fast_settings.model_copy(update={"page_deadline_s": 15.0, "browser_wait_s": 0.3})


# -- without a browser ---------------------------------------------------------------------------


def test_launch_flags_are_exactly_the_designed_ones(tmp_path: Path) -> None:
    profile = tmp_path / "profile"
    flags = chromium_flags(user_data_dir=profile, port=9333, as_root=False)
    assert flags[:4] == ["--headless", "--disable-gpu", "--disable-quic", "--no-first-run"]
    assert flags[-2:] == ["--remote-debugging-port=9333", f"--user-data-dir={profile}"]
    for designed in ("--disable-background-networking", "--disable-component-update", "--disable-sync"):
        assert designed in flags
    # the flags that keep the browser's traffic inside the guard: tests/web/test_browser_leaks.py
    assert not any(flag.startswith("--proxy-server") for flag in flags), "no proxy unless one is given"
    assert chromium_flags(user_data_dir=profile, as_root=True)[-1] == "--no-sandbox"
    assert "--no-sandbox" not in chromium_flags(user_data_dir=profile, as_root=False)


async def test_missing_chromium_fails_only_when_a_browser_page_is_needed(
    fault_server: FaultServer, fast_settings: FetchSettings, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))  # no chromium on PATH
    fault_server.page("/plain", "<html><body><a href='/x'>x</a></body></html>")
    async with Fetcher(fast_settings) as fetcher:  # creating the fetcher needs no browser
        assert (await fetcher.fetch(fault_server.url("/plain"))).ok
        with pytest.raises(BrowserError, match="apt-get install chromium"):
            await fetcher.fetch(fault_server.url("/js"), render="browser")
    settings = fast_settings.model_copy(update={"chromium_path": str(tmp_path / "no-such-chromium")})
    async with Fetcher(settings) as fetcher:
        with pytest.raises(BrowserError, match="no-such-chromium"):
            await fetcher.fetch(fault_server.url("/js"), render="browser")


def fake_chromium(tmp_path: Path, script: str) -> str:
    """An executable that stands in for Chromium and misbehaves as `script` says."""
    path = tmp_path / "fake-chromium"
    path.write_text(f"#!/bin/sh\n{script}\n")
    path.chmod(0o755)
    return str(path)


async def test_a_browser_that_never_opens_devtools_is_an_error_with_its_stderr(
    tmp_path: Path, fast_settings: FetchSettings
) -> None:
    binary = fake_chromium(tmp_path, "echo 'fake chromium: cannot open display' >&2\nsleep 30")
    settings = fast_settings.model_copy(update={"chromium_path": binary, "browser_start_timeout_s": 1.0})
    baseline = chromium_process_count()
    with pytest.raises(BrowserError, match="did not open its DevTools endpoint") as raised:
        await launch_chromium(settings)
    assert "fake chromium: cannot open display" in str(raised.value)
    assert chromium_process_count() == baseline  # the stuck process was ended, its profile removed


async def test_a_browser_that_exits_at_start_is_an_error(tmp_path: Path, fast_settings: FetchSettings) -> None:
    binary = fake_chromium(tmp_path, "echo 'fake chromium: missing libraries' >&2\nexit 3")
    settings = fast_settings.model_copy(update={"chromium_path": binary})
    with pytest.raises(BrowserError, match="exited at start with status 3") as raised:
        await launch_chromium(settings)
    assert "missing libraries" in str(raised.value)


@pytest.mark.parametrize(
    ("found", "ci", "gate"),
    [(True, "true", "run"), (True, None, "run"), (False, None, "skip"), (False, "", "skip"), (False, "true", "fail")],
)
def test_browser_gate(found: bool, ci: str | None, gate: str) -> None:
    assert browser_gate(chromium_found=found, ci=ci) == gate


def test_browser_tests_fail_under_ci_when_chromium_is_missing(tmp_path: Path) -> None:
    env = {key: value for key, value in os.environ.items() if not key.startswith(("CI", "RESEARCH_CRAWLER_"))}
    env["PATH"] = str(tmp_path)  # hides every chromium
    env["CI"] = "true"
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:cacheprovider",
            "-rs",
            f"{Path(__file__)}::test_launch_and_close_leave_no_process_behind",
        ],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 1, done.stdout + done.stderr
    assert "1 error" in done.stdout and "CI=true forbids skipping" in done.stdout  # failed at setup


# -- with the system Chromium --------------------------------------------------------------------


@pytest.mark.browser
async def test_launch_and_close_leave_no_process_behind(browser_settings: FetchSettings) -> None:
    baseline = chromium_process_count()
    chromium = await launch_chromium(browser_settings)
    try:
        assert chromium.running and chromium.handle.pid is not None
        assert chromium_process_count(chromium.user_data_dir) >= 1
        async with httpx.AsyncClient(trust_env=False) as client:
            version = (await client.get(f"{chromium.cdp_url}/json/version")).json()
        assert "webSocketDebuggerUrl" in version
    finally:
        await chromium.close()
    assert chromium_process_count() == baseline
    assert not chromium.user_data_dir.exists()
    await chromium.close()  # closing twice is harmless


@pytest.mark.browser
async def test_javascript_links_appear_only_when_rendered(
    fault_server: FaultServer, browser_settings: FetchSettings
) -> None:
    fault_server.page("/listing", JS_LISTING)
    baseline = chromium_process_count()
    async with Fetcher(browser_settings) as fetcher:
        plain = await fetcher.fetch(fault_server.url("/listing"))
        rendered = await fetcher.fetch(fault_server.url("/listing"), render="browser")
        again = await fetcher.fetch(fault_server.url("/listing"), render="browser")
        assert chromium_process_count() > baseline
    assert plain.ok and plain.render == "http" and plain.links == []
    assert rendered.ok and rendered.render == "browser" and rendered.status == 200
    assert [link.url for link in rendered.links] == [fault_server.url("/abs/101"), fault_server.url("/abs/102")]
    assert "Protein folding with diffusion" in rendered.markdown
    assert again is rendered  # cached per render kind
    browser_hits = fault_server.hits_for("/listing")[1:]
    assert len(browser_hits) == 1
    assert browser_hits[0].headers["user-agent"] == browser_settings.user_agent
    assert chromium_process_count() == baseline


@pytest.mark.browser
async def test_endless_javascript_times_out_and_the_tab_is_closed(
    fault_server: FaultServer, browser_settings: FetchSettings
) -> None:
    fault_server.page("/spin", ENDLESS_JS)
    fault_server.page("/before", "<html><body><a href='/next'>next</a></body></html>")
    fault_server.page("/after", "<html><body><a href='/next'>next</a></body></html>")
    baseline = chromium_process_count()
    settings = browser_settings.model_copy(update={"page_deadline_s": 2.0})
    fetcher = Fetcher(settings)
    try:
        await fetcher.fetch(fault_server.url("/before"), render="browser")  # the browser is up
        page = await fetcher.fetch(fault_server.url("/spin"), render="browser")
        assert page.determination is Determination.TIMEOUT
        assert page.render == "browser" and page.elapsed_s < 10
        browser = fetcher._browser  # the test looks inside to see the browser's open tabs
        assert browser is not None and browser._chromium is not None
        async with httpx.AsyncClient(trust_env=False) as client:
            targets = (await client.get(f"{browser._chromium.cdp_url}/json/list")).json()
        assert not [target for target in targets if "/spin" in target.get("url", "")]
        after = await fetcher.fetch(fault_server.url("/after"), render="browser")
        assert after.ok, (after.determination, after.reason, after.status)
    finally:
        await fetcher.aclose()
    assert chromium_process_count() == baseline


@pytest.mark.browser
async def test_browser_pages_go_through_robots_and_report_statuses(
    fault_server: FaultServer, browser_settings: FetchSettings
) -> None:
    fault_server.robots("User-agent: *\nDisallow: /private/\n")
    fault_server.page("/private/page", JS_LISTING)
    baseline = chromium_process_count()
    async with Fetcher(browser_settings) as fetcher:
        blocked = await fetcher.fetch(fault_server.url("/private/page"), render="browser")
        assert chromium_process_count() == baseline  # no browser was needed for a refusal
        missing = await fetcher.fetch(fault_server.url("/nowhere"), render="browser")
    assert blocked.determination is Determination.BLOCKED_BY_ROBOTS
    assert fault_server.hits_for("/private/page") == []
    assert missing.determination is Determination.NOT_FOUND and missing.status == 404


@pytest.mark.browser
async def test_site_render_picks_the_browser_per_site(
    fault_server: FaultServer, browser_settings: FetchSettings
) -> None:
    fault_server.page("/listing", JS_LISTING)
    seen: list[str] = []

    def site_render(site: str) -> Literal["http", "browser"]:
        seen.append(site)
        return "browser"

    async with Fetcher(browser_settings, site_render=site_render) as fetcher:
        page = await fetcher.fetch(fault_server.url("/listing"), site_url=fault_server.url("/"))
    assert page.render == "browser" and len(page.links) == 2
    assert seen == [fault_server.url("/")]


@pytest.mark.browser
async def test_browser_subresources_stay_on_allowed_hosts(
    fault_server: FaultServer, other_server: FaultServer, browser_settings: FetchSettings
) -> None:
    other_server.page("/pixel", "x")
    fault_server.page(
        "/page",
        f"""<html><body><a href="/a">a</a><img src="{other_server.url("/pixel")}">
        <script>fetch("{other_server.url("/pixel")}?xhr=1").catch(function () {{}});</script></body></html>""",
    )
    allowed = [f"127.0.0.1:{fault_server.port}"]
    async with Fetcher(browser_settings, allowed_hosts=allowed) as fetcher:
        page = await fetcher.fetch(fault_server.url("/page"), render="browser")
    assert page.ok
    assert other_server.hits == []


@pytest.mark.browser
async def test_a_browser_given_by_cdp_url_is_used_and_left_running(
    fault_server: FaultServer, browser_settings: FetchSettings
) -> None:
    fault_server.page("/listing", JS_LISTING)
    users_browser = await launch_chromium(browser_settings)
    try:
        running = chromium_process_count(users_browser.user_data_dir)
        settings = browser_settings.model_copy(update={"cdp_url": users_browser.cdp_url})
        async with Fetcher(settings) as fetcher:
            page = await fetcher.fetch(fault_server.url("/listing"), render="browser")
        assert page.ok and len(page.links) == 2
        await asyncio.sleep(0.2)
        assert users_browser.running
        assert chromium_process_count(users_browser.user_data_dir) >= min(running, 1)
        async with httpx.AsyncClient(trust_env=False) as client:
            targets = (await client.get(f"{users_browser.cdp_url}/json/list")).json()
        assert not [target for target in targets if "/listing" in target.get("url", "")]  # our tab is gone
    finally:
        await users_browser.close()


def _on_event_loop() -> bool:
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return False
    return True


@pytest.mark.browser
async def test_pages_are_built_off_the_event_loop(
    fault_server: FaultServer, browser_settings: FetchSettings, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Parsing HTML and converting it to Markdown is CPU work: it runs in a worker thread for both strategies,
    so a large page never stalls the loop that serves the other fetches (and the parallel sites)."""
    import research_crawler.web.fetcher as fetch_module
    import research_crawler.web.rendering as rendering_module

    on_loop: list[tuple[str, bool]] = []

    def spy(name: str, build: Any) -> Any:
        def wrapped(*args: Any, **kwargs: Any) -> Any:
            on_loop.append((name, _on_event_loop()))
            return build(*args, **kwargs)

        return wrapped

    monkeypatch.setattr(fetch_module, "page_from_response", spy("http", fetch_module.page_from_response))
    monkeypatch.setattr(rendering_module, "html_page", spy("browser", rendering_module.html_page))
    fault_server.page("/listing", JS_LISTING)
    async with Fetcher(browser_settings) as fetcher:
        plain = await fetcher.fetch(fault_server.url("/listing"))
        rendered = await fetcher.fetch(fault_server.url("/listing"), render="browser")
    assert plain.ok and rendered.ok and len(rendered.links) == 2
    assert on_loop == [("http", False), ("browser", False)]


SHELL = """<!doctype html><html><head><title>Latest preprints</title></head><body>
<div id="app"><h1>Latest preprints</h1><ul id="listing"></ul>
<noscript>This site needs JavaScript to show the list of preprints.</noscript></div>
<script>
var items = [["/abs/101", "Protein folding with diffusion"], ["/abs/102", "Graph transformers for chemistry"]];
var list = document.getElementById("listing");
items.forEach(function (item) {
  var li = document.createElement("li"), a = document.createElement("a");
  a.href = item[0]; a.textContent = item[1]; li.appendChild(a); list.appendChild(li);
});
</script></body></html>"""

LONG_PAGE_WITH_NOTICE = (
    "<html><head><title>An article</title></head><body><h1>An article</h1>"
    + "<p>"
    + " ".join(["Server-rendered text that any reader sees without scripts."] * 60)
    + "</p><noscript>Please enable JavaScript to view the comments.</noscript></body></html>"
)


@pytest.mark.browser
async def test_auto_renders_only_the_pages_that_need_javascript(
    fault_server: FaultServer, browser_settings: FetchSettings
) -> None:
    fault_server.page("/shell", SHELL)
    fault_server.page("/article", LONG_PAGE_WITH_NOTICE)
    settings = browser_settings.model_copy(update={"render": "auto"})
    baseline = chromium_process_count()
    async with Fetcher(settings) as fetcher:
        article = await fetcher.fetch(fault_server.url("/article"))
        assert chromium_process_count() == baseline, "a page readable without scripts starts no browser"
        shell = await fetcher.fetch(fault_server.url("/shell"))
        again = await fetcher.fetch(fault_server.url("/shell"))
    assert article.ok and article.render == "http" and "Server-rendered text" in article.markdown
    assert shell.ok and shell.render == "browser", shell.reason
    assert shell.url == fault_server.url("/shell")
    assert [link.url for link in shell.links] == [fault_server.url("/abs/101"), fault_server.url("/abs/102")]
    assert "rendered with the browser: it asks for JavaScript" in shell.reason
    assert again is shell
    assert len(fault_server.hits_for("/shell")) == 2  # once over HTTP, once by the browser; then cached
    assert chromium_process_count() == baseline


async def test_auto_without_a_browser_keeps_the_http_page_and_says_so(
    fault_server: FaultServer, fast_settings: FetchSettings, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    missing = tmp_path / "no-chromium-here"
    fault_server.page("/shell", SHELL)
    settings = fast_settings.model_copy(update={"render": "auto", "chromium_path": str(missing)})
    fault_server.page("/shell-2", SHELL)
    async with Fetcher(settings) as fetcher:
        with caplog.at_level(logging.WARNING, logger="research_crawler.web.fetcher"):
            page = await fetcher.fetch(fault_server.url("/shell"))
            assert len(caplog.records) == 1
            caplog.clear()
            second = await fetcher.fetch(fault_server.url("/shell-2"))
    assert page.ok and page.render == "http" and page.links == []
    assert "needs JavaScript, no browser" in page.reason and str(missing) in page.reason
    assert second.ok and second.reason == page.reason
    assert not caplog.records, "the missing browser is tried (and reported) once per fetcher, not once per page"
