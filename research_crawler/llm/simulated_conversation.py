"""How the simulated model reads the messages it receives: its role, the request, tool results and earlier calls.

Only what an LLM sees is read (the messages and the tool schemas), never the run's contexts.
"""

from __future__ import annotations

import json
import re
from typing import Any

__all__ = ["Conversation", "calls_made", "last_int", "request_of", "role_of", "text_of", "tool_names"]

_ROLES = {
    "Web Selector": "web_selector",
    "Planner": "planner",
    "Crawler": "crawler",
    "Item Collector": "collector",
    "Supervisor": "supervisor",
    "Presenter": "presenter",
    "Critique": "critique",
}


class Conversation:
    """Read-only helpers over the messages a model receives."""

    def __init__(self, messages: list[dict[str, Any]]) -> None:
        self.messages = messages

    def task(self) -> str:
        """The first non-system message (a nested chat's task, or the group's request)."""
        return next((text_of(m) for m in self.messages if m.get("role") != "system"), "")

    def system(self) -> str:
        """The system message (the agent's instructions)."""
        return next((text_of(m) for m in self.messages if m.get("role") == "system"), "")

    def query(self) -> str:
        for message in self.messages:
            if message.get("role") != "system":
                request = request_of(text_of(message))
                if request:
                    return request
        return self.task()

    def tool_results_since_task(self) -> list[dict[str, Any]]:
        return [m for m in self.messages if m.get("role") == "tool"]

    def since_last(self, marker: str) -> list[dict[str, Any]]:
        start = 0
        for index, message in enumerate(self.messages):
            if message.get("role") != "tool" and marker in text_of(message):
                start = index
        return self.messages[start:]


def role_of(messages: list[dict[str, Any]]) -> str:
    """The agent role the system message gives (``planner``, ``crawler``…), else ``unknown``."""
    system = next((text_of(m) for m in messages if m.get("role") == "system"), "")
    match = re.match(r"You are the (.+?) of research-crawler", system)
    return _ROLES.get(match.group(1), "unknown") if match else "unknown"


def text_of(message: dict[str, Any]) -> str:
    content = message.get("content")
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "\n".join(str(part.get("text", "")) for part in content if isinstance(part, dict))
    return ""


def request_of(text: str) -> str:
    match = re.search(r'Request: "(.+)"[^"\n]*$', text, re.MULTILINE)  # up to the line's last quote
    if match:
        return match.group(1)
    return text.strip() if "\n" not in text.strip() else ""


def tool_names(tools: list[dict[str, Any]] | None) -> set[str]:
    return {str(tool.get("function", {}).get("name")) for tool in tools or []}


def calls_made(messages: list[dict[str, Any]], name: str) -> list[dict[str, Any]]:
    calls = []
    for message in messages:
        for call in message.get("tool_calls") or []:
            function = call.get("function", {})
            if function.get("name") == name:
                try:
                    calls.append(json.loads(function.get("arguments") or "{}"))
                except json.JSONDecodeError:
                    continue
    return calls


def last_int(pattern: str, messages: list[dict[str, Any]]) -> int | None:
    for message in reversed(messages):
        found = re.findall(pattern, text_of(message))
        if found:
            return int(found[-1])
    return None
