"""The HTTP fetch path against loopback fault servers: every determination, retries, redirects, cache, politeness."""

from __future__ import annotations

import asyncio
import itertools
import logging
import socket
import time
import tracemalloc
from pathlib import Path

import pytest
from fault_server import HTML, FaultServer, Reply, brotli_bomb, gzip_bomb

from research_crawler.config.settings import FetchSettings
from research_crawler.pages.page import Determination
from research_crawler.web.fetcher import Fetcher, page_from_file

# A little slack for server-side timing: the client spaces request starts, the server sees arrivals.
CLOCK_SLACK_S = 0.05

LISTING = """<!doctype html><html><head><title>Recent papers</title></head><body>
<h1>Recent papers</h1>
<ul><li><a href="/abs/1">Graph neural networks for proteins</a></li>
<li><a href="/abs/2?utm_source=feed">Diffusion models for protein design</a></li></ul>
</body></html>"""


def settings_with(base: FetchSettings, **changes: object) -> FetchSettings:
    return base.model_copy(update=changes)


def gaps(times: list[float]) -> list[float]:
    return [later - earlier for earlier, later in itertools.pairwise(times)]


# -- ok pages and the request we send ------------------------------------------------------------


async def test_ok_page_is_viewed_with_numbered_links(fault_server: FaultServer, fast_settings: FetchSettings) -> None:
    fault_server.page("/list", LISTING)
    async with Fetcher(fast_settings) as fetcher:
        page = await fetcher.fetch(fault_server.url("/list"))
    assert page.determination is Determination.OK, page.reason
    assert page.status == 200 and page.attempts == 1 and page.render == "http"
    assert page.title == "Recent papers"
    urls = [link.url for link in page.links]
    assert urls == [fault_server.url("/abs/1"), fault_server.url("/abs/2")]  # canonical: utm_* dropped
    assert "Graph neural networks for proteins" in page.markdown
    assert "[1]" in page.markdown and "[2]" in page.markdown
    assert "<li>" in page.html
    hit = fault_server.hits_for("/list")[0]
    assert hit.headers["user-agent"] == fast_settings.user_agent
    assert "gzip" in hit.headers["accept-encoding"]


async def test_page_links_are_capped_and_the_reason_says_so(
    fault_server: FaultServer, fast_settings: FetchSettings
) -> None:
    links = "".join(f'<a href="/p/{n}">paper {n}</a> ' for n in range(30))
    fault_server.page("/many", f"<html><body>{links}</body></html>")
    async with Fetcher(settings_with(fast_settings, max_links_per_page=10)) as fetcher:
        page = await fetcher.fetch(fault_server.url("/many"))
    assert page.ok and len(page.links) == 10
    assert "20 more links" in page.reason


@pytest.mark.parametrize("status", [404, 410])
async def test_missing_pages_are_not_found(
    fault_server: FaultServer, fast_settings: FetchSettings, status: int
) -> None:
    fault_server.route("/gone", Reply(status, "<html>gone</html>"))
    async with Fetcher(fast_settings) as fetcher:
        page = await fetcher.fetch(fault_server.url("/gone"))
    assert page.determination is Determination.NOT_FOUND
    assert page.status == status and page.markdown == "" and page.links == []
    assert len(fault_server.hits_for("/gone")) == 1  # a 404 is not retried


# -- invalid URLs --------------------------------------------------------------------------------


# Other schemes (ftp:, javascript:, file:…) are refused by the URL guard: tests/security/test_ssrf.py.
@pytest.mark.parametrize("bad", ["not a url", "http://", "http://[::1/x", ""])
async def test_invalid_urls_come_back_as_pages_with_the_reason(fast_settings: FetchSettings, bad: str) -> None:
    async with Fetcher(fast_settings) as fetcher:
        page = await fetcher.fetch(bad)
    assert page.determination is Determination.HTTP_ERROR
    assert page.reason.startswith("invalid URL:")
    assert page.attempts == 0


async def test_overlong_urls_are_refused_before_any_request(
    fault_server: FaultServer, fast_settings: FetchSettings
) -> None:
    async with Fetcher(settings_with(fast_settings, max_url_length=100)) as fetcher:
        page = await fetcher.fetch(fault_server.url("/a" * 80))
    assert page.determination is Determination.HTTP_ERROR and "longer than 100" in page.reason
    assert fault_server.hits == []


# -- robots.txt ----------------------------------------------------------------------------------


async def test_robots_disallow_blocks_without_touching_the_page(
    fault_server: FaultServer, fast_settings: FetchSettings
) -> None:
    fault_server.robots("User-agent: *\nDisallow: /search/\n")
    fault_server.page("/search/results", LISTING)
    fault_server.page("/list", LISTING)
    async with Fetcher(fast_settings) as fetcher:
        blocked = await fetcher.fetch(fault_server.url("/search/results?q=x"))
        allowed = await fetcher.fetch(fault_server.url("/list"))
    assert blocked.determination is Determination.BLOCKED_BY_ROBOTS
    assert "disallows /search/results?q=x for research-crawler" in blocked.reason
    assert fault_server.hits_for("/search/results?q=x") == []
    assert allowed.ok
    assert len(fault_server.hits_for("/robots.txt")) == 1  # fetched once per host


