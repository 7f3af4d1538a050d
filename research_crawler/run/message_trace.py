"""Every message of the group chat and its nested chats, written to the trace: tool calls, tool results
(an "Error: …" result is counted on the exploration) and plain messages."""

from __future__ import annotations

from typing import Any

from research_crawler.run.trace import Trace
from research_crawler.tools.exploration import Exploration

__all__ = ["MessageTracer"]

_MAX_TRACED_CHARS = 4000


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
            if content.startswith("Error:"):
                self._x.tool_errors += 1
        if not calls and not message.get("tool_responses"):
            content = str(message.get("content"))[:_MAX_TRACED_CHARS]
            self._trace.emit("message", sender=sender, recipient=recipient, content=content)
