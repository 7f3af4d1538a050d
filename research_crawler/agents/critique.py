"""The Critique: reviews the Presenter's draft (structure, requested format and language, coverage,
references) and answers with concrete corrections or "No changes needed."."""

from __future__ import annotations

import re

import autogen

from research_crawler.agents.ag2 import ModelSpec, finish_llm_agent, make_executor, make_llm_agent
from research_crawler.agents.prompts import system_message
from research_crawler.agents.roles import Role
from research_crawler.config.settings import Settings

__all__ = ["make_critique", "needs_changes"]

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
