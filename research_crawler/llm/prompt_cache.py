"""How many input tokens of a request a provider's automatic prompt cache would serve, estimated offline.

OpenAI (and providers like it) cache the longest prefix of a prompt that an earlier request to the same model
began with, once it is at least 1024 tokens long, in steps of 128 tokens. When an endpoint does not say how many
input tokens it served from its cache (the simulated model, a server that reports no usage), this estimate
stands in: the tool schemas, then each message, are compared whole with the recent requests to the same model,
and the tokens of the longest shared run of leading parts are counted (a part that differs counts for nothing,
so the estimate errs low).
"""

from __future__ import annotations

import hashlib
import json
import threading
from collections import deque
from typing import Any

from research_crawler.llm.usage import message_tokens, tools_tokens

__all__ = ["PromptCacheEstimate"]

#: The shortest prefix a provider caches, and the step by which a cached prefix grows (OpenAI's figures).
MIN_CACHED_TOKENS = 1024
CACHE_STEP_TOKENS = 128
#: Recent requests per model compared with each new one.
_REMEMBERED = 32


class PromptCacheEstimate:
    """The recent requests of a run, by model; thread-safe (the agents of parallel sites share one)."""

    def __init__(self, *, remembered: int = _REMEMBERED) -> None:
        self._lock = threading.Lock()
        self._recent: dict[str, deque[tuple[str, ...]]] = {}
        self._remembered = remembered

    def cached_tokens(self, model: str, messages: list[dict[str, Any]], tools: list[dict[str, Any]] | None) -> int:
        """Input tokens of this request a prompt cache would serve; the request is then remembered."""
        parts: list[Any] = [tools or [], *(_essence(message) for message in messages)]
        keys = tuple(_key(part) for part in parts)
        with self._lock:
            recent = self._recent.setdefault(model, deque(maxlen=self._remembered))
            shared = max((_common_prefix(keys, earlier) for earlier in recent), default=0)
            recent.append(keys)
        if not shared:
            return 0
        tokens = tools_tokens(tools) + sum(message_tokens(message) for message in messages[: shared - 1])
        if tokens < MIN_CACHED_TOKENS:
            return 0
        return tokens // CACHE_STEP_TOKENS * CACHE_STEP_TOKENS


def _essence(message: dict[str, Any]) -> dict[str, Any]:
    """What of a message reaches the model (AG2 adds bookkeeping keys that never do)."""
    return {key: message.get(key) for key in ("role", "name", "content", "tool_calls", "tool_call_id")}


def _key(part: Any) -> str:
    text = json.dumps(part, ensure_ascii=False, sort_keys=True, default=str)
    return hashlib.blake2b(text.encode(), digest_size=16).hexdigest()


def _common_prefix(one: tuple[str, ...], other: tuple[str, ...]) -> int:
    count = 0
    for first, second in zip(one, other, strict=False):
        if first != second:
            break
        count += 1
    return count
