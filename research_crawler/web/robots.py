"""robots.txt per origin (RFC 9309), parsed by protego, fetched once and cached.

2xx: its rules apply (only the first `max_robots_bytes` are read); 4xx, or redirects that lead
nowhere: everything is allowed; 5xx, timeouts and network errors: everything is disallowed for now, and
the file is asked for again after `robots_retry_s` (StormCrawler's fail-closed reading of the RFC).
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import cast
from urllib.parse import urlsplit

from protego import Protego

from research_crawler.pages.page import Determination
from research_crawler.web.politeness import HostPoliteness, politeness_key
from research_crawler.web.raw_response import RawResponse
from research_crawler.web.shared_politeness import RobotsStore

__all__ = ["RobotsCache", "RobotsVerdict", "robots_token", "robots_url"]

logger = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class RobotsVerdict:
    """Whether our user agent may fetch a URL, and (when not) why, in plain words."""

    allowed: bool
    reason: str = ""
    unreachable: bool = False
    """Disallowed because the host itself cannot be reached (its name does not resolve, nothing answers)."""


@dataclass(frozen=True, slots=True)
class _Rules:
    parser: Protego | None  # None: no rules to apply (see allow_all)
    allow_all: bool
    reason: str  # why everything is allowed or disallowed, when it is
    expires: float
    unreachable: bool = False  # disallowed because the host cannot be reached at all


def robots_token(user_agent: str) -> str:
    """The token matched against robots.txt groups: 'research-crawler' for 'research-crawler/0.1 (…)'."""
    token = user_agent.strip().split("/", 1)[0].split(" ", 1)[0].strip()
    return token or user_agent.strip()


def robots_url(url: str) -> str:
    """The robots.txt URL of `url`'s origin (scheme, host and port)."""
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}/robots.txt"


class RobotsCache:
    """Answers "may we fetch this URL?" from each origin's robots.txt, fetching each file once.

    `fetch` gets the robots.txt URL and returns the `RawResponse` (redirects already followed, body
    capped). A Crawl-delay for our token is handed to `politeness`. With `shared`, every cache sharing that
    store (the queries of one batch or evaluation) fetches each robots.txt once between them.
    """

    def __init__(
        self,
        *,
        user_agent: str,
        fetch: Callable[[str], Awaitable[RawResponse]],
        politeness: HostPoliteness | None = None,
        ttl_s: float = 6 * 3600.0,
        retry_s: float = 300.0,
        clock: Callable[[], float] = time.monotonic,
        shared: RobotsStore | None = None,
    ) -> None:
        self._token = robots_token(user_agent)
        self._shared = shared
        self._fetch = fetch
        self._politeness = politeness
        self._ttl_s = ttl_s
        self._retry_s = retry_s
        self._clock = clock
        self._rules: dict[str, _Rules] = {}
        self._locks: dict[str, asyncio.Lock] = {}

    @property
    def token(self) -> str:
        """The user-agent token matched against robots.txt groups."""
        return self._token

    async def check(self, url: str) -> RobotsVerdict:
        """Whether canonical http(s) `url` may be fetched by our user agent."""
        rules = await self._rules_for(robots_url(url))
        if rules.parser is None:
            return RobotsVerdict(True) if rules.allow_all else RobotsVerdict(False, rules.reason, rules.unreachable)
        if rules.parser.can_fetch(url, self._token):
            return RobotsVerdict(True)
        parts = urlsplit(url)
        path = parts.path + (f"?{parts.query}" if parts.query else "")
        return RobotsVerdict(False, f"robots.txt of {parts.netloc} disallows {path} for {self._token}")

    async def sitemaps(self, url: str) -> list[str]:
        """The sitemaps the robots.txt of `url`'s origin names (its ``Sitemap:`` lines), in its order."""
        rules = await self._rules_for(robots_url(url))
        return list(rules.parser.sitemaps) if rules.parser is not None else []

    async def _rules_for(self, robots: str) -> _Rules:
        cached = self._rules.get(robots)
        if cached is not None and cached.expires > self._clock():
            return cached
        if self._shared is not None:
            return await self._shared_rules(robots, self._shared)
        lock = self._locks.setdefault(robots, asyncio.Lock())
        async with lock:  # one fetch per origin; the others wait and read its result
            cached = self._rules.get(robots)
            if cached is not None and cached.expires > self._clock():
                return cached
            rules = self._interpret(robots, await self._fetch(robots))
            self._rules[robots] = rules
            return rules

    async def _shared_rules(self, robots: str, store: RobotsStore) -> _Rules:
        """The rules of `robots` fetched once for every query sharing `store`: this cache fetches them when it
        is first to ask, or waits for the one that is; when that fetch is abandoned (cancelled, failed) the
        waiters claim again, and one of them fetches."""
        key = (self._token, robots)
        while True:
            future, owner = store.claim(key, fresh=lambda rules: rules is not None and rules.expires > self._clock())
            if owner:
                try:
                    rules = self._interpret(robots, await self._fetch(robots))
                except BaseException:
                    future.set_result(None)  # abandoned: the next to claim fetches
                    raise
                future.set_result(rules)
                break
            rules = await asyncio.wrap_future(future)
            if rules is not None:
                if self._politeness is not None and rules.parser is not None:
                    self._apply_crawl_delay(robots, rules.parser)  # a scheduler that does not share the schedule
                break
        self._rules[robots] = rules
        return cast(_Rules, rules)

    def _interpret(self, robots: str, response: RawResponse) -> _Rules:
        now = self._clock()
        status = response.status
        if response.ok:
            body = response.body
            if response.truncated:
                # A line cut in the middle could read as a broader rule ("Allow: /public" → "Allow: /").
                body = body[: body.rfind(b"\n") + 1]
                logger.warning("%s is larger than the cap; only its first %d bytes are used", robots, len(body))
            parser = Protego.parse(body.decode("utf-8", errors="replace"))
            self._apply_crawl_delay(robots, parser)
            return _Rules(parser=parser, allow_all=False, reason="", expires=now + self._ttl_s)
        if status is not None and 400 <= status < 500:
            return _Rules(None, True, f"robots.txt answered HTTP {status}", now + self._ttl_s)
        if response.determination is Determination.HTTP_ERROR and (status is None or 300 <= status < 400):
            # RFC 9309 §2.3.1.2: a robots.txt that cannot be reached through its redirects is "unavailable".
            return _Rules(None, True, f"robots.txt unavailable ({response.reason})", now + self._ttl_s)
        origin = urlsplit(robots).netloc
        if response.determination is Determination.NETWORK_ERROR:  # no answer at all: the host is what fails
            reason = f"{response.reason} (at its robots.txt: nothing is fetched from {origin} for now)"
            logger.warning("%s", reason)
            return _Rules(None, False, reason, now + self._retry_s, unreachable=True)
        reason = (
            f"robots.txt of {origin} could not be read ({response.reason or response.determination}); "
            f"the site is treated as disallowed for now"
        )
        logger.warning("%s", reason)
        return _Rules(None, False, reason, now + self._retry_s)

    def _apply_crawl_delay(self, robots: str, parser: Protego) -> None:
        if self._politeness is None:
            return
        delay = parser.crawl_delay(self._token)
        if delay is not None:
            self._politeness.set_crawl_delay(politeness_key(robots), float(delay))
