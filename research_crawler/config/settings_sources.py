"""The sources `Settings` is read from besides its arguments and ``RESEARCH_CRAWLER_*`` variables.

``OPENAI_API_KEY``/``OPENAI_BASE_URL``, then the chosen preset and settings file, handed in through ContextVars.
"""

from __future__ import annotations

import os
from contextlib import contextmanager
from contextvars import ContextVar
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pydantic.fields import FieldInfo
from pydantic_settings import BaseSettings, PydanticBaseSettingsSource, TomlConfigSettingsSource

if TYPE_CHECKING:
    from collections.abc import Iterator

__all__ = ["OpenAIEnvironmentSource", "file_sources", "reading_config_file", "reading_preset"]

#: The settings file `Settings.load` chose; read by `settings_customise_sources`, which has no other way in.
_CONFIG_FILE: ContextVar[Path | None] = ContextVar("research_crawler_config_file", default=None)
#: The preset file chosen for the Settings being built (same route in as the settings file).
_PRESET_FILE: ContextVar[Path | None] = ContextVar("research_crawler_preset_file", default=None)


class OpenAIEnvironmentSource(PydanticBaseSettingsSource):
    """``OPENAI_API_KEY``/``OPENAI_BASE_URL`` as a settings source, so they rank above the settings file."""

    def get_field_value(self, field: FieldInfo, field_name: str) -> tuple[Any, str, bool]:
        return None, field_name, False

    def __call__(self) -> dict[str, Any]:
        models = {
            field: value
            for field, variable in (("api_key", "OPENAI_API_KEY"), ("base_url", "OPENAI_BASE_URL"))
            if (value := os.environ.get(variable, "").strip())
        }
        return {"models": models} if models else {}


def file_sources(settings_cls: type[BaseSettings]) -> list[PydanticBaseSettingsSource]:
    """The preset, then the settings file, each only while `reading_preset`/`reading_config_file` names one."""
    sources: list[PydanticBaseSettingsSource] = []
    preset = _PRESET_FILE.get()
    if preset is not None:
        sources.append(TomlConfigSettingsSource(settings_cls, toml_file=preset))
    config_file = _CONFIG_FILE.get()
    if config_file is not None:
        sources.append(TomlConfigSettingsSource(settings_cls, toml_file=config_file))
    return sources


@contextmanager
def reading_preset(path: Path | None) -> Iterator[None]:
    """Settings built inside this block read the preset file `path` (None: no preset)."""
    token = _PRESET_FILE.set(path)
    try:
        yield
    finally:
        _PRESET_FILE.reset(token)


@contextmanager
def reading_config_file(path: Path | None) -> Iterator[None]:
    """Settings built inside this block read the settings file `path` (None: no settings file)."""
    token = _CONFIG_FILE.set(path)
    try:
        yield
    finally:
        _CONFIG_FILE.reset(token)
