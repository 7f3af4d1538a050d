"""Retry decisions: which failures are retried, backoff growth, Retry-After parsing and its limits.

`retry_politely` is driven with scripted attempts; the waits it books on the host's schedule are recorded.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from email.utils import format_datetime

import pytest

from research_crawler.config.settings import FetchSettings
from research_crawler.pages.page import Determination, Page
from research_crawler.web.fetch_progress import FetchProgress
from research_crawler.web.politeness import HostPoliteness
from research_crawler.web.rendering import Rendered, fetch_rendered
from research_crawler.web.retries import RETRYABLE_STATUSES, parse_retry_after, retry_politely

SETTINGS = FetchSettings(max_retries=2, backoff_base_s=0.5, backoff_max_s=8.0, max_retry_after_s=60.0)


@dataclass(frozen=True)
class Scripted:
    status: int | None
    retryable: bool = False
    headers: Mapping[str, str] = field(default_factory=dict)

    @property
    def summary(self) -> str:
        return "timed out" if self.retryable else f"HTTP {self.status}"


def run(
    *attempts: Scripted, settings: FetchSettings = SETTINGS, time_left: float | None = None
) -> tuple[int, list[float], str]:
    """Plays `attempts` in order: (attempts made, the waits booked, why retrying stopped)."""
    script = list(attempts)
    booked: list[float] = []
    made = 0

    async def send() -> Scripted:
        nonlocal made
        made += 1
        return script.pop(0)

    async def play() -> tuple[Scripted, str]:
        return await retry_politely(
            send, url="http://x.test/p", settings=settings, time_left=lambda: time_left, defer=booked.append
        )

    last, give_up = asyncio.run(play())
    assert last.status == attempts[made - 1].status
    return made, booked, give_up


def test_retryable_statuses_match_scrapy_plus_408_429() -> None:
    assert frozenset({408, 429, 500, 502, 503, 504, 522, 524}) == RETRYABLE_STATUSES


def test_backoff_doubles_and_is_capped() -> None:
    settings = SETTINGS.model_copy(update={"max_retries": 5, "backoff_max_s": 3.0})
    made, booked, give_up = run(*[Scripted(503)] * 5, Scripted(200), settings=settings)
    assert (made, booked, give_up) == (6, [0.5, 1.0, 2.0, 3.0, 3.0], "")


def test_backoff_after_many_retries_stays_at_the_cap() -> None:
    settings = SETTINGS.model_copy(update={"max_retries": 2000})
    _, booked, _ = run(*[Scripted(None, retryable=True)] * 1500, Scripted(200), settings=settings)
    assert booked[-1] == 8.0 and max(booked) == 8.0


def test_retry_after_seconds_and_dates() -> None:
    now = datetime(2025, 1, 1, 12, 0, 0, tzinfo=UTC)
    assert parse_retry_after("120") == 120.0
    assert parse_retry_after(" 0 ") == 0.0
    assert parse_retry_after(format_datetime(now + timedelta(seconds=90), usegmt=True), now=now) == 90.0
    assert parse_retry_after(format_datetime(now - timedelta(hours=1), usegmt=True), now=now) == 0.0


@pytest.mark.parametrize("value", [None, "", "soon", "-5", "nan", "inf", "Mon, 99 Foo 2025"])
def test_unusable_retry_after_is_ignored(value: str | None) -> None:
    assert parse_retry_after(value) is None


@pytest.mark.parametrize("status", [200, 301, 400, 401, 403, 404, 410, 501])
def test_other_statuses_are_not_retried(status: int) -> None:
    assert run(Scripted(status)) == (1, [], "")


def test_failures_are_retried_with_growing_backoff_then_given_up() -> None:
    made, booked, give_up = run(Scripted(None, retryable=True), Scripted(None, retryable=True), Scripted(503))
    assert (made, booked, give_up) == (3, [0.5, 1.0], "after 3 attempts")


def test_a_success_after_a_failure_stops_retrying() -> None:
    assert run(Scripted(None, retryable=True), Scripted(200), Scripted(503)) == (2, [0.5], "")


@pytest.mark.parametrize("status", [429, 503])
def test_retry_after_is_honoured_for_429_and_503(status: int) -> None:
    assert run(Scripted(status, headers={"retry-after": "7"}), Scripted(200)) == (2, [7.0], "")


def test_retry_after_is_ignored_for_500() -> None:
    assert run(Scripted(500, headers={"retry-after": "7"}), Scripted(200)) == (2, [0.5], "")


def test_too_long_retry_after_gives_up_with_the_reason() -> None:
    made, booked, give_up = run(Scripted(429, headers={"retry-after": "3600"}), Scripted(200))
    assert (made, booked) == (1, [])
    assert "3600 s" in give_up and "60 s" in give_up


def test_a_wait_past_the_deadline_gives_up() -> None:
    made, booked, give_up = run(Scripted(503, headers={"retry-after": "10"}), Scripted(200), time_left=4.0)
    assert (made, booked) == (1, []) and "page deadline" in give_up


def test_no_retries_when_max_retries_is_zero() -> None:
    settings = SETTINGS.model_copy(update={"max_retries": 0})
    assert run(Scripted(503), settings=settings) == (1, [], "after 1 attempt")


def test_an_exception_in_an_attempt_is_raised_unchanged() -> None:
    async def send() -> Scripted:
        raise RuntimeError("a bug")

    async def play() -> None:
        await retry_politely(send, url="http://x.test/p", settings=SETTINGS, time_left=lambda: None, defer=print)

    with pytest.raises(RuntimeError, match="a bug"):
        asyncio.run(play())


class ScriptedRenderer:
    """A browser that answers each render with the next of `script` (the retry path of the browser strategy)."""

    def __init__(self, *script: Rendered) -> None:
        self.script = list(script)
        self.renders = 0

    async def render(
        self, url: str, *, timeout_s: float, cookies: object = None, expand: object = None, typed: object = None
    ) -> Rendered:
        self.renders += 1
        return self.script.pop(0)


def render_with(renderer: ScriptedRenderer, settings: FetchSettings) -> Page:
    async def refuse(url: str) -> None:
        return None

    async def fetch() -> Page:
        politeness = HostPoliteness(delay_s=0.0, concurrency=1, max_crawl_delay_s=0.0)
        return await fetch_rendered(
            "http://x.test/p",
            renderer=renderer,
            politeness=politeness,
            settings=settings,
            progress=FetchProgress(deadline_s=30.0),
            refuse=refuse,
            site_url="http://x.test/",
            max_link_text_chars=80,
        )

    return asyncio.run(fetch())


def test_the_browser_retries_like_http() -> None:
    settings = SETTINGS.model_copy(update={"backoff_base_s": 0.01})
    html = "<html><head><title>T</title></head><body><main><p>" + "Words of the page. " * 40 + "</p></main></body>"
    renderer = ScriptedRenderer(
        Rendered("http://x.test/p", None, failure="timed out", failure_kind=Determination.TIMEOUT),
        Rendered("http://x.test/p", 200, {"content-type": "text/html"}, html=html),
    )
    page = render_with(renderer, settings)
    assert page.determination is Determination.OK and page.attempts == 2 and renderer.renders == 2


def test_the_browser_gives_up_with_the_reason() -> None:
    renderer = ScriptedRenderer(*[Rendered("http://x.test/p", 503, {"retry-after": "0"})] * 3)
    page = render_with(renderer, SETTINGS)
    assert page.determination is Determination.HTTP_ERROR and page.attempts == 3
    assert page.reason == "HTTP 503 after 3 attempts"
