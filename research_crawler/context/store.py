"""Persistence of a run directory: the whole state in one atomically replaced ``state.json``.

A run that is killed at any instant leaves either the previous state or the new one on disk, never a
torn file, so it resumes with nothing lost and no page fetched twice.
"""

from __future__ import annotations

import json
import logging
import threading
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from research_crawler.context.durable_files import atomic_write_text
from research_crawler.context.graph import NavigationGraph
from research_crawler.context.search_context import SearchContext
from research_crawler.context.web_context import WebContext
from research_crawler.errors import CorruptStateError, StateError

__all__ = [
    "STATE_FILE",
    "STATE_FORMAT",
    "STATE_VERSION",
    "RunState",
    "RunStore",
]

logger = logging.getLogger(__name__)

STATE_FILE = "state.json"
STATE_FORMAT = "research-crawler/run-state"
STATE_VERSION = 1


@dataclass
class RunState:
    """What a run needs to resume: the Search Context, one Web Context per site, the navigation graph, and the pages
    each site earned in the current query (`tools/site_budget.py` reads and checks them; empty in older states)."""

    search: SearchContext
    web_contexts: dict[str, WebContext] = field(default_factory=dict)
    graph: NavigationGraph = field(default_factory=NavigationGraph)
    budget: dict[str, Any] = field(default_factory=dict)
    saved_at: datetime | None = field(default=None, compare=False)


class _StateFile(BaseModel):
    model_config = ConfigDict(extra="forbid")

    format: str
    version: int
    saved_at: datetime
    search: SearchContext
    web_contexts: dict[str, WebContext]
    graph: dict[str, Any]
    budget: dict[str, Any] = Field(default_factory=dict)


class RunStore:
    """Saves and loads the state of one run directory (``state.json`` plus the graph exports).

    ``state.json`` holds everything, graph included, so one atomic rename makes one consistent snapshot;
    ``graph.json`` and ``graph.graphml`` are exports for people and tools, written after it.
    """

    def __init__(self, run_dir: Path) -> None:
        self._run_dir = Path(run_dir)
        self._lock = threading.Lock()

    @property
    def run_dir(self) -> Path:
        """The run directory."""
        return self._run_dir

    @property
    def state_path(self) -> Path:
        """The state file."""
        return self._run_dir / STATE_FILE

    def exists(self) -> bool:
        """True when the run directory holds a saved state."""
        return self.state_path.is_file()

    def save(
        self,
        *,
        search: SearchContext,
        web_contexts: Mapping[str, WebContext],
        graph: NavigationGraph | None = None,
        budget: Mapping[str, Any] | None = None,
    ) -> None:
        """Write the state atomically; without a `graph`, an empty one is saved and no graph file written. `budget` is
        the sites' earned pages as JSON (`SiteBudget.saved`)."""
        saved_graph = graph if graph is not None else NavigationGraph()
        document = {
            "format": STATE_FORMAT,
            "version": STATE_VERSION,
            "saved_at": datetime.now(UTC).isoformat(),
            "search": search.model_dump(mode="json"),
            "web_contexts": {key: context.model_dump(mode="json") for key, context in web_contexts.items()},
            "graph": saved_graph.to_json(),
            "budget": dict(budget or {}),
        }
        # No trailing newline: then every proper prefix of the file is invalid JSON, so a torn copy
        # (from a tool that is not atomic) can never load as a smaller state.
        text = json.dumps(document, ensure_ascii=False, indent=1, allow_nan=False)
        with self._lock:
            atomic_write_text(self.state_path, text)
            if graph is not None:
                graph.write(self._run_dir)
        logger.debug("state saved to %s (%d bytes)", self.state_path, len(text))

    def load(self) -> RunState:
        """The state exactly as last saved.

        Raises `StateError` when the directory holds no saved state and `CorruptStateError` when the
        state file is truncated, invalid, or from another format version.
        """
        path = self.state_path
        try:
            raw = path.read_bytes()
        except FileNotFoundError:
            raise StateError(f"no saved state in {self._run_dir}") from None
        except OSError as exc:
            raise CorruptStateError(f"cannot read {path}: {exc}") from exc
        try:
            document = json.loads(raw.decode("utf-8"))
        except UnicodeDecodeError as exc:
            raise CorruptStateError(f"{path} is not UTF-8 text: {exc}") from exc
        except RecursionError as exc:
            raise CorruptStateError(f"{path} is nested too deeply to be a state file") from exc
        except json.JSONDecodeError as exc:
            raise CorruptStateError(
                f"{path} is not valid JSON (truncated or damaged?): {exc.msg} at line {exc.lineno} column {exc.colno}"
            ) from exc
        if not isinstance(document, dict) or document.get("format") != STATE_FORMAT:
            raise CorruptStateError(f"{path} is not a research-crawler state file")
        if document.get("version") != STATE_VERSION:
            raise CorruptStateError(
                f"{path} has state format version {document.get('version')!r}; this version reads {STATE_VERSION}"
            )
        try:
            state = _StateFile.model_validate(document)
        except ValidationError as exc:
            raise CorruptStateError(f"{path} holds invalid state: {_summary(exc)}") from exc
        try:
            graph = NavigationGraph.from_json(state.graph)
        except CorruptStateError as exc:
            raise CorruptStateError(f"{path}: {exc}") from exc
        return RunState(
            search=state.search,
            web_contexts=state.web_contexts,
            graph=graph,
            budget=state.budget,
            saved_at=state.saved_at,
        )


def _summary(exc: ValidationError) -> str:
    errors = exc.errors()
    first = errors[0]
    where = ".".join(str(part) for part in first["loc"]) or "top level"
    more = f" (and {len(errors) - 1} more)" if len(errors) > 1 else ""
    return f"{where}: {first['msg']}{more}"
