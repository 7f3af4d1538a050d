"""The command line, the Python API, batch, chat and notebooks, run against the testbed with the simulated model."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from cli_helpers import FAST_ENV, allow

from research_crawler.config.settings import Settings
from research_crawler.eval.testbed import TestbedServer


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, testbed_server: TestbedServer) -> Path:
    """A clean place to run from: empty working directory and config directory, no model endpoint, fast settings,
    the testbed's ports allowed past the URL guard."""
    work = tmp_path / "work"
    work.mkdir()
    monkeypatch.chdir(work)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    for name in list(os.environ):
        if name.startswith(("RESEARCH_CRAWLER_", "OPENAI_")):
            monkeypatch.delenv(name)
    for name, value in {**FAST_ENV, **allow(testbed_server)}.items():
        monkeypatch.setenv(name, value)
    monkeypatch.setenv("RESEARCH_CRAWLER_RUNS_DIR", str(tmp_path / "runs"))
    return work


@pytest.fixture
def settings(home: Path) -> Settings:
    return Settings.load()
