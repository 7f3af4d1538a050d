"""The Web Selector: chooses the sites to explore for a query from the site pool (or the user's sites) and
fills P. It runs in the Page Selector nested chat and cannot add a site outside the pool."""

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
from research_crawler.config.site_pool import SitePool
from research_crawler.tools.exploration import Exploration
from research_crawler.tools.site_selection import SiteSelectionTools

__all__ = ["make_web_selector"]


def make_web_selector(
    exploration: Exploration, pool: SitePool, model: ModelSpec
) -> tuple[autogen.ConversableAgent, autogen.ConversableAgent, SiteSelectionTools]:
    """The Web Selector agent, its executor and its tool."""
    selector = make_llm_agent(
        Role.WEB_SELECTOR,
        system_message=system_message(Role.WEB_SELECTOR, exploration.settings),
        model=model,
    )
    executor = make_executor("WebSelectorTools")
    tools = SiteSelectionTools(exploration, pool)
    register_tools(selector, executor, tools.tools())
    finish_llm_agent(selector, model)
    return selector, executor, tools
