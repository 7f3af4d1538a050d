"""notebooks/evaluation.ipynb executes top to bottom on the results of the local evaluation and draws its plots."""

from __future__ import annotations

from pathlib import Path

import nbformat
import pytest
from eval_helpers import LocalEvaluation
from nbclient import NotebookClient

NOTEBOOK = Path(__file__).resolve().parents[2] / "notebooks" / "evaluation.ipynb"


def test_the_evaluation_notebook_plots_an_evaluation(
    local_evaluation: LocalEvaluation, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MPLBACKEND", "module://matplotlib_inline.backend_inline")
    monkeypatch.setenv("PYTHONPATH", str(NOTEBOOK.parents[1]))  # the kernel imports this checkout
    notebook = nbformat.read(NOTEBOOK, as_version=4)
    (parameters,) = [cell for cell in notebook.cells if "parameters" in cell.metadata.get("tags", [])]
    parameters.source = f"from pathlib import Path\n\nresults_dir = Path({str(local_evaluation.out)!r})"
    NotebookClient(
        notebook, timeout=180, kernel_name="python3", resources={"metadata": {"path": str(tmp_path)}}
    ).execute()

    outputs = [output for cell in notebook.cells for output in cell.get("outputs", [])]
    assert not [o for o in outputs if o.get("output_type") == "error"]
    images = [o for o in outputs if "image/png" in o.get("data", {})]
    assert len(images) == 4, "the triad, the ground truth, the verdicts and the tokens should each be drawn"
    text = "\n".join(o.get("text", "") + o.get("data", {}).get("text/markdown", "") for o in outputs)
    result = local_evaluation.result
    assert f"dataset testbed-subset: {len(result.queries)} queries on 2 sites" in text
    assert "| preXiv |" in text and "| LumenLink |" in text and "| **Overall** |" in text
    assert "agents: the simulated model (a test double); judge: simulated judge (simulated-judge)" in text


def test_the_notebook_is_committed_without_outputs() -> None:
    notebook = nbformat.read(NOTEBOOK, as_version=4)
    nbformat.validate(notebook)
    assert all(not cell.get("outputs") for cell in notebook.cells if cell.cell_type == "code")
