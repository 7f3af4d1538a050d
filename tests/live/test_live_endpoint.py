"""A real model behind a real endpoint, through every agent's real prompts and tools, with the README recipe's query,
site and settings: whatever it answers, every guard holds (`real_model_run.check_guards`). Every reply is recorded on
the way (`model_transcript.RecordingProxy`); with RESEARCH_CRAWLER_LIVE_RECORD=PATH the transcript is written there,
for the replay that CI runs on every push (tests/e2e/test_real_model_replay.py)."""

from __future__ import annotations

import os
import platform
from collections import Counter
from datetime import UTC, datetime
from pathlib import Path

import pytest
from model_transcript import RecordingProxy, Transcript
from real_model_run import RECIPE_SITE, check_guards, readme_recipe, run_recipe

from research_crawler.eval.testbed import TestbedServer

pytestmark = [pytest.mark.live, pytest.mark.timeout(3600)]  # a small local model on a CPU is slow


def test_the_readme_recipe_ends_with_an_honest_report(
    tmp_path: Path, testbed_server: TestbedServer, live_model: str
) -> None:
    recipe = readme_recipe()
    recipe.model = live_model
    started = datetime.now(UTC)
    upstream = os.environ.get("OPENAI_BASE_URL") or "https://api.openai.com/v1"
    with RecordingProxy(upstream, api_key=os.environ.get("OPENAI_API_KEY")) as proxy:
        report, trace, settings = run_recipe(recipe, base_url=proxy.base_url, server=testbed_server, runs_dir=tmp_path)
    transcript = Transcript(
        recorded_with={
            "model": live_model,
            "endpoint": os.environ.get("RESEARCH_CRAWLER_LIVE_SERVER", "an OpenAI-compatible server"),
            "machine": f"{platform.machine()}, {os.cpu_count()} cores",
            "at": started.isoformat(timespec="seconds"),
            "query": recipe.query,
            "site": RECIPE_SITE,
            "preset": recipe.preset,
            "overrides": recipe.overrides,
            "wall_s": report.stats.wall_time_s,
            "stop_reason": report.stop_reason,
            "sites": [(site.reason, site.detail) for site in report.sites],
        },
        exchanges=proxy.exchanges,
    )
    if target := os.environ.get("RESEARCH_CRAWLER_LIVE_RECORD"):
        transcript.save(Path(target))
    statuses = Counter(exchange.status for exchange in proxy.exchanges)
    assert set(statuses) == {200}, f"the endpoint refused requests: {statuses}"
    check_guards(report, trace, settings)
