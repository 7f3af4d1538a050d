"""Catalogue cases of crawler traps and politeness, each against its own loopback fault server."""

from __future__ import annotations

import asyncio
import itertools
import logging
import time

from research_crawler.eval.reliability.catalogue import Outcome, case
from research_crawler.eval.reliability.fault_web import FaultServer, Reply
from research_crawler.eval.reliability.fetch_cases import LISTING, fast_settings, fetch_all, redirect
from research_crawler.pages.page import Determination, Page
from research_crawler.web.fetcher import Fetcher

__all__: list[str] = []

_DEADLINE_S = 3.0


# -- crawler traps ---------------------------------------------------------------------------------------


@case("crawler traps", "URLs longer than 2083 characters are rejected before any request")
async def _long_url() -> Outcome:
    with FaultServer() as server:
        pages = await fetch_all(fast_settings(server), server.url("/a" * 1100))
        hits = len(server.page_hits())
    page = pages[0]
    return Outcome(not page.ok and hits == 0 and "longer than" in page.reason, page.reason, pages, _DEADLINE_S)


@case("crawler traps", "session ids, parameter order, fragments and utm_* give one fetch")
async def _one_fetch() -> Outcome:
    spellings = (
        "/list?a=1&b=2",
        "/list?b=2&a=1",
        "/list?a=1&b=2#top",
        "/list?a=1&utm_source=x&b=2",
        "/list;jsessionid=ABC?a=1&b=2",
        "/list?a=1&b=2&sid=99",
        "/list?a=1&PHPSESSID=1&b=2",
    )
    with FaultServer() as server:
        for path in spellings:
            server.route(path.split("#")[0], Reply(200, LISTING))
        urls = [server.url(path) for path in spellings]
        pages = await fetch_all(fast_settings(server), *urls)
        hits = len(server.page_hits())
    return Outcome(
        hits == 1 and all(page.ok for page in pages), f"{hits} request(s) for {len(urls)} spellings", pages, _DEADLINE_S
    )


@case("crawler traps", "redirect loop and a 25-hop chain stop at the redirect limit")
async def _redirects() -> Outcome:
    with FaultServer() as server:
        server.route("/loop/a", redirect("/loop/b"))
        server.route("/loop/b", redirect("/loop/a"))
        for hop in range(25):
            server.route(f"/chain/{hop}", redirect(f"/chain/{hop + 1}"))
        server.page("/chain/25", LISTING)
        pages = await fetch_all(fast_settings(server), server.url("/loop/a"), server.url("/chain/0"))
        hits = len(server.page_hits())
    held = all(not page.ok and "redirects" in page.reason for page in pages) and hits <= 2 * 11
    return Outcome(held, f"{pages[0].reason[:50]} | {pages[1].reason[:50]}; {hits} hits", pages, _DEADLINE_S)


@case("crawler traps", "many pages redirecting to /login fetch it once")
async def _login() -> Outcome:
    with FaultServer() as server:
        for n in range(6):
            server.route(f"/members/{n}", redirect("/login"))
        server.page("/login", "<html><head><title>Log in</title></head><body>login</body></html>")
        pages = await fetch_all(fast_settings(server), *(server.url(f"/members/{n}") for n in range(6)))
        hits = len(server.hits_for("/login"))
    return Outcome(hits == 1 and all(page.ok for page in pages), f"/login fetched {hits} time(s)", pages, _DEADLINE_S)


@case("crawler traps", "repeated path segments /a/a/a/... are rejected")
async def _repeated_segments() -> Outcome:
    from research_crawler.context.web_context import WebContext
    from research_crawler.tools.hints import HintState
    from research_crawler.tools.navigation import LinkScore, save_links
    from research_crawler.web.page_building import html_page

    traps = ("/a/a/a/a/a/a/a/a", "/x/y/x/y/x/y/", "/list/next/next/next/page")
    fine = ("/journals/1/volumes/1/issues/1", "/a/a/b")
    with FaultServer() as server:
        for path in (*traps, *fine):
            server.route(path, Reply(200, LISTING))
        pages = await fetch_all(fast_settings(server), *(server.url(path) for path in (*traps, *fine)))
        trap_hits = sum(len(server.hits_for(path)) for path in traps)
        robots_hits = len(server.hits_for("/robots.txt"))
    refused = [page for page in pages[: len(traps)] if page.determination is Determination.REFUSED]
    fetched = [page for page in pages[len(traps) :] if page.ok]
    links = "".join(f"<a href='{path}'>link {n}</a>" for n, path in enumerate((*traps, *fine), 1))
    listing = html_page(
        f"<html><body>{links}</body></html>",
        url="http://papers.test/",
        final_url="http://papers.test/",
        site_url="http://papers.test/",
        status=200,
        content_type="text/html",
        render="http",
        attempts=1,
    )
    saved = save_links(
        WebContext.for_site("http://papers.test/"),
        listing,
        [LinkScore(id=link.id, score=5) for link in listing.links],
        state=HintState(subpages_left=3, items_collected=0),
    )
    held = (
        len(refused) == len(traps)
        and trap_hits == 0
        and len(fetched) == len(fine)
        and len(saved.queued) == len(fine)
        and sum("crawler trap" in reason for reason in saved.rejected) == len(traps)
    )
    detail = (
        f"fetch: {len(refused)} of {len(traps)} traps refused before any request ({trap_hits} hits; robots.txt "
        f"{robots_hits} hit(s), for the real pages), {len(fetched)} of {len(fine)} look-alikes fetched; queue: "
        f"{len(saved.queued)} queued, {len(saved.rejected)} rejected as traps"
    )
    return Outcome(held, detail, pages, _DEADLINE_S)


