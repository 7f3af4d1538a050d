"""Whole queries on the testbed web with the simulated model."""

from __future__ import annotations

from pathlib import Path

import pytest

from research_crawler.config.settings import Settings
from research_crawler.eval.testbed import TestbedServer


@pytest.fixture
def settings(tmp_path: Path, testbed_server: TestbedServer) -> Settings:
    settings = Settings(runs_dir=tmp_path / "runs")
    settings.fetch.allowed_hosts = testbed_server.allowed_hosts()  # the URL guard refuses loopback otherwise
    settings.fetch.per_host_delay_s = 0.0
    settings.models.backoff_base_s = 0.01
    settings.models.backoff_max_s = 0.02
    settings.rerank.kind = "bm25"  # bge weights cannot be downloaded here; the reranker tests cover bge/minilm
    return settings
