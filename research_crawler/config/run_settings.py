"""The run section of `Settings`: the limits of one run and the choices that save model calls.

Rounds, calls, tokens and cost; what the Planner, Supervisor and Presenter read; when nested chats end.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from research_crawler.config.sections import SettingsSection

__all__ = ["RunSettings"]


class RunSettings(SettingsSection):
    """Limits of one run; any stop is graceful: the report is written from what was collected (by the Presenter
    and the Critique, whose calls are counted but never refused)."""

    max_rounds: int = Field(
        300, ge=10, description="Messages in the run's group chats, every site lane's together (the report's extra)."
    )
    max_model_calls: int = Field(
        400, ge=1, description="Model calls (all agents and lanes together, re-asks included)."
    )
    max_tokens: int = Field(
        3_000_000,
        ge=1000,
        description="Input plus output tokens (all agents and lanes together): a call is sent only when its prompt "
        "plus its reply's bound (models.max_output_tokens) fits in what is left.",
    )
    max_cost_usd: float | None = Field(
        None,
        ge=0,
        description="USD at list prices: a call is sent only when the most it may cost fits in what is left.",
    )
    max_model_calls_per_site: int | None = Field(
        60,
        ge=1,
        description="Model calls one site may take (every agent, re-asks included); past it the site ends as "
        "stuck and the run moves on. None: no limit but the run's.",
    )
    report_lists_top_urls: bool = Field(
        True,
        description="Page reports and site announcements end with the best pending URLs (as get_top_urls "
        "lists them), so the Planner can choose its next page without a separate call.",
    )
    items_in_task: bool = Field(
        True,
        description="The Supervisor and the Presenter receive the collected items in the message that asks for "
        "their verdict or report, instead of calling a tool for them first (the paper's tools: one model call "
        "more each, and the tool's schema on every call).",
    )
    open_start_page: bool = Field(
        True,
        description="Open a new site's start page as soon as the site is announced, without asking the Planner: "
        "it is the only page the Planner could choose then (one model call saved per site).",
    )
    stop_after_tool: bool = Field(
        True,
        description="End the Crawler's and the Collector's chat once their tool call succeeded, instead of "
        "asking the model for a closing sentence (one model call over the whole page saved per page).",
    )
    scrape_concurrently: bool = Field(
        True,
        description="The Crawler and the Item Collector read a page at the same time (neither needs the other's "
        "answer): a page costs one model wait instead of two. False: one after the other, as the paper's nested chat.",
    )
    links_on_last_page: bool = Field(
        False,
        description="Have the Crawler score the links of a site's last subpage too. No page of the site is opened "
        "after it, so by default the Crawler is not asked (one model call saved per site); its links are then not "
        "queued, which a follow-up query or a resume with more subpages cannot pick.",
    )
    nested_max_turns: int = Field(4, ge=2, description="Turns of one nested chat (Crawler, Collector, Supervisor).")
    read_request: Literal["model", "rules"] = Field(
        "model",
        description="Who reads the request into its contract (count, dates, order, kind, fields, sites): the Web "
        "Selector's model (rules when it gives no valid reading), or simple rules alone (no model call).",
    )
    max_chunks_per_page: int = Field(4, ge=1, description="Chunks of a long page the Collector reads.")
    planner_history: Literal["full", "reports", "summary"] = Field(
        "summary",
        description="What the Planner reads of its conversation: all of it; every message but its older tool "
        "calls (reports: each dropped with its result; the last planner_recent_tool_calls and every site search "
        "are kept); or that, bounded whatever the number of pages (summary: earlier sites' messages dropped, the "
        "current site's older page reports folded into one summary line, planner_recent_reports at a time).",
    )
    planner_recent_tool_calls: int = Field(
        1, ge=1, description="Tool calls (with their results) the Planner keeps when planner_history=reports."
    )
    planner_recent_reports: int = Field(
        4,
        ge=1,
        description="With planner_history=summary: the Planner reads the site's latest page reports, from this "
        "many to twice this many less one; older ones are folded into the summary this many at a time.",
    )
