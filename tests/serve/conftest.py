"""The web app under test: settings for runs on the testbed with the simulated model, an ASGI client that talks
to the app as a browser on loopback would, and helpers to read its event stream."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from research_crawler.config.overrides import apply_overrides
from research_crawler.config.settings import Settings
from research_crawler.eval.testbed import TestbedServer
from research_crawler.serve.app import create_app

#: The address the test client presents (Host header): what a browser on this machine sends.
BASE_URL = "http://127.0.0.1:8765"


@pytest.fixture
def serve_settings(tmp_path: Path, testbed_server: TestbedServer) -> Settings:
    """Runs in tmp_path/runs against the testbed's loopback ports, no politeness delay, the bm25 reranker."""
    return apply_overrides(
        Settings(),
        {
            "runs_dir": str(tmp_path / "runs"),
            "fetch.allowed_hosts": testbed_server.allowed_hosts(),
            "fetch.per_host_delay_s": 0,
            "rerank.kind": "bm25",
            "models.backoff_base_s": 0.01,
            "models.backoff_max_s": 0.02,
        },
    )


@pytest.fixture
def app(serve_settings: Settings) -> FastAPI:
    return create_app(serve_settings, backend="simulated")


@pytest.fixture
def client(app: FastAPI) -> Iterator[TestClient]:
    with TestClient(app, base_url=BASE_URL) as test_client:  # leaving it shuts the app down: runs are stopped
        yield test_client


def read_events(client: TestClient, run_id: str, *, after: int = 0) -> list[tuple[str, dict[str, Any]]]:
    """Every (event, data) of the run's event stream, until its `end`."""
    events: list[tuple[str, dict[str, Any]]] = []
    kind = ""
    with client.stream("GET", f"/api/runs/{run_id}/events", params={"after": after}) as response:
        assert response.status_code == 200
        assert response.headers["content-type"].startswith("text/event-stream")
        for line in response.iter_lines():
            if line.startswith("event: "):
                kind = line.removeprefix("event: ")
            elif line.startswith("data: "):
                events.append((kind, json.loads(line.removeprefix("data: "))))
    assert events and events[-1][0] == "end", "the stream ended without its end event"
    return events


def log_lines(events: list[tuple[str, dict[str, Any]]]) -> list[str]:
    return [data["line"] for kind, data in events if kind == "log"]
