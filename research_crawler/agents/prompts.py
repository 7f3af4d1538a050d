"""The agents' system messages, loaded from `agents/prompts.toml` and filled from the settings.

Prompts are data; filling refuses unknown or missing placeholders, so a renamed setting cannot leave a
``{placeholder}`` in front of a model. A role's optional parts are added only when the settings make them
true: ``closing`` asks for the reply the Crawler and the Collector write after their tool call (not when
``run.stop_after_tool`` ends their chats on it), ``items_by_tool`` tells the Supervisor and the Presenter
to fetch the items with their tool (only when ``run.items_in_task`` is off).
"""

from __future__ import annotations

import string
import tomllib
from collections.abc import Callable
from datetime import date
from functools import cache
from importlib import resources

from research_crawler.agents.roles import Role
from research_crawler.config.settings import Settings
from research_crawler.errors import ConfigError

__all__ = ["prompt_templates", "prompt_values", "system_message"]

#: A role's optional prompt parts, each with when it is part of the system message.
_OPTIONAL_PARTS: dict[str, Callable[[Settings], bool]] = {
    "closing": lambda settings: not settings.run.stop_after_tool,
    "items_by_tool": lambda settings: not settings.run.items_in_task,
}


@cache
def prompt_templates() -> dict[str, str]:
    """Every agent's system-message template (with its closing part, if any), by role name."""
    return {role: "\n".join(entry.values()) for role, entry in _prompt_entries().items()}


@cache
def _prompt_entries() -> dict[str, dict[str, str]]:
    text = resources.files("research_crawler.agents").joinpath("prompts.toml").read_text(encoding="utf-8")
    parts = ("system", *_OPTIONAL_PARTS)
    return {role: {key: entry[key] for key in parts if key in entry} for role, entry in tomllib.loads(text).items()}


def prompt_values(settings: Settings) -> dict[str, object]:
    """The values a system message may use."""
    return {
        "item_kind": settings.explore.item_kind,
        "max_subpages": settings.explore.max_subpages,
        "max_sites": settings.explore.max_sites,
        "today": date.today().isoformat(),
        "recent_days": settings.report.recent_days,
    }


def system_message(role: Role, settings: Settings, *, task: str | None = None) -> str:
    """The filled system message of `role` (for one of its tasks: ``[<role>_<task>]`` in the prompts file)."""
    key = role.value if task is None else f"{role.value}_{task}"
    try:
        entry = _prompt_entries()[key]
    except KeyError as exc:
        raise ConfigError(f"agents/prompts.toml has no system message for {key}") from exc
    template = "\n".join(
        [
            entry["system"],
            *(entry[part] for part, applies in _OPTIONAL_PARTS.items() if part in entry and applies(settings)),
        ]
    )
    values = prompt_values(settings)
    names = {name for _, name, _, _ in string.Formatter().parse(template) if name}
    missing = names - values.keys()
    if missing:
        raise ConfigError(f"the {key} prompt uses unknown placeholders {sorted(missing)}")
    return template.format(**values)
