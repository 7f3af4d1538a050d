"""The fault web: tiny programmable HTTP servers on loopback that answer with the faults of the reliability
catalogue (status sequences, Retry-After, stalls, trickles, short bodies, garbage, compression bombs…).

Each path answers with a list of `Reply` objects, one per hit (the last one repeats), a function of the
path, or (`handle`) a function of the whole request — its method, headers and body, for sites that set cookies or
take a form's POST; every hit, of any method and any path, is recorded with its arrival time, so tests and the
reliability report assert exact counts and gaps from the server side. An "admin" or "canary" server is a
`FaultServer` with no routes: it only counts who reached it.
"""

from __future__ import annotations

import contextlib
import socket
import threading
import time
import zlib
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from types import TracebackType
from urllib.parse import parse_qs, urlsplit

__all__ = ["HTML", "FaultServer", "Handler", "Hit", "Reply", "brotli_bomb", "gzip_bomb", "loopback_alias"]

HTML = "text/html; charset=utf-8"


@dataclass
class Reply:
    """One response. `body` is sent as is (already encoded when `headers` name a Content-Encoding).

    `stall_s` waits after the headers; `trickle_s` sends the body `trickle_bytes` at a time with that
    pause between pieces; `content_length` overrides the header (None: no header, connection close
    ends the body); `raw` replaces the whole response with those bytes (garbage status lines); `reset`
    closes the connection without answering.
    """

    status: int = 200
    body: bytes | str = b""
    content_type: str | None = HTML
    headers: dict[str, str] = field(default_factory=dict)
    stall_s: float = 0.0
    trickle_s: float = 0.0
    trickle_bytes: int = 1
    content_length: int | str | None = "auto"
    raw: bytes | None = None
    reset: bool = False


@dataclass(frozen=True)
class Hit:
    """One request a fault server received."""

    path: str
    at: float
    headers: dict[str, str]
    method: str = "GET"
    body: bytes = b""

    @property
    def cookies(self) -> dict[str, str]:
        """The cookies the request carried (name → value)."""
        pairs = (part.strip().partition("=") for part in self.headers.get("cookie", "").split(";"))
        return {name: value for name, _, value in pairs if name}

    @property
    def form(self) -> dict[str, list[str]]:
        """The urlencoded form the request's body (a POST) or query (a GET) carried."""
        query = self.body.decode("utf-8", "replace") if self.method == "POST" else urlsplit(self.path).query
        return parse_qs(query, keep_blank_values=True)


Responder = Callable[[str], Reply]
#: Answers a request from all of it (method, path with its query, headers, body).
Handler = Callable[[Hit], Reply]


class _IPv6Server(ThreadingHTTPServer):
    address_family = socket.AF_INET6


