"""Where fetched pages are kept, for three lifetimes, in one format (a `Page` as JSON, its raw HTML included):

- `PageCache`, one Fetcher's pages in memory by canonical URL: no page fetched twice, concurrent requests for one
  URL share one fetch (an asyncio future), and a page is also found under the URL its redirects ended at;
- `PageArchive`, the pages a run fetched, as files in its run directory: one fetch per page across resume and
  follow-ups, and the recording that `--replay` answers from (the web changes, a benchmark on a recording does not);
- `RevisitCache`, the pages kept across runs with their validators (ETag, Last-Modified) in one SQLite file, so
  that a page seen before is asked for conditionally and a ``304 Not Modified`` is answered from here.

An entry that cannot be read back (a damaged file, another version's format) is logged and counts as absent: the
page is fetched again, never lost.
"""

from __future__ import annotations

import asyncio
import functools
import hashlib
import json
import logging
import sqlite3
import threading
import time
import zlib
from collections.abc import Awaitable, Callable, Mapping
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Concatenate, ParamSpec, TypeVar

import platformdirs
from pydantic import ValidationError

from research_crawler.config.fetch_settings import FetchSettings
from research_crawler.context.durable_files import atomic_write_text, open_shared_sqlite
from research_crawler.context.urls import try_canonicalize_url
from research_crawler.errors import ConfigError
from research_crawler.pages.page import Page, RenderKind

__all__ = ["PageArchive", "PageCache", "RevisitCache", "default_revisit_cache_path"]

logger = logging.getLogger(__name__)


def _page_json(page: Page) -> str:
    """`page` as the JSON every store keeps (the raw HTML, which the model leaves out of its dumps, included)."""
    data = page.model_dump(mode="json")
    data["html"] = page.html
    return json.dumps(data, ensure_ascii=False)


def _page_from_json(text: str | bytes, *, where: str) -> Page | None:
    """The page `_page_json` wrote, or None when `text` is not one (logged with `where`, the entry's name)."""
    try:
        return Page.model_validate(json.loads(text))
    except (ValueError, ValidationError) as exc:
        logger.warning("ignoring an unreadable stored page %s: %s", where, exc)
        return None


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
        self._requested: set[str] = set()  # URLs whose fetch in flight has sent its request

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

    def started(self, url: str) -> None:
        """The fetch of `url` in flight is sending its first request (`requested` says so until it ends)."""
        if any(key[0] == url for key in self._in_flight):
            self._requested.add(url)

    def requested(self, url: str) -> bool:
        """Whether a fetch of `url` in flight has sent its request."""
        return url in self._requested

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
            if not any(other[0] == key[0] for other in self._in_flight):
                self._requested.discard(key[0])


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
        try:
            return _page_from_json(path.read_bytes(), where=str(path)) if path.is_file() else None
        except OSError as exc:
            logger.warning("ignoring an unreadable stored page %s: %s", path, exc)
            return None

    def put(self, page: Page) -> None:
        """Store `page` under its requested URL (and its final URL, when a redirect led elsewhere)."""
        text = _page_json(page)
        self.directory.mkdir(parents=True, exist_ok=True)
        atomic_write_text(self._path(page.url), text)
        if page.final_url != page.url:
            atomic_write_text(self._path(page.final_url), text)

    def __len__(self) -> int:
        return sum(1 for _ in self.directory.glob("*.json")) if self.directory.is_dir() else 0


# Not hishel (2.0) for the revisit cache: it keeps the response and nothing of ours beside it, so what the agents
# made of a page per request (`memory`, opaque JSON set by the scraper: an unchanged page needs no model call
# either), forgotten when the page changes, would need a second store keyed to its entries. Bounded: past
# `max_bytes` the pages used longest ago are dropped; an entry older than `max_age_s` is fetched again in full.

_SCHEMA = """
CREATE TABLE IF NOT EXISTS pages (
    url TEXT PRIMARY KEY,
    etag TEXT,
    last_modified TEXT,
    stored_at REAL NOT NULL,
    used_at REAL NOT NULL,
    size INTEGER NOT NULL,
    page BLOB NOT NULL,
    memory TEXT
)
"""
_BUSY_TIMEOUT_S = 30.0


_P = ParamSpec("_P")
_R = TypeVar("_R")


def _or_miss(default: Any) -> Callable[[Callable[Concatenate[RevisitCache, _P], _R]], Callable[..., _R]]:
    """A cache operation that cannot reach the file (locked past the busy timeout, a full disk) is logged and
    counts as a miss: the page is fetched in full and read, never lost."""

    def wrap(method: Callable[Concatenate[RevisitCache, _P], _R]) -> Callable[..., _R]:
        @functools.wraps(method)
        def run(self: RevisitCache, *args: _P.args, **kwargs: _P.kwargs) -> _R:
            try:
                return method(self, *args, **kwargs)
            except sqlite3.Error as exc:
                logger.warning("the revisit cache %s failed (%s): treated as a miss", self.path, exc)
                return default

        return run

    return wrap


def default_revisit_cache_path() -> Path:
    """pages.sqlite3 in the user cache directory (~/.cache/research-crawler on Linux)."""
    return Path(platformdirs.user_cache_dir("research-crawler", appauthor=False)) / "pages.sqlite3"


