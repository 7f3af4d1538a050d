"""Tokens and cost in the report: cached input counted, and for a simulated run what the configured models would
have cost at list prices, with the prices used — in report.json, report.md and the progress line."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from research_crawler.agents.roles import Role
from research_crawler.config.model_prices import list_prices
from research_crawler.config.settings import Settings
from research_crawler.eval.testbed import TestbedServer
from research_crawler.eval.testbed.models import Testbed
from research_crawler.report.models import Report
from research_crawler.run.progress import RunProgress
from research_crawler.run.session import ResearchSession
from research_crawler.run.trace import read_trace


def _run(
    server: TestbedServer,
    testbed: Testbed,
    tmp_path: Path,
    preset: str = "default",
    subpages: int = 5,
    enough_items: int = 5,
    **models: Any,
) -> Report:
    query = testbed.query("arxiv-like/general/diffusion")
    settings = Settings.from_preset(
        preset,
        runs_dir=tmp_path / preset,
        fetch={"allowed_hosts": server.allowed_hosts(), "per_host_delay_s": 0.0},
        rerank={"kind": "bm25"},
        explore={"max_subpages": subpages},
        simulated={"enough_items": enough_items},
        models=models,
    )
    return ResearchSession(settings, backend="simulated").run(query.text, sites=[server.base_url(query.site)])


def test_a_simulated_run_says_what_the_configured_models_would_cost(
    testbed: Testbed, testbed_server: TestbedServer, tmp_path: Path
) -> None:
    report = _run(testbed_server, testbed, tmp_path)
    stats = report.stats
    assert stats.cost_usd == 0.0, "nobody pays for the simulated model"
    prices = list_prices()
    assert set(stats.list_prices) == {"gpt-4.1-mini", "gpt-4o-mini"}, "the default models"
    assert stats.list_prices["gpt-4.1-mini"] == prices["gpt-4.1-mini"]
    expected = 0.0
    roles = {role.agent_name: role for role in Role}
    for agent, usage in stats.by_agent.items():
        model = "gpt-4o-mini" if roles[agent] in (Role.CRAWLER, Role.PRESENTER) else "gpt-4.1-mini"
        fresh = usage.input_tokens - usage.cached_input_tokens
        cost = (
            fresh * prices[model].input
            + usage.cached_input_tokens * prices[model].cached_input_price
            + usage.output_tokens * prices[model].output
        ) / 1e6
        assert usage.list_price_cost_usd == pytest.approx(cost, abs=1e-6), agent
        expected += cost
    assert stats.list_price_cost_usd == pytest.approx(expected, abs=1e-5) and expected > 0
    text = (Path(report.run_dir or "") / "report.md").read_text(encoding="utf-8")
    assert f"it would cost about ${stats.list_price_cost_usd:.4f}" in text
    assert "gpt-4.1-mini: $0.40 in, $0.10 cached, $1.60 out per 1M tokens" in text
    events = read_trace(Path(report.run_dir or "") / "trace.jsonl")
    progress = RunProgress(subpage_limit=5)
    for event in events:
        progress.apply(event)
    assert progress.list_cost_usd == pytest.approx(stats.list_price_cost_usd, abs=1e-5)
    assert progress.cost_text == f"≈${progress.list_cost_usd:.4f} at list prices"


def test_the_configured_models_set_the_price(testbed: Testbed, testbed_server: TestbedServer, tmp_path: Path) -> None:
    report = _run(testbed_server, testbed, tmp_path, strong_model="gpt-4.1", cheap_model="my-local-model")
    assert set(report.stats.list_prices) == {"gpt-4.1"}, "a model with no list price is not priced"
    assert report.stats.by_agent["Crawler"].list_price_cost_usd == 0.0
    assert report.stats.by_agent["Planner"].list_price_cost_usd > 0


def test_the_paper_presets_growing_planner_prompt_is_partly_served_from_the_cache(
    testbed: Testbed, testbed_server: TestbedServer, tmp_path: Path
) -> None:
    # The Planner's prompt passes the 1 024 tokens a prompt cache needs after a few pages (the paper's models).
    report = _run(
        testbed_server, testbed, tmp_path, preset="paper", subpages=10, enough_items=50, strong_model="gpt-4o"
    )
    planner = report.stats.by_agent["Planner"]
    assert 0 < planner.cached_input_tokens < planner.input_tokens
    assert report.stats.cached_input_tokens == sum(a.cached_input_tokens for a in report.stats.by_agent.values())
    uncached = sum(
        a.input_tokens * list_prices()["gpt-4o"].input / 1e6 for n, a in report.stats.by_agent.items() if n == "Planner"
    )
    assert planner.list_price_cost_usd < uncached + planner.output_tokens * 10 / 1e6
