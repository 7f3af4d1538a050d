"""Where the agents' pages come from: the run's own archive first (no page fetched twice across resume and
follow-ups), then a recording (`--replay`), then the web through the async fetcher, bridged from the chat's thread
— where a page the agents are likely to read next may already have been fetched ahead (`fetch.fetch_ahead`).
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Coroutine
from concurrent.futures import Future
from pathlib import Path
from typing import Any

from research_crawler.config.fetch_settings import RenderMode
from research_crawler.context.search_context import SiteRef
from research_crawler.pages.html_forms import FormSubmission
from research_crawler.pages.page import Determination, Page
from research_crawler.run.trace import Trace
from research_crawler.web.fetch_ahead import AheadOutcome, FetchAhead
from research_crawler.web.fetcher import Fetcher
from research_crawler.web.page_store import PageArchive

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
        fetch_ahead: int = 0,
    ) -> None:
        """`fetch_ahead`: pages fetched ahead at most (0: none)."""
        self._fetcher = fetcher
        self._loop = loop
        self._archive = archive
        self._recording = recording
        self._recording_dir = recording_dir
        self._trace = trace
        self._wait_s = deadline_s * 2 + 30
        self.fetched: list[Page] = []
        self.fetched_urls: set[str] = set()
        # Guesses fetched ahead and archived: downloaded in this run, so counted when first read (once: a guess
        # taken at once is counted then, and its archiving may finish after it is taken).
        self._guesses: set[str] = set()
        self._counted: set[str] = set()
        self._guesses_lock = threading.Lock()
        self._ahead = (
            FetchAhead(
                self._fetch_and_keep, limit=fetch_ahead, abandon=fetcher.abandon, requested=fetcher.requested
            )
            if fetch_ahead > 0 and recording is None
            else None
        )

    def fetch_ahead(self, url: str, site: SiteRef) -> None:
        """Start fetching `url` in the background, as the agents will likely read it next (returns at once).

        The page is archived once fetched (a resumed run or a follow-up that reads it asks nobody again), but it
        is read, counted and traced as fetched only when the Scraper takes it; a page of the archive needs no
        request."""
        if self._ahead is None or self._archive.get(url) is not None:
            return
        future = asyncio.run_coroutine_threadsafe(
            self._ahead.start(url, render=site.render, site_url=site.url), self._loop
        )
        future.add_done_callback(lambda done: self._note_start(url, done))

    def sitemaps(self, url: str) -> list[str]:
        """The sitemaps the robots.txt of `url`'s site names (blocking; robots.txt is fetched once per site)."""
        if self._recording is not None:
            return []  # a replay asks nobody
        return asyncio.run_coroutine_threadsafe(self._fetcher.sitemaps(url), self._loop).result(timeout=self._wait_s)

    def robots_refusal(self, url: str) -> str | None:
        """Why robots.txt forbids `url` (blocking; robots.txt is fetched once per site), or None when it may be read."""
        if self._recording is not None:
            return None  # a replay asks nobody
        future = asyncio.run_coroutine_threadsafe(self._fetcher.robots_refusal(url), self._loop)
        return future.result(timeout=self._wait_s)

    def _note_start(self, url: str, done: object) -> None:
        if isinstance(done, Future) and not done.cancelled() and done.exception() is None and done.result():
            self._trace.emit("fetch_ahead", action="start", url=url)

    async def _fetch_and_keep(self, url: str, render: RenderMode | None, site_url: str | None) -> Page:
        page = await self._fetcher.fetch(url, render=render, site_url=site_url)
        await asyncio.to_thread(self._archive.put, page)
        with self._guesses_lock:
            self._guesses.add(url)
        return page

    async def close(self) -> None:
        """Give up the fetches ahead still under way (on the fetcher's loop, before the fetcher closes)."""
        if self._ahead is not None:
            self._trace_outcomes(await self._ahead.close())

    def _trace_outcomes(self, outcomes: list[AheadOutcome]) -> None:
        for url, outcome in outcomes:
            self._trace.emit("fetch_ahead", action=outcome, url=url)

    def __call__(self, url: str, site: SiteRef, /, *, form: FormSubmission | None = None) -> Page:
        archived = self._archive.get(url)
        # One crossing to the fetcher's loop at most: a guess fetched ahead is taken (the site's other guesses given
        # up) and the page fetched, or joined, in one go; a page of the archive or the recording needs none.
        ahead, page = False, None
        if self._ahead is not None or (archived is None and self._recording is None):
            reading = self._read_on_loop(url, site, form=form, fetch=archived is None and self._recording is None)
            ahead, page = asyncio.run_coroutine_threadsafe(reading, self._loop).result(timeout=self._wait_s)
        source = "web"  # fetched ahead (and archived by then, or soon): from the web all the same
        if page is None:
            page, source = archived, "archive"
        with self._guesses_lock:
            if source == "archive" and page is not None and url in self._guesses and url not in self._counted:
                # A guess given up earlier and read now (a later choice, the citation guard) was downloaded in
                # this run all the same: counted as fetched, as it is when the Scraper takes it at once.
                source = "web"
            if page is None or source != "archive":
                self._counted.add(url)
        if page is None:  # neither fetched nor archived: a replay, which answers from its recording alone
            source = "replay"
            page = self._recording.get(url) if self._recording is not None else None
            page = page or self._not_recorded(url)
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
            **({"ahead": True} if ahead else {}),
            **({"revisited": True} if page.revisited else {}),
        )
        return page

    async def _read_on_loop(
        self, url: str, site: SiteRef, *, form: FormSubmission | None, fetch: bool
    ) -> tuple[bool, Page | None]:
        """Whether `url` was fetched ahead (its fetch is then joined, not repeated; the site's other guesses are
        given up), and the page from the web when it was, or when `fetch` says the web is where it must come from."""
        ahead = False
        if self._ahead is not None:
            ahead, outcomes = await self._ahead.take(url, site_url=site.url)
            self._trace_outcomes(outcomes)
            if ahead:
                self._trace.emit("fetch_ahead", action="taken", url=url)
        return ahead, (await self._fetch(url, site, form=form) if ahead or fetch else None)

    def _fetch(self, url: str, site: SiteRef, *, form: FormSubmission | None) -> Coroutine[Any, Any, Page]:
        if form is not None:
            return self._fetcher.submit(form, site_url=site.url)
        return self._fetcher.fetch(url, render=site.render, site_url=site.url)

    def _not_recorded(self, url: str) -> Page:
        return Page(
            url=url,
            final_url=url,
            determination=Determination.REFUSED,
            reason=f"not in the recording {self._recording_dir} (replay answers only recorded pages)",
            render="replay",
        )
