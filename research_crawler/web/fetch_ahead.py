"""Fetch ahead: the pages likely to be read next are fetched in the background while the agents think.

A guess is only a request made early: it goes through the same fetcher (robots.txt, the per-host delay, the
URL guard, the page cache), at most `limit` are kept per site, and one that is not chosen is given up when
another page of its site is read: cancelled while it waits for its turn on the host, so the site is never asked,
or left to finish once its request has left, so the site is never asked twice for it (the caller archives it
and reads it later without a request). Either way it never reaches the run's Web Context (the caller records a
page only when it is read). Guesses for different sites (the next site's start page) do not disturb each other.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

from research_crawler.config.fetch_settings import RenderMode
from research_crawler.pages.page import Page

__all__ = ["AheadOutcome", "FetchAhead"]

logger = logging.getLogger(__name__)

PageFetch = Callable[[str, RenderMode | None, str | None], Awaitable[Page]]
"""fetch(url, render, site_url): the fetcher's own fetch."""

AheadOutcome = tuple[str, str]
"""(url, what became of a page fetched ahead and not taken): "cancelled" before its request left, "finishing" when
its request had left (left to finish), "unused" once done."""


class FetchAhead:
    """Background fetches on one event loop (every method runs on it)."""

    def __init__(
        self,
        fetch: PageFetch,
        *,
        limit: int,
        abandon: Callable[[str], Awaitable[None]] | None = None,
        requested: Callable[[str], bool] | None = None,
    ) -> None:
        """`fetch` fetches a page; `abandon(url)` stops a fetch of `url` nobody waits for any more (the fetcher's
        page cache lets a cancelled caller's fetch run on otherwise); `requested(url)` says whether a fetch of `url`
        has sent its request (such a guess is left to finish when given up); `limit` fetches at most are kept."""
        if limit < 1:
            raise ValueError(f"limit must be at least 1, not {limit}")
        self._fetch = fetch
        self._abandon = abandon
        self._limit = limit
        self._tasks: dict[str, asyncio.Task[Page]] = {}
        self._sites: dict[str, str | None] = {}
        self._requested = requested
        self._finishing: set[asyncio.Task[Page]] = set()  # given up with their request sent: left to finish

    @property
    def urls(self) -> list[str]:
        """The URLs fetched ahead and not taken yet, oldest first."""
        return list(self._tasks)

    async def start(self, url: str, *, render: RenderMode | None = None, site_url: str | None = None) -> bool:
        """Fetch `url` in the background (the oldest fetch ahead is given up past the limit); whether it started
        (False when it is already under way)."""
        if url in self._tasks:
            return False
        while len(same := self._of_site(site_url)) >= self._limit:
            await self._drop(same[0])
        task = asyncio.ensure_future(self._fetch(url, render, site_url))
        task.add_done_callback(_note_failure)  # a taken fetch is joined through the page cache, not this task
        self._tasks[url] = task
        self._sites[url] = site_url
        return True

    async def take(self, url: str, *, site_url: str | None = None) -> tuple[bool, list[AheadOutcome]]:
        """`url` of `site_url` is about to be read: whether it was fetched ahead (its fetch is then the caller's
        to join), and what became of the site's other fetches ahead, all given up now."""
        ahead = self._tasks.pop(url, None) is not None
        self._sites.pop(url, None)
        outcomes = [await self._drop(other) for other in self._of_site(site_url)]
        return ahead, outcomes

    async def close(self) -> list[AheadOutcome]:
        """Give up every fetch ahead (at the end of a run): cancelled, whether its request had left or not."""
        finishing, self._requested = list(self._finishing), None
        for task in finishing:
            task.cancel()
        await asyncio.gather(*finishing, return_exceptions=True)
        return [await self._drop(url) for url in list(self._tasks)]

    def _of_site(self, site_url: str | None) -> list[str]:
        return [url for url in self._tasks if self._sites.get(url) == site_url]

    async def _drop(self, url: str) -> AheadOutcome:
        task = self._tasks.pop(url)
        self._sites.pop(url, None)
        if task.done():  # a failure was logged as it ended (`_note_failure`)
            return url, "unused"
        if self._requested is not None and self._requested(url):
            self._finishing.add(task)
            task.add_done_callback(self._finishing.discard)
            return url, "finishing"
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)
        if self._abandon is not None:
            await self._abandon(url)
        return url, "cancelled"


def _note_failure(task: asyncio.Task[Page]) -> None:
    """Read the outcome of a fetch ahead nobody may await (a taken one, or one a run left at once abandoned), so
    a failure is logged at debug level instead of as "Task exception was never retrieved"."""
    if not task.cancelled() and (error := task.exception()) is not None:
        logger.debug("a fetch ahead failed: %s", error)
