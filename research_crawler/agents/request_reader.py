"""The Web Selector reading the request: before any site is chosen, it records the request as a contract
with `record_request` (and, for a follow-up, how the follow-up changes the earlier one)."""

from __future__ import annotations

import autogen

from research_crawler.agents.ag2 import ModelSpec, finish_llm_agent, make_executor, make_llm_agent, register_tools
from research_crawler.agents.prompts import system_message
from research_crawler.agents.roles import Role
from research_crawler.tools.exploration import Exploration
from research_crawler.tools.request_tools import RequestTools

__all__ = ["make_request_reader"]


def make_request_reader(
    exploration: Exploration, model: ModelSpec, *, text: str
) -> tuple[autogen.ConversableAgent, autogen.ConversableAgent, RequestTools]:
    """The Web Selector with its request-reading prompt, the executor of `record_request`, and the tool."""
    reader = make_llm_agent(
        Role.WEB_SELECTOR,
        system_message=system_message(Role.WEB_SELECTOR, exploration.settings, task="request"),
        model=model,
        done=lambda _message: tools.recorded is not None,
    )
    executor = make_executor("RequestTools")
    tools = RequestTools(exploration, text=text)
    register_tools(reader, executor, tools.tools())
    finish_llm_agent(reader, model)
    return reader, executor, tools
