"""A run directory records the settings in force (secrets masked) and `resume` continues with what it may restore
(tests/security/test_run_directories.py: never a program, an endpoint or the URL guard); settings given explicitly to
`resume` override them."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from pydantic import SecretStr

from research_crawler.api import ResearchCrawler
from research_crawler.config.recorded import MASK, record_settings, restore_settings
from research_crawler.config.settings import Settings
from research_crawler.errors import ConfigError
from research_crawler.eval.testbed import TestbedServer
from research_crawler.eval.testbed.models import Testbed
from research_crawler.run.trace import read_trace


def stopped_run(tmp_path: Path, testbed: Testbed, server: TestbedServer) -> tuple[Path, Settings]:
    """A simulated run with bm25 and 3 subpages, stopped by the user after its first page."""
    settings = Settings(runs_dir=tmp_path / "runs")
    settings.fetch.allowed_hosts = server.allowed_hosts()
    settings.fetch.per_host_delay_s = 0.0
    settings.rerank.kind = "bm25"
    settings.explore.max_subpages = 3
    settings.explore.max_subpages_earned = 3  # a fixed budget: the resumed run must keep it too
    crawler = ResearchCrawler(settings, backend="simulated")

    def stop_after_first_page(event: dict[str, Any]) -> None:
        if event["event"] == "scrape":
            crawler.cancel()

    crawler.on_event = stop_after_first_page
    report = crawler.run(testbed.queries_for("arxiv-like")[0].text, sites=[server.base_url("arxiv-like")])
    assert report.stop_reason == "interrupted"
    return Path(report.run_dir or ""), settings


def test_resume_continues_with_the_recorded_settings(
    tmp_path: Path, testbed: Testbed, testbed_server: TestbedServer
) -> None:
    run_dir, _ = stopped_run(tmp_path, testbed, testbed_server)
    recorded = json.loads((run_dir / "run.json").read_text())["settings"]
    assert recorded["rerank"]["kind"] == "bm25" and recorded["explore"]["max_subpages"] == 3
    assert recorded["explore"]["max_subpages_earned"] == 3
    fresh = Settings(runs_dir=tmp_path / "runs")  # bge (whose weights are not on this machine) and 5 subpages
    fresh.fetch.allowed_hosts = testbed_server.allowed_hosts()  # the user's own guard, never the run's
    fresh.fetch.per_host_delay_s = 0.0
    with pytest.raises(ConfigError, match="bge"):  # had resume used these settings, it would stop here
        ResearchCrawler(fresh, backend="simulated").resume(run_dir, overrides={"rerank.kind": "bge"})
    report = ResearchCrawler(fresh, backend="simulated").resume(run_dir)
    assert report.stop_reason != "interrupted" and report.markdown
    assert report.sites[0].pages_visited <= 3
    scrapes = [e for e in read_trace(run_dir / "trace.jsonl") if e["event"] == "scrape"]
    assert len(scrapes) == report.sites[0].pages_visited


def test_settings_given_to_resume_override_the_recorded_ones(
    tmp_path: Path, testbed: Testbed, testbed_server: TestbedServer
) -> None:
    run_dir, _ = stopped_run(tmp_path, testbed, testbed_server)
    mine = Settings(runs_dir=tmp_path / "runs")
    mine.fetch.allowed_hosts = testbed_server.allowed_hosts()
    report = ResearchCrawler(mine, backend="simulated").resume(run_dir, overrides={"explore.max_subpages": 1})
    assert report.sites[0].pages_visited == 1


def test_secrets_are_never_recorded_and_come_back_from_the_present() -> None:
    settings = Settings()
    settings.models.api_key = SecretStr("sk-canary-123456")
    settings.models.base_url = "https://user:pass@llm.example.org/v1"
    recorded = record_settings(settings)
    text = json.dumps(recorded)
    assert "sk-canary" not in text and "pass@" not in text and recorded["models"]["api_key"] == MASK
    now = Settings()
    now.models.api_key = SecretStr("sk-today-654321")
    now.models.base_url = "https://user:pass2@llm.example.org/v1"
    restored = restore_settings(recorded, current=now, overrides={"explore.max_subpages": 9}).settings
    assert restored.models.api_key is not None and restored.models.api_key.get_secret_value() == "sk-today-654321"
    assert restored.models.base_url == now.models.base_url and restored.explore.max_subpages == 9