# -- politeness --------------------------------------------------------------------------------------------


@case("politeness", "robots.txt Allow/Disallow with * and $")
async def _robots_rules() -> Outcome:
    rules = "User-agent: *\nDisallow: /private/\nDisallow: /*.pdf$\nAllow: /private/open$\n"
    with FaultServer() as server:
        server.robots(rules)
        for path in ("/private/x", "/private/open", "/paper.pdf", "/paper.pdf?x=1", "/public"):
            server.page(path, LISTING)
        pages = await fetch_all(
            fast_settings(server),
            *(server.url(p) for p in ("/private/x", "/private/open", "/paper.pdf", "/paper.pdf?x=1", "/public")),
        )
    expected = [False, True, False, True, True]
    got = [page.ok for page in pages]
    return Outcome(got == expected, f"allowed: {got}", pages, _DEADLINE_S)


@case("politeness", "robots.txt 404 allows, 500/503/timeout disallow for now")
async def _robots_failures() -> Outcome:
    results = []
    pages: list[Page] = []
    for label, reply in (
        ("404", Reply(404, "no")),
        ("500", Reply(500)),
        ("503", Reply(503)),
        ("timeout", Reply(200, "User-agent: *\n", stall_s=30)),
    ):
        with FaultServer() as server:
            server.route("/robots.txt", reply)
            server.page("/p", LISTING)
            fetched = await fetch_all(fast_settings(server, page_deadline_s=1.0, max_retries=0), server.url("/p"))
            pages += fetched
            results.append((label, fetched[0].ok, len(server.hits_for("/p"))))
    held = results[0][1:] == (True, 1) and all(not ok and hits == 0 for _, ok, hits in results[1:])
    return Outcome(held, ", ".join(f"{label}: {'allow' if ok else 'disallow'}" for label, ok, _ in results), pages, 1.0)


@case("politeness", "Crawl-delay 2 gives gaps of at least 2 s")
async def _crawl_delay() -> Outcome:
    with FaultServer() as server:
        server.robots("User-agent: *\nCrawl-delay: 2\n")
        server.page("/a", LISTING)
        server.page("/b", LISTING)
        async with Fetcher(fast_settings(server)) as fetcher:
            pages = list(await asyncio.gather(fetcher.fetch(server.url("/a")), fetcher.fetch(server.url("/b"))))
        times = sorted(hit.at for hit in server.hits)
    gaps = [later - earlier for earlier, later in itertools.pairwise(times)]
    # The pages wait for the Crawl-delay in the host's queue, which their deadline rightly does not count.
    return Outcome(min(gaps) >= 1.95, f"gaps {', '.join(f'{g:.2f}' for g in gaps)} s ({len(pages)} pages)")


@case("politeness", "Crawl-delay 3600 is capped, with a log line")
async def _huge_crawl_delay() -> Outcome:
    records: list[str] = []

    class Keep(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            records.append(record.getMessage())

    handler = Keep(logging.INFO)
    package = logging.getLogger("research_crawler")
    level = package.level
    package.addHandler(handler)
    package.setLevel(logging.INFO)
    try:
        with FaultServer() as server:
            server.robots("User-agent: *\nCrawl-delay: 3600\n")
            server.page("/a", LISTING)
            server.page("/b", LISTING)
            started = time.monotonic()
            pages = await fetch_all(fast_settings(server, max_crawl_delay_s=0.5), server.url("/a"), server.url("/b"))
            seconds = time.monotonic() - started
    finally:
        package.removeHandler(handler)
        package.setLevel(level)
    logged = any("3600" in record and "cap" in record.lower() for record in records)
    return Outcome(
        logged and seconds < 5 and all(p.ok for p in pages), f"{seconds:.2f} s; logged: {logged}", pages, _DEADLINE_S
    )


@case("politeness", "per-host concurrency holds while another host proceeds")
async def _concurrency() -> Outcome:
    with FaultServer() as slow, FaultServer() as other:
        for n in range(4):
            slow.page(f"/p{n}", LISTING, stall_s=0.3)
        other.page("/q", LISTING)
        async with Fetcher(fast_settings(slow, other, per_host_concurrency=1)) as fetcher:
            started = time.monotonic()
            batch = asyncio.gather(*(fetcher.fetch(slow.url(f"/p{n}")) for n in range(4)))
            await asyncio.sleep(0.05)
            quick = await fetcher.fetch(other.url("/q"))
            quick_s = time.monotonic() - started
            pages = [*await batch, quick]
        arrivals = sorted(hit.at for hit in slow.page_hits())
    gaps = [later - earlier for earlier, later in itertools.pairwise(arrivals)]
    held = min(gaps) >= 0.25 and quick_s < 0.6 and all(page.ok for page in pages)
    return Outcome(
        held, f"gaps on the slow host {min(gaps):.2f} s; other host done in {quick_s:.2f} s", pages, _DEADLINE_S
    )
