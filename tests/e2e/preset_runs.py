"""Whole testbed queries under a preset, keeping a copy of every model request (messages and tool schemas),
and `SessionWithClient`, a session whose agents are answered by another model client class.

Shared by the e2e tests; it holds no test of its own.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

from research_crawler.agents.ag2 import ModelSpec
from research_crawler.agents.roles import Role
from research_crawler.config.settings import Settings
from research_crawler.eval.testbed import TestbedServer
from research_crawler.llm.client import ModelReply, ModelRequest
from research_crawler.llm.simulated import SimulatedModelClient
from research_crawler.report.models import Report
from research_crawler.run.session import ResearchSession
from research_crawler.run.trace import TraceEvent, read_trace

__all__ = ["Recorded", "Request", "SessionWithClient", "run_preset", "text_of"]


@dataclasses.dataclass(frozen=True)
class Request:
    """One model request as the endpoint would receive it."""

    agent: str
    messages: list[dict[str, Any]]
    tools: list[dict[str, Any]]


class _RecordingClient(SimulatedModelClient):
    """The simulated model, keeping a copy of every request (`record`: a list shared by the run's clients)."""

    def __init__(self, config: dict[str, Any], **kwargs: Any) -> None:
        self._record: list[Request] = kwargs.pop("record")
        super().__init__(config, **kwargs)

    def _complete(self, request: ModelRequest) -> ModelReply:
        self._record.append(Request(self.agent_name, request.messages, list(request.tools or [])))
        return super()._complete(request)


class SessionWithClient(ResearchSession):
    """A session (simulated backend) whose every agent is answered by `client_cls`, a `SimulatedModelClient`
    subclass, given `client_kwargs` on top of the usual arguments."""

    def __init__(
        self,
        settings: Settings,
        *,
        client_cls: type[SimulatedModelClient],
        client_kwargs: dict[str, Any] | None = None,
    ) -> None:
        super().__init__(settings, backend="simulated")
        self._client_cls = client_cls
        self._client_kwargs = client_kwargs or {}

    def model_spec(self, role: Role, spec: ModelSpec) -> ModelSpec:
        kwargs = {**spec.client_kwargs, **self._client_kwargs}
        return dataclasses.replace(spec, client_cls=self._client_cls, client_kwargs=kwargs)


@dataclasses.dataclass
class Recorded:
    report: Report
    requests: list[Request]

    def of(self, agent: str) -> list[list[dict[str, Any]]]:
        """The messages of every request `agent` made, in order."""
        return [request.messages for request in self.requests if request.agent == agent]

    def tools_of(self, agent: str) -> list[list[dict[str, Any]]]:
        """The tool schemas offered with every request `agent` made, in order."""
        return [request.tools for request in self.requests if request.agent == agent]

    def trace(self, event: str) -> list[TraceEvent]:
        """The run's trace events of type `event`."""
        return [e for e in read_trace(Path(self.report.run_dir or "") / "trace.jsonl") if e["event"] == event]


def run_preset(
    preset: str,
    server: TestbedServer,
    site: str,
    query: str,
    tmp_path: Path,
    *,
    render: str = "auto",
    run: dict[str, Any] | None = None,
) -> Recorded:
    """Run `query` on the testbed `site` under `preset` (with `run` settings changed) and the simulated model,
    recording its requests."""
    settings = Settings.from_preset(
        preset,
        runs_dir=tmp_path / preset,
        run=run or {},
        fetch={"allowed_hosts": server.allowed_hosts(), "per_host_delay_s": 0.0, "render": render},
        rerank={"kind": "bm25"},
        models={"backoff_base_s": 0.01, "backoff_max_s": 0.02},
    )
    record: list[Request] = []
    session = SessionWithClient(settings, client_cls=_RecordingClient, client_kwargs={"record": record})
    return Recorded(session.run(query, sites=[server.base_url(site)]), record)


def text_of(message: dict[str, Any]) -> str:
    content = message.get("content")
    return content if isinstance(content, str) else ""
