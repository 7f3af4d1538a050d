"""May this URL be requested? Crawler traps, the allowed hosts, the URL guard and robots.txt, asked before every
request and redirect hop, in that order: a host the guard refuses never has its robots.txt fetched, and a trap
URL costs neither a DNS lookup nor a robots.txt request.
"""

from __future__ import annotations

from collections.abc import Iterable
from urllib.parse import urlsplit

from research_crawler.context.urls import host_of
from research_crawler.pages.page import Determination
from research_crawler.web.robots import RobotsCache
from research_crawler.web.url_guard import UrlGuard
from research_crawler.web.url_traps import DEFAULT_MAX_PATH_REPETITION, path_repetition_refusal

__all__ = ["RequestGate"]


class RequestGate:
    """Refuses crawler-trap URLs (a path segment repeated more than `max_path_repetition` times in a row), URLs
    outside `allowed_hosts` (when given), URLs the `guard` refuses (SSRF: addresses that are not public, unless
    allowlisted there) and URLs robots.txt disallows (when `robots`)."""

    def __init__(
        self,
        *,
        robots: RobotsCache | None,
        allowed_hosts: Iterable[str] | None = None,
        guard: UrlGuard | None = None,
        max_path_repetition: int = DEFAULT_MAX_PATH_REPETITION,
    ) -> None:
        self._max_path_repetition = max_path_repetition
        self._robots = robots
        # One meaning for an allowed host everywhere: 'host' is any port, 'host:port' that port (as the URL guard).
        self._allowed = None if allowed_hosts is None else UrlGuard(allowed_hosts=list(allowed_hosts))
        self._guard = guard or UrlGuard()

    @property
    def has_allowlist(self) -> bool:
        """True when only the allowed hosts may be reached."""
        return self._allowed is not None

    @property
    def guard(self) -> UrlGuard:
        """The URL guard every request passes."""
        return self._guard

    def host_allowed(self, url: str) -> bool:
        """True when `url`'s host may be reached at all (always, without an allowlist)."""
        if self._allowed is None:
            return True
        parts = urlsplit(url)
        port = parts.port or (443 if parts.scheme == "https" else 80)
        return parts.hostname is not None and self._allowed.allows(parts.hostname, port)

    async def refusal(self, url: str, *, obey_robots: bool = True) -> tuple[Determination, str] | None:
        """Why canonical `url` may not be requested, as (determination, reason), or None when it may."""
        trap = path_repetition_refusal(url, max_repetition=self._max_path_repetition)
        if trap is not None:
            return Determination.REFUSED, trap
        if not self.host_allowed(url):
            return Determination.HTTP_ERROR, f"refused: {host_of(url)} is not among the allowed hosts"
        guarded = await self._guard.refusal(url)
        if guarded is not None:
            return Determination.REFUSED, guarded
        if obey_robots and self._robots is not None:
            verdict = await self._robots.check(url)
            if not verdict.allowed:  # fail closed; a host that cannot be reached at all is said to be so
                kind = Determination.NETWORK_ERROR if verdict.unreachable else Determination.BLOCKED_BY_ROBOTS
                return kind, verdict.reason
        return None
