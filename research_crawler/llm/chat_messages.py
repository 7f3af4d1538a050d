"""Chat messages in the one shape every OpenAI-compatible server accepts, whatever AG2 built.

Servers differ in what they refuse. llama-cpp-python validates each message with pydantic and answers HTTP 500 for an
assistant message whose ``content`` is null, and wants ``tool_call_id`` on a tool message (older versions its ``name``
too); Ollama refuses a null content unless the message carries tool calls, and tool-call arguments that are not a
JSON object, and reads a tool message's ``name``; vLLM and OpenAI want every tool call answered by a tool message with
its id. So what goes out is:

- ``content`` always a string (null becomes ""; a list of text parts is joined, except a user's, kept as parts);
- an assistant's ``tool_calls`` each with an ``id``, ``type: "function"`` and string ``arguments`` (an empty list
  is left out);
- a tool message with its ``tool_call_id`` and the ``name`` of the function it answers;
- no key a server does not know (AG2's bookkeeping such as ``tool_responses`` or a null ``function_call``).
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from typing import Any

__all__ = ["portable_messages"]

#: OpenAI's pattern for a participant's ``name``; a name outside it is left out rather than refused by the server.
_NAME = re.compile(r"^[a-zA-Z0-9_-]{1,64}$")
_ROLES = frozenset({"system", "developer", "user", "assistant", "tool"})


def portable_messages(messages: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """`messages` as every OpenAI-compatible server accepts them (new dicts; the given ones are not changed)."""
    functions: dict[str, str] = {}  # tool call id -> the function it called, for the tool messages answering it
    result = []
    for number, message in enumerate(messages):
        role = str(message.get("role") or "user")
        if role not in _ROLES:
            role = "user"
        out: dict[str, Any] = {"role": role, "content": _content(message.get("content"), keep_parts=role == "user")}
        name = message.get("name")
        if role != "tool" and isinstance(name, str) and _NAME.match(name):
            out["name"] = name
        if role == "assistant":
            calls = [_tool_call(call, f"call_{number}_{index}") for index, call in enumerate(_calls(message))]
            if calls:
                out["tool_calls"] = calls
                functions.update((call["id"], call["function"]["name"]) for call in calls)
        elif role == "tool":
            call_id = str(message.get("tool_call_id") or "")
            out["tool_call_id"] = call_id
            out["name"] = functions.get(call_id) or (name if isinstance(name, str) else "") or "tool"
        result.append(out)
    return result


def _calls(message: dict[str, Any]) -> list[dict[str, Any]]:
    calls = message.get("tool_calls")
    return [call for call in calls if isinstance(call, dict)] if isinstance(calls, list) else []


def _tool_call(call: dict[str, Any], fallback_id: str) -> dict[str, Any]:
    given = call.get("function")
    function: dict[str, Any] = given if isinstance(given, dict) else {}
    arguments = function.get("arguments")
    if not isinstance(arguments, str):
        arguments = json.dumps(arguments if arguments is not None else {})
    return {
        "id": str(call.get("id") or fallback_id),
        "type": "function",
        "function": {"name": str(function.get("name") or ""), "arguments": arguments},
    }


def _content(content: object, *, keep_parts: bool) -> str | list[dict[str, Any]]:
    if content is None:
        return ""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        if keep_parts and all(isinstance(part, dict) and isinstance(part.get("type"), str) for part in content):
            return [dict(part) for part in content]
        return "\n".join(_part_text(part) for part in content)
    return json.dumps(content, ensure_ascii=False) if isinstance(content, dict) else str(content)


def _part_text(part: object) -> str:
    if isinstance(part, dict):
        text = part.get("text")
        return text if isinstance(text, str) else ""
    return str(part)
