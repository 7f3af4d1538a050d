"""What every Ray worker shares, through one actor: each host's start schedule (gap, Crawl-delay, Retry-After
back-off), each origin's robots.txt rules, and the model endpoint's requests and tokens per minute.

The schedule is kept in wall-clock time (the workers' monotonic clocks do not agree); robots.txt rules travel as
pickles with their expiry in wall-clock time too. Calls are small and synchronous (``ray.get``): one per request.
A plain-HTTP request begins in two steps: the actor grants the host's turn (and holds the host), the worker writes
the request and reports the time it did (`sent`); the gap counts from that report, not from the grant, which the
worker learns of only after the answer has travelled back to it.
Each origin's robots.txt is fetched once for the cluster: the first worker to ask claims it on the actor, with a
lease it renews while it fetches; the others wait for the rules it publishes, and take the fetch over when it gives
up (its fetch failed or was cancelled) or its lease lapses (a dead worker).
"""

from __future__ import annotations

import dataclasses
import logging
import pickle
import threading
import time
import uuid
from concurrent.futures import Future
from typing import Any, Literal

import ray

from research_crawler.llm.rate_limit import ModelRateLimiter
from research_crawler.web.shared_politeness import LocalHostSchedule, RobotsStore, SharedPoliteness

__all__ = ["PolitenessActor", "RayHostSchedule", "RayModelLimiter", "RayRobotsStore", "ray_shared"]

logger = logging.getLogger(__name__)

#: What the actor answers a worker asking for an origin's robots.txt: the rules (published and fresh), "fetch" (the
#: asker now holds the claim and fetches), or "wait" (another worker's claim is live).
RobotsClaim = tuple[Literal["rules", "fetch", "wait"], bytes | None, float]


@ray.remote(num_cpus=0, max_restarts=-1, max_task_retries=-1)
class PolitenessActor:
    """The one copy of the shared state, placed on the node that drives the batch (`RayQueries`); restarted
    (empty) by Ray if its process dies, and calls made meanwhile are retried rather than failed."""

    def __init__(self, requests_per_minute: int | None, tokens_per_minute: int | None) -> None:
        self._schedule = LocalHostSchedule(clock=time.time)
        self._robots: dict[tuple[str, str], tuple[bytes, float]] = {}
        #: Who fetches each origin's robots.txt now, and until when their lease runs (wall-clock time).
        self._robots_claims: dict[tuple[str, str], tuple[str, float]] = {}
        self._model = (
            ModelRateLimiter(requests_per_minute=requests_per_minute, tokens_per_minute=tokens_per_minute)
            if requests_per_minute or tokens_per_minute
            else None
        )

    def reserve(self, host: str, delay_s: float) -> float:
        return self._schedule.reserve(host, delay_s)

    def begin(self, host: str, delay_s: float, ticket: str | None = None) -> float:
        return self._schedule.begin(host, delay_s, ticket=ticket)

    def sent(self, host: str, ticket: str, at: float) -> None:
        self._schedule.sent(host, ticket, at)

    def defer(self, host: str, seconds: float) -> None:
        self._schedule.defer(host, seconds)

    def set_crawl_delay(self, host: str, seconds: float) -> None:
        self._schedule.set_crawl_delay(host, seconds)

    def crawl_delay(self, host: str) -> float:
        return self._schedule.crawl_delay(host)

    def claim_robots(self, key: tuple[str, str], owner: str, lease_s: float) -> RobotsClaim:
        """`key`'s fresh rules; else the claim to fetch them (kept for `lease_s`), unless another owner's is live."""
        now = time.time()
        entry = self._robots.get(key)
        if entry is not None and entry[1] > now:
            return "rules", entry[0], entry[1]
        claim = self._robots_claims.get(key)
        if claim is not None and claim[0] != owner and claim[1] > now:
            return "wait", None, claim[1]
        self._robots_claims[key] = (owner, now + lease_s)
        return "fetch", None, 0.0

    def renew_robots(self, key: tuple[str, str], owner: str, lease_s: float) -> bool:
        """Extend `owner`'s lease on `key` (it is still fetching); False when the claim is no longer its own."""
        claim = self._robots_claims.get(key)
        if claim is None or claim[0] != owner:
            return False
        self._robots_claims[key] = (owner, time.time() + lease_s)
        return True

    def put_robots(self, key: tuple[str, str], owner: str, rules: bytes, expires_at: float) -> None:
        """Publish `key`'s rules (whoever fetched them) and end `owner`'s claim."""
        self._robots[key] = (rules, expires_at)
        self.release_robots(key, owner)

    def release_robots(self, key: tuple[str, str], owner: str) -> None:
        """`owner` gives up its claim (its fetch failed or was cancelled): the next asker fetches."""
        claim = self._robots_claims.get(key)
        if claim is not None and claim[0] == owner:
            del self._robots_claims[key]

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

    def begin(self, host: str, delay_s: float, *, ticket: str | None = None) -> float:
        return float(ray.get(self._actor.begin.remote(host, delay_s, ticket)))

    def sent(self, host: str, ticket: str, at: float) -> None:
        # Not waited for: the time is the worker's, taken as the request left; until the actor has it, the host's
        # next begin is not granted (and the actor's calls from one worker run in the order they were made).
        self._actor.sent.remote(host, ticket, at)

    def defer(self, host: str, seconds: float) -> None:
        ray.get(self._actor.defer.remote(host, seconds))

    def set_crawl_delay(self, host: str, seconds: float) -> None:
        ray.get(self._actor.set_crawl_delay.remote(host, seconds))

    def crawl_delay(self, host: str) -> float:
        return float(ray.get(self._actor.crawl_delay.remote(host)))


