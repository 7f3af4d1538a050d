"""Every row's decision carried out on a real exploration state: flags consumed, sites moved on, search ended."""

from __future__ import annotations

from dataclasses import replace

import pytest
from test_speaker_selection import CASES

from research_crawler.agents.roles import Speaker
from research_crawler.agents.speaker_selection import Effect, FlowState, apply_decision, select_next
from research_crawler.config.settings import Settings
from research_crawler.context.search_context import SearchContext, SiteRef, StopReason
from research_crawler.pages.page import Page
from research_crawler.run.trace import Trace
from research_crawler.tools.exploration import Exploration, Flow, PageAccess

FIRST = SiteRef(name="First", url="http://first.test/")
SECOND = SiteRef(name="Second", url="http://second.test/")


def _no_fetch(url: str, _site: SiteRef) -> Page:
    raise AssertionError(f"no page is fetched when a decision is applied ({url})")


def exploring(*, current: bool = True, pending: bool = True) -> Exploration:
    """A run with FIRST current (or, without `current`, pending), SECOND pending when `pending`; both flow
    flags set."""
    search = SearchContext(query="graph neural networks")
    search.add_site(FIRST, priority=2.0)
    if pending:
        search.add_site(SECOND, priority=1.0)
    x = Exploration(
        settings=Settings(),
        search=search,
        pages=PageAccess(_no_fetch),
        trace=Trace(None),
        flow=Flow(sites_selected=True),
    )
    if current:
        x.start_next_site(None)
    x.flow.planner_action, x.flow.supervisor_verdict = "review", "more"
    return x


@pytest.mark.parametrize(("row", "state"), [(c[0], c[1]) for c in CASES], ids=[c[0] for c in CASES])
def test_row_applied(row: str, state: FlowState) -> None:
    x = exploring(current=state.has_current_site)
    decision = select_next(state)
    speaker = apply_decision(x, decision, stop_detail="run limit of 9 model calls reached")
    assert speaker == decision.next_speaker
    new_site = decision.effect is Effect.NEXT_SITE  # a new site starts with every flag reset
    assert (x.flow.planner_action == "none") == (new_site or "planner_action" in decision.clears)
    assert (x.flow.supervisor_verdict == "none") == (new_site or "supervisor_verdict" in decision.clears)
    if decision.effect is Effect.NEXT_SITE and decision.reason is not None:
        assert x.search.current_site == SECOND
        assert [(r.site, r.reason) for r in x.search.finished_sites] == [(FIRST, decision.reason)]
        if decision.detail:
            assert x.search.finished_sites[0].detail == decision.detail
    elif decision.effect is Effect.NEXT_SITE:  # a site announced while none was current: nothing finished
        assert x.search.current_site == (SECOND if state.has_current_site else FIRST)
        assert x.search.finished_sites == []
    elif decision.effect is Effect.COMPLETE:
        assert x.search.gamma and x.search.completion.reason is StopReason.ALL_SITES_DONE
        finished = [(FIRST, decision.reason)] if state.has_current_site else []
        assert [(r.site, r.reason) for r in x.search.finished_sites] == finished
    elif decision.effect is Effect.STOP:
        assert x.search.completion.reason is StopReason.LIMIT_REACHED
        assert x.search.completion.detail == "run limit of 9 model calls reached"
    else:
        assert not x.search.gamma and x.search.finished_sites == []
        assert x.search.current_site == (FIRST if state.has_current_site else None)


def test_leaving_the_last_site_completes_the_search_and_calls_the_presenter() -> None:
    x = exploring(pending=False)
    state = next(c[1] for c in CASES if c[0] == "subpage_limit")
    decision = select_next(replace(state, has_pending_sites=True))  # the table thought a site was left
    assert apply_decision(x, decision) is Speaker.PRESENTER
    assert x.search.completion.reason is StopReason.ALL_SITES_DONE
    assert [(r.site, r.reason) for r in x.search.finished_sites] == [(FIRST, StopReason.LIMIT_REACHED)]
