"""Helpers of the CLI tests: the environment of child processes and the files a run writes."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from research_crawler.eval.testbed import TestbedServer

REPO = Path(__file__).resolve().parents[2]
PYTHON = sys.executable

#: Settings every run in these tests uses: no politeness delay (the testbed is ours), a reranker that needs
#: no download, fast model retries.
FAST_ENV = {
    "RESEARCH_CRAWLER_FETCH__PER_HOST_DELAY_S": "0",
    "RESEARCH_CRAWLER_RERANK__KIND": "bm25",
    "RESEARCH_CRAWLER_MODELS__BACKOFF_BASE_S": "0.01",
    "RESEARCH_CRAWLER_MODELS__BACKOFF_MAX_S": "0.02",
}

#: The files every finished run directory holds.
RUN_FILES = ("report.md", "report.json", "trace.jsonl", "state.json", "graph.json", "graph.graphml", "run.json")


def allow(server: TestbedServer) -> dict[str, str]:
    """The variable that lets the URL guard fetch the testbed's loopback ports (it refuses loopback otherwise)."""
    return {"RESEARCH_CRAWLER_FETCH__ALLOWED_HOSTS": json.dumps(server.allowed_hosts())}


def subprocess_env(tmp_path: Path, **extra: str) -> dict[str, str]:
    """The environment of a `python -m research_crawler` child: like `home`, for a separate process."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("RESEARCH_CRAWLER_", "OPENAI_"))}
    env.update(FAST_ENV)
    env.update(
        {
            "XDG_CONFIG_HOME": str(tmp_path / "config"),
            "HOME": str(tmp_path / "home"),
            "RESEARCH_CRAWLER_RUNS_DIR": str(tmp_path / "runs"),
            "PYTHONPATH": str(REPO),
            "COLUMNS": "120",
        }
    )
    env.update(extra)
    return env



#: How the command is started: as installed with every extra, or as a core install (the extras' packages hidden).
INSTALLED = (PYTHON, "-m", "research_crawler")
CORE_INSTALL = (PYTHON, str(Path(__file__).with_name("core_install.py")))


def run_cli(
    tmp_path: Path, *arguments: str, launcher: tuple[str, ...] = INSTALLED, **env: str
) -> subprocess.CompletedProcess[str]:
    """`research-crawler ARGUMENTS` in a child process, offline, in tmp_path, its output captured."""
    return subprocess.run(
        [*launcher, *arguments],
        cwd=tmp_path,
        env=subprocess_env(tmp_path, **env),
        capture_output=True,
        text=True,
        timeout=120,
        stdin=subprocess.DEVNULL,
    )