async def test_robots_group_for_our_token_wins_over_star(
    fault_server: FaultServer, fast_settings: FetchSettings
) -> None:
    fault_server.robots("User-agent: *\nDisallow: /\n\nUser-agent: research-crawler\nAllow: /\n")
    fault_server.page("/list", LISTING)
    async with Fetcher(fast_settings) as fetcher:
        assert (await fetcher.fetch(fault_server.url("/list"))).ok


async def test_robots_404_allows_everything(fault_server: FaultServer, fast_settings: FetchSettings) -> None:
    fault_server.robots(None)
    fault_server.page("/list", LISTING)
    async with Fetcher(fast_settings) as fetcher:
        assert (await fetcher.fetch(fault_server.url("/list"))).ok


async def test_robots_500_disallows_for_now_and_is_asked_again_later(
    fault_server: FaultServer, fast_settings: FetchSettings
) -> None:
    fault_server.route("/robots.txt", Reply(500, "oops", content_type="text/plain"))
    fault_server.page("/list", LISTING)
    fault_server.page("/other", LISTING)
    async with Fetcher(fast_settings) as fetcher:
        first = await fetcher.fetch(fault_server.url("/list"))
        other = await fetcher.fetch(fault_server.url("/other"))
    assert first.determination is Determination.BLOCKED_BY_ROBOTS
    assert "could not be read (HTTP 500 after 3 attempts)" in first.reason and "for now" in first.reason
    assert other.determination is Determination.BLOCKED_BY_ROBOTS
    assert fault_server.page_hits() == []
    assert len(fault_server.hits_for("/robots.txt")) == 3  # retried like any request, then remembered


async def test_robots_retry_after_the_pause_lets_new_pages_through(
    fault_server: FaultServer, fast_settings: FetchSettings
) -> None:
    fault_server.route(
        "/robots.txt",
        Reply(503, "busy", content_type="text/plain"),
        Reply(200, "User-agent: *\nDisallow: /private/\n", content_type="text/plain"),
    )
    fault_server.page("/a", LISTING)
    fault_server.page("/b", LISTING)
    settings = settings_with(fast_settings, robots_retry_s=0.3, max_retries=0)
    async with Fetcher(settings) as fetcher:
        assert (await fetcher.fetch(fault_server.url("/a"))).determination is Determination.BLOCKED_BY_ROBOTS
        await asyncio.sleep(0.35)
        assert (await fetcher.fetch(fault_server.url("/b"))).ok
    assert len(fault_server.hits_for("/robots.txt")) == 2


async def test_robots_timeout_disallows(fault_server: FaultServer, fast_settings: FetchSettings) -> None:
    fault_server.route("/robots.txt", Reply(200, "User-agent: *\nAllow: /\n", content_type="text/plain", stall_s=5))
    fault_server.page("/list", LISTING)
    settings = settings_with(fast_settings, read_timeout_s=0.3, max_retries=0)
    async with Fetcher(settings) as fetcher:
        page = await fetcher.fetch(fault_server.url("/list"))
    assert page.determination is Determination.BLOCKED_BY_ROBOTS
    assert "read timeout" in page.reason
    assert fault_server.hits_for("/list") == []


async def test_crawl_delay_is_honoured(fault_server: FaultServer, fast_settings: FetchSettings) -> None:
    fault_server.robots("User-agent: *\nCrawl-delay: 0.4\n")
    for path in ("/a", "/b", "/c"):
        fault_server.page(path, LISTING)
    async with Fetcher(fast_settings) as fetcher:
        await asyncio.gather(*(fetcher.fetch(fault_server.url(path)) for path in ("/a", "/b", "/c")))
    times = sorted(hit.at for hit in fault_server.hits)  # robots.txt counts as a request too
    assert len(times) == 4
    assert min(gaps(times)) >= 0.4 - CLOCK_SLACK_S


async def test_huge_crawl_delay_is_capped_with_a_log_line(
    fault_server: FaultServer, fast_settings: FetchSettings, caplog: pytest.LogCaptureFixture
) -> None:
    fault_server.robots("User-agent: *\nCrawl-delay: 3600\n")
    fault_server.page("/a", LISTING)
    fault_server.page("/b", LISTING)
    started = time.monotonic()
    with caplog.at_level(logging.WARNING):
        async with Fetcher(settings_with(fast_settings, max_crawl_delay_s=0.3)) as fetcher:
            assert (await fetcher.fetch(fault_server.url("/a"))).ok
            assert (await fetcher.fetch(fault_server.url("/b"))).ok
    assert time.monotonic() - started < 5
    page_times = [hit.at for hit in fault_server.page_hits()]
    assert page_times[1] - page_times[0] >= 0.3 - CLOCK_SLACK_S
    assert any(
        "Crawl-delay of 3600" in record.getMessage() and "capped" in record.getMessage() for record in caplog.records
    )


