"""Runs a query in the foreground of a terminal: live view on, and Ctrl-C stops the search gracefully (the
report is written from what was collected) while a second Ctrl-C leaves at once.
"""

from __future__ import annotations

import asyncio
import signal
import threading
from collections.abc import Callable, Coroutine, Iterator
from contextlib import contextmanager
from types import FrameType
from typing import Any

from research_crawler.api import EventCallback, ResearchCrawler
from research_crawler.cli.live_view import LiveView
from research_crawler.report.models import Report

__all__ = ["run_in_foreground", "stop_on_ctrl_c"]

STOPPING = "Stopping: the report will be written from what was collected (Ctrl-C again to leave now)."


@contextmanager
def stop_on_ctrl_c(cancel: Callable[[], None], *, note: Callable[[str], None]) -> Iterator[None]:
    """While inside, the first Ctrl-C calls `cancel` (e.g. `ResearchCrawler.cancel`) and the second raises
    KeyboardInterrupt.

    Only the main thread can own SIGINT; elsewhere (a test runner's worker) Ctrl-C keeps its usual meaning.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    presses = 0

    def on_sigint(signum: int, frame: FrameType | None) -> None:
        nonlocal presses
        presses += 1
        if presses > 1:
            raise KeyboardInterrupt
        cancel()
        note(STOPPING)

    previous = signal.signal(signal.SIGINT, on_sigint)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


def run_in_foreground(
    crawler: ResearchCrawler,
    work: Callable[[EventCallback], Coroutine[Any, Any, Report]],
    *,
    view: LiveView,
) -> Report:
    """`work(on_event)` — e.g. ``lambda on_event: crawler.arun(query, on_event=on_event)`` — with `view`
    showing its progress and Ctrl-C handled as above. KeyboardInterrupt means the user left."""
    with stop_on_ctrl_c(crawler.cancel, note=view.note), view:
        return asyncio.run(work(view.on_event))
