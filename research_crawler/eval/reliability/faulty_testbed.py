"""The testbed served with injected network faults: each request is answered, at `fault_rate`, with a 503 or a
dropped connection (half each) instead of the page, over real sockets.

It serves the same site applications as `TestbedServer` (its pages link to its own ports), but through a
handler that draws faults from a seeded generator. robots.txt is never faulted: an unreadable robots.txt
disallows a whole site for `robots_retry_s` (fail closed), which the politeness cases cover; in a soak it
would only hide every other fault behind it.
"""

from __future__ import annotations

import contextlib
import logging
import random
import socket
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, unquote, urlsplit

from research_crawler.eval.addresses import address_key
from research_crawler.eval.site_servers import SiteServers
from research_crawler.eval.testbed.layouts import make_site_app
from research_crawler.eval.testbed.models import Testbed
from research_crawler.eval.testbed.site_app import Request, SiteApp, SiteLinks

__all__ = ["FaultyTestbed"]

logger = logging.getLogger(__name__)


class _SiteServer(ThreadingHTTPServer):
    daemon_threads = True
    block_on_close = False
    app: SiteApp


class FaultyTestbed(SiteServers[_SiteServer]):
    """The testbed's sites on 127.0.0.1, one port each, with network faults at `fault_rate`; a context manager."""

    __test__ = False

    def __init__(self, testbed: Testbed, *, fault_rate: float = 0.1, seed: int = 0) -> None:
        if not 0 <= fault_rate <= 1:
            raise ValueError(f"fault_rate must be between 0 and 1, not {fault_rate}")
        super().__init__()
        self.testbed = testbed
        self.fault_rate = fault_rate
        self._random = random.Random(seed)
        self._lock = threading.Lock()
        self.requests = 0
        self.faults = {"503": 0, "reset": 0}

    def start(self) -> FaultyTestbed:
        handler = self._handler_class()
        for name in self.testbed.site_names():
            self._servers[name] = _SiteServer(("127.0.0.1", 0), handler)
        bases = {name: f"http://127.0.0.1:{server.server_address[1]}/" for name, server in self._servers.items()}
        for name, server in self._servers.items():
            server.app = make_site_app(self.testbed, name, SiteLinks(own_base=bases[name], site_bases=bases))
        self._serve_all("faulty")
        return self

    def base_url(self, site: str) -> str:
        return f"http://127.0.0.1:{self._servers[site].server_address[1]}/"

    def allowed_hosts(self) -> list[str]:
        """'127.0.0.1:port' of every site, for `FetchSettings.allowed_hosts`."""
        return [f"127.0.0.1:{server.server_address[1]}" for server in self._servers.values()]

    def relevant_urls(self, query_id: str) -> set[str]:
        return {
            address_key(self.base_url(item.site).rstrip("/") + item.path)
            for item in self.testbed.relevant_items(query_id)
        }

    def _draw(self, path: str) -> str | None:
        with self._lock:
            self.requests += 1
            if path.startswith("/robots.txt") or self._random.random() >= self.fault_rate:
                return None
            fault = "503" if self._random.random() < 0.5 else "reset"
            self.faults[fault] += 1
            return fault

    def _handler_class(self) -> type[BaseHTTPRequestHandler]:
        testbed = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"
            server: _SiteServer

            def log_message(self, format: str, *args: object) -> None:
                return

            def do_GET(self) -> None:
                self._serve("GET")

            def do_POST(self) -> None:
                self._serve("POST")

            def _serve(self, method: str) -> None:
                fault = testbed._draw(self.path)
                if fault == "reset":
                    self.close_connection = True
                    with contextlib.suppress(OSError):
                        self.connection.shutdown(socket.SHUT_RDWR)
                    return
                if fault == "503":
                    self._send(503, b"<html><body>Service unavailable</body></html>", "text/html", ())
                    return
                parts = urlsplit(self.path)
                form: dict[str, list[str]] = {}
                if method == "POST":
                    length = int(self.headers.get("Content-Length") or 0)
                    form = parse_qs(self.rfile.read(min(length, 65536)).decode("utf-8", "replace"))
                request = Request(method, unquote(parts.path) or "/", parse_qs(parts.query), form)
                try:
                    response = self.server.app.handle(request)
                except Exception:
                    logger.exception("faulty testbed failed on %s", self.path)
                    self._send(500, b"error", "text/plain", ())
                    return
                self._send(response.status, response.body, response.content_type, response.headers)

            def _send(self, status: int, body: bytes, content_type: str, headers: tuple[tuple[str, str], ...]) -> None:
                with contextlib.suppress(BrokenPipeError, ConnectionResetError):
                    self.send_response(status)
                    self.send_header("Content-Type", content_type)
                    self.send_header("Content-Length", str(len(body)))
                    for name, value in headers:
                        self.send_header(name, value)
                    self.end_headers()
                    self.wfile.write(body)

        return Handler
