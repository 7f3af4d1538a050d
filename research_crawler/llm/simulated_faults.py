"""Fault injection of the simulated model: which fault a reply gets, how it is broken, and the count by kind.

Faults (malformed JSON, an unknown tool, a bad link number, an empty reply, an API error) are drawn with a seeded RNG.
"""

from __future__ import annotations

import json
import random
import threading
from collections import Counter

from research_crawler.config.sections import SimulatedModelSettings
from research_crawler.llm.client import ModelReply, ToolCallSpec
from research_crawler.llm.model_retries import TransientModelError

__all__ = ["FaultLog", "inject_fault", "pick_fault"]


class FaultLog:
    """Counts the faults the simulated model injected, by kind (shared by all its clients in a run)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.counts: Counter[str] = Counter()

    def add(self, kind: str) -> None:
        with self._lock:
            self.counts[kind] += 1


def pick_fault(rng: random.Random, simulated: SimulatedModelSettings, reply: ModelReply) -> str | None:
    """The fault to inject into `reply` (None for most calls: `fault_rate` of them get one that fits the reply)."""
    if not simulated.fault_rate or rng.random() >= simulated.fault_rate:
        return None
    kinds = list(simulated.fault_kinds)
    if not reply.tool_calls:
        kinds = [k for k in kinds if k in ("empty_reply", "api_error")]
    elif reply.tool_calls[0].name not in ("save_links", "collect_items"):
        kinds = [k for k in kinds if k != "bad_link"]
    return rng.choice(kinds) if kinds else None


def inject_fault(fault: str, reply: ModelReply) -> ModelReply:
    """`reply` broken by `fault`; an ``api_error`` raises TransientModelError instead."""
    if fault == "api_error":
        raise TransientModelError("simulated API error (injected fault)", status=503)
    if fault == "empty_reply":
        return ModelReply(content="", finish_reason="stop")
    call = reply.tool_calls[0]
    if fault == "malformed_json":
        broken = ToolCallSpec(id=call.id, name=call.name, arguments=call.arguments[: max(1, len(call.arguments) // 2)])
        return reply.model_copy(update={"tool_calls": [broken]})
    if fault == "unknown_tool":
        return reply.model_copy(update={"tool_calls": [ToolCallSpec(id=call.id, name="open_url", arguments="{}")]})
    arguments = json.loads(call.arguments)
    key = "links" if call.name == "save_links" else "items"
    arguments[key] = [{**entry, "id": 9999} if "id" in entry else entry for entry in arguments.get(key, [])]
    return reply.model_copy(
        update={"tool_calls": [ToolCallSpec(id=call.id, name=call.name, arguments=json.dumps(arguments))]}
    )
