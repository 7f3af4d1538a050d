"""A render's page request leaves its proxy on the host's schedule: the navigation and its redirect hops wait for
their turn, the sub-resources do not; HTTPS tunnels are paced as they open and end with the render's proxy."""

from __future__ import annotations

import asyncio
import itertools
from urllib.parse import urlsplit

import pytest
from fault_server import FaultServer, Reply

from research_crawler.web.guard_proxy import GuardProxy
from research_crawler.web.pacing import RenderPacing
from research_crawler.web.politeness import HostPoliteness
from research_crawler.web.url_guard import UrlGuard

GUARD = UrlGuard(allowed_hosts=["127.0.0.1"])


class Turns:
    """A `begin` that records each host whose turn was asked for; `hold` keeps the next turns waiting."""

    def __init__(self) -> None:
        self.hosts: list[str] = []
        self.hold = asyncio.Event()
        self.hold.set()

    async def begin(self, host: str) -> None:
        await self.hold.wait()
        self.hosts.append(host)


async def _through(proxy: GuardProxy, request: str) -> bytes:
    """Send one request head to the proxy and read the whole answer."""
    address = urlsplit(proxy.url)
    reader, writer = await asyncio.open_connection(address.hostname, address.port)
    writer.write(request.encode())
    await writer.drain()
    answer = await reader.read()
    writer.close()
    return answer


async def _get(proxy: GuardProxy, url: str) -> bytes:
    return await _through(proxy, f"GET {url} HTTP/1.1\r\nHost: {urlsplit(url).netloc}\r\n\r\n")


async def _tunnel(proxy: GuardProxy, host_port: str) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    address = urlsplit(proxy.url)
    reader, writer = await asyncio.open_connection(address.hostname, address.port)
    writer.write(f"CONNECT {host_port} HTTP/1.1\r\n\r\n".encode())
    await writer.drain()
    assert (await reader.readuntil(b"\r\n\r\n")).startswith(b"HTTP/1.1 200")
    return reader, writer


async def test_the_navigation_and_its_redirect_hops_are_paced_and_the_sub_resources_are_not(
    fault_server: FaultServer,
) -> None:
    fault_server.route("/start", Reply(302, headers={"Location": "/next"}))
    fault_server.page("/next", "<html><link rel=stylesheet href=/style.css></html>")
    fault_server.page("/style.css", "p {}")
    turns = Turns()
    pacing = RenderPacing(turns.begin)
    proxy = await GuardProxy(GUARD, pacing=pacing).start()
    try:
        assert (await _get(proxy, fault_server.url("/start"))).startswith(b"HTTP/1.0 302")
        assert pacing.navigating  # a redirect: the next request is the navigation's next hop
        assert (await _get(proxy, fault_server.url("/next"))).startswith(b"HTTP/1.0 200")
        assert not pacing.navigating
        assert (await _get(proxy, fault_server.url("/style.css"))).endswith(b"p {}")
    finally:
        await proxy.aclose()
    assert pacing.paced == [fault_server.url("/start"), fault_server.url("/next")]
    assert turns.hosts == [fault_server.host_port] * 2
    assert [hit.path for hit in fault_server.page_hits()] == ["/start", "/next", "/style.css"]


async def test_a_refused_request_never_takes_a_turn(fault_server: FaultServer) -> None:
    turns = Turns()
    proxy = await GuardProxy(UrlGuard(), pacing=RenderPacing(turns.begin)).start()  # loopback refused
    try:
        assert (await _get(proxy, fault_server.url("/page"))).startswith(b"HTTP/1.1 403")
    finally:
        await proxy.aclose()
    assert turns.hosts == [] and fault_server.hits == []


async def test_two_renders_at_once_keep_the_hosts_pace_from_when_their_requests_leave(
    fault_server: FaultServer,
) -> None:
    """Two renders (two proxies) on one schedule with a 0.25 s delay: the server sees their page requests that far
    apart (a few milliseconds allowed for the server's thread to log them), and each render's own page is paced,
    whatever the other's navigation did."""
    delay = 0.25
    politeness = HostPoliteness(delay_s=delay, concurrency=4, max_crawl_delay_s=10)
    for path in ("/a", "/b", "/c"):
        fault_server.page(path, "<html>page</html>")
    pacings = [RenderPacing(politeness.begin) for _ in range(3)]
    proxies = [await GuardProxy(GUARD, pacing=pacing).start() for pacing in pacings]
    try:
        await asyncio.gather(
            *(_get(proxy, fault_server.url(path)) for proxy, path in zip(proxies, ("/a", "/b", "/c"), strict=True))
        )
    finally:
        for proxy in proxies:
            await proxy.aclose()
    assert all(len(pacing.paced) == 1 for pacing in pacings)
    times = sorted(hit.at for hit in fault_server.page_hits())
    assert len(times) == 3
    assert min(later - earlier for earlier, later in itertools.pairwise(times)) >= delay - 0.005


