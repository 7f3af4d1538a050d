"""The Planner: orchestrates one site — lists the best pending URLs, picks the next page, searches the site,
and hands over to the Supervisor. Its tools change the Web Context; the speaker selection reads what it asked."""

from __future__ import annotations

import autogen

from research_crawler.agents.ag2 import (
    ModelSpec,
    finish_llm_agent,
    make_executor,
    make_llm_agent,
    register_tools,
)
from research_crawler.agents.planner_history import planner_history_hook
from research_crawler.agents.prompts import system_message
from research_crawler.agents.roles import Role, Speaker
from research_crawler.tools.exploration import Exploration
from research_crawler.tools.planner_tools import PlannerTools

__all__ = ["make_planner"]


def make_planner(
    exploration: Exploration, model: ModelSpec
) -> tuple[autogen.ConversableAgent, autogen.ConversableAgent]:
    """The Planner agent and the executor of its tools (the group chat's PlannerTools member).

    With ``run.planner_history = "reports"`` the Planner reads its older tool exchanges no more, and with
    ``"summary"`` its older page reports no more either, but a summary of them (see `planner_history`); the
    group chat itself keeps every message for the trace.
    """
    prompt = system_message(Role.PLANNER, exploration.settings)
    planner = make_llm_agent(Role.PLANNER, system_message=prompt, model=model)
    run = exploration.settings.run
    if run.planner_history != "full":
        # A site search is a decision to remember (its keywords), not a listing that get_top_urls renews.
        hook = planner_history_hook(
            recent_tool_calls=run.planner_recent_tool_calls,
            always_keep={"search_site"},
            recent_reports=run.planner_recent_reports if run.planner_history == "summary" else None,
        )
        planner.register_hook("process_all_messages_before_reply", hook)
    executor = make_executor(Speaker.PLANNER_TOOLS.value)
    register_tools(planner, executor, PlannerTools(exploration).tools())
    finish_llm_agent(planner, model)
    return planner, executor
