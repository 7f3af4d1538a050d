"""`batch --backend ray` on a local Ray instance and on a two-node cluster on this machine: the same summary as
local, one pace per host across workers (the testbed's request log), and no query lost when a node dies."""

from __future__ import annotations

import csv
import itertools
import json
import os
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from research_crawler.cli.batch import SUMMARY_FILE, BatchRunner
from research_crawler.cli.batch_file import load_batch
from research_crawler.config.settings import Settings
from research_crawler.eval.testbed import TestbedServer
from research_crawler.eval.testbed.models import Testbed
from research_crawler.run.trace import read_trace

if os.environ.get("CI") != "true":
    pytest.importorskip("ray")
import ray
from ray.cluster_utils import Cluster


def _settings(server: TestbedServer, delay: float = 0.0) -> Settings:
    settings = Settings()
    settings.fetch.allowed_hosts = server.allowed_hosts()
    settings.fetch.per_host_delay_s = delay
    settings.rerank.kind = "bm25"
    settings.models.backoff_base_s = 0.01
    return settings


def _batch(tmp_path: Path, testbed: Testbed, server: TestbedServer, site: str, count: int) -> Path:
    path = tmp_path / "queries.jsonl"
    queries = [query.text for query in testbed.queries_for(site)[:count]]
    path.write_text(
        "".join(json.dumps({"query": q, "sites": [server.base_url(site)]}) + "\n" for q in queries), encoding="utf-8"
    )
    return path


def _summary(out: Path) -> list[tuple[str, str, str]]:
    with (out / "summary.csv").open(encoding="utf-8", newline="") as handle:
        rows = sorted(csv.DictReader(handle), key=lambda row: int(row["index"]))  # appended as the queries end
        return [(row["query"], row["items"], row["stop_reason"]) for row in rows]


@pytest.fixture
def local_ray() -> Iterator[None]:
    ray.init(address="local", num_cpus=2, include_dashboard=False, configure_logging=False, log_to_driver=False)
    yield
    ray.shutdown()


def test_a_batch_on_ray_has_the_same_summary_as_local(
    local_ray: None, tmp_path: Path, testbed: Testbed, testbed_server: TestbedServer
) -> None:
    entries = load_batch(_batch(tmp_path, testbed, testbed_server, "journal-like", 3))
    settings = _settings(testbed_server)
    local = BatchRunner(entries, settings=settings, out_dir=tmp_path / "local", backend="simulated", concurrency=2)
    on_ray = BatchRunner(
        entries, settings=settings, out_dir=tmp_path / "ray", backend="simulated", concurrency=2, scale="ray"
    )
    assert local.run().statuses == {"done": 3}
    assert on_ray.run().statuses == {"done": 3}
    assert _summary(tmp_path / "ray") == _summary(tmp_path / "local")
    assert all((tmp_path / "ray" / entry.run_dir_name() / "report.md").exists() for entry in entries)
    # run again: every finished query is skipped, as with local
    assert BatchRunner(
        entries, settings=settings, out_dir=tmp_path / "ray", backend="simulated", scale="ray"
    ).run().statuses == {"skipped": 3}  # fmt: skip


@pytest.fixture
def two_nodes() -> Iterator[Cluster]:
    cluster = Cluster(initialize_head=True, head_node_args={"num_cpus": 0})  # tasks run on the worker nodes only
    cluster.add_node(num_cpus=1)
    cluster.add_node(num_cpus=1)
    cluster.wait_for_nodes()
    ray.init(address=cluster.address, configure_logging=False, log_to_driver=False)
    yield cluster
    ray.shutdown()
    cluster.shutdown()


