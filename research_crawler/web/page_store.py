"""Where fetched pages are kept: the pages one Fetcher has fetched, in memory (`PageCache`), and the pages a run
fetched, in its run directory (`PageArchive`: resume, follow-ups and `--replay`). The pages kept across runs for
conditional requests are the revisit cache (revisit_cache.py, SQLite).

The page cache keeps pages by canonical URL, so that no page is fetched twice.

Concurrent requests for the same URL share one fetch (an asyncio future); a page is also found under the URL its
redirects ended at.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
from collections.abc import Awaitable, Callable
from pathlib import Path

from pydantic import ValidationError

from research_crawler.context.atomic_files import atomic_write_text
from research_crawler.context.urls import try_canonicalize_url
from research_crawler.pages.page import Page, RenderKind

__all__ = ["PageArchive", "PageCache"]


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


# The pages a run fetched, kept in its run directory: one fetch per page across resume and follow-ups, and the
# recording that `--replay` answers from (the web changes, a benchmark on a recording does not).


logger = logging.getLogger(__name__)


class PageArchive:
    """Pages stored as JSON files (raw HTML included) under `directory`, keyed by their canonical URL."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory

    def _path(self, url: str) -> Path:
        canonical = try_canonicalize_url(url) or url
        return self.directory / f"{hashlib.sha1(canonical.encode('utf-8')).hexdigest()}.json"

    def get(self, url: str) -> Page | None:
        """The stored page for `url`, or None (an unreadable file is logged and treated as absent)."""
        path = self._path(url)
        if not path.is_file():
            return None
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            page = Page.model_validate(data)
        except (OSError, ValueError, ValidationError) as exc:
            logger.warning("ignoring an unreadable archived page %s: %s", path.name, exc)
            return None
        return page

    def put(self, page: Page) -> None:
        """Store `page` under its requested URL (and its final URL, when a redirect led elsewhere)."""
        data = page.model_dump(mode="json")
        data["html"] = page.html
        text = json.dumps(data, ensure_ascii=False)
        self.directory.mkdir(parents=True, exist_ok=True)
        atomic_write_text(self._path(page.url), text)
        if page.final_url != page.url:
            atomic_write_text(self._path(page.final_url), text)

    def __len__(self) -> int:
        return sum(1 for _ in self.directory.glob("*.json")) if self.directory.is_dir() else 0
