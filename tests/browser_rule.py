"""Whether a browser-marked test runs, skips or fails: never a silent skip under ``CI=true``."""

from __future__ import annotations

import os
from typing import Literal

from research_crawler.errors import BrowserError
from research_crawler.web.browser import find_chromium

__all__ = ["BrowserGate", "browser_gate", "chromium_found"]

BrowserGate = Literal["run", "skip", "fail"]


def browser_gate(*, chromium_found: bool, ci: str | None) -> BrowserGate:
    """Run with Chromium; without it, skip on a developer's machine and fail when CI is set to true."""
    if chromium_found:
        return "run"
    return "fail" if (ci or "").strip().lower() in ("true", "1", "yes") else "skip"


def chromium_found() -> bool:
    """True when the Chromium the fetcher would use can be found (RESEARCH_CRAWLER_FETCH__CHROMIUM_PATH or PATH)."""
    try:
        find_chromium(os.environ.get("RESEARCH_CRAWLER_FETCH__CHROMIUM_PATH") or None)
    except BrowserError:
        return False
    return True
