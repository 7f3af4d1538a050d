"""A forward proxy on loopback through which the browser makes every request, so the URL guard sees them all.

Playwright's request interception never sees redirect hops (its route handler is called for the first URL
only) and Chromium resolves names itself, so neither could stop a page that redirects to an internal
address or a DNS answer that changes. With the browser context pointed at this proxy (Playwright then
also proxies loopback, ``<-loopback>``), every request, redirect hop, sub-resource and WebSocket reaches
us as ``GET http://host/…`` or ``CONNECT host:443``; the guard checks the host, and the proxy connects
to the pinned address only. A refused request gets a 403 whose body names the rule.

Plain-HTTP requests are forwarded one per client connection (``Connection: close`` both ways), so a kept-
alive browser connection can never carry a second request to another host through the first one's socket.

With a `RenderPacing` (one proxy per render) the render's page request — its navigation and redirect hops —
leaves only when its host's schedule allows, the moment it is sent upstream (`pacing.py`); closing the
proxy ends every tunnel of the render, so none is kept alive into another.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from urllib.parse import urlsplit

from research_crawler.web.pacing import RenderPacing, Turn
from research_crawler.web.url_guard import UrlGuard

__all__ = ["GuardProxy"]

logger = logging.getLogger(__name__)

_MAX_HEAD_BYTES = 64 * 1024
_HOP_BY_HOP = frozenset(
    {"connection", "proxy-connection", "keep-alive", "proxy-authorization", "te", "trailer", "upgrade"}
)
_PIPE_CHUNK = 64 * 1024


class _BadRequest(Exception):
    """A request the proxy cannot forward; the message goes back to the browser."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status


