"""The Presenter nested chat (paper Fig. 3b): rank every collected item, give the best k to the Presenter,
and turn its Markdown into the report."""

from __future__ import annotations

from dataclasses import dataclass

import autogen

from research_crawler.agents.ag2 import run_nested_chat
from research_crawler.agents.presenter import PresenterTools, format_items_for_presenter
from research_crawler.exploration import Exploration
from research_crawler.report.models import ReportItem

__all__ = ["PresenterChat", "rank_collected_items"]


def rank_collected_items(exploration: Exploration) -> list[ReportItem]:
    """Every collected item across sites as a report item with its provenance, best collector score first."""
    x = exploration
    ranked = []
    for site_url, web in x.web_contexts.items():
        for item in web.items():
            path = x.graph.path_from_root(item.found_on, site_url) if item.found_on in x.graph else []
            ranked.append((item, site_url, path))
    ranked.sort(key=lambda entry: (-entry[0].score, entry[0].seq))
    return [
        ReportItem(
            rank=rank,
            title=item.title,
            url=item.url,
            site=site_url,
            found_on=item.found_on,
            path=path,
            description=item.description,
            collector_score=item.score,
        )
        for rank, (item, site_url, path) in enumerate(ranked, 1)
    ]


@dataclass
class PresenterChat:
    exploration: Exploration
    presenter: autogen.ConversableAgent
    executor: autogen.ConversableAgent
    tools: PresenterTools

    def run(self, items: list[ReportItem], *, requested: int | None) -> str:
        """The Presenter's Markdown report for `items` (a plain listing, said to be one, if it wrote none)."""
        x = self.exploration
        self.tools.load(items, requested=requested)
        message = (
            f'Request: "{x.search.query}"\n'
            f"Call get_top_items (k={len(items) or 1}), then write the report in Markdown."
        )
        text = run_nested_chat(
            self.executor, self.presenter, message, max_turns=x.settings.run.nested_max_turns
        )
        if text:
            return text
        x.trace.emit("fault", kind="empty_report", agent="presenter")
        listing = format_items_for_presenter(items)
        return f"The Presenter wrote no report; the items as collected:\n\n{listing}"
