"""Overrides of single settings by dotted name (``fetch.per_host_delay_s``): CLI flags, ``--set`` and batch entries.

Overrides are validated like any other source, so a bad value or an unknown name is a ConfigError that names it.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from typing import Any

from pydantic import BaseModel, ValidationError

from research_crawler.config.settings import Settings
from research_crawler.errors import ConfigError

__all__ = ["apply_overrides", "flatten_overrides", "parse_assignment", "setting_names"]


def _sections() -> dict[str, type[BaseModel]]:
    """The sub-models of Settings by name (``fetch``, ``models``…)."""
    return {
        name: field.annotation
        for name, field in Settings.model_fields.items()
        if isinstance(field.annotation, type) and issubclass(field.annotation, BaseModel)
    }


def setting_names() -> list[str]:
    """Every dotted setting name, e.g. ``fetch.per_host_delay_s`` and ``runs_dir``."""
    sections = _sections()
    names: list[str] = []
    for name in Settings.model_fields:
        if name in sections:
            names += [f"{name}.{sub}" for sub in sections[name].model_fields]
        else:
            names.append(name)
    return names


def flatten_overrides(overrides: Mapping[str, Any]) -> dict[str, Any]:
    """`overrides` as dotted names: nested tables (``{"fetch": {"render": "browser"}}``) are opened one level."""
    sections = _sections()
    flat: dict[str, Any] = {}
    for key, value in overrides.items():
        if key in sections and isinstance(value, Mapping):
            for sub, sub_value in value.items():
                flat[f"{key}.{sub}"] = sub_value
        else:
            flat[key] = value
    return flat


def apply_overrides(settings: Settings, overrides: Mapping[str, Any]) -> Settings:
    """A copy of `settings` with `overrides` (dotted or nested names) applied and validated.

    Raises ConfigError for an unknown setting (with close names) or a value that does not fit.
    """
    flat = flatten_overrides(overrides)
    if not flat:
        return settings
    known = set(setting_names())
    data = settings.model_dump()
    for name, value in flat.items():
        if name not in known:
            raise ConfigError(f"unknown setting {name!r}{_did_you_mean(name, known)}")
        section, _, field = name.rpartition(".")
        if section:
            data[section][field] = value
        else:
            data[field] = value
    try:
        return Settings.model_validate(data)
    except ValidationError as exc:
        problems = "; ".join(
            f"{'.'.join(str(part) for part in error['loc'])}: {error['msg']}" for error in exc.errors()
        )
        raise ConfigError(f"invalid setting: {problems}") from exc


def parse_assignment(text: str) -> tuple[str, Any]:
    """``KEY=VALUE`` from the command line; VALUE is read as a TOML value when it is one, else as a string."""
    name, sep, raw = text.partition("=")
    name = name.strip()
    if not sep or not name:
        raise ConfigError(f"expected NAME=VALUE (e.g. fetch.per_host_delay_s=2), got {text!r}")
    try:
        value: Any = tomllib.loads(f"value = {raw.strip()}")["value"]
    except ValueError:  # not a TOML value (TOMLDecodeError), or a number of thousands of digits: the text itself
        value = raw.strip()
    return name, value


def _did_you_mean(name: str, known: set[str]) -> str:
    import difflib

    close = difflib.get_close_matches(name, sorted(known), n=3)
    return f"; did you mean {', '.join(close)}?" if close else "; `research-crawler config show` lists them all"