class RevisitCache:
    """Canonical URL → (validators, page, memory), shared by the runs of every process on this machine."""

    def __init__(self, path: Path, *, max_bytes: int, max_age_s: float) -> None:
        """Open (or create) the cache at `path`; ConfigError, in one line with the fix, when it cannot be used."""
        self.path = path
        self._max_bytes = max_bytes
        self._max_age_s = max_age_s
        self._lock = threading.Lock()
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            self._db = open_shared_sqlite(path, busy_timeout_s=_BUSY_TIMEOUT_S)
            self._db.execute(_SCHEMA)
        except (sqlite3.Error, OSError) as exc:
            raise ConfigError(
                f"the revisit cache {path} cannot be used ({exc}): delete it, or choose another with "
                "--set fetch.revisit_cache_path=FILE"
            ) from None

    @classmethod
    def from_settings(cls, settings: FetchSettings) -> RevisitCache:
        """The cache `settings` describe (``fetch.revisit_cache_*``)."""
        return cls(
            settings.revisit_cache_path or default_revisit_cache_path(),
            max_bytes=int(settings.revisit_cache_max_mb * 1024 * 1024),
            max_age_s=settings.revisit_cache_max_age_days * 86400.0,
        )

    def close(self) -> None:
        """Close the file."""
        with self._lock:
            self._db.close()

    @_or_miss({})
    def validators(self, url: str) -> dict[str, str]:
        """The conditional request headers for canonical `url` (If-None-Match, If-Modified-Since), or {} when
        nothing usable is kept (never seen, expired, or stored without validators)."""
        with self._lock:
            row = self._db.execute("SELECT etag, last_modified, stored_at FROM pages WHERE url = ?", (url,)).fetchone()
        if row is None or time.time() - row[2] > self._max_age_s:
            return {}
        headers = {}
        if row[0]:
            headers["If-None-Match"] = row[0]
        if row[1]:
            headers["If-Modified-Since"] = row[1]
        return headers

    async def conditional_headers(self, url: str) -> dict[str, str]:
        """`validators`, off the event loop (the HTTP transport asks before each request)."""
        return await asyncio.to_thread(self.validators, url)

    async def unchanged_page(self, url: str, final_url: str, *, attempts: int) -> Page | None:
        """The copy kept for `final_url`, which just answered 304 Not Modified, as the page of `url` (marked
        revisited, its copy good for another max age); None when it went meanwhile (fetch it in full)."""
        kept = await asyncio.to_thread(self.page, final_url)
        if kept is None:
            return None
        await asyncio.to_thread(self.refreshed, final_url)
        return kept.model_copy(
            update={"url": url, "revisited": True, "attempts": attempts, "fetched_at": datetime.now(UTC)}
        )

    @_or_miss(None)
    def page(self, url: str) -> Page | None:
        """The page kept for canonical `url` (marked as used), or None (an unreadable entry is dropped)."""
        with self._lock:
            row = self._db.execute("SELECT page FROM pages WHERE url = ?", (url,)).fetchone()
            if row is None:
                return None
            self._db.execute("UPDATE pages SET used_at = ? WHERE url = ?", (time.time(), url))
        try:
            page = _page_from_json(zlib.decompress(row[0]), where=f"{self.path} {url}")
        except zlib.error as exc:
            logger.warning("ignoring an unreadable stored page %s %s: %s", self.path, url, exc)
            page = None
        if page is None:
            self.forget(url)  # dropped: the page is fetched again in full
        return page

    @_or_miss(False)
    def put(self, page: Page, headers: Mapping[str, str]) -> bool:
        """Keep `page` under its final URL when the response gave validators (ETag or Last-Modified); whether it
        was kept. What the agents made of an earlier copy (`memory`) is dropped: the page changed."""
        etag, last_modified = headers.get("etag"), headers.get("last-modified")
        if not (etag or last_modified) or not page.ok:
            return False
        blob = zlib.compress(_page_json(page).encode("utf-8"), 6)
        now = time.time()
        with self._lock:
            self._db.execute(
                "INSERT OR REPLACE INTO pages (url, etag, last_modified, stored_at, used_at, size, page, memory) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, NULL)",
                (page.final_url, etag, last_modified, now, now, len(blob), blob),
            )
            self._evict()
        return True

    @_or_miss(None)
    def refreshed(self, url: str) -> None:
        """A 304 for `url`: its copy is good for another `max_age_s`."""
        with self._lock:
            now = time.time()
            self._db.execute("UPDATE pages SET stored_at = ?, used_at = ? WHERE url = ?", (now, now, url))

    @_or_miss(None)
    def memory(self, url: str) -> Any:
        """What the agents made of canonical `url`'s kept copy last time (as `remember` stored it), or None."""
        with self._lock:
            row = self._db.execute("SELECT memory FROM pages WHERE url = ?", (url,)).fetchone()
        if row is None or row[0] is None:
            return None
        try:
            return json.loads(row[0])
        except ValueError:
            return None

    @_or_miss(None)
    def remember(self, url: str, memory: Any) -> None:
        """Keep `memory` (JSON-serialisable) beside canonical `url`'s copy; nothing when no copy is kept."""
        text = json.dumps(memory, ensure_ascii=False)
        with self._lock:
            self._db.execute("UPDATE pages SET memory = ? WHERE url = ?", (text, url))

    @_or_miss(None)
    def forget(self, url: str) -> None:
        """Drop what is kept for `url`."""
        with self._lock:
            self._db.execute("DELETE FROM pages WHERE url = ?", (url,))

    def total_bytes(self) -> int:
        """The size of the kept pages (compressed)."""
        with self._lock:
            return int(self._db.execute("SELECT COALESCE(SUM(size), 0) FROM pages").fetchone()[0])

    def _evict(self) -> None:
        """Drop the pages used longest ago until the rest fit in `max_bytes` (the caller holds the lock)."""
        total = int(self._db.execute("SELECT COALESCE(SUM(size), 0) FROM pages").fetchone()[0])
        if total <= self._max_bytes:
            return
        for url, size in self._db.execute("SELECT url, size FROM pages ORDER BY used_at, url").fetchall():
            self._db.execute("DELETE FROM pages WHERE url = ?", (url,))
            total -= size
            if total <= self._max_bytes:
                return
