"""Algorithm 1 as a transition table: every row is exercised, and the first matching row wins."""

from __future__ import annotations

from dataclasses import replace

import pytest

from research_crawler.agents.roles import Speaker
from research_crawler.agents.speaker_selection import TRANSITIONS, Effect, FlowState, select_next
from research_crawler.context.search_context import StopReason

BASE = FlowState(
    last_speaker=Speaker.USER,
    sites_selected=True,
    has_current_site=True,
    has_pending_sites=True,
    subpages_left=3,
)

# (row, state, expected next speaker, expected effect, expected reason)
CASES = [
    ("report_done", replace(BASE, last_speaker=Speaker.PRESENTER), None, Effect.END, None),
    (
        "tool_call",
        replace(BASE, last_speaker=Speaker.PLANNER, last_had_tool_calls=True, run_limit_reached=True),
        Speaker.PLANNER_TOOLS,
        Effect.NONE,
        None,
    ),
    (
        "run_limit",
        replace(BASE, last_speaker=Speaker.SCRAPER, run_limit_reached=True),
        Speaker.PRESENTER,
        Effect.STOP,
        StopReason.LIMIT_REACHED,
    ),
    ("select_sites", FlowState(last_speaker=Speaker.USER), Speaker.PAGE_SELECTOR, Effect.NONE, None),
    (
        "no_sites",
        FlowState(last_speaker=Speaker.PAGE_SELECTOR, sites_selected=True),
        Speaker.PRESENTER,
        Effect.COMPLETE,
        StopReason.ALL_SITES_DONE,
    ),
    (
        "first_site",
        FlowState(last_speaker=Speaker.PAGE_SELECTOR, sites_selected=True, has_pending_sites=True),
        Speaker.USER,
        Effect.NEXT_SITE,
        None,
    ),
    (
        "site_unreachable",
        replace(BASE, last_speaker=Speaker.SCRAPER, site_failure="its start page could not be opened: refused"),
        Speaker.USER,
        Effect.NEXT_SITE,
        StopReason.UNREACHABLE,
    ),
    (
        "site_stuck",
        replace(BASE, last_speaker=Speaker.SCRAPER, site_stuck=True),
        Speaker.USER,
        Effect.NEXT_SITE,
        StopReason.STUCK,
    ),
    (
        "continue_with_next_site",
        replace(BASE, last_speaker=Speaker.USER, has_current_site=False),
        Speaker.USER,
        Effect.NEXT_SITE,
        None,
    ),
    (
        "nothing_left",
        replace(BASE, last_speaker=Speaker.USER, has_current_site=False, has_pending_sites=False),
        Speaker.PRESENTER,
        Effect.COMPLETE,
        StopReason.ALL_SITES_DONE,
    ),
    (
        "open_start_page",
        replace(BASE, last_speaker=Speaker.USER, planner_action="scrape"),
        Speaker.SCRAPER,
        Effect.NONE,
        None,
    ),
    ("start_site", replace(BASE, last_speaker=Speaker.USER), Speaker.PLANNER, Effect.NONE, None),
    (
        "planner_scrapes",
        replace(BASE, last_speaker=Speaker.PLANNER_TOOLS, planner_action="scrape"),
        Speaker.SCRAPER,
        Effect.NONE,
        None,
    ),
    (
        "planner_reviews",
        replace(BASE, last_speaker=Speaker.PLANNER_TOOLS, planner_action="review"),
        Speaker.SUPERVISOR,
        Effect.NONE,
        None,
    ),
    (
        "planner_continues",
        replace(BASE, last_speaker=Speaker.PLANNER_TOOLS),
        Speaker.PLANNER,
        Effect.NONE,
        None,
    ),
    (
        "planner_unusable",
        replace(BASE, last_speaker=Speaker.PLANNER, last_reply_unusable=True),
        Speaker.USER,
        Effect.NEXT_SITE,
        StopReason.NO_USABLE_REPLY,
    ),
    ("planner_done", replace(BASE, last_speaker=Speaker.PLANNER), Speaker.SUPERVISOR, Effect.NONE, None),
    (
        "subpage_limit",
        replace(BASE, last_speaker=Speaker.SCRAPER, subpages_left=0),
        Speaker.USER,
        Effect.NEXT_SITE,
        StopReason.LIMIT_REACHED,
    ),
    ("scraped", replace(BASE, last_speaker=Speaker.SCRAPER), Speaker.PLANNER, Effect.NONE, None),
    (
        "approved",
        replace(BASE, last_speaker=Speaker.SUPERVISOR, supervisor_verdict="approved"),
        Speaker.USER,
        Effect.NEXT_SITE,
        StopReason.COMPLETED,
    ),
    (
        "no_verdict",
        replace(BASE, last_speaker=Speaker.SUPERVISOR, supervisor_verdict="none"),
        Speaker.USER,
        Effect.NEXT_SITE,
        StopReason.NO_USABLE_REPLY,
    ),
    (
        "feedback_no_budget",
        replace(BASE, last_speaker=Speaker.SUPERVISOR, supervisor_verdict="more", subpages_left=0),
        Speaker.USER,
        Effect.NEXT_SITE,
        StopReason.LIMIT_REACHED,
    ),
    (
        "feedback",
        replace(BASE, last_speaker=Speaker.SUPERVISOR, supervisor_verdict="more"),
        Speaker.PLANNER,
        Effect.NONE,
        None,
    ),
]


