"""The testbed web served from a process of its own, logging when each request arrived, for tests that time them.

In the test's own process the server's threads wait for the interpreter lock behind the crawler's work (parsing,
the browser driver), and even in a process of their own, on a machine busy with browsers, they may wait a tenth of
a second for a CPU: the time a request is logged at would trail its arrival by that much. So the log takes each
request's arrival from the kernel, which stamps the packet as it is received (``SO_TIMESTAMPNS``), in the
machine's monotonic clock (the same in every process).
"""

from __future__ import annotations

import multiprocessing
import socket
import struct
import threading
import time
from multiprocessing.connection import Connection
from typing import Any

from research_crawler.eval.testbed import Hit, TestbedServer, generate_testbed
from research_crawler.eval.testbed import server as testbed_server

__all__ = ["TestbedProcess"]

_START_TIMEOUT_S = 60.0
#: Linux's socket option (and control message) for receive timestamps in nanoseconds; Python does not name it.
_SO_TIMESTAMPNS = 35


def _kernel_arrival(connection: socket.socket) -> float | None:
    """Wait for the next request's first bytes on `connection` (left unread) and return when the kernel received them,
    in `time.monotonic()`; None when the peer closed or stayed idle, or the kernel gave no stamp."""
    try:
        data, controls, _, _ = connection.recvmsg(1, socket.CMSG_SPACE(16), socket.MSG_PEEK)
    except OSError:
        return None
    monotonic_now, wall_now = time.monotonic(), time.time()
    for level, kind, payload in controls:
        if data and level == socket.SOL_SOCKET and kind == _SO_TIMESTAMPNS and len(payload) >= 16:
            seconds, nanoseconds = struct.unpack("qq", payload[:16])
            return monotonic_now - (wall_now - (seconds + nanoseconds / 1e9))
    return None


def _log_kernel_arrivals() -> None:
    """In the server's process only: each hit is logged at its request's kernel arrival time."""
    arrival = threading.local()
    handler = testbed_server._Handler
    handle_one_request = handler.handle_one_request
    record = testbed_server._HitLog.record

    def stamped_request(self: Any) -> None:
        arrival.at = _kernel_arrival(self.connection)
        handle_one_request(self)

    def stamped_record(self: Any, site: str, target: str) -> None:
        at = getattr(arrival, "at", None)
        if at is None:
            record(self, site, target)
            return
        with self._lock:
            self._hits.setdefault(site, []).append(Hit(target, at))

    handler.handle_one_request = stamped_request  # type: ignore[method-assign]
    testbed_server._HitLog.record = stamped_record  # type: ignore[method-assign]


def _serve(commands: Connection, slow_seconds: float) -> None:
    _log_kernel_arrivals()
    with TestbedServer(generate_testbed(), slow_seconds=slow_seconds) as server:
        for site_server in server._servers.values():  # accepted connections inherit the listener's option
            site_server.socket.setsockopt(socket.SOL_SOCKET, _SO_TIMESTAMPNS, 1)
        commands.send({name: server.base_url(name) for name in server.site_names()} | {"": server.allowed_hosts()})
        while True:
            command, site = commands.recv()
            if command == "stop":
                return
            if command == "reset":
                server.reset_hits()
                commands.send(None)
            elif command == "hits":
                commands.send([tuple(hit) for hit in server.hits(site)])


class TestbedProcess:
    """The default testbed served by a child process: `base_url`, `allowed_hosts`, `hits`, `reset_hits`, `stop`."""

    __test__ = False  # not a pytest test class despite the name

    def __init__(self, *, slow_seconds: float = 0.0) -> None:
        context = multiprocessing.get_context("spawn")  # never fork a process that runs threads and event loops
        self._commands, child = context.Pipe()
        self._process = context.Process(target=_serve, args=(child, slow_seconds), daemon=True)
        self._process.start()
        if not self._commands.poll(_START_TIMEOUT_S):
            self._process.kill()
            raise RuntimeError("the testbed process did not start")
        self._urls: dict[str, Any] = self._commands.recv()

    def base_url(self, site: str) -> str:
        return str(self._urls[site])

    def allowed_hosts(self) -> list[str]:
        return list(self._urls[""])

    def reset_hits(self) -> None:
        self._commands.send(("reset", ""))
        self._commands.recv()

    def hits(self, site: str) -> list[Hit]:
        """Every request `site` received, with its arrival in `time.monotonic()` of this machine."""
        self._commands.send(("hits", site))
        return [Hit(path, at) for path, at in self._commands.recv()]

    def stop(self) -> None:
        if self._process.is_alive():
            self._commands.send(("stop", ""))
            self._process.join(10)
        if self._process.is_alive():
            self._process.kill()
            self._process.join(5)
