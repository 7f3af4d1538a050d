"""Scripted queries from a batch file (`batch_file.py`): one run directory per query, and summary.csv — one row
per query as it ends, appended, never rewritten whole — and resumable: a second run skips the queries that have a
report and continues the ones that were cut short. The file is read entry by entry as the queries run, at most
`concurrency` at once, so a million-line file runs in the memory of a ten-line one.
"""

from __future__ import annotations

import asyncio
import csv
import functools
import json
import logging
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import TracebackType
from typing import Any, Literal, TextIO

from pydantic import BaseModel, ValidationError

from research_crawler.api import Backend, ResearchCrawler, require_model_endpoint
from research_crawler.cli.batch_file import BatchEntry, BatchFile
from research_crawler.config.overrides import apply_overrides
from research_crawler.config.settings import Settings
from research_crawler.errors import ConfigError, ResearchCrawlerError
from research_crawler.llm.rate_limit import shared_model_limiter
from research_crawler.report.models import Report
from research_crawler.scale.connect import connect_ray
from research_crawler.text.spreadsheet import spreadsheet_row
from research_crawler.web.shared_politeness import SharedPoliteness

__all__ = ["SUMMARY_FILE", "BatchRow", "BatchRunner", "BatchTally"]

logger = logging.getLogger(__name__)

SUMMARY_FILE = "summary.csv"
RowStatus = Literal["pending", "running", "done", "resumed", "skipped", "failed"]
_UNFINISHED_STOPS = {"interrupted"}
#: The failures a tally keeps to show (the others are in summary.csv).
_FAILURES_KEPT = 20
#: Distinct settings overrides kept built (entries mostly share theirs).
_SETTINGS_KEPT = 64


class BatchRow(BaseModel):
    """One line of summary.csv."""

    index: int
    query: str
    status: RowStatus = "pending"
    run_dir: str
    items: int | None = None
    stop_reason: str = ""
    pages_fetched: int | None = None
    model_calls: int | None = None
    tokens: int | None = None
    cost_usd: float | None = None
    wall_time_s: float | None = None
    simulated_model: bool | None = None
    error: str = ""

    def fill_from(self, report: Report) -> None:
        self.items = len(report.items)
        self.stop_reason = report.stop_reason
        self.pages_fetched = report.stats.pages_fetched
        self.model_calls = report.stats.model_calls
        self.tokens = report.stats.input_tokens + report.stats.output_tokens
        self.cost_usd = report.stats.cost_usd
        self.wall_time_s = report.stats.wall_time_s
        self.simulated_model = report.simulated_model


@dataclass
class BatchTally:
    """What a batch did: the queries in the file, how many ended in each status, the first failures (every row is
    in summary.csv)."""

    total: int
    statuses: Counter[str] = field(default_factory=Counter)
    failures: list[BatchRow] = field(default_factory=list)
    #: Queries whose run was stopped before its end (Ctrl-C): the next run of the batch resumes them.
    cut_short: int = 0

    def add(self, row: BatchRow) -> None:
        self.statuses[row.status] += 1
        self.cut_short += row.stop_reason in _UNFINISHED_STOPS
        if row.status == "failed" and len(self.failures) < _FAILURES_KEPT:
            self.failures.append(row)

    @property
    def failed(self) -> int:
        return self.statuses["failed"]

    @property
    def ended(self) -> int:
        return sum(self.statuses.values())

    @property
    def unfinished(self) -> int:
        """Queries not run, or cut short: what running the batch again continues."""
        return self.total - self.ended + self.cut_short


class _Summary:
    """summary.csv, written afresh by each run of the batch: its header, then one row per query as it ends."""

    def __init__(self, path: Path) -> None:
        self._handle: TextIO = path.open("w", encoding="utf-8", newline="")
        self._writer = csv.DictWriter(self._handle, fieldnames=list(BatchRow.model_fields))
        self._writer.writeheader()
        self._handle.flush()

    def append(self, row: BatchRow) -> None:
        cells = {key: "" if value is None else value for key, value in row.model_dump().items()}
        self._writer.writerow(spreadsheet_row(cells))
        self._handle.flush()

    def __enter__(self) -> _Summary:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        self._handle.close()


