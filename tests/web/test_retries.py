"""Retry decisions: which failures are retried, backoff growth, Retry-After parsing and its limits."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from email.utils import format_datetime

import pytest

from research_crawler.config.settings import FetchSettings
from research_crawler.web.retries import RETRYABLE_STATUSES, backoff_s, decide_retry, parse_retry_after

SETTINGS = FetchSettings(max_retries=2, backoff_base_s=0.5, backoff_max_s=8.0, max_retry_after_s=60.0)


def test_retryable_statuses_match_scrapy_plus_408_429() -> None:
    assert frozenset({408, 429, 500, 502, 503, 504, 522, 524}) == RETRYABLE_STATUSES


def test_backoff_doubles_and_is_capped() -> None:
    assert [backoff_s(n, base_s=0.5, max_s=3.0) for n in range(5)] == [0.5, 1.0, 2.0, 3.0, 3.0]
    assert backoff_s(10_000, base_s=0.5, max_s=8.0) == 8.0
    with pytest.raises(ValueError):
        backoff_s(-1, base_s=1, max_s=1)


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
    decision = decide_retry(status=status, retryable_failure=False, retry_after=None, retries_done=0, settings=SETTINGS)
    assert not decision.retry and decision.give_up == ""


def test_failures_are_retried_with_growing_backoff_then_given_up() -> None:
    waits = []
    for done in range(2):
        decision = decide_retry(
            status=None, retryable_failure=True, retry_after=None, retries_done=done, settings=SETTINGS
        )
        assert decision.retry
        waits.append(decision.wait_s)
    assert waits == [0.5, 1.0]
    last = decide_retry(status=503, retryable_failure=False, retry_after=None, retries_done=2, settings=SETTINGS)
    assert not last.retry and last.give_up == "after 3 attempts"


@pytest.mark.parametrize("status", [429, 503])
def test_retry_after_is_honoured_for_429_and_503(status: int) -> None:
    decision = decide_retry(status=status, retryable_failure=False, retry_after="7", retries_done=0, settings=SETTINGS)
    assert decision.retry and decision.wait_s == 7.0


def test_retry_after_is_ignored_for_500() -> None:
    decision = decide_retry(status=500, retryable_failure=False, retry_after="7", retries_done=0, settings=SETTINGS)
    assert decision.retry and decision.wait_s == 0.5


def test_too_long_retry_after_gives_up_with_the_reason() -> None:
    decision = decide_retry(status=429, retryable_failure=False, retry_after="3600", retries_done=0, settings=SETTINGS)
    assert not decision.retry
    assert "3600 s" in decision.give_up and "60 s" in decision.give_up


def test_a_wait_past_the_deadline_gives_up() -> None:
    decision = decide_retry(
        status=503, retryable_failure=False, retry_after="10", retries_done=0, settings=SETTINGS, time_left_s=4.0
    )
    assert not decision.retry and "page deadline" in decision.give_up


def test_no_retries_when_max_retries_is_zero() -> None:
    settings = SETTINGS.model_copy(update={"max_retries": 0})
    decision = decide_retry(status=503, retryable_failure=False, retry_after=None, retries_done=0, settings=settings)
    assert not decision.retry and decision.give_up == "after 1 attempt"
