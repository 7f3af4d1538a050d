"""Where the agents' pages come from: the run's own archive first (no page fetched twice across resume and
follow-ups), then a recording (`--replay`), then the web through the async fetcher, bridged from the chat's thread.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

from research_crawler.context.search_context import SiteRef
from research_crawler.pages.page import Determination, Page
from research_crawler.run.trace import Trace
from research_crawler.web.fetcher import Fetcher
from research_crawler.web.page_archive import PageArchive

__all__ = ["PageSource"]


class PageSource:
    """Fetches a URL for a site (blocking; called from the group chat's worker thread).

    Every page that did not come from the run's archive is archived; `fetched` lists them, and
    `fetched_urls` holds the URLs of every readable page (the citation guard's fetched set).
    """

    def __init__(
        self,
        *,
        fetcher: Fetcher,
        loop: asyncio.AbstractEventLoop,
        archive: PageArchive,
        trace: Trace,
        deadline_s: float,
        recording: PageArchive | None = None,
        recording_dir: Path | None = None,
    ) -> None:
        self._fetcher = fetcher
        self._loop = loop
        self._archive = archive
        self._recording = recording
        self._recording_dir = recording_dir
        self._trace = trace
        self._wait_s = deadline_s * 2 + 30
        self.fetched: list[Page] = []
        self.fetched_urls: set[str] = set()

    def __call__(self, url: str, site: SiteRef) -> Page:
        source = "archive"
        page = self._archive.get(url)
        if page is None and self._recording is not None:
            source = "replay"
            page = self._recording.get(url) or self._not_recorded(url)
        if page is None:
            source = "web"
            future = asyncio.run_coroutine_threadsafe(
                self._fetcher.fetch(url, render=site.render, site_url=site.url), self._loop
            )
            page = future.result(timeout=self._wait_s)
        if source != "archive":
            self._archive.put(page)
            self.fetched.append(page)
        if page.ok:
            self.fetched_urls.update((page.url, page.final_url))
        self._trace.emit(
            "fetch",
            source=source,
            url=url,
            final_url=page.final_url,
            status=page.status,
            determination=page.determination.value,
            reason=page.reason,
            render=page.render,
            elapsed_s=round(page.elapsed_s, 3),
            links=len(page.links),
        )
        return page

    def _not_recorded(self, url: str) -> Page:
        return Page(
            url=url,
            final_url=url,
            determination=Determination.REFUSED,
            reason=f"not in the recording {self._recording_dir} (replay answers only recorded pages)",
            render="replay",
        )
