"""The Supervisor nested chat: the Supervisor judges the current site from the query and the collected
items alone, isolated from the navigation history; its verdict goes to the state, its words to the group."""

from __future__ import annotations

from dataclasses import dataclass

import autogen

from research_crawler.agents.ag2 import run_nested_chat
from research_crawler.tools.exploration import Exploration
from research_crawler.tools.items import get_collected_items

__all__ = ["SupervisorChat"]


@dataclass
class SupervisorChat:
    exploration: Exploration
    supervisor: autogen.ConversableAgent
    executor: autogen.ConversableAgent

    def run(self) -> str:
        x = self.exploration
        x.flow.supervisor_verdict, x.flow.supervisor_feedback = "none", ""
        site = (
            f"Site: {x.site.name} ({x.site.url}); {x.web.visited_count} page(s) visited, "
            f"{x.subpages_left} subpage(s) left.\n"
        )
        if x.settings.run.items_in_task:
            items = get_collected_items(x.web, query=x.search.query, state=x.hint_state()).message
            message = f"{site}{items}\nJudge whether the search on this site is complete: approve_site or request_more."
        else:
            message = (
                f'Request: "{x.search.query}"\n{site}'
                "Judge whether the search on this site is complete: call get_collected_items, then approve_site "
                "or request_more."
            )
        text = run_nested_chat(self.executor, self.supervisor, message, max_turns=x.settings.run.nested_max_turns)
        x.trace.emit("verdict", site=x.site.url, verdict=x.flow.supervisor_verdict, feedback=x.flow.supervisor_feedback)
        if x.flow.supervisor_verdict == "more":
            return f"Supervisor: more is needed on this site. Feedback: {x.flow.supervisor_feedback}"
        if x.flow.supervisor_verdict == "approved":
            return f"Supervisor: the site is approved. {x.flow.supervisor_feedback}".strip()
        return f"Supervisor gave no verdict ({text or 'no reply'}); the site is closed as it stands."
