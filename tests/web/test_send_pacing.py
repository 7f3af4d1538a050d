"""A plain-HTTP request begins on its host's schedule as its headers are written (`SendPacing`), and each request
that goes on the wire (redirect hops, retries) takes its own turn: checked against a loopback server that stamps
each request with the kernel's arrival time."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import socket
import struct
import threading
import time
from collections.abc import Iterator

import httpx
import pytest

from research_crawler.config.fetch_settings import FetchSettings
from research_crawler.web.http_transport import HttpTransport
from research_crawler.web.politeness import HostPoliteness
from research_crawler.web.shared_politeness import LocalHostSchedule
from research_crawler.web.url_guard import UrlGuard

_SO_TIMESTAMPNS = 35  # Linux: the kernel stamps each received segment with its arrival (wall clock)
#: The server turns the kernel's wall-clock stamp into monotonic time by reading both clocks one after the other:
#: its only error, a few microseconds (more if its thread is preempted in between), is what this tolerance covers.
CLOCKS_S = 0.003


class StampingServer:
    """Answers GETs on loopback (keep-alive): /hop redirects to /retry, whose first answer is a 503 (Retry-After 0)
    and the next a page. `arrivals` lists (path, kernel arrival in `time.monotonic()`) in order."""

    def __init__(self) -> None:
        self._listener = socket.create_server(("127.0.0.1", 0))
        self._listener.setsockopt(socket.SOL_SOCKET, _SO_TIMESTAMPNS, 1)
        self.port = self._listener.getsockname()[1]
        self.arrivals: list[tuple[str, float]] = []
        self._retried = False
        threading.Thread(target=self._accept, daemon=True).start()

    def close(self) -> None:
        self._listener.close()

    def _accept(self) -> None:
        while True:
            try:
                connection, _ = self._listener.accept()
            except OSError:
                return
            threading.Thread(target=self._serve, args=(connection,), daemon=True).start()

    def _serve(self, connection: socket.socket) -> None:
        with connection:
            while True:
                data, controls, _, _ = connection.recvmsg(1, socket.CMSG_SPACE(16), socket.MSG_PEEK)
                if not data:
                    return
                monotonic_now, wall_now = time.monotonic(), time.time()
                seconds, nanoseconds = struct.unpack("qq", controls[0][2][:16])
                arrived = monotonic_now - (wall_now - (seconds + nanoseconds / 1e9))
                head = b""
                while b"\r\n\r\n" not in head:
                    head += connection.recv(4096)
                path = head.split(b" ")[1].decode()
                self.arrivals.append((path, arrived))
                connection.sendall(self._answer(path))

    def _answer(self, path: str) -> bytes:
        if path == "/hop":
            return b"HTTP/1.1 302 Found\r\nLocation: /retry\r\nContent-Length: 0\r\n\r\n"
        if not self._retried:
            self._retried = True
            return b"HTTP/1.1 503 Busy\r\nRetry-After: 0\r\nContent-Length: 0\r\n\r\n"
        return b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: 13\r\n\r\n<p>a page</p>"


class RecordingSchedule(LocalHostSchedule):
    """The local schedule, noting when each begin was granted and each send reported."""

    def __init__(self) -> None:
        super().__init__()
        self.granted: list[float] = []
        self.reported: list[float] = []

    def begin(self, host: str, delay_s: float, *, ticket: str | None = None) -> float:
        pause = super().begin(host, delay_s, ticket=ticket)
        if pause == 0:
            self.granted.append(self.now())
        return pause

    def sent(self, host: str, ticket: str, at: float) -> None:
        self.reported.append(at)
        super().sent(host, ticket, at)


@pytest.fixture
def server() -> Iterator[StampingServer]:
    running = StampingServer()
    yield running
    running.close()


async def test_each_request_on_the_wire_begins_as_its_headers_are_written(
    server: StampingServer, fast_settings: FetchSettings
) -> None:
    delay = 0.2
    resolving_s = 0.4

    async def slow_resolver(host: str, port: int) -> list[str]:
        # Between the request handed to httpx and its headers written: the name's resolution (then a connection).
        await asyncio.sleep(resolving_s)
        return ["127.0.0.1"]

    settings = fast_settings.model_copy(update={"per_host_delay_s": delay, "allowed_hosts": ["slow.test"]})
    schedule = RecordingSchedule()
    politeness = HostPoliteness(delay_s=delay, concurrency=1, max_crawl_delay_s=30, schedule=schedule)
    guard = UrlGuard(allowed_hosts=settings.allowed_hosts, resolver=slow_resolver)
    transport = HttpTransport(settings, politeness=politeness, guard=guard)
    try:
        raw = await transport.get(f"http://slow.test:{server.port}/hop", max_bytes=10_000, max_redirects=2)
    finally:
        await transport.aclose()
    assert raw.status == 200 and raw.body == b"<p>a page</p>", raw.reason
    # the first request, its redirect hop and the hop's retry: three requests on the wire, three turns taken
    assert [path for path, _ in server.arrivals] == ["/hop", "/retry", "/retry"]
    arrivals = [arrived for _, arrived in server.arrivals]
    for granted, arrived in zip(schedule.granted, arrivals, strict=True):
        # Begun as the headers left: not before the name was resolved (0.4 s earlier for the first request).
        assert granted <= arrived + CLOCKS_S and arrived - granted < resolving_s / 4, (granted, arrived)
    # and reported sent once the server's kernel had them: the next request's gap counts from then
    assert len(schedule.reported) == 3
    assert all(reported >= arrived - CLOCKS_S for reported, arrived in zip(schedule.reported, arrivals, strict=True))
    gaps = [later - earlier for earlier, later in itertools.pairwise(arrivals)]
    assert min(gaps) >= delay - CLOCKS_S, gaps


async def test_nothing_begins_when_nothing_is_written(fast_settings: FetchSettings) -> None:
    with contextlib.closing(socket.socket()) as unused:
        unused.bind(("127.0.0.1", 0))
        port = unused.getsockname()[1]  # nothing listens there once closed
    schedule = RecordingSchedule()
    politeness = HostPoliteness(delay_s=0.0, concurrency=1, max_crawl_delay_s=30, schedule=schedule)
    settings = fast_settings.model_copy(update={"max_retries": 1})
    transport = HttpTransport(settings, politeness=politeness)
    try:
        raw = await transport.get(f"http://127.0.0.1:{port}/", max_bytes=1000, max_redirects=0)
    finally:
        await transport.aclose()
    assert raw.status is None and raw.attempts == 2, raw.reason  # refused twice: the retry was tried
    assert schedule.granted == [] and schedule.reported == []


async def test_a_transport_that_writes_nothing_paces_each_request_as_it_is_handed_over(
    fast_settings: FetchSettings,
) -> None:
    handed_over: list[float] = []

    def answer(request: httpx.Request) -> httpx.Response:
        handed_over.append(time.monotonic())
        return httpx.Response(200, headers={"content-type": "text/html"}, stream=httpx.ByteStream(b"<p>page</p>"))

    delay = 0.1
    schedule = RecordingSchedule()
    politeness = HostPoliteness(delay_s=delay, concurrency=2, max_crawl_delay_s=30, schedule=schedule)
    transport = HttpTransport(fast_settings, politeness=politeness, transport=httpx.MockTransport(answer))
    try:
        pages = await asyncio.gather(
            *(transport.get(f"http://127.0.0.1:9/p{n}", max_bytes=1000, max_redirects=0) for n in range(3))
        )
    finally:
        await transport.aclose()
    assert [page.status for page in pages] == [200] * 3
    assert len(schedule.granted) == len(schedule.reported) == len(handed_over) == 3
    assert min(later - earlier for earlier, later in itertools.pairwise(sorted(handed_over))) >= delay - CLOCKS_S