#: The flow flags each row consumes (reset to "none" before the next speaker); every other row clears none.
CLEARS = {
    "open_start_page": {"planner_action"},
    "planner_scrapes": {"planner_action"},
    "planner_reviews": {"planner_action"},
    "planner_continues": {"planner_action"},
    "approved": {"supervisor_verdict"},
    "feedback_no_budget": {"supervisor_verdict"},
    "feedback": {"supervisor_verdict"},
    "no_verdict": {"supervisor_verdict"},
}


@pytest.mark.parametrize(("row", "state"), [(c[0], c[1]) for c in CASES], ids=[c[0] for c in CASES])
def test_row_consumes_its_flags(row: str, state: FlowState) -> None:
    assert select_next(state).clears == CLEARS.get(row, set())


def test_a_stop_by_the_user_is_reported_as_interrupted() -> None:
    state = replace(BASE, last_speaker=Speaker.PLANNER_TOOLS, run_limit_reached=True, interrupted=True)
    decision = select_next(state)
    assert (decision.row, decision.effect, decision.reason) == ("run_limit", Effect.STOP, StopReason.INTERRUPTED)


def test_every_row_has_a_case() -> None:
    assert {row for row, *_ in CASES} == {t.row for t in TRANSITIONS}
    assert len({t.row for t in TRANSITIONS}) == len(TRANSITIONS)


@pytest.mark.parametrize(("row", "state", "speaker", "effect", "reason"), CASES, ids=[c[0] for c in CASES])
def test_row(row: str, state: FlowState, speaker: Speaker | None, effect: Effect, reason: StopReason | None) -> None:
    decision = select_next(state)
    assert decision.row == row
    assert decision.next_speaker == speaker
    assert decision.effect == effect
    assert decision.reason == reason


@pytest.mark.parametrize(
    "row",
    [
        "site_unreachable",
        "site_stuck",
        "planner_unusable",
        "subpage_limit",
        "approved",
        "no_verdict",
        "feedback_no_budget",
    ],
)
def test_leaving_the_last_site_goes_to_the_presenter(row: str) -> None:
    state = next(c[1] for c in CASES if c[0] == row)
    decision = select_next(replace(state, has_pending_sites=False))
    assert decision.row == row
    assert decision.next_speaker is Speaker.PRESENTER
    assert decision.effect is Effect.COMPLETE


def test_no_verdict_closes_the_site_with_its_reason_never_as_completed() -> None:
    decision = select_next(replace(BASE, last_speaker=Speaker.SUPERVISOR, supervisor_verdict="none"))
    assert decision.row == "no_verdict" and decision.effect is Effect.NEXT_SITE
    assert decision.reason is StopReason.NO_USABLE_REPLY and decision.detail == "the Supervisor gave no verdict"


def test_every_speaker_has_a_decision_in_any_state() -> None:
    for speaker in Speaker:
        for tool_calls in (False, True):
            for stuck in (False, True):
                for pending in (False, True):
                    state = replace(
                        BASE,
                        last_speaker=speaker,
                        last_had_tool_calls=tool_calls,
                        site_stuck=stuck,
                        has_pending_sites=pending,
                    )
                    assert select_next(state).row
