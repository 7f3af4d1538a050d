"""robots.txt once per origin across Ray workers: the actor's claim with a lease — the first asker fetches, the
others wait for its rules, and take over when it gives up or its lease lapses (a dead worker)."""

from __future__ import annotations

import asyncio
import os
import threading
import time
from collections.abc import Iterator

import pytest
from fault_server import FaultServer, Reply

from research_crawler.pages.page import Determination
from research_crawler.web.raw_response import RawResponse
from research_crawler.web.robots import RobotsCache

if os.environ.get("CI") != "true":
    pytest.importorskip("ray")
import ray

from research_crawler.scale.ray_politeness import PolitenessActor, RayRobotsStore

ROBOTS = "User-agent: *\nDisallow: /private\n"
KEY = ("rc", "http://site.org/robots.txt")


@pytest.fixture(scope="module")
def local_ray() -> Iterator[None]:
    ray.init(address="local", num_cpus=2, include_dashboard=False, configure_logging=False, log_to_driver=False)
    yield
    ray.shutdown()


@pytest.fixture
def actor(local_ray: None) -> object:
    return PolitenessActor.remote(None, None)  # type: ignore[attr-defined]


def test_two_workers_asking_at_the_same_instant_fetch_once(local_ray: None, fault_server: FaultServer) -> None:
    """Two Ray tasks (two worker processes) ask for one robots.txt together: the server is asked once."""
    actor = PolitenessActor.remote(None, None)  # type: ignore[attr-defined]
    fault_server.route("/robots.txt", Reply(200, ROBOTS, stall_s=0.5))  # slow enough for both to ask meanwhile
    page = fault_server.url("/papers")
    start_at = time.time() + 3.0  # both tasks are running by then; they ask within a millisecond of each other

    @ray.remote(num_cpus=1)
    def worker(store_actor: object) -> tuple[bool, bool]:
        import asyncio as worker_asyncio
        import time as worker_time

        import httpx

        from research_crawler.pages.page import Determination
        from research_crawler.scale.ray_politeness import RayRobotsStore as Store
        from research_crawler.web.raw_response import RawResponse as Raw
        from research_crawler.web.robots import RobotsCache as Cache

        async def fetch(url: str) -> Raw:
            async with httpx.AsyncClient() as client:
                got = await client.get(url)
            return Raw(url, url, got.status_code, Determination.OK, headers=dict(got.headers), body=got.content)

        cache = Cache(user_agent="rc/1.0", fetch=fetch, shared=Store(store_actor))
        worker_time.sleep(max(0.0, start_at - worker_time.time()))

        async def ask() -> tuple[bool, bool]:
            public, private = await cache.check(page), await cache.check(page.replace("/papers", "/private/x"))
            return public.allowed, private.allowed

        return worker_asyncio.run(ask())

    verdicts = ray.get([worker.remote(actor), worker.remote(actor)], timeout=60)
    assert verdicts == [(True, False), (True, False)]
    assert [hit.path for hit in fault_server.hits].count("/robots.txt") == 1


def response(body: str) -> RawResponse:
    return RawResponse(KEY[1], KEY[1], 200, Determination.OK, body=body.encode())


def _ask(store: RayRobotsStore, fetched: list[float], *, fetch_s: float = 0.0) -> bool:
    async def fetch(url: str) -> RawResponse:
        fetched.append(time.monotonic())
        await asyncio.sleep(fetch_s)
        return response(ROBOTS)

    cache = RobotsCache(user_agent="rc/1.0", fetch=fetch, shared=store)
    return asyncio.run(cache.check("http://site.org/private/x")).allowed


def test_a_worker_that_dies_holding_the_claim_is_taken_over_when_its_lease_lapses(actor: object) -> None:
    # A worker claimed the fetch and died: it never publishes, nor renews its lease.
    assert ray.get(actor.claim_robots.remote(KEY, "dead-worker", 1.0))[0] == "fetch"  # type: ignore[attr-defined]
    claimed = time.monotonic()
    fetched: list[float] = []
    assert _ask(RayRobotsStore(actor, lease_s=1.0), fetched) is False  # the rules, fetched by the survivor
    assert len(fetched) == 1 and fetched[0] - claimed >= 0.9  # only once the dead worker's lease ran out
    later: list[float] = []
    assert _ask(RayRobotsStore(actor), later) is False and later == []  # published: a third worker fetches nothing


def test_a_live_owner_keeps_its_claim_past_the_lease_while_it_fetches(actor: object) -> None:
    fetches: list[float] = []
    first = threading.Thread(target=_ask, args=(RayRobotsStore(actor, lease_s=0.6), fetches), kwargs={"fetch_s": 2.0})
    first.start()
    time.sleep(0.3)
    assert _ask(RayRobotsStore(actor, lease_s=0.6), fetches) is False  # waited 2 s, past three leases
    first.join()
    assert len(fetches) == 1


def test_an_owner_whose_fetch_fails_hands_the_claim_on_at_once(actor: object) -> None:
    failing = RayRobotsStore(actor, lease_s=30.0)
    started = threading.Event()

    async def broken(url: str) -> RawResponse:
        started.set()
        await asyncio.sleep(0.3)
        raise RuntimeError("connection dropped")

    def owner() -> None:
        cache = RobotsCache(user_agent="rc/1.0", fetch=broken, shared=failing)
        with pytest.raises(RuntimeError):
            asyncio.run(cache.check("http://site.org/a"))

    thread = threading.Thread(target=owner)
    thread.start()
    assert started.wait(10)
    asked = time.monotonic()
    fetched: list[float] = []
    assert _ask(RayRobotsStore(actor, lease_s=30.0), fetched) is False
    thread.join()
    assert len(fetched) == 1 and fetched[0] - asked < 5.0  # long before the 30 s lease
