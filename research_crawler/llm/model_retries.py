"""Retrying a model call: which failures are worth another try (`TransientModelError`), and for how long.

tenacity runs the loop (attempts, exponential backoff, the stop conditions, the sleep). What tenacity cannot know is
ours: the server's Retry-After when it asks for longer than the backoff, a total retry time that no wait may pass,
a clock that leaves out the time spent queued for the endpoint, and why it gave up, said in the error. A request
the endpoint calls malformed is a plain `ModelError` (openai_client.py), so it is never retried.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import NoReturn, TypeVar

from tenacity import RetryCallState, Retrying, retry_if_exception_type, wait_exponential

from research_crawler.config.settings import ModelSettings
from research_crawler.errors import ModelError

__all__ = ["TransientModelError", "call_with_retries"]

logger = logging.getLogger(__name__)

T = TypeVar("T")


class TransientModelError(ModelError):
    """A failure worth retrying: 429, 5xx, 408, a timeout or a dropped connection.

    `retry_after` is the wait in seconds the server asked for, when it said; `status` the HTTP status.
    """

    def __init__(self, message: str, *, retry_after: float | None = None, status: int | None = None) -> None:
        super().__init__(message)
        self.retry_after = retry_after
        self.status = status


def call_with_retries(
    send: Callable[[], T],
    *,
    settings: ModelSettings,
    spent: Callable[[], float],
    sleep: Callable[[float], None],
    caller: str,
) -> T:
    """`send()` again after each `TransientModelError`, until it answers or a limit stops it.

    Any other exception is raised unchanged at once. When retrying stops, raises `ModelError` with the last
    failure and why (`caller` names who gave up). `spent` is the time the call has taken so far, as the retry
    budget (`max_total_retry_s`) counts it; `sleep` waits between attempts.
    """
    backoff = wait_exponential(multiplier=settings.backoff_base_s, max=settings.backoff_max_s)

    def wait(state: RetryCallState) -> float:
        asked = _failure(state).retry_after
        return backoff(state) if asked is None else max(backoff(state), asked)

    def stop(state: RetryCallState) -> bool:  # the tries are spent, or the next wait would pass the retry budget
        return state.attempt_number > settings.max_retries or (
            spent() + state.upcoming_sleep > settings.max_total_retry_s
        )

    def give_up(state: RetryCallState) -> NoReturn:
        failure, attempts, elapsed = _failure(state), state.attempt_number, spent()
        why = f"after {attempts} attempt(s) in {elapsed:.1f} s"
        if attempts <= settings.max_retries:
            why += (
                f": waiting {state.upcoming_sleep:.1f} s more would pass the retry budget of "
                f"{settings.max_total_retry_s:.0f} s"
            )
        # the endpoint's error says what failed (and names the endpoint once): not said again
        raise ModelError(f"{failure} — {caller} gave up {why}") from failure

    def log_retry(state: RetryCallState) -> None:
        failure, attempt, wait_s = _failure(state), state.attempt_number, state.upcoming_sleep
        logger.warning("model call of %s failed (%s); retry %d in %.2f s", caller, failure, attempt, wait_s)

    retrying = Retrying(
        retry=retry_if_exception_type(TransientModelError),
        wait=wait,
        stop=stop,
        sleep=sleep,
        before_sleep=log_retry,
        retry_error_callback=give_up,
    )
    result: T = retrying(send)
    return result


def _failure(state: RetryCallState) -> TransientModelError:
    """The failure the last attempt ended with: tenacity retries on nothing but `TransientModelError`."""
    assert state.outcome is not None
    failure = state.outcome.exception()
    assert isinstance(failure, TransientModelError)
    return failure
