"""The base model of every section of `Settings` (fetch, models, run…).

A section refuses unknown keys and validates each assignment, so a typo in a settings file or a flag is an error.
A list setting also takes one string of comma-separated values (``--set fetch.allowed_hosts=a:80,b``).
"""

from __future__ import annotations

import json
import typing
from typing import Any

from pydantic import BaseModel, ConfigDict, model_validator

__all__ = ["SettingsSection", "split_list"]


def split_list(value: str) -> list[str]:
    """A list setting given as one string: a JSON list, or values separated by commas."""
    text = value.strip()
    if text.startswith("["):
        try:
            decoded = json.loads(text)
        except json.JSONDecodeError:
            pass
        else:
            if isinstance(decoded, list):
                return [str(entry) for entry in decoded]
    return [part.strip() for part in text.split(",") if part.strip()]


class SettingsSection(BaseModel):
    model_config = ConfigDict(extra="forbid", validate_assignment=True)

    @model_validator(mode="before")
    @classmethod
    def _lists_from_strings(cls, data: Any) -> Any:
        if not isinstance(data, dict):
            return data
        fixed = dict(data)
        for name, field in cls.model_fields.items():
            value = fixed.get(name)
            if isinstance(value, str) and typing.get_origin(field.annotation) is list:
                fixed[name] = split_list(value)
        return fixed
