"""One run started from the web app: its ResearchCrawler working in a thread of its own (with its own event
loop, so nothing a run does can stall the server), its progress and log lines, and the waiters of its event
stream, woken from that thread.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import Any, Literal

from research_crawler.api import EventCallback, ResearchCrawler
from research_crawler.errors import ResearchCrawlerError
from research_crawler.rank.rerank import load_reranker
from research_crawler.report.models import Report
from research_crawler.serve.progress import WebProgress
from research_crawler.text.untrusted import untrusted

__all__ = ["RunStatus", "WebRun", "Work"]

logger = logging.getLogger(__name__)

RunStatus = Literal["running", "done", "failed", "cancelled", "unfinished"]
#: What a turn runs: a coroutine of the crawler's, given the event callback (e.g. ``crawler.arun(…, on_event=cb)``).
Work = Callable[[EventCallback], Coroutine[Any, Any, Report]]

#: Log lines kept per run (the oldest are dropped past this; the progress numbers are not affected).
MAX_LINES = 5000


class WebRun:
    """A run directory this server is working on (or has worked on since it started).

    Each turn — the first query, a follow-up, a resume — runs in a new thread; log lines accumulate across turns
    and are numbered, so an event stream can continue from the last line it sent.
    """

    def __init__(self, run_id: str, run_dir: Path, crawler: ResearchCrawler, *, query: str) -> None:
        self.id = run_id
        self.queries = [untrusted(query)]
        self.run_dir = run_dir
        self.crawler = crawler
        self.status: RunStatus = "running"
        self.error = ""
        self.progress = WebProgress()
        self._lines: list[str] = []
        self._dropped = 0  # lines dropped from the front (MAX_LINES)
        self._lock = threading.Lock()
        self._version = 0
        self._waiters: list[tuple[asyncio.AbstractEventLoop, asyncio.Event]] = []
        self._thread: threading.Thread | None = None
        self._cancel_asked = False

    # --- the work ------------------------------------------------------------------------------

    def launch(self, work: Work) -> None:
        """Start a turn in a new thread. The caller has checked that no turn is running."""
        with self._lock:
            self.status, self.error, self._cancel_asked = "running", "", False
        self._thread = threading.Thread(target=self._work, args=(work,), name=f"serve-run-{self.id}", daemon=True)
        self._thread.start()
        self._notify()

    def cancel(self) -> None:
        """Stop the turn gracefully: the report is written from what was collected (status "cancelled")."""
        with self._lock:
            self._cancel_asked = True
        self.crawler.cancel()
        self.add_line("Stopping: the report will be written from what was collected.")

    def join(self, timeout: float | None = None) -> bool:
        """Wait for the current turn's thread; True when it has ended."""
        if self._thread is not None:
            self._thread.join(timeout)
            return not self._thread.is_alive()
        return True

    def _work(self, work: Work) -> None:
        try:
            load_reranker(self.crawler.settings.rerank)  # a reranker that cannot load fails now, not after the crawl
            report = asyncio.run(self._turn(work))
        except ResearchCrawlerError as exc:
            self._finish("failed", untrusted(str(exc)))
        except Exception as exc:  # the server lives on; the page says what happened
            logger.exception("run %s failed", self.id)
            self._finish("failed", untrusted(f"internal error ({type(exc).__name__}: {exc})"))
        else:
            if report.stop_reason == "interrupted" or self._cancel_asked:
                self._finish("cancelled", "")
            elif report.stop_reason == "error":
                self._finish("failed", untrusted(report.stop_detail))
            else:
                self._finish("done", "")

    async def _turn(self, work: Work) -> Report:
        task = asyncio.ensure_future(work(self._on_event))
        await asyncio.sleep(0)  # the crawler has begun: a cancel asked before now is passed on
        with self._lock:
            cancel = self._cancel_asked
        if cancel:
            self.crawler.cancel()
        return await task

    def _finish(self, status: RunStatus, error: str) -> None:
        if error:
            self.add_line(f"Error: {error}")
        self.add_line({"done": "Done.", "cancelled": "Cancelled.", "failed": "Failed."}.get(status, status))
        with self._lock:  # the status last: a stream that sees it has every line
            self.status, self.error = status, error
        self._notify()

    # --- events ----------------------------------------------------------------------------------

    def _on_event(self, event: dict[str, Any]) -> None:  # from the run's threads
        with self._lock:
            line = self.progress.apply(event)
        if line is not None:
            self.add_line(line)
        else:
            self._notify()

    def add_line(self, line: str) -> None:
        with self._lock:
            self._lines.append(line)
            if len(self._lines) > MAX_LINES:
                del self._lines[0]
                self._dropped += 1
        self._notify()

    def lines_after(self, cursor: int) -> tuple[list[tuple[int, str]], dict[str, Any], RunStatus, int]:
        """(numbered log lines after `cursor`, the progress snapshot, the status, the change counter)."""
        with self._lock:
            start = max(cursor, self._dropped)
            lines = [(start + i + 1, line) for i, line in enumerate(self._lines[start - self._dropped :])]
            return lines, self.progress.snapshot(), self.status, self._version

    async def wait_for_change(self, seen_version: int, timeout: float) -> None:
        """Return once something changed after `seen_version`, or after `timeout` seconds."""
        loop = asyncio.get_running_loop()
        event = asyncio.Event()
        with self._lock:
            if self._version != seen_version:
                return
            self._waiters.append((loop, event))
        try:
            await asyncio.wait_for(event.wait(), timeout)
        except TimeoutError:
            pass
        finally:
            with self._lock:
                if (loop, event) in self._waiters:
                    self._waiters.remove((loop, event))

    def _notify(self) -> None:
        with self._lock:
            self._version += 1
            waiters = list(self._waiters)
        for loop, event in waiters:
            with contextlib.suppress(RuntimeError):  # that stream's loop has closed
                loop.call_soon_threadsafe(event.set)
