"""Tokens, cost and outcome of every model call, counted per agent and per query.

The model client records one `ModelCall` per round trip in a `UsageLedger`; the trace, the live view
and the final report read the ledger (or subscribe to it) instead of asking AG2, whose own usage
summary misses group-chat members.
"""

from __future__ import annotations

import json
import logging
import threading
from collections.abc import Callable, Iterable, Mapping
from datetime import datetime
from typing import Any

from pydantic import BaseModel, ConfigDict

from research_crawler.config.model_prices import ModelPrice
from research_crawler.llm.tool_tokens import tools_tokens
from research_crawler.text.tokens import count_tokens

__all__ = [
    "AgentUsage",
    "ModelCall",
    "UsageLedger",
    "cost_of",
    "estimate_prompt_tokens",
    "estimate_reply_tokens",
    "message_tokens",
    "price_for",
    "tools_tokens",
]

logger = logging.getLogger(__name__)

#: Tokens the chat format adds around each message and before the reply (OpenAI's published estimate).
_TOKENS_PER_MESSAGE = 3
_REPLY_PRIMING_TOKENS = 3

_noted_unpriced: set[str] = set()
_noted_lock = threading.Lock()


class ModelCall(BaseModel):
    """One round trip to a model (its retries included), successful or not."""

    model_config = ConfigDict(frozen=True)

    agent: str
    model: str
    input_tokens: int
    output_tokens: int
    cost_usd: float
    cached_input_tokens: int = 0
    """Of `input_tokens`, those served from the provider's prompt cache (as reported, or estimated offline)."""
    latency_s: float
    ok: bool
    error: str = ""
    finish_reason: str | None = None
    attempts: int = 1
    priced: bool = True
    at: datetime
    reply: str = ""
    """What the reply was, in a few words: "calls record_request", "text", "empty" (empty for a failed request)."""
    outcome: str = ""
    """What the client did with it: passed it on, asked again, gave up on it, or stopped the run."""


class AgentUsage(BaseModel):
    """Totals over a set of calls (one agent's, or all of them)."""

    model_config = ConfigDict(frozen=True)

    calls: int = 0
    input_tokens: int = 0
    cached_input_tokens: int = 0
    output_tokens: int = 0
    cost_usd: float = 0.0
    failures: int = 0
    unpriced_calls: int = 0
    latency_s: float = 0.0

    @property
    def total_tokens(self) -> int:
        return self.input_tokens + self.output_tokens

    @classmethod
    def of(cls, calls: Iterable[ModelCall]) -> AgentUsage:
        """Sum `calls`."""
        totals: dict[str, Any] = dict.fromkeys(
            ("calls", "input_tokens", "cached_input_tokens", "output_tokens", "failures", "unpriced_calls"), 0
        )
        cost = latency = 0.0
        for call in calls:
            totals["calls"] += 1
            totals["input_tokens"] += call.input_tokens
            totals["cached_input_tokens"] += call.cached_input_tokens
            totals["output_tokens"] += call.output_tokens
            totals["failures"] += 0 if call.ok else 1
            totals["unpriced_calls"] += 0 if call.priced else 1
            cost += call.cost_usd
            latency += call.latency_s
        return cls(**totals, cost_usd=cost, latency_s=latency)


