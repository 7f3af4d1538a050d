"""The Item Collector (the paper's Paper Collector): stores the relevant items of the page being scraped
in CP and writes the short page report the Planner reads."""

from __future__ import annotations

import autogen

from research_crawler.agents.ag2 import (
    ModelSpec,
    finish_llm_agent,
    make_executor,
    make_llm_agent,
    register_tools,
)
from research_crawler.agents.prompts import system_message
from research_crawler.agents.roles import Role
from research_crawler.tools.collector_tools import CollectorTools
from research_crawler.tools.exploration import Exploration

__all__ = ["make_collector"]


def make_collector(
    exploration: Exploration, model: ModelSpec
) -> tuple[autogen.ConversableAgent, autogen.ConversableAgent, CollectorTools]:
    """The Item Collector agent, its executor, and its tools (which count the items they added)."""
    collector = make_llm_agent(
        Role.COLLECTOR,
        system_message=system_message(Role.COLLECTOR, exploration.settings),
        model=model,
        stop_after_tool=exploration.settings.run.stop_after_tool,
    )
    executor = make_executor("CollectorTools")
    tools = CollectorTools(exploration)
    register_tools(collector, executor, tools.tools())
    finish_llm_agent(collector, model)
    return collector, executor, tools
