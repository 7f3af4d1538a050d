"""A run directory: what it is for (`run.json`), where its fetched pages live, and how a fresh one is named."""

from __future__ import annotations

import re
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, Field

from research_crawler.context.atomic_files import atomic_write_text
from research_crawler.errors import StateError

__all__ = ["PAGES_DIR", "RUN_FILE", "ModelBackend", "RunMeta", "new_run_dir"]

ModelBackend = Literal["openai", "simulated"]
RUN_FILE = "run.json"
PAGES_DIR = "pages"


class RunMeta(BaseModel):
    """run.json: what a run directory is for, so it can be resumed or followed up."""

    query: str
    sites: list[str] = Field(default_factory=list)
    backend: ModelBackend = "openai"
    queries: list[str] = Field(default_factory=list, description="Every query asked in this run directory.")
    subpage_offsets: dict[str, int] = Field(
        default_factory=dict, description="Pages each site had visited when the current query began."
    )
    settings: dict[str, Any] | None = Field(
        default=None,
        description="The settings in force (secrets masked: config/recorded.py), restored by resume; None in "
        "run directories written before they were recorded.",
    )

    @classmethod
    def read(cls, run_dir: Path) -> RunMeta:
        try:
            return cls.model_validate_json((run_dir / RUN_FILE).read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            raise StateError(f"{run_dir} is not a research-crawler run directory ({exc})") from exc

    def write(self, run_dir: Path) -> None:
        atomic_write_text(run_dir / RUN_FILE, self.model_dump_json(indent=2))


def new_run_dir(runs_dir: Path, query: str) -> Path:
    """A fresh run directory under `runs_dir`, named by time and the query's first words."""
    slug = "-".join(re.findall(r"[a-z0-9]+", query.lower())[:6])[:48] or "query"
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%S")
    run_dir = runs_dir / f"{stamp}-{slug}"
    suffix = 1
    while run_dir.exists():
        suffix += 1
        run_dir = runs_dir / f"{stamp}-{slug}-{suffix}"
    run_dir.mkdir(parents=True)
    return run_dir
