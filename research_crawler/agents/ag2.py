"""The only place that builds AG2 objects: LLM agents, tool executors, proxies, tool registration, two-agent chats.

Keeping AG2 specifics here (and in `llm/ag2_setup.py`) means a move to another AG2 line stays local.
Facts this module relies on (checked against autogen 0.14.1): agent names have no spaces; every tool
registration rebuilds an agent's model client, so the client is registered after the tools; the
default human-input mode asks a terminal, so it is always "NEVER"; AG2 answers malformed tool
arguments, unknown tools and tool exceptions with an "Error: …" tool result instead of raising.
"""

from __future__ import annotations

import functools
import inspect
import typing
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import autogen

from research_crawler.agents.roles import Role
from research_crawler.agents.tool_schema import compact_tool
from research_crawler.llm.ag2_setup import llm_config_for, quiet_autogen, register_client
from research_crawler.llm.client import BaseModelClient

__all__ = [
    "ModelSpec",
    "finish_llm_agent",
    "make_executor",
    "make_llm_agent",
    "make_proxy",
    "register_reply",
    "register_tools",
    "run_nested_chat",
    "trace_messages",
]

#: AG2 stops an agent after this many consecutive auto-replies; our own limits are lower and explicit.
_NO_AG2_REPLY_LIMIT = 10_000


@dataclass(frozen=True)
class ModelSpec:
    """Which model client class answers for an agent, with which model name and client arguments."""

    client_cls: type[BaseModelClient]
    model: str
    client_kwargs: dict[str, Any] = field(default_factory=dict)


def _no_tool_calls(message: dict[str, Any]) -> bool:
    return not message.get("tool_calls")


def tool_succeeded(message: dict[str, Any]) -> bool:
    """Whether `message` carries tool results and none of them is an error (AG2 words errors "Error: …")."""
    responses = message.get("tool_responses") or []
    return bool(responses) and not any(str(r.get("content", "")).startswith("Error:") for r in responses)


def make_llm_agent(
    role: Role,
    *,
    system_message: str,
    model: ModelSpec,
    stop_after_tool: bool = False,
    done: Callable[[dict[str, Any]], bool] | None = None,
) -> autogen.ConversableAgent:
    """The LLM agent playing `role`, answered by `model` (call `finish_llm_agent` after registering its tools).

    With `stop_after_tool`, a nested chat ends as soon as the agent's tool call succeeded, instead of
    paying one more model call (the whole page again) for a closing sentence nobody reads; a failed call
    still goes back to the model so it can correct itself. `done` replaces that test when only some tool
    calls finish the agent's task (it gets each message the agent receives).
    """
    quiet_autogen()
    return autogen.ConversableAgent(
        role.agent_name,
        system_message=system_message,
        is_termination_msg=done or (tool_succeeded if stop_after_tool else None),
        llm_config=llm_config_for(role.value, model=model.model, client_cls=model.client_cls),
        human_input_mode="NEVER",
        code_execution_config=False,
        max_consecutive_auto_reply=_NO_AG2_REPLY_LIMIT,
    )


def finish_llm_agent(agent: autogen.ConversableAgent, model: ModelSpec) -> None:
    """Attach the model client; must come after every tool registration of `agent`."""
    register_client(agent, model.client_cls, **model.client_kwargs)


def make_executor(name: str) -> autogen.ConversableAgent:
    """A tool executor (no LLM) that ends its two-agent chat when the LLM answers in text."""
    quiet_autogen()
    return autogen.ConversableAgent(
        name,
        llm_config=False,
        human_input_mode="NEVER",
        code_execution_config=False,
        is_termination_msg=_no_tool_calls,
        max_consecutive_auto_reply=_NO_AG2_REPLY_LIMIT,
    )


def make_proxy(name: str, *, description: str = "") -> autogen.ConversableAgent:
    """A proxy member of the group chat (no LLM); its replies come from registered reply functions."""
    quiet_autogen()
    return autogen.ConversableAgent(
        name,
        llm_config=False,
        human_input_mode="NEVER",
        code_execution_config=False,
        description=description or name,
        max_consecutive_auto_reply=_NO_AG2_REPLY_LIMIT,
    )


def register_tools(
    caller: autogen.ConversableAgent, executor: autogen.ConversableAgent, tools: Sequence[Callable[..., str]]
) -> None:
    """Offer `tools` to `caller`'s model and let `executor` run them; each docstring is the LLM's spec.

    The schemas the model reads are compacted (`tool_schema.compact_tool`): every call pays for them.
    """
    for tool in tools:
        autogen.register_function(
            _as_function(tool),
            caller=caller,
            executor=executor,
            name=tool.__name__,
            description=inspect.getdoc(tool) or tool.__name__,
        )
    llm_config = caller.llm_config
    for schema in list(llm_config.get("tools", []) if llm_config else []):
        caller.update_tool_signature(compact_tool(schema), is_remove=False, silent_override=True)


def _as_function(tool: Callable[..., str]) -> Callable[..., str]:
    """A plain function for `tool` (AG2 refuses bound methods) with the same name, signature and docstring."""

    @functools.wraps(tool)
    def function(*args: Any, **kwargs: Any) -> str:
        return tool(*args, **kwargs)

    # AG2 reads annotations as given; resolve the postponed (string) ones of our modules here.
    hints = typing.get_type_hints(tool, include_extras=True)
    signature = inspect.signature(tool)
    function.__signature__ = signature.replace(  # type: ignore[attr-defined,unused-ignore]
        parameters=[p.replace(annotation=hints.get(p.name, p.annotation)) for p in signature.parameters.values()],
        return_annotation=hints.get("return", signature.return_annotation),
    )
    function.__annotations__ = hints
    del function.__wrapped__
    return function


def register_reply(
    agent: autogen.ConversableAgent, trigger: autogen.Agent, reply: Callable[[list[dict[str, Any]]], str]
) -> None:
    """Make `agent` answer with `reply(messages)` whenever `trigger` (an agent) asks it to speak."""

    def reply_func(
        recipient: autogen.ConversableAgent,
        messages: list[dict[str, Any]] | None = None,
        sender: object = None,
        config: object = None,
    ) -> tuple[bool, str]:
        return True, reply(messages or [])

    agent.register_reply(trigger=trigger, reply_func=reply_func, position=0)


def run_nested_chat(
    executor: autogen.ConversableAgent, agent: autogen.ConversableAgent, message: str, *, max_turns: int
) -> str:
    """A nested two-agent chat from a clean context: `executor` sends `message`, runs `agent`'s tool calls,
    and the chat ends when `agent` answers in text (or after `max_turns`). Returns `agent`'s last text."""
    result = executor.initiate_chat(agent, message=message, max_turns=max_turns, clear_history=True, silent=True)
    for entry in reversed(result.chat_history):
        content = entry.get("content")
        if entry.get("name") == agent.name and isinstance(content, str) and content.strip():
            return content.strip()
    return ""


def trace_messages(agent: autogen.ConversableAgent, record: Callable[[str, str, dict[str, Any] | str], None]) -> None:
    """Call `record(sender, recipient, message)` for every message `agent` sends (the message is unchanged)."""

    def hook(
        sender: autogen.ConversableAgent,
        message: dict[str, Any] | str,
        recipient: autogen.Agent,
        silent: bool,
    ) -> dict[str, Any] | str:
        record(sender.name, recipient.name, message)
        return message

    agent.register_hook("process_message_before_send", hook)
