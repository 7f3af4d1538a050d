"""The web app in a real headless Chromium (the system one, driven by Playwright's Python package pointed at its
executable): ask against the testbed with the simulated model, watch progress arrive, read the report, follow up,
show an item's sources, download the BibTeX, cancel a second run, reopen a past run.

Screenshots of the main states go to tmp_path, and also to RESEARCH_CRAWLER_SCREENSHOTS when it names a folder
(how docs/serve/ is made).
"""

from __future__ import annotations

import os
import shutil
import socket
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
import uvicorn
from playwright.sync_api import Page, expect, sync_playwright

from research_crawler.config.settings import Settings
from research_crawler.eval.testbed import TestbedServer
from research_crawler.eval.testbed.models import Testbed
from research_crawler.run.run_dir import RunMeta, new_run_dir
from research_crawler.serve.app import create_app
from research_crawler.web.browser import find_chromium

pytestmark = pytest.mark.browser


@pytest.fixture
def served(serve_settings: Settings) -> Iterator[str]:
    """The web app on a free loopback port, in a thread; its base URL."""
    serve_settings.simulated.latency_s = 0.25  # long enough to watch the progress and to cancel
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(64)
    app = create_app(serve_settings, backend="simulated")
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [listener]}, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{listener.getsockname()[1]}"
    finally:
        server.should_exit = True  # its shutdown stops the runs still working
        thread.join(30)
        listener.close()


@pytest.fixture
def page() -> Iterator[Page]:
    executable = find_chromium(os.environ.get("RESEARCH_CRAWLER_FETCH__CHROMIUM_PATH") or None)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=str(executable), args=["--no-sandbox"] if os.geteuid() == 0 else []
        )
        try:
            yield browser.new_page(viewport={"width": 1280, "height": 900}, accept_downloads=True)
        finally:
            browser.close()


def _shot(page: Page, tmp_path: Path, name: str) -> None:
    path = tmp_path / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    target = os.environ.get("RESEARCH_CRAWLER_SCREENSHOTS")
    if target:
        Path(target).mkdir(parents=True, exist_ok=True)
        shutil.copy(path, Path(target) / path.name)


def _ask(page: Page, served: str, query: str, site: str) -> str:
    page.goto(f"{served}/")
    page.fill("#query", query)
    page.fill("#sites", site)
    page.click("#start")
    page.wait_for_url(f"{served}/runs/*")
    return page.url.rsplit("/", 1)[-1]


def test_a_researcher_asks_follows_up_downloads_cancels_and_reopens(
    served: str, page: Page, tmp_path: Path, testbed: Testbed, testbed_server: TestbedServer
) -> None:
    dialogs: list[str] = []
    page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
    site = testbed_server.base_url("arxiv-like")
    query = testbed.queries_for("arxiv-like")[0]

    page.goto(f"{served}/")
    assert page.inner_text("h1") == "Ask a research question"
    _shot(page, tmp_path, "1-request")
    run_id = _ask(page, served, query.text, site)

    # Progress arrives while the agents work.
    # (the double loads its judge's weights on the first call: seconds on a loaded machine, so no 5 s default)
    page.wait_for_selector("#log li", timeout=120_000)
    expect(page.locator("[data-field=model_calls]")).not_to_have_text("0", timeout=120_000)
    expect(page.locator("[data-field=pages_read]")).not_to_have_text("0", timeout=120_000)  # a page read, more to come
    _shot(page, tmp_path, "2-progress")

    # The report replaces it when the run is done.
    page.wait_for_selector("#items tbody tr", timeout=120_000)
    assert page.inner_text("#status") == "done"
    links = page.eval_on_selector_all("#items td.title a", "links => links.map(a => a.href)")
    assert set(links) & testbed_server.relevant_urls(query.id)
    _shot(page, tmp_path, "3-report")

    # A follow-up in the same conversation.
    page.fill("#follow-up-query", "only 2025")
    page.click("#follow-up button[type=submit]")
    page.wait_for_selector("#conversation li:nth-child(2)", timeout=120_000)
    page.wait_for_selector("#items tbody tr", timeout=120_000)
    assert page.inner_text("#conversation li:nth-child(2)") == "only 2025"
    dates = page.eval_on_selector_all("#items tbody tr td:nth-child(4)", "cells => cells.map(c => c.textContent)")
    assert dates and all(date.startswith("2025") for date in dates)

    # "show the sources for item 1" is answered on the page, from the report.
    page.fill("#follow-up-query", "show the sources for item 1")
    page.click("#follow-up button[type=submit]")
    page.wait_for_selector("#sources-1[open]")
    assert "Found on" in page.inner_text("#sources-1")
    _shot(page, tmp_path, "4-follow-up-and-sources")

    # The BibTeX download.
    with page.expect_download() as download:
        page.click(f'a[href="/api/runs/{run_id}/files/items.bib"]')
    bibtex = Path(download.value.path()).read_text(encoding="utf-8")
    assert bibtex.lstrip().startswith("@") and "2025" in bibtex

    # A second run, cancelled while it works.
    second = _ask(page, served, testbed.queries_for("journal-like")[0].text, testbed_server.base_url("journal-like"))
    assert second != run_id
    page.wait_for_selector("#log li")
    page.click("#cancel")
    expect(page.locator("#status")).to_have_text("cancelled", timeout=120_000)
    _shot(page, tmp_path, "5-cancelled")

    # Past runs are listed; the first one reopens with its report and graph.
    page.goto(f"{served}/")
    assert page.inner_text(f'#runs a[href="/runs/{second}"]') and page.inner_text(f'#runs a[href="/runs/{run_id}"]')
    _shot(page, tmp_path, "6-past-runs")
    page.click(f'#runs a[href="/runs/{run_id}"]')
    page.wait_for_selector("#items tbody tr")
    assert page.locator("#graph svg g.page").count() >= 2
    _shot(page, tmp_path, "7-reopened-with-graph")
    assert dialogs == [], "no script from a page or a model ran"


def test_an_unfinished_run_is_resumed_and_a_hostile_report_stays_text_in_the_browser(
    served: str, page: Page, serve_settings: Settings, testbed: Testbed, testbed_server: TestbedServer
) -> None:
    from test_pages import SCRIPT, _hostile_run

    dialogs: list[str] = []
    page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
    hostile = _hostile_run(serve_settings)
    page.goto(f"{served}/runs/{hostile.name}")
    assert SCRIPT in page.inner_text("#item-1 td.title"), "the markup is shown literally"
    assert page.locator("#item-1 td.title a").count() == 0, "a javascript: URL is no link"
    page.click("#sources-1 summary")
    assert "javascript:alert(2)" in page.inner_text("#sources-1") and page.locator("#sources-1 a").count() == 0

    site = testbed_server.base_url("arxiv-like")
    killed = new_run_dir(serve_settings.runs_dir, "papers on graph neural networks")
    RunMeta(query=testbed.queries_for("arxiv-like")[0].text, sites=[site], backend="simulated").write(killed)
    page.goto(f"{served}/")
    page.click(f'#runs a[href="/runs/{killed.name}"]')
    assert page.inner_text("#status") == "unfinished"
    page.click("#resume")
    page.wait_for_selector("#items tbody tr", timeout=120_000)
    assert page.inner_text("#status") == "done"
    assert dialogs == [], "no script from a page or a model ran"