class GuardProxy:
    """Start with `start()`; `url` is what the browser context's proxy setting takes; `aclose()` stops it.

    `refused` lists every URL (or ``host:port`` of a tunnel) the guard refused, for the caller to report. With
    `refuse_all` nothing is let out at all: the browser's own traffic (update checks, account lookups) is pointed at
    such a proxy, the pages' contexts at a guarded one. With `pacing`, the render's page requests wait for their
    host's turn just before they are sent. With `max_bytes`, the bytes the servers send back are counted as they
    pass (encrypted ones too), and past it every connection of the proxy is cut (`overflowed`).
    """

    def __init__(
        self,
        guard: UrlGuard,
        *,
        connect_timeout_s: float = 10.0,
        idle_timeout_s: float = 60.0,
        refuse_all: bool = False,
        pacing: RenderPacing | None = None,
        max_bytes: int | None = None,
    ) -> None:
        self._guard = guard
        self._pacing = pacing
        self._max_bytes = max_bytes
        #: Bytes passed from the servers to the browser, all connections together; past `max_bytes`, `overflowed`.
        self.passed = 0
        self.overflowed = False
        self._refuse_all = refuse_all
        self._connect_timeout_s = connect_timeout_s
        self._idle_timeout_s = idle_timeout_s
        self._server: asyncio.Server | None = None
        self._tasks: set[asyncio.Task[None]] = set()
        self.refused: list[str] = []

    async def start(self) -> GuardProxy:
        self._server = await asyncio.start_server(self._serve, host="127.0.0.1", port=0)
        return self

    @property
    def url(self) -> str:
        if self._server is None:
            raise RuntimeError("the guard proxy is not started")
        port = self._server.sockets[0].getsockname()[1]
        return f"http://127.0.0.1:{port}"

    async def aclose(self) -> None:
        """Stop listening and end every connection in flight."""
        server, self._server = self._server, None
        if server is not None:
            server.close()
        tasks = list(self._tasks)
        for task in tasks:
            task.cancel()
        if tasks:
            await asyncio.gather(*tasks, return_exceptions=True)
        if server is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(server.wait_closed(), 5)

    def _count(self, size: int) -> None:
        """Count `size` bytes on their way to the browser; past the bound, end this connection and the others."""
        self.passed += size
        if self._max_bytes is not None and self.passed > self._max_bytes and not self.overflowed:
            self.overflowed = True
            logger.info("a render received more than %d bytes: its connections are cut", self._max_bytes)
            for task in list(self._tasks):
                if task is not asyncio.current_task():
                    task.cancel()
        if self.overflowed:
            raise ConnectionAbortedError("the render received more than its bytes allow")

    # -- one client connection ------------------------------------------------------------------

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        task = asyncio.current_task()
        if task is not None:
            self._tasks.add(task)
        try:
            await self._handle(reader, writer)
        except _BadRequest as exc:
            await _answer(writer, exc.status, str(exc))
        except (ConnectionError, asyncio.IncompleteReadError, asyncio.LimitOverrunError, TimeoutError):
            pass
        except asyncio.CancelledError:
            # `aclose`: the render ended (or was given up) with this request still waiting for its turn or its
            # answer. The connection ends here, quietly: asyncio reports a connection task that ends cancelled.
            pass
        except Exception:  # a proxy bug must end this connection, never the crawl
            logger.exception("the guard proxy failed on a connection")
        finally:
            if task is not None:
                self._tasks.discard(task)
            writer.close()
            with contextlib.suppress(Exception):
                await writer.wait_closed()

    async def _handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        async with asyncio.timeout(self._idle_timeout_s):
            head = await reader.readuntil(b"\r\n\r\n")
        if len(head) > _MAX_HEAD_BYTES:
            raise _BadRequest(431, "request head too large")
        request_line, *header_lines = head.decode("latin-1").split("\r\n")
        try:
            method, target, version = request_line.split(" ")
        except ValueError:
            raise _BadRequest(400, "malformed request line") from None
        headers = [line for line in header_lines if line]
        if method.upper() == "CONNECT":
            await self._tunnel(target, reader, writer)
        else:
            await self._forward(method, target, version, headers, reader, writer)

    async def _open(
        self, url: str, host: str, port: int, *, tunnel: bool
    ) -> tuple[asyncio.StreamReader, asyncio.StreamWriter, Turn | None]:
        """A connection to the pinned address of `host` for `url`, and the host's turn the request took (a page
        request of a paced render; None otherwise): refused requests never reach the schedule."""
        if self._refuse_all:
            self.refused.append(url)
            logger.debug("the browser's own request refused: %s", url)
            raise _BadRequest(403, "the browser's own traffic is not let out; pages use their context's proxy")
        refusal = await self._guard.refusal(url)
        if refusal is not None:
            self.refused.append(url)
            logger.info("browser request refused: %s", refusal)
            raise _BadRequest(403, refusal)
        pin = await self._guard.pin(host, port)
        if pin.address is None:
            raise _BadRequest(403 if pin.refusal else 502, pin.refusal or pin.failure or f"cannot reach {host}")
        try:
            async with asyncio.timeout(self._connect_timeout_s):
                reader, writer = await asyncio.open_connection(pin.address, port)
        except (OSError, TimeoutError) as exc:
            raise _BadRequest(502, f"cannot connect to {host}:{port}: {exc}") from exc
        turn: Turn | None = None
        if self._pacing is not None:
            # Last, once connected: the request is written in the same turn of the event loop as its begin is
            # recorded, so the moment the schedule keeps is the moment it leaves (nothing else runs in between).
            # The connection waits open only for what is left of the turn: the fetcher waited for its booking
            # before the render began. (Inside a tunnel the request follows the TLS handshake, a little later.)
            try:
                if tunnel:
                    await self._pacing.before_tunnel(url)
                else:
                    turn = await self._pacing.before_request(url)
            except BaseException:
                writer.close()
                raise
        return reader, writer, turn

    async def _tunnel(self, target: str, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        parts = urlsplit(f"https://{target}/")
        try:
            host, port = parts.hostname, parts.port or 443
        except ValueError:
            raise _BadRequest(400, f"bad CONNECT target {target!r}") from None
        if not host:
            raise _BadRequest(400, f"bad CONNECT target {target!r}")
        scheme = "http" if port == 80 else "https"
        upstream_reader, upstream_writer, _ = await self._open(f"{scheme}://{target}/", host, port, tunnel=True)
        try:
            writer.write(b"HTTP/1.1 200 Connection established\r\n\r\n")
            await writer.drain()
            await _pipe_both(
                reader, writer, upstream_reader, upstream_writer, idle_s=self._idle_timeout_s, count=self._count
            )
        finally:
            upstream_writer.close()

    async def _forward(
        self,
        method: str,
        target: str,
        version: str,
        headers: list[str],
        reader: asyncio.StreamReader,
        writer: asyncio.StreamWriter,
    ) -> None:
        parts = urlsplit(target)
        if parts.scheme.lower() != "http" or not parts.hostname:
            raise _BadRequest(400, "a proxy request must name an absolute http:// URL")
        try:
            port = parts.port or 80
        except ValueError:
            raise _BadRequest(400, f"bad port in {target[:200]!r}") from None
        kept: list[str] = []
        length = 0
        for line in headers:
            name, _, value = line.partition(":")
            lowered = name.strip().lower()
            if lowered == "transfer-encoding":
                raise _BadRequest(501, "chunked request bodies are not forwarded")
            if lowered == "content-length":
                try:
                    length = int(value.strip())
                except ValueError:
                    raise _BadRequest(400, "bad Content-Length") from None
            if lowered not in _HOP_BY_HOP:
                kept.append(line)
        upstream_reader, upstream_writer, turn = await self._open(target, parts.hostname, port, tunnel=False)
        try:
            path = parts.path or "/"
            if parts.query:
                path = f"{path}?{parts.query}"
            head = "\r\n".join([f"{method} {path} {version}", *kept, "Connection: close", "", ""])
            try:
                upstream_writer.write(head.encode("latin-1"))
            finally:
                if turn is not None and self._pacing is not None:  # the host's gap counts from now
                    self._pacing.request_sent(turn)
            if length > 0:
                upstream_writer.write(await reader.readexactly(length))
            await upstream_writer.drain()
            if turn is not None and self._pacing is not None:
                # A step of the navigation: its answer's status says whether another hop follows.
                status_line = b""
                try:
                    async with asyncio.timeout(self._idle_timeout_s):
                        status_line = await upstream_reader.readuntil(b"\r\n")
                finally:
                    self._pacing.answered(_status(status_line))
                self._count(len(status_line))
                writer.write(status_line)
            await _copy(upstream_reader, writer, idle_s=self._idle_timeout_s, count=self._count)
        finally:
            upstream_writer.close()


def _status(status_line: bytes) -> int | None:
    """The status code of an HTTP status line (``HTTP/1.1 302 Found``), or None."""
    parts = status_line.split(b" ", 2)
    return int(parts[1]) if len(parts) >= 2 and parts[1].isdigit() else None


async def _answer(writer: asyncio.StreamWriter, status: int, message: str) -> None:
    body = message.encode("utf-8", errors="replace")
    reason = {400: "Bad Request", 403: "Forbidden", 431: "Too Large", 501: "Not Implemented"}.get(status, "Bad Gateway")
    head = (
        f"HTTP/1.1 {status} {reason}\r\nContent-Type: text/plain; charset=utf-8\r\n"
        f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n"
    )
    with contextlib.suppress(Exception):
        writer.write(head.encode("latin-1") + body)
        await writer.drain()


async def _copy(
    source: asyncio.StreamReader,
    sink: asyncio.StreamWriter,
    *,
    idle_s: float,
    count: Callable[[int], None] | None = None,
) -> None:
    """Copy until `source` ends; `count` hears of each chunk before it is passed on (and may end the copy)."""
    while True:
        async with asyncio.timeout(idle_s):
            chunk = await source.read(_PIPE_CHUNK)
        if not chunk:
            return
        if count is not None:
            count(len(chunk))
        sink.write(chunk)
        await sink.drain()


async def _pipe_both(
    client_reader: asyncio.StreamReader,
    client_writer: asyncio.StreamWriter,
    upstream_reader: asyncio.StreamReader,
    upstream_writer: asyncio.StreamWriter,
    *,
    idle_s: float,
    count: Callable[[int], None] | None = None,
) -> None:
    """Copy both ways until one side closes (or stays idle for `idle_s`); `count` hears of what the server sends."""
    tasks = [
        asyncio.create_task(_copy(client_reader, upstream_writer, idle_s=idle_s)),
        asyncio.create_task(_copy(upstream_reader, client_writer, idle_s=idle_s, count=count)),
    ]
    try:
        await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
    finally:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
