"""HTTP servers on loopback, one per site, each served by a daemon thread: starting and stopping them, for the
test kits that serve sites of their own (the faulty testbed, the saved real pages)."""

from __future__ import annotations

import threading
from http.server import ThreadingHTTPServer
from types import TracebackType
from typing import Generic, Self, TypeVar

__all__ = ["SiteServers"]

ServerT = TypeVar("ServerT", bound=ThreadingHTTPServer)


class SiteServers(Generic[ServerT]):
    """A context manager over `_servers` (site name → server): `start` creates them and calls `_serve_all`; `stop`
    (or leaving the block) shuts every one down and joins its thread."""

    def __init__(self) -> None:
        self._servers: dict[str, ServerT] = {}
        self._threads: list[threading.Thread] = []

    def start(self) -> Self:
        raise NotImplementedError

    def _serve_all(self, thread_prefix: str) -> None:
        """Serve each server of `_servers` on a daemon thread of its own."""
        for site, server in self._servers.items():
            thread = threading.Thread(
                target=server.serve_forever, kwargs={"poll_interval": 0.05}, name=f"{thread_prefix}-{site}", daemon=True
            )
            thread.start()
            self._threads.append(thread)

    def stop(self) -> None:
        for server in self._servers.values():
            server.shutdown()
            server.server_close()
        for thread in self._threads:
            thread.join(timeout=5)
        self._servers.clear()
        self._threads.clear()

    def __enter__(self) -> Self:
        return self.start()

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.stop()