def test_two_nodes_keep_one_pace_per_host_and_lose_no_query_when_a_node_dies(
    two_nodes: Cluster, tmp_path: Path, testbed: Testbed, testbed_server: TestbedServer
) -> None:
    delay = 1.0
    entries = load_batch(_batch(tmp_path, testbed, testbed_server, "arxiv-like", 4))
    runner = BatchRunner(
        entries, settings=_settings(testbed_server, delay), out_dir=tmp_path / "out", backend="simulated",
        concurrency=4, scale="ray",
    )  # fmt: skip
    testbed_server.reset_hits()
    worker = threading.Thread(target=runner.run)
    worker.start()
    # As soon as a query has written its run directory, both nodes running queries die and two others join: that
    # query (whichever node ran it) is cut mid-way.
    deadline = time.monotonic() + 120
    while not list((tmp_path / "out").glob("*/run.json")) and time.monotonic() < deadline:
        time.sleep(0.05)
    victims = list(two_nodes.worker_nodes)
    for _ in victims:
        two_nodes.add_node(num_cpus=1)
    for victim in victims:
        two_nodes.remove_node(victim)
    worker.join(timeout=600)
    assert not worker.is_alive()
    with (tmp_path / "out" / SUMMARY_FILE).open(encoding="utf-8") as summary:
        rows = list(csv.DictReader(summary))
    assert len(rows) == len(entries)
    assert all(row["status"] in {"done", "resumed"} for row in rows), [(r["status"], r["error"]) for r in rows]
    assert all((tmp_path / "out" / entry.run_dir_name() / "report.md").exists() for entry in entries)
    actions = [
        [event["action"] for event in read_trace(path) if event["event"] == "run"]
        for path in sorted((tmp_path / "out").glob("*/trace.jsonl"))
    ]
    # the query the dying node was running was tried again on another and continued from its run directory
    assert any(run[:2] == ["start", "resume"] for run in actions), actions
    hits = sorted(testbed_server.hits("arxiv-like"), key=lambda hit: hit.time)
    times = [hit.time for hit in hits]
    gaps = [later - earlier for earlier, later in itertools.pairwise(times)]
    # Arrivals as the server's kernel stamped them. A request's turn is granted on the actor, its headers written on
    # the worker as the answer arrives, and the worker reports when they were: the next turn on the host counts its gap
    # from that report, so the full delay holds on the wire, whatever the answer's travel time. The 5 ms allow only
    # for the clocks (the workers' wall clock; the server reads its wall and monotonic clocks one after the other).
    # Without the shared schedule, the two nodes' requests arrive a few milliseconds apart.
    close = [
        (a.path, b.path, round(b.time - a.time, 4))
        for a, b in itertools.pairwise(hits)
        if b.time - a.time < delay - 0.005
    ]
    assert len(times) >= 8 and min(gaps) >= delay - 0.005, close


def test_the_model_endpoints_limits_hold_for_every_worker(local_ray: None) -> None:
    from research_crawler.scale.ray_politeness import PolitenessActor, RayHostSchedule

    actor = PolitenessActor.remote(3, None)  # type: ignore[attr-defined]

    @ray.remote
    def one_call() -> bool:
        return bool(ray.get(actor.try_acquire.remote(100)))

    granted = ray.get([one_call.remote() for _ in range(5)])
    assert sorted(granted) == [False, False, True, True, True]  # 3 a minute, whichever worker asks
    schedule = RayHostSchedule(actor)
    first, second = schedule.reserve("site.org", 2.0), schedule.reserve("site.org", 2.0)
    assert second - first == pytest.approx(2.0)


def test_without_an_address_the_batch_starts_a_ray_instance_of_its_own(monkeypatch: pytest.MonkeyPatch) -> None:
    """A cluster named by the environment (or the last one started on this machine) is another program's: without
    --ray-address the batch starts its own local instance instead of joining it, or failing to."""
    from research_crawler.scale.ray_queries import start_ray

    monkeypatch.setenv("RAY_ADDRESS", "127.0.0.1:9")  # nobody listens there
    start_ray(None)
    try:
        assert ray.is_initialized()
        assert ray.get(ray.remote(lambda: 2 + 2).remote()) == 4
    finally:
        ray.shutdown()
