"""Politeness shared by every query of a process (or, through `ray_politeness`, of a cluster): one start schedule
per host — its gap, its Crawl-delay, its Retry-After back-off — and each origin's robots.txt fetched and parsed once.

Each `Fetcher` keeps its own per-host concurrency; what is shared is *when* a request to a host may start, so two
queries running at once (batch, eval) never send requests to one host closer than its delay, whichever query sends
them. The schedule is thread-safe and independent of event loops: `batch` runs its queries on one loop, `eval` on
one loop per thread. A plain-HTTP request takes its host's turn as its headers are written and reports when they were
(`begin` with a ticket, then `sent`), in one process as on Ray: between the begin and the write another query's task
or thread can run (tens of ms on a busy machine), and the gap on the wire must not shrink by that.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import dataclass
from typing import Any, Protocol

__all__ = ["SEND_REPORT_TIMEOUT_S", "HostSchedule", "LocalHostSchedule", "RobotsStore", "SharedPoliteness"]

#: How long a host waits for the report of a request granted its turn (`HostSchedule.sent`) before it counts that
#: request as sent at the end of this wait: its sender died, or never wrote it.
SEND_REPORT_TIMEOUT_S = 2.0
#: How often a begin asks again while the request before it has not reported its send (the report is a step away).
_SEND_REPORT_POLL_S = 0.005


class HostSchedule(Protocol):
    """When requests to each host may start; times are in the schedule's own clock (`now`)."""

    def now(self) -> float: ...

    def reserve(self, host: str, delay_s: float) -> float:
        """Book the next start on `host`, at least `delay_s` (or its Crawl-delay, if longer) after the previous
        booked start and not before its back-off; returns that start time."""
        ...

    def begin(self, host: str, delay_s: float, *, ticket: str | None = None) -> float:
        """Start a request on `host` now if the gap since the previous start that began (and the back-off) allow:
        then record it and return 0; otherwise return the seconds left to wait. Atomic, so a request whose
        booked start was overslept (a busy machine) can never begin closer than the gap to another one.

        With a `ticket` the start is a turn: the host stays taken until the sender reports with `sent` when the
        request really left (or `SEND_REPORT_TIMEOUT_S` passes: a sender that died), and the gap counts from then."""
        ...

    def sent(self, host: str, ticket: str, at: float) -> None:
        """The request that began with `ticket` was written to the wire at `at` (this schedule's clock)."""
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
    #: The ticket of the request granted the last turn, until it reports its send; and when it was granted.
    sending: str | None = None
    granted_at: float = 0.0


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

    def begin(self, host: str, delay_s: float, *, ticket: str | None = None) -> float:
        with self._lock:
            state = self._host(host)
            now = self._clock()
            gap = max(delay_s, state.crawl_delay_s)
            if state.sending is not None:
                deadline = state.granted_at + SEND_REPORT_TIMEOUT_S
                if now < deadline:
                    # The request granted the last turn has not told when it left: it left at the grant at the
                    # earliest, so the gap from the grant is waited for sure, and then the report is asked for.
                    return max(state.granted_at + gap - now, _SEND_REPORT_POLL_S)
                state.last_begun = max(state.last_begun, deadline)
                state.sending = None
            ready = max(state.last_begun + gap, state.not_before)
            if now < ready:
                return ready - now
            state.last_begun = now
            if ticket is not None:
                state.sending, state.granted_at = ticket, now
            return 0.0

    def sent(self, host: str, ticket: str, at: float) -> None:
        with self._lock:
            state = self._host(host)
            # A late report (after the timeout gave its turn away) still moves the gap on: that request did leave.
            state.last_begun = max(state.last_begun, at)
            if state.sending == ticket:
                state.sending = None

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
            if future is not None and (not future.done() or (future.exception() is None and fresh(future.result()))):
                return future, False
            future = Future()
            self._entries[key] = future
            return future, True


class SharedPoliteness:
    """What the queries of one batch or evaluation share: the hosts' start schedule and the robots.txt rules."""

    def __init__(self, schedule: HostSchedule | None = None, robots: RobotsStore | None = None) -> None:
        self.schedule: HostSchedule = schedule if schedule is not None else LocalHostSchedule()
        self.robots = robots if robots is not None else RobotsStore()
