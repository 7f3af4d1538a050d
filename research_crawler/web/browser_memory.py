"""The launched browser's memory bound: while pages render, the Chromium process tree's memory is watched, and a
renderer holding more than `fetch.browser_max_memory_mb` — or the largest one, when the tree has grown by more than
3 times that since launch (a page spread over frames of several sites) — is stopped. A page allocating in its scripts
or inflating a compression bomb is then reported too large instead of taking the machine's memory; the other pages'
renderers, and the browser, live on. When the tree stays past its bound with that renderer gone (what grew is not a
page's renderer), the browser is `worn_out`: its session relaunches it once no page renders. (V8's heap limit, set at
launch, stops most script allocation earlier; what lies outside that heap — array buffers, the document's own text —
is what this watch catches.)
"""

from __future__ import annotations

import asyncio
import logging

from research_crawler.web.browser import ChromiumProcess

__all__ = ["MemoryBound"]

logger = logging.getLogger(__name__)

#: How often the tree's memory is read while a page renders.
_INTERVAL_S = 0.25


class MemoryBound:
    """Watches `chromium`'s processes while renders run (`watch()`), stopping a renderer past `max_mb` (or the largest
    when the tree grew past `TREE_GROWTH` times it); `stops` counts the renderers stopped, so a render can tell.
    `worn_out`: the tree stayed past its bound after a renderer was stopped for it (or there was none to stop)."""

    #: How much the whole tree may grow over what it held at launch, in pages' worth (`max_mb`).
    TREE_GROWTH = 3

    def __init__(self, chromium: ChromiumProcess, *, max_mb: int, interval_s: float = _INTERVAL_S) -> None:
        self.max_mb = max_mb
        self.stops = 0
        self.worn_out = False
        self._stopped_for_tree = False
        self._chromium = chromium
        self._interval_s = interval_s
        self._lock = asyncio.Lock()
        self._tree_bound_mb = chromium.memory()[0] + self.TREE_GROWTH * max_mb

    async def watch(self) -> None:
        """Check every `interval_s` until cancelled (a render runs it beside its page)."""
        while True:
            await asyncio.sleep(self._interval_s)
            await self.check()

    async def check(self) -> None:
        """Stop the largest renderer when it, or the whole browser, holds more than its bound. One check at a time: a
        second render's watch reads the memory again after the first one's stop, and never stops an innocent page."""
        async with self._lock:
            # A tenth of a millisecond a process (its /proc statm), in the loop: a worker thread would hold the GIL
            # away from the pages' loop whenever a busy machine pauses it.
            if self.worn_out:
                return  # nothing more is stopped: the browser is relaunched once its pages are done
            total, largest = self._chromium.memory()
            logger.debug("the browser holds %.0f MB, its largest renderer %.0f MB", total, largest)
            if largest <= self.max_mb and total <= self._tree_bound_mb:
                self._stopped_for_tree = False
                return
            if largest <= self.max_mb and self._stopped_for_tree:
                self.worn_out = True  # a page's renderer stopped and the tree is still past its bound
                logger.warning("the browser holds %.0f MB with no page past its bound", total)
                return
            stopped = self._chromium.stop_largest_renderer()
            if stopped is None:  # the tree is past its bound, and no page holds it
                self.worn_out = True
                return
            self._stopped_for_tree = largest <= self.max_mb
            self.stops += 1
            logger.warning(
                "a page took %.0f MB in the browser (all of it: %.0f MB; bounds %d and %.0f MB): it was stopped",
                stopped,
                total,
                self.max_mb,
                self._tree_bound_mb,
            )
            await asyncio.sleep(self._interval_s)  # its memory is given back before the next reading
