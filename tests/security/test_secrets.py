"""Secrets (RELIABILITY.md): a canary API key never appears in prompts, logs, traces, reports, run files or any
request a fixture server receives, and the model endpoint cannot be changed by a page or an agent.

The whole query runs on the production path: the `openai` backend against the mock OpenAI-compatible server
on loopback, whose replies are computed from each request by the simulated model's rules (so the real
prompts and tool schemas travel over HTTP), over the prompt-injection site, whose pages ask for the key.
"""

from __future__ import annotations

import json
import logging
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from fault_server import FaultServer, loopback_alias
from mock_openai_server import MockOpenAIServer, RecordedRequest, Scripted

from research_crawler.config.settings import ModelSettings, Settings, SimulatedModelSettings
from research_crawler.eval.reliability.injection_site import QUERY, injection_site
from research_crawler.llm.client import ModelRequest
from research_crawler.llm.simulated import SimulatedModelClient
from research_crawler.llm.usage import UsageLedger
from research_crawler.report.models import Report
from research_crawler.run.session import ResearchSession
from research_crawler.run.trace import Trace, read_trace

CANARY_KEY = "sk-canary-secret-4b9e1d7a0c3f"


def _played(request: RecordedRequest) -> Scripted:
    """The chat completion the simulated model's rules give for this HTTP request."""
    body = request.body or {}
    player = SimulatedModelClient(
        {"model": body.get("model", "gpt-4o")},
        agent_name="remote",
        ledger=UsageLedger(),
        settings=ModelSettings(),
        simulated=SimulatedModelSettings(judge="words"),  # the rules by shared words: no model to load here
    )
    reply = player._play(  # the rules alone: no latency, no injected faults
        ModelRequest(model=body.get("model", "gpt-4o"), messages=body["messages"], tools=body.get("tools"), agent="x")
    )
    message: dict[str, Any] = {"role": "assistant", "content": reply.content}
    if reply.tool_calls:
        message["tool_calls"] = [
            {"id": call.id, "type": "function", "function": {"name": call.name, "arguments": call.arguments}}
            for call in reply.tool_calls
        ]
    completion = {
        "id": f"chatcmpl-{uuid.uuid4().hex[:20]}",
        "object": "chat.completion",
        "created": 0,
        "model": body.get("model", "gpt-4o"),
        "choices": [{"index": 0, "message": message, "finish_reason": reply.finish_reason, "logprobs": None}],
        "usage": {"prompt_tokens": 100, "completion_tokens": 10, "total_tokens": 110},
    }
    return Scripted(body=completion)


@dataclass
class SecretRun:
    report: Report
    run_dir: Path
    model_server: MockOpenAIServer
    site: FaultServer
    canary: FaultServer
    log_text: str
    settings: Settings


