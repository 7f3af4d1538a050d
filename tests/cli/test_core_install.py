"""A core install (`pip install research-crawler`, no extra) runs `ask`; `serve` and `eval` without their extra say
which one to install, in one line. The extras' packages are hidden in a child process (core_install.py)."""

from __future__ import annotations

import json
import pkgutil
import subprocess
from pathlib import Path

import pytest
from cli_helpers import PYTHON, RUN_FILES, allow, subprocess_env

import research_crawler
from research_crawler.errors import MissingExtraError, extra_needed
from research_crawler.eval.testbed import TestbedServer
from research_crawler.eval.testbed.models import Testbed
from research_crawler.report.models import Report

CORE_INSTALL = str(Path(__file__).with_name("core_install.py"))

#: The modules that need an extra: the web app (serve/) and LangSmith's side of the evaluation.
NEED_AN_EXTRA = ("research_crawler.serve.", "research_crawler.eval.runner", "research_crawler.eval.langsmith_client",
                 "research_crawler.eval.evaluation_calls")


def _core(tmp_path: Path, *arguments: str, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [PYTHON, CORE_INSTALL, *arguments],
        cwd=tmp_path,
        env=subprocess_env(tmp_path, **env),
        capture_output=True,
        text=True,
        timeout=180,
        stdin=subprocess.DEVNULL,
    )


def test_ask_runs_on_a_core_install(tmp_path: Path, testbed: Testbed, testbed_server: TestbedServer) -> None:
    out = tmp_path / "run"
    done = _core(
        tmp_path, "ask", testbed.queries_for("arxiv-like")[0].text, "--site", testbed_server.base_url("arxiv-like"),
        "--model", "simulated", "--json", "--out", str(out), **allow(testbed_server),
    )
    assert done.returncode == 0, done.stderr[-3000:]
    report = Report.model_validate(json.loads(done.stdout))
    assert report.simulated_model and report.items and report.run_dir == str(out)
    assert all(item.url.startswith(testbed_server.base_url("arxiv-like")) for item in report.items)
    assert all((out / name).exists() for name in RUN_FILES)


def test_serve_and_eval_name_their_extra_in_one_line(tmp_path: Path) -> None:
    serve = _core(tmp_path, "serve", "--model", "simulated")
    assert serve.returncode == 1 and serve.stdout == ""
    assert serve.stderr.splitlines() == [
        "error: the web app needs the serve extra (uvicorn is not installed): pip install 'research-crawler[serve]'"
    ]
    evaluate = _core(tmp_path, "eval", "testbed", "--model", "simulated", "--judge-model", "simulated")
    assert evaluate.returncode == 1 and evaluate.stdout == ""
    assert evaluate.stderr.splitlines() == [
        "error: evaluation needs the eval extra (langsmith is not installed): pip install 'research-crawler[eval]'"
    ]
    assert not (tmp_path / "runs").exists(), "a command that cannot run wrote a run directory"


def test_every_module_but_the_extras_imports_on_a_core_install(tmp_path: Path) -> None:
    names = [
        module.name for module in pkgutil.walk_packages(research_crawler.__path__, "research_crawler.")
        if not module.name.endswith("__main__") and not module.name.startswith(NEED_AN_EXTRA)
    ]
    assert "research_crawler.cli.serve_command" in names and "research_crawler.api" in names
    done = _core(tmp_path, "--import", *names)
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stdout.strip() == str(len(names))


def test_the_modules_that_need_an_extra_fail_without_it(tmp_path: Path) -> None:
    # The hiding is real: what serve/ and the LangSmith runner import is missing in the child.
    done = _core(tmp_path, "--import", "research_crawler.serve.app")
    assert done.returncode == 1 and "ModuleNotFoundError: No module named" in done.stderr


def test_an_import_error_of_our_own_is_not_called_a_missing_extra() -> None:
    missing = r"^x needs the serve extra \(fastapi is not installed\): pip install 'research-crawler\[serve\]'$"
    with pytest.raises(MissingExtraError, match=missing), extra_needed("serve", "x"):
        raise ModuleNotFoundError("No module named 'fastapi.responses'", name="fastapi.responses")
    for ours in (ImportError("cannot import name 'nothing'", name="research_crawler.serve.app"), ImportError("?")):
        with pytest.raises(ImportError) as raised, extra_needed("serve", "x"):
            raise ours
        assert raised.value is ours
