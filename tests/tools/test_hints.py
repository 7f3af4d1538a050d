"""Hints are data: every template is filled from the state, for every tool and case."""

from __future__ import annotations

import pytest

from research_crawler.tools.hints import HintState, hint, hint_templates, placeholders, with_hint

CASES = [(tool, case) for tool, cases in hint_templates().items() for case in cases]


def test_every_tool_an_llm_calls_has_a_hint() -> None:
    assert {"get_top_urls", "save_links", "collect_items", "get_collected_items", "search_site"} <= set(
        hint_templates()
    )


@pytest.mark.parametrize(("tool", "case"), CASES)
def test_every_placeholder_is_filled(tool: str, case: str) -> None:
    state = HintState(subpages_left=3, items_collected=7, item_kind="dataset")
    text = hint(tool, case, state)
    assert "{" not in text and "}" not in text
    for name in placeholders(hint_templates()[tool][case]):
        assert str(getattr(state, name)) in text


def test_counters_reach_the_text() -> None:
    text = hint("get_top_urls", "some", HintState(subpages_left=2, items_collected=5, items_wanted=3))
    assert "2 subpages left" in text
    assert "5 of 3 papers collected" in text
    assert "once 3 relevant papers" in text
    assert "Supervisor" in text


def test_unknown_case_is_an_error() -> None:
    with pytest.raises(KeyError):
        hint("get_top_urls", "no-such-case", HintState(subpages_left=1, items_collected=0))


def test_with_hint_puts_the_hint_last() -> None:
    assert with_hint("result\n", "do this").splitlines()[-1] == "Hint: do this"


def test_what_counts_is_said_when_not_every_item_does() -> None:
    state = HintState(subpages_left=4, items_collected=0, counted_note="; only papers that may be dated in 2024 count")
    text = hint("get_top_urls", "some", state)
    assert "(as many as the report lists; only papers that may be dated in 2024 count)" in text
    assert "0 of 10 papers collected so far" in text