class FaultServer:
    """Start with `start()` (or use it as a context manager); `url(path)` gives an absolute URL.

    `host` may be another loopback address (127.0.0.2, 127.0.0.3: "other hosts" on one machine) and
    `port` a fixed port (0: a free one).
    """

    def __init__(self, host: str = "127.0.0.1", *, port: int = 0) -> None:
        self.routes: dict[str, list[Reply] | Responder] = {"/robots.txt": [Reply(404, "no robots here")]}
        self.handlers: dict[str, Handler] = {}
        self.hits: list[Hit] = []
        self._lock = threading.Lock()
        self._counts: dict[str, int] = {}
        self._stopping = threading.Event()
        self._server = (_IPv6Server if ":" in host else ThreadingHTTPServer)((host, port), self._handler_class())
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)

    # -- configuration ------------------------------------------------------------------------

    def route(self, path: str, *replies: Reply | Responder) -> None:
        """Answer `path` with these replies in turn (the last repeats), or with a function of the path."""
        if len(replies) == 1 and callable(replies[0]) and not isinstance(replies[0], Reply):
            self.routes[path] = replies[0]
        else:
            self.routes[path] = [reply for reply in replies if isinstance(reply, Reply)]

    def handle(self, path: str, handler: Handler) -> None:
        """Answer every request of `path` (whatever its query) with `handler(hit)`."""
        self.handlers[path] = handler

    def page(self, path: str, html: str, *, stall_s: float = 0.0, content_length: int | str | None = "auto") -> None:
        """Serve `html` at `path` with status 200."""
        self.route(path, Reply(200, html, stall_s=stall_s, content_length=content_length))

    def robots(self, text: str | None, *, status: int = 200) -> None:
        """Serve robots.txt (None: 404)."""
        if text is None:
            self.route("/robots.txt", Reply(404, "not found", content_type="text/plain"))
        else:
            self.route("/robots.txt", Reply(status, text, content_type="text/plain"))

    # -- inspection ---------------------------------------------------------------------------

    @property
    def port(self) -> int:
        return int(self._server.server_address[1])

    @property
    def host(self) -> str:
        return str(self._server.server_address[0])

    @property
    def host_port(self) -> str:
        """'host:port', as an allowlist entry names this server."""
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"{host}:{self.port}"

    def url(self, path: str = "/") -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"http://{host}:{self.port}{path}"

    def hits_for(self, path: str) -> list[Hit]:
        with self._lock:
            return [hit for hit in self.hits if hit.path == path]

    def page_hits(self) -> list[Hit]:
        """Hits on anything but robots.txt."""
        with self._lock:
            return [hit for hit in self.hits if hit.path != "/robots.txt"]

    @property
    def hit_count(self) -> int:
        """Every request received, robots.txt included."""
        with self._lock:
            return len(self.hits)

    # -- lifecycle ----------------------------------------------------------------------------

    def start(self) -> FaultServer:
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stopping.set()
        if self._thread.is_alive():
            self._server.shutdown()
        self._server.server_close()

    def __enter__(self) -> FaultServer:
        return self.start()

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.stop()

    # -- serving ------------------------------------------------------------------------------

    def _next_reply(self, path: str) -> Reply:
        route = self.routes.get(path)
        if route is None:
            return Reply(404, "<html><body>no such page</body></html>")
        if callable(route):
            return route(path)
        with self._lock:
            index = self._counts.get(path, 0)
            self._counts[path] = index + 1
        return route[min(index, len(route) - 1)]

    def _handler_class(self) -> type[BaseHTTPRequestHandler]:
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.0"

            def log_message(self, format: str, *args: object) -> None:  # quiet
                return

            def do_GET(self) -> None:
                self._serve("GET")

            def do_HEAD(self) -> None:
                self._serve("HEAD")

            def do_POST(self) -> None:
                self._serve("POST")

            def do_PUT(self) -> None:
                self._serve("PUT")

            def do_CONNECT(self) -> None:
                self._serve("CONNECT")

            def _serve(self, method: str) -> None:
                length = int(self.headers.get("content-length") or 0)
                body = self.rfile.read(min(length, 1 << 20)) if length > 0 else b""
                hit = Hit(self.path, time.monotonic(), {k.lower(): v for k, v in self.headers.items()}, method, body)
                with server._lock:
                    server.hits.append(hit)
                handler = server.handlers.get(urlsplit(self.path).path)
                reply = handler(hit) if handler is not None else server._next_reply(self.path)
                with contextlib.suppress(BrokenPipeError, ConnectionResetError):
                    self._send(reply, head_only=method == "HEAD")

            def _send(self, reply: Reply, *, head_only: bool) -> None:
                if reply.reset:
                    self.close_connection = True
                    with contextlib.suppress(OSError):
                        self.connection.shutdown(2)
                    return
                if reply.raw is not None:
                    self.wfile.write(reply.raw)
                    return
                body = reply.body.encode("utf-8") if isinstance(reply.body, str) else reply.body
                self.send_response(reply.status)
                if reply.content_type is not None:
                    self.send_header("Content-Type", reply.content_type)
                for name, value in reply.headers.items():
                    self.send_header(name, value)
                if reply.content_length == "auto":
                    self.send_header("Content-Length", str(len(body)))
                elif reply.content_length is not None:
                    self.send_header("Content-Length", str(reply.content_length))
                self.send_header("Connection", "close")
                self.end_headers()
                self.wfile.flush()
                if head_only:
                    return
                if reply.stall_s and server._stopping.wait(reply.stall_s):
                    return
                if reply.trickle_s:
                    for start in range(0, len(body), reply.trickle_bytes):
                        self.wfile.write(body[start : start + reply.trickle_bytes])
                        self.wfile.flush()
                        if server._stopping.wait(reply.trickle_s):
                            return
                else:
                    self.wfile.write(body)

        return Handler


def loopback_alias(last_octet: int) -> str | None:
    """'127.0.0.N' when this machine can bind it (Linux routes all of 127/8 to lo), else None."""
    address = f"127.0.0.{last_octet}"
    try:
        with socket.socket() as probe:
            probe.bind((address, 0))
    except OSError:
        return None
    return address


def gzip_bomb(decompressed_bytes: int) -> bytes:
    """A gzip body that inflates to `decompressed_bytes` of spaces inside an HTML page (made a megabyte at a time:
    a bomb of gigabytes costs its maker a megabyte)."""
    packer = zlib.compressobj(9, zlib.DEFLATED, 16 + zlib.MAX_WBITS)  # the gzip container
    parts = [packer.compress(b"<html><body>")]
    megabyte = b" " * (1 << 20)
    whole, rest = divmod(decompressed_bytes, len(megabyte))
    parts += [packer.compress(megabyte) for _ in range(whole)]
    parts += [packer.compress(b" " * rest + b"</body></html>"), packer.flush()]
    return b"".join(parts)


def brotli_bomb(decompressed_bytes: int) -> bytes:
    """A brotli body that inflates to `decompressed_bytes` of spaces inside an HTML page."""
    import brotli  # shipped with crawl4ai's dependencies; only bombs need it

    return bytes(brotli.compress(b"<html><body>" + b" " * decompressed_bytes + b"</body></html>"))
