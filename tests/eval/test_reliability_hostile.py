"""The reliability catalogue's group "hostile text and files": every case holds as the report runs it, and a case
whose protection is taken away says so (the cases can fail)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from research_crawler.eval.reliability import (
    hostile_file_cases,
    hostile_text_cases,
    report_markup_cases,  # noqa: F401 - registers its case in the group
)
from research_crawler.eval.reliability.catalogue import GROUPS, registered_cases, run_case
from research_crawler.eval.reliability.report import main

GROUP = "hostile text and files"


def _case(name_start: str) -> tuple[str, str, object]:
    (found,) = [entry for entry in registered_cases([GROUP]) if entry[1].startswith(name_start)]
    return found


def test_every_case_of_the_group_holds_as_the_report_runs_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    names = [name for _, name, _ in registered_cases([GROUP])]
    assert GROUP in GROUPS and len(names) == 11, names
    out = tmp_path / "reliability.json"
    code = main(["--group", GROUP, "--soak", "0", "--out", str(out)])
    table = capsys.readouterr().out
    report = json.loads(out.read_text(encoding="utf-8"))
    failed = {case["name"]: case["detail"] for case in report["cases"] if not case["held"]}
    assert code == 0 and not failed, failed
    assert [case["name"] for case in report["cases"]] == names
    assert report["groups"] == [
        {
            "group": GROUP,
            "tried": 11,
            "held": 11,
            "skipped": 0,
            "items_lost": 0,
            "refetched_after_resume": 0,
            "canary_admin_hits": 0,
            "longest_fetch_s": 0.0,
            "its_deadline_s": 0.0,
        }
    ]
    assert "hostile text and files     11    11     0       0      0" in table
    details = {case["name"]: case["detail"] for case in report["cases"]}
    assert "none raw" in details["control sequences, bidi and zero-width characters from a site reach no output raw"]
    assert details["raw HTML, scripts and hidden images in the model's prose never render live"].startswith("15 of 15")


def test_the_out_case_fails_when_out_takes_any_directory(monkeypatch: pytest.MonkeyPatch) -> None:
    def anything_goes(out: Path) -> Path:  # the old check: only a run directory was refused
        return out

    monkeypatch.setattr(hostile_file_cases, "usable_out_dir", anything_goes)
    group, name, function = _case("--out at a file")
    result = run_case(group, name, function)  # type: ignore[arg-type]
    assert not result.held and "accepted: ['--out at a file', '--out at a directory holding files'" in result.detail


def test_the_lock_case_fails_without_a_lock(monkeypatch: pytest.MonkeyPatch) -> None:
    @contextmanager
    def no_lock(run_dir: Path) -> Iterator[None]:
        yield

    monkeypatch.setattr(hostile_file_cases, "holding_run_dir", no_lock)
    group, name, function = _case("a second process on a run directory")
    result = run_case(group, name, function)  # type: ignore[arg-type]
    assert not result.held and "second writer: None" in result.detail


def test_the_sanitiser_case_fails_with_a_sanitiser_that_keeps_escapes(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(hostile_text_cases, "untrusted", lambda text: text.replace("\u202e", ""))
    group, name, function = _case("the sanitiser")
    result = run_case(group, name, function)  # type: ignore[arg-type]
    assert not result.held and "U+001B" in result.detail
