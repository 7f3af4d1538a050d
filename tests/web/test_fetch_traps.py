"""Repeated path segments at fetch time: refused before any request (no DNS, no robots.txt, no hit), at every
redirect hop too, in both strategies; the limit is `fetch.max_path_repetition`."""

from __future__ import annotations

import pytest
from fault_server import FaultServer, Reply

from research_crawler.config.settings import FetchSettings
from research_crawler.pages.page import Determination
from research_crawler.web.fetcher import Fetcher

LISTING = "<html><head><title>Papers</title></head><body><a href='/abs/1'>Paper one</a></body></html>"


@pytest.mark.parametrize("path", ["/a/a/a/a/a/a/a/a", "/x/y/x/y/x/y/", "/list/next/next/next/"])
async def test_trap_urls_are_refused_before_any_request(
    fault_server: FaultServer, fast_settings: FetchSettings, path: str
) -> None:
    fault_server.route(path, Reply(200, LISTING))
    async with Fetcher(fast_settings) as fetcher:
        page = await fetcher.fetch(fault_server.url(path))
    assert page.determination is Determination.REFUSED
    assert page.reason.startswith("crawler trap: the path repeats")
    assert page.attempts == 0 and page.markdown == "" and page.links == []
    assert fault_server.hits == []  # not even robots.txt was asked for


async def test_a_redirect_into_a_trap_is_refused_at_that_hop(
    fault_server: FaultServer, fast_settings: FetchSettings
) -> None:
    fault_server.route("/latest", Reply(302, headers={"Location": "/v/v/v/v/latest"}))
    fault_server.route("/v/v/v/v/latest", Reply(200, LISTING))
    async with Fetcher(fast_settings) as fetcher:
        page = await fetcher.fetch(fault_server.url("/latest"))
    assert page.determination is Determination.REFUSED and "crawler trap" in page.reason
    assert page.final_url == fault_server.url("/v/v/v/v/latest")
    assert len(fault_server.hits_for("/latest")) == 1 and fault_server.hits_for("/v/v/v/v/latest") == []


async def test_look_alikes_are_fetched_and_the_limit_is_a_setting(
    fault_server: FaultServer, fast_settings: FetchSettings
) -> None:
    for path in ("/journals/1/volumes/1/issues/1", "/a/a/", "/a/a/a/"):
        fault_server.route(path, Reply(200, LISTING))
    async with Fetcher(fast_settings) as fetcher:
        volume = await fetcher.fetch(fault_server.url("/journals/1/volumes/1/issues/1"))
        twice = await fetcher.fetch(fault_server.url("/a/a/"))
        thrice = await fetcher.fetch(fault_server.url("/a/a/a/"))
    assert volume.ok and twice.ok
    assert thrice.determination is Determination.REFUSED
    async with Fetcher(fast_settings.model_copy(update={"max_path_repetition": 3})) as lenient:
        allowed = await lenient.fetch(fault_server.url("/a/a/a/"))
    assert allowed.ok and len(fault_server.hits_for("/a/a/a/")) == 1


@pytest.mark.browser
async def test_the_browser_strategy_refuses_traps_without_starting_a_browser(
    fault_server: FaultServer, fast_settings: FetchSettings
) -> None:
    from research_crawler.web.browser import chromium_process_count

    fault_server.route("/a/a/a/", Reply(200, LISTING))
    baseline = chromium_process_count()
    async with Fetcher(fast_settings) as fetcher:
        page = await fetcher.fetch(fault_server.url("/a/a/a/"), render="browser")
        assert chromium_process_count() == baseline
    assert page.determination is Determination.REFUSED and page.render == "browser"
    assert fault_server.hits == []