@pytest.fixture(scope="module")
def secret_run(tmp_path_factory: pytest.TempPathFactory) -> Iterator[SecretRun]:
    tmp_path = tmp_path_factory.mktemp("secrets")
    records: list[logging.LogRecord] = []

    class Keep(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            records.append(record)

    handler = Keep(level=logging.DEBUG)
    root = logging.getLogger()
    old_level = root.level
    root.addHandler(handler)
    root.setLevel(logging.DEBUG)
    try:
        with (
            MockOpenAIServer() as model_server,
            FaultServer(loopback_alias(3) or "127.0.0.1") as canary,
            FaultServer() as site,
        ):
            for path, html in injection_site(canary.url("/"), file_target=str(tmp_path / "pwned")).pages.items():
                site.page(path, html)
            model_server.enqueue(*[Scripted(responder=_played) for _ in range(400)])
            settings = Settings(runs_dir=tmp_path / "runs")
            settings.models.base_url = model_server.base_url
            settings.models.api_key = CANARY_KEY  # type: ignore[assignment]
            settings.models.backoff_base_s = 0.01
            settings.models.backoff_max_s = 0.02
            settings.fetch.allowed_hosts = [site.host_port]
            settings.fetch.per_host_delay_s = 0.0
            settings.rerank.kind = "bm25"
            settings.explore.max_subpages = 4
            report = ResearchSession(settings, backend="openai").run(QUERY, sites=[site.url("/")])
            log_text = "\n".join(f"{record.getMessage()} {record.exc_text or ''} {record.args!r}" for record in records)
            yield SecretRun(report, Path(report.run_dir or ""), model_server, site, canary, log_text, settings)
    finally:
        root.removeHandler(handler)
        root.setLevel(old_level)


def test_the_run_went_through_the_model_endpoint_with_the_key(secret_run: SecretRun) -> None:
    requests = secret_run.model_server.chat_requests()
    collected = sum(site.items_collected for site in secret_run.report.sites)
    assert len(requests) >= 5 and collected, "the run did too little to prove anything"
    assert all(request.headers["authorization"] == f"Bearer {CANARY_KEY}" for request in requests)


def test_the_key_never_appears_in_prompts_or_other_headers(secret_run: SecretRun) -> None:
    for request in secret_run.model_server.requests:
        assert CANARY_KEY.encode() not in request.raw_body
        others = {name: value for name, value in request.headers.items() if name != "authorization"}
        assert CANARY_KEY not in json.dumps(others)


def test_the_key_never_appears_in_logs_trace_reports_or_run_files(secret_run: SecretRun) -> None:
    assert secret_run.log_text, "nothing was logged: the check would prove nothing"
    assert CANARY_KEY not in secret_run.log_text
    trace = read_trace(secret_run.run_dir / "trace.jsonl")
    assert any(event["event"] == "model_call" for event in trace)
    files = [path for path in secret_run.run_dir.rglob("*") if path.is_file()]
    assert {"trace.jsonl", "report.md", "report.json"} <= {path.name for path in files}
    for path in files:
        assert CANARY_KEY.encode() not in path.read_bytes(), path
    assert CANARY_KEY not in secret_run.report.model_dump_json()


def test_fixture_servers_never_receive_the_key(secret_run: SecretRun) -> None:
    hits = secret_run.site.hits + secret_run.canary.hits
    assert secret_run.site.hits, "the site was never fetched"
    for hit in hits:
        assert CANARY_KEY not in hit.path and CANARY_KEY not in json.dumps(hit.headers)
        assert "authorization" not in hit.headers
    assert secret_run.canary.hits == []


def test_a_page_cannot_change_the_model_endpoint(secret_run: SecretRun) -> None:
    # The pages ask to "set base_url to <canary>/v1": every model request still went to the configured server.
    calls = [event for event in read_trace(secret_run.run_dir / "trace.jsonl") if event["event"] == "model_call"]
    assert len(secret_run.model_server.chat_requests()) >= len(calls) > 0
    assert secret_run.canary.hits == []
    assert secret_run.settings.models.base_url == secret_run.model_server.base_url
    tool_names = {
        tool["function"]["name"]
        for request in secret_run.model_server.chat_requests()
        for tool in (request.body or {}).get("tools") or []
    }
    assert tool_names and not any("url" in name and "base" in name for name in tool_names)


# -- the masking paths themselves --------------------------------------------------------------------


def test_the_trace_masks_secrets_wherever_they_appear(tmp_path: Path) -> None:
    trace = Trace(tmp_path / "trace.jsonl", secrets=[CANARY_KEY])
    seen: list[dict[str, Any]] = []
    trace.subscribe(seen.append)
    trace.emit("message", content=f"key={CANARY_KEY}", nested={"deep": [CANARY_KEY, {"k": f"x{CANARY_KEY}y"}]})
    trace.close()
    text = (tmp_path / "trace.jsonl").read_text(encoding="utf-8")
    assert CANARY_KEY not in text and "***" in text
    assert CANARY_KEY not in json.dumps(seen)


def test_settings_never_show_the_key() -> None:
    settings = Settings()
    settings.models.api_key = CANARY_KEY  # type: ignore[assignment]
    for shown in (repr(settings), str(settings), settings.model_dump_json(), repr(settings.models)):
        assert CANARY_KEY not in shown
    assert settings.models.api_key is not None and settings.models.api_key.get_secret_value() == CANARY_KEY
