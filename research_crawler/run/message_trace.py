"""Every message of the group chat and its nested chats, written to the trace: tool calls, tool results
(an "Error: …" result is counted on the exploration and by the stuck detector) and plain messages."""

from __future__ import annotations

from typing import Any

from research_crawler.agents.roles import Role
from research_crawler.llm.client import NO_USABLE_REPLY_PREFIX
from research_crawler.run.trace import Trace
from research_crawler.tools.exploration import Exploration

__all__ = ["MessageTracer"]

_MAX_TRACED_CHARS = 4000
_LLM_AGENTS = frozenset(role.agent_name for role in Role)


class MessageTracer:
    """Called by AG2 for each message an agent sends (`agents.ag2.trace_messages`)."""

    def __init__(self, trace: Trace, exploration: Exploration) -> None:
        self._trace = trace
        self._x = exploration

    def __call__(self, sender: str, recipient: str, message: dict[str, Any] | str) -> None:
        if isinstance(message, str):
            message = {"content": message}
        calls = message.get("tool_calls") or []
        for call in calls:
            function = call.get("function", {})
            self._trace.emit("tool_call", agent=sender, tool=function.get("name"), arguments=function.get("arguments"))
        for response in message.get("tool_responses") or []:
            content = str(response.get("content", ""))
            self._trace.emit("tool_result", agent=sender, to=recipient, content=content[:_MAX_TRACED_CHARS])
            failed = content.startswith("Error:")
            with self._x.lock:  # the Crawler's and the Collector's chats may answer at the same time
                if failed:
                    self._x.tool_errors += 1
                if self._x.search.current_site is not None:
                    self._x.stuck.record_tool_result(ok=not failed, content=content)
        if not calls and not message.get("tool_responses"):
            content = str(message.get("content"))[:_MAX_TRACED_CHARS]
            self._trace.emit("message", sender=sender, recipient=recipient, content=content)
        if sender in _LLM_AGENTS and self._x.search.current_site is not None:
            text = str(message.get("content") or "")
            unusable = not calls and text.startswith(NO_USABLE_REPLY_PREFIX)
            problem = text.removeprefix(NO_USABLE_REPLY_PREFIX).removesuffix(")")
            with self._x.lock:
                self._x.stuck.record_agent_reply(usable=not unusable, problem=problem)
