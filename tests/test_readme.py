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


def readme_testbed_lines() -> list[str]:
    """The lines of the README's "Trying it on the testbed" block, in order."""
    text = (REPO / "README.md").read_text(encoding="utf-8")
    section = text.split("## Trying it on the testbed", 1)[1].split("\n## ", 1)[0]
    block = re.findall(r"```\n(.*?)```", section, re.DOTALL)[0]
    return [line for line in block.splitlines() if line.strip()]


def _ports_free(base: int, count: int = 5) -> bool:
    import socket

    for port in range(base, base + count):
        with socket.socket() as probe:
            try:
                probe.bind(("127.0.0.1", port))
            except OSError:
                return False
    return True


def test_trying_it_on_the_testbed_runs_verbatim(tmp_path: Path) -> None:
    """Each line of the section, as a user pastes it: the testbed serves, ask and batch write reports, chat starts
    and leaves. Only the ports change, and only when the README's are taken on this machine."""
    import signal
    import socket
    import time

    lines = readme_testbed_lines()
    assert lines[0].endswith("&") and "--port 18800" in lines[0], lines[0]
    base = next(port for port in (18800, 28800, 38800, 48800) if _ports_free(port))
    lines = [re.sub(r"1880(\d)", lambda m: str(base + int(m.group(1))), line) for line in lines]
    (tmp_path / ".venv").symlink_to(REPO / ".venv")
    env = {**os.environ, "RESEARCH_CRAWLER_RUNS_DIR": str(tmp_path / "runs")}
    env.pop("OPENAI_API_KEY", None)
    server = subprocess.Popen(
        lines[0].rstrip(" &"), shell=True, cwd=tmp_path, env=env, start_new_session=True,
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )
    try:
        deadline = time.monotonic() + 120
        while True:
            try:
                socket.create_connection(("127.0.0.1", base + 4), timeout=1).close()
                break
            except OSError:
                assert server.poll() is None, server.stdout.read() if server.stdout else ""
                assert time.monotonic() < deadline, "the testbed did not start"
                time.sleep(0.5)
        script = "\n".join(["set -e", *lines[1:]])
        done = subprocess.run(
            ["bash", "-c", script], cwd=tmp_path, env=env, input="/quit\n", capture_output=True, text=True,
            timeout=900, check=False,
        )
        output = done.stdout + done.stderr
        assert done.returncode == 0, output[-3000:]
        assert "Traceback" not in output, output[-3000:]
        assert "simulated" in output.lower()
        assert len(list((tmp_path / "runs").glob("*/report.md"))) >= 1, output[-2000:]  # ask
        assert list((tmp_path / "batch-runs").glob("*/report.md")), output[-2000:]  # batch
        summary = (tmp_path / "batch-runs" / "summary.csv").read_text(encoding="utf-8")
        assert "protein design" in summary and ",done," in summary, summary
    finally:
        os.killpg(server.pid, signal.SIGINT)
        try:
            server.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(server.pid, signal.SIGKILL)
