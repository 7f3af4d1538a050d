"""One group chat over one exploration (the paper's Fig. 2): its members, the nested chats behind the
proxies, and the adapter that lets the state machine — never an LLM — choose each next speaker."""

from __future__ import annotations

import logging
from dataclasses import replace
from typing import Any

import autogen

from research_crawler.agents.ag2 import ModelSpec, make_proxy, register_reply, trace_messages
from research_crawler.agents.roles import Role, Speaker
from research_crawler.agents.speaker_selection import Decision, FlowState, apply_decision, select_next
from research_crawler.agents.team import make_collector, make_crawler, make_planner, make_supervisor, make_web_selector
from research_crawler.config.site_pool import SitePool
from research_crawler.context.search_context import StopReason
from research_crawler.errors import StateError
from research_crawler.llm.client import NO_USABLE_REPLY_PREFIX
from research_crawler.nested_chats.page_selector import PageSelectorChat
from research_crawler.nested_chats.scraper import ScraperChat
from research_crawler.nested_chats.supervisor import SupervisorChat
from research_crawler.run.message_trace import MessageTracer
from research_crawler.run.models import RunModels
from research_crawler.run.presenting import Presenting
from research_crawler.run.site_start import announce_site, resume_unfinished_scrape
from research_crawler.run.trace import Trace
from research_crawler.tools.exploration import Exploration

__all__ = ["ChatRun"]

logger = logging.getLogger(__name__)