async def test_robots_are_not_consulted_when_disabled(fault_server: FaultServer, fast_settings: FetchSettings) -> None:
    fault_server.robots("User-agent: *\nDisallow: /\n")
    fault_server.page("/list", LISTING)
    async with Fetcher(settings_with(fast_settings, obey_robots=False)) as fetcher:
        assert (await fetcher.fetch(fault_server.url("/list"))).ok
    assert fault_server.hits_for("/robots.txt") == []


# -- politeness ----------------------------------------------------------------------------------


async def test_per_host_delay_spaces_requests(fault_server: FaultServer, fast_settings: FetchSettings) -> None:
    for path in ("/a", "/b", "/c"):
        fault_server.page(path, LISTING)
    async with Fetcher(settings_with(fast_settings, per_host_delay_s=0.3)) as fetcher:
        pages = await asyncio.gather(*(fetcher.fetch(fault_server.url(path)) for path in ("/a", "/b", "/c")))
    assert all(page.ok for page in pages)
    times = sorted(hit.at for hit in fault_server.hits)
    assert len(times) == 4
    assert min(gaps(times)) >= 0.3 - CLOCK_SLACK_S


async def test_another_host_is_not_held_back(
    fault_server: FaultServer, other_server: FaultServer, fast_settings: FetchSettings
) -> None:
    for server in (fault_server, other_server):
        server.page("/a", LISTING)
        server.page("/b", LISTING)
    async with Fetcher(settings_with(fast_settings, per_host_delay_s=0.5)) as fetcher:
        await asyncio.gather(
            *(fetcher.fetch(server.url(path)) for server in (fault_server, other_server) for path in ("/a", "/b"))
        )
    first_host = sorted(hit.at for hit in fault_server.hits)
    second_host = sorted(hit.at for hit in other_server.hits)
    assert min(gaps(first_host)) >= 0.5 - CLOCK_SLACK_S and min(gaps(second_host)) >= 0.5 - CLOCK_SLACK_S
    # Both hosts started together: each one's first request came before the other's second.
    assert second_host[0] < first_host[1] and first_host[0] < second_host[1]


async def test_per_host_concurrency_is_never_exceeded(fault_server: FaultServer, fast_settings: FetchSettings) -> None:
    for n in range(6):
        fault_server.page(f"/slow/{n}", LISTING, stall_s=0.2)
    settings = settings_with(fast_settings, per_host_concurrency=2)
    async with Fetcher(settings) as fetcher:
        in_flight: list[int] = []

        async def watch() -> None:
            while True:
                in_flight.append(fetcher.politeness.in_flight(f"127.0.0.1:{fault_server.port}"))
                await asyncio.sleep(0.01)

        watcher = asyncio.create_task(watch())
        pages = await asyncio.gather(*(fetcher.fetch(fault_server.url(f"/slow/{n}")) for n in range(6)))
        watcher.cancel()
    assert all(page.ok for page in pages)
    assert max(in_flight) == 2


# -- retries -------------------------------------------------------------------------------------


async def test_503_503_200_is_three_hits_and_ok(fault_server: FaultServer, fast_settings: FetchSettings) -> None:
    fault_server.route("/flaky", Reply(503, "busy"), Reply(503, "busy"), Reply(200, LISTING))
    async with Fetcher(fast_settings) as fetcher:
        page = await fetcher.fetch(fault_server.url("/flaky"))
    assert page.ok and page.attempts == 3
    assert len(fault_server.hits_for("/flaky")) == 3


async def test_persistent_500_is_retried_then_reported(fault_server: FaultServer, fast_settings: FetchSettings) -> None:
    fault_server.route("/broken", Reply(500, "boom"))
    async with Fetcher(fast_settings) as fetcher:
        page = await fetcher.fetch(fault_server.url("/broken"))
    assert page.determination is Determination.HTTP_ERROR
    assert page.reason == "HTTP 500 after 3 attempts"
    assert page.status == 500 and page.attempts == 3
    assert len(fault_server.hits_for("/broken")) == 3  # 1 + max_retries


async def test_backoff_grows_between_retries(fault_server: FaultServer, fast_settings: FetchSettings) -> None:
    fault_server.route("/broken", Reply(502, "bad gateway"))
    settings = settings_with(fast_settings, backoff_base_s=0.2, backoff_max_s=1.0, max_retries=2)
    async with Fetcher(settings) as fetcher:
        await fetcher.fetch(fault_server.url("/broken"))
    first, second = gaps([hit.at for hit in fault_server.hits_for("/broken")])
    assert first >= 0.2 - CLOCK_SLACK_S and second >= 0.4 - CLOCK_SLACK_S


