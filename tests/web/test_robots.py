"""robots.txt rules (RFC 9309) as RobotsCache reads them, with a fake fetch and a fake clock."""

from __future__ import annotations

import asyncio

import pytest

from research_crawler.pages.page import Determination
from research_crawler.web.politeness import HostPoliteness
from research_crawler.web.raw_response import RawResponse
from research_crawler.web.robots import RobotsCache, robots_token, robots_url

UA = "research-crawler/0.1 (+https://example.org/bot)"
SITE = "https://papers.example.org"


def response(
    body: str = "",
    *,
    status: int | None = 200,
    determination: Determination = Determination.OK,
    reason: str = "",
    truncated: bool = False,
) -> RawResponse:
    return RawResponse(
        url=f"{SITE}/robots.txt",
        final_url=f"{SITE}/robots.txt",
        status=status,
        determination=determination,
        reason=reason,
        body=body.encode(),
        truncated=truncated,
    )


class FakeFetch:
    """Answers robots.txt requests from a queue (the last answer repeats) and counts them."""

    def __init__(self, *answers: RawResponse, delay_s: float = 0.0) -> None:
        self.answers = list(answers)
        self.requested: list[str] = []
        self.delay_s = delay_s

    async def __call__(self, url: str) -> RawResponse:
        self.requested.append(url)
        if self.delay_s:
            await asyncio.sleep(self.delay_s)
        return self.answers[min(len(self.requested) - 1, len(self.answers) - 1)]


class FakeClock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_token_and_url() -> None:
    assert robots_token(UA) == "research-crawler"
    assert robots_token("MyBot") == "MyBot"
    assert robots_url("http://127.0.0.1:8080/a/b?c=d") == "http://127.0.0.1:8080/robots.txt"


@pytest.mark.parametrize(
    ("path", "allowed"),
    [
        ("/", True),
        ("/search/", False),
        ("/search/results?q=x", False),
        ("/abs/1.pdf", False),  # Disallow: /*.pdf$
        ("/abs/1.pdf?download=1", True),  # ...the $ anchors the end
        ("/private/x", False),
        ("/private/public/x", True),  # the longer Allow wins
        ("/tmp-files/y", False),  # Disallow: /tmp*
    ],
)
async def test_allow_and_disallow_with_wildcards(path: str, allowed: bool) -> None:
    rules = (
        "User-agent: *\n"
        "Disallow: /search/\n"
        "Disallow: /*.pdf$\n"
        "Disallow: /private/\n"
        "Allow: /private/public/\n"
        "Disallow: /tmp*\n"
    )
    cache = RobotsCache(user_agent=UA, fetch=FakeFetch(response(rules)))
    verdict = await cache.check(f"{SITE}{path}")
    assert verdict.allowed is allowed
    if not allowed:
        assert verdict.reason == f"robots.txt of papers.example.org disallows {path} for research-crawler"


async def test_our_group_is_used_over_the_star_group() -> None:
    rules = "User-agent: *\nDisallow: /\n\nUser-agent: research-crawler\nDisallow: /drafts/\n"
    cache = RobotsCache(user_agent=UA, fetch=FakeFetch(response(rules)))
    assert (await cache.check(f"{SITE}/abs/1")).allowed
    assert not (await cache.check(f"{SITE}/drafts/1")).allowed


@pytest.mark.parametrize("status", [401, 403, 404, 410, 451])
async def test_4xx_allows_everything(status: int) -> None:
    fetch = FakeFetch(response("", status=status, determination=Determination.HTTP_ERROR))
    cache = RobotsCache(user_agent=UA, fetch=fetch)
    assert (await cache.check(f"{SITE}/anything")).allowed


