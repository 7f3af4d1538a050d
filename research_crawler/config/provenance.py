"""Where each effective setting came from — a flag, the environment, a preset, the settings file or the default — for
``research-crawler config show``, with secrets masked.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, SecretStr
from pydantic_settings import EnvSettingsSource, TomlConfigSettingsSource

from research_crawler.config.overrides import flatten_overrides, setting_names
from research_crawler.config.recorded import url_without_credentials
from research_crawler.config.settings import OpenAIEnvironmentSource, Settings, preset_file

__all__ = ["EffectiveSetting", "SettingSource", "effective_settings"]

SettingSource = Literal["flag", "env", "preset", "file", "default"]
MASK = "********"


class EffectiveSetting(BaseModel):
    """One setting as it is in force, with the layer that set it."""

    name: str
    value: Any
    source: SettingSource
    description: str = ""


def effective_settings(
    settings: Settings,
    *,
    config_file: Path | None,
    preset: str | None = None,
    flags: Mapping[str, Any] | None = None,
) -> list[EffectiveSetting]:
    """Every setting of `settings` with its source. `config_file` and `preset` are what `Settings.load` read
    (if any), `flags` the dotted overrides given on the command line."""
    layers: list[tuple[SettingSource, set[str]]] = [
        ("flag", set(flatten_overrides(flags or {}))),
        ("env", _names_in(EnvSettingsSource(Settings)()) | _names_in(OpenAIEnvironmentSource(Settings)())),
        ("preset", _names_in(TomlConfigSettingsSource(Settings, toml_file=preset_file(preset))()) if preset else set()),
        ("file", _names_in(TomlConfigSettingsSource(Settings, toml_file=config_file)()) if config_file else set()),
    ]
    result = []
    for name in setting_names():
        source: SettingSource = next((layer for layer, names in layers if name in names), "default")
        value, description, secret = _lookup(settings, name)
        result.append(EffectiveSetting(name=name, value=_shown(value, secret), source=source, description=description))
    return result


def _names_in(data: Mapping[str, Any]) -> set[str]:
    return set(flatten_overrides({key.lower(): value for key, value in data.items()}))


def _lookup(settings: Settings, name: str) -> tuple[Any, str, bool]:
    """The value of setting `name`, its description, and whether it is a secret (typed `SecretStr`: API keys, the
    web app's token; not every name with "token" in it — `run.max_tokens` is a limit to read)."""
    section, _, field = name.rpartition(".")
    owner: BaseModel = getattr(settings, section) if section else settings
    info = type(owner).model_fields[field]
    return getattr(owner, field), info.description or "", "SecretStr" in str(info.annotation)


def _shown(value: Any, secret: bool) -> Any:
    """A JSON-friendly value with secrets masked (set secrets show as ********, unset ones as None)."""
    if secret or isinstance(value, SecretStr):
        return None if value is None or value == "" else MASK
    if isinstance(value, str) and "://" in value:  # an endpoint such as https://user:password@host/v1
        return url_without_credentials(value, mask=MASK)
    if isinstance(value, Path):
        return str(value)
    if isinstance(value, tuple):
        return list(value)
    if isinstance(value, dict):
        return {key: _shown_item(item) for key, item in value.items()}
    return value


def _shown_item(item: Any) -> Any:
    if isinstance(item, tuple):
        return list(item)
    if isinstance(item, BaseModel):  # a model's list price
        return item.model_dump(exclude_none=True)
    return item
