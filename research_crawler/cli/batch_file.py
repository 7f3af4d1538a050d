"""A batch file of queries — YAML or JSONL — checked whole before the first query runs, then read again entry by
entry as the queries run: a JSONL file is streamed line by line (a million lines cost what ten do), a YAML file is
read whole within the 8 MiB limit of the files a user hands us.

A file entry is a query string or a table: ``{query, sites?, settings?, name?}``, where ``settings`` holds
overrides by dotted or nested name (``{"explore": {"max_subpages": 3}}``) and ``name`` the run directory's. A query
is a request as `ask` takes it: words, at most 2 000 characters.
"""

from __future__ import annotations

import hashlib
import re
import shlex
import sqlite3
import tempfile
from collections.abc import Iterator
from contextlib import closing
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from research_crawler.config.user_files import load_json, load_yaml, read_user_file, user_file_lines
from research_crawler.config.user_only import user_only_names
from research_crawler.context.request import checked_query
from research_crawler.errors import ConfigError

__all__ = ["BatchEntry", "BatchFile", "load_batch"]

_WHAT = "the batch file"


class BatchEntry(BaseModel):
    """One query of a batch file."""

    model_config = ConfigDict(extra="forbid")

    query: str = Field(min_length=1)
    sites: list[str] = Field(default_factory=list)
    settings: dict[str, Any] = Field(default_factory=dict)
    name: str | None = Field(default=None, pattern=r"^[A-Za-z0-9][A-Za-z0-9._-]{0,79}$")

    @field_validator("query")
    @classmethod
    def _a_request(cls, value: str) -> str:
        try:
            return checked_query(value, example='{"query": "papers on graph neural networks"}')
        except ConfigError as exc:
            raise ValueError(str(exc)) from None

    @field_validator("settings")
    @classmethod
    def _no_user_only_settings(cls, value: dict[str, Any]) -> dict[str, Any]:
        refused = user_only_names(value)
        if refused:
            first = refused[0].split(" ", 1)[0]
            raise ValueError(
                f"a batch file is data and may not set {', '.join(refused)}: choose it yourself for the whole batch, "
                f"e.g. research-crawler --set {first}=… batch FILE, or in the environment"
            )
        return value

    def run_dir_name(self) -> str:
        """The entry's run directory: its name, or the query's first words and a digest of the whole entry
        (so an edited entry gets a fresh directory and reordering the file changes nothing)."""
        if self.name:
            return self.name
        slug = "-".join(re.findall(r"[a-z0-9]+", self.query.lower())[:6])[:48] or "query"
        digest = hashlib.sha256(self.model_dump_json(exclude={"name"}).encode()).hexdigest()[:8]
        return f"{slug}-{digest}"


class BatchFile:
    """A checked batch file: `len()` entries, read again from the file each time it is iterated (numbered from
    1 with `numbered()`), so the entries are never all in memory."""

    def __init__(self, path: Path, *, count: int, yaml_values: list[Any] | None = None) -> None:
        self.path = path
        self.count = count
        self._yaml_values = yaml_values

    def __len__(self) -> int:
        return self.count

    def __iter__(self) -> Iterator[BatchEntry]:
        return (entry for _, entry in self.numbered())

    def numbered(self) -> Iterator[tuple[int, BatchEntry]]:
        """(number, entry) in the file's order; ConfigError naming the entry where one does not fit."""
        raw = (
            _yaml_entries(self._yaml_values) if self._yaml_values is not None else _jsonl_entries(self.path)
        )
        for number, (where, value) in enumerate(raw, 1):
            try:
                entry = BatchEntry(query=value) if isinstance(value, str) else BatchEntry.model_validate(value)
            except ValidationError as exc:
                problems = "; ".join(f"{'.'.join(map(str, e['loc'])) or 'entry'}: {e['msg']}" for e in exc.errors())
                raise ConfigError(f"{self.path}, {where}: {problems}") from None
            yield number, entry


def load_batch(path: Path) -> BatchFile:
    """The ``.yaml``/``.yml`` or ``.jsonl`` batch file at `path`, every entry checked (and no two sharing a run
    directory) in one pass that keeps none of them. ConfigError names the bad entry."""
    suffix = path.suffix.lower()
    if not path.exists():  # before its name is judged: "must be .jsonl" said of a mistyped path misleads
        raise ConfigError(f"the batch file {path} does not exist: check its path (ls {shlex.quote(str(path.parent))})")
    if suffix in (".yaml", ".yml"):
        batch = BatchFile(path, count=0, yaml_values=_yaml_values(path))
    elif suffix == ".jsonl":
        batch = BatchFile(path, count=0)
    else:
        raise ConfigError(
            f"the batch file {path} must be .yaml, .yml or .jsonl: name it after what it holds, e.g. "
            f"mv {shlex.quote(str(path))} {shlex.quote(str(path.with_suffix('.jsonl')))} (one JSON object a line)"
        )
    with tempfile.TemporaryDirectory(prefix="batch-names-") as scratch, closing(
        sqlite3.connect(Path(scratch) / "names.sqlite3")
    ) as names:
        # The run directories seen so far, on disk: a file of a million entries is checked in constant memory.
        names.executescript("PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF;")
        names.execute("CREATE TABLE names (name TEXT PRIMARY KEY, entry INTEGER NOT NULL) WITHOUT ROWID")
        for number, entry in batch.numbered():
            name = entry.run_dir_name()
            try:
                names.execute("INSERT INTO names VALUES (?, ?)", (name, number))
            except sqlite3.IntegrityError:
                (first,) = names.execute("SELECT entry FROM names WHERE name = ?", (name,)).fetchone()
                raise ConfigError(
                    f"{path}: entry {number} repeats entry {first} (same run directory {name!r})"
                ) from None
            batch.count = number
    if not batch.count:
        raise ConfigError(f"the batch file {path} holds no queries")
    return batch


def _yaml_values(path: Path) -> list[Any]:
    data = load_yaml(read_user_file(path, what=_WHAT), path=path, what=_WHAT)
    if isinstance(data, dict) and set(data) == {"queries"}:
        data = data["queries"]
    if not isinstance(data, list):
        raise ConfigError(f"the batch file {path} must be a list of queries (or a table with a 'queries' list)")
    return data


def _yaml_entries(values: list[Any]) -> Iterator[tuple[str, Any]]:
    return ((f"entry {number}", value) for number, value in enumerate(values, 1))


def _jsonl_entries(path: Path) -> Iterator[tuple[str, Any]]:
    for number, line in user_file_lines(path, what=_WHAT):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        yield f"line {number}", load_json(line, where=f"{path}, line {number}")
