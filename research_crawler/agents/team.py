"""The agents of the paper's group chat (§III-G), each made the same way: an LLM agent with its prompt (from
prompts.toml), the executor that runs its tools, and the tools it is offered. The Web Selector is made twice: once
to read the request as a contract, once to choose the sites.

Who speaks when is `speaker_selection`; the tools each agent calls live in `research_crawler.tools`.
"""

from __future__ import annotations

import re
from collections.abc import Callable

import autogen

from research_crawler.agents.ag2 import ModelSpec, finish_llm_agent, make_executor, make_llm_agent, register_tools
from research_crawler.agents.planner_history import planner_history_hook
from research_crawler.agents.prompts import system_message
from research_crawler.agents.roles import Role, Speaker
from research_crawler.config.settings import Settings
from research_crawler.config.site_pool import SitePool
from research_crawler.tools.collector_tools import CollectorTools
from research_crawler.tools.crawler_tools import CrawlerTools
from research_crawler.tools.exploration import Exploration
from research_crawler.tools.planner_tools import PlannerTools
from research_crawler.tools.presenter_tools import PresenterTools
from research_crawler.tools.request_tools import RequestTools
from research_crawler.tools.site_selection import SiteSelectionTools
from research_crawler.tools.supervisor_tools import SupervisorTools

__all__ = [
    "make_collector",
    "make_crawler",
    "make_critique",
    "make_planner",
    "make_presenter",
    "make_request_reader",
    "make_supervisor",
    "make_web_selector",
    "needs_changes",
]


# --- Web Selector --------------------------------------------------------------------------------------------------
# The Web Selector: chooses the sites to explore for a query from the site pool (or the user's sites) and fills P. It
# runs in the Page Selector nested chat and cannot add a site outside the pool.


def make_web_selector(
    exploration: Exploration, pool: SitePool, model: ModelSpec
) -> tuple[autogen.ConversableAgent, autogen.ConversableAgent, SiteSelectionTools]:
    """The Web Selector agent, its executor and its tool."""
    selector = make_llm_agent(
        Role.WEB_SELECTOR,
        system_message=system_message(Role.WEB_SELECTOR, exploration.settings),
        model=model,
    )
    executor = make_executor("WebSelectorTools")
    tools = SiteSelectionTools(exploration, pool)
    register_tools(selector, executor, tools.tools())
    finish_llm_agent(selector, model)
    return selector, executor, tools


# --- Request Reader ------------------------------------------------------------------------------------------------
# The Web Selector reading the request: before any site is chosen, it records the request as a contract with
# `record_request` (and, for a follow-up, how the follow-up changes the earlier one).


def make_request_reader(
    exploration: Exploration, model: ModelSpec, *, text: str
) -> tuple[autogen.ConversableAgent, autogen.ConversableAgent, RequestTools]:
    """The Web Selector with its request-reading prompt, the executor of `record_request`, and the tool."""
    reader = make_llm_agent(
        Role.WEB_SELECTOR,
        system_message=system_message(Role.WEB_SELECTOR, exploration.settings, task="request"),
        model=model,
        done=lambda _message: tools.recorded is not None,
    )
    executor = make_executor("RequestTools")
    tools = RequestTools(exploration, text=text)
    register_tools(reader, executor, tools.tools())
    finish_llm_agent(reader, model)
    return reader, executor, tools


# --- Planner -------------------------------------------------------------------------------------------------------
# The Planner: orchestrates one site — lists the best pending URLs, picks the next page, searches the site, and hands
# over to the Supervisor. Its tools change the Web Context; the speaker selection reads what it asked.


def make_planner(
    exploration: Exploration, model: ModelSpec
) -> tuple[autogen.ConversableAgent, autogen.ConversableAgent]:
    """The Planner agent and the executor of its tools (the group chat's PlannerTools member).

    With ``run.planner_history = "reports"`` the Planner reads its older tool exchanges no more, and with
    ``"summary"`` its older page reports no more either, but a summary of them (see `planner_history`); the
    group chat itself keeps every message for the trace.
    """
    prompt = system_message(Role.PLANNER, exploration.settings)
    planner = make_llm_agent(Role.PLANNER, system_message=prompt, model=model)
    run = exploration.settings.run
    if run.planner_history != "full":
        # A site search is a decision to remember (its keywords), not a listing that get_top_urls renews.
        hook = planner_history_hook(
            recent_tool_calls=run.planner_recent_tool_calls,
            always_keep={"search_site"},
            recent_reports=run.planner_recent_reports if run.planner_history == "summary" else None,
        )
        planner.register_hook("process_all_messages_before_reply", hook)
    executor = make_executor(Speaker.PLANNER_TOOLS.value)
    register_tools(planner, executor, PlannerTools(exploration).tools())
    finish_llm_agent(planner, model)
    return planner, executor


