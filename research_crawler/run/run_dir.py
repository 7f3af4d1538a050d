"""A run directory: what it is for (`run.json`), where its fetched pages live, and how a fresh one is named."""

from __future__ import annotations

import errno
import os
import re
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, Field, ValidationError

from research_crawler.context.durable_files import atomic_write_text
from research_crawler.errors import ConfigError, StateError

__all__ = ["PAGES_DIR", "RUN_FILE", "ModelBackend", "RunMeta", "new_run_dir", "unwritable", "usable_out_dir"]

ModelBackend = Literal["openai", "simulated"]
RUN_FILE = "run.json"
PAGES_DIR = "pages"
_START_AGAIN = 'start the request again in a new directory: research-crawler ask "REQUEST" --out NEW_DIR'


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
        """The run.json of `run_dir`; a StateError of one line saying what is wrong and what to do otherwise."""
        path = run_dir / RUN_FILE
        try:
            text = path.read_text(encoding="utf-8")
        except FileNotFoundError:
            held = "does not exist" if not run_dir.exists() else f"holds no {RUN_FILE}"
            raise StateError(
                f"{run_dir} is not a research-crawler run directory (it {held}): give the directory a run wrote "
                f"(ask and batch print it), e.g. research-crawler resume runs/<time>-<request>"
            ) from None
        except PermissionError:
            raise StateError(
                f"{path} cannot be read (permission denied): make the run directory yours to read and write, "
                f"chmod -R u+rw {run_dir}, then resume it again"
            ) from None
        except (OSError, UnicodeDecodeError) as exc:
            raise StateError(f"{path} cannot be read ({exc}): {_START_AGAIN}") from None
        try:
            return cls.model_validate_json(text)
        except ValidationError as exc:
            first = exc.errors()[0]
            where = ".".join(str(part) for part in first["loc"]) or "the whole file"
            detail = f"{where}: {first['msg']}"
            raise StateError(f"{path} is damaged or not research-crawler's ({detail}): {_START_AGAIN}") from None

    def write(self, run_dir: Path) -> None:
        atomic_write_text(run_dir / RUN_FILE, self.model_dump_json(indent=2))


def new_run_dir(runs_dir: Path, query: str) -> Path:
    """A fresh run directory under `runs_dir`, named by time and the query's first words."""
    slug = "-".join(re.findall(r"[a-z0-9]+", query.lower())[:6])[:48] or "query"
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%S")
    _make_dir(runs_dir, parents=True, exist_ok=True, what="the runs directory (runs_dir)")
    suffix = 1
    while True:
        run_dir = runs_dir / (f"{stamp}-{slug}" if suffix == 1 else f"{stamp}-{slug}-{suffix}")
        try:
            run_dir.mkdir()  # never exist_ok: two runs starting in the same second get two directories
        except FileExistsError:
            suffix += 1
            continue
        except OSError as exc:
            raise ConfigError(_cannot_create(run_dir, exc, "the run directory")) from None
        return run_dir


def usable_out_dir(out: Path) -> Path:
    """`out` (``--out``) made ready for a new run: a directory that does not exist yet, or an empty one. A file, a
    directory holding anything (a run, or the user's own files) or one that cannot be created is a ConfigError
    saying what to do; nothing is written there."""
    if (out / RUN_FILE).is_file():
        raise ConfigError(
            f"{out} already holds a run: continue it with `research-crawler resume {out}` or choose another --out"
        )
    if out.exists() and not out.is_dir():
        raise ConfigError(f"--out {out} is a file, not a directory: choose a new directory, e.g. --out {out}.run")
    if out.is_dir():
        try:
            holds_something = any(out.iterdir())
        except OSError as exc:
            raise ConfigError(_cannot_create(out, exc, "--out")) from None
        if holds_something:
            raise ConfigError(
                f"--out {out} is a directory that already holds files (a run is only written into a new or empty "
                f"directory): choose a new one, e.g. --out {out / 'run'}"
            )
    _make_dir(out, parents=True, exist_ok=True, what="--out")
    if not os.access(out, os.W_OK | os.X_OK):
        raise ConfigError(f"--out {out}: permission denied (cannot write there): choose a directory you can write to")
    return out


def _make_dir(path: Path, *, parents: bool, exist_ok: bool, what: str) -> None:
    try:
        path.mkdir(parents=parents, exist_ok=exist_ok)
    except OSError as exc:
        raise ConfigError(_cannot_create(path, exc, what)) from None


def _cannot_create(path: Path, exc: OSError, what: str) -> str:
    reason = exc.strerror or type(exc).__name__
    if isinstance(exc, FileExistsError | NotADirectoryError):
        fix = "a file stands in the way: choose another path"
    elif isinstance(exc, PermissionError):
        fix = "choose a directory you can write to"
    else:
        fix = "choose another path"
    setting = " (e.g. --set runs_dir=PATH)" if what.startswith("the runs directory") else ""
    return f"cannot create {what} {path}: {reason.lower()}; {fix}{setting}"


def unwritable(exc: OSError) -> str:
    """Why a run's files could not be written, and what frees the way: "no space left on device: free some space"."""
    reason = (exc.strerror or str(exc) or type(exc).__name__).lower()
    if exc.errno in (errno.ENOSPC, errno.EDQUOT):
        return f"{reason}: free some space"
    if exc.errno in (errno.EACCES, errno.EPERM, errno.EROFS):
        return f"{reason}: make the run directory writable"
    return f"{reason}: fix that"
