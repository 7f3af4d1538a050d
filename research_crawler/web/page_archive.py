"""The pages a run fetched, kept in its run directory: one fetch per page across resume and follow-ups,
and the recording that `--replay` answers from (the web changes, a benchmark on a recording does not)."""

from __future__ import annotations

import hashlib
import json
import logging
from pathlib import Path

from pydantic import ValidationError

from research_crawler.context.atomic_files import atomic_write_text
from research_crawler.context.urls import try_canonicalize_url
from research_crawler.pages.page import Page

__all__ = ["PageArchive"]

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
