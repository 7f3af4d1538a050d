"""The pages one Fetcher has fetched, by canonical URL, so that no page is fetched twice.

Concurrent requests for the same URL share one fetch (an asyncio future); a page is also found under
the URL its redirects ended at.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

from research_crawler.pages.page import Page, RenderKind

__all__ = ["PageCache"]


class PageCache:
    """Canonical URL → fetched `Page`, plus the fetches in flight.

    Pages are kept per render kind under the hood only to honour an explicit request for the other
    kind (a JavaScript page first fetched over plain HTTP); `get` without a kind returns the latest.
    """

    def __init__(self) -> None:
        self._pages: dict[str, Page] = {}
        self._aliases: set[str] = set()  # final URLs stored as copies of a redirected page
        self._in_flight: dict[tuple[str, str], asyncio.Future[Page]] = {}
        self._waiters: dict[tuple[str, str], int] = {}

    def __len__(self) -> int:
        return len(self._pages)

    def __contains__(self, url: object) -> bool:
        return url in self._pages

    def get(self, url: str, *, render: RenderKind | None = None) -> Page | None:
        """The page stored for canonical `url` (of that render kind when given), or None."""
        page = self._pages.get(url)
        if page is None or (render is not None and page.render != render):
            return None
        return page

    def pages(self) -> list[Page]:
        """Every fetched page once, in the order they were stored (copies under final URLs left out)."""
        return [page for url, page in self._pages.items() if url not in self._aliases]

    def put(self, page: Page) -> None:
        """Store `page` under its URL, and under its final URL when that is not already known."""
        self._pages[page.url] = page
        self._aliases.discard(page.url)
        if page.final_url != page.url and page.final_url not in self._pages:
            self._pages[page.final_url] = page.model_copy(update={"url": page.final_url})
            self._aliases.add(page.final_url)

    async def get_or_fetch(self, url: str, render: str, fetch: Callable[[], Awaitable[Page]]) -> Page:
        """The stored page for `url`, or the result of `fetch()`, run once however many callers wait (`render`,
        the strategy asked for, tells concurrent fetches of one URL apart).

        An exception from `fetch` reaches every waiter and nothing is stored. A caller that is cancelled
        does not cancel the fetch others wait for.
        """
        key = (url, render)
        pending = self._in_flight.get(key)
        if pending is None:
            pending = asyncio.ensure_future(self._run(key, fetch))
            self._in_flight[key] = pending
        self._waiters[key] = self._waiters.get(key, 0) + 1
        try:
            return await asyncio.shield(pending)
        finally:
            self._waiters[key] -= 1
            if not self._waiters[key]:
                del self._waiters[key]

    async def abandon(self, url: str) -> None:
        """Stop the fetches of `url` in flight that no caller waits for any more (a guess fetched ahead that
        was not chosen); one somebody waits for goes on."""
        unwanted = [f for key, f in self._in_flight.items() if key[0] == url and not self._waiters.get(key)]
        for future in unwanted:
            future.cancel()
        await asyncio.gather(*unwanted, return_exceptions=True)

    async def cancel_pending(self) -> None:
        """Cancel the fetches still in flight and wait for them to end (on close)."""
        pending = list(self._in_flight.values())
        for future in pending:
            future.cancel()
        await asyncio.gather(*pending, return_exceptions=True)

    async def _run(self, key: tuple[str, str], fetch: Callable[[], Awaitable[Page]]) -> Page:
        try:
            page = await fetch()
            self.put(page)
            return page
        finally:
            self._in_flight.pop(key, None)
