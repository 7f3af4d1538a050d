"""When a failed request is tried again, and after how long: Scrapy's retry set, backoff and Retry-After.

The loop is tenacity's (attempts, exponential backoff, stop conditions). What tenacity cannot know is ours: which
outcomes are worth another attempt, the server's Retry-After and the longest we honour, the page's deadline (a wait
that would outlast it gives up now, with the reason), and that a wait is booked on the host's politeness schedule
(`defer`) rather than slept here, so no other request to that host starts meanwhile. Shared by the HTTP transport
and the browser strategy so that both give up for the same reasons.
"""

from __future__ import annotations

import logging
import math
from collections.abc import Awaitable, Callable, Mapping
from datetime import UTC, datetime
from email.utils import parsedate_to_datetime
from typing import Protocol, TypeVar

from tenacity import AsyncRetrying, RetryCallState, retry_if_result, wait_exponential

from research_crawler.config.settings import FetchSettings

__all__ = ["RETRYABLE_STATUSES", "Attempt", "parse_retry_after", "retry_politely"]

logger = logging.getLogger(__name__)

#: Statuses worth another attempt (Scrapy's RETRY_HTTP_CODES plus 408 and 429).
RETRYABLE_STATUSES: frozenset[int] = frozenset({408, 429, 500, 502, 503, 504, 522, 524})
#: Statuses whose Retry-After header we honour.
_RETRY_AFTER_STATUSES = frozenset({429, 503})


class Attempt(Protocol):
    """What one attempt ended with, as far as retrying goes (an HTTP exchange or a browser render)."""

    @property
    def status(self) -> int | None: ...
    @property
    def headers(self) -> Mapping[str, str]: ...
    @property
    def retryable(self) -> bool:
        """A timeout or a connection error: worth another attempt whatever the status."""
        ...

    @property
    def summary(self) -> str: ...


AttemptT = TypeVar("AttemptT", bound=Attempt)


def parse_retry_after(value: str | None, *, now: datetime | None = None) -> float | None:
    """Seconds to wait from a Retry-After header (delay-seconds or an HTTP date); None when unusable.

    A date in the past means 0. Garbage, negative numbers and NaN give None (the header is ignored).
    """
    if value is None:
        return None
    text = value.strip()
    if not text:
        return None
    try:
        seconds = float(text)
    except ValueError:
        pass
    else:
        return seconds if math.isfinite(seconds) and seconds >= 0 else None
    try:
        when = parsedate_to_datetime(text)
    except (TypeError, ValueError, IndexError):
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    return max(0.0, (when - (now or datetime.now(UTC))).total_seconds())


def _worth_retrying(attempt: Attempt) -> bool:
    return attempt.retryable or attempt.status in RETRYABLE_STATUSES


def _asked_wait(attempt: Attempt) -> float | None:
    """The wait the server asked for (429 and 503 only), or None."""
    if attempt.status not in _RETRY_AFTER_STATUSES:
        return None
    return parse_retry_after(attempt.headers.get("retry-after"))


async def retry_politely(
    send: Callable[[], Awaitable[AttemptT]],
    *,
    url: str,
    settings: FetchSettings,
    time_left: Callable[[], float | None],
    defer: Callable[[float], None],
) -> tuple[AttemptT, str]:
    """Call `send` until its attempt is not worth retrying or a limit stops it.

    Returns the last attempt and why retrying stopped ('' when it stopped because no retry was needed). Between
    attempts the wait (the backoff, or the Retry-After of a 429/503) goes to `defer`, the host's schedule;
    `time_left` is what remains of the page deadline (None: no deadline).
    """
    backoff = wait_exponential(multiplier=settings.backoff_base_s, max=settings.backoff_max_s)
    give_up = ""

    def last(state: RetryCallState) -> AttemptT:
        assert state.outcome is not None  # tenacity decides only after an attempt has ended
        result: AttemptT = state.outcome.result()
        return result

    def wait(state: RetryCallState) -> float:
        asked = _asked_wait(last(state))
        return backoff(state) if asked is None else asked

    def stop(state: RetryCallState) -> bool:
        nonlocal give_up
        attempts, wait_s = state.attempt_number, state.upcoming_sleep
        asked = _asked_wait(last(state))
        left = time_left()
        if attempts > settings.max_retries:
            give_up = f"after {attempts} attempt{'s' if attempts > 1 else ''}"
        elif asked is not None and asked > settings.max_retry_after_s:
            give_up = (
                f"the server asked to retry after {asked:.0f} s, more than the "
                f"{settings.max_retry_after_s:.0f} s we wait (attempt {attempts})"
            )
        elif left is not None and wait_s >= left:
            give_up = f"a retry in {wait_s:.1f} s would pass the page deadline (attempt {attempts})"
        return bool(give_up)

    async def book(wait_s: float) -> None:  # tenacity's sleep, made a booking: the next attempt's slot waits
        defer(wait_s)

    def log_retry(state: RetryCallState) -> None:
        logger.info("retrying %s in %.1f s after %s", url, state.upcoming_sleep, last(state).summary)

    retrying = AsyncRetrying(
        retry=retry_if_result(_worth_retrying),
        wait=wait,
        stop=stop,
        sleep=book,
        before_sleep=log_retry,
        retry_error_callback=last,
    )
    result: AttemptT = await retrying(send)
    return result, give_up
