"""Whether a model's reply can be handed to its agent, and what to say when it cannot.

A real model misbehaves in ways a test double does not: it calls tools it was not given (another agent's,
or one it made up), writes arguments that are not JSON or miss required fields, answers in text when a tool
call was needed, or sends nothing. Such a reply never reaches the conversation: the client asks again with
a precise correction (bounded by `models.max_reasks`), and the last problem is recorded in the ledger.
Values inside well-formed arguments are the tool's to judge (it answers "Error: …" and the stuck detector
counts it).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

__all__ = ["ASKED_AGAIN", "GAVE_UP", "PASSED_ON", "STOPPED", "ReplyProblem", "check_reply", "tool_answered"]

#: What the client did with a reply (`ModelCall.outcome`), as the trace and the closing table of calls say it.
PASSED_ON = "passed on"
ASKED_AGAIN = "asked again"
GAVE_UP = "given up: the agent was told no usable reply came"
STOPPED = "the request failed, and the run stopped on its error"


@dataclass(frozen=True)
class ReplyProblem:
    """Why a reply is unusable (`what`, for the ledger and logs) and what to tell the model (`nudge`)."""

    what: str
    nudge: str


def check_reply(
    *,
    content: str | None,
    tool_calls: Sequence[tuple[str, str]],
    finish_reason: str,
    tools: Sequence[dict[str, Any]] | None,
    messages: Sequence[dict[str, Any]],
    must_call_tool: bool = False,
    output_tokens: int | None = None,
    max_tokens: int | None = None,
) -> ReplyProblem | None:
    """The problem with a reply of `content` and `tool_calls` ((name, raw arguments) pairs), or None.

    `tools` are the schemas offered in the request; `must_call_tool` says the agent's task is a tool call
    (a text answer is accepted once one of its tool calls has been answered in `messages`). A reply is cut off
    when `finish_reason` says so, or when the endpoint counted `output_tokens` up to the request's `max_tokens`
    (llama.cpp reports ``finish_reason=tool_calls`` for a tool call cut at the limit).
    """
    cut_by_count = output_tokens is not None and max_tokens is not None and output_tokens >= max_tokens
    if finish_reason == "length" or cut_by_count:
        why = "finish_reason=length" if finish_reason == "length" else f"{output_tokens} of {max_tokens} tokens"
        return ReplyProblem(
            f"the reply was cut off at the output token limit ({why})",
            f"Your previous reply was cut off because it was too long ({why}). Answer again, "
            "much more briefly; if you call a tool, keep its arguments short and complete JSON.",
        )
    if not tool_calls and not (content or "").strip():
        return ReplyProblem(
            f"the reply was empty (finish_reason={finish_reason})",
            "Your previous reply was empty. Answer again now: call one of the tools, or reply with text.",
        )
    schemas = {_name(tool): _parameters(tool) for tool in tools or ()}
    names = ", ".join(sorted(schemas)) or "none"
    for name, arguments in tool_calls:
        if name not in schemas:
            return ReplyProblem(
                f"the reply called {name!r}, which is not one of its tools ({names})",
                f"Your previous reply called {name!r}, which is not one of your tools. Your tools are: {names}. "
                "Answer again with a call to one of them.",
            )
        problem = _argument_problem(name, arguments, schemas[name])
        if problem is not None:
            return ReplyProblem(
                f"the reply's call to {name!r} is invalid: {problem}",
                f"Your previous call to {name} is invalid: {problem}. Call it again with complete JSON "
                "arguments that follow its parameters.",
            )
    if must_call_tool and not tool_calls and schemas and not tool_answered(messages):
        return ReplyProblem(
            "the reply was text where a tool call was needed",
            f"Your task is done with a tool call, not with text. Call one of your tools now ({names}).",
        )
    return None


def _name(tool: dict[str, Any]) -> str:
    return str((tool.get("function") or {}).get("name", ""))


def _parameters(tool: dict[str, Any]) -> dict[str, Any]:
    parameters = (tool.get("function") or {}).get("parameters") or {}
    return parameters if isinstance(parameters, dict) else {}


def _argument_problem(name: str, arguments: str, schema: dict[str, Any]) -> str | None:
    """What is wrong with the shape of `arguments` for a tool with parameters `schema`, or None."""
    try:
        value = json.loads(arguments or "{}")
    except json.JSONDecodeError as exc:
        return f"its arguments are not valid JSON ({exc.msg} at character {exc.pos})"
    if not isinstance(value, dict):
        return f"its arguments must be a JSON object, not {type(value).__name__}"
    properties = schema.get("properties") or {}
    missing = [field for field in schema.get("required") or () if field not in value]
    if missing:
        return f"it lacks the required argument(s) {', '.join(missing)}"
    unknown = sorted(set(value) - set(properties)) if properties or schema.get("additionalProperties") is False else []
    if unknown:
        return f"{', '.join(unknown)} is not a parameter of {name} (its parameters: {', '.join(properties) or 'none'})"
    return None


def tool_answered(messages: Sequence[dict[str, Any]]) -> bool:
    """Whether one of the agent's tool calls has already been answered in this conversation."""
    return any(message.get("role") == "tool" or message.get("tool_responses") for message in messages)
