"""How many requests one model endpoint is sent at once, shared by every agent, site and query of the process.

A local server (llama.cpp, Ollama on a laptop) answers one request at a time: two agents asking at once (the Crawler
and the Collector read a page together) only make the second wait inside the server, where the wait counts against
its timeout. So requests queue here instead, before they are sent: the request timeout starts when the server gets
the request. `models.max_concurrent_requests` sets the number; by default it is 1 for a local endpoint (a loopback or
private address, ``localhost``) and unbounded for any other.
"""

from __future__ import annotations

import ipaddress
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from urllib.parse import urlsplit

__all__ = ["EndpointSlots", "concurrent_requests", "endpoint_slots", "is_local_endpoint"]

_lock = threading.Lock()
_slots: dict[tuple[str, int], EndpointSlots] = {}


def is_local_endpoint(base_url: str | None) -> bool:
    """Whether `base_url` is a server on this machine or its network: ``localhost``, a loopback, private or
    link-local address. None (OpenAI's own endpoint) is not."""
    if not base_url:
        return False
    host = (urlsplit(base_url).hostname or "").lower().rstrip(".")
    if host == "localhost" or host.endswith(".localhost"):
        return True
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return False
    return address.is_loopback or address.is_private or address.is_link_local


def concurrent_requests(base_url: str | None, setting: int | None) -> int | None:
    """The most requests sent to `base_url` at once: `setting` when set, else 1 for a local endpoint; None is no
    bound."""
    if setting is not None:
        return setting
    return 1 if is_local_endpoint(base_url) else None


class EndpointSlots:
    """A counting semaphore that says how long each request waited for its turn."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self._semaphore = threading.BoundedSemaphore(limit)

    @contextmanager
    def turn(self, clock: Callable[[], float] = time.monotonic) -> Iterator[float]:
        """Hold one slot for the body of the `with`; yields the seconds (by `clock`) spent waiting for it."""
        started = clock()
        self._semaphore.acquire()
        try:
            yield clock() - started
        finally:
            self._semaphore.release()


def endpoint_slots(base_url: str | None, setting: int | None) -> EndpointSlots | None:
    """The process's slots for `base_url` (one queue per endpoint and limit); None when it has no bound."""
    limit = concurrent_requests(base_url, setting)
    if limit is None:
        return None
    key = (base_url or "", limit)
    with _lock:
        slots = _slots.get(key)
        if slots is None:
            slots = _slots[key] = EndpointSlots(limit)
        return slots
