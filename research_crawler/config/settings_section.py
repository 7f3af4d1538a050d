"""The base model of every section of `Settings` (fetch, models, run…).

A section refuses unknown keys and validates each assignment, so a typo in a settings file or a flag is an error.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict

__all__ = ["SettingsSection"]


class SettingsSection(BaseModel):
    model_config = ConfigDict(extra="forbid", validate_assignment=True)
