"""One pace per host and one robots.txt per origin for every query sharing a `SharedPoliteness`, whatever thread
or event loop each runs on."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import threading
import time

import pytest
from test_robots import response

from research_crawler.web.politeness import HostPoliteness
from research_crawler.web.raw_response import RawResponse
from research_crawler.web.robots import RobotsCache
from research_crawler.web.shared_politeness import (
    SEND_REPORT_TIMEOUT_S,
    LocalHostSchedule,
    RobotsStore,
    SharedPoliteness,
)


def test_the_schedule_books_starts_a_gap_apart_and_honours_crawl_delay_and_back_off() -> None:
    now = [100.0]
    schedule = LocalHostSchedule(clock=lambda: now[0])
    assert [schedule.reserve("a.org", 1.0) for _ in range(3)] == [100.0, 101.0, 102.0]
    assert schedule.reserve("b.org", 1.0) == 100.0  # another host keeps its own pace
    schedule.set_crawl_delay("a.org", 5.0)
    assert schedule.reserve("a.org", 1.0) == 107.0  # the longer of the two gaps
    schedule.defer("b.org", 30.0)
    assert schedule.reserve("b.org", 1.0) == 130.0


def test_a_request_that_overslept_its_booking_still_begins_a_gap_from_the_others() -> None:
    now = [0.0]
    schedule = LocalHostSchedule(clock=lambda: now[0])
    first, second = schedule.reserve("site.org", 1.0), schedule.reserve("site.org", 1.0)
    assert (first, second) == (0.0, 1.0)
    now[0] = 0.9  # the first request's process was busy: it begins late
    assert schedule.begin("site.org", 1.0) == 0.0
    now[0] = 1.0  # the second wakes on time, and must wait for a full gap after the late one
    assert schedule.begin("site.org", 1.0) == pytest.approx(0.9)
    now[0] = 1.9
    assert schedule.begin("site.org", 1.0) == 0.0
    schedule.defer("site.org", 5.0)  # a Retry-After counts too
    assert schedule.begin("site.org", 1.0) == pytest.approx(5.0)


def test_a_turn_holds_the_host_until_its_request_reports_when_it_left() -> None:
    now = [0.0]
    schedule = LocalHostSchedule(clock=lambda: now[0])
    assert schedule.begin("site.org", 1.0, ticket="first") == 0.0  # granted at 0
    now[0] = 1.5  # a full gap after the grant, but the first request has not told when it left
    assert schedule.begin("site.org", 1.0, ticket="second") > 0
    schedule.sent("site.org", "first", at=0.8)  # it left late (its answer travelled back, a connection was opened)
    assert schedule.begin("site.org", 1.0, ticket="second") == pytest.approx(0.3)  # the gap counts from 0.8
    now[0] = 1.8
    assert schedule.begin("site.org", 1.0, ticket="second") == 0.0
    assert schedule.begin("other.org", 1.0) == 0.0  # another host is not held
    # a sender that dies holding the turn: after SEND_REPORT_TIMEOUT_S its request counts as sent at that moment
    now[0] = 1.8 + SEND_REPORT_TIMEOUT_S - 0.01
    assert schedule.begin("site.org", 1.0, ticket="third") > 0
    now[0] = 1.8 + SEND_REPORT_TIMEOUT_S
    assert schedule.begin("site.org", 1.0, ticket="third") == pytest.approx(1.0)
    now[0] += 1.0
    assert schedule.begin("site.org", 1.0, ticket="third") == 0.0
    now[0] += 1.5
    schedule.sent("site.org", "second", at=now[0] - 3.0)  # the dead sender's late report: "third" still holds it
    assert schedule.begin("site.org", 1.0) > 0
    schedule.sent("site.org", "third", at=now[0] - 0.2)
    assert schedule.begin("site.org", 1.0) == pytest.approx(0.8)


def test_two_event_loops_in_two_threads_keep_one_pace_per_host() -> None:
    shared = SharedPoliteness()
    starts: list[float] = []
    lock = threading.Lock()

    def query() -> None:
        politeness = HostPoliteness(delay_s=0.1, concurrency=4, max_crawl_delay_s=10, schedule=shared.schedule)

        async def requests() -> None:
            for _ in range(4):
                async with politeness.slot("site.org"):
                    with lock:
                        starts.append(time.monotonic())

        asyncio.run(requests())

    threads = [threading.Thread(target=query) for _ in range(3)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    starts.sort()
    assert len(starts) == 12
    assert min(b - a for a, b in itertools.pairwise(starts)) >= 0.09


def test_robots_txt_is_fetched_once_for_every_cache_sharing_the_store() -> None:
    store = RobotsStore()
    fetched: list[str] = []
    release = threading.Event()

    async def slow_fetch(url: str) -> RawResponse:
        fetched.append(url)
        await asyncio.to_thread(release.wait, 5)
        return response("User-agent: *\nDisallow: /private\n")

    verdicts: list[tuple[bool, bool]] = []

    def query() -> None:
        cache = RobotsCache(user_agent="research-crawler/1.0", fetch=slow_fetch, shared=store)

        async def ask() -> tuple[bool, bool]:
            public = await cache.check("http://site.org/papers")
            private = await cache.check("http://site.org/private/x")
            return public.allowed, private.allowed

        verdicts.append(asyncio.run(ask()))

    threads = [threading.Thread(target=query) for _ in range(3)]
    for thread in threads:
        thread.start()
    time.sleep(0.2)
    release.set()
    for thread in threads:
        thread.join()
    assert fetched == ["http://site.org/robots.txt"]
    assert verdicts == [(True, False)] * 3


def test_an_abandoned_fetch_lets_the_next_cache_fetch_on_its_own() -> None:
    store = RobotsStore()

    async def failing(url: str) -> RawResponse:
        raise RuntimeError("connection dropped")

    async def working(url: str) -> RawResponse:
        return response("User-agent: *\nAllow: /\n")

    first = RobotsCache(user_agent="rc", fetch=failing, shared=store)
    with contextlib.suppress(RuntimeError):
        asyncio.run(first.check("http://site.org/a"))
    second = RobotsCache(user_agent="rc", fetch=working, shared=store)
    assert asyncio.run(second.check("http://site.org/a")).allowed
