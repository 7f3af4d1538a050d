"""LangSmith's start line is kept off stdout and its experiment name kept; every other line passes through."""

from __future__ import annotations

import io

from research_crawler.eval.experiment_name import StartLine


def test_the_local_start_line_is_taken_and_the_rest_forwarded() -> None:
    target = io.StringIO()
    line = StartLine(target)
    print("Starting evaluation of experiment: %s", "testbed-simulated-abc12345", file=line)  # as langsmith prints it
    print("other output", file=line)
    line.write("partial")
    line.flush()
    assert line.name == "testbed-simulated-abc12345"
    assert target.getvalue() == "other output\npartial"


def test_the_uploaded_start_line_and_its_url_are_taken() -> None:
    target = io.StringIO()
    line = StartLine(target)
    print(
        "View the evaluation results for experiment: 'exp-1a2b' at:\nhttps://smith.example/o/x/datasets/d/compare?s=1\n\n",
        file=line,
    )
    assert line.name == "exp-1a2b"
    assert target.getvalue().strip() == ""


def test_a_second_start_line_is_not_swallowed() -> None:
    target = io.StringIO()
    line = StartLine(target)
    print("Starting evaluation of experiment: %s first", file=line)
    print("Starting evaluation of experiment: %s second", file=line)
    assert line.name == "first"
    assert "second" in target.getvalue()
