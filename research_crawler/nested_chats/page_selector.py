"""The Page Selector nested chat: the Web Selector chooses the sites of the query from the pool, isolated
from the rest of the conversation. Sites the user named are taken as given, without a model call."""

from __future__ import annotations

from dataclasses import dataclass

import autogen

from research_crawler.agents.ag2 import run_nested_chat
from research_crawler.config.site_pool import SitePool
from research_crawler.tools.exploration import Exploration
from research_crawler.tools.site_selection import SiteSelectionTools, pool_listing, select_named_sites

__all__ = ["PageSelectorChat"]


@dataclass
class PageSelectorChat:
    exploration: Exploration
    pool: SitePool
    selector: autogen.ConversableAgent
    executor: autogen.ConversableAgent
    tools: SiteSelectionTools

    def run(self) -> str:
        x = self.exploration
        if self.pool.named:
            chosen = select_named_sites(x, self.pool)
            return "Sites named by the user: " + ", ".join(f"{site.name} ({site.url})" for site in chosen) + "."
        message = (
            f'Request: "{x.search.query}"\n'
            f"Candidate sites (id: name — description):\n{pool_listing(self.pool)}\n"
            f"Call select_sites with the ids of at most {x.settings.explore.max_sites} sites, best first."
        )
        text = run_nested_chat(self.executor, self.selector, message, max_turns=x.settings.run.nested_max_turns)
        x.flow.sites_selected = True
        if not self.tools.chosen:
            return f"The Web Selector chose no site ({text or 'no reply'})."
        return "Sites selected: " + ", ".join(f"{site.name} ({site.url})" for site in self.tools.chosen) + "."
