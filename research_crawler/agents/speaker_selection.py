"""Who speaks next: the paper's Algorithm 1 as a pure function over an explicit transition table.

The group chat never lets an LLM pick the speaker. `select_next(state)` reads a `FlowState` — the last
speaker plus what the tools recorded in the Search and Web Contexts — and returns the first row of
`TRANSITIONS` whose condition holds. Rows are data — the condition, the next speaker, the effect on the
Search Context and the flow flags the row consumes — so tests cover them one by one and the trace names
the row that fired. `apply_decision` carries a decision out on the run's state: the one place that acts on it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import TYPE_CHECKING, Literal

from research_crawler.agents.roles import Speaker
from research_crawler.context.search_context import StopReason

if TYPE_CHECKING:
    from research_crawler.tools.exploration import Exploration

__all__ = ["TRANSITIONS", "Decision", "Effect", "Flag", "FlowState", "Transition", "apply_decision", "select_next"]

PlannerAction = Literal["none", "scrape", "review"]
Verdict = Literal["none", "approved", "more"]
Flag = Literal["planner_action", "supervisor_verdict"]
"""A flow flag a tool sets and a row consumes (resets to "none") once it has acted on it."""


@dataclass(frozen=True, kw_only=True)
class FlowState:
    """Everything the speaker selection may look at, read from the contexts after each turn."""

    last_speaker: Speaker
    last_had_tool_calls: bool = False
    sites_selected: bool = False
    has_current_site: bool = False
    has_pending_sites: bool = False
    planner_action: PlannerAction = "none"
    subpages_left: int = 0
    supervisor_verdict: Verdict = "none"
    site_stuck: bool = False
    site_failure: str = ""
    run_limit_reached: bool = False
    interrupted: bool = False
    last_reply_unusable: bool = False


class Effect(StrEnum):
    """What the session does to the Search Context before the next speaker talks."""

    NONE = "none"
    NEXT_SITE = "next_site"  # finish α with the decision's reason; α ← next site of P (none left: COMPLETE)
    COMPLETE = "complete"  # finish α and set γ: the search is over, the Presenter writes the report
    STOP = "stop"  # set γ with the decision's reason (a run limit, the user); α stays unfinished for resume
    END = "end"  # the conversation ends (after the report)


@dataclass(frozen=True)
class Decision:
    """The next speaker (None ends the chat), the effect to apply first, why, and the flags it consumes."""

    row: str
    next_speaker: Speaker | None
    effect: Effect = Effect.NONE
    reason: StopReason | None = None
    clears: frozenset[Flag] = frozenset()
    detail: str = ""


@dataclass(frozen=True)
class Transition:
    """One row: when `condition` holds, `decide` gives the decision; `clears` are the flags it consumes."""

    row: str
    description: str
    condition: Callable[[FlowState], bool]
    decide: Callable[[FlowState], Decision]
    clears: frozenset[Flag] = frozenset()


def _leave_site(row: str, reason: StopReason, detail: str = "") -> Callable[[FlowState], Decision]:
    """Move to the next site of P (announced by the User Proxy), or, when P is empty, to the Presenter."""

    def decide(state: FlowState) -> Decision:
        if state.has_pending_sites:
            return Decision(row, Speaker.USER, Effect.NEXT_SITE, reason, detail=detail)
        return Decision(row, Speaker.PRESENTER, Effect.COMPLETE, reason, detail=detail)

    return decide


def _go(row: str, speaker: Speaker | None, effect: Effect = Effect.NONE) -> Callable[[FlowState], Decision]:
    return lambda _state: Decision(row, speaker, effect)


_WORKING = {Speaker.PLANNER, Speaker.PLANNER_TOOLS, Speaker.SCRAPER, Speaker.SUPERVISOR}

TRANSITIONS: tuple[Transition, ...] = (
    Transition(
        "report_done",
        "The Presenter delivered the report: the conversation ends.",
        lambda s: s.last_speaker is Speaker.PRESENTER,
        _go("report_done", None, Effect.END),
    ),
    Transition(
        "tool_call",
        "The Planner called a tool: its executor runs it (a tool call is always answered).",
        lambda s: s.last_speaker is Speaker.PLANNER and s.last_had_tool_calls,
        _go("tool_call", Speaker.PLANNER_TOOLS),
    ),
    Transition(
        "run_limit",
        "A run limit (rounds, model calls, tokens, cost) is reached, or the user stopped the run: report from "
        "what was collected (the current site stays unfinished, so a resumed run goes on with it).",
        lambda s: s.run_limit_reached,
        lambda s: Decision(
            "run_limit",
            Speaker.PRESENTER,
            Effect.STOP,
            StopReason.INTERRUPTED if s.interrupted else StopReason.LIMIT_REACHED,
        ),
    ),
    Transition(
        "select_sites",
        "The user's request arrives and no site is chosen yet: the Web Selector chooses (Page Selector Proxy).",
        lambda s: s.last_speaker is Speaker.USER and not s.sites_selected,
        _go("select_sites", Speaker.PAGE_SELECTOR),
    ),
    Transition(
        "no_sites",
        "The Web Selector chose no usable site: the Presenter reports that nothing could be searched.",
        lambda s: s.last_speaker is Speaker.PAGE_SELECTOR and not s.has_pending_sites and not s.has_current_site,
        lambda s: Decision("no_sites", Speaker.PRESENTER, Effect.COMPLETE, StopReason.ALL_SITES_DONE),
    ),
    Transition(
        "first_site",
        "Sites are chosen: the User Proxy announces the first one.",
        lambda s: s.last_speaker is Speaker.PAGE_SELECTOR,
        lambda s: Decision("first_site", Speaker.USER, Effect.NEXT_SITE, None),
    ),
    Transition(
        "site_unreachable",
        "The site's start page could not be opened: the site ends at once with the real reason (no model call).",
        lambda s: bool(s.site_failure) and s.last_speaker is Speaker.SCRAPER,
        lambda s: _leave_site("site_unreachable", StopReason.UNREACHABLE, s.site_failure)(s),
    ),
    Transition(
        "site_stuck",
        "The search on the current site is stuck (repeated choices, scrapes without progress): move on.",
        lambda s: s.site_stuck and s.last_speaker in _WORKING,
        lambda s: _leave_site("site_stuck", StopReason.STUCK)(s),
    ),
    Transition(
        "continue_with_next_site",
        "A resumed or follow-up run has sites waiting but none under way: the User Proxy announces the next one.",
        lambda s: (
            s.last_speaker is Speaker.USER and s.sites_selected and not s.has_current_site and s.has_pending_sites
        ),
        lambda s: Decision("continue_with_next_site", Speaker.USER, Effect.NEXT_SITE, None),
    ),
    Transition(
        "nothing_left",
        "A resumed run has no site left to explore: the Presenter writes the report.",
        lambda s: s.last_speaker is Speaker.USER and s.sites_selected and not s.has_current_site,
        lambda s: Decision("nothing_left", Speaker.PRESENTER, Effect.COMPLETE, StopReason.ALL_SITES_DONE),
    ),
    Transition(
        "open_start_page",
        "The User Proxy handed the Scraper a page itself: a new site's start page (run.open_start_page), or a page "
        "whose scrape a stop interrupted (a resumed run): the Scraper reads it.",
        lambda s: s.last_speaker is Speaker.USER and s.has_current_site and s.planner_action == "scrape",
        _go("open_start_page", Speaker.SCRAPER),
        clears=frozenset({"planner_action"}),
    ),
    Transition(
        "start_site",
        "The User Proxy announced a site (or the request): the Planner starts.",
        lambda s: s.last_speaker is Speaker.USER,
        _go("start_site", Speaker.PLANNER),
    ),
    Transition(
        "planner_scrapes",
        "The Planner chose a page (or a site search): the Scraper reads it.",
        lambda s: s.last_speaker is Speaker.PLANNER_TOOLS and s.planner_action == "scrape",
        _go("planner_scrapes", Speaker.SCRAPER),
        clears=frozenset({"planner_action"}),
    ),
    Transition(
        "planner_reviews",
        "The Planner handed over: the Supervisor judges the site.",
        lambda s: s.last_speaker is Speaker.PLANNER_TOOLS and s.planner_action == "review",
        _go("planner_reviews", Speaker.SUPERVISOR),
        clears=frozenset({"planner_action"}),
    ),
    Transition(
        "planner_continues",
        "A Planner tool answered without handing over (e.g. the URL list): the Planner goes on.",
        lambda s: s.last_speaker is Speaker.PLANNER_TOOLS,
        _go("planner_continues", Speaker.PLANNER),
        clears=frozenset({"planner_action"}),
    ),
    Transition(
        "planner_unusable",
        "The Planner gave no usable reply (every re-ask failed): the site ends with that reason.",
        lambda s: s.last_speaker is Speaker.PLANNER and s.last_reply_unusable,
        lambda s: _leave_site("planner_unusable", StopReason.NO_USABLE_REPLY, "the Planner gave no usable reply")(s),
    ),
    Transition(
        "planner_done",
        "The Planner answered in text instead of a tool call: it is done with the site, the Supervisor judges.",
        lambda s: s.last_speaker is Speaker.PLANNER,
        _go("planner_done", Speaker.SUPERVISOR),
    ),
    Transition(
        "subpage_limit",
        "The Scraper used the site's last subpage: move to the next site (paper: per-page scraping limit).",
        lambda s: s.last_speaker is Speaker.SCRAPER and s.subpages_left <= 0,
        lambda s: _leave_site("subpage_limit", StopReason.LIMIT_REACHED)(s),
    ),
    Transition(
        "scraped",
        "The Scraper reported on a page: control returns to the Planner.",
        lambda s: s.last_speaker is Speaker.SCRAPER,
        _go("scraped", Speaker.PLANNER),
    ),
    Transition(
        "approved",
        "The Supervisor approved the site: move to the next site.",
        lambda s: s.last_speaker is Speaker.SUPERVISOR and s.supervisor_verdict == "approved",
        lambda s: _leave_site("approved", StopReason.COMPLETED)(s),
        clears=frozenset({"supervisor_verdict"}),
    ),
    Transition(
        "no_verdict",
        "The Supervisor gave no verdict (every re-ask failed): the site ends with that reason, not as completed.",
        lambda s: s.last_speaker is Speaker.SUPERVISOR and s.supervisor_verdict == "none",
        lambda s: _leave_site("no_verdict", StopReason.NO_USABLE_REPLY, "the Supervisor gave no verdict")(s),
        clears=frozenset({"supervisor_verdict"}),
    ),
    Transition(
        "feedback_no_budget",
        "The Supervisor wants more but no subpage is left: move to the next site.",
        lambda s: s.last_speaker is Speaker.SUPERVISOR and s.subpages_left <= 0,
        lambda s: _leave_site("feedback_no_budget", StopReason.LIMIT_REACHED)(s),
        clears=frozenset({"supervisor_verdict"}),
    ),
    Transition(
        "feedback",
        "The Supervisor gave feedback: the Planner continues on the same site.",
        lambda s: s.last_speaker is Speaker.SUPERVISOR,
        _go("feedback", Speaker.PLANNER),
        clears=frozenset({"supervisor_verdict"}),
    ),
)


def select_next(state: FlowState) -> Decision:
    """The decision of the first transition whose condition holds for `state`."""
    for transition in TRANSITIONS:
        if transition.condition(state):
            decision = transition.decide(state)
            return replace(decision, clears=decision.clears | transition.clears)
    raise AssertionError(f"no transition for {state}")  # every speaker has a catch-all row


# Carrying out a decision on the run's state: the flags the row consumes are reset and its effect is applied to
# the Search Context (next site, search complete, run stopped), before the next speaker.


def apply_decision(x: Exploration, decision: Decision, *, stop_detail: str = "") -> Speaker | None:
    """Apply `decision` to `x` and return who speaks next (None ends the chat).

    `stop_detail` says which limit stopped the run (for Effect.STOP). A NEXT_SITE with no site left
    completes the search and hands over to the Presenter instead.
    """
    if "planner_action" in decision.clears:
        x.flow.planner_action = "none"
    if "supervisor_verdict" in decision.clears:
        x.flow.supervisor_verdict = "none"
    if decision.effect is Effect.NEXT_SITE:
        if x.start_next_site(decision.reason, decision.detail) is None:
            x.complete(StopReason.ALL_SITES_DONE)
            return Speaker.PRESENTER
    elif decision.effect is Effect.COMPLETE:
        if x.search.current_site is not None and decision.reason is not None:
            x.search.finish_current_site(decision.reason, decision.detail or x.stuck.reason)
        x.complete(StopReason.ALL_SITES_DONE)
    elif decision.effect is Effect.STOP:
        x.complete(decision.reason or StopReason.LIMIT_REACHED, stop_detail)
    return decision.next_speaker
