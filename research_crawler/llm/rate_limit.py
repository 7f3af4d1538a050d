"""A shared limit on model requests and tokens per minute, for every agent of a run (sites in parallel too).

Endpoints enforce requests- and tokens-per-minute limits; staying under them avoids 429 storms when
several sites are explored at once. The moving-window accounting comes from the `limits` library; this
module only makes it blocking and thread-safe for AG2's worker threads.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Protocol

from limits import RateLimitItemPerMinute
from limits.storage import MemoryStorage
from limits.strategies import MovingWindowRateLimiter

from research_crawler.config.settings import Settings

__all__ = ["ModelRateLimiter", "RequestLimiter", "shared_model_limiter"]


class RequestLimiter(Protocol):
    """What a model client waits on before each call: this module's limiter, or one shared by a cluster."""

    def acquire(self, tokens: int) -> float: ...


class ModelRateLimiter:
    """Blocks a model call until it fits within `requests_per_minute` and `tokens_per_minute` (None: no limit)."""

    def __init__(
        self,
        *,
        requests_per_minute: int | None,
        tokens_per_minute: int | None,
        sleep: Callable[[float], None] = time.sleep,
        poll_s: float = 0.25,
    ) -> None:
        self._limiter = MovingWindowRateLimiter(MemoryStorage())
        self._requests = RateLimitItemPerMinute(requests_per_minute) if requests_per_minute else None
        self._tokens = RateLimitItemPerMinute(tokens_per_minute) if tokens_per_minute else None
        self._lock = threading.Lock()
        self._sleep = sleep
        self._poll_s = poll_s

    def acquire(self, tokens: int) -> float:
        """Wait until a call of about `tokens` input tokens may go; returns the seconds waited."""
        waited = 0.0
        while not self.try_acquire(tokens):
            self._sleep(self._poll_s)
            waited += self._poll_s
        return waited

    def try_acquire(self, tokens: int) -> bool:
        """Count a call of about `tokens` input tokens if it fits within the limits now; whether it did."""
        cost = max(1, min(tokens, self._tokens.amount)) if self._tokens else 1
        with self._lock:
            fits = (self._requests is None or self._limiter.test(self._requests, "requests")) and (
                self._tokens is None or self._limiter.test(self._tokens, "tokens", cost=cost)
            )
            if fits:
                if self._requests is not None:
                    self._limiter.hit(self._requests, "requests")
                if self._tokens is not None:
                    self._limiter.hit(self._tokens, "tokens", cost=cost)
            return fits


def shared_model_limiter(settings: Settings) -> ModelRateLimiter | None:
    """One limiter for several queries of one process (a batch, an evaluation) from `settings.models`' limits;
    None when there are none."""
    models = settings.models
    if not (models.requests_per_minute or models.tokens_per_minute):
        return None
    return ModelRateLimiter(requests_per_minute=models.requests_per_minute, tokens_per_minute=models.tokens_per_minute)
