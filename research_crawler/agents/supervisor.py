"""The Supervisor: reads the query and the items collected on the current site, then approves the site
or gives the Planner specific feedback. It runs in a nested chat, isolated from the navigation history."""

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
from research_crawler.tools import items as item_tools
from research_crawler.tools.exploration import Exploration

__all__ = ["SupervisorTools", "make_supervisor"]


class SupervisorTools:
    """The Supervisor's tools; its verdict is recorded in the exploration state for the speaker selection."""

    def __init__(self, exploration: Exploration) -> None:
        self._x = exploration

    def get_collected_items(self) -> str:
        """Show the user's request and every item collected on the current site so far, best first."""
        x = self._x
        return item_tools.get_collected_items(x.web, query=x.search.query, state=x.hint_state()).message

    def approve_site(self, reason: Annotated[str, "Why the search on this site is complete."]) -> str:
        """Declare the search on this site complete: the collected items answer the request, or the
        site cannot give more."""
        self._x.supervisor_verdict, self._x.supervisor_feedback = "approved", reason.strip()
        return "Recorded: the site is approved. Reply with one short sentence."

    def request_more(self, feedback: Annotated[str, "What is missing and where the Planner should look."]) -> str:
        """Send the Planner back to work on this site, with precise feedback on what is missing."""
        self._x.supervisor_verdict, self._x.supervisor_feedback = "more", feedback.strip()
        return "Recorded: the Planner will continue with your feedback. Reply with one short sentence."

    def tools(self) -> list[Callable[..., str]]:
        verdicts: list[Callable[..., str]] = [self.approve_site, self.request_more]
        return verdicts if self._x.settings.run.items_in_task else [self.get_collected_items, *verdicts]


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
