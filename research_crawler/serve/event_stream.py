"""A run's progress as server-sent events: numbered ``log`` lines (an ``id`` each, so a client continues after the
last one it saw), a ``progress`` snapshot after each batch, and ``end`` with the status once the turn is over.

sse-starlette's `EventSourceResponse` writes the events (one field per line, line breaks in a value split as the
format wants), pings an idle stream and stops the stream when the client leaves or the server shuts down. Data is
JSON on one line: nothing a page or a model wrote can end an event or start a new field.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from typing import Any

from sse_starlette import EventSourceResponse, ServerSentEvent

from research_crawler.serve.web_run import WebRun

__all__ = ["KEEP_ALIVE_S", "event_response", "finished_stream", "run_stream"]

KEEP_ALIVE_S = 15.0
#: Changes arriving this close together are sent as one batch (a run makes hundreds of events a second).
_COALESCE_S = 0.05
#: How long a browser waits before it reconnects to a stream that broke.
_RECONNECT_MS = 2000
#: Lines end in a bare line feed, as the format allows (sse-starlette's default is CRLF).
_SEP = "\n"


def _event(event: str, data: dict[str, Any], *, event_id: int | None = None) -> ServerSentEvent:
    return ServerSentEvent(
        json.dumps(data, ensure_ascii=True), event=event, id=None if event_id is None else str(event_id), sep=_SEP
    )


async def run_stream(web_run: WebRun, *, after: int) -> AsyncIterator[ServerSentEvent]:
    """The events of `web_run` from log line `after` on, until its turn ends (or the client leaves: then
    `EventSourceResponse` stops it)."""
    cursor = after
    yield ServerSentEvent(retry=_RECONNECT_MS, sep=_SEP)
    while True:
        lines, progress, status, version = web_run.lines_after(cursor)
        for number, line in lines:
            yield _event("log", {"n": number, "line": line}, event_id=number)
            cursor = number
        yield _event("progress", progress)
        if status != "running":
            yield _event("end", {"status": status, "error": web_run.error or None})
            return
        await web_run.wait_for_change(version, KEEP_ALIVE_S)
        await asyncio.sleep(_COALESCE_S)


async def finished_stream(status: str) -> AsyncIterator[ServerSentEvent]:
    """The stream of a run this server is not working on: it has ended (or was left unfinished)."""
    yield _event("end", {"status": status, "error": None})


def event_response(stream: AsyncIterator[ServerSentEvent]) -> EventSourceResponse:
    """`stream` as a text/event-stream response (not stored by any cache, not buffered by a proxy)."""
    return EventSourceResponse(stream, ping=KEEP_ALIVE_S, sep=_SEP)
