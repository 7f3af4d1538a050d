"""`--out` and run directories through the command line: a run is written only into a new or empty directory, a
run directory is continued only by `resume`, and whatever is refused is one line, exit 1, nothing written there."""

from __future__ import annotations

import os
import stat
import subprocess
import time
from pathlib import Path

import pytest
from cli_helpers import PYTHON, allow, subprocess_env
from typer.testing import CliRunner

from research_crawler.cli.app import app
from research_crawler.eval.testbed import TestbedServer
from research_crawler.report.models import Report
from research_crawler.run.trace import read_trace

runner = CliRunner()


def _ask(site: str, *extra: str) -> list[str]:
    return ["ask", "graph neural networks", "--site", site, "--model", "simulated", "--quiet", *extra]


def _one_line_error(output: str) -> str:
    lines = [line for line in output.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("error:") and "Traceback" not in output, output
    return lines[0]


def _snapshot(directory: Path) -> dict[str, bytes]:
    return {str(path.relative_to(directory)): path.read_bytes() for path in directory.rglob("*") if path.is_file()}


def test_out_into_a_directory_holding_the_users_files_is_refused_and_nothing_is_touched(
    home: Path, testbed_server: TestbedServer
) -> None:
    mine = home / "notes"
    mine.mkdir()
    (mine / "report.md").write_text("my own report, not to be lost\n")
    (mine / "state.json").write_text("{}")
    before = _snapshot(mine)
    result = runner.invoke(app, _ask(testbed_server.base_url("arxiv-like"), "--out", str(mine)))
    assert result.exit_code == 1
    error = _one_line_error(result.output)
    assert "already holds files" in error and f"--out {mine / 'run'}" in error, error
    assert _snapshot(mine) == before


def test_out_at_a_file_is_one_line_and_the_file_is_kept(home: Path, testbed_server: TestbedServer) -> None:
    target = home / "report.txt"
    target.write_text("keep me")
    result = runner.invoke(app, _ask(testbed_server.base_url("arxiv-like"), "--out", str(target)))
    assert result.exit_code == 1
    assert "is a file, not a directory" in _one_line_error(result.output)
    assert target.read_text() == "keep me"


def test_out_at_the_filesystem_root_is_refused(home: Path, testbed_server: TestbedServer) -> None:
    result = runner.invoke(app, _ask(testbed_server.base_url("arxiv-like"), "--out", "/"))
    assert result.exit_code == 1
    assert "already holds files" in _one_line_error(result.output)
    assert not Path("/run.json").exists()


def test_out_under_a_file_or_a_read_only_directory_is_one_line(home: Path, testbed_server: TestbedServer) -> None:
    blocker = home / "blocker"
    blocker.write_text("")
    result = runner.invoke(app, _ask(testbed_server.base_url("arxiv-like"), "--out", str(blocker / "run")))
    assert result.exit_code == 1
    assert f"cannot create --out {blocker / 'run'}" in _one_line_error(result.output)


def test_out_in_a_read_only_directory_is_one_line(
    home: Path, testbed_server: TestbedServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    locked = home / "locked"
    locked.mkdir()
    locked.chmod(stat.S_IRUSR | stat.S_IXUSR)
    if os.geteuid() == 0:  # root writes into read-only directories: the refusal it would get, made by hand
        real_mkdir = Path.mkdir

        def refusing_mkdir(self: Path, *args: object, **kwargs: object) -> None:
            if self.parent == locked:
                raise PermissionError(13, "Permission denied", str(self))
            real_mkdir(self, *args, **kwargs)  # type: ignore[arg-type]

        monkeypatch.setattr(Path, "mkdir", refusing_mkdir)
    try:
        result = runner.invoke(app, _ask(testbed_server.base_url("arxiv-like"), "--out", str(locked / "run")))
    finally:
        locked.chmod(stat.S_IRWXU)
    assert result.exit_code == 1
    assert "permission denied" in _one_line_error(result.output).lower()
    assert not (locked / "run").exists()


def test_a_runs_dir_that_cannot_be_created_is_one_line_naming_the_setting(
    home: Path, testbed_server: TestbedServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    blocker = home / "runs-file"
    blocker.write_text("")
    monkeypatch.setenv("RESEARCH_CRAWLER_RUNS_DIR", str(blocker / "runs"))
    result = runner.invoke(app, _ask(testbed_server.base_url("arxiv-like")))
    assert result.exit_code == 1
    error = _one_line_error(result.output)
    assert "cannot create the runs directory (runs_dir)" in error and "--set runs_dir=" in error, error


def test_out_into_an_empty_directory_is_used(home: Path, testbed_server: TestbedServer) -> None:
    empty = home / "empty"
    empty.mkdir()
    result = runner.invoke(app, _ask(testbed_server.base_url("arxiv-like"), "--out", str(empty)))
    assert result.exit_code == 0, result.output
    assert (empty / "report.md").is_file() and (empty / "run.json").is_file()
    assert not (empty / "run.lock").exists(), "the lock is released with the run"


def test_a_second_resume_on_a_run_directory_in_use_is_refused_naming_the_holder(
    home: Path, tmp_path: Path, testbed_server: TestbedServer
) -> None:
    out = tmp_path / "shared-run"
    first = runner.invoke(app, _ask(testbed_server.base_url("repo-like"), "--out", str(out)))
    assert first.exit_code == 0, first.output
    (out / "report.json").unlink()  # as a run cut short: resume has work to do
    slow = {**allow(testbed_server), "RESEARCH_CRAWLER_SIMULATED__LATENCY_S": "0.5"}
    holder = subprocess.Popen(
        [PYTHON, "-m", "research_crawler", "resume", str(out), "--quiet"],
        cwd=tmp_path,
        env=subprocess_env(tmp_path, **slow),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        stdin=subprocess.DEVNULL,
    )
    try:
        for _ in range(600):  # the holder takes the lock once it has started (imports take a few seconds)
            if (out / "run.lock").exists() or holder.poll() is not None:
                break
            time.sleep(0.05)
        assert holder.poll() is None, holder.stderr.read() if holder.stderr else ""
        trace_before = (out / "trace.jsonl").read_bytes()
        second = runner.invoke(app, ["resume", str(out), "--quiet"])
        assert second.exit_code == 1
        error = _one_line_error(second.output)
        assert f"is in use by process {holder.pid}" in error and f"kill {holder.pid}" in error, error
        again = runner.invoke(app, _ask(testbed_server.base_url("repo-like"), "--out", str(out)))
        assert again.exit_code == 1 and "research-crawler resume" in _one_line_error(again.output)
        assert (out / "trace.jsonl").read_bytes().startswith(trace_before), "the refused runs wrote nothing"
    finally:
        holder.terminate()
        holder.wait(timeout=60)
    events = read_trace(out / "trace.jsonl")
    seqs = [event["seq"] for event in events if "seq" in event]
    assert len(seqs) == len(set(seqs)), "two writers in one trace"


def test_a_lock_left_by_a_killed_process_does_not_block_resume(
    home: Path, tmp_path: Path, testbed_server: TestbedServer
) -> None:
    out = tmp_path / "killed-run"
    first = runner.invoke(app, _ask(testbed_server.base_url("repo-like"), "--out", str(out)))
    assert first.exit_code == 0, first.output
    holder = subprocess.Popen(
        [PYTHON, "-c", f"from filelock import SoftFileLock; held = SoftFileLock({str(out / 'run.lock')!r}); "
         "held.acquire(); import time; time.sleep(600)"],
        stdin=subprocess.DEVNULL,
    )
    for _ in range(600):
        if (out / "run.lock").exists():
            break
        time.sleep(0.05)
    busy = runner.invoke(app, ["resume", str(out), "--quiet"])
    assert busy.exit_code == 1 and f"process {holder.pid}" in busy.output, busy.output
    holder.kill()
    holder.wait(timeout=30)
    assert (out / "run.lock").exists(), "SIGKILL leaves the lock file behind"
    resumed = runner.invoke(app, ["resume", str(out), "--quiet"])
    assert resumed.exit_code == 0, resumed.output
    assert not (out / "run.lock").exists()


@pytest.mark.parametrize(
    ("run_file", "says"),
    [
        (None, "(it holds no run.json): give the directory a run wrote"),
        ("{not json", "(the whole file: Invalid JSON: key must be a string"),
        ('{"query": 5}', "(query: Input should be a valid string)"),
        ('{"query": "q", "backend": "evil", "sites": "x", "queries": 7}', "Input should be"),
    ],
)
def test_resume_of_a_directory_with_no_usable_run_file_is_one_line_with_the_fix(
    home: Path, run_file: str | None, says: str
) -> None:
    copied = home / "copied"
    copied.mkdir()
    if run_file is not None:
        (copied / "run.json").write_text(run_file, encoding="utf-8")
    result = runner.invoke(app, ["resume", str(copied), "--reranker", "bm25"])
    assert result.exit_code == 1
    error = _one_line_error(result.output)
    assert says in error and "For further information" not in error, error
    fix = "research-crawler resume runs/<time>-<request>" if run_file is None else 'research-crawler ask "REQUEST"'
    assert error.endswith(fix) or fix in error, error


def test_a_truncated_state_file_says_how_to_run_again_and_that_works(
    home: Path, tmp_path: Path, testbed_server: TestbedServer
) -> None:
    out = tmp_path / "cut-run"
    first = runner.invoke(app, _ask(testbed_server.base_url("arxiv-like"), "--out", str(out)))
    assert first.exit_code == 0, first.output
    found = [item.url for item in Report.model_validate_json((out / "report.json").read_text(encoding="utf-8")).items]
    assert found, "the first run found nothing: the test proves nothing"
    state = out / "state.json"
    state.write_bytes(state.read_bytes()[:100])  # as a disk that filled up under an older version's write
    result = runner.invoke(app, ["resume", str(out), "--quiet"])
    assert result.exit_code == 1
    error = _one_line_error(result.output)
    fix = f"mv {state} {state}.damaged && research-crawler resume {out}"
    assert "is not valid JSON (truncated or damaged?)" in error and error.endswith(fix), error
    state.rename(f"{state}.damaged")  # the fix, as printed
    again = runner.invoke(app, ["resume", str(out), "--quiet"])
    assert again.exit_code == 0, again.output
    report = Report.model_validate_json((out / "report.json").read_text(encoding="utf-8"))
    assert [item.url for item in report.items] == found and report.stats.pages_fetched == 0


def test_resume_of_a_run_directory_it_may_not_read_says_how_to_make_it_readable(
    home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    copied = home / "theirs"
    copied.mkdir()
    (copied / "run.json").write_text('{"query": "q"}', encoding="utf-8")
    real_read_text = Path.read_text

    def refused(path: Path, *args: object, **kwargs: object) -> str:
        if path.name == "run.json":  # as a directory another user owns, with no read access for us (tests run as root)
            raise PermissionError(13, "Permission denied", str(path))
        return real_read_text(path, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(Path, "read_text", refused)
    result = runner.invoke(app, ["resume", str(copied), "--reranker", "bm25"])
    assert result.exit_code == 1
    error = _one_line_error(result.output)
    assert error.endswith(f"cannot be read (permission denied): make the run directory yours to read and write, "
                          f"chmod -R u+rw {copied}, then resume it again"), error
