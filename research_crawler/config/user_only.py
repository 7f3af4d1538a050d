"""The settings only the user chooses — on the command line, in the environment or in a settings file they name or
keep in their config directory — never a file from elsewhere (a batch file's entry, a settings file that merely lies
in the current directory): the program run, a model to load, the endpoints that get a key, what the URL guard allows.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

__all__ = ["USER_ONLY_SETTINGS", "user_only_names"]

#: Dotted names a file from elsewhere may not set, and why (shown to the user).
USER_ONLY_SETTINGS: dict[str, str] = {
    "fetch.chromium_path": "a program to run",
    "fetch.cdp_url": "a browser to drive",
    "fetch.allowed_hosts": "what the URL guard allows",
    "models.base_url": "the endpoint that gets your API key",
    "eval.judge_base_url": "the endpoint that gets the judge's API key",
    "eval.langsmith_endpoint": "the endpoint that gets your LangSmith key",
    "rerank.bge_model": "model weights to load (they may run code)",
    "rerank.minilm_model": "model weights to load (they may run code)",
    "rerank.cache_dir": "where model weights are loaded from (they may run code)",
}


def user_only_names(overrides: Mapping[str, Any]) -> list[str]:
    """The names of `overrides` (dotted, or nested as a TOML table is) that only the user may set, each with why:
    ``name (why)``."""
    names = {key for key, value in overrides.items() if not isinstance(value, Mapping)}
    names |= {f"{key}.{sub}" for key, value in overrides.items() if isinstance(value, Mapping) for sub in value}
    return [f"{name} ({why})" for name, why in USER_ONLY_SETTINGS.items() if name in names]
