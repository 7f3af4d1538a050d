"""Serves a testbed on loopback: one threaded HTTP server per site, each on its own port (port = site).

Pages carry an ETag (a hash of the body) and a conditional GET for an unchanged page is answered 304, as real
sites do, so revisits can be tested.

Works the same from sync tests, async tests and the CLI because the servers run in daemon threads and
never touch the caller's event loop. Every request is recorded so tests can count fetches exactly, with the time
the kernel received it (Linux stamps each packet as it arrives), not the time a server thread got round to reading
it: on a busy machine, in a process also running the crawler, that can be a tenth of a second later.
"""

from __future__ import annotations

import contextlib
import hashlib
import logging
import socket
import struct
import threading
import time
from collections.abc import Mapping
from http.cookies import CookieError, SimpleCookie
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from types import TracebackType
from typing import NamedTuple
from urllib.parse import parse_qs, unquote, urlsplit

import networkx as nx
from protego import Protego

from research_crawler.errors import ConfigError, StateError
from research_crawler.eval.addresses import address_key, page_address
from research_crawler.eval.testbed.layouts import make_site_app
from research_crawler.eval.testbed.link_graph import DEFAULT_MAX_TRAP_PAGES, build_link_graph
from research_crawler.eval.testbed.models import Item, Testbed
from research_crawler.eval.testbed.site_app import Request, Response, SiteApp, SiteLinks

__all__ = ["Hit", "TestbedServer"]

logger = logging.getLogger(__name__)

_MAX_FORM_BYTES = 64 * 1024
#: Linux's socket option (and control message) for each packet's receive time in nanoseconds; Python does not name it.
_SO_TIMESTAMPNS = 35


class Hit(NamedTuple):
    """One request a site received: its raw target (path and query), `time.monotonic()` at arrival (when the
    kernel received its first bytes, where the kernel says; else when the request was read), and its method."""

    path: str
    time: float
    method: str = "GET"


