"""Catalogue cases of the fetch layer's network faults and bad content, each against its own loopback fault
server; `fast_settings` and `fetch_all` serve the other fetch cases too (`crawl_cases.py`)."""

from __future__ import annotations

import asyncio
import logging
import time
import tracemalloc
import zlib
from typing import Any

from research_crawler.config.settings import FetchSettings
from research_crawler.eval.reliability.catalogue import Outcome, case, no_chromium
from research_crawler.eval.reliability.fault_web import FaultServer, Reply, brotli_bomb, gzip_bomb
from research_crawler.pages.page import Determination, Page
from research_crawler.web.fetcher import Fetcher

__all__ = ["LISTING", "fast_settings", "fetch_all", "redirect"]

logger = logging.getLogger(__name__)

LISTING = "<html><head><title>Papers</title></head><body><a href='/abs/1'>Paper one</a></body></html>"
_DEADLINE_S = 3.0


def fast_settings(*servers: FaultServer, **changes: Any) -> FetchSettings:
    """Fetch settings scaled down for fault cases, allowing exactly these servers (host:port)."""
    values: dict[str, Any] = {
        "allowed_hosts": [server.host_port for server in servers],
        "per_host_delay_s": 0.0,
        "connect_timeout_s": 2.0,
        "read_timeout_s": 2.0,
        "page_deadline_s": _DEADLINE_S,
        "backoff_base_s": 0.05,
        "backoff_max_s": 0.2,
        "max_retry_after_s": 5.0,
        **changes,
    }
    return FetchSettings(**values)


async def fetch_all(settings: FetchSettings, *urls: str, **options: Any) -> list[Page]:
    async with Fetcher(settings, **options) as fetcher:
        return [await fetcher.fetch(url) for url in urls]


def redirect(location: str, status: int = 302) -> Reply:
    return Reply(status, "", headers={"Location": location})


# -- network faults -----------------------------------------------------------------------------------


@case("network faults", "503, 503, 200 is three hits and a stored page")
async def _retried_503() -> Outcome:
    with FaultServer() as server:
        server.route("/p", Reply(503), Reply(503), Reply(200, LISTING))
        pages = await fetch_all(fast_settings(server), server.url("/p"))
        hits = len(server.hits_for("/p"))
    return Outcome(pages[0].ok and hits == 3, f"{hits} hits, {pages[0].determination}", pages, _DEADLINE_S)


@case("network faults", "4 x 503 gives up with a record and the crawl goes on")
async def _gave_up() -> Outcome:
    with FaultServer() as server:
        server.route("/p", Reply(503))
        server.page("/next", LISTING)
        pages = await fetch_all(fast_settings(server), server.url("/p"), server.url("/next"))
    first, following = pages
    held = first.determination is Determination.HTTP_ERROR and "after 3 attempts" in first.reason and following.ok
    return Outcome(held, f"{first.reason}; next page {following.determination}", pages, _DEADLINE_S)


@case("network faults", "429 + Retry-After waits on that host only")
async def _rate_limited() -> Outcome:
    with FaultServer() as slow, FaultServer() as other:
        slow.route("/p", Reply(429, headers={"Retry-After": "1"}), Reply(200, LISTING))
        other.page("/q", LISTING)
        settings = fast_settings(slow, other)
        async with Fetcher(settings) as fetcher:
            started = time.monotonic()
            task = asyncio.create_task(fetcher.fetch(slow.url("/p")))
            await asyncio.sleep(0.05)
            quick = await fetcher.fetch(other.url("/q"))
            quick_s = time.monotonic() - started
            limited = await task
        hits = [hit.at for hit in slow.hits_for("/p")]
    gap = hits[1] - hits[0] if len(hits) == 2 else 0.0
    held = limited.ok and gap >= 0.95 and quick.ok and quick_s < 0.9
    return Outcome(held, f"gap {gap:.2f} s after 429; other host done in {quick_s:.2f} s", [limited, quick], 5.0)


@case("network faults", "refused port: bounded retries, network_error")
async def _refused_port() -> Outcome:
    with FaultServer() as server:
        url = server.url("/x")
        settings = fast_settings(server, obey_robots=False)
    pages = await fetch_all(settings, url)  # the server is gone: its port refuses
    page = pages[0]
    held = page.determination is Determination.NETWORK_ERROR and page.attempts == settings.max_retries + 1
    return Outcome(held, f"{page.determination}: {page.reason}", pages, _DEADLINE_S)


