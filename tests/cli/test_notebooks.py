"""The notebooks execute top to bottom (offline, with the simulated model) so they cannot rot."""

from __future__ import annotations

import os
from pathlib import Path

import nbformat
import pytest
from cli_helpers import FAST_ENV, REPO
from nbclient import NotebookClient

NOTEBOOKS = REPO / "notebooks"


def _execute(name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> nbformat.NotebookNode:
    for variable in list(os.environ):
        if variable.startswith(("OPENAI_", "RESEARCH_CRAWLER_")):
            monkeypatch.delenv(variable)  # the quickstart's real-endpoint cell must skip itself
    for variable, value in FAST_ENV.items():
        monkeypatch.setenv(variable, value)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.setenv("MPLBACKEND", "module://matplotlib_inline.backend_inline")
    monkeypatch.setenv("PYTHONPATH", str(REPO))  # the kernel imports this checkout, whatever was installed
    notebook = nbformat.read(NOTEBOOKS / name, as_version=4)
    resources = {"metadata": {"path": str(tmp_path)}}
    client = NotebookClient(notebook, timeout=180, kernel_name="python3", resources=resources)
    client.execute()
    return notebook


def _text(notebook: nbformat.NotebookNode) -> str:
    parts = []
    for cell in notebook.cells:
        for output in cell.get("outputs", []):
            parts.append(output.get("text", ""))
            parts.append(output.get("data", {}).get("text/plain", ""))
            parts.append(output.get("data", {}).get("text/markdown", ""))
    return "\n".join(parts)


def test_the_quickstart_runs_offline_and_skips_the_real_endpoint(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    notebook = _execute("quickstart.ipynb", tmp_path, monkeypatch)
    text = _text(notebook)
    assert "simulated model: True" in text
    assert "are known answers" in text and "fetched http://127.0.0.1:" in text
    assert "Skipped: set OPENAI_API_KEY" in text
    assert "1. " in text and "found on http://127.0.0.1:" in text


def test_inspect_a_run_plots_the_graph_and_the_tokens(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    notebook = _execute("inspect_a_run.ipynb", tmp_path, monkeypatch)
    images = [o for cell in notebook.cells for o in cell.get("outputs", []) if "image/png" in o.get("data", {})]
    assert len(images) == 2, "the navigation graph and the tokens by agent should both be drawn"
    text = _text(notebook)
    assert "simulated model: True" in text and "pages visited of" not in text  # the title is in the image
    assert "calls" in text and "found on" in text


def test_notebooks_are_committed_without_outputs() -> None:
    for path in NOTEBOOKS.glob("*.ipynb"):
        notebook = nbformat.read(path, as_version=4)
        nbformat.validate(notebook)
        assert all(not cell.get("outputs") for cell in notebook.cells if cell.cell_type == "code"), path.name
