"""The Item Collector's tool: store the relevant items of the page being scraped in CP."""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated

from research_crawler.tools import items as item_tools
from research_crawler.tools import navigation
from research_crawler.tools.exploration import Exploration
from research_crawler.tools.items import ItemCandidate
from research_crawler.tools.navigation import LinkScore

__all__ = ["CollectorTools"]


class CollectorTools:
    """The Collector's tool, bound to the page being scraped."""

    def __init__(self, exploration: Exploration) -> None:
        self._x = exploration
        self.new_items = 0
        self.stored_titles: list[str] = []
        #: The URLs of the items stored or confirmed on the current page (what the page gave: `tools/site_budget.py`).
        self.touched: set[str] = set()
        #: The items stored from the current page, as given (what an unchanged page's next visit does again).
        self.collected: list[ItemCandidate] = []

    def collect_items(
        self,
        items: Annotated[list[ItemCandidate], "The relevant items of this page."],
    ) -> str:
        """Store the items on this page that are relevant to the request. Name each by the [n] number of
        its link, or give "url" when the page itself is the item; give its title exactly as shown and a
        relevance score from 0 (none) to 10 (exactly what was asked)."""
        x = self._x
        page = x.flow.current_page
        if page is None:
            return "Error: no page is being scraped."
        with x.lock:  # the other agent of the page may be storing at the same time
            x.stuck.record_tool_call("collect_items", [entry.model_dump() for entry in items])
            result = item_tools.collect_items(
                x.web,
                page,
                list(items),
                state=x.hint_state(),
                allow_offsite=x.settings.explore.allow_offsite_links,
                robots_refusal=x.pages.robots_refusal,
            )
            if result.places:  # a project the model judged relevant is a way to the works it holds: queued
                navigation.save_links(
                    x.web,
                    page,
                    [LinkScore(id=number, score=score) for number, score in result.places.items()],
                    state=x.hint_state(),
                    allow_offsite=x.settings.explore.allow_offsite_links,
                    graph=x.graph,
                    max_path_repetition=x.settings.fetch.max_path_repetition,
                    robots_refusal=x.pages.robots_refusal,
                )
            self.new_items += len(result.added)
            self.collected.extend(items)
            added = set(result.added) | set(result.updated)
            self.touched |= added
            self.stored_titles += [item.title for item in x.web.items() if item.url in added]
            x.save()
            new_titles = [x.web.collected[url].title for url in result.added if url in x.web.collected]
            x.trace.emit("items_stored", added=len(result.added), titles=new_titles, on_site=x.web.item_count)
            return result.message

    def tools(self) -> list[Callable[..., str]]:
        return [self.collect_items]
