"""The Presenter nested chat (paper Fig. 3b, §III-H.4): rerank every collected item with the cross-encoder,
read the metadata of the best k from their own pages, have the Presenter write the report and the Critique
review it (revised for a configurable number of rounds), then the citation guard checks the final text."""

from __future__ import annotations

import logging
from dataclasses import dataclass, field

import autogen

from research_crawler.agents.ag2 import run_nested_chat
from research_crawler.agents.critique import needs_changes
from research_crawler.context.urls import is_same_site
from research_crawler.pages.metadata import read_item_metadata
from research_crawler.rank.rerank import Reranker, item_text, rerank
from research_crawler.report.guard import GuardResult, guard_report
from research_crawler.report.models import ReportItem
from research_crawler.report.plain_text import plain_text
from research_crawler.report.prose_check import prose_problem, quotes_unescaped
from research_crawler.tools.exploration import Exploration
from research_crawler.tools.presenter_tools import PresenterTools, format_items_for_presenter

__all__ = ["PresenterChat", "collected_report_items", "rank_items"]

logger = logging.getLogger(__name__)


def collected_report_items(exploration: Exploration) -> list[ReportItem]:
    """Every collected item across sites as a report item with its provenance, best collector score first."""
    x = exploration
    collected = []
    for site_url, web in x.web_contexts.items():
        for item in web.items():
            path = x.graph.path_from_root(item.found_on, site_url) if item.found_on in x.graph else []
            collected.append((item, site_url, path))
    collected.sort(key=lambda entry: (-entry[0].score, entry[0].seq))
    return [
        ReportItem(
            rank=rank,
            title=plain_text(item.title) or item.url,
            url=item.url,
            site=site_url,
            found_on=item.found_on,
            path=path,
            description=plain_text(item.description) or "",
            collector_score=item.score,
        )
        for rank, (item, site_url, path) in enumerate(collected, 1)
    ]


def rank_items(query: str, items: list[ReportItem], reranker: Reranker) -> list[ReportItem]:
    """`items` reranked against `query` across all sites (the Collector's scores were given page by page)."""
    ranked = rerank(query, items, lambda item: item_text(item.title, item.abstract, item.description), reranker)
    return [
        item.model_copy(update={"rank": rank, "rerank_score": round(score, 6)})
        for rank, (item, score) in enumerate(ranked, 1)
    ]


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

    def prepare(self, *, k: int) -> list[ReportItem]:
        """The best `k` items, reranked, with metadata read from their own pages."""
        x = self.exploration
        items = collected_report_items(x)
        if self.reranker is not None and items:
            items = rank_items(x.search.query, items, self.reranker)
            x.trace.emit("rerank", reranker=self.reranker.name, items=len(items))
        return [self._with_metadata(item) for item in items[:k]]

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

    def _with_metadata(self, item: ReportItem) -> ReportItem:
        """Fill authors, date, abstract, DOI and PDF link from the item page's own tags (cache first).

        An item whose own page cannot be read — not found, timed out, or ``blocked`` (a bot challenge or a
        soft 404 served with status 200) — is kept as the Collector read it on the ok page where it was
        found: nothing is dropped, but no metadata is ever taken from a page that is not ``ok``, so a
        challenge page's title or tags can never stand in for the item's.
        """
        x = self.exploration
        site = next((s for s in x.known_sites() if is_same_site(item.url, s.url)), None)
        if site is None:
            return item
        page = x.fetch_page(item.url, site)
        if not page.ok:
            return item
        meta = read_item_metadata(page.html, url=page.final_url)
        return item.model_copy(
            update={
                "title": plain_text(meta.title) or item.title,  # the publisher's title over the Collector's reading
                "authors": [name for name in (plain_text(a) for a in meta.authors) if name],
                "date": meta.date,
                "abstract": plain_text(meta.abstract),
                "doi": meta.doi,
                "pdf_url": meta.pdf_url,
                "metadata_sources": dict(meta.sources),
            }
        )

    def run(self, items: list[ReportItem], *, requested: int | None) -> str:
        """The final report Markdown for `items`: draft, critique and revision, then the citation guard."""
        x = self.exploration
        self.tools.load(items, requested=requested)
        turns = x.settings.run.nested_max_turns
        request = f'Request: "{x.search.query}"'
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
        allowed = set(x.fetched_urls)
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
