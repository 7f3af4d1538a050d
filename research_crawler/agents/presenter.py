"""The Presenter: receives the best items (ranked, with metadata) in its task message, or through its
`get_top_items` tool (run.items_in_task off), and writes the report in Markdown, following the format the
user asked for."""

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
from research_crawler.config.settings import Settings
from research_crawler.tools.presenter_tools import PresenterTools

__all__ = ["make_presenter"]


def make_presenter(
    settings: Settings, tools: PresenterTools, model: ModelSpec
) -> tuple[autogen.ConversableAgent, autogen.ConversableAgent]:
    """The Presenter agent and the executor of its tool (offered only when run.items_in_task is off)."""
    presenter = make_llm_agent(Role.PRESENTER, system_message=system_message(Role.PRESENTER, settings), model=model)
    executor = make_executor("PresenterTools")
    if not settings.run.items_in_task:
        register_tools(presenter, executor, tools.tools())
    finish_llm_agent(presenter, model)
    return presenter, executor
