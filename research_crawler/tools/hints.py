"""Hint injection: short instructions appended to every tool result an LLM reads, filled from the live state.

The templates are data (`tools/hints.toml`); `hint(tool, case, state)` fills one and refuses to leave
a placeholder empty, so a missing counter is a bug found in tests rather than a confusing prompt.
"""

from __future__ import annotations

import string
import tomllib
from functools import cache
from importlib import resources

from pydantic import BaseModel, Field

__all__ = ["HintState", "hint", "hint_templates", "with_hint"]


class HintState(BaseModel):
    """The live counters a hint may mention."""

    subpages_left: int = Field(ge=0)
    items_collected: int = Field(ge=0)
    item_kind: str = "paper"
    #: How many items the report lists: the number the request asks for, else `report.top_k`.
    items_wanted: int = Field(10, ge=1)
    #: What counts toward `items_wanted`, when not every item does ("; only papers that may be dated in 2024 count").
    counted_note: str = ""
    #: The current site has a search form that the Planner has not used yet.
    search_unused: bool = False
    #: The authors the request asks for works by: their pages keep their place in the Planner's view, others' wait.
    authors_asked: list[str] = Field(default_factory=list)


@cache
def hint_templates() -> dict[str, dict[str, str]]:
    """All hint templates, by tool name then case."""
    text = resources.files("research_crawler.tools").joinpath("hints.toml").read_text(encoding="utf-8")
    return tomllib.loads(text)


def placeholders(template: str) -> set[str]:
    """The placeholder names used in `template`."""
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


def hint(tool: str, case: str, state: HintState) -> str:
    """The hint for `tool` in `case`, filled from `state` (KeyError for an unknown tool or case)."""
    template = hint_templates()[tool][case]
    values = state.model_dump()
    missing = placeholders(template) - values.keys()
    if missing:
        raise KeyError(f"hint {tool}.{case} needs {sorted(missing)}, which HintState does not provide")
    return template.format(**values)


def with_hint(text: str, hint_text: str) -> str:
    """A tool result followed by its hint, in the layout every tool uses."""
    return f"{text.rstrip()}\n\nHint: {hint_text}"
