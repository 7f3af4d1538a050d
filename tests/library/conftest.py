"""Fixtures of the library tests: a clean home (config, data and cache directories of its own) and small sites."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from small_site import Paper, SmallSite

#: Settings every watch in these tests uses: no politeness delay (the sites are ours), a reranker that needs no
#: download, fast model retries.
FAST_ENV = {
    "RESEARCH_CRAWLER_FETCH__PER_HOST_DELAY_S": "0",
    "RESEARCH_CRAWLER_RERANK__KIND": "bm25",
    "RESEARCH_CRAWLER_MODELS__BACKOFF_BASE_S": "0.01",
    "RESEARCH_CRAWLER_MODELS__BACKOFF_MAX_S": "0.02",
}

GNN_PAPERS = [
    Paper(n, title, (f"Ada Author{n}", "Bob Coauthor"), f"2025-0{n}-01", f"10.5555/gnn.{n}")
    for n, title in enumerate(
        [
            "Graph neural networks for molecule property prediction",
            "Scalable graph neural networks on large citation graphs",
            "Message passing graph neural networks for traffic forecasting",
        ],
        1,
    )
]


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An empty working directory with its own config, data (the library) and cache (the revisit cache)
    directories, no model endpoint, fast settings."""
    work = tmp_path / "work"
    work.mkdir()
    monkeypatch.chdir(work)
    for name in list(os.environ):
        if name.startswith(("RESEARCH_CRAWLER_", "OPENAI_")):
            monkeypatch.delenv(name)
    for name, value in {
        **FAST_ENV,
        "HOME": str(tmp_path / "home"),
        "XDG_CONFIG_HOME": str(tmp_path / "config"),
        "XDG_DATA_HOME": str(tmp_path / "data"),
        "XDG_CACHE_HOME": str(tmp_path / "cache"),
        "RESEARCH_CRAWLER_RUNS_DIR": str(tmp_path / "runs"),
        "COLUMNS": "200",  # tables on one line each
    }.items():
        monkeypatch.setenv(name, value)
    return work


def _serve(title: str, papers: list[Paper]) -> Iterator[SmallSite]:
    site = SmallSite(title, papers).start()
    try:
        yield site
    finally:
        site.stop()


@pytest.fixture
def gnn_site() -> Iterator[SmallSite]:
    """A small site listing three papers on graph neural networks."""
    yield from _serve("Graph Learning Preprints", list(GNN_PAPERS))


@pytest.fixture
def mirror_site() -> Iterator[SmallSite]:
    """Another site holding the first paper of `gnn_site` (same DOI, title and authors) under its own URL."""
    yield from _serve("Graph Learning Mirror", [GNN_PAPERS[0]])
