"""The Presenter nested chat (paper Fig. 3b, §III-H.4): rerank every collected item with the cross-encoder,
read the metadata of the best k from their own pages, have the Presenter write the report and the Critique
review it (revised for a configurable number of rounds), then the citation guard checks the final text."""

from __future__ import annotations

import logging
from dataclasses import dataclass, field

import autogen

from research_crawler.agents.ag2 import run_nested_chat
from research_crawler.agents.team import needs_changes
from research_crawler.nested_chats.report_items import choose_items
from research_crawler.rank.rerank import Reranker
from research_crawler.report.guard import GuardResult, guard_report
from research_crawler.report.models import ReportItem
from research_crawler.report.prose_check import prose_problem, quotes_unescaped
from research_crawler.report.selection import Selection
from research_crawler.tools.exploration import Exploration
from research_crawler.tools.presenter_tools import PresenterTools, format_items_for_presenter

__all__ = ["PresenterChat"]

logger = logging.getLogger(__name__)


@dataclass
class PresenterChat:
    exploration: Exploration
    presenter: autogen.ConversableAgent
    executor: autogen.ConversableAgent
    tools: PresenterTools
    critique: autogen.ConversableAgent | None = None
    critique_proxy: autogen.ConversableAgent | None = None
    reranker: Reranker | None = None
    guard: GuardResult | None = field(default=None, init=False)

    def prepare(self) -> Selection:
        """The report's items: reranked across sites, dated from their pages, chosen under the request."""
        return choose_items(self.exploration, self.reranker)

    def _checked(self, draft: str, items: list[ReportItem], *, request: str) -> str:
        """`draft` when it is a report of `items`; else the Presenter is asked once more, and when that is no
        report either, the deterministic listing (with the reason) replaces it (`report/prose_check.py`)."""
        x = self.exploration
        instructions = [str(agent.system_message) for agent in (self.presenter, self.critique) if agent is not None]
        problem = prose_problem(draft, items=items, instructions=instructions)
        if problem is None:
            return draft
        x.trace.emit("fault", kind="unusable_report", agent="Presenter", problem=problem)
        again = run_nested_chat(
            self.executor,
            self.presenter,
            f"{request}\nYour report was rejected: {problem}. Write the report again, in Markdown, about these "
            f"items only:\n{self.tools.listing()}",
            max_turns=x.settings.run.nested_max_turns,
        )
        second = prose_problem(again, items=items, instructions=instructions) if again else "it was empty"
        if second is None:
            return quotes_unescaped(again)
        x.trace.emit("fault", kind="unusable_report", agent="Presenter", problem=second)
        return f"The model's report was rejected ({second}); the items found, best first:\n\n" + (
            format_items_for_presenter(items)
        )

    def run(self, items: list[ReportItem], *, requested: int | None) -> str:
        """The final report Markdown for `items`: draft, critique and revision, then the citation guard."""
        x = self.exploration
        self.tools.load(items, requested=requested)
        turns = x.settings.run.nested_max_turns
        request = f'Request: "{x.search.query}"'
        if contract := x.request_summary():
            request += f"\nRead as: {contract}. The items given meet it, in the order to keep."
        by_tool = not x.settings.run.items_in_task
        if by_tool:
            task = f"{request}\nCall get_top_items (k={len(items) or 1}), then write the report in Markdown."
        else:
            task = f"{request}\n{self.tools.listing()}\n\nWrite the report in Markdown from these items."
        draft = run_nested_chat(self.executor, self.presenter, task, max_turns=turns)
        if not draft:
            x.trace.emit("fault", kind="empty_report", agent="Presenter")
            draft = f"The Presenter wrote no report; the items found:\n\n{format_items_for_presenter(items)}"
        for round_number in range(1, x.settings.report.critique_rounds + 1):
            if self.critique is None or self.critique_proxy is None:
                break
            review = run_nested_chat(
                self.critique_proxy,
                self.critique,
                f"{request}\nReview this draft report:\n\n{draft}",
                max_turns=2,
            )
            x.trace.emit("critique", round=round_number, review=review[:2000])
            if not needs_changes(review):
                break
            items_note = (
                "Call get_top_items again if you need the items. "
                if by_tool
                else f"The items:\n{self.tools.listing()}\n"
            )
            revised = run_nested_chat(
                self.executor,
                self.presenter,
                f"{request}\nRevise your draft report following the review. {items_note}"
                f"Reply with the whole revised report only.\n\nReview:\n{review}\n\nDraft:\n{draft}",
                max_turns=turns,
            )
            draft = revised or draft
        draft = self._checked(quotes_unescaped(draft), items, request=request)
        allowed = set(x.pages.fetched_urls)  # this turn's pages, and those read before it in the run directory:
        allowed.update(url for web in x.web_contexts.values() for url in web.visited_urls)
        allowed.update(url for item in items for url in (item.url, item.found_on, item.pdf_url) if url)
        self.guard = guard_report(
            draft,
            items=items,
            allowed_urls=allowed,
            requested_count=requested,
            item_kind=x.settings.explore.item_kind,
        )
        if self.guard.notes:
            x.trace.emit("guard", notes=self.guard.notes, supported_share=self.guard.supported_share)
        return self.guard.markdown