async def test_non_retryable_statuses_are_tried_once(fault_server: FaultServer, fast_settings: FetchSettings) -> None:
    fault_server.route("/forbidden", Reply(403, "no"))
    async with Fetcher(fast_settings) as fetcher:
        page = await fetcher.fetch(fault_server.url("/forbidden"))
    assert page.determination is Determination.HTTP_ERROR and page.reason == "HTTP 403"
    assert len(fault_server.hits_for("/forbidden")) == 1


async def test_429_retry_after_is_waited_and_other_hosts_go_on(
    fault_server: FaultServer, other_server: FaultServer, fast_settings: FetchSettings
) -> None:
    fault_server.route("/limited", Reply(429, "slow down", headers={"Retry-After": "1"}), Reply(200, LISTING))
    other_server.page("/free", LISTING)
    async with Fetcher(fast_settings) as fetcher:
        limited = asyncio.create_task(fetcher.fetch(fault_server.url("/limited")))
        await asyncio.sleep(0.2)
        free = await fetcher.fetch(other_server.url("/free"))
        page = await limited
    assert page.ok and page.attempts == 2
    first, second = (hit.at for hit in fault_server.hits_for("/limited"))
    assert second - first >= 1.0 - CLOCK_SLACK_S
    assert free.ok and other_server.hits_for("/free")[0].at < second  # the other host did not wait


async def test_retry_after_applies_to_the_whole_host(fault_server: FaultServer, fast_settings: FetchSettings) -> None:
    fault_server.route("/limited", Reply(503, "busy", headers={"Retry-After": "1"}), Reply(200, LISTING))
    fault_server.page("/other", LISTING)
    async with Fetcher(fast_settings) as fetcher:
        limited = asyncio.create_task(fetcher.fetch(fault_server.url("/limited")))
        await asyncio.sleep(0.2)
        await fetcher.fetch(fault_server.url("/other"))
        await limited
    first_limited = fault_server.hits_for("/limited")[0].at
    assert fault_server.hits_for("/other")[0].at - first_limited >= 1.0 - CLOCK_SLACK_S


async def test_retry_after_longer_than_we_wait_gives_up_at_once(
    fault_server: FaultServer, fast_settings: FetchSettings
) -> None:
    fault_server.route("/limited", Reply(429, "come back tomorrow", headers={"Retry-After": "3600"}))
    started = time.monotonic()
    async with Fetcher(fast_settings) as fetcher:
        page = await fetcher.fetch(fault_server.url("/limited"))
    assert page.determination is Determination.HTTP_ERROR
    assert "HTTP 429" in page.reason and "3600 s" in page.reason
    assert len(fault_server.hits_for("/limited")) == 1
    assert time.monotonic() - started < 2


async def test_retry_that_would_pass_the_deadline_gives_up_with_the_reason(
    fault_server: FaultServer, fast_settings: FetchSettings
) -> None:
    fault_server.route("/limited", Reply(503, "busy", headers={"Retry-After": "3"}))
    async with Fetcher(settings_with(fast_settings, page_deadline_s=1.0)) as fetcher:
        page = await fetcher.fetch(fault_server.url("/limited"))
    assert page.determination is Determination.HTTP_ERROR
    assert "page deadline" in page.reason and page.elapsed_s < 1.0


async def test_refused_connection_is_a_network_error_after_retries(fast_settings: FetchSettings) -> None:
    with socket.socket() as probe:  # a port that was free a moment ago: nothing listens there
        probe.bind(("127.0.0.1", 0))
        url = f"http://127.0.0.1:{probe.getsockname()[1]}/nothing"
    async with Fetcher(fast_settings) as fetcher:
        page = await fetcher.fetch(url)
    # robots.txt itself is unreachable, which disallows the host for now (fail closed), and says why: the host.
    assert page.determination is Determination.NETWORK_ERROR and "connection failed" in page.reason
    assert "at its robots.txt: nothing is fetched from 127.0.0.1" in page.reason
    async with Fetcher(settings_with(fast_settings, obey_robots=False)) as fetcher:
        page = await fetcher.fetch(url)
    assert page.determination is Determination.NETWORK_ERROR
    assert page.reason.startswith("connection failed") and page.reason.endswith("after 3 attempts")
    assert page.attempts == 3


async def test_garbage_status_line_is_a_clean_network_error(
    fault_server: FaultServer, fast_settings: FetchSettings
) -> None:
    fault_server.route("/garbage", Reply(raw=b"HTTP/1.1 banana\r\n\r\nwhatever"))
    async with Fetcher(settings_with(fast_settings, max_retries=0)) as fetcher:
        page = await fetcher.fetch(fault_server.url("/garbage"))
    assert page.determination is Determination.NETWORK_ERROR and "broken response" in page.reason


async def test_body_shorter_than_content_length_is_never_stored_as_complete(
    fault_server: FaultServer, fast_settings: FetchSettings
) -> None:
    fault_server.route("/short", Reply(200, LISTING, content_length=len(LISTING) + 500))
    async with Fetcher(settings_with(fast_settings, max_retries=1)) as fetcher:
        page = await fetcher.fetch(fault_server.url("/short"))
    assert page.determination is Determination.NETWORK_ERROR
    assert page.markdown == "" and page.html == ""
    assert len(fault_server.hits_for("/short")) == 2


