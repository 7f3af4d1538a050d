"""Requests paced on their host's schedule as they leave: a plain-HTTP request's headers (`SendPacing`) and a browser
render's page request (`RenderPacing`).

A plain-HTTP request begins on its host's schedule as its headers are written, not when it is handed to httpx.

Between the two, httpx opens or picks a connection (DNS pin, TCP, TLS): begun before that, two requests could reach
the server closer than the host's delay. httpcore's ``trace`` request extension calls us as the headers are about to
be written; the begin is taken there (waiting for the host's turn if need be) and the headers leave in the same
event-loop step. When they are written (or failed to be) the schedule is told, and the host's gap counts from then:
on Ray the begin is a remote call whose answer arrives later than the actor granted it.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from research_crawler.web.politeness import HostPoliteness, politeness_key

__all__ = ["RenderPacing", "SendPacing", "Turn"]

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


# Which requests of one browser render are its page request, paced on the host's schedule as they leave. A render's
# page request is its navigation: the first request the render makes and each redirect hop, until the document
# arrives. Those begin only when the host's schedule allows (`HostPoliteness.begin`: the per-host delay, Crawl-delay
# and Retry-After back-off, shared by every query and worker), exactly like a plain-HTTP page request. What the
# document then loads — stylesheets, scripts, images, and the XHR/fetch calls its scripts make to fill it in — is part
# of reading that one page, as a person's browser loads it: not paced, like the plain-HTTP fetcher that counts one
# request per page. They cannot outlast the render either: its proxy, and every tunnel through it, is closed when the
# render ends. Over plain HTTP the guard proxy sees each request and the status of its answer, so the navigation is
# known exactly. Inside an HTTPS tunnel it sees neither: the first tunnel to each host that the render opens before
# its document arrived is paced (it carries the navigation, or a redirect hop to another host; a preconnect to a sub-
# resource's host at worst waits its turn), and the browser tells when the document arrived (`document_arrived`). A
# same-host redirect inside one tunnel cannot be told apart and is not paced on its own.


logger = logging.getLogger(__name__)


class RenderPacing:
    """One render's page requests: each waits for `begin(host)` (its host's turn on the shared schedule).

    `paced` lists the URLs (``https://host:port/`` for a tunnel) that waited for their turn, in order.
    """

    def __init__(
        self, begin: Callable[[str], Awaitable[object]], sent: Callable[[str, str], None] | None = None
    ) -> None:
        """`begin(host)` waits for the host's turn and takes it; with `sent`, it returns a ticket, and
        `sent(host, ticket)` reports when the request left (`HostPoliteness.begin_send` and `sent`: the host's gap
        then counts from the send, not from the grant — on Ray the grant is a remote call answered later)."""
        self._begin = begin
        self._sent = sent
        self._document_arrived = False
        self._tunnel_turns: dict[str, asyncio.Event] = {}
        self.paced: list[str] = []

    @property
    def navigating(self) -> bool:
        """True until the render's document has arrived (its navigation, redirect hops included, is over)."""
        return not self._document_arrived

    async def before_request(self, url: str) -> Turn | None:
        """Called as a plain-HTTP request of the render is about to leave: a step of the navigation waits for
        its host's turn. Returns the turn it took (None: not a page request), which `request_sent` must be told
        as soon as the request is written, and then `answered` its status."""
        if self._document_arrived:
            return None
        return await self._pace(url)

    def request_sent(self, turn: Turn) -> None:
        """The request that took `turn` has just been written upstream (or failed to be)."""
        if self._sent is not None and isinstance(turn.ticket, str):
            self._sent(turn.host, turn.ticket)

    def answered(self, status: int | None) -> None:
        """The status of a paced request's answer (None: no answer): anything but a redirect ends the navigation."""
        if status is None or not (300 <= status < 400 and status != 304):
            self._document_arrived = True

    async def before_tunnel(self, url: str) -> bool:
        """Called as an HTTPS tunnel to `url`'s host is about to open: the first one to each host while the
        navigation lasts waits for the host's turn. Returns whether it did."""
        host = politeness_key(url)
        turn = self._tunnel_turns.get(host)
        if turn is not None:
            # The host's turn is taken by the render's first tunnel to it; one opened meanwhile (a second socket
            # the browser opens alongside) waits for that turn too, as the navigation may leave through either.
            await turn.wait()
            return False
        if self._document_arrived:
            return False
        turn = self._tunnel_turns[host] = asyncio.Event()
        try:
            # The request inside the tunnel is not seen: it is reported as sent when the turn is granted.
            self.request_sent(await self._pace(url))
        finally:
            turn.set()
        return True

    def document_arrived(self) -> None:
        """The browser received the render's document (a main-frame navigation answer that is not a redirect)."""
        self._document_arrived = True

    async def _pace(self, url: str) -> Turn:
        host = politeness_key(url)
        ticket = await self._begin(host)
        self.paced.append(url)
        logger.debug("browser page request begins on its host's schedule: %s", url)
        return Turn(host, ticket)


@dataclass(frozen=True, slots=True)
class Turn:
    """A host's turn taken by one page request: the politeness key and the schedule's ticket (if it gave one)."""

    host: str
    ticket: object
