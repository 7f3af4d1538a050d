"""One fetch's progress and its page clock: the total deadline that starts with the first request."""

from __future__ import annotations

import asyncio

__all__ = ["FetchProgress"]


class FetchProgress:
    """What one fetch has done so far (readable after a deadline cancelled it), and its page clock.

    The page deadline starts with the first request rather than when the fetch was asked for: time
    spent queueing behind other pages of a polite host is not the page's fault.
    """

    def __init__(self, *, deadline_s: float | None = None) -> None:
        self.attempts = 0
        self.status: int | None = None
        self.url = ""
        self._deadline_s = deadline_s
        self._scope: asyncio.Timeout | None = None
        self._expires: float | None = None

    def bind(self, scope: asyncio.Timeout) -> None:
        """The `asyncio.timeout(None)` scope that `start_clock` arms with the deadline."""
        self._scope = scope

    def start_clock(self) -> None:
        """Start the page deadline (once); the enclosing `asyncio.timeout` scope fires when it passes."""
        if self._expires is None and self._deadline_s is not None:
            self._expires = asyncio.get_running_loop().time() + self._deadline_s
            if self._scope is not None:
                self._scope.reschedule(self._expires)

    def time_left(self) -> float | None:
        """Seconds left before the deadline; None when no deadline runs."""
        if self._expires is None:
            return None
        return self._expires - asyncio.get_running_loop().time()
