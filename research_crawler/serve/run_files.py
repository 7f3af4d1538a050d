"""The run directories the web app may show: found by id (a direct child of runs_dir, nothing else), their
downloadable files (a fixed list, never a path from the request), and what each past run says about itself.

Nothing outside a run directory is ever served: an id or a file name that is not a plain name is refused, and a
file whose real path (links followed) leaves its run directory is refused too.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from research_crawler.errors import StateError
from research_crawler.report.models import Report
from research_crawler.run.run_dir import RUN_FILE, RunMeta
from research_crawler.text.untrusted import untrusted

__all__ = [
    "DOWNLOADS",
    "RunNotFound",
    "RunSummary",
    "disk_status",
    "downloadable_file",
    "list_runs",
    "read_report",
    "read_report_json",
    "run_directory",
    "summarize",
]

#: The files of a run directory the web app serves, with their media types.
DOWNLOADS: dict[str, str] = {
    "report.md": "text/markdown; charset=utf-8",
    "report.json": "application/json",
    "items.bib": "application/x-bibtex; charset=utf-8",
    "graph.json": "application/json",
    "graph.graphml": "application/xml",
    "trace.jsonl": "application/jsonl",
}
_RUN_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,199}$")


class RunNotFound(LookupError):
    """No run directory (or no such file of one) answers to the name asked for."""


def run_directory(runs_dir: Path, run_id: str) -> Path:
    """The run directory `run_id` names: a direct child of `runs_dir` holding run.json. Anything else — a path,
    '..', a link leading elsewhere, a directory that is not a run — raises RunNotFound."""
    if not _RUN_ID.match(run_id) or run_id.strip(".") == "":
        raise RunNotFound(f"no run {run_id[:80]!r}")
    root = runs_dir.resolve()
    candidate = (root / run_id).resolve()
    if candidate.parent != root or not (candidate / RUN_FILE).is_file():
        raise RunNotFound(f"no run {run_id!r}")
    return candidate


def downloadable_file(run_dir: Path, name: str) -> Path:
    """The file `name` of `run_dir`, when it is one the web app serves, exists, and really lies in `run_dir`."""
    if name not in DOWNLOADS:
        raise RunNotFound(f"{name[:80]!r} is not a file the web app serves (it serves {', '.join(DOWNLOADS)})")
    path = (run_dir / name).resolve()
    if path.parent != run_dir.resolve() or not path.is_file():
        raise RunNotFound(f"this run has no {name}")
    return path


def read_report(run_dir: Path) -> Report | None:
    """The run's report.json, or None when it has none (yet) or it cannot be read."""
    path = run_dir / "report.json"
    try:
        return Report.model_validate_json(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None


def read_report_json(run_dir: Path) -> dict[str, Any] | None:
    """report.json as JSON data (what the API hands out), or None."""
    try:
        data = json.loads((run_dir / "report.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None


def disk_status(meta: RunMeta, report: Report | None) -> str:
    """What a run directory no worker is running says: done, cancelled (stopped by the user), failed (the
    search stopped on an error; the report holds what was collected) or unfinished (no report for its latest
    query: the run was killed, and can be resumed)."""
    if report is None or untrusted(report.query) != untrusted(meta.query):
        return "unfinished"
    if report.stop_reason == "interrupted":
        return "cancelled"
    if report.stop_reason == "error":
        return "failed"
    return "done"


@dataclass(frozen=True)
class RunSummary:
    """One past run, as the list of runs shows it."""

    id: str
    query: str
    queries: list[str]
    sites: list[str]
    status: str
    items: int | None
    created: str
    simulated: bool

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "query": self.query,
            "queries": self.queries,
            "sites": self.sites,
            "status": self.status,
            "items": self.items,
            "created": self.created,
            "simulated": self.simulated,
        }


def summarize(run_dir: Path, *, live_status: str | None = None) -> RunSummary | None:
    """The summary of `run_dir`, or None when it is not a readable run directory."""
    try:
        meta = RunMeta.read(run_dir)
    except StateError:  # a half-written or foreign directory is left out of the list, not an error
        return None
    report = read_report(run_dir)
    queries = [untrusted(query) for query in (meta.queries or [meta.query])]
    return RunSummary(
        id=run_dir.name,
        query=queries[0] if queries else untrusted(meta.query),
        queries=queries,
        sites=list(meta.sites),
        status=live_status or disk_status(meta, report),
        items=len(report.items) if report is not None else None,
        created=run_dir.name[:15] if re.match(r"^\d{8}T\d{6}", run_dir.name) else "",
        simulated=meta.backend == "simulated",
    )


def list_runs(runs_dir: Path, *, limit: int, live: dict[str, str]) -> list[RunSummary]:
    """The run directories of `runs_dir`, newest first (by name: they start with their UTC start time), at most
    `limit`; `live` gives the status of the runs this server is running."""
    try:
        children = [path for path in runs_dir.iterdir() if path.is_dir() and (path / RUN_FILE).is_file()]
    except OSError:
        return []
    children.sort(key=lambda path: path.name, reverse=True)
    found = []
    for path in children[:limit]:
        summary = summarize(path, live_status=live.get(path.name))
        if summary is not None:
            found.append(summary)
    return found
