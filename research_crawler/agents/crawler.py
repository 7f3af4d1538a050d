"""The Crawler: scores the numbered links of the page being scraped and stores the useful ones in C."""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated

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
from research_crawler.tools import navigation
from research_crawler.tools.exploration import Exploration
from research_crawler.tools.navigation import LinkScore

__all__ = ["CrawlerTools", "make_crawler"]


class CrawlerTools:
    """The Crawler's tool, bound to the page being scraped."""

    def __init__(self, exploration: Exploration) -> None:
        self._x = exploration
        self.new_links = 0

    def save_links(
        self,
        links: Annotated[list[LinkScore], "The useful links of this page."],
    ) -> str:
        """Store the links of this page that may lead to relevant items, each by its [n] number with a
        relevance score. Leave out navigation boilerplate such as login, help, policies or social media."""
        x = self._x
        page = x.current_page
        if page is None:
            return "Error: no page is being scraped."
        x.stuck.record_tool_call("save_links", [entry.model_dump() for entry in links])
        result = navigation.save_links(
            x.web,
            page,
            list(links),
            state=x.hint_state(),
            allow_offsite=x.settings.explore.allow_offsite_links,
            graph=x.graph,
            max_path_repetition=x.settings.fetch.max_path_repetition,
        )
        self.new_links += len(result.queued)
        x.save()
        return result.message

    def tools(self) -> list[Callable[..., str]]:
        return [self.save_links]


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
