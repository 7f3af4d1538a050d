"""The live suite: the real prompts and tools against a real OpenAI-compatible endpoint. Opt-in, never in CI:
set RESEARCH_CRAWLER_LIVE=1 and OPENAI_BASE_URL (and OPENAI_API_KEY when the endpoint wants one); the model
is RESEARCH_CRAWLER_LIVE_MODEL (default gpt-4o-mini). README "With a local model" has a recipe."""

from __future__ import annotations

import os

import pytest

LIVE = os.environ.get("RESEARCH_CRAWLER_LIVE") == "1"


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if item.get_closest_marker("live") is not None and not LIVE:
            item.add_marker(pytest.mark.skip(reason="live test: set RESEARCH_CRAWLER_LIVE=1 and OPENAI_BASE_URL"))


@pytest.fixture
def live_model() -> str:
    if not os.environ.get("OPENAI_BASE_URL") and not os.environ.get("OPENAI_API_KEY"):
        pytest.fail("RESEARCH_CRAWLER_LIVE=1 needs OPENAI_BASE_URL (or OPENAI_API_KEY for OpenAI itself)")
    return os.environ.get("RESEARCH_CRAWLER_LIVE_MODEL", "gpt-4o-mini")
