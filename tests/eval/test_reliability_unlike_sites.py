"""The catalogue's cases of sites built unlike ours (consent notices and walls, runaway listings) hold as the report
runs them, and the one that needs the browser is marked so (never skipped under CI=true)."""

from __future__ import annotations

import pytest

from research_crawler.eval.reliability import interstitial_cases, listing_cases
from research_crawler.eval.reliability.catalogue import registered_cases, run_case

MODULES = (interstitial_cases.__name__, listing_cases.__name__)
CASES = [entry for entry in registered_cases() if entry[2].__module__ in MODULES]
BROWSER = {"a 'Load more' that never runs out is pressed only up to its bound"}


def test_the_cases_are_registered() -> None:
    assert len(CASES) == 6 and {name for _, name, _ in CASES} >= BROWSER


@pytest.mark.parametrize(("group", "name", "function"), [c for c in CASES if c[1] not in BROWSER], ids=lambda v: "")
def test_a_case_holds(group: str, name: str, function: object) -> None:
    result = run_case(group, name, function)  # type: ignore[arg-type]
    assert result.held and not result.skipped, result.detail


@pytest.mark.browser
@pytest.mark.parametrize(("group", "name", "function"), [c for c in CASES if c[1] in BROWSER], ids=lambda v: "")
def test_a_browser_case_holds(group: str, name: str, function: object) -> None:
    result = run_case(group, name, function)  # type: ignore[arg-type]
    assert result.held and not result.skipped, result.detail
