"""A run's progress as server-sent events: numbered ``log`` lines (an ``id`` each, so a client continues after the
last one it saw), a ``progress`` snapshot after each batch, and ``end`` with the status once the turn is over.

Data is JSON on one line: nothing a page or a model wrote can end an event or start a new field.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

from research_crawler.serve.web_run import WebRun

__all__ = ["KEEP_ALIVE_S", "finished_stream", "run_stream", "sse_message"]

KEEP_ALIVE_S = 15.0
#: Changes arriving this close together are sent as one batch (a run makes hundreds of events a second).
_COALESCE_S = 0.05


def sse_message(event: str, data: dict[str, Any], *, event_id: int | None = None) -> str:
    """One server-sent event."""
    head = f"id: {event_id}\n" if event_id is not None else ""
    return f"{head}event: {event}\ndata: {json.dumps(data, ensure_ascii=True)}\n\n"


async def run_stream(
    web_run: WebRun, *, after: int, disconnected: Callable[[], Awaitable[bool]]
) -> AsyncIterator[str]:
    """The events of `web_run` from log line `after` on, until its turn ends or the client leaves."""
    cursor = after
    yield "retry: 2000\n\n"
    while True:
        lines, progress, status, version = web_run.lines_after(cursor)
        for number, line in lines:
            yield sse_message("log", {"n": number, "line": line}, event_id=number)
            cursor = number
        yield sse_message("progress", progress)
        if status != "running":
            yield sse_message("end", {"status": status, "error": web_run.error or None})
            return
        await web_run.wait_for_change(version, KEEP_ALIVE_S)
        if await disconnected():
            return
        await asyncio.sleep(_COALESCE_S)


async def finished_stream(status: str) -> AsyncIterator[str]:
    """The stream of a run this server is not working on: it has ended (or was left unfinished)."""
    yield sse_message("end", {"status": status, "error": None})