# -- timeouts ------------------------------------------------------------------------------------


async def test_stalled_body_fails_at_the_page_deadline(fault_server: FaultServer, fast_settings: FetchSettings) -> None:
    fault_server.route("/stall", Reply(200, LISTING, stall_s=30))
    settings = settings_with(fast_settings, read_timeout_s=20, page_deadline_s=1.0)
    async with Fetcher(settings) as fetcher:
        page = await fetcher.fetch(fault_server.url("/stall"))
    assert page.determination is Determination.TIMEOUT
    assert "page deadline of 1 s" in page.reason and page.attempts == 1
    assert 0.9 <= page.elapsed_s < 4


async def test_trickled_body_hits_the_total_deadline(fault_server: FaultServer, fast_settings: FetchSettings) -> None:
    fault_server.route("/trickle", Reply(200, LISTING * 10, trickle_s=0.1, trickle_bytes=1))
    settings = settings_with(fast_settings, read_timeout_s=1.0, page_deadline_s=1.0)
    async with Fetcher(settings) as fetcher:
        page = await fetcher.fetch(fault_server.url("/trickle"))
    assert page.determination is Determination.TIMEOUT  # every read was quick; only the total deadline fires
    assert page.elapsed_s < 4


async def test_read_timeouts_are_retried_then_reported(fault_server: FaultServer, fast_settings: FetchSettings) -> None:
    fault_server.route("/slow", Reply(200, LISTING, stall_s=5))
    settings = settings_with(fast_settings, read_timeout_s=0.3, page_deadline_s=10)
    async with Fetcher(settings) as fetcher:
        page = await fetcher.fetch(fault_server.url("/slow"))
    assert page.determination is Determination.TIMEOUT
    assert page.reason == "read timeout after 3 attempts"
    assert len(fault_server.hits_for("/slow")) == 3


async def test_deadline_does_not_count_the_politeness_queue(
    fault_server: FaultServer, fast_settings: FetchSettings
) -> None:
    for n in range(4):
        fault_server.page(f"/q/{n}", LISTING)
    settings = settings_with(fast_settings, per_host_delay_s=0.4, page_deadline_s=0.9)
    async with Fetcher(settings) as fetcher:
        pages = await asyncio.gather(*(fetcher.fetch(fault_server.url(f"/q/{n}")) for n in range(4)))
    # The last page queued ~1.6 s behind the others, longer than its deadline, and still succeeded.
    assert all(page.ok for page in pages)


# -- size ----------------------------------------------------------------------------------------


async def test_content_length_over_the_cap_is_refused_before_reading(
    fault_server: FaultServer, fast_settings: FetchSettings
) -> None:
    fault_server.page("/big", "<html>" + "x" * 50_000 + "</html>")
    async with Fetcher(settings_with(fast_settings, max_page_bytes=10_000)) as fetcher:
        page = await fetcher.fetch(fault_server.url("/big"))
    assert page.determination is Determination.TOO_LARGE
    assert "Content-Length of 50013 bytes" in page.reason


async def test_body_without_length_is_cut_at_the_cap(fault_server: FaultServer, fast_settings: FetchSettings) -> None:
    fault_server.page("/big", "<html>" + "x" * 50_000 + "</html>", content_length=None)
    async with Fetcher(settings_with(fast_settings, max_page_bytes=10_000)) as fetcher:
        page = await fetcher.fetch(fault_server.url("/big"))
    assert page.determination is Determination.TOO_LARGE
    assert "larger than 10000 bytes (after decompression)" in page.reason


@pytest.mark.parametrize(("encoding", "bomb"), [("gzip", gzip_bomb), ("br", brotli_bomb)])
async def test_compression_bombs_are_cut_at_the_cap_with_bounded_memory(
    fault_server: FaultServer, fast_settings: FetchSettings, encoding: str, bomb: object
) -> None:
    assert callable(bomb)
    body = bomb(50_000_000)  # 50 MB once inflated
    assert len(body) < 400_000
    fault_server.route("/bomb", Reply(200, body, headers={"Content-Encoding": encoding}))
    settings = settings_with(fast_settings, max_page_bytes=1_000_000)
    async with Fetcher(settings) as fetcher:
        tracemalloc.start()
        try:
            page = await fetcher.fetch(fault_server.url("/bomb"))
            peak = tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()
    assert page.determination is Determination.TOO_LARGE
    assert peak < 30_000_000, f"peak {peak} bytes while reading a bomb"


async def test_small_compressed_pages_are_decoded(fault_server: FaultServer, fast_settings: FetchSettings) -> None:
    import gzip

    fault_server.route("/gz", Reply(200, gzip.compress(LISTING.encode()), headers={"Content-Encoding": "gzip"}))
    async with Fetcher(fast_settings) as fetcher:
        page = await fetcher.fetch(fault_server.url("/gz"))
    assert page.ok and page.title == "Recent papers"


