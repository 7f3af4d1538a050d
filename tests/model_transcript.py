"""A real model's turns, recorded once against a live endpoint and replayed on every push.

`RecordingProxy` stands between the crawler and a live OpenAI-compatible endpoint (on loopback: the README's llama.cpp
recipe) and keeps every reply as the endpoint sent it — malformed calls included, which never reach a conversation.
`Transcript` is that record as JSON; `replayer` answers a `MockOpenAIServer`'s requests with it: each agent's n-th
request gets that agent's n-th recorded reply (an agent is known by its system prompt's "You are the <Role>" and the
tools it is offered), so the real prompts and tools meet the real model's output again, with no model at all.
"""

from __future__ import annotations

import json
import re
import threading
from collections import Counter
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import httpx
from mock_openai_server import RecordedRequest, Scripted

from research_crawler.eval.reliability.chat_endpoint import LoopbackChatServer

__all__ = ["Exchange", "RecordingProxy", "Transcript", "agent_key", "replayer"]

_ROLE = re.compile(r"You are the ([\w ]+?) of research-crawler")


def agent_key(body: Any) -> str:
    """Which agent sent a chat request: its role, and the tools it was offered ("Web Selector[record_request]")."""
    messages = body.get("messages") if isinstance(body, dict) else None
    system = next((m.get("content") for m in messages or [] if isinstance(m, dict) and m.get("role") == "system"), "")
    found = _ROLE.search(system if isinstance(system, str) else "")
    tools = sorted(str((t.get("function") or {}).get("name")) for t in (body.get("tools") or []))
    return f"{found.group(1) if found else '?'}[{','.join(tools)}]"


@dataclass
class Exchange:
    """One request as the crawler sent it (summarised) and the endpoint's answer, whole."""

    agent: str
    status: int
    reply: Any
    seconds: float
    messages: int
    max_tokens: int | None = None
    tool_choice: Any = None


@dataclass
class Transcript:
    """What was recorded, and with what (model, server, recipe settings, query, site)."""

    recorded_with: dict[str, Any]
    exchanges: list[Exchange] = field(default_factory=list)

    def save(self, path: Path) -> None:
        data = {"recorded_with": self.recorded_with, "exchanges": [asdict(e) for e in self.exchanges]}
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")

    @classmethod
    def load(cls, path: Path) -> Transcript:
        data = json.loads(path.read_text(encoding="utf-8"))
        return cls(data["recorded_with"], [Exchange(**entry) for entry in data["exchanges"]])

    def by_agent(self) -> dict[str, list[Exchange]]:
        grouped: dict[str, list[Exchange]] = {}
        for exchange in self.exchanges:
            grouped.setdefault(exchange.agent, []).append(exchange)
        return grouped


class RecordingProxy(LoopbackChatServer):
    """``with RecordingProxy(upstream) as proxy:`` forwards ``proxy.base_url``'s chat requests to `upstream` (…/v1)."""

    def __init__(self, upstream: str, *, api_key: str | None = None, timeout_s: float = 900.0) -> None:
        super().__init__()
        self.upstream = upstream.rstrip("/")
        self._key = api_key
        self.exchanges: list[Exchange] = []
        self._lock = threading.Lock()
        self._client = httpx.Client(timeout=timeout_s)

    def close(self) -> None:
        self._client.close()

    def respond(self, path: str, raw: bytes) -> tuple[int, bytes]:
        body = json.loads(raw or b"null")
        headers = {"content-type": "application/json"}
        if self._key:  # the crawler was given no key: the proxy holds it
            headers["authorization"] = f"Bearer {self._key}"
        response = self._client.post(self.upstream + path.removeprefix("/v1"), content=raw, headers=headers)
        try:
            reply: Any = response.json()
        except ValueError:
            reply = response.text
        exchange = Exchange(
            agent=agent_key(body),
            status=response.status_code,
            reply=reply,
            seconds=round(response.elapsed.total_seconds(), 2),
            messages=len(body.get("messages") or []),
            max_tokens=body.get("max_tokens"),
            tool_choice=body.get("tool_choice"),
        )
        with self._lock:
            self.exchanges.append(exchange)
        return response.status_code, response.content


def replayer(transcript: Transcript, used: Counter[str]) -> Callable[[RecordedRequest], Scripted]:
    """A `MockOpenAIServer` fallback replaying `transcript`: each agent's n-th request gets its n-th recorded answer
    (past its last one, the last again: a model repeating itself). `used` counts the answers given, by agent."""
    recorded = transcript.by_agent()

    def answer(request: RecordedRequest) -> Scripted:
        agent = agent_key(request.body)
        replies = recorded.get(agent)
        if not replies:
            return Scripted(status=500, body={"error": {"message": f"replay: no recorded reply of {agent}"}})
        exchange = replies[min(used[agent], len(replies) - 1)]
        used[agent] += 1
        return Scripted(status=exchange.status, body=exchange.reply)

    return answer
