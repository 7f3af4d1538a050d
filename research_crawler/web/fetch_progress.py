"""One fetch's progress and its page clock (the total deadline that starts with the first request), and the words its
outcome adds to its page's reason."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from research_crawler.config.settings import RenderMode
from research_crawler.pages.page import Page

__all__ = ["FetchProgress", "attempts_text", "joined", "rendered_in_place_of", "stopping_took"]


class FetchProgress:
    """What one fetch has done so far (readable after a deadline cancelled it), and its page clock.

    The page deadline starts with the first request rather than when the fetch was asked for: time
    spent queueing behind other pages of a polite host is not the page's fault.
    """

    def __init__(self, *, deadline_s: float | None = None, on_start: Callable[[], None] | None = None) -> None:
        """`on_start` is called once, as the first request is about to leave."""
        self.attempts = 0
        self._on_start = on_start
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
        if self._on_start is not None:
            self._on_start()
            self._on_start = None
        if self._expires is None and self._deadline_s is not None:
            self._expires = asyncio.get_running_loop().time() + self._deadline_s
            if self._scope is not None:
                self._scope.reschedule(self._expires)

    def time_left(self) -> float | None:
        """Seconds left before the deadline; None when no deadline runs."""
        if self._expires is None:
            return None
        return self._expires - asyncio.get_running_loop().time()


# The words a fetch's outcome adds to its page's reason: attempts made, a deadline's overrun, and what became of a
# page that `render="auto"` sent to the browser.


def rendered_in_place_of(page: Page, rendered: Page, why: str) -> Page:
    """The browser's `rendered` page standing for the HTTP `page` (its URL, both attempts, why it was rendered);
    `page` itself, with the browser's outcome in its reason, when the browser could not read it."""
    if not rendered.ok:
        note = f"needs JavaScript; the browser got {rendered.determination.value}: {rendered.reason}"
        return page.model_copy(update={"reason": joined(page.reason, note)})
    note = f"rendered with the browser: {why}"
    attempts = page.attempts + rendered.attempts
    return rendered.model_copy(update={"url": page.url, "reason": joined(rendered.reason, note), "attempts": attempts})


def joined(first: str, second: str) -> str:
    return f"{first}; {second}" if first else second


def attempts_text(count: int) -> str:
    return f"{count} attempt" if count == 1 else f"{count} attempts"


#: Time after the deadline worth a word in the reason (below it, only the event loop's scheduling).
_OVERRUN_NOTED_S = 0.1


def stopping_took(scope: asyncio.Timeout, mode: RenderMode) -> str:
    """How long stopping the page took after its deadline fired, when that is worth saying.

    The deadline cancels the fetch, but what the cancelled code awaits while it unwinds still runs: in the
    browser that is Crawl4AI closing the tab (``page.close()`` in its clean-up), and Chromium takes about
    half a second to close a tab whose renderer is stuck in a script. That time is the page's, so it is
    reported here rather than hidden; the tab is closed when the fetch returns (never left running).
    """
    deadline = scope.when()
    if deadline is None:
        return ""
    overrun = asyncio.get_running_loop().time() - deadline
    if overrun < _OVERRUN_NOTED_S:
        return ""
    if mode == "browser":
        return f"; closing its browser tab took {overrun:.2f} s more (a page busy in its scripts closes slowly)"
    return f"; stopping the request took {overrun:.2f} s more"