# --- Crawler and Collector ----------------------------------------------------------------------------------------
# The two agents of the page being scraped, made alike. The Crawler scores the page's numbered links and stores the
# useful ones in C; the Item Collector (the paper's Paper Collector) stores the relevant items of the page in CP and
# writes the short page report the Planner reads.


def _page_agent(
    role: Role, exploration: Exploration, model: ModelSpec, tools: list[Callable[..., str]]
) -> tuple[autogen.ConversableAgent, autogen.ConversableAgent]:
    agent = make_llm_agent(
        role,
        system_message=system_message(role, exploration.settings),
        model=model,
        stop_after_tool=exploration.settings.run.stop_after_tool,
    )
    executor = make_executor(f"{role.agent_name}Tools")
    register_tools(agent, executor, tools)
    finish_llm_agent(agent, model)
    return agent, executor


def make_crawler(
    exploration: Exploration, model: ModelSpec
) -> tuple[autogen.ConversableAgent, autogen.ConversableAgent, CrawlerTools]:
    """The Crawler agent, its executor, and its tools (which count the links they queued)."""
    tools = CrawlerTools(exploration)
    crawler, executor = _page_agent(Role.CRAWLER, exploration, model, tools.tools())
    return crawler, executor, tools


def make_collector(
    exploration: Exploration, model: ModelSpec
) -> tuple[autogen.ConversableAgent, autogen.ConversableAgent, CollectorTools]:
    """The Item Collector agent, its executor, and its tools (which count the items they added)."""
    tools = CollectorTools(exploration)
    collector, executor = _page_agent(Role.COLLECTOR, exploration, model, tools.tools())
    return collector, executor, tools


# --- Supervisor ----------------------------------------------------------------------------------------------------
# The Supervisor: reads the query and the items collected on the current site, then approves the site or gives the
# Planner specific feedback. It runs in a nested chat, isolated from the navigation history.


def make_supervisor(
    exploration: Exploration, model: ModelSpec
) -> tuple[autogen.ConversableAgent, autogen.ConversableAgent]:
    """The Supervisor agent and the executor of its tools (get_collected_items only when run.items_in_task is off;
    with run.stop_after_tool its chat ends as soon as a verdict is recorded, not on get_collected_items)."""
    supervisor = make_llm_agent(
        Role.SUPERVISOR,
        system_message=system_message(Role.SUPERVISOR, exploration.settings),
        model=model,
        done=(lambda _message: exploration.flow.supervisor_verdict != "none")
        if exploration.settings.run.stop_after_tool
        else None,
    )
    executor = make_executor("SupervisorTools")
    register_tools(supervisor, executor, SupervisorTools(exploration).tools())
    finish_llm_agent(supervisor, model)
    return supervisor, executor


# --- Presenter -----------------------------------------------------------------------------------------------------
# The Presenter: receives the best items (ranked, with metadata) in its task message, or through its `get_top_items`
# tool (run.items_in_task off), and writes the report in Markdown, following the format the user asked for.


def make_presenter(
    settings: Settings, tools: PresenterTools, model: ModelSpec
) -> tuple[autogen.ConversableAgent, autogen.ConversableAgent]:
    """The Presenter agent and the executor of its tool (offered only when run.items_in_task is off)."""
    presenter = make_llm_agent(Role.PRESENTER, system_message=system_message(Role.PRESENTER, settings), model=model)
    executor = make_executor("PresenterTools")
    if not settings.run.items_in_task:
        register_tools(presenter, executor, tools.tools())
    finish_llm_agent(presenter, model)
    return presenter, executor


# --- Critique ------------------------------------------------------------------------------------------------------
# The Critique: reviews the Presenter's draft (structure, requested format and language, coverage, references) and
# answers with concrete corrections or "No changes needed.".

_NO_CHANGES = re.compile(r"^\W*no (changes|corrections) (are )?needed\b", re.IGNORECASE)


def needs_changes(review: str) -> bool:
    """Whether a review asks for a revision (an empty review asks for none)."""
    text = review.strip()
    return bool(text) and not _NO_CHANGES.match(text)


def make_critique(settings: Settings, model: ModelSpec) -> tuple[autogen.ConversableAgent, autogen.ConversableAgent]:
    """The Critique agent (no tools) and the proxy that hands it a draft."""
    critique = make_llm_agent(Role.CRITIQUE, system_message=system_message(Role.CRITIQUE, settings), model=model)
    finish_llm_agent(critique, model)
    return critique, make_executor("CritiqueProxy")
