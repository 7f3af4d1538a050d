"""Per-host politeness: gaps between starts, the concurrency limit, Crawl-delay caps and Retry-After deferral."""

from __future__ import annotations

import asyncio
import itertools
import logging
import time

import pytest

from research_crawler.web.politeness import HostPoliteness, politeness_key

SLACK_S = 0.02


async def starts(politeness: HostPoliteness, host: str, count: int, hold_s: float = 0.0) -> list[float]:
    """Run `count` concurrent requests to `host`; the times they entered their slot."""
    entered: list[float] = []

    async def one() -> None:
        async with politeness.slot(host):
            entered.append(time.monotonic())
            await asyncio.sleep(hold_s)

    await asyncio.gather(*(one() for _ in range(count)))
    return sorted(entered)


def test_key_is_host_and_port_without_www() -> None:
    assert politeness_key("https://www.example.org/a") == "example.org"
    assert politeness_key("http://127.0.0.1:8080/x") == "127.0.0.1:8080"


def test_bad_arguments_are_refused() -> None:
    with pytest.raises(ValueError):
        HostPoliteness(delay_s=-1, concurrency=1, max_crawl_delay_s=1)
    with pytest.raises(ValueError):
        HostPoliteness(delay_s=0, concurrency=0, max_crawl_delay_s=1)


async def test_starts_on_one_host_are_spaced_by_the_delay() -> None:
    politeness = HostPoliteness(delay_s=0.2, concurrency=4, max_crawl_delay_s=30)
    times = await starts(politeness, "a.example", 4)
    assert all(later - earlier >= 0.2 - SLACK_S for earlier, later in itertools.pairwise(times))


async def test_hosts_do_not_wait_for_each_other() -> None:
    politeness = HostPoliteness(delay_s=0.3, concurrency=1, max_crawl_delay_s=30)
    first, second = await asyncio.gather(starts(politeness, "a.example", 2), starts(politeness, "b.example", 2))
    assert first[1] - first[0] >= 0.3 - SLACK_S and second[1] - second[0] >= 0.3 - SLACK_S
    # In parallel, whatever the machine's load: each host's first start comes before the other's second.
    assert second[0] < first[1] and first[0] < second[1]


async def test_concurrency_limit_per_host() -> None:
    politeness = HostPoliteness(delay_s=0.0, concurrency=2, max_crawl_delay_s=30)
    peak = 0

    async def one() -> None:
        nonlocal peak
        async with politeness.slot("a.example"):
            peak = max(peak, politeness.in_flight("a.example"))
            await asyncio.sleep(0.05)

    await asyncio.gather(*(one() for _ in range(8)))
    assert peak == 2
    assert politeness.in_flight("a.example") == 0


async def test_crawl_delay_raises_the_gap_and_is_capped(caplog: pytest.LogCaptureFixture) -> None:
    politeness = HostPoliteness(delay_s=0.05, concurrency=1, max_crawl_delay_s=0.25)
    assert politeness.set_crawl_delay("a.example", 0.15) == 0.15
    assert politeness.delay_for("a.example") == 0.15
    with caplog.at_level(logging.WARNING):
        assert politeness.set_crawl_delay("b.example", 3600) == 0.25
    assert any("3600" in record.getMessage() and "capped" in record.getMessage() for record in caplog.records)
    times = await starts(politeness, "b.example", 2)
    assert times[1] - times[0] >= 0.25 - SLACK_S
    assert politeness.delay_for("c.example") == 0.05  # other hosts keep the default
    assert politeness.set_crawl_delay("d.example", 0.01) == 0.01
    assert politeness.delay_for("d.example") == 0.05  # a Crawl-delay never lowers our own delay


async def test_defer_holds_back_every_request_to_the_host() -> None:
    politeness = HostPoliteness(delay_s=0.0, concurrency=3, max_crawl_delay_s=30)
    asked = time.monotonic()
    politeness.defer("a.example", 0.3)
    times, other = await asyncio.gather(starts(politeness, "a.example", 3), starts(politeness, "b.example", 1))
    assert min(times) - asked >= 0.3 - SLACK_S
    assert other[0] < min(times)  # another host is not deferred


async def test_defer_reaches_a_request_already_waiting() -> None:
    politeness = HostPoliteness(delay_s=0.1, concurrency=1, max_crawl_delay_s=30)
    await starts(politeness, "a.example", 1)
    waiting = asyncio.create_task(starts(politeness, "a.example", 1))
    await asyncio.sleep(0.02)  # the waiter has reserved its start and sleeps
    asked = time.monotonic()
    politeness.defer("a.example", 0.3)
    (entered,) = await waiting
    assert entered - asked >= 0.3 - SLACK_S
