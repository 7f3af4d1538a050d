"""The Supervisor: reads the query and the items collected on the current site, then approves the site
or gives the Planner specific feedback. It runs in a nested chat, isolated from the navigation history."""

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
from research_crawler.tools.exploration import Exploration
from research_crawler.tools.supervisor_tools import SupervisorTools

__all__ = ["make_supervisor"]


def make_supervisor(
    exploration: Exploration, model: ModelSpec
) -> tuple[autogen.ConversableAgent, autogen.ConversableAgent]:
    """The Supervisor agent and the executor of its tools (get_collected_items only when run.items_in_task is off;
    with run.stop_after_tool its chat ends as soon as a verdict is recorded, not on get_collected_items)."""
    supervisor = make_llm_agent(
        Role.SUPERVISOR,
        system_message=system_message(Role.SUPERVISOR, exploration.settings),
        model=model,
        done=(lambda _message: exploration.supervisor_verdict != "none")
        if exploration.settings.run.stop_after_tool
        else None,
    )
    executor = make_executor("SupervisorTools")
    register_tools(supervisor, executor, SupervisorTools(exploration).tools())
    finish_llm_agent(supervisor, model)
    return supervisor, executor
