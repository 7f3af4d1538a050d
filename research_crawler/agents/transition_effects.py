"""Carrying out a speaker-selection decision on the run's state: the flags the row consumes are reset and
its effect is applied to the Search Context (next site, search complete, run stopped), before the next speaker.

The decision is data (`speaker_selection.py`); this is the one place that acts on it.
"""

from __future__ import annotations

from research_crawler.agents.roles import Speaker
from research_crawler.agents.speaker_selection import Decision, Effect
from research_crawler.context.search_context import StopReason
from research_crawler.tools.exploration import Exploration

__all__ = ["apply_decision"]


def apply_decision(x: Exploration, decision: Decision, *, stop_detail: str = "") -> Speaker | None:
    """Apply `decision` to `x` and return who speaks next (None ends the chat).

    `stop_detail` says which limit stopped the run (for Effect.STOP). A NEXT_SITE with no site left
    completes the search and hands over to the Presenter instead.
    """
    if "planner_action" in decision.clears:
        x.planner_action = "none"
    if "supervisor_verdict" in decision.clears:
        x.supervisor_verdict = "none"
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