class UsageLedger:
    """Thread-safe record of model calls: AG2 runs model clients from worker threads.

    Subscribers are called after each record, outside the lock, in the recording thread; one that
    raises is logged and does not stop the call or the other subscribers.
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._calls: list[ModelCall] = []
        self._subscribers: list[Callable[[ModelCall], None]] = []

    def record(self, call: ModelCall) -> None:
        """Add `call` and tell the subscribers."""
        with self._lock:
            self._calls.append(call)
            subscribers = list(self._subscribers)
        for callback in subscribers:
            try:
                callback(call)
            except Exception:
                logger.exception("usage subscriber %r failed on a call of %s", callback, call.agent)

    def subscribe(self, callback: Callable[[ModelCall], None]) -> None:
        """Call `callback(call)` for every call recorded from now on."""
        with self._lock:
            self._subscribers.append(callback)

    def unsubscribe(self, callback: Callable[[ModelCall], None]) -> None:
        """Stop calling `callback`; unknown callbacks are ignored."""
        with self._lock:
            if callback in self._subscribers:
                self._subscribers.remove(callback)

    def calls(self) -> list[ModelCall]:
        """A copy of every call so far, in recording order."""
        with self._lock:
            return list(self._calls)

    def by_agent(self) -> dict[str, AgentUsage]:
        """Totals per agent, in the order the agents first called a model."""
        return self._grouped(lambda call: call.agent)

    def by_model(self) -> dict[str, AgentUsage]:
        """Totals per model name as the endpoint reported it."""
        return self._grouped(lambda call: call.model)

    def totals(self) -> AgentUsage:
        """Totals over every call."""
        return AgentUsage.of(self.calls())

    def _grouped(self, key: Callable[[ModelCall], str]) -> dict[str, AgentUsage]:
        groups: dict[str, list[ModelCall]] = {}
        for call in self.calls():
            groups.setdefault(key(call), []).append(call)
        return {name: AgentUsage.of(calls) for name, calls in groups.items()}


def price_for(model: str, prices: Mapping[str, ModelPrice]) -> ModelPrice | None:
    """The list price of `model`, or None when it is not priced.

    Endpoints answer with dated names (``gpt-4o-mini-2024-07-18``): the longest priced name that the
    model name starts with, followed by ``-``, gives the price.
    """
    if model in prices:
        return prices[model]
    candidates = [name for name in prices if model.startswith(name + "-")]
    return prices[max(candidates, key=len)] if candidates else None


def cost_of(
    model: str,
    input_tokens: int,
    output_tokens: int,
    prices: Mapping[str, ModelPrice],
    *,
    cached_input_tokens: int = 0,
) -> float:
    """Cost in USD of a call (its cached input tokens at the cached-input price); an unpriced model (a local
    one, the simulated one) costs 0 and is noted once."""
    if input_tokens < 0 or output_tokens < 0 or cached_input_tokens < 0:
        raise ValueError(f"token counts must be >= 0, got {input_tokens}, {output_tokens} and {cached_input_tokens}")
    price = price_for(model, prices)
    if price is None:
        with _noted_lock:
            first_time = model not in _noted_unpriced
            _noted_unpriced.add(model)
        if first_time:
            logger.info("no price known for model %r: its calls are counted at 0 USD", model)
        return 0.0
    return price.cost(input_tokens=input_tokens, output_tokens=output_tokens, cached_input_tokens=cached_input_tokens)


def _text_of(content: Any) -> str:
    """The text of a message's content: a string, or the text parts of a multi-part content list."""
    if content is None:
        return ""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        parts = [part.get("text", "") if isinstance(part, dict) else str(part) for part in content]
        return "\n".join(part for part in parts if isinstance(part, str))
    return str(content)


def estimate_prompt_tokens(
    messages: list[dict[str, Any]], tools: list[dict[str, Any]] | None = None, *, encoding: str = "o200k_base"
) -> int:
    """Input tokens of a request, counted offline when the endpoint reports no usage.

    Follows OpenAI's published recipe (a few tokens per message, its role, name and content, tool calls
    as JSON) and counts the tool schemas as the model reads them (`tool_tokens`): close to what the server
    bills, never a guess of 0.
    """
    total = _REPLY_PRIMING_TOKENS + sum(message_tokens(message, encoding=encoding) for message in messages)
    system = next((message for message in messages if message.get("role") == "system"), None)
    if tools and system is not None:  # the tools' preamble ends the system message with a newline
        text = _text_of(system.get("content"))
        total += count_tokens(text + "\n", encoding) - count_tokens(text, encoding)
    return total + tools_tokens(tools, has_system=system is not None, encoding=encoding)


def message_tokens(message: dict[str, Any], *, encoding: str = "o200k_base") -> int:
    """Input tokens of one message of a request (its role, name, content and tool calls), counted offline."""
    total = _TOKENS_PER_MESSAGE + count_tokens(str(message.get("role", "")), encoding)
    if message.get("name"):
        total += 1 + count_tokens(str(message["name"]), encoding)
    total += count_tokens(_text_of(message.get("content")), encoding)
    if message.get("tool_calls"):
        total += count_tokens(json.dumps(message["tool_calls"], ensure_ascii=False, default=str), encoding)
    return total


def estimate_reply_tokens(content: str | None, tool_calls: Iterable[tuple[str, str]] = ()) -> int:
    """Output tokens of a reply (its text plus each tool call's name and arguments), counted offline."""
    total = count_tokens(content or "")
    for name, arguments in tool_calls:
        total += count_tokens(name) + count_tokens(arguments) + _TOKENS_PER_MESSAGE
    return total
