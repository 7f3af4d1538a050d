"""The Planner's tools: list the best pending URLs, open one for the Scraper, search the site, hand over
to the Supervisor. They change the Web Context; the speaker selection reads what the Planner asked for."""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated

from research_crawler.context.urls import try_canonicalize_url
from research_crawler.errors import StateError, ToolInputError
from research_crawler.tools import navigation, site_search
from research_crawler.tools.exploration import Exploration, ScrapeTarget

__all__ = ["PlannerTools"]


class PlannerTools:
    """The Planner's tools, bound to the run's exploration state."""

    def __init__(self, exploration: Exploration) -> None:
        self._x = exploration

    def get_top_urls(self, k: Annotated[int, "How many URLs to list (1 to 50)."] = 10) -> str:
        """List the current site's most promising unvisited URLs, best first, each with its link text."""
        self._x.stuck.record_tool_call("get_top_urls", {"k": k})
        try:
            return navigation.get_top_urls(
                self._x.web, k, state=self._x.hint_state(), page_titles=self._x.graph.title
            ).message
        except ToolInputError as exc:
            return f"Error: {exc}"

    def scrape_url(self, url: Annotated[str, "A listed pending URL (or path), copied exactly."]) -> str:
        """Open a pending URL of the current site; the Scraper reads it and reports. Costs one subpage."""
        x = self._x
        x.stuck.record_tool_call("scrape_url", {"url": url})
        if (taken := self._already_decided("scrape_url")) is not None:
            return taken
        if x.subpages_left <= 0:
            return "Error: no subpages are left on this site. Call finish_site."
        canonical = try_canonicalize_url(url, x.site.url)
        if canonical is None:
            x.stuck.record_bad_choice(str(url), "not a valid http(s) URL")
            return f"Error: {url!r} is not a valid http(s) URL. Copy a URL from get_top_urls."
        try:
            x.web.pending_entry(canonical)
        except StateError as exc:
            x.stuck.record_bad_choice(canonical, str(exc))
            return f"Error: {exc}. Choose a URL listed by get_top_urls."
        # The URL stays pending until the Scraper starts reading it (Exploration.start_scrape).
        x.flow.planner_action, x.flow.scrape_target = "scrape", ScrapeTarget(canonical)
        return f"Opening {canonical} for the Scraper."

    def search_site(self, query: Annotated[str, "Keywords for the site's search box."]) -> str:
        """Search the current site with its own search form (when the Scraper reported one); the results
        page is read like any other page. Costs one subpage."""
        self._x.stuck.record_tool_call("search_site", {"query": query})
        if (taken := self._already_decided("search_site")) is not None:
            return taken
        return site_search.search_site(self._x, query)

    def finish_site(self) -> str:
        """Hand over to the Supervisor when enough items were collected or nothing promising is left."""
        x = self._x
        x.stuck.record_tool_call("finish_site", {})
        if (taken := self._already_decided("finish_site")) is not None:
            return taken
        x.stuck.record_review(x.web.visited_count + x.web.item_count)
        x.flow.planner_action = "review"
        return "The Supervisor will now review the items collected on this site."

    def _already_decided(self, tool: str) -> str | None:
        """The error for a second move in one turn (a model that makes parallel tool calls): the first
        move stands, this one changes nothing, and the model is told to make it next turn if still wanted."""
        x = self._x
        if x.flow.planner_action == "none":
            return None
        first = (
            f"{x.flow.scrape_target.url} is already being opened"
            if x.flow.planner_action == "scrape" and x.flow.scrape_target is not None
            else "the site is already handed to the Supervisor"
        )
        return (
            f"Error: {first} in this turn; only one page can be opened, or one hand-over made, per turn. "
            f"This {tool} call was not carried out: make it in your next turn if it is still wanted."
        )

    def tools(self) -> list[Callable[..., str]]:
        return [self.get_top_urls, self.scrape_url, self.search_site, self.finish_site]