async def test_a_page_request_reports_when_it_left_so_the_hosts_gap_counts_from_its_send(
    fault_server: FaultServer,
) -> None:
    """With the two-phase turn (as on Ray, where the grant is a remote call answered later), the proxy tells the
    schedule when the request was written: the host is released then and the next request waits one delay from
    it — not the 2 s a turn is held for a sender that never reports."""
    from research_crawler.web.shared_politeness import SEND_REPORT_TIMEOUT_S

    delay = 0.3
    politeness = HostPoliteness(delay_s=delay, concurrency=4, max_crawl_delay_s=10)
    fault_server.page("/a", "<html>page</html>")
    pacing = RenderPacing(politeness.begin_send, politeness.sent)
    proxy = await GuardProxy(GUARD, pacing=pacing).start()
    try:
        assert (await _get(proxy, fault_server.url("/a"))).startswith(b"HTTP/1.")
    finally:
        await proxy.aclose()
    (arrived,) = [hit.at for hit in fault_server.page_hits()]
    loop = asyncio.get_running_loop()
    asked = loop.time()
    ticket = await politeness.begin_send(urlsplit(fault_server.url("/a")).netloc)
    waited = loop.time() - asked
    assert ticket and waited < SEND_REPORT_TIMEOUT_S / 2, f"the host was held: waited {waited:.2f} s"
    assert pacing.paced == [fault_server.url("/a")] and arrived > 0


async def test_tunnels_are_paced_as_they_open_while_the_render_navigates(
    fault_server: FaultServer, other_server: FaultServer
) -> None:
    turns = Turns()
    pacing = RenderPacing(turns.begin)
    proxy = await GuardProxy(GUARD, pacing=pacing).start()
    opened: list[tuple[asyncio.StreamReader, asyncio.StreamWriter]] = []
    try:
        turns.hold.clear()  # the host's turn is not there yet
        first = asyncio.create_task(_tunnel(proxy, fault_server.host_port))
        second = asyncio.create_task(_tunnel(proxy, fault_server.host_port))  # a second socket beside it
        await asyncio.sleep(0.2)
        assert not first.done() and not second.done()  # neither may carry the page request before the turn
        turns.hold.set()
        opened += [await first, await second]
        assert turns.hosts == [fault_server.host_port]  # one turn for the page's host
        opened.append(await _tunnel(proxy, other_server.host_port))  # another host before the document: a hop
        assert turns.hosts == [fault_server.host_port, other_server.host_port]
        pacing.document_arrived()
        opened.append(await _tunnel(proxy, other_server.host_port))
        assert len(turns.hosts) == 2  # once the document is there, what the page loads is not paced
    finally:
        for _, writer in opened:
            writer.close()
        await proxy.aclose()


async def test_closing_a_renders_proxy_ends_its_tunnels(fault_server: FaultServer) -> None:
    """A tunnel the browser would keep alive cannot carry a later render's page request past its turn: it ends with
    the render that opened it."""
    proxy = await GuardProxy(GUARD, pacing=RenderPacing(Turns().begin)).start()
    reader, writer = await _tunnel(proxy, fault_server.host_port)
    await proxy.aclose()
    assert await asyncio.wait_for(reader.read(), 5) == b""
    writer.close()


async def test_a_slot_that_leaves_the_begin_elsewhere_waits_its_turn_but_spends_none() -> None:
    now = [100.0]
    politeness = HostPoliteness(delay_s=1.0, concurrency=2, max_crawl_delay_s=10, clock=lambda: now[0])
    async with politeness.slot("site.org"):  # a plain request: begins at 100
        pass
    now[0] = 101.0
    async with politeness.slot("site.org", begins_here=False):  # a render: its turn is booked for 101…
        pass
    # …and its page request begins when it leaves, at once: the slot did not spend the turn it waited for.
    await asyncio.wait_for(politeness.begin("site.org"), 0.5)
    with pytest.raises(TimeoutError):  # the next request must wait a gap after that begin
        await asyncio.wait_for(politeness.begin("site.org"), 0.2)


async def test_a_render_that_ends_while_its_page_waits_for_its_turn_ends_that_request_quietly(
    fault_server: FaultServer, caplog: pytest.LogCaptureFixture
) -> None:
    fault_server.page("/page", "<html>page</html>")
    turns = Turns()
    turns.hold.clear()  # the host's turn never comes during this render
    proxy = await GuardProxy(GUARD, pacing=RenderPacing(turns.begin)).start()
    loop_errors: list[dict[str, object]] = []
    asyncio.get_running_loop().set_exception_handler(lambda _, context: loop_errors.append(context))
    request = asyncio.create_task(_get(proxy, fault_server.url("/page")))
    await asyncio.sleep(0.2)
    await proxy.aclose()
    assert await asyncio.wait_for(request, 5) == b""  # the browser's connection is closed, nothing was sent
    await asyncio.sleep(0.05)
    assert fault_server.hits == [] and turns.hosts == []
    assert loop_errors == [] and "guard proxy failed" not in caplog.text
