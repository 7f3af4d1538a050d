"""A core install (`pip install research-crawler`, no extra): every module but the extras' imports, and `serve` and
`eval` say which extra to install, in one line. The extras' packages are hidden in a child process (core_install.py);
that a core install runs `ask` is test_cli_subprocess.py's `test_ask_json_in_a_subprocess[core-install]`."""

from __future__ import annotations

import pkgutil
from pathlib import Path

import pytest
from cli_helpers import CORE_INSTALL, run_cli

import research_crawler
from research_crawler.errors import MissingExtraError, extra_needed

#: The modules that need an extra: the web app (serve/) and LangSmith's side of the evaluation.
NEED_AN_EXTRA = ("research_crawler.serve.", "research_crawler.eval.runner", "research_crawler.eval.langsmith_client",
                 "research_crawler.eval.evaluation_calls")


def test_serve_and_eval_name_their_extra_in_one_line(tmp_path: Path) -> None:
    serve = run_cli(tmp_path, "serve", "--model", "simulated", launcher=CORE_INSTALL)
    assert serve.returncode == 1 and serve.stdout == ""
    assert serve.stderr.splitlines() == [
        "error: the web app needs the serve extra (uvicorn is not installed): pip install 'research-crawler[serve]'"
    ]
    evaluate = run_cli(
        tmp_path, "eval", "testbed", "--model", "simulated", "--judge-model", "simulated", launcher=CORE_INSTALL
    )
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
    done = run_cli(tmp_path, "--import", *names, launcher=CORE_INSTALL)
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stdout.strip() == str(len(names))


def test_the_modules_that_need_an_extra_fail_without_it(tmp_path: Path) -> None:
    # The hiding is real: what serve/ and the LangSmith runner import is missing in the child.
    done = run_cli(tmp_path, "--import", "research_crawler.serve.app", launcher=CORE_INSTALL)
    assert done.returncode == 1 and "ModuleNotFoundError: No module named" in done.stderr


def test_an_import_error_of_our_own_is_not_called_a_missing_extra() -> None:
    missing = r"^x needs the serve extra \(fastapi is not installed\): pip install 'research-crawler\[serve\]'$"
    with pytest.raises(MissingExtraError, match=missing), extra_needed("serve", "x"):
        raise ModuleNotFoundError("No module named 'fastapi.responses'", name="fastapi.responses")
    for ours in (ImportError("cannot import name 'nothing'", name="research_crawler.serve.app"), ImportError("?")):
        with pytest.raises(ImportError) as raised, extra_needed("serve", "x"):
            raise ours
        assert raised.value is ours