@case("network faults", "unresolvable host: bounded retries, network_error")
async def _unresolvable() -> Outcome:
    async def nothing(host: str, port: int) -> list[str]:
        raise OSError(f"{host}: Name or service not known")

    settings = fast_settings(obey_robots=False, allowed_hosts=["nowhere.invalid"])
    pages = await fetch_all(settings, "http://nowhere.invalid/x", resolver=nothing)
    page = pages[0]
    held = page.determination is Determination.NETWORK_ERROR and page.attempts == settings.max_retries + 1
    return Outcome(held, f"{page.determination}: {page.reason}", pages, _DEADLINE_S)


@case("network faults", "headers then a stalled body fail at the deadline")
async def _stalled() -> Outcome:
    with FaultServer() as server:
        server.route("/p", Reply(200, LISTING, stall_s=30))
        settings = fast_settings(server, page_deadline_s=1.5, read_timeout_s=5.0)
        pages = await fetch_all(settings, server.url("/p"))
    page = pages[0]
    held = page.determination is Determination.TIMEOUT and page.elapsed_s < 1.5 + 0.5
    return Outcome(held, f"{page.determination} after {page.elapsed_s:.2f} s", pages, 1.5)


@case("network faults", "a body trickled byte by byte hits the total deadline")
async def _trickled() -> Outcome:
    with FaultServer() as server:
        server.route("/p", Reply(200, LISTING * 20, trickle_s=0.05))
        settings = fast_settings(server, page_deadline_s=1.5)
        pages = await fetch_all(settings, server.url("/p"))
    page = pages[0]
    held = page.determination is Determination.TIMEOUT and page.elapsed_s < 1.5 + 0.5
    return Outcome(held, f"{page.determination} after {page.elapsed_s:.2f} s", pages, 1.5)


@case("network faults", "a body shorter than Content-Length is never stored")
async def _short_body() -> Outcome:
    with FaultServer() as server:
        server.route("/p", Reply(200, LISTING, content_length=len(LISTING) + 500))
        pages = await fetch_all(fast_settings(server, max_retries=1), server.url("/p"))
    page = pages[0]
    held = not page.ok and page.markdown == "" and page.html == ""
    return Outcome(held, f"{page.determination}: {page.reason}", pages, _DEADLINE_S)


@case("network faults", "a garbage status line is a clean error")
async def _garbage() -> Outcome:
    with FaultServer() as server:
        server.route("/p", Reply(raw=b"HTTP/1.1 banana\r\n\r\nwhatever"))
        server.route("/h", Reply(raw=b"HTTP/1.1 200 OK\r\nContent-Length: x\r\n\x00\x01:::\r\n\r\nbody"))
        pages = await fetch_all(fast_settings(server, max_retries=0), server.url("/p"), server.url("/h"))
    held = all(page.determination is Determination.NETWORK_ERROR for page in pages)
    return Outcome(held, "; ".join(f"{p.determination}: {p.reason[:60]}" for p in pages), pages, _DEADLINE_S)


@case("network faults", "endless JavaScript: timeout, tab closed, Chromium count back to baseline")
async def _endless_javascript() -> Outcome:
    from research_crawler.web.browser import chromium_process_count

    if (skipped := no_chromium()) is not None:
        return skipped
    spin = "<html><head><title>spin</title></head><body><script>while (true) {}</script></body></html>"
    with FaultServer() as server:
        server.page("/before", LISTING)
        server.page("/after", LISTING)
        server.page("/spin", spin)
        baseline = chromium_process_count()
        settings = fast_settings(server, page_deadline_s=2.0, browser_wait_s=0.2)
        async with Fetcher(settings) as fetcher:
            before = await fetcher.fetch(server.url("/before"), render="browser")
            page = await fetcher.fetch(server.url("/spin"), render="browser")
            after = await fetcher.fetch(server.url("/after"), render="browser")
        count = chromium_process_count()
    held = before.ok and page.determination is Determination.TIMEOUT and after.ok and count == baseline
    # The reason says how long closing the tab took after the deadline fired (Chromium needs about half a
    # second to close a tab whose renderer is stuck in a script): the overrun is the page's, and shown.
    detail = f"{page.determination} after {page.elapsed_s:.2f} s: {page.reason}; processes {baseline} -> {count}"
    detail += f"; the next page {after.determination}"
    return Outcome(held, detail, [page], 2.0)  # the first fetch also started the browser: not a page's time


# -- bad content -----------------------------------------------------------------------------------------


