"""The Supervisor's tools: read the items of the site, approve it or send the Planner back with feedback."""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated

from research_crawler.tools import items as item_tools
from research_crawler.tools.exploration import Exploration

__all__ = ["SupervisorTools"]


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
        if (given := self._already_given("approve_site")) is not None:
            return given
        self._x.flow.supervisor_verdict, self._x.flow.supervisor_feedback = "approved", reason.strip()
        return "Recorded: the site is approved. Reply with one short sentence."

    def request_more(self, feedback: Annotated[str, "What is missing and where the Planner should look."]) -> str:
        """Send the Planner back to work on this site, with precise feedback on what is missing."""
        if (given := self._already_given("request_more")) is not None:
            return given
        self._x.flow.supervisor_verdict, self._x.flow.supervisor_feedback = "more", feedback.strip()
        return "Recorded: the Planner will continue with your feedback. Reply with one short sentence."

    def _already_given(self, tool: str) -> str | None:
        """The error for a second verdict in one review (parallel tool calls): the first one stands."""
        verdict = self._x.flow.supervisor_verdict
        if verdict == "none":
            return None
        first = "approve_site" if verdict == "approved" else "request_more"
        return f"Error: a verdict was already given in this review ({first}); this {tool} call was not recorded."

    def tools(self) -> list[Callable[..., str]]:
        verdicts: list[Callable[..., str]] = [self.approve_site, self.request_more]
        return verdicts if self._x.settings.run.items_in_task else [self.get_collected_items, *verdicts]
