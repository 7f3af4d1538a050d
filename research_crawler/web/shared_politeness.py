"""Politeness shared by every query of a process (or, through `ray_politeness`, of a cluster): one start schedule
per host — its gap, its Crawl-delay, its Retry-After back-off — and each origin's robots.txt fetched and parsed once.

Each `Fetcher` keeps its own per-host concurrency; what is shared is *when* a request to a host may start, so two
queries running at once (batch, eval) never send requests to one host closer than its delay, whichever query sends
them. The schedule is thread-safe and independent of event loops: `batch` runs its queries on one loop, `eval` on
one loop per thread.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import dataclass
from typing import Any, Protocol

__all__ = ["HostSchedule", "LocalHostSchedule", "RobotsStore", "SharedPoliteness"]


class HostSchedule(Protocol):
    """When requests to each host may start; times are in the schedule's own clock (`now`)."""

    def now(self) -> float: ...

    def reserve(self, host: str, delay_s: float) -> float:
        """Book the next start on `host`, at least `delay_s` (or its Crawl-delay, if longer) after the previous
        booked start and not before its back-off; returns that start time."""
        ...

    def begin(self, host: str, delay_s: float) -> float:
        """Start a request on `host` now if the gap since the previous start that began (and the back-off) allow:
        then record it and return 0; otherwise return the seconds left to wait. Atomic, so a request whose
        booked start was overslept (a busy machine) can never begin closer than the gap to another one."""
        ...

    def defer(self, host: str, seconds: float) -> None:
        """No request to `host` starts within the next `seconds`."""
        ...

    def set_crawl_delay(self, host: str, seconds: float) -> None: ...

    def crawl_delay(self, host: str) -> float: ...


@dataclass
class _Host:
    last_start: float = float("-inf")
    last_begun: float = float("-inf")
    not_before: float = 0.0
    crawl_delay_s: float = 0.0


class LocalHostSchedule:
    """A `HostSchedule` for one process: a dict under a lock."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self._hosts: dict[str, _Host] = {}
        self._lock = threading.Lock()

    def now(self) -> float:
        return self._clock()

    def _host(self, host: str) -> _Host:
        return self._hosts.setdefault(host, _Host())

    def reserve(self, host: str, delay_s: float) -> float:
        with self._lock:
            state = self._host(host)
            gap = max(delay_s, state.crawl_delay_s)
            start = max(self._clock(), state.last_start + gap, state.not_before)
            state.last_start = start
            return start

    def begin(self, host: str, delay_s: float) -> float:
        with self._lock:
            state = self._host(host)
            now = self._clock()
            ready = max(state.last_begun + max(delay_s, state.crawl_delay_s), state.not_before)
            if now < ready:
                return ready - now
            state.last_begun = now
            return 0.0

    def defer(self, host: str, seconds: float) -> None:
        with self._lock:
            state = self._host(host)
            state.not_before = max(state.not_before, self._clock() + max(seconds, 0.0))

    def set_crawl_delay(self, host: str, seconds: float) -> None:
        with self._lock:
            self._host(host).crawl_delay_s = max(seconds, 0.0)

    def crawl_delay(self, host: str) -> float:
        with self._lock:
            return self._host(host).crawl_delay_s


class RobotsStore:
    """Each origin's robots.txt rules for one process, fetched once: the first asker fetches and the others wait
    for its result, whatever thread or event loop they run on. Entries carry their own expiry."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._entries: dict[tuple[str, str], Future[Any]] = {}

    def claim(self, key: tuple[str, str], *, fresh: Callable[[Any], bool]) -> tuple[Future[Any], bool]:
        """The future holding `key`'s rules, and whether the caller owns it (and must fetch and `set_result`):
        a new one when there is none, or when the finished one is no longer `fresh` or failed."""
        with self._lock:
            future = self._entries.get(key)
            if future is not None and (
                not future.done() or (future.exception() is None and fresh(future.result()))
            ):
                return future, False
            future = Future()
            self._entries[key] = future
            return future, True


class SharedPoliteness:
    """What the queries of one batch or evaluation share: the hosts' start schedule and the robots.txt rules."""

    def __init__(self, schedule: HostSchedule | None = None, robots: RobotsStore | None = None) -> None:
        self.schedule: HostSchedule = schedule if schedule is not None else LocalHostSchedule()
        self.robots = robots if robots is not None else RobotsStore()
