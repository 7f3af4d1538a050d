"""The Planner: orchestrates one site — lists the best pending URLs, picks the next page, searches the site,
and hands over to the Supervisor. Its tools change the Web Context; the speaker selection reads what it asked."""

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
from research_crawler.agents.planner_history import planner_history_hook
from research_crawler.agents.prompts import system_message
from research_crawler.agents.roles import Role, Speaker
from research_crawler.context.urls import try_canonicalize_url
from research_crawler.errors import StateError, ToolInputError
from research_crawler.pages.search_forms import SearchMechanism, build_search_url, read_opensearch_description
from research_crawler.tools import navigation
from research_crawler.tools.exploration import Exploration, ScrapeTarget
from research_crawler.tools.hints import hint, with_hint

__all__ = ["PlannerTools", "make_planner"]


class PlannerTools:
    """The Planner's tools, bound to the run's exploration state."""

    def __init__(self, exploration: Exploration) -> None:
        self._x = exploration

    def get_top_urls(self, k: Annotated[int, "How many URLs to list (1 to 50)."] = 10) -> str:
        """List the current site's most promising unvisited URLs, best first, each with its link text."""
        self._x.stuck.record_tool_call("get_top_urls", {"k": k})
        try:
            return navigation.get_top_urls(self._x.web, k, state=self._x.hint_state()).message
        except ToolInputError as exc:
            return f"Error: {exc}"

    def scrape_url(self, url: Annotated[str, "A listed pending URL (or path), copied exactly."]) -> str:
        """Open a pending URL of the current site; the Scraper reads it and reports. Costs one subpage."""
        x = self._x
        x.stuck.record_tool_call("scrape_url", {"url": url})
        if x.subpages_left <= 0:
            return "Error: no subpages are left on this site. Call finish_site."
        canonical = try_canonicalize_url(url, x.site.url)
        if canonical is None:
            x.stuck.record_bad_choice(str(url), "not a valid http(s) URL")
            return f"Error: {url!r} is not a valid http(s) URL. Copy a URL from get_top_urls."
        try:
            x.web.take(canonical)
        except StateError as exc:
            x.stuck.record_bad_choice(canonical, str(exc))
            return f"Error: {exc}. Choose a URL listed by get_top_urls."
        x.web.begin_scrape(canonical)
        x.planner_action, x.scrape_target = "scrape", ScrapeTarget(canonical)
        x.save()
        return f"Opening {canonical} for the Scraper."

    def search_site(self, query: Annotated[str, "Keywords for the site's search box."]) -> str:
        """Search the current site with its own search form (when the Scraper reported one); the results
        page is read like any other page. Costs one subpage."""
        x = self._x
        x.stuck.record_tool_call("search_site", {"query": query})
        state = x.hint_state()
        if x.subpages_left <= 0:
            return "Error: no subpages are left on this site. Call finish_site."
        mechanism = x.site_search.get(x.site.url)
        if mechanism is None:
            text = "No usable search form has been seen on this site yet."
            return with_hint(text, hint("search_site", "unusable", state))
        if not mechanism.url_template and mechanism.kind == "opensearch":
            mechanism = self._read_opensearch(mechanism) or mechanism
        try:
            search_url = build_search_url(mechanism, query)
        except ToolInputError as exc:
            return with_hint(f"The site's search cannot be used: {exc}", hint("search_site", "unusable", state))
        canonical = try_canonicalize_url(search_url)
        if canonical is None or x.web.is_visited(canonical):
            x.stuck.record_bad_choice(search_url, "this search was already made")
            return "Error: this search was already made on this site. Try other keywords or another URL."
        x.web.mark_visited(canonical)
        x.web.begin_scrape(canonical)
        form_page = x.search_form_pages.get(x.site.url)
        if form_page is not None:
            x.graph.add_link(form_page, canonical, anchor_text=f"site search: {query}")
        x.planner_action, x.scrape_target = (
            "scrape",
            ScrapeTarget(canonical, kind="search", search_query=query),
        )
        x.save()
        return f"Searching the site for {query!r}: opening {canonical} for the Scraper."

    def finish_site(self) -> str:
        """Hand over to the Supervisor when enough items were collected or nothing promising is left."""
        x = self._x
        x.stuck.record_tool_call("finish_site", {})
        x.stuck.record_review(x.web.visited_count + x.web.item_count)
        x.planner_action = "review"
        return "The Supervisor will now review the items collected on this site."

    def _read_opensearch(self, mechanism: SearchMechanism) -> SearchMechanism | None:
        """Fetch an OpenSearch description to learn the search URL template (cached per site)."""
        url = mechanism.description_url
        if not url:
            return None
        page = self._x.fetch_page(url, self._x.site)
        if not page.html:
            return None
        found = read_opensearch_description(page.html, url=page.final_url)
        if found is not None:
            self._x.site_search[self._x.site.url] = found
        return found

    def tools(self) -> list[Callable[..., str]]:
        return [self.get_top_urls, self.scrape_url, self.search_site, self.finish_site]


def make_planner(
    exploration: Exploration, model: ModelSpec
) -> tuple[autogen.ConversableAgent, autogen.ConversableAgent]:
    """The Planner agent and the executor of its tools (the group chat's PlannerTools member).

    With ``run.planner_history = "reports"`` the Planner reads its older tool exchanges no more (see
    `planner_history`); the group chat itself keeps every message for the trace.
    """
    prompt = system_message(Role.PLANNER, exploration.settings)
    planner = make_llm_agent(Role.PLANNER, system_message=prompt, model=model)
    run = exploration.settings.run
    if run.planner_history == "reports":
        # A site search is a decision to remember (its keywords), not a listing that get_top_urls renews.
        hook = planner_history_hook(recent_tool_calls=run.planner_recent_tool_calls, always_keep={"search_site"})
        planner.register_hook("process_all_messages_before_reply", hook)
    executor = make_executor(Speaker.PLANNER_TOOLS.value)
    register_tools(planner, executor, PlannerTools(exploration).tools())
    finish_llm_agent(planner, model)
    return planner, executor
