"""Scripted queries from a YAML or JSONL file: one run directory per query, a summary.csv, and resumable —
a second run skips the queries that have a report and continues the ones that were cut short.

A file entry is a query string or a table: ``{query, sites?, settings?, name?}``, where ``settings`` holds
overrides by dotted or nested name (``{"explore": {"max_subpages": 3}}``) and ``name`` the run directory's.
"""

from __future__ import annotations

import asyncio
import csv
import hashlib
import io
import json
import logging
import re
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from research_crawler.api import Backend, ResearchCrawler, require_model_endpoint
from research_crawler.config.overrides import apply_overrides
from research_crawler.config.settings import Settings
from research_crawler.config.user_files import load_yaml, read_user_file
from research_crawler.context.atomic_files import atomic_write_text
from research_crawler.errors import ConfigError, ResearchCrawlerError
from research_crawler.llm.rate_limit import shared_model_limiter
from research_crawler.report.models import Report
from research_crawler.scale.connect import connect_ray
from research_crawler.web.shared_politeness import SharedPoliteness

if TYPE_CHECKING:
    pass

__all__ = ["SUMMARY_FILE", "BatchEntry", "BatchRow", "BatchRunner", "load_batch"]

logger = logging.getLogger(__name__)

SUMMARY_FILE = "summary.csv"
RowStatus = Literal["pending", "running", "done", "resumed", "skipped", "failed"]
_UNFINISHED_STOPS = {"interrupted"}


class BatchEntry(BaseModel):
    """One query of a batch file."""

    model_config = ConfigDict(extra="forbid")

    query: str = Field(min_length=1)
    sites: list[str] = Field(default_factory=list)
    settings: dict[str, Any] = Field(default_factory=dict)
    name: str | None = Field(default=None, pattern=r"^[A-Za-z0-9][A-Za-z0-9._-]{0,79}$")

    def run_dir_name(self) -> str:
        """The entry's run directory: its name, or the query's first words and a digest of the whole entry
        (so an edited entry gets a fresh directory and reordering the file changes nothing)."""
        if self.name:
            return self.name
        slug = "-".join(re.findall(r"[a-z0-9]+", self.query.lower())[:6])[:48] or "query"
        digest = hashlib.sha256(self.model_dump_json(exclude={"name"}).encode()).hexdigest()[:8]
        return f"{slug}-{digest}"


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


def load_batch(path: Path) -> list[BatchEntry]:
    """The entries of a ``.yaml``/``.yml`` or ``.jsonl`` batch file. ConfigError names the bad entry."""
    text = read_user_file(path, what="the batch file")
    suffix = path.suffix.lower()
    if suffix in (".yaml", ".yml"):
        raw = _yaml_entries(text, path)
    elif suffix == ".jsonl":
        raw = _jsonl_entries(text, path)
    else:
        raise ConfigError(f"the batch file {path} must be .yaml, .yml or .jsonl")
    entries = []
    for where, value in raw:
        try:
            entries.append(BatchEntry(query=value) if isinstance(value, str) else BatchEntry.model_validate(value))
        except ValidationError as exc:
            problems = "; ".join(f"{'.'.join(map(str, e['loc'])) or 'entry'}: {e['msg']}" for e in exc.errors())
            raise ConfigError(f"{path}, {where}: {problems}") from exc
    if not entries:
        raise ConfigError(f"the batch file {path} holds no queries")
    seen: dict[str, int] = {}
    for number, entry in enumerate(entries, 1):
        name = entry.run_dir_name()
        if name in seen:
            raise ConfigError(f"{path}: entry {number} repeats entry {seen[name]} (same run directory {name!r})")
        seen[name] = number
    return entries


def _yaml_entries(text: str, path: Path) -> list[tuple[str, Any]]:
    data = load_yaml(text, path=path, what="the batch file")
    if isinstance(data, dict) and set(data) == {"queries"}:
        data = data["queries"]
    if not isinstance(data, list):
        raise ConfigError(f"the batch file {path} must be a list of queries (or a table with a 'queries' list)")
    return [(f"entry {number}", value) for number, value in enumerate(data, 1)]


def _jsonl_entries(text: str, path: Path) -> list[tuple[str, Any]]:
    entries = []
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        try:
            entries.append((f"line {number}", json.loads(line)))
        except json.JSONDecodeError as exc:
            raise ConfigError(f"{path}, line {number}: not valid JSON ({exc.msg})") from exc
        except RecursionError:
            raise ConfigError(f"{path}, line {number}: nested too deeply to be read") from None
    return entries