@pytest.mark.parametrize(
    ("status", "determination", "reason"),
    [
        (500, Determination.HTTP_ERROR, "HTTP 500 after 3 attempts"),
        (503, Determination.HTTP_ERROR, "HTTP 503 after 3 attempts"),
        (None, Determination.TIMEOUT, "read timeout after 3 attempts"),
        (None, Determination.NETWORK_ERROR, "connection failed: refused after 3 attempts"),
    ],
)
async def test_unreadable_robots_disallows_for_now(
    status: int | None, determination: Determination, reason: str
) -> None:
    fetch = FakeFetch(response(status=status, determination=determination, reason=reason), response("User-agent: *\n"))
    clock = FakeClock()
    cache = RobotsCache(user_agent=UA, fetch=fetch, retry_s=300, clock=clock)
    verdict = await cache.check(f"{SITE}/abs/1")
    assert not verdict.allowed
    unreachable = determination is Determination.NETWORK_ERROR  # nothing answered: the host is what fails
    assert verdict.unreachable is unreachable and reason in verdict.reason
    assert ("nothing is fetched from" if unreachable else "disallowed for now") in verdict.reason
    clock.now += 299
    assert not (await cache.check(f"{SITE}/abs/2")).allowed
    assert len(fetch.requested) == 1
    clock.now += 2  # past robots_retry_s: asked again, now readable
    assert (await cache.check(f"{SITE}/abs/3")).allowed
    assert len(fetch.requested) == 2


async def test_unreachable_through_redirects_counts_as_unavailable() -> None:
    fetch = FakeFetch(
        response(status=302, determination=Determination.HTTP_ERROR, reason="more than 5 redirects (the next one …)")
    )
    cache = RobotsCache(user_agent=UA, fetch=fetch)
    assert (await cache.check(f"{SITE}/abs/1")).allowed


async def test_rules_are_fetched_once_per_origin_even_under_concurrency() -> None:
    fetch = FakeFetch(response("User-agent: *\nDisallow: /x\n"), delay_s=0.05)
    cache = RobotsCache(user_agent=UA, fetch=fetch)
    verdicts = await asyncio.gather(*(cache.check(f"{SITE}/page/{n}") for n in range(10)))
    assert all(verdict.allowed for verdict in verdicts)
    assert fetch.requested == [f"{SITE}/robots.txt"]
    await cache.check("http://papers.example.org/page/1")  # another scheme is another origin
    await cache.check("https://papers.example.org:8443/page/1")  # another port too
    assert len(fetch.requested) == 3


async def test_rules_expire_after_their_ttl() -> None:
    fetch = FakeFetch(response("User-agent: *\nDisallow: /x\n"), response("User-agent: *\nAllow: /\n"))
    clock = FakeClock()
    cache = RobotsCache(user_agent=UA, fetch=fetch, ttl_s=60, clock=clock)
    assert not (await cache.check(f"{SITE}/x")).allowed
    clock.now += 61
    assert (await cache.check(f"{SITE}/x")).allowed


async def test_crawl_delay_goes_to_politeness_capped() -> None:
    politeness = HostPoliteness(delay_s=1.0, concurrency=1, max_crawl_delay_s=30.0)
    fetch = FakeFetch(response("User-agent: *\nCrawl-delay: 7\n"))
    cache = RobotsCache(user_agent=UA, fetch=fetch, politeness=politeness)
    await cache.check(f"{SITE}/a")
    assert politeness.delay_for("papers.example.org") == 7.0
    fetch_long = FakeFetch(response("User-agent: research-crawler\nCrawl-delay: 3600\n"))
    other = RobotsCache(user_agent=UA, fetch=fetch_long, politeness=politeness)
    await other.check("https://slow.example.org/a")
    assert politeness.delay_for("slow.example.org") == 30.0


async def test_truncated_robots_applies_what_was_read() -> None:
    body = "User-agent: *\nDisallow: /early/\n" + "# padding\n" * 10 + "Disallow: /la"
    fetch = FakeFetch(response(body, truncated=True))
    cache = RobotsCache(user_agent=UA, fetch=fetch)
    assert not (await cache.check(f"{SITE}/early/1")).allowed
    # The last line was cut mid-rule ("Disallow: /la" of, say, "/latest/"): it is dropped, not misread.
    assert (await cache.check(f"{SITE}/late/1")).allowed
    assert (await cache.check(f"{SITE}/la")).allowed


async def test_a_cut_allow_line_never_widens_access() -> None:
    body = "User-agent: *\nDisallow: /\nAllow: /public-papers/"  # cut inside the last line
    cache = RobotsCache(user_agent=UA, fetch=FakeFetch(response(body[:-14], truncated=True)))  # "Allow: /"
    assert not (await cache.check(f"{SITE}/pub")).allowed


async def test_garbage_robots_allows_everything() -> None:
    fetch = FakeFetch(response("<html><body>Welcome! \x00\x01 not a robots file</body></html>"))
    cache = RobotsCache(user_agent=UA, fetch=fetch)
    assert (await cache.check(f"{SITE}/anything")).allowed
