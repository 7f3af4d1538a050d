"""Per-host politeness: a minimum gap between requests, a concurrency limit, Crawl-delay and Retry-After.

Each host has its own semaphore and schedule, so a slow or rate-limited host never holds back another.
"""

from __future__ import annotations

import asyncio
import logging
import time
import uuid
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass

from research_crawler.context.urls import host_of
from research_crawler.web.shared_politeness import HostSchedule, LocalHostSchedule

__all__ = ["HostPoliteness", "politeness_key"]

logger = logging.getLogger(__name__)


def politeness_key(url: str) -> str:
    """The key requests are throttled under: host[:port], lower-cased, ``www.`` ignored (one server)."""
    return host_of(url)


@dataclass
class _HostState:
    semaphore: asyncio.Semaphore
    in_flight: int = 0


class HostPoliteness:
    """Schedules requests per host: at most `concurrency` in flight, starts at least `delay_s` apart.

    The gap is measured between request starts (as Scrapy's DOWNLOAD_DELAY). A robots.txt Crawl-delay
    raises a host's gap (capped at `max_crawl_delay_s`, with a log line); `defer` pushes a host's next
    start back, for Retry-After and backoff, so every request to that host waits, not only the retry.
    The start times live in `schedule`: this scheduler's own, or one shared by every query of a batch or an
    evaluation (`web/shared_politeness.py`), so that they keep one pace per host together.
    """

    def __init__(
        self,
        *,
        delay_s: float,
        concurrency: int,
        max_crawl_delay_s: float,
        clock: Callable[[], float] = time.monotonic,
        schedule: HostSchedule | None = None,
    ) -> None:
        if delay_s < 0 or max_crawl_delay_s < 0:
            raise ValueError("delays must be >= 0")
        if concurrency < 1:
            raise ValueError("concurrency must be >= 1")
        self._delay_s = delay_s
        self._concurrency = concurrency
        self._max_crawl_delay_s = max_crawl_delay_s
        self._schedule: HostSchedule = schedule if schedule is not None else LocalHostSchedule(clock)
        self._hosts: dict[str, _HostState] = {}

    def _state(self, host: str) -> _HostState:
        state = self._hosts.get(host)
        if state is None:
            state = _HostState(semaphore=asyncio.Semaphore(self._concurrency))
            self._hosts[host] = state
        return state

    def delay_for(self, host: str) -> float:
        """The gap kept between two request starts on `host`: max(per-host delay, its Crawl-delay)."""
        return max(self._delay_s, self._schedule.crawl_delay(host))

    def set_crawl_delay(self, host: str, seconds: float) -> float:
        """Apply a robots.txt Crawl-delay to `host`; returns the delay used (capped, never negative)."""
        used = min(max(seconds, 0.0), self._max_crawl_delay_s)
        if seconds > self._max_crawl_delay_s:
            logger.warning(
                "robots.txt of %s asks for a Crawl-delay of %.0f s; capped at %.0f s",
                host,
                seconds,
                self._max_crawl_delay_s,
            )
        self._schedule.set_crawl_delay(host, used)
        return used

    def defer(self, host: str, seconds: float) -> None:
        """No request to `host` starts within the next `seconds` (Retry-After, backoff)."""
        self._schedule.defer(host, seconds)

    def in_flight(self, host: str) -> int:
        """Requests to `host` inside their slot right now."""
        return self._state(host).in_flight

    async def begin(self, host: str) -> None:
        """Wait until a request to `host` may begin now (the gap since the previous request that began, the
        back-off), and record that it begins. Atomic on the schedule, whoever shares it."""
        await self._take_turn(host, ticket=None)

    async def begin_send(self, host: str) -> str:
        """Wait until a request to `host` may begin now and take the host's turn, for a sender that reports when the
        request was written (`sent`, with the ticket returned): no other request to `host` begins until then, and
        the gap counts from that moment, so even a sender whose begin is a remote call keeps the pace on the wire."""
        ticket = uuid.uuid4().hex
        await self._take_turn(host, ticket=ticket)
        return ticket

    async def _take_turn(self, host: str, *, ticket: str | None) -> None:
        while (pause := self._schedule.begin(host, self._delay_s, ticket=ticket)) > 0:
            await asyncio.sleep(pause)

    def sent(self, host: str, ticket: str) -> None:
        """The request that took `ticket`'s turn on `host` has just been written (or failed to be)."""
        self._schedule.sent(host, ticket, self._schedule.now())

    @asynccontextmanager
    async def slot(self, host: str, *, begins_here: bool = True) -> AsyncIterator[None]:
        """Wait for `host`'s turn (a free place and the gap since the previous start), then hold it.

        With `begins_here` False the request leaves from somewhere else, which calls `begin` (or `begin_send`) when
        it does (a browser page: the guard proxy, as the browser's own request leaves; a plain-HTTP request: its
        headers being written, `pacing.SendPacing`): the slot then only books the turn and sleeps until it, so that the
        begin there finds the gap already waited, and never spends a begin itself.
        """
        state = self._state(host)
        schedule = self._schedule
        async with state.semaphore:
            # The start time is reserved before sleeping, so concurrent waiters space out rather than
            # all waking at once; the schedule books it atomically (one lock, whoever shares it).
            # The gap is computed from the previous start at the time of asking, so a Crawl-delay
            # learned from the robots.txt request applies to the very next request.
            start = schedule.reserve(host, self._delay_s)
            if (wait := start - schedule.now()) > 0:
                await asyncio.sleep(wait)
            # The booking spaces the waiters out; the start itself is checked again when it happens, so a request
            # that overslept its booking (a busy machine) and a Retry-After that arrived meanwhile still count.
            if begins_here:
                await self.begin(host)
            state.in_flight += 1
            try:
                yield
            finally:
                state.in_flight -= 1
