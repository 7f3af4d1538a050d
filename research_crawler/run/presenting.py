"""Writing the report: the Presenter nested chat over the ranked items (→ Critique → citation guard), or,
when no model can write it, the plain listing of what was collected, with the reason."""

from __future__ import annotations

from dataclasses import dataclass, field

from research_crawler.agents.ag2 import trace_messages
from research_crawler.agents.roles import Role
from research_crawler.agents.team import make_critique, make_presenter
from research_crawler.context.request import requested_count
from research_crawler.context.search_context import StopReason
from research_crawler.errors import ModelError
from research_crawler.nested_chats.presenter import PresenterChat
from research_crawler.nested_chats.report_items import collected_report_items
from research_crawler.rank.rerank import Reranker
from research_crawler.report.guard import GuardResult
from research_crawler.report.models import ReportItem
from research_crawler.run.message_trace import MessageTracer
from research_crawler.run.models import RunModels
from research_crawler.tools.exploration import Exploration
from research_crawler.tools.presenter_tools import PresenterTools, format_items_for_presenter

__all__ = ["Presenting", "nothing_found", "plain_listing", "requested_items"]


def requested_items(x: Exploration) -> int | None:
    """How many items the request asks for (its contract's count, else the number its text names)."""
    request = x.search.request
    return request.count if request is not None else requested_count(x.search.query)


def nothing_found(x: Exploration, compliance: list[str] | None = None) -> str:
    """The report when no item can be shown: that plainly, how the request's constraints left items out,
    and how each site ended."""
    kind = x.settings.explore.item_kind
    lines = [f"No {kind}s were found for this request: “{x.search.query}”."]
    if compliance:
        lines += ["", *[f"- {line}" for line in compliance]]
    sites = [
        f"- {r.site.name}: {r.reason}" + (f" — {r.detail}" if r.detail else "")
        for r in x.search.finished_sites
    ]
    if sites:
        lines += ["", "Sites explored:", *sites]
    return "\n".join(lines)


def plain_listing(items: list[ReportItem], *, why: str) -> str:
    """The report when no model wrote one: why, then the items collected, best first."""
    return f"No written report ({why}); the items collected, best first:\n\n{format_items_for_presenter(items)}"


@dataclass
class Presenting:
    """The report of one run: written once, by the Presenter chat or as a plain listing."""

    exploration: Exploration
    models: RunModels
    reranker: Reranker
    tracer: MessageTracer
    items: list[ReportItem] = field(default_factory=list)
    markdown: str = ""
    guard: GuardResult | None = None
    compliance: list[str] = field(default_factory=list)
    _chat: PresenterChat | None = field(default=None, init=False)

    def chat(self) -> PresenterChat:
        """The Presenter nested chat (built once)."""
        if self._chat is None:
            x, settings = self.exploration, self.exploration.settings
            tools = PresenterTools(summary_chars=settings.report.summary_chars)
            presenter, executor = make_presenter(settings, tools, self.models.spec(Role.PRESENTER))
            critique, critique_proxy = make_critique(settings, self.models.spec(Role.CRITIQUE))
            for agent in (presenter, executor, critique, critique_proxy):
                trace_messages(agent, self.tracer)
            self._chat = PresenterChat(x, presenter, executor, tools, critique, critique_proxy, reranker=self.reranker)
        return self._chat

    def present(self) -> str:
        """Rank, read metadata, have the report written and checked; the plain listing if the model fails."""
        x = self.exploration
        requested = requested_items(x)
        chat = self.chat()
        selection = chat.prepare()
        self.items, self.compliance = selection.items, selection.compliance
        if not self.items:  # nothing to write about: no model is asked, and the report says so plainly
            self.markdown = nothing_found(x, selection.compliance)
            return self.markdown
        try:
            self.markdown = chat.run(self.items, requested=requested)
            self.guard = chat.guard
        except ModelError as exc:
            x.trace.emit("fault", kind="model_error", agent="presenter", error=str(exc))
            self.markdown = plain_listing(self.items, why=f"the Presenter's model failed: {exc}")
        return self.markdown

    def present_without_chat(self) -> None:
        """The plain listing, by collector score, when the run ended before any model could rank or write."""
        x = self.exploration
        requested = requested_items(x)
        self.items = collected_report_items(x)[: requested or x.settings.report.top_k]
        completion = x.search.completion
        # an error is said where the search ends ("Search ended: error (…)"), not again here
        why = "the search stopped on an error" if completion.reason is StopReason.ERROR else completion.detail
        self.markdown = plain_listing(self.items, why=why)
