"""The settings a run was made with, as its run directory records them (secrets left out), and the settings a
`resume` continues it with: the recorded ones, with today's secrets and the overrides given explicitly.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any
from urllib.parse import urlsplit, urlunsplit

from pydantic import SecretStr, ValidationError

from research_crawler.config.overrides import apply_overrides
from research_crawler.config.settings import Settings
from research_crawler.errors import ConfigError

__all__ = ["MASK", "record_settings", "restore_settings", "url_without_credentials"]

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


def restore_settings(recorded: Mapping[str, Any], *, current: Settings, overrides: Mapping[str, Any]) -> Settings:
    """The recorded settings with `current`'s secrets (and its endpoint when the recorded one was masked), then
    `overrides` (dotted names: ``--set`` and the command's flags). ConfigError when the record does not load."""
    data = {section: dict(values) if isinstance(values, Mapping) else values for section, values in recorded.items()}
    for section, name in _secret_fields(current):
        if isinstance(data.get(section), dict) and data[section].get(name) == MASK:
            value = getattr(getattr(current, section), name)
            data[section][name] = value.get_secret_value() if isinstance(value, SecretStr) else value
    for section, values in data.items():  # a URL recorded with its credentials masked: today's one
        if isinstance(values, dict):
            for name, value in values.items():
                if isinstance(value, str) and "://" in value and MASK in value:
                    values[name] = getattr(getattr(current, section, None), name, None)
    try:
        restored = Settings.model_validate(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(part) for part in first["loc"])
        raise ConfigError(f"the run's recorded settings do not load ({where}: {first['msg']})") from exc
    return apply_overrides(restored, overrides)
