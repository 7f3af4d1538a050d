"""`research-crawler serve` as a user starts it: it prints the address it bound and answers there; another address
than loopback without a token is refused in one line saying how to give one."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import httpx
from typer.testing import CliRunner

from research_crawler.cli.app import app

REPO = Path(__file__).resolve().parents[2]


def _env(tmp_path: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("RESEARCH_CRAWLER_", "OPENAI_"))}
    env.update(
        {
            "XDG_CONFIG_HOME": str(tmp_path / "config"),
            "HOME": str(tmp_path / "home"),
            "RESEARCH_CRAWLER_RUNS_DIR": str(tmp_path / "runs"),
            "PYTHONPATH": str(REPO),
            "COLUMNS": "200",
        }
    )
    return env


def test_binding_another_address_needs_a_token(tmp_path: Path) -> None:
    result = CliRunner().invoke(
        app, ["serve", "--host", "0.0.0.0", "--model", "simulated", "--reranker", "bm25"], env=_env(tmp_path)
    )
    assert result.exit_code == 2
    message = " ".join(result.output.split())
    assert "binding 0.0.0.0" in message and "--token" in message
    assert len(result.output.strip().splitlines()) <= 2, "one line (wrapped at most once by the terminal)"


def test_serve_prints_its_address_and_answers_there(tmp_path: Path) -> None:
    command = [sys.executable, "-m", "research_crawler", "serve", "--port", "0", "--model", "simulated",
               "--reranker", "bm25", "--token", "t0ken"]
    process = subprocess.Popen(
        command, cwd=tmp_path, env=_env(tmp_path), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    try:
        assert process.stdout is not None
        first = process.stdout.readline().strip()
        assert first.startswith("research-crawler serve: http://127.0.0.1:"), first
        url = first.split()[2]
        assert url.endswith("/?token=t0ken")
        with httpx.Client(follow_redirects=True) as client:
            page = client.get(url)
            assert page.status_code == 200 and "Ask a research question" in page.text
            assert "simulated model" in page.text
            assert httpx.get(url.split("?")[0]).status_code == 401, "without the token: refused"
    finally:
        process.send_signal(signal.SIGINT)
        try:
            process.wait(timeout=20)
        finally:
            if process.poll() is None:
                process.kill()
    assert process.returncode in (0, 130, -signal.SIGINT), process.stderr.read() if process.stderr else ""
