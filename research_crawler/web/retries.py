"""When a failed request is tried again, and after how long: Scrapy's retry set, backoff and Retry-After.

Shared by the HTTP transport and the browser strategy so that both give up for the same reasons.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import UTC, datetime
from email.utils import parsedate_to_datetime

from research_crawler.config.settings import FetchSettings

__all__ = ["RETRYABLE_STATUSES", "RetryDecision", "backoff_s", "decide_retry", "parse_retry_after"]

#: Statuses worth another attempt (Scrapy's RETRY_HTTP_CODES plus 408 and 429).
RETRYABLE_STATUSES: frozenset[int] = frozenset({408, 429, 500, 502, 503, 504, 522, 524})
#: Statuses whose Retry-After header we honour.
_RETRY_AFTER_STATUSES = frozenset({429, 503})


@dataclass(frozen=True, slots=True)
class RetryDecision:
    """Whether to try again: `wait_s` before the next attempt, or `give_up` with the reason why not."""

    retry: bool
    wait_s: float = 0.0
    give_up: str = ""


def backoff_s(retry_index: int, *, base_s: float, max_s: float) -> float:
    """Exponential backoff before retry number `retry_index` (0 for the first retry), capped at `max_s`."""
    if retry_index < 0:
        raise ValueError("retry_index must be >= 0")
    return min(base_s * (2.0 ** min(retry_index, 60)), max_s)


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


def decide_retry(
    *,
    status: int | None,
    retryable_failure: bool,
    retry_after: str | None,
    retries_done: int,
    settings: FetchSettings,
    time_left_s: float | None = None,
) -> RetryDecision:
    """Decide whether an attempt that ended with `status` (or a transport failure) is tried again.

    `retryable_failure` is True for timeouts and connection errors. `time_left_s` is what remains of the
    page deadline: a wait that would outlast it gives up now, with the reason, instead of timing out blind.
    """
    if not retryable_failure and status not in RETRYABLE_STATUSES:
        return RetryDecision(retry=False)
    if retries_done >= settings.max_retries:
        attempts = retries_done + 1
        return RetryDecision(retry=False, give_up=f"after {attempts} attempt{'s' if attempts > 1 else ''}")
    wait = backoff_s(retries_done, base_s=settings.backoff_base_s, max_s=settings.backoff_max_s)
    if status in _RETRY_AFTER_STATUSES:
        asked = parse_retry_after(retry_after)
        if asked is not None:
            if asked > settings.max_retry_after_s:
                return RetryDecision(
                    retry=False,
                    give_up=f"the server asked to retry after {asked:.0f} s, more than the "
                    f"{settings.max_retry_after_s:.0f} s we wait (attempt {retries_done + 1})",
                )
            wait = asked
    if time_left_s is not None and wait >= time_left_s:
        return RetryDecision(
            retry=False,
            give_up=f"a retry in {wait:.1f} s would pass the page deadline (attempt {retries_done + 1})",
        )
    return RetryDecision(retry=True, wait_s=wait)
