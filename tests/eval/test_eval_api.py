"""The public names of research_crawler.eval resolve, and importing the testbed does not pull in the runner."""

from __future__ import annotations

import subprocess
import sys

import research_crawler.eval as evaluation


def test_every_exported_name_resolves() -> None:
    for name in evaluation.__all__:
        assert getattr(evaluation, name) is not None, name
    assert "run_evaluation" in evaluation.__all__ and "load_results" in evaluation.__all__


def test_the_testbed_alone_does_not_import_langsmith_or_ag2() -> None:
    code = "import sys, research_crawler.eval.testbed; print('langsmith' in sys.modules, 'autogen' in sys.modules)"
    output = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert output.strip() == "False False"
