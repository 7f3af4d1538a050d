"""The base model of every section of `Settings` (fetch, models, run…).

A section refuses unknown keys, infinite and not-a-number values, and validates each assignment, so a typo in a
settings file or a flag is an error.
A list setting also takes one string of comma-separated values (``--set fetch.allowed_hosts=a:80,b``).
"""

from __future__ import annotations

import json
import typing
from typing import Any

from pydantic import BaseModel, ConfigDict, field_validator, model_validator

__all__ = ["MAX_FLOAT_SETTING", "MAX_INT_SETTING", "SettingsSection", "split_list"]

#: The largest number a float setting takes: a billion seconds (31 years) or dollars; more overflows clocks.
MAX_FLOAT_SETTING = 1e9
#: The largest whole-number setting (bytes, tokens, counts).
MAX_INT_SETTING = 10**12


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
    # inf and nan are no amount of seconds, bytes or dollars: refused where they are given, not mid-run.
    model_config = ConfigDict(extra="forbid", validate_assignment=True, allow_inf_nan=False)

    @field_validator("*", mode="after")
    @classmethod
    def _within_bounds(cls, value: Any) -> Any:
        """A number no setting can mean (1e300 seconds) is refused here rather than overflowing a clock mid-run."""
        if isinstance(value, float) and abs(value) > MAX_FLOAT_SETTING:
            raise ValueError(f"must be at most {MAX_FLOAT_SETTING:g}")
        if isinstance(value, int) and not isinstance(value, bool) and abs(value) > MAX_INT_SETTING:
            raise ValueError(f"must be at most {MAX_INT_SETTING:,}")
        return value

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
