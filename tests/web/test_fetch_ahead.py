"""Fetch ahead: a guess is fetched once through the same fetcher (politeness, robots.txt), joined when chosen;
when another page of its site is read instead it is cancelled while it waits for its turn (the site never asked)
or left to finish once its request has left (the site never asked twice); bounded per site."""

from __future__ import annotations

import asyncio
import itertools

import pytest
from fault_server import FaultServer, Reply

from research_crawler.config.settings import FetchSettings
from research_crawler.web.fetch_ahead import FetchAhead
from research_crawler.web.fetcher import Fetcher

CLOCK_SLACK_S = 0.05


def page(title: str) -> str:
    return f"<!doctype html><html><head><title>{title}</title></head><body><p>{title} text</p></body></html>"


def ahead_for(fetcher: Fetcher, *, limit: int = 1) -> FetchAhead:
    return FetchAhead(
        lambda url, render, site_url: fetcher.fetch(url, render=render, site_url=site_url),
        limit=limit,
        abandon=fetcher.abandon,
        requested=fetcher.requested,
    )


async def test_a_guess_that_is_chosen_is_fetched_once(fault_server: FaultServer, fast_settings: FetchSettings) -> None:
    fault_server.page("/next", page("Next"), stall_s=0.2)
    async with Fetcher(fast_settings) as fetcher:
        ahead = ahead_for(fetcher)
        assert await ahead.start(fault_server.url("/next"), site_url=fault_server.url("/"))
        assert not await ahead.start(fault_server.url("/next"), site_url=fault_server.url("/")), "already under way"
        taken, others = await ahead.take(fault_server.url("/next"), site_url=fault_server.url("/"))
        chosen = await fetcher.fetch(fault_server.url("/next"))  # joins the fetch ahead (still in flight)
    assert taken and others == [] and chosen.ok and chosen.title == "Next"
    assert len(fault_server.hits_for("/next")) == 1


async def test_a_guess_given_up_with_its_request_under_way_is_left_to_finish_and_never_asked_twice(
    fault_server: FaultServer, fast_settings: FetchSettings
) -> None:
    fault_server.route("/guess", Reply(body=page("Guess"), stall_s=1.0), Reply(body=page("Guess again")))
    fault_server.page("/chosen", page("Chosen"))
    site = fault_server.url("/")
    async with Fetcher(fast_settings) as fetcher:
        ahead = ahead_for(fetcher)
        await ahead.start(fault_server.url("/guess"), site_url=site)
        while not fault_server.hits_for("/guess"):  # the guess's request is on its way
            await asyncio.sleep(0.01)
        taken, others = await ahead.take(fault_server.url("/chosen"), site_url=site)
        assert not taken and others == [(fault_server.url("/guess"), "finishing")]
        assert (await fetcher.fetch(fault_server.url("/chosen"))).title == "Chosen"
        assert (await fetcher.fetch(fault_server.url("/guess"))).title == "Guess", "read later: the guess's answer"
        assert await ahead.close() == []
    assert len(fault_server.hits_for("/guess")) == 1 and ahead.urls == []


async def test_a_guess_given_up_before_its_turn_is_cancelled_and_never_sent(
    fault_server: FaultServer, fast_settings: FetchSettings
) -> None:
    for name in ("first", "guess", "chosen"):
        fault_server.page(f"/{name}", page(name))
    site = fault_server.url("/")
    async with Fetcher(fast_settings.model_copy(update={"per_host_delay_s": 2.0})) as fetcher:
        ahead = ahead_for(fetcher)
        assert (await fetcher.fetch(fault_server.url("/first"))).ok
        await ahead.start(fault_server.url("/guess"), site_url=site)  # waits for the host's next turn
        await asyncio.sleep(0.05)
        taken, others = await ahead.take(fault_server.url("/chosen"), site_url=site)
        assert not taken and others == [(fault_server.url("/guess"), "cancelled")]
        assert fetcher.cache.get(fault_server.url("/guess")) is None, "a cancelled guess leaves no page behind"
        assert (await fetcher.fetch(fault_server.url("/chosen"))).ok
    assert fault_server.hits_for("/guess") == [], "the site was never asked for the guess"


async def test_guesses_are_bounded_per_site_and_sites_do_not_disturb_each_other(
    fault_server: FaultServer, other_server: FaultServer, fast_settings: FetchSettings
) -> None:
    for name in ("a", "b", "c"):
        fault_server.page(f"/{name}", page(name))
    other_server.page("/", page("Other start"))
    here, there = fault_server.url("/"), other_server.url("/")
    async with Fetcher(fast_settings) as fetcher:
        ahead = ahead_for(fetcher, limit=2)
        await ahead.start(other_server.url("/"), site_url=there)
        for name in ("a", "b", "c"):
            await ahead.start(fault_server.url(f"/{name}"), site_url=here)
        assert ahead.urls == [other_server.url("/"), fault_server.url("/b"), fault_server.url("/c")]
        taken, others = await ahead.take(fault_server.url("/c"), site_url=here)
        assert taken and [url for url, _ in others] == [fault_server.url("/b")]
        assert ahead.urls == [other_server.url("/")], "the other site's start page is still wanted"
        taken, _ = await ahead.take(other_server.url("/"), site_url=there)
        assert taken
        assert await ahead.close() == []
    with pytest.raises(ValueError, match="at least 1"):
        FetchAhead(lambda url, render, site_url: asyncio.sleep(0), limit=0)  # type: ignore[arg-type, return-value]


async def test_a_guess_keeps_the_per_host_delay_and_robots_txt(
    fault_server: FaultServer, fast_settings: FetchSettings
) -> None:
    fault_server.robots("User-agent: *\nDisallow: /private\n")
    for name in ("one", "two", "private"):
        fault_server.page(f"/{name}", page(name))
    settings = fast_settings.model_copy(update={"per_host_delay_s": 0.3})
    site = fault_server.url("/")
    async with Fetcher(settings) as fetcher:
        ahead = ahead_for(fetcher, limit=3)
        await ahead.start(fault_server.url("/private"), site_url=site)
        await ahead.start(fault_server.url("/one"), site_url=site)
        chosen = await fetcher.fetch(fault_server.url("/two"))  # read while the guesses are under way
        await ahead.take(fault_server.url("/one"), site_url=site)
        guessed = await fetcher.fetch(fault_server.url("/one"))
        refused = await fetcher.fetch(fault_server.url("/private"))
    assert chosen.ok and guessed.ok and not refused.ok
    assert fault_server.hits_for("/private") == [], "robots.txt holds for guesses"
    starts = sorted(hit.at for hit in fault_server.page_hits())
    assert all(gap >= 0.3 - CLOCK_SLACK_S for gap in (b - a for a, b in itertools.pairwise(starts))), starts


async def test_a_taken_fetch_that_fails_is_not_reported_as_never_retrieved() -> None:
    """A taken guess is joined through the fetcher's page cache, not through its task; when the fetch fails (a run
    left at once closed the fetcher), the failure is read and logged, not left for asyncio to report at exit."""
    import gc

    reported: list[dict[str, object]] = []
    asyncio.get_running_loop().set_exception_handler(lambda _loop, context: reported.append(context))

    async def closed(url: str, render: object, site_url: object) -> object:
        raise RuntimeError("this Fetcher is closed")

    ahead = FetchAhead(closed, limit=1)  # type: ignore[arg-type]
    assert await ahead.start("http://site.test/next", site_url="http://site.test/")
    taken, _ = await ahead.take("http://site.test/next", site_url="http://site.test/")
    for _ in range(3):
        await asyncio.sleep(0)
    gc.collect()
    assert taken and not reported, reported
