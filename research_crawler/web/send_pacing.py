"""A plain-HTTP request begins on its host's schedule as its headers are written, not when it is handed to httpx.

Between the two, httpx opens or picks a connection (DNS pin, TCP, TLS): begun before that, two requests could reach
the server closer than the host's delay. httpcore's ``trace`` request extension calls us as the headers are about to
be written; the begin is taken there (waiting for the host's turn if need be) and the headers leave in the same
event-loop step. When they are written (or failed to be) the schedule is told, and the host's gap counts from then:
on Ray the begin is a remote call whose answer arrives later than the actor granted it.
"""

from __future__ import annotations

import logging
from typing import Any

from research_crawler.web.politeness import HostPoliteness

__all__ = ["SendPacing"]

logger = logging.getLogger(__name__)

_HEADERS_ABOUT_TO_BE_WRITTEN = frozenset({"http11.send_request_headers.started", "http2.send_request_headers.started"})
_HEADERS_WRITTEN = frozenset(
    {
        "http11.send_request_headers.complete",
        "http11.send_request_headers.failed",
        "http2.send_request_headers.complete",
        "http2.send_request_headers.failed",
    }
)


class SendPacing:
    """The ``trace`` extension of one request to `host` (a politeness key): each time its headers go on the wire
    they begin on `politeness`'s schedule (a request that never writes them, e.g. its connection failed, takes no
    turn)."""

    def __init__(self, politeness: HostPoliteness, host: str) -> None:
        self._politeness = politeness
        self._host = host
        self._ticket: str | None = None

    def extensions(self) -> dict[str, Any]:
        """The request extensions that install this pacing."""
        return {"trace": self}

    async def __call__(self, event: str, info: dict[str, Any]) -> None:
        if event in _HEADERS_ABOUT_TO_BE_WRITTEN:
            self._ticket = await self._politeness.begin_send(self._host)
            logger.debug("request to %s begins on its host's schedule as its headers are written", self._host)
        elif event in _HEADERS_WRITTEN and self._ticket is not None:
            ticket, self._ticket = self._ticket, None
            self._politeness.sent(self._host, ticket)