async def test_corrupt_gzip_is_a_network_error(fault_server: FaultServer, fast_settings: FetchSettings) -> None:
    fault_server.route("/bad", Reply(200, b"\x1f\x8b\x08\x00 not really gzip", headers={"Content-Encoding": "gzip"}))
    async with Fetcher(fast_settings) as fetcher:
        page = await fetcher.fetch(fault_server.url("/bad"))
    assert page.determination is Determination.NETWORK_ERROR and "corrupt gzip" in page.reason


# -- content type --------------------------------------------------------------------------------


async def test_pdf_served_as_html_is_not_html(fault_server: FaultServer, fast_settings: FetchSettings) -> None:
    fault_server.route("/paper", Reply(200, b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj <<>> endobj\n", content_type=HTML))
    async with Fetcher(fast_settings) as fetcher:
        page = await fetcher.fetch(fault_server.url("/paper"))
    assert page.determination is Determination.NON_HTML
    assert "PDF" in page.reason and page.markdown == "" and page.html == ""


@pytest.mark.parametrize(
    ("content_type", "body"),
    [
        ("application/pdf", b"%PDF-1.4 ..."),
        ("image/png", b"\x89PNG\r\n\x1a\n...."),
        ("application/json", b'{"papers": []}'),
        ("text/html", b"<html>\x00\x01\x02\x03 binary</html>"),
        (None, b"just some text, no markup"),
    ],
)
async def test_non_html_content_is_never_read_as_a_page(
    fault_server: FaultServer, fast_settings: FetchSettings, content_type: str | None, body: bytes
) -> None:
    fault_server.route("/thing", Reply(200, body, content_type=content_type))
    async with Fetcher(fast_settings) as fetcher:
        page = await fetcher.fetch(fault_server.url("/thing"))
    assert page.determination is Determination.NON_HTML and page.markdown == ""


async def test_textual_non_html_keeps_its_text_for_tools_but_no_view(
    fault_server: FaultServer, fast_settings: FetchSettings
) -> None:
    description = (
        '<?xml version="1.0"?><OpenSearchDescription xmlns="http://a9.com/-/spec/opensearch/1.1/">'
        '<Url type="text/html" template="https://papers.example.org/search?q={searchTerms}"/></OpenSearchDescription>'
    )
    fault_server.route("/opensearch.xml", Reply(200, description, content_type="application/opensearchdescription+xml"))
    async with Fetcher(fast_settings) as fetcher:
        page = await fetcher.fetch(fault_server.url("/opensearch.xml"))
    assert page.determination is Determination.NON_HTML
    assert page.markdown == "" and page.links == []
    assert "{searchTerms}" in page.html


async def test_fetch_raw_returns_non_html_documents(fault_server: FaultServer, fast_settings: FetchSettings) -> None:
    fault_server.route("/doc.pdf", Reply(200, b"%PDF-1.4 fake", content_type="application/pdf"))
    async with Fetcher(fast_settings) as fetcher:
        raw = await fetcher.fetch_raw(fault_server.url("/doc.pdf"))
        assert raw.ok and raw.body == b"%PDF-1.4 fake" and raw.media_type == "application/pdf"
        assert fetcher.cache.get(fault_server.url("/doc.pdf")) is None  # raw documents are not pages
        invalid = await fetcher.fetch_raw("http://[::1/x")
        refused = await fetcher.fetch_raw("gopher://example.org/")
    assert invalid.determination is Determination.HTTP_ERROR and invalid.reason.startswith("invalid URL")
    assert refused.determination is Determination.REFUSED and "only http(s)" in refused.reason


# -- charsets ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("content_type", "body"),
    [
        ("text/html; charset=iso-8859-1", "<html><body><p>café</p></body></html>".encode("latin-1")),
        (
            "text/html",
            '<html><head><meta charset="windows-1252"></head><body><p>café</p></body></html>'.encode("cp1252"),
        ),
        (
            "text/html",
            '<html><head><meta http-equiv="Content-Type" content="text/html; charset=iso-8859-1"></head>'
            "<body><p>café</p></body></html>".encode("latin-1"),
        ),
        ("text/html; charset=latin-1", b"\xef\xbb\xbf<html><body><p>caf\xc3\xa9</p></body></html>"),  # BOM wins
        ("text/html; charset=no-such-charset", "<html><body><p>café</p></body></html>".encode()),
        ("text/html; charset=utf-16", "<html><body><p>café</p></body></html>".encode("utf-16")),
        # A server's default Latin-1 label, or a template's stale <meta>, over a page written in UTF-8.
        ("text/html; charset=ISO-8859-1", "<html><body><p>café</p></body></html>".encode()),
        (
            "text/html",
            '<html><head><meta http-equiv="Content-type" content="text/html;charset=iso-8859-1"></head>'
            "<body><p>café</p></body></html>".encode(),
        ),
        # Latin-1 bytes that are not valid UTF-8 stay Latin-1 under a UTF-8-looking neighbour.
        ("text/html; charset=iso-8859-1", "<html><body><p>café à côté</p></body></html>".encode("latin-1")),
    ],
)
async def test_charsets_decode_to_valid_text(
    fault_server: FaultServer, fast_settings: FetchSettings, content_type: str, body: bytes
) -> None:
    fault_server.route("/page", Reply(200, body, content_type=content_type))
    async with Fetcher(fast_settings) as fetcher:
        page = await fetcher.fetch(fault_server.url("/page"))
    assert page.ok, page.reason
    assert "café" in page.markdown and "\ufffd" not in page.markdown


async def test_undecodable_bytes_become_replacement_characters(
    fault_server: FaultServer, fast_settings: FetchSettings
) -> None:
    fault_server.route("/page", Reply(200, b"<html><body><p>bad \xff\xfe bytes</p></body></html>", content_type=HTML))
    async with Fetcher(fast_settings) as fetcher:
        page = await fetcher.fetch(fault_server.url("/page"))
    assert page.ok and "bad" in page.markdown
    page.markdown.encode("utf-8")  # valid UTF-8 whatever came in


# -- redirects -----------------------------------------------------------------------------------


def redirect(to: str, status: int = 302) -> Reply:
    return Reply(status, "", headers={"Location": to})


async def test_redirect_chain_is_followed(fault_server: FaultServer, fast_settings: FetchSettings) -> None:
    fault_server.route("/r1", redirect("/r2", 301))
    fault_server.route("/r2", redirect(fault_server.url("/r3"), 307))
    fault_server.route("/r3", redirect("final?utm_campaign=x#top", 308))
    fault_server.page("/final", LISTING)
    async with Fetcher(fast_settings) as fetcher:
        page = await fetcher.fetch(fault_server.url("/r1"))
    assert page.ok and page.url == fault_server.url("/r1") and page.final_url == fault_server.url("/final")
    assert page.attempts == 4
    assert [hit.path for hit in fault_server.page_hits()] == ["/r1", "/r2", "/r3", "/final"]


async def test_redirect_loop_stops_at_the_limit(fault_server: FaultServer, fast_settings: FetchSettings) -> None:
    fault_server.route("/a", redirect("/b"))
    fault_server.route("/b", redirect("/a"))
    async with Fetcher(settings_with(fast_settings, max_redirects=4)) as fetcher:
        page = await fetcher.fetch(fault_server.url("/a"))
    assert page.determination is Determination.HTTP_ERROR and "more than 4 redirects" in page.reason
    assert len(fault_server.page_hits()) == 5


async def test_long_redirect_chain_stops_at_the_limit(fault_server: FaultServer, fast_settings: FetchSettings) -> None:
    for n in range(30):
        fault_server.route(f"/hop{n}", redirect(f"/hop{n + 1}"))
    async with Fetcher(fast_settings) as fetcher:  # default: at most 10 redirects
        page = await fetcher.fetch(fault_server.url("/hop0"))
    assert page.determination is Determination.HTTP_ERROR and "more than 10 redirects" in page.reason
    assert len(fault_server.page_hits()) == 11


@pytest.mark.parametrize(
    "target", ["file:///etc/passwd", "gopher://127.0.0.1:70/", "data:text/html,<h1>hi</h1>", "ftp://x/y"]
)
async def test_redirect_to_another_scheme_is_refused(
    fault_server: FaultServer, fast_settings: FetchSettings, target: str
) -> None:
    fault_server.route("/go", redirect(target))
    async with Fetcher(fast_settings) as fetcher:
        page = await fetcher.fetch(fault_server.url("/go"))
    assert page.determination is Determination.REFUSED
    assert page.reason.startswith("refused by the URL guard") and "http(s)" in page.reason


async def test_each_hop_is_checked_against_robots(fault_server: FaultServer, fast_settings: FetchSettings) -> None:
    fault_server.robots("User-agent: *\nDisallow: /private/\n")
    fault_server.route("/go", redirect("/private/admin"))
    fault_server.page("/private/admin", LISTING)
    async with Fetcher(fast_settings) as fetcher:
        page = await fetcher.fetch(fault_server.url("/go"))
    assert page.determination is Determination.BLOCKED_BY_ROBOTS
    assert page.final_url == fault_server.url("/private/admin")
    assert fault_server.hits_for("/private/admin") == []


async def test_redirect_to_a_host_outside_the_allowlist_is_refused(
    fault_server: FaultServer, other_server: FaultServer, fast_settings: FetchSettings
) -> None:
    fault_server.route("/go", redirect(other_server.url("/admin")))
    other_server.page("/admin", LISTING)
    async with Fetcher(fast_settings, allowed_hosts=[f"127.0.0.1:{fault_server.port}"]) as fetcher:
        page = await fetcher.fetch(fault_server.url("/go"))
        direct = await fetcher.fetch(other_server.url("/admin"))
    assert page.determination is Determination.HTTP_ERROR and "not among the allowed hosts" in page.reason
    assert direct.determination is Determination.HTTP_ERROR
    assert other_server.hits == []


async def test_pages_redirecting_to_login_fetch_it_once(
    fault_server: FaultServer, fast_settings: FetchSettings
) -> None:
    for n in range(4):
        fault_server.route(f"/members/{n}", redirect("/login"))
    fault_server.page("/login", "<html><head><title>Log in</title></head><body>login</body></html>")
    async with Fetcher(fast_settings) as fetcher:
        pages = [await fetcher.fetch(fault_server.url(f"/members/{n}")) for n in range(4)]
        login = await fetcher.fetch(fault_server.url("/login"))
    assert all(page.final_url == fault_server.url("/login") and page.title == "Log in" for page in pages)
    assert [page.url for page in pages] == [fault_server.url(f"/members/{n}") for n in range(4)]
    assert login.url == fault_server.url("/login")
    assert len(fault_server.hits_for("/login")) == 1


# -- cache ---------------------------------------------------------------------------------------


async def test_second_fetch_is_served_from_the_cache(fault_server: FaultServer, fast_settings: FetchSettings) -> None:
    fault_server.page("/list", LISTING)
    async with Fetcher(fast_settings) as fetcher:
        first = await fetcher.fetch(fault_server.url("/list"))
        again = await fetcher.fetch(fault_server.url("/list?utm_source=newsletter#section"))
        assert fetcher.cache.get(fault_server.url("/list")) is first
        assert fetcher.cache.pages() == [first]
    assert again is first
    assert len(fault_server.hits_for("/list")) == 1


async def test_concurrent_fetches_of_one_url_share_one_request(
    fault_server: FaultServer, fast_settings: FetchSettings
) -> None:
    fault_server.page("/slow", LISTING, stall_s=0.3)
    async with Fetcher(fast_settings) as fetcher:
        pages = await asyncio.gather(*(fetcher.fetch(fault_server.url("/slow")) for _ in range(5)))
    assert all(page is pages[0] for page in pages) and pages[0].ok
    assert len(fault_server.hits_for("/slow")) == 1


async def test_final_url_of_a_redirect_is_cached_too(fault_server: FaultServer, fast_settings: FetchSettings) -> None:
    fault_server.route("/old", redirect("/new", 301))
    fault_server.page("/new", LISTING)
    async with Fetcher(fast_settings) as fetcher:
        await fetcher.fetch(fault_server.url("/old"))
        new = await fetcher.fetch(fault_server.url("/new"))
        assert [page.url for page in fetcher.cache.pages()] == [fault_server.url("/old")]
    assert new.ok and new.url == fault_server.url("/new")
    assert len(fault_server.hits_for("/new")) == 1


async def test_failed_pages_are_cached_too(fault_server: FaultServer, fast_settings: FetchSettings) -> None:
    fault_server.route("/gone", Reply(404, "gone"))
    async with Fetcher(fast_settings) as fetcher:
        await fetcher.fetch(fault_server.url("/gone"))
        await fetcher.fetch(fault_server.url("/gone"))
    assert len(fault_server.hits_for("/gone")) == 1


async def test_a_closed_fetcher_refuses_work(fast_settings: FetchSettings) -> None:
    fetcher = Fetcher(fast_settings)
    await fetcher.aclose()
    with pytest.raises(RuntimeError, match="closed"):
        await fetcher.fetch("http://127.0.0.1:9/")


# -- local files ---------------------------------------------------------------------------------


def test_page_from_file_resolves_links_against_the_given_url(tmp_path: Path) -> None:
    saved = tmp_path / "listing.html"
    saved.write_text(LISTING, encoding="utf-8")
    page = page_from_file(saved, url="https://papers.example.org/list")
    assert page.ok and page.render == "file" and page.url == "https://papers.example.org/list"
    assert [link.url for link in page.links] == [
        "https://papers.example.org/abs/1",
        "https://papers.example.org/abs/2",
    ]


def test_page_from_file_uses_the_canonical_link_when_no_url_is_given(tmp_path: Path) -> None:
    saved = tmp_path / "abs.html"
    saved.write_text(
        '<html><head><link rel="canonical" href="https://papers.example.org/abs/7"></head>'
        '<body><a href="/pdf/7">PDF</a></body></html>',
        encoding="utf-8",
    )
    page = page_from_file(saved)
    assert page.url == "https://papers.example.org/abs/7"
    assert [link.url for link in page.links] == ["https://papers.example.org/pdf/7"]


def test_page_from_file_flags_binary_files(tmp_path: Path) -> None:
    saved = tmp_path / "paper.html"
    saved.write_bytes(b"%PDF-1.5 not html")
    page = page_from_file(saved)
    assert page.determination is Determination.NON_HTML and page.render == "file"
