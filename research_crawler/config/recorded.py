"""The settings a run was made with, as its run directory records them (secrets left out), and the settings a
`resume` continues it with: yours, plus only what the run directory may restore (`RESTORED_FROM_RUN`).

A run directory is data from wherever it was copied: like a downloaded file, it may restore what the run was asked
and how far it got — its scope, views, flow, report and models by name — never which program runs, which endpoint
gets the key, what the URL guard allows, how politely sites are fetched or how much may be spent (those limits it
may only tighten). Everything else comes from the user's own settings, environment and flags.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from fnmatch import fnmatchcase
from typing import Any, Literal
from urllib.parse import urlsplit, urlunsplit

from research_crawler.config.overrides import apply_overrides, flatten_overrides, setting_names
from research_crawler.config.settings import Settings
from research_crawler.errors import ConfigError

__all__ = [
    "MASK",
    "RESTORED_FROM_RUN",
    "RESTORED_UP_TO",
    "TIGHTENED_BY_RUN",
    "ResumeSettings",
    "record_settings",
    "restorable",
    "restore_settings",
    "url_without_credentials",
]

MASK = "***"


def _secret_fields(settings: Settings) -> list[tuple[str, str]]:
    """(section, field) of every secret setting (an API key), found by type."""
    found = []
    for section_name in Settings.model_fields:
        section = getattr(settings, section_name)
        for field_name, field in getattr(type(section), "model_fields", {}).items():
            if "SecretStr" in str(field.annotation):
                found.append((section_name, field_name))
    return found


def url_without_credentials(url: str | None, *, mask: str = MASK) -> str | None:
    """`url` with the credentials it carries masked: the user and password before '@', and the values of query
    parameters named like a secret (``key``, ``token``, ``sig``…)."""
    if not url or "://" not in url:
        return url
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError:
        return mask  # unreadable: show nothing of it rather than a secret
    netloc = parts.netloc
    if parts.username is not None or parts.password is not None:
        host = parts.hostname or ""
        netloc = f"{mask}@{host}" + (f":{port}" if port else "")
    query = "&".join(
        f"{name}={mask}" if _SECRET_PARAMETER.search(name) else (f"{name}={value}" if sep else name)
        for name, sep, value in (pair.partition("=") for pair in parts.query.split("&") if pair)
    )
    return urlunsplit((parts.scheme, netloc, parts.path, query, parts.fragment))


_SECRET_PARAMETER = re.compile(r"key|token|secret|password|passwd|sig|auth|credential", re.IGNORECASE)


def record_settings(settings: Settings) -> dict[str, Any]:
    """`settings` as run.json keeps them: every value, secrets and credentials in URLs masked."""
    data = settings.model_dump(mode="json")
    for section, name in _secret_fields(settings):
        if data[section].get(name) is not None:
            data[section][name] = MASK
    for values in data.values():  # every endpoint URL (models.base_url, eval.judge_base_url…)
        if isinstance(values, dict):
            for name, value in values.items():
                if isinstance(value, str) and "://" in value:
                    values[name] = url_without_credentials(value)
    return data


#: What a run directory may restore: what the run was asked and how it explores (dotted names; ``section.*`` for a
#: whole section). Anything not named here comes from the user's settings, whatever run.json says.
RESTORED_FROM_RUN: tuple[str, ...] = (
    "explore.max_subpages",
    "explore.max_subpages_earned",
    "explore.subpages_step",
    "explore.max_sites",
    "explore.top_k_urls",
    "explore.item_kind",
    "explore.parallel_sites",
    "page_view.*",
    "report.*",
    "simulated.*",
    "rerank.kind",
    "fetch.render",
    "fetch.fetch_ahead",
    "models.strong_model",
    "models.cheap_model",
    "models.judge_model",
    "models.agent_models",
    "models.temperature",
    "models.max_output_tokens",
    "models.max_reasks",
    "models.force_tool_call",
    "models.parallel_tool_calls",
    "run.report_lists_top_urls",
    "run.items_in_task",
    "run.open_start_page",
    "run.stop_after_tool",
    "run.scrape_concurrently",
    "run.links_on_last_page",
    "run.nested_max_turns",
    "run.read_request",
    "run.max_chunks_per_page",
    "run.planner_history",
    "run.planner_recent_tool_calls",
    "run.planner_recent_reports",
)

#: How far a run directory may widen the crawl's scale beyond your own: a value up to this ceiling (or up to yours,
#: when yours is larger) is restored, as any run asked with the flags (`--max-subpages 20`) resumes as it was asked; a
#: larger one is not taken — a copied run.json never sets off a crawl of thousands of pages — and the note says how to
#: ask for it yourself.
RESTORED_UP_TO: dict[str, int] = {
    "explore.max_subpages": 50,
    "explore.max_subpages_earned": 50,
    "explore.max_sites": 20,
    "explore.parallel_sites": 8,
}

#: Limits a run directory may only tighten: the run keeps its own value when it is stricter than yours (a smaller
#: budget, a longer delay between requests to a host). None means "no limit".
TIGHTENED_BY_RUN: dict[str, Literal["lower", "higher"]] = {
    "run.max_rounds": "lower",
    "run.max_model_calls": "lower",
    "run.max_tokens": "lower",
    "run.max_cost_usd": "lower",
    "run.max_model_calls_per_site": "lower",
    "fetch.per_host_delay_s": "higher",
}


@dataclass(frozen=True)
class ResumeSettings:
    """The settings a resume runs with, and the recorded values it did not take."""

    settings: Settings
    #: Dotted names whose value in run.json differs from yours and was not taken (yours is used).
    not_restored: tuple[str, ...] = ()

    def note(self, run_dir: str = "RUN_DIR") -> str | None:
        """One line for the user about what the run directory asked for and did not get, and how to choose one
        yourself; None when nothing."""
        if not self.not_restored:
            return None
        return (
            f"settings in the run directory not taken (a run directory may restore what the run asked, never a "
            f"program, an endpoint, the URL guard, politeness, a looser limit or a much larger crawl); yours are "
            f"used: {', '.join(self.not_restored)} — to choose one yourself: "
            f"research-crawler resume {run_dir} --set NAME=VALUE"
        )


def restorable(name: str) -> bool:
    """Whether a run directory may restore the setting `name` (dotted) as it recorded it."""
    return any(fnmatchcase(name, pattern) for pattern in RESTORED_FROM_RUN)


def restore_settings(recorded: Mapping[str, Any], *, current: Settings, overrides: Mapping[str, Any]) -> ResumeSettings:
    """`current` (the user's settings) with what the run recorded of `RESTORED_FROM_RUN`, the limits of
    `TIGHTENED_BY_RUN` that the run held tighter, then `overrides` (dotted names: ``--set`` and the command's flags,
    which always win). ConfigError when a value the run may restore does not load."""
    explicit = set(flatten_overrides(overrides))
    yours = current.model_dump(mode="json")
    taken: dict[str, Any] = {}
    not_taken: list[str] = []
    for name in setting_names():
        section, _, field = name.rpartition(".")
        values = recorded.get(section) if section else recorded
        if not isinstance(values, Mapping) or field not in values or name in explicit:
            continue
        value, own = values[field], (yours[section][field] if section else yours[field])
        if value in (own, MASK) or (isinstance(value, str) and MASK in value):
            continue
        if name in RESTORED_UP_TO and _beyond(value, max(own, RESTORED_UP_TO[name])):
            not_taken.append(name)
        elif restorable(name) or (name in TIGHTENED_BY_RUN and _tighter(value, own, TIGHTENED_BY_RUN[name])):
            taken[name] = value
        else:
            not_taken.append(name)
    try:
        settings = apply_overrides(current, taken)
    except ConfigError as exc:
        raise ConfigError(f"the run's recorded settings do not load ({exc})") from None
    return ResumeSettings(apply_overrides(settings, overrides), tuple(not_taken))


def _beyond(recorded: Any, ceiling: int) -> bool:
    """Whether a recorded scale is past `ceiling` (a value that is no number is left to the settings' own checks)."""
    return isinstance(recorded, int | float) and not isinstance(recorded, bool) and recorded > ceiling


def _tighter(recorded: Any, own: Any, direction: Literal["lower", "higher"]) -> bool:
    """Whether the recorded limit is stricter than the user's (None: no limit)."""
    if not isinstance(recorded, int | float) or isinstance(recorded, bool):
        return False
    if own is None:
        return direction == "lower"
    return recorded < own if direction == "lower" else recorded > own
