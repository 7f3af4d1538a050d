"""The Crawler: scores the numbered links of the page being scraped and stores the useful ones in C."""

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
from research_crawler.tools.crawler_tools import CrawlerTools
from research_crawler.tools.exploration import Exploration

__all__ = ["make_crawler"]


def make_crawler(
    exploration: Exploration, model: ModelSpec
) -> tuple[autogen.ConversableAgent, autogen.ConversableAgent, CrawlerTools]:
    """The Crawler agent, its executor, and its tools (which count the links they queued)."""
    crawler = make_llm_agent(
        Role.CRAWLER,
        system_message=system_message(Role.CRAWLER, exploration.settings),
        model=model,
        stop_after_tool=exploration.settings.run.stop_after_tool,
    )
    executor = make_executor("CrawlerTools")
    tools = CrawlerTools(exploration)
    register_tools(crawler, executor, tools.tools())
    finish_llm_agent(crawler, model)
    return crawler, executor, tools
