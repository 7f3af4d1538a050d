"""The settings a run was made with, as its run directory records them (secrets left out), and the settings a
`resume` continues it with: the recorded ones, with today's secrets and the overrides given explicitly.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any
from urllib.parse import urlsplit, urlunsplit

from pydantic import SecretStr, ValidationError

from research_crawler.config.overrides import apply_overrides
from research_crawler.config.settings import Settings
from research_crawler.errors import ConfigError

__all__ = ["MASK", "record_settings", "restore_settings"]

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


def _without_credentials(url: str | None) -> str | None:
    if not url:
        return url
    parts = urlsplit(url)
    if parts.username is None and parts.password is None:
        return url
    host = parts.hostname or ""
    netloc = f"{MASK}@{host}" + (f":{parts.port}" if parts.port else "")
    return urlunsplit((parts.scheme, netloc, parts.path, parts.query, parts.fragment))


def record_settings(settings: Settings) -> dict[str, Any]:
    """`settings` as run.json keeps them: every value, secrets and credentials in URLs masked."""
    data = settings.model_dump(mode="json")
    for section, name in _secret_fields(settings):
        if data[section].get(name) is not None:
            data[section][name] = MASK
    data["models"]["base_url"] = _without_credentials(settings.models.base_url)
    return data


def restore_settings(recorded: Mapping[str, Any], *, current: Settings, overrides: Mapping[str, Any]) -> Settings:
    """The recorded settings with `current`'s secrets (and its endpoint when the recorded one was masked), then
    `overrides` (dotted names: ``--set`` and the command's flags). ConfigError when the record does not load."""
    data = {section: dict(values) if isinstance(values, Mapping) else values for section, values in recorded.items()}
    for section, name in _secret_fields(current):
        if isinstance(data.get(section), dict) and data[section].get(name) == MASK:
            value = getattr(getattr(current, section), name)
            data[section][name] = value.get_secret_value() if isinstance(value, SecretStr) else value
    models = data.get("models")
    if isinstance(models, dict) and MASK in str(models.get("base_url") or ""):
        models["base_url"] = current.models.base_url
    try:
        restored = Settings.model_validate(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(part) for part in first["loc"])
        raise ConfigError(f"the run's recorded settings do not load ({where}: {first['msg']})") from exc
    return apply_overrides(restored, overrides)
