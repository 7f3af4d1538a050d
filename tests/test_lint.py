"""ruff and mypy stay clean: the same checks as `make lint`, run by the test suite so CI enforces them."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent


def _run(*command: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(command, cwd=REPO, capture_output=True, text=True, timeout=600, check=False)


def test_ruff_is_clean() -> None:
    done = _run(str(BIN / "ruff"), "check", "research_crawler", "tests", "benchmarks")
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]


def test_mypy_is_clean() -> None:
    done = _run(str(BIN / "mypy"))
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
