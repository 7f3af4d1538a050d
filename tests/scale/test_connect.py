"""Without Ray, `--backend ray` is a one-line error that says how to get it."""

from __future__ import annotations

import os
import socket
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from research_crawler.cli.app import app


def test_backend_ray_without_ray_says_how_to_install_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # as if Ray were not installed
    monkeypatch.delitem(sys.modules, "research_crawler.scale.ray_queries", raising=False)
    monkeypatch.delitem(sys.modules, "research_crawler.scale.ray_politeness", raising=False)
    batch = tmp_path / "q.jsonl"
    batch.write_text('{"query": "Find papers on graph neural networks"}\n', encoding="utf-8")
    result = CliRunner().invoke(
        app,
        [
            "batch",
            str(batch),
            "--out",
            str(tmp_path / "out"),
            "--backend",
            "ray",
            "--model",
            "simulated",
            "--reranker",
            "bm25",
        ],
    )
    assert result.exit_code == 1, result.output
    assert "pip install 'research-crawler[ray]'" in result.output and "Traceback" not in result.output
    assert not (tmp_path / "out").exists() or not list((tmp_path / "out").iterdir())


def test_a_ray_address_where_nothing_listens_is_one_line_at_once(tmp_path: Path) -> None:
    if os.environ.get("CI") != "true":
        pytest.importorskip("ray")
    with socket.socket() as probe:  # a port nothing listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    batch = tmp_path / "q.jsonl"
    batch.write_text('{"query": "Find papers on graph neural networks"}\n', encoding="utf-8")
    result = CliRunner().invoke(
        app, ["batch", str(batch), "--out", str(tmp_path / "out"), "--backend", "ray", "--ray-address",
              f"127.0.0.1:{port}", "--model", "simulated", "--reranker", "bm25"]
    )  # fmt: skip
    assert result.exit_code == 1, result.output
    line = f"error: cannot reach the Ray cluster at 127.0.0.1:{port} (Connection refused); start it there with "
    assert result.output.startswith(line), result.output
    assert f"`ray start --head --port {port}`" in result.output and "Traceback" not in result.output
    assert not (tmp_path / "out").exists()