class ChatRun:
    """The group chat of one exploration. A lane (`lane=True`) explores one site of a parallel run and ends
    where the Presenter would speak: the parent run presents once for every site."""

    def __init__(
        self,
        exploration: Exploration,
        *,
        pool: SitePool,
        models: RunModels,
        presenting: Presenting,
        trace: Trace,
        lane: bool = False,
    ) -> None:
        self.x = exploration
        self.pool = pool
        self.models = models
        self.presenting = presenting
        self.trace = trace
        self.lane = lane
        self.tracer = MessageTracer(trace, exploration)
        #: A turn is held for the answer to the tool call the Planner, chosen last, may make.
        self._answer_turn_held = False

    def run(self) -> None:
        """Build the group chat and run it until the report is written (or, for a lane, the site is done)."""
        x, spec = self.x, self.spec
        planner, planner_tools = make_planner(x, spec(Role.PLANNER))
        crawler, crawler_exec, crawler_tools = make_crawler(x, spec(Role.CRAWLER))
        collector, collector_exec, collector_tools = make_collector(x, spec(Role.COLLECTOR))
        supervisor, supervisor_exec = make_supervisor(x, spec(Role.SUPERVISOR))
        web_selector, web_exec, web_tools = make_web_selector(x, self.pool, spec(Role.WEB_SELECTOR))

        user = make_proxy(Speaker.USER.value, description="Brings the user's request and announces each site.")
        page_selector = make_proxy(Speaker.PAGE_SELECTOR.value, description="Runs the Web Selector.")
        scraper = make_proxy(Speaker.SCRAPER.value, description="Reads a page with the Crawler and the Collector.")
        supervisor_proxy = make_proxy(Speaker.SUPERVISOR.value, description="Asks the Supervisor for a verdict.")
        presenter_proxy = make_proxy(Speaker.PRESENTER.value, description="Has the report written.")
        members = [user, page_selector, planner, planner_tools, scraper, supervisor_proxy, presenter_proxy]
        nested = [crawler, crawler_exec, collector, collector_exec, supervisor, supervisor_exec, web_selector, web_exec]
        for agent in [*members, *nested]:
            trace_messages(agent, self.tracer)

        groupchat = autogen.GroupChat(
            agents=list[autogen.Agent](members),
            messages=[],
            max_round=x.settings.run.max_rounds + 10,
            speaker_selection_method=self.select,
        )
        manager = autogen.GroupChatManager(groupchat, llm_config=False, human_input_mode="NEVER")
        scrape = ScraperChat(x, crawler, crawler_exec, crawler_tools, collector, collector_exec, collector_tools)
        selecting = PageSelectorChat(x, self.pool, web_selector, web_exec, web_tools)
        register_reply(page_selector, manager, lambda _m: selecting.run())
        register_reply(scraper, manager, lambda _m: scrape.run())
        register_reply(supervisor_proxy, manager, lambda _m: SupervisorChat(x, supervisor, supervisor_exec).run())
        register_reply(presenter_proxy, manager, lambda _m: self.presenting.present())
        register_reply(user, manager, lambda _m: announce_site(x, self.trace))
        resume_unfinished_scrape(x, self.trace)  # a resumed run under way on a site: its interrupted page first
        limits = self.models.limits
        stop = limits.next_turn()  # the opening message is one of the run's group messages like any other
        if stop is not None and self.lane:  # the run's limits were spent before this site's turn came
            x.complete(StopReason.INTERRUPTED if limits.cancelled.is_set() else StopReason.LIMIT_REACHED, stop)
            return
        if stop is not None:  # the run's own chat still opens, and its first turn goes to the report
            limits.count_turn()
        user.initiate_chat(manager, message=f'Request: "{x.search.query}"', silent=True)
        if not x.search.gamma and not self.lane:  # the chat ended without the Presenter: still report
            x.complete(StopReason.ERROR, "the conversation ended before the report")
            self.presenting.present_without_chat()

    def spec(self, role: Role) -> ModelSpec:
        """The model client of `role`, reporting each call to this exploration (its site's stuck detector)."""
        spec = self.models.spec(role)
        return replace(spec, client_kwargs={**spec.client_kwargs, "on_call": self.x.note_model_call})

    def select(self, last_speaker: autogen.Agent, groupchat: autogen.GroupChat) -> autogen.Agent | None:
        """AG2's speaker-selection callback: the state machine's next speaker, its effect applied first."""
        x = self.x
        try:
            speaker = Speaker(last_speaker.name)
        except ValueError as exc:  # every member is built above with a Speaker's name
            known = last_speaker.name
            raise StateError(f"the group chat has a member the state machine does not know: {known!r}") from exc
        message = groupchat.messages[-1] if groupchat.messages else {}
        decision, stop = self._decide(speaker, message)
        next_speaker = apply_decision(x, decision, stop_detail=stop or "")
        if self.lane and next_speaker is Speaker.PRESENTER:
            next_speaker = None  # a lane's site is done: the parent run presents once for all sites
        if stop is None and next_speaker is None:
            self.models.limits.return_turn()  # the chat ends: no message takes the turn taken for it
        elif stop is not None and next_speaker is not None:
            self.models.limits.count_turn()  # the report's turn: past the limit, never refused
        self.trace.emit(
            "transition",
            row=decision.row,
            last=speaker.value,
            next=next_speaker.value if next_speaker else None,
            effect=decision.effect.value,
            reason=str(decision.reason or ""),
        )
        return groupchat.agent_by_name(next_speaker.value) if next_speaker else None

    def _decide(self, speaker: Speaker, message: dict[str, Any]) -> tuple[Decision, str | None]:
        """The state machine's decision after `speaker`'s `message`, and why the run stops (None: the next
        speaker's message is one of the run's group messages, taken now across every lane).

        The Planner's message may be a tool call, whose answer always follows: the Planner is chosen only when
        both turns fit, and the answer's turn is given back when it calls no tool.
        """
        limits = self.models.limits
        called = speaker is Speaker.PLANNER and bool(message.get("tool_calls"))
        if self._answer_turn_held and not called:
            limits.return_turn()
        self._answer_turn_held = False
        stop = None if called else limits.next_turn()  # a tool call's answer has the turn taken with the call
        decision = select_next(self._flow_state(speaker, message, stop))
        if stop is None and not called and decision.next_speaker is Speaker.PLANNER:
            stop = limits.next_turn()
            if stop is None:
                self._answer_turn_held = True
            else:
                limits.return_turn()
                decision = select_next(self._flow_state(speaker, message, stop))
        return decision, stop

    def _flow_state(self, speaker: Speaker, message: dict[str, Any], stop: str | None) -> FlowState:
        x = self.x
        return FlowState(
            last_speaker=speaker,
            last_had_tool_calls=bool(message.get("tool_calls")),
            sites_selected=x.flow.sites_selected,
            has_current_site=x.search.current_site is not None,
            has_pending_sites=x.search.has_pending_sites,
            planner_action=x.flow.planner_action,
            subpages_left=x.subpages_left,
            supervisor_verdict=x.flow.supervisor_verdict,
            site_stuck=x.search.current_site is not None and x.stuck.is_stuck,
            site_failure=x.flow.site_failure if x.search.current_site is not None else "",
            run_limit_reached=stop is not None,
            interrupted=stop is not None and self.models.limits.cancelled.is_set(),
            last_reply_unusable=str(message.get("content") or "").startswith(NO_USABLE_REPLY_PREFIX),
        )
