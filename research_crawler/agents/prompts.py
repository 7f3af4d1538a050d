"""The agents' system messages, loaded from `prompts/agents.toml` and filled from the settings.

Prompts are data; filling refuses unknown or missing placeholders, so a renamed setting cannot leave a
``{placeholder}`` in front of a model.
"""

from __future__ import annotations

import string
import tomllib
from functools import cache
from importlib import resources

from research_crawler.agents.roles import Role
from research_crawler.errors import ConfigError
from research_crawler.settings import Settings

__all__ = ["prompt_templates", "prompt_values", "system_message"]


@cache
def prompt_templates() -> dict[str, str]:
    """Every agent's system-message template, by role name."""
    text = resources.files("research_crawler.prompts").joinpath("agents.toml").read_text(encoding="utf-8")
    return {role: entry["system"] for role, entry in tomllib.loads(text).items()}


def prompt_values(settings: Settings) -> dict[str, object]:
    """The values a system message may use."""
    return {
        "item_kind": settings.explore.item_kind,
        "max_subpages": settings.explore.max_subpages,
        "max_sites": settings.explore.max_sites,
    }


def system_message(role: Role, settings: Settings) -> str:
    """The filled system message of `role`."""
    try:
        template = prompt_templates()[role.value]
    except KeyError as exc:
        raise ConfigError(f"prompts/agents.toml has no system message for {role.value}") from exc
    values = prompt_values(settings)
    names = {name for _, name, _, _ in string.Formatter().parse(template) if name}
    missing = names - values.keys()
    if missing:
        raise ConfigError(f"the {role.value} prompt uses unknown placeholders {sorted(missing)}")
    return template.format(**values)
