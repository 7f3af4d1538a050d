"""Commands that need no model start without loading one: `--help`, a mistyped flag, `config show`, `library list`,
`page FILE` and `models --help` never import the OpenAI SDK, AG2 or PyTorch (heavy imports happen when a run
begins). What they cost in CPU is a benchmark's figure (benchmarks/startup.py), never a timed test."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

HEAVY = ("openai", "autogen", "torch", "transformers", "sentence_transformers", "fastapi", "langsmith", "datasets")
_PROBE = """
import json, sys
from research_crawler.cli.app import main
sys.argv = ["research-crawler", *json.loads(sys.argv[1])]
try:
    main()
except SystemExit:
    pass
finally:
    print(json.dumps(sorted({name.split(".")[0] for name in sys.modules})), file=sys.stderr)
"""


def loaded_by(arguments: list[str], cwd: Path) -> set[str]:
    result = subprocess.run(
        [sys.executable, "-c", _PROBE, json.dumps(arguments)], cwd=cwd, capture_output=True, text=True, timeout=120
    )
    return set(json.loads(result.stderr.strip().splitlines()[-1]))


@pytest.mark.parametrize(
    "arguments",
    [["--help"], ["ask", "--nope"], ["config", "show"], ["library", "list"], ["models", "--help"], ["ask", "--help"]],
    ids=" ".join,
)
def test_a_command_that_needs_no_model_loads_none(arguments: list[str], tmp_path: Path) -> None:
    loaded = loaded_by(arguments, tmp_path)
    assert "typer" in loaded, "the probe ran the command line"
    assert not loaded & set(HEAVY), sorted(loaded & set(HEAVY))


def test_page_on_a_saved_file_loads_no_model(tmp_path: Path) -> None:
    page = tmp_path / "paper.html"
    page.write_text("<html><head><title>A paper</title></head><body><h1>A paper</h1></body></html>")
    loaded = loaded_by(["page", str(page), "--url", "https://example.org/paper"], tmp_path)
    assert not loaded & set(HEAVY), sorted(loaded & set(HEAVY))
