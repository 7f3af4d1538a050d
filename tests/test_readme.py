"""The README's two commands stay true: the set-up + main job runs verbatim, and CI runs the test command."""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def readme_commands() -> list[str]:
    """The commands of the README's Quick start, in order (one per fenced block)."""
    text = (REPO / "README.md").read_text(encoding="utf-8")
    quick_start = text.split("## Quick start", 1)[1].split("\n## ", 1)[0]
    return [block.strip() for block in re.findall(r"```bash\n(.*?)```", quick_start, re.DOTALL)]


def test_the_readme_has_two_commands() -> None:
    commands = readme_commands()
    assert len(commands) == 2, commands
    assert all("\n" not in command for command in commands), "each is one line a newcomer pastes"


def test_ci_runs_the_readme_test_command_verbatim() -> None:
    ci = (REPO / ".ci" / "run").read_text(encoding="utf-8")
    test_command = readme_commands()[1]
    assert re.search(rf"^{re.escape(test_command)}$", ci, re.MULTILINE), f"{test_command!r} not run by .ci/run"


def test_the_main_job_runs_verbatim_offline(tmp_path: Path) -> None:
    command = readme_commands()[0]
    env = {**os.environ, "RESEARCH_CRAWLER_RUNS_DIR": str(tmp_path / "runs")}
    env.pop("OPENAI_API_KEY", None)
    done = subprocess.run(
        command, shell=True, cwd=REPO, env=env, capture_output=True, text=True, timeout=900, check=False
    )
    output = done.stdout + done.stderr
    assert done.returncode == 0, output[-3000:]
    assert "simulated" in output.lower(), "the demo must say plainly that the model was simulated"
    reports = list((tmp_path / "runs").glob("*/report.md"))
    assert reports, f"the main job wrote no report under {tmp_path / 'runs'}: {output[-2000:]}"