class BatchRunner:
    """Runs the entries of a batch under `out_dir`, at most `concurrency` at once.

    `on_row(row)` is called whenever a row changes status (from the event loop's thread).
    """

    def __init__(
        self,
        entries: BatchFile | Sequence[BatchEntry],
        *,
        settings: Settings,
        out_dir: Path,
        backend: Backend = "openai",
        concurrency: int = 1,
        on_row: Callable[[BatchRow], None] | None = None,
        retry_empty: bool = False,
        scale: Literal["local", "ray"] = "local",
        ray_address: str | None = None,
    ) -> None:
        """`retry_empty` runs again the queries whose finished run found no item (their old run directory is
        kept beside, renamed ``<name>.empty-N``). `scale` "ray" runs each query as a Ray task (on the cluster at
        `ray_address`, or a local Ray instance), politeness and model limits shared through one actor."""
        if concurrency < 1:
            raise ConfigError(f"concurrency must be at least 1, not {concurrency}")
        self.entries = entries
        self.out_dir = out_dir
        self.backend: Backend = backend
        self.concurrency = concurrency
        #: One pace per host for every query of the batch, whichever query sends the request.
        self.politeness = SharedPoliteness()
        #: The model endpoint's requests and tokens per minute, for all the batch's queries together.
        self.model_limiter = shared_model_limiter(settings)
        self.on_row = on_row
        self.retry_empty = retry_empty
        self._base_settings = settings
        self._settings_of = functools.lru_cache(maxsize=_SETTINGS_KEPT)(self._settings_of_overrides)
        # Every entry's settings are checked before the first query runs: a typo in entry 40 fails now.
        for number, entry in enumerate(entries, 1):
            self._entry_settings(number, entry)
        self._crawlers: set[ResearchCrawler] = set()
        self._stopping = False
        self._ray = connect_ray(settings, address=ray_address) if scale == "ray" else None
        self._ray_refs: set[Any] = set()

    def _entry_settings(self, number: int, entry: BatchEntry) -> Settings:
        try:
            return self._settings_of(json.dumps(entry.settings, sort_keys=True))
        except ResearchCrawlerError as exc:
            raise type(exc)(f"batch entry {number}: {exc}") from exc

    def _settings_of_overrides(self, overrides: str) -> Settings:
        settings = apply_overrides(self._base_settings, json.loads(overrides))
        if self.backend == "openai":
            require_model_endpoint(settings)
        return settings

    def run(self) -> BatchTally:
        """Run the batch (blocking)."""
        return asyncio.run(self.arun())

    async def arun(self) -> BatchTally:
        """Run every entry that has no finished report yet, `concurrency` at a time in the file's order; each ends
        with its row appended to summary.csv."""
        self.out_dir.mkdir(parents=True, exist_ok=True)
        tally = BatchTally(total=len(self.entries))
        numbered = enumerate(self.entries, 1)  # one reader of the file for every worker: each takes the next entry

        async def worker(summary: _Summary) -> None:
            for number, entry in numbered:
                if self._stopping:
                    return
                row = await self._run_entry(number, entry)
                summary.append(row)
                tally.add(row)

        with _Summary(self.out_dir / SUMMARY_FILE) as summary:
            workers = [asyncio.ensure_future(worker(summary)) for _ in range(self.concurrency)]
            try:
                await asyncio.gather(*workers)
            finally:  # one worker's error (the file changed under it) stops the others before the summary closes
                for task in workers:
                    task.cancel()
                await asyncio.gather(*workers, return_exceptions=True)
        return tally

    def cancel(self) -> None:
        """Start no new query and stop the running ones gracefully (thread-safe)."""
        self._stopping = True
        for crawler in list(self._crawlers):
            crawler.cancel()
        if self._ray is not None:
            for ref in list(self._ray_refs):
                self._ray.cancel(ref)

    async def _run_entry(self, number: int, entry: BatchEntry) -> BatchRow:
        run_dir = self.out_dir / entry.run_dir_name()
        row = BatchRow(index=number, query=entry.query, run_dir=str(run_dir))
        finished = _finished_report(run_dir)
        if finished is not None and not finished.items and self.retry_empty:
            _set_aside(run_dir)
            finished = None
        if finished is not None:
            row.status = "skipped"
            row.fill_from(finished)
            self._changed(row)
            return row
        resuming = (run_dir / "run.json").exists()
        row.status = "running"
        self._changed(row)
        settings = self._entry_settings(number, entry)
        if self._ray is not None:
            await self._run_on_ray(row, entry, settings, resuming=resuming)
            return row
        crawler = ResearchCrawler(
            settings, backend=self.backend, politeness=self.politeness, model_limiter=self.model_limiter
        )
        self._crawlers.add(crawler)
        try:
            if resuming:
                report = await crawler.aresume(run_dir)
            else:
                report = await crawler.arun(entry.query, sites=entry.sites, run_dir=run_dir)
        except ResearchCrawlerError as exc:
            row.status, row.error = "failed", str(exc)
            logger.warning("batch entry %d failed: %s", row.index, exc)
        else:
            row.status = "resumed" if resuming else "done"
            row.fill_from(report)
        finally:
            self._crawlers.discard(crawler)
        self._changed(row)
        return row

    async def _run_on_ray(self, row: BatchRow, entry: BatchEntry, settings: Settings, *, resuming: bool) -> None:
        """The entry as a Ray task: the same run as `ask` on a worker; a worker's death is retried by Ray."""
        assert self._ray is not None
        ref = self._ray.submit(settings, self.backend, entry.query, sites=entry.sites, run_dir=Path(row.run_dir))
        self._ray_refs.add(ref)
        try:
            report = self._ray.report_of(await ref)
        except Exception as exc:  # the query's own error, or its worker died more often than retried
            row.status, row.error = "failed", self._ray.failure(exc)
            logger.warning("batch entry %d failed: %s", row.index, row.error)
        else:
            row.status = "resumed" if resuming else "done"
            row.fill_from(report)
        finally:
            self._ray_refs.discard(ref)
        self._changed(row)

    def _changed(self, row: BatchRow) -> None:
        if self.on_row is not None:
            self.on_row(row)


def _set_aside(run_dir: Path) -> Path:
    """Rename a finished run that found nothing to ``<name>.empty-N`` (the first N free), so it runs again."""
    number = 1
    while (target := run_dir.with_name(f"{run_dir.name}.empty-{number}")).exists():
        number += 1
    run_dir.rename(target)
    return target


def _finished_report(run_dir: Path) -> Report | None:
    """The run's report when the run is finished; None when it must run or be resumed (no report, an
    unreadable one, or one cut short by Ctrl-C)."""
    path = run_dir / "report.json"
    if not path.exists():
        return None
    try:
        report = Report.model_validate_json(path.read_text(encoding="utf-8"))
    except (OSError, ValidationError):
        logger.warning("unreadable report %s: the run is resumed", path)
        return None
    return None if report.stop_reason in _UNFINISHED_STOPS else report
