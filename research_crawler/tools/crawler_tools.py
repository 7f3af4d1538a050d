"""The Crawler's tool: store the useful links of the page being scraped in C, each by its [n] number."""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated

from research_crawler.context.web_entries import PROMISING_SCORE
from research_crawler.tools import navigation
from research_crawler.tools.exploration import Exploration
from research_crawler.tools.navigation import LinkScore

__all__ = ["CrawlerTools"]


class CrawlerTools:
    """The Crawler's tool, bound to the page being scraped."""

    def __init__(self, exploration: Exploration) -> None:
        self._x = exploration
        self.new_links = 0
        #: Of `new_links`, those scored `PROMISING_SCORE` or more: the page's promising ways on, not seen before.
        self.promising_links = 0
        #: The links stored from the current page, as given (what an unchanged page's next visit does again).
        self.saved: list[LinkScore] = []
        #: The links the current page shows only in its header, navigation or footer (queued a little lower).
        self.menu: frozenset[str] = frozenset()

    def save_links(
        self,
        links: Annotated[list[LinkScore], "The useful links of this page."],
    ) -> str:
        """Store the links of this page that may lead to relevant items, each by its [n] number with a
        relevance score from 0 (none) to 10 (certainly leads to relevant items). Leave out navigation
        boilerplate such as login, help, policies or social media."""
        x = self._x
        page = x.flow.current_page
        if page is None:
            return "Error: no page is being scraped."
        with x.lock:  # the other agent of the page may be storing at the same time
            x.stuck.record_tool_call("save_links", [entry.model_dump() for entry in links])
            result = navigation.save_links(
                x.web,
                page,
                list(links),
                state=x.hint_state(),
                allow_offsite=x.settings.explore.allow_offsite_links,
                graph=x.graph,
                max_path_repetition=x.settings.fetch.max_path_repetition,
                menu=self.menu,
                robots_refusal=x.pages.robots_refusal,
            )
            ways_on = result.queued + result.raised  # a link raised from a menu's place is a way on found here
            self.new_links += len(ways_on)
            scores = {link.url: entry.score for entry in links if (link := page.link(entry.id)) is not None}
            self.promising_links += sum(1 for url in ways_on if scores.get(url, 0.0) >= PROMISING_SCORE)
            self.saved.extend(links)
            x.save()
            x.trace.emit("links_queued", queued=len(result.queued), pending=x.web.pending_count)
            return result.message

    def tools(self) -> list[Callable[..., str]]:
        return [self.save_links]
