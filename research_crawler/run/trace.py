"""The action-level trace of a run: every message, tool call, tool result, transition, fetch and model call.

An append-only JSONL file in the run directory, one event per line, flushed as it is written so a killed
run keeps everything up to its last action. Secrets are masked before anything is written, and
listeners (the live view, tests) receive the same events.
"""

from __future__ import annotations

import json
import logging
import threading
from collections.abc import Callable, Iterable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

__all__ = ["Trace", "TraceEvent", "read_trace"]

logger = logging.getLogger(__name__)

TraceEvent = dict[str, Any]
MASK = "***"


class Trace:
    """Writes trace events to `path` (None keeps them in memory only) and hands them to listeners."""

    def __init__(self, path: Path | None, *, secrets: Iterable[str] = ()) -> None:
        self._path = path
        self._secrets = sorted({s for s in secrets if s and len(s) >= 4}, key=len, reverse=True)
        self._lock = threading.Lock()
        self._listeners: list[Callable[[TraceEvent], None]] = []
        self._seq = 0
        self._file = None
        if path is not None:
            path.parent.mkdir(parents=True, exist_ok=True)
            self._seq = _last_seq(path)
            self._file = path.open("a", encoding="utf-8")

    def for_site(self, site_url: str) -> Trace:
        """This trace, as written by the exploration of one site among several explored at once: each event
        it emits names the site (`site`, unless the event names one itself), so readers can tell the sites
        apart."""
        return _SiteTrace(self, site_url)

    def subscribe(self, listener: Callable[[TraceEvent], None]) -> None:
        """Call `listener(event)` for every event from now on (exceptions in it are logged, not raised)."""
        self._listeners.append(listener)

    def emit(self, event_type: str, /, **fields: Any) -> TraceEvent:
        """Record one event of `event_type` with `fields` (made JSON-safe and masked)."""
        with self._lock:
            self._seq += 1
            event: TraceEvent = {
                "seq": self._seq,
                "t": datetime.now(UTC).isoformat(),
                "event": event_type,
                **fields,
            }
            line = self.mask(json.dumps(event, ensure_ascii=False, default=str))
            event = json.loads(line)
            if self._file is not None:
                self._file.write(line + "\n")
                self._file.flush()
        for listener in list(self._listeners):
            try:
                listener(event)
            except Exception:
                logger.exception("trace listener failed on a %s event", event_type)
        return event

    def mask(self, text: str) -> str:
        """`text` with every secret replaced by ***."""
        for secret in self._secrets:
            text = text.replace(secret, MASK)
        return text

    def close(self) -> None:
        with self._lock:
            if self._file is not None:
                self._file.close()
                self._file = None


class _SiteTrace(Trace):
    """`Trace.for_site`: the same trace (one file, one numbering, the same listeners), each event naming its site."""

    def __init__(self, parent: Trace, site_url: str) -> None:  # shares the parent's file and listeners: opens nothing
        self._parent = parent
        self._site_url = site_url

    def for_site(self, site_url: str) -> Trace:
        return self._parent.for_site(site_url)

    def subscribe(self, listener: Callable[[TraceEvent], None]) -> None:
        self._parent.subscribe(listener)

    def emit(self, event_type: str, /, **fields: Any) -> TraceEvent:
        return self._parent.emit(event_type, **{"site": self._site_url, **fields})

    def mask(self, text: str) -> str:
        return self._parent.mask(text)

    def close(self) -> None:
        """The parent trace is closed by its owner."""


def _last_seq(path: Path) -> int:
    """The last sequence number already in `path` (a resumed run continues the numbering)."""
    if not path.exists():
        return 0
    last = 0
    for event in read_trace(path):
        last = max(last, int(event.get("seq", 0)))
    return last


def read_trace(path: Path) -> list[TraceEvent]:
    """The events of a trace file; a torn last line (a killed run) is skipped."""
    events = []
    for line in path.read_text(encoding="utf-8").splitlines():
        try:
            events.append(json.loads(line))
        except json.JSONDecodeError:
            continue
    return events