class BatchRunner:
    """Runs the entries of a batch under `out_dir`, at most `concurrency` at once; `rows` is the summary.

    `on_row(row)` is called whenever a row changes status (from the event loop's thread).
    """

    def __init__(
        self,
        entries: Sequence[BatchEntry],
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
        self.entries = list(entries)
        self.out_dir = out_dir
        self.backend: Backend = backend
        self.concurrency = concurrency
        #: One pace per host for every query of the batch, whichever query sends the request.
        self.politeness = SharedPoliteness()
        #: The model endpoint's requests and tokens per minute, for all the batch's queries together.
        self.model_limiter = shared_model_limiter(settings)
        self.on_row = on_row
        self.retry_empty = retry_empty
        # Every entry's settings are checked before the first query runs: a typo in entry 40 fails now.
        self.settings = [self._entry_settings(settings, number, entry) for number, entry in enumerate(entries, 1)]
        self.rows = [
            BatchRow(index=number, query=entry.query, run_dir=str(out_dir / entry.run_dir_name()))
            for number, entry in enumerate(self.entries, 1)
        ]
        self._crawlers: set[ResearchCrawler] = set()
        self._stopping = False
        self._ray = connect_ray(settings, address=ray_address) if scale == "ray" else None
        self._ray_refs: set[Any] = set()

    def _entry_settings(self, base: Settings, number: int, entry: BatchEntry) -> Settings:
        try:
            settings = apply_overrides(base, entry.settings)
            if self.backend == "openai":
                require_model_endpoint(settings)
        except ResearchCrawlerError as exc:
            raise type(exc)(f"batch entry {number}: {exc}") from exc
        return settings

    def run(self) -> list[BatchRow]:
        """Run the batch (blocking)."""
        return asyncio.run(self.arun())

    async def arun(self) -> list[BatchRow]:
        """Run every entry that has no finished report yet; write summary.csv after each one."""
        self.out_dir.mkdir(parents=True, exist_ok=True)
        self._write_summary()
        gate = asyncio.Semaphore(self.concurrency)

        async def one(position: int) -> None:
            async with gate:
                if not self._stopping:
                    await self._run_entry(position)

        await asyncio.gather(*(one(position) for position in range(len(self.entries))))
        self._write_summary()
        return self.rows

    def cancel(self) -> None:
        """Start no new query and stop the running ones gracefully (thread-safe)."""
        self._stopping = True
        for crawler in list(self._crawlers):
            crawler.cancel()
        if self._ray is not None:
            for ref in list(self._ray_refs):
                self._ray.cancel(ref)

    async def _run_entry(self, position: int) -> None:
        entry, row = self.entries[position], self.rows[position]
        run_dir = Path(row.run_dir)
        finished = _finished_report(run_dir)
        if finished is not None and not finished.items and self.retry_empty:
            _set_aside(run_dir)
            finished = None
        if finished is not None:
            row.status = "skipped"
            row.fill_from(finished)
            self._changed(row)
            return
        resuming = (run_dir / "run.json").exists()
        row.status = "running"
        self._changed(row)
        if self._ray is not None:
            await self._run_on_ray(position, resuming=resuming)
            return
        crawler = ResearchCrawler(
            self.settings[position], backend=self.backend, politeness=self.politeness, model_limiter=self.model_limiter
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

    async def _run_on_ray(self, position: int, *, resuming: bool) -> None:
        """The entry as a Ray task: the same run as `ask` on a worker; a worker's death is retried by Ray."""
        assert self._ray is not None
        entry, row = self.entries[position], self.rows[position]
        ref = self._ray.submit(
            self.settings[position], self.backend, entry.query, sites=entry.sites, run_dir=Path(row.run_dir)
        )
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
        if row.status != "running":
            self._write_summary()
        if self.on_row is not None:
            self.on_row(row)

    def _write_summary(self) -> None:
        buffer = io.StringIO()
        writer = csv.DictWriter(buffer, fieldnames=list(BatchRow.model_fields))
        writer.writeheader()
        for row in self.rows:
            writer.writerow({key: "" if value is None else value for key, value in row.model_dump().items()})
        atomic_write_text(self.out_dir / SUMMARY_FILE, buffer.getvalue())


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
