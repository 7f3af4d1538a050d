"""The simulated model's rules behind a real OpenAI-compatible endpoint (`MockOpenAIServer`), with a hook that
lets a test make one agent misbehave as a real model would — so the whole client path (HTTP, the openai
package, our reply checks, AG2, the tools) meets the misbehaviour, not just the simulated client.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from mock_openai_server import RecordedRequest, Scripted, error, text, tool_calls

from research_crawler.llm.client import REASK_NAME, ModelReply, ToolCallSpec
from research_crawler.llm.simulated_agents import RULES, Player
from research_crawler.llm.simulated_conversation import Conversation, role_of, tool_names

#: A test's hook: (role, the careful reply, the request's messages) -> the reply to send, or None to send it as is.
Misbehaviour = Callable[[str, ModelReply, list[dict[str, Any]]], ModelReply | None]


def _call(name: str, arguments: dict[str, Any]) -> ModelReply:
    return ModelReply(
        tool_calls=[ToolCallSpec(id="call_0", name=name, arguments=json.dumps(arguments))], finish_reason="tool_calls"
    )


def brain(misbehave: Misbehaviour | None = None) -> Callable[[RecordedRequest], Scripted]:
    """A `MockOpenAIServer` fallback answering every chat request with the simulated model's rules; `misbehave`
    may replace any reply. Corrections sent by the client (re-asks) are passed to the hook too."""

    def answer(request: RecordedRequest) -> Scripted:
        try:
            return _answer(request)
        except Exception as exc:  # a broken hook must show in the test, not as a dropped connection
            return error(599, f"simulated endpoint: the test's hook failed: {type(exc).__name__}: {exc}")

    def _answer(request: RecordedRequest) -> Scripted:
        body = request.body if isinstance(request.body, dict) else {}
        messages: list[dict[str, Any]] = list(body.get("messages") or [])
        role = role_of(messages)
        rule = RULES.get(role)
        careful_messages = [m for m in messages if m.get("name") != REASK_NAME]
        reply = (
            rule(Conversation(careful_messages), tool_names(body.get("tools")), Player(call=_call, enough_items=5))
            if rule is not None
            else ModelReply(content="I have nothing to add.")
        )
        if misbehave is not None:
            reply = misbehave(role, reply, messages) or reply
        if reply.tool_calls:
            return tool_calls([(call.name, call.arguments) for call in reply.tool_calls])
        return text(reply.content or "", finish_reason=reply.finish_reason)

    return answer
