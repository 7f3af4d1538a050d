"""The group chat's speaker-selection adapter: it reads the state into a FlowState, applies the decision and
names the next member; it never guesses a speaker it does not know."""

from __future__ import annotations

import threading
from types import SimpleNamespace
from typing import Any

import pytest

from research_crawler.agents.roles import Speaker
from research_crawler.config.settings import Settings
from research_crawler.config.site_pool import load_site_pool
from research_crawler.context.search_context import SearchContext, SiteRef, StopReason
from research_crawler.errors import StateError
from research_crawler.llm.client import NO_USABLE_REPLY_PREFIX
from research_crawler.pages.page import Page
from research_crawler.run.chat_run import ChatRun
from research_crawler.run.models import RunModels
from research_crawler.run.trace import Trace
from research_crawler.tools.exploration import Exploration, Flow, PageAccess

SITE = SiteRef(name="Site", url="http://site.test/")


class FakeGroupChat:
    """The two things the adapter asks of AG2's GroupChat: its messages and a member by name."""

    def __init__(self, messages: list[dict[str, Any]]) -> None:
        self.messages = messages

    def agent_by_name(self, name: str) -> SimpleNamespace:
        return SimpleNamespace(name=name)


def _fetch(url: str, _site: SiteRef) -> Page:
    raise AssertionError("the adapter fetches nothing")


@pytest.fixture
def chat_run() -> ChatRun:
    settings = Settings()
    search = SearchContext(query="graph networks")
    search.add_site(SITE)
    trace = Trace(None)
    x = Exploration(
        settings=settings, search=search, pages=PageAccess(_fetch), trace=trace, flow=Flow(sites_selected=True)
    )
    x.start_next_site(None)
    models = RunModels(settings, backend="simulated", cancelled=threading.Event(), trace=trace)
    return ChatRun(x, pool=load_site_pool(), models=models, presenting=None, trace=trace)  # type: ignore[arg-type]


def speaker(name: Speaker) -> SimpleNamespace:
    return SimpleNamespace(name=name.value)


def test_a_scrape_chosen_by_the_planner_goes_to_the_scraper_and_is_consumed(chat_run: ChatRun) -> None:
    chat_run.x.flow.planner_action = "scrape"
    chosen = chat_run.select(speaker(Speaker.PLANNER_TOOLS), FakeGroupChat([{"content": "Opening /a"}]))  # type: ignore[arg-type]
    assert chosen.name == Speaker.SCRAPER.value
    assert chat_run.x.flow.planner_action == "none"


def test_an_unusable_planner_reply_ends_the_site_with_that_reason(chat_run: ChatRun) -> None:
    message = {"content": f"{NO_USABLE_REPLY_PREFIX}the reply was empty)"}
    chosen = chat_run.select(speaker(Speaker.PLANNER), FakeGroupChat([message]))  # type: ignore[arg-type]
    assert chosen.name == Speaker.PRESENTER.value
    assert chat_run.x.search.finished_sites[0].reason is StopReason.NO_USABLE_REPLY


def test_a_stop_by_the_user_stops_the_run_at_the_next_turn(chat_run: ChatRun) -> None:
    chat_run.models.limits.cancelled.set()
    chosen = chat_run.select(speaker(Speaker.SCRAPER), FakeGroupChat([{"content": "Page read"}]))  # type: ignore[arg-type]
    assert chosen.name == Speaker.PRESENTER.value
    assert chat_run.x.search.completion.reason is StopReason.INTERRUPTED


def test_a_member_the_state_machine_does_not_know_is_an_error(chat_run: ChatRun) -> None:
    with pytest.raises(StateError, match="does not know"):
        chat_run.select(SimpleNamespace(name="Stranger"), FakeGroupChat([]))  # type: ignore[arg-type]
