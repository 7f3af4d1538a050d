"""Replies as a very small model gives them (Gemma 3 270M behind llama.cpp, as seen in the README's recipe): a tool it
is forced to call (``tool_choice`` naming it: a grammar, on llama.cpp) is called with every field of its schema filled —
strings "x", dates with a time, numbers 1, each list one entry long — and offered tools without a forced choice get a
line of text. It never reads the conversation and judges nothing: it is the floor a real model stands on, for checking
that every guard holds on such output (a chat completion body, as an OpenAI-compatible server sends it).
"""

from __future__ import annotations

import json
import time
import uuid
from typing import Any

__all__ = ["DATE_WITH_TIME", "MODEL", "filled", "tiny_completion"]

MODEL = "gemma3-270m"
#: A date as a tiny model writes one: with a time, where the schema asks for YYYY-MM-DD.
DATE_WITH_TIME = "2026-11-26T00:00:00"


def filled(schema: dict[str, Any], name: str = "") -> Any:
    """A value for `schema` with every field present, as a tiny model fills a forced call."""
    for key in ("anyOf", "oneOf"):
        if key in schema:
            options = [option for option in schema[key] if option.get("type") != "null"] or schema[key]
            return filled(options[0], name)
    if "enum" in schema:
        return schema["enum"][0]
    kind = schema.get("type")
    if kind == "object" or "properties" in schema:
        return {key: filled(value, key) for key, value in (schema.get("properties") or {}).items()}
    if kind == "array":
        return [filled(schema.get("items") or {"type": "string"}, name)]
    if kind == "integer":
        return 1
    if kind == "number":
        return 1.0
    if kind == "boolean":
        return True
    return DATE_WITH_TIME if "date" in name else "x"


def tiny_completion(body: dict[str, Any], *, prompt_tokens: int = 900, cut_at_limit: bool = False) -> dict[str, Any]:
    """The chat completion a tiny model answers `body` (a chat request) with. `cut_at_limit`: a forced call that
    reports the request's whole ``max_tokens`` as used while saying ``finish_reason=tool_calls``, as llama.cpp does for
    a call cut at the limit."""
    choice = body.get("tool_choice")
    completion_tokens = 40
    message: dict[str, Any]
    if isinstance(choice, dict):
        name = str((choice.get("function") or {}).get("name"))
        tools: list[dict[str, Any]] = body.get("tools") or []
        tool = next((t for t in tools if (t.get("function") or {}).get("name") == name), {})
        arguments = json.dumps(filled((tool.get("function") or {}).get("parameters") or {}))
        function = {"name": name, "arguments": arguments}
        call = {"id": f"call_{uuid.uuid4().hex[:16]}", "type": "function", "function": function}
        message = {"role": "assistant", "content": None, "tool_calls": [call]}
        finish = "tool_calls"
        if cut_at_limit and isinstance(body.get("max_tokens"), int):
            completion_tokens = body["max_tokens"]
    else:
        text = "I will help you with that." if body.get("tools") else "Here is the report."
        message, finish = {"role": "assistant", "content": text}, "stop"
    return {
        "id": f"chatcmpl-{uuid.uuid4().hex[:20]}",
        "object": "chat.completion",
        "created": int(time.time()),
        "model": MODEL,
        "choices": [{"index": 0, "message": message, "finish_reason": finish, "logprobs": None}],
        "usage": {
            "prompt_tokens": prompt_tokens,
            "completion_tokens": completion_tokens,
            "total_tokens": prompt_tokens + completion_tokens,
        },
    }