class _HitLog:
    """Every request of every site, kept after the servers stop so tests can count them afterwards."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._hits: dict[str, list[Hit]] = {}

    def record(self, site: str, target: str, *, arrived_at: float | None = None, method: str = "GET") -> None:
        with self._lock:
            arrival = time.monotonic() if arrived_at is None else arrived_at
            self._hits.setdefault(site, []).append(Hit(target, arrival, method))

    def of(self, site: str) -> list[Hit]:
        with self._lock:
            return list(self._hits.get(site, ()))

    def total(self) -> int:
        with self._lock:
            return sum(len(hits) for hits in self._hits.values())

    def clear(self) -> None:
        with self._lock:
            self._hits.clear()


class _SiteHTTPServer(ThreadingHTTPServer):
    daemon_threads = True
    block_on_close = False  # a request sleeping on the slow page must not hold up stop()

    def __init__(
        self, address: tuple[str, int], *, site: str, log: _HitLog, slow_seconds: float, stopping: threading.Event
    ) -> None:
        if ":" in address[0]:
            self.address_family = socket.AF_INET6
        super().__init__(address, _Handler)
        self.site = site
        self.app: SiteApp | None = None
        self.log = log
        self.slow_seconds = slow_seconds
        self.stopping = stopping

    def server_bind(self) -> None:
        super().server_bind()
        with contextlib.suppress(OSError):  # not Linux: arrivals are the times requests are read
            self.socket.setsockopt(socket.SOL_SOCKET, _SO_TIMESTAMPNS, 1)  # inherited by accepted connections


def _kernel_arrival(connection: socket.socket) -> tuple[bool, float | None]:
    """Wait for the next request's first bytes on `connection`, leaving them unread: (whether any came, when the
    kernel received them in `time.monotonic()`, or None when it gave no time)."""
    try:
        data, controls, _, _ = connection.recvmsg(1, socket.CMSG_SPACE(16), socket.MSG_PEEK)
    except OSError:  # idle past the timeout, reset
        return False, None
    monotonic_now, wall_now = time.monotonic(), time.time()
    for level, kind, payload in controls:
        if level == socket.SOL_SOCKET and kind == _SO_TIMESTAMPNS and len(payload) >= 16:
            seconds, nanoseconds = struct.unpack("qq", payload[:16])
            return bool(data), monotonic_now - (wall_now - (seconds + nanoseconds / 1e9))
    return bool(data), None


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "TestbedHTTP/1.0"
    timeout = 30  # idle keep-alive connections give their thread back
    disable_nagle_algorithm = True  # headers and body go out in separate writes: no 40 ms delayed-ACK stall
    server: _SiteHTTPServer
    arrived_at: float | None = None

    def handle_one_request(self) -> None:
        came, self.arrived_at = _kernel_arrival(self.connection)
        if not came:  # the client closed the connection or left it idle: done with it
            self.close_connection = True
            return
        super().handle_one_request()

    def do_GET(self) -> None:
        self._serve("GET")

    def do_HEAD(self) -> None:
        self._serve("HEAD")

    def do_POST(self) -> None:
        self._serve("POST")

    def _serve(self, method: str) -> None:
        site = self.server
        site.log.record(site.site, self.path, arrived_at=self.arrived_at, method=method)
        parts = urlsplit(self.path)
        form: dict[str, list[str]] = {}
        if method == "POST":
            try:
                length = max(0, int(self.headers.get("Content-Length") or 0))
            except ValueError:
                length = 0
            raw = self.rfile.read(min(length, _MAX_FORM_BYTES))
            form = parse_qs(raw.decode("utf-8", errors="replace"), keep_blank_values=True)
        cookies = SimpleCookie()
        with contextlib.suppress(CookieError):
            cookies.load(self.headers.get("Cookie") or "")
        request = Request(
            method,
            unquote(parts.path) or "/",
            parse_qs(parts.query, keep_blank_values=True),
            form,
            {name: morsel.value for name, morsel in cookies.items()},
        )
        try:
            if site.app is None:
                raise StateError("testbed site has no application attached")
            response = site.app.handle(request)
        except Exception:  # a testbed bug must show as a 500, not a dropped connection
            logger.exception("testbed failed to render %s %s", method, self.path)
            response = Response.html("<h1>Testbed error</h1>", kind="error", status=500)
        if response.slow and site.slow_seconds > 0:
            site.stopping.wait(site.slow_seconds)
        etag = f'"{hashlib.sha1(response.body).hexdigest()[:20]}"' if response.status == 200 else None
        if etag is not None and method != "POST" and self.headers.get("If-None-Match") == etag:
            self._not_modified(etag)  # as a real site answers a conditional request for an unchanged page
            return
        try:
            self.send_response(response.status)
            self.send_header("Content-Type", response.content_type)
            self.send_header("Content-Length", str(len(response.body)))
            for name, value in response.headers:
                self.send_header(name, value)
            if etag is not None:
                self.send_header("ETag", etag)
            self.end_headers()
            if method != "HEAD":
                self.wfile.write(response.body)
        except (BrokenPipeError, ConnectionResetError):
            logger.debug("client went away before %s was answered", self.path)

    def _not_modified(self, etag: str) -> None:
        try:
            self.send_response(304)
            self.send_header("ETag", etag)
            self.send_header("Content-Length", "0")
            self.end_headers()
        except (BrokenPipeError, ConnectionResetError):
            logger.debug("client went away before %s was answered", self.path)

    def log_message(self, format: str, *args: object) -> None:
        logger.debug("%s %s", self.address_string(), format % args)


class TestbedServer:
    """All sites of a testbed, served on `host` with one port each; a context manager.

    >>> with TestbedServer(generate_testbed(), slow_seconds=0.2) as server:
    ...     server.base_url("arxiv-like")  # 'http://127.0.0.1:PORT/'
    """

    __test__ = False  # not a pytest test class despite the name

    def __init__(
        self, testbed: Testbed, *, host: str = "127.0.0.1", slow_seconds: float = 3.0, port: int | None = None
    ) -> None:
        """`port` serves the sites on consecutive ports from it (in site order), so addresses stay the same
        from one start to the next; None takes free ports."""
        if slow_seconds < 0:
            raise ConfigError(f"slow_seconds must be >= 0, not {slow_seconds}")
        if port is not None and not 1 <= port <= 65535 - len(testbed.site_names()):
            raise ConfigError(f"the testbed's first port must be between 1 and {65535 - len(testbed.site_names())}")
        self.testbed = testbed
        self.host = host
        self.port = port
        self.slow_seconds = slow_seconds
        self._servers: dict[str, _SiteHTTPServer] = {}
        self._threads: dict[str, threading.Thread] = {}
        self._bases: dict[str, str] = {}
        self._items_by_url: dict[str, Item] = {}
        self._stopping = threading.Event()
        self._log = _HitLog()

    # ------------------------------------------------------------------ lifecycle

    @property
    def running(self) -> bool:
        return bool(self._servers)

    def start(self) -> TestbedServer:
        """Bind every site to a free port and serve it in a daemon thread (no-op when already running).

        Starting clears the hits of an earlier run.
        """
        if self.running:
            return self
        self._stopping.clear()
        self._log.clear()
        try:
            for index, name in enumerate(self.testbed.site_names()):
                port = 0 if self.port is None else self.port + index
                server = _SiteHTTPServer(
                    (self.host, port), site=name, log=self._log, slow_seconds=self.slow_seconds, stopping=self._stopping
                )
                self._servers[name] = server
                host = f"[{self.host}]" if ":" in self.host else self.host
                self._bases[name] = f"http://{host}:{server.server_address[1]}/"
        except OSError as exc:
            self.stop()
            where = (
                f"{self.host}, ports {self.port}–{self.port + len(self.testbed.site_names()) - 1}"
                if self.port
                else self.host
            )
            raise ConfigError(f"cannot bind the testbed to {where}: {exc} (choose another --port)") from exc
        for name, server in self._servers.items():
            links = SiteLinks(own_base=self._bases[name], site_bases=dict(self._bases))
            server.app = make_site_app(self.testbed, name, links)
            thread = threading.Thread(
                target=server.serve_forever,
                kwargs={"poll_interval": 0.05},
                name=f"testbed-{name}",
                daemon=True,
            )
            thread.start()
            self._threads[name] = thread
        self._items_by_url = {self.url_for(item): item for item in self.testbed.items}
        logger.info("testbed serving %s", ", ".join(f"{n} at {u}" for n, u in self._bases.items()))
        return self

    def stop(self) -> None:
        """Stop every site and free the ports; safe to call twice."""
        self._stopping.set()
        for name, server in self._servers.items():
            thread = self._threads.get(name)
            if thread is not None and thread.is_alive():
                server.shutdown()
                thread.join(timeout=5)
            server.server_close()
        self._servers.clear()
        self._threads.clear()
        self._bases.clear()
        self._items_by_url.clear()

    def __enter__(self) -> TestbedServer:
        return self.start()

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.stop()

    # ------------------------------------------------------------------ addresses

    def site_names(self) -> list[str]:
        return self.testbed.site_names()

    def base_url(self, site: str) -> str:
        """'http://host:port/' of a running site."""
        self.testbed.site(site)
        if not self.running:
            raise StateError("the testbed server is not running: use it as a context manager or call start()")
        return self._bases[site]

    def allowed_hosts(self) -> list[str]:
        """'host:port' of every running site, for `FetchSettings.allowed_hosts`: the URL guard refuses
        loopback addresses unless they are named there."""
        if not self.running:
            raise StateError("the testbed server is not running: use it as a context manager or call start()")
        host = f"[{self.host}]" if ":" in self.host else self.host
        return [f"{host}:{server.server_address[1]}" for server in self._servers.values()]

    def url_for(self, item: Item | str) -> str:
        """The canonical absolute URL of an item (or item id) on the running server."""
        resolved = self.testbed.item(item) if isinstance(item, str) else item
        return address_key(self.base_url(resolved.site).rstrip("/") + resolved.path)

    def item_for_url(self, url: str) -> Item | None:
        """The item whose page `url` is (after canonicalisation), or None."""
        if not self.running:
            raise StateError("the testbed server is not running: use it as a context manager or call start()")
        canonical = page_address(url)
        return self._items_by_url.get(canonical) if canonical else None

    def relevant_urls(self, query_id: str) -> set[str]:
        """Ground truth of a query as canonical absolute URLs on the running server."""
        return {self.url_for(item) for item in self.testbed.relevant_items(query_id)}

    # ------------------------------------------------------------------ what happened

    def hits(self, site: str) -> list[Hit]:
        """Requests `site` received since start (or the last `reset_hits`), in arrival order; kept after stop."""
        self.testbed.site(site)
        return self._log.of(site)

    @property
    def total_hits(self) -> int:
        """Requests all sites received since start (or the last `reset_hits`)."""
        return self._log.total()

    def reset_hits(self) -> None:
        self._log.clear()

    def hit_counts(self) -> dict[str, int]:
        """How many requests each site has received so far (a mark for `robots_violations`)."""
        return {site: len(self._log.of(site)) for site in self.site_names()}

    def robots_violations(self, *, since: Mapping[str, int] | None = None) -> dict[str, list[str]]:
        """Per site, the requests it received (after the first `since[site]`) that its robots.txt forbids to any
        crawler: what a polite crawler never sends."""
        found: dict[str, list[str]] = {}
        for site, server in self._servers.items():
            if server.app is None:
                continue
            rules = Protego.parse(server.app.robots_txt())
            base = self._bases[site].rstrip("/")
            hits = self._log.of(site)[(since or {}).get(site, 0) :]
            found[site] = [hit.path for hit in hits if not rules.can_fetch(base + hit.path, "*")]
        return found

    def link_graph(self, site: str, *, max_trap_pages: int = DEFAULT_MAX_TRAP_PAGES) -> nx.DiGraph:
        """The site's link graph with nodes as the running server's canonical URLs (see `link_graph`)."""
        self.base_url(site)
        app = self._servers[site].app
        if app is None:
            raise StateError(f"testbed site {site!r} has no application attached")
        return build_link_graph(app, max_trap_pages=max_trap_pages)
