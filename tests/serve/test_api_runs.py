"""The web app's API against the testbed with the simulated model: a run from start to report over server-sent
events, follow-ups, cancel, resume, the concurrency limit, and runs that live in runs_dir beyond the server."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from conftest import BASE_URL, log_lines, read_events
from fastapi.testclient import TestClient

from research_crawler import ResearchCrawler
from research_crawler.config.settings import Settings
from research_crawler.eval.testbed import TestbedServer
from research_crawler.eval.testbed.models import Testbed
from research_crawler.run.run_dir import RUN_FILE, RunMeta, new_run_dir
from research_crawler.run.run_lock import holding_run_dir
from research_crawler.serve.app import create_app
from research_crawler.serve.run_files import RunNotFound, run_directory


def _start(client: TestClient, query: str, site: str, **options: object) -> str:
    response = client.post("/api/runs", json={"query": query, "sites": [site], **options})
    assert response.status_code == 201, response.text
    body = response.json()
    assert body["status"] == "running" and body["url"] == f"/runs/{body['id']}"
    return str(body["id"])


def test_a_run_streams_its_progress_and_ends_with_its_report(
    client: TestClient, testbed: Testbed, testbed_server: TestbedServer, serve_settings: Settings
) -> None:
    query = testbed.queries_for("arxiv-like")[0]
    run_id = _start(client, query.text, testbed_server.base_url("arxiv-like"))
    events = read_events(client, run_id)
    lines = log_lines(events)
    assert lines[0].startswith("Searching:") and "simulated model" in lines[0]
    assert any(line.startswith("fetched http://127.0.0.1:") for line in lines)
    assert any(line.startswith("+") and "item(s): " in line for line in lines)
    numbers = [data["n"] for kind, data in events if kind == "log"]
    assert numbers == list(range(1, len(numbers) + 1)), "log lines are numbered in order, none missing"
    progress = [data for kind, data in events if kind == "progress"][-1]
    assert progress["items"] >= 1 and progress["model_calls"] >= 1 and progress["pages_fetched"] >= 1
    assert progress["latest"], "the titles of the latest items collected"
    assert progress["cost"].endswith("at list prices"), "a simulated run shows what real models would cost"
    assert events[-1] == ("end", {"status": "done", "error": None})

    state = client.get(f"/api/runs/{run_id}").json()
    assert state["status"] == "done" and state["queries"] == [query.text]
    report = state["report"]
    assert report["simulated_model"] is True and report["items"]
    assert {item["url"] for item in report["items"]} & testbed_server.relevant_urls(query.id)
    assert (serve_settings.runs_dir / run_id / "report.json").is_file(), "the run lives in runs_dir"

    # A stream opened after the end replays the lines after the cursor, then ends at once.
    again = read_events(client, run_id, after=len(numbers) - 1)
    assert log_lines(again) == lines[-1:]


def test_a_follow_up_continues_the_same_run(
    client: TestClient, testbed: Testbed, testbed_server: TestbedServer
) -> None:
    run_id = _start(client, testbed.queries_for("arxiv-like")[0].text, testbed_server.base_url("arxiv-like"))
    first = read_events(client, run_id)
    cursor = max(data["n"] for kind, data in first if kind == "log")
    response = client.post(f"/api/runs/{run_id}/follow-up", json={"query": "only 2025"})
    assert response.status_code == 202, response.text
    second = read_events(client, run_id, after=cursor)
    assert log_lines(second)[0].startswith('Following up: "only 2025"')
    state = client.get(f"/api/runs/{run_id}").json()
    assert state["status"] == "done"
    assert state["queries"] == [testbed.queries_for("arxiv-like")[0].text, "only 2025"]
    assert state["report"]["query"] == "only 2025"
    assert all(item["date"].startswith("2025") for item in state["report"]["items"])


def test_cancel_stops_a_working_run_and_its_report_keeps_what_was_found(
    client: TestClient, serve_settings: Settings, testbed: Testbed, testbed_server: TestbedServer
) -> None:
    serve_settings.simulated.latency_s = 0.2
    run_id = _start(client, testbed.queries_for("journal-like")[0].text, testbed_server.base_url("journal-like"))
    busy = client.post(f"/api/runs/{run_id}/follow-up", json={"query": "only 2025"})
    assert busy.status_code == 409 and "still working" in busy.json()["detail"]
    assert client.post(f"/api/runs/{run_id}/cancel").status_code == 202
    events = read_events(client, run_id)
    assert events[-1] == ("end", {"status": "cancelled", "error": None})
    state = client.get(f"/api/runs/{run_id}").json()
    assert state["status"] == "cancelled" and state["report"]["stop_reason"] == "interrupted"
    again = client.post(f"/api/runs/{run_id}/cancel")
    assert again.status_code == 409 and "nothing to cancel" in again.json()["detail"]


def test_one_run_too_many_is_refused_with_429(
    serve_settings: Settings, testbed: Testbed, testbed_server: TestbedServer
) -> None:
    serve_settings.serve.max_concurrent_runs = 1
    serve_settings.simulated.latency_s = 0.2
    app = create_app(serve_settings, backend="simulated")
    with TestClient(app, base_url=BASE_URL) as client:
        run_id = _start(client, testbed.queries_for("arxiv-like")[0].text, testbed_server.base_url("arxiv-like"))
        refused = client.post("/api/runs", json={"query": "papers on protein design"})
        assert refused.status_code == 429
        assert "serve.max_concurrent_runs" in refused.json()["detail"]
        client.post(f"/api/runs/{run_id}/cancel")
        read_events(client, run_id)
        assert len(client.get("/api/runs").json()["runs"]) == 1, "the refused request left no run directory"


def test_runs_outlive_the_server_and_an_unfinished_one_resumes(
    serve_settings: Settings, testbed: Testbed, testbed_server: TestbedServer
) -> None:
    # A run made without the web app (as `ask` makes it) and one killed before its report.
    crawler = ResearchCrawler(serve_settings, backend="simulated")
    site = testbed_server.base_url("arxiv-like")
    finished = crawler.run(testbed.queries_for("arxiv-like")[0].text, sites=[site])
    killed = new_run_dir(serve_settings.runs_dir, "papers on graph neural networks")
    RunMeta(query="papers on graph neural networks", sites=[site], backend="simulated").write(killed)

    with TestClient(create_app(serve_settings, backend="simulated"), base_url=BASE_URL) as client:
        runs = {run["id"]: run for run in client.get("/api/runs").json()["runs"]}
        assert runs[Path(finished.run_dir or "").name]["status"] == "done"
        assert runs[Path(finished.run_dir or "").name]["items"] == len(finished.items)
        assert runs[killed.name]["status"] == "unfinished" and runs[killed.name]["items"] is None
        page = client.get("/").text
        assert f'href="/runs/{killed.name}"' in page and f'href="/runs/{Path(finished.run_dir or "").name}"' in page

        assert client.post(f"/api/runs/{killed.name}/resume").status_code == 202
        events = read_events(client, killed.name)
        assert events[-1][1]["status"] == "done"
        state = client.get(f"/api/runs/{killed.name}").json()
        assert state["report"]["items"], "the resumed run found its items"


def test_requests_are_validated_before_anything_runs(client: TestClient, serve_settings: Settings) -> None:
    bad_bodies = [
        {"query": "   "},
        {"query": "papers", "sites": ["javascript:alert(1)"]},
        {"query": "papers", "sites": ["file:///etc/passwd"]},
        {"query": "papers", "max_subpages": 0},
        {"query": "papers", "reranker": "magic"},
        {"query": "papers", "unknown": 1},
        {"query": "x" * 2001},
        {"query": "0"},
        {"query": "０"},
        {"query": "papers", "item_kind": "\u0000"},
        {"query": "papers", "item_kind": "paper\u001b[2J"},
        {"query": "papers", "item_kind": "<img src=x onerror=alert(1)>"},
    ]
    for body in bad_bodies:
        response = client.post("/api/runs", json=body)
        assert response.status_code == 422, (body, response.text)
    said = client.post("/api/runs", json={"query": "00"}).json()["detail"][0]["msg"]
    assert said.startswith("Value error, the query '00' has no words: say what to look for, e.g. ") and "\n" not in said
    not_json = client.post("/api/runs", content=b"query=papers", headers={"content-type": "text/plain"})
    assert not_json.status_code == 422
    too_big = client.post("/api/runs", content=json.dumps({"query": "p" * 70_000}).encode())
    assert too_big.status_code == 413
    assert not serve_settings.runs_dir.exists() or not any(serve_settings.runs_dir.iterdir())


def test_a_real_model_without_an_endpoint_is_one_line_saying_how_to_fix_it(
    client: TestClient, serve_settings: Settings
) -> None:
    serve_settings.models.api_key = None
    serve_settings.models.base_url = None
    response = client.post("/api/runs", json={"query": "papers on graph neural networks", "model": "gpt-4o"})
    assert response.status_code == 400
    detail = response.json()["detail"]
    assert "OPENAI_API_KEY" in detail and "\n" not in detail


def test_unknown_runs_are_404(client: TestClient, serve_settings: Settings) -> None:
    serve_settings.runs_dir.mkdir(parents=True)
    (serve_settings.runs_dir / RUN_FILE).write_text("{}")  # runs_dir itself must never pass for a run
    for run_id in ("nope", "%2E%2E", "a%2F..%2F..", "....", "%2E"):
        assert client.get(f"/api/runs/{run_id}").status_code == 404, run_id
    for run_id in ("..", ".", "../runs", "a/b", "", "/etc", "x" * 300):
        with pytest.raises(RunNotFound):
            run_directory(serve_settings.runs_dir, run_id)
    assert client.post("/api/runs/nope/cancel").status_code == 404
    assert client.post("/api/runs/nope/follow-up", json={"query": "only 2025"}).status_code == 404


def test_the_api_is_described_by_openapi(client: TestClient) -> None:
    schema = client.get("/openapi.json").json()
    paths = schema["paths"]
    assert set(paths["/api/runs"]) == {"get", "post"}
    for path in ("/api/runs/{run_id}", "/api/runs/{run_id}/events", "/api/runs/{run_id}/files/{name}"):
        assert "get" in paths[path], path
    for path in ("/api/runs/{run_id}/follow-up", "/api/runs/{run_id}/cancel", "/api/runs/{run_id}/resume"):
        assert "post" in paths[path], path
    body = schema["components"]["schemas"]["RunRequest"]["properties"]
    assert {"query", "sites", "model", "reranker", "max_subpages", "item_kind"} <= set(body)
    page = client.get("/api")
    assert page.status_code == 200 and "POST /api/runs" in page.text and "max_subpages?" in page.text


def test_a_turn_that_cannot_run_fails_with_its_reason_in_one_line(
    client: TestClient, serve_settings: Settings, testbed: Testbed, testbed_server: TestbedServer
) -> None:
    run_id = _start(client, testbed.queries_for("arxiv-like")[0].text, testbed_server.base_url("arxiv-like"))
    read_events(client, run_id)
    with holding_run_dir(serve_settings.runs_dir / run_id):  # as `resume` in a terminal would hold it
        assert client.post(f"/api/runs/{run_id}/follow-up", json={"query": "only 2025"}).status_code == 202
        events = read_events(client, run_id, after=10_000)
    status = events[-1][1]
    assert status["status"] == "failed" and "\n" not in status["error"]
    assert str(os.getpid()) in status["error"], "the message names the process holding the run directory"
    state = client.get(f"/api/runs/{run_id}").json()
    assert state["status"] == "failed" and state["error"] == status["error"]
    assert state["report"]["query"] != "only 2025", "the earlier report is still there"
    page = client.get(f"/runs/{run_id}").text
    assert 'id="run-error"' in page


def test_shutting_the_server_down_stops_its_runs_with_their_reports(
    serve_settings: Settings, testbed: Testbed, testbed_server: TestbedServer
) -> None:
    serve_settings.simulated.latency_s = 0.2
    app = create_app(serve_settings, backend="simulated")
    with TestClient(app, base_url=BASE_URL) as client:
        run_id = _start(client, testbed.queries_for("arxiv-like")[0].text, testbed_server.base_url("arxiv-like"))
        web_run = app.state.manager.live(run_id)
        assert web_run is not None and web_run.status == "running"
    assert web_run.status == "cancelled", "the shutdown cancelled the run and waited for its report"
    report = json.loads((serve_settings.runs_dir / run_id / "report.json").read_text(encoding="utf-8"))
    assert report["stop_reason"] == "interrupted"


def test_a_stream_reconnecting_with_last_event_id_continues_after_it(
    client: TestClient, testbed: Testbed, testbed_server: TestbedServer
) -> None:
    run_id = _start(client, testbed.queries_for("arxiv-like")[0].text, testbed_server.base_url("arxiv-like"))
    lines = log_lines(read_events(client, run_id))
    with client.stream("GET", f"/api/runs/{run_id}/events", headers={"last-event-id": str(len(lines) - 2)}) as again:
        text = "".join(again.iter_text())
    assert text.count("event: log") == 2 and f"id: {len(lines)}\n" in text and "id: 1\n" not in text
