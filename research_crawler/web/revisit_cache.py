"""Pages kept across runs with their validators (ETag, Last-Modified), so that a page seen before is asked for
conditionally and a ``304 Not Modified`` is answered from here: no download, and the page the agents read last time.

One SQLite file (stdlib sqlite3, WAL: runs in other processes share it), keyed by the canonical URL the response
came from. Bounded: past `max_bytes` the pages used longest ago are dropped; an entry older than `max_age_s` is
fetched again in full. Beside each page it keeps what the agents made of it last time (`memory`, opaque JSON set by
the scraper), so an unchanged page needs no model call either.

Not hishel (2.0): it keeps the response and nothing of ours beside it, so what the agents made of a page per request,
forgotten when the page changes, would need a second store keyed to its entries: two stores for one concept.
"""

from __future__ import annotations

import asyncio
import functools
import json
import logging
import sqlite3
import threading
import time
import zlib
from collections.abc import Callable, Mapping
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Concatenate, ParamSpec, TypeVar

import platformdirs
from pydantic import ValidationError

from research_crawler.config.fetch_settings import FetchSettings
from research_crawler.context.shared_sqlite import open_shared_sqlite
from research_crawler.errors import ConfigError
from research_crawler.pages.page import Page

__all__ = ["RevisitCache", "default_revisit_cache_path"]

logger = logging.getLogger(__name__)

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
            data = json.loads(zlib.decompress(row[0]).decode("utf-8"))
            return Page.model_validate(data)
        except (zlib.error, ValueError, ValidationError) as exc:
            logger.warning("dropping an unreadable revisit-cache entry for %s: %s", url, exc)
            self.forget(url)
            return None

    @_or_miss(False)
    def put(self, page: Page, headers: Mapping[str, str]) -> bool:
        """Keep `page` under its final URL when the response gave validators (ETag or Last-Modified); whether it
        was kept. What the agents made of an earlier copy (`memory`) is dropped: the page changed."""
        etag, last_modified = headers.get("etag"), headers.get("last-modified")
        if not (etag or last_modified) or not page.ok:
            return False
        data = page.model_dump(mode="json")
        data["html"] = page.html
        blob = zlib.compress(json.dumps(data, ensure_ascii=False).encode("utf-8"), 6)
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