class RayRobotsStore(RobotsStore):
    """A `RobotsStore` on the actor: each origin's robots.txt is fetched once for every worker of the cluster.

    Within this process the queries share one claim (the parent class); across processes the actor decides who
    fetches. A worker told to wait polls every `poll_s` until the rules are published, or until the claim comes to it
    (the owner gave up, or missed renewing its `lease_s` lease: a dead worker), and then fetches itself.
    """

    def __init__(self, actor: Any, *, lease_s: float = 10.0, poll_s: float = 0.05) -> None:
        super().__init__()
        self._actor = actor
        self._lease_s = lease_s
        self._poll_s = poll_s
        self._owner = uuid.uuid4().hex  # this worker, as the actor knows it

    def claim(self, key: tuple[str, str], *, fresh: Any) -> tuple[Future[Any], bool]:
        future, owner = super().claim(key, fresh=fresh)
        if not owner:
            return future, False
        verdict, blob, expires_at = ray.get(self._actor.claim_robots.remote(key, self._owner, self._lease_s))
        if verdict == "rules" and blob is not None:
            future.set_result(_local_rules(blob, expires_at))
            return future, False
        if verdict == "fetch":
            self._hold(key, future)
            return future, True
        # Another worker fetches. A result of None makes the callers claim again (`RobotsCache`): the claim is then
        # this worker's, and one of its queries fetches.
        threading.Thread(target=self._wait_for_other, args=(key, future), daemon=True).start()
        return future, False

    def _hold(self, key: tuple[str, str], future: Future[Any]) -> None:
        """Keep the claim on `key` while this worker fetches (renewing its lease), then publish or release it."""
        done = threading.Event()
        future.add_done_callback(lambda _: done.set())

        def renew() -> None:
            while not done.wait(self._lease_s / 3):
                if not ray.get(self._actor.renew_robots.remote(key, self._owner, self._lease_s)):
                    logger.info("the claim on %s lapsed while it was fetched; another worker took it over", key[1])
                    return

        threading.Thread(target=renew, daemon=True).start()
        future.add_done_callback(lambda finished: self._publish(key, finished))

    def _wait_for_other(self, key: tuple[str, str], future: Future[Any]) -> None:
        while True:
            time.sleep(self._poll_s)
            try:
                verdict, blob, expires_at = ray.get(self._actor.claim_robots.remote(key, self._owner, self._lease_s))
            except Exception as exc:  # the actor is gone: the queries fetch for themselves
                logger.warning("cannot ask the shared robots.txt store: %s", exc)
                future.set_result(None)
                return
            if verdict == "rules" and blob is not None:
                future.set_result(_local_rules(blob, expires_at))
                return
            if verdict == "fetch":
                future.set_result(None)
                return

    def _publish(self, key: tuple[str, str], done: Future[Any]) -> None:
        rules = done.result() if done.exception() is None else None
        if rules is None:
            self._actor.release_robots.remote(key, self._owner)
            return
        expires_at = time.time() + (rules.expires - time.monotonic())
        self._actor.put_robots.remote(key, self._owner, pickle.dumps(rules), expires_at)


def _local_rules(blob: bytes, expires_at: float) -> Any:
    """Rules published on the actor, their expiry moved from wall-clock time to this process's monotonic clock."""
    rules = pickle.loads(blob)
    return dataclasses.replace(rules, expires=time.monotonic() + (expires_at - time.time()))


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