async def _bomb(body: bytes, encoding: str) -> Outcome:
    cap = 200_000
    with FaultServer() as server:
        server.route("/bomb", Reply(200, body, headers={"Content-Encoding": encoding}))
        tracemalloc.start()
        try:
            pages = await fetch_all(fast_settings(server, max_page_bytes=cap), server.url("/bomb"))
            _, peak = tracemalloc.get_traced_memory()
        finally:
            tracemalloc.stop()
    page = pages[0]
    held = page.determination is Determination.TOO_LARGE and peak < 30 * cap
    return Outcome(
        held, f"{page.determination}; peak {peak / 1e6:.1f} MB for a {cap / 1e3:.0f} kB cap", pages, _DEADLINE_S
    )


@case("bad content", "gzip bomb cut at the cap with bounded memory")
async def _gzip_bomb() -> Outcome:
    return await _bomb(gzip_bomb(200_000_000), "gzip")


@case("bad content", "brotli bomb cut at the cap with bounded memory")
async def _brotli_bomb() -> Outcome:
    return await _bomb(brotli_bomb(200_000_000), "br")


@case("bad content", "deflate bomb cut at the cap")
async def _deflate_bomb() -> Outcome:
    return await _bomb(zlib.compress(b"<html>" + b" " * 50_000_000, 9), "deflate")


@case("bad content", "oversized chunked body cut at the cap")
async def _chunked() -> Outcome:
    chunk = b"x" * 65_536
    body = b"".join(b"%x\r\n" % len(chunk) + chunk + b"\r\n" for _ in range(40)) + b"0\r\n\r\n"
    raw = (
        b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n" + body
    )
    with FaultServer() as server:
        server.route("/big", Reply(raw=raw))
        pages = await fetch_all(fast_settings(server, max_page_bytes=500_000), server.url("/big"))
    page = pages[0]
    return Outcome(page.determination is Determination.TOO_LARGE, f"{page.determination}", pages, _DEADLINE_S)


@case("bad content", "wrong or conflicting charsets and a BOM give valid text")
async def _charsets() -> Outcome:
    text = "<html><head><meta charset='utf-8'><title>Café Müller</title></head><body>naïve façade</body></html>"
    with FaultServer() as server:
        server.route("/latin", Reply(200, text.encode("utf-8"), content_type="text/html; charset=iso-8859-1"))
        server.route(
            "/bom", Reply(200, b"\xef\xbb\xbf" + text.encode("utf-8"), content_type="text/html; charset=ascii")
        )
        server.route("/cp1252", Reply(200, text.encode("cp1252"), content_type="text/html; charset=windows-1252"))
        server.route(
            "/broken", Reply(200, b"<html><body>ok \xff\xfe\xfa bytes</body></html>", content_type="text/html")
        )
        pages = await fetch_all(
            fast_settings(server), *(server.url(p) for p in ("/latin", "/bom", "/cp1252", "/broken"))
        )
    valid = all(page.ok and page.markdown.encode("utf-8").decode("utf-8") == page.markdown for page in pages)
    held = valid and all("naïve" in page.markdown for page in pages[1:3])
    return Outcome(held, " | ".join(page.markdown[:30].replace("\n", " ") for page in pages), pages, _DEADLINE_S)


@case("bad content", "PDF or binary served as text/html is not read as text")
async def _binary_as_html() -> Outcome:
    with FaultServer() as server:
        server.route("/pdf", Reply(200, b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj<<>>endobj", content_type="text/html"))
        server.route("/bin", Reply(200, bytes(range(256)) * 40, content_type="text/html"))
        pages = await fetch_all(fast_settings(server), server.url("/pdf"), server.url("/bin"))
    held = all(page.determination is Determination.NON_HTML and page.markdown == "" for page in pages)
    return Outcome(held, ", ".join(str(page.determination) for page in pages), pages, _DEADLINE_S)


@case("bad content", "10 000 links and a very deep DOM: capped, parsed in bounded time")
async def _many_links() -> Outcome:
    links = "".join(f"<a href='/p/{n}'>paper {n}</a> " for n in range(10_000))
    deep = "<div>" * 5000 + "deep text" + "</div>" * 5000
    with FaultServer() as server:
        server.page("/links", f"<html><body>{links}</body></html>")
        server.page("/deep", f"<html><body>{deep}<a href='/x'>x</a></body></html>")
        started = time.monotonic()
        pages = await fetch_all(
            fast_settings(server, max_links_per_page=100, page_deadline_s=10.0),
            server.url("/links"),
            server.url("/deep"),
        )
        seconds = time.monotonic() - started
    many, deep_page = pages
    held = many.ok and len(many.links) == 100 and deep_page.ok and seconds < 20
    times = f"{many.elapsed_s:.2f} s and {deep_page.elapsed_s:.2f} s"
    detail = f"{len(many.links)} links kept ({many.reason}); deep DOM {deep_page.determination}; fetched in {times}"
    return Outcome(held, detail, pages, 10.0)
