"""The speakers of the group chat and the LLM roles, with the names AG2 shows in transcripts."""

from __future__ import annotations

from enum import StrEnum

__all__ = ["Role", "Speaker"]


class Role(StrEnum):
    """An LLM-powered agent (the paper's §III-G), also the key of its prompt and its model setting."""

    WEB_SELECTOR = "web_selector"
    PLANNER = "planner"
    CRAWLER = "crawler"
    COLLECTOR = "collector"
    SUPERVISOR = "supervisor"
    PRESENTER = "presenter"
    CRITIQUE = "critique"

    @property
    def agent_name(self) -> str:
        """The agent's name in AG2 (no spaces allowed there): ``WebSelector``, ``Planner``…"""
        return "".join(part.capitalize() for part in self.value.split("_"))


class Speaker(StrEnum):
    """A member of the top-level group chat: proxies (no LLM) and the Planner (paper, Fig. 2)."""

    USER = "UserProxy"
    PAGE_SELECTOR = "PageSelectorProxy"
    PLANNER = "Planner"
    PLANNER_TOOLS = "PlannerTools"
    SCRAPER = "ScraperProxy"
    SUPERVISOR = "SupervisorProxy"
    PRESENTER = "PresenterProxy"
