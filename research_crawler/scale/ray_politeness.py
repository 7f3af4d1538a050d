"""What every Ray worker shares, through one actor: each host's start schedule (gap, Crawl-delay, Retry-After
back-off), each origin's robots.txt rules, and the model endpoint's requests and tokens per minute.

The schedule is kept in wall-clock time (the workers' monotonic clocks do not agree); robots.txt rules travel as
pickles with their expiry in wall-clock time too. Calls are small and synchronous (``ray.get``): one per request.
"""

from __future__ import annotations

import dataclasses
import pickle
import time
from concurrent.futures import Future
from typing import Any

import ray

from research_crawler.llm.rate_limit import ModelRateLimiter
from research_crawler.web.shared_politeness import LocalHostSchedule, RobotsStore, SharedPoliteness

__all__ = ["PolitenessActor", "RayHostSchedule", "RayModelLimiter", "RayRobotsStore", "ray_shared"]


@ray.remote(num_cpus=0, max_restarts=-1, max_task_retries=-1)
class PolitenessActor:
    """The one copy of the shared state, placed on the node that drives the batch (`RayQueries`); restarted
    (empty) by Ray if its process dies, and calls made meanwhile are retried rather than failed."""

    def __init__(self, requests_per_minute: int | None, tokens_per_minute: int | None) -> None:
        self._schedule = LocalHostSchedule(clock=time.time)
        self._robots: dict[tuple[str, str], tuple[bytes, float]] = {}
        self._model = (
            ModelRateLimiter(requests_per_minute=requests_per_minute, tokens_per_minute=tokens_per_minute)
            if requests_per_minute or tokens_per_minute
            else None
        )

    def reserve(self, host: str, delay_s: float) -> float:
        return self._schedule.reserve(host, delay_s)

    def begin(self, host: str, delay_s: float) -> float:
        return self._schedule.begin(host, delay_s)

    def defer(self, host: str, seconds: float) -> None:
        self._schedule.defer(host, seconds)

    def set_crawl_delay(self, host: str, seconds: float) -> None:
        self._schedule.set_crawl_delay(host, seconds)

    def crawl_delay(self, host: str) -> float:
        return self._schedule.crawl_delay(host)

    def robots(self, key: tuple[str, str]) -> tuple[bytes, float] | None:
        entry = self._robots.get(key)
        return entry if entry is not None and entry[1] > time.time() else None

    def put_robots(self, key: tuple[str, str], rules: bytes, expires_at: float) -> None:
        self._robots[key] = (rules, expires_at)

    def try_acquire(self, tokens: int) -> bool:
        return self._model is None or self._model.try_acquire(tokens)


class RayHostSchedule:
    """A `HostSchedule` whose state is the actor's (every worker of the cluster books on the same schedule)."""

    def __init__(self, actor: Any) -> None:
        self._actor = actor

    def now(self) -> float:
        return time.time()

    def reserve(self, host: str, delay_s: float) -> float:
        return float(ray.get(self._actor.reserve.remote(host, delay_s)))

    def begin(self, host: str, delay_s: float) -> float:
        return float(ray.get(self._actor.begin.remote(host, delay_s)))

    def defer(self, host: str, seconds: float) -> None:
        ray.get(self._actor.defer.remote(host, seconds))

    def set_crawl_delay(self, host: str, seconds: float) -> None:
        ray.get(self._actor.set_crawl_delay.remote(host, seconds))

    def crawl_delay(self, host: str) -> float:
        return float(ray.get(self._actor.crawl_delay.remote(host)))


class RayRobotsStore(RobotsStore):
    """A `RobotsStore` that also reads and writes the actor: rules fetched by any worker serve every worker.
    (Two workers asking at the very same moment may both fetch; after that, nobody does until it expires.)"""

    def __init__(self, actor: Any) -> None:
        super().__init__()
        self._actor = actor

    def claim(self, key: tuple[str, str], *, fresh: Any) -> tuple[Future[Any], bool]:
        future, owner = super().claim(key, fresh=fresh)
        if not owner:
            return future, False
        shared = ray.get(self._actor.robots.remote(key))
        if shared is not None:
            blob, expires_at = shared
            rules = pickle.loads(blob)
            rules = dataclasses.replace(rules, expires=time.monotonic() + (expires_at - time.time()))
            future.set_result(rules)
            return future, False
        future.add_done_callback(lambda done: self._publish(key, done))
        return future, True

    def _publish(self, key: tuple[str, str], done: Future[Any]) -> None:
        rules = done.result() if done.exception() is None else None
        if rules is None:
            return
        expires_at = time.time() + (rules.expires - time.monotonic())
        self._actor.put_robots.remote(key, pickle.dumps(rules), expires_at)


class RayModelLimiter:
    """A `RequestLimiter` on the actor's counts: the endpoint's limits hold for the whole cluster."""

    def __init__(self, actor: Any, *, poll_s: float = 0.25) -> None:
        self._actor = actor
        self._poll_s = poll_s

    def acquire(self, tokens: int) -> float:
        waited = 0.0
        while not ray.get(self._actor.try_acquire.remote(tokens)):
            time.sleep(self._poll_s)
            waited += self._poll_s
        return waited


def ray_shared(actor: Any) -> SharedPoliteness:
    """The politeness a worker's queries use: the actor's schedule and robots.txt rules."""
    return SharedPoliteness(schedule=RayHostSchedule(actor), robots=RayRobotsStore(actor))
