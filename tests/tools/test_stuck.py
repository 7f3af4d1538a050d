from __future__ import annotations

from research_crawler.config.sections import ExploreSettings
from research_crawler.tools.site_budget import PageYield, SiteBudget
from research_crawler.tools.stuck import StuckDetector


def test_repeated_identical_calls_are_stuck() -> None:
    detector = StuckDetector(max_repeated_calls=3)
    detector.record_tool_call("get_top_urls", {"k": 10})
    detector.record_tool_call("get_top_urls", {"k": 10})
    assert not detector.is_stuck
    detector.record_tool_call("get_top_urls", {"k": 10})
    assert detector.is_stuck and "repeated 3 times" in detector.reason


def test_different_calls_reset_the_repeat_count() -> None:
    detector = StuckDetector(max_repeated_calls=2)
    detector.record_tool_call("scrape_url", {"url": "a"})
    detector.record_tool_call("scrape_url", {"url": "b"})
    detector.record_tool_call("scrape_url", {"url": "a"})
    assert not detector.is_stuck


def test_bad_choices_and_empty_scrapes() -> None:
    detector = StuckDetector(max_bad_choices=2, max_empty_scrapes=2)
    detector.record_bad_choice("http://x/", "already visited")
    detector.record_scrape(new_links=0, new_items=0)
    detector.record_scrape(new_links=1, new_items=0)
    detector.record_scrape(new_links=0, new_items=0)
    assert not detector.is_stuck
    detector.record_bad_choice("http://y/", "never discovered")
    assert detector.is_stuck and "could not open" in detector.reason
    detector.reset()
    assert not detector.is_stuck
    detector.record_scrape(new_links=0, new_items=0)
    detector.record_scrape(new_links=0, new_items=0)
    assert "added neither links nor items" in detector.reason


def test_a_site_past_its_model_call_budget_is_stuck() -> None:
    detector = StuckDetector(max_site_model_calls=3)
    for _ in range(3):
        detector.record_model_call()
    assert not detector.is_stuck
    detector.record_model_call()
    assert detector.reason == "the site used its budget of 3 model calls"
    detector.reset()
    assert not detector.is_stuck and detector.site_model_calls == 0 and detector.max_site_model_calls == 3


def test_short_cycles_of_calls_are_stuck_but_varied_calls_are_not() -> None:
    detector = StuckDetector()
    for n in range(6):
        detector.record_tool_call("scrape_url", {"url": f"/p{n}"})
        detector.record_tool_call("get_top_urls", {"k": 10})
    assert not detector.is_stuck
    for _ in range(3):
        detector.record_tool_call("get_top_urls", {"k": 10})
        detector.record_tool_call("scrape_url", {"url": "/same"})
    assert detector.is_stuck and "cycle" in detector.reason


def test_failing_calls_and_unusable_replies_in_a_row_are_stuck() -> None:
    detector = StuckDetector()
    detector.record_tool_result(ok=False, content="Error: a")
    detector.record_tool_result(ok=True, content="fine")
    detector.record_tool_result(ok=False, content="Error: b")
    detector.record_tool_result(ok=False, content="Error: c")
    assert not detector.is_stuck
    detector.record_tool_result(ok=False, content="Error: d")
    assert detector.reason == "3 tool calls in a row failed (last: Error: d)"
    replies = StuckDetector()
    for _ in range(3):
        replies.record_agent_reply(usable=False, problem="the reply was empty")
    assert "3 unusable replies in a row" in replies.reason


def test_empty_scrapes_leave_a_site_that_gave_nothing_but_not_one_that_gave_items() -> None:
    """Reading a yielding site's candidates one by one, some not what was asked, is not being stuck there: its
    earned pages bound it. A site that gave nothing is left after the same empty pages."""
    yielding, barren = StuckDetector(max_empty_scrapes=3), StuckDetector(max_empty_scrapes=3)
    for _ in range(5):
        yielding.record_scrape(new_links=0, new_items=0, site_gave_items=True)
        barren.record_scrape(new_links=0, new_items=0, site_gave_items=False)
    assert not yielding.is_stuck
    assert barren.is_stuck and "3 scrapes in a row added neither links nor items" in barren.reason


def test_a_site_gave_items_once_any_of_its_pages_gave_relevant_ones() -> None:
    explore, budget = ExploreSettings(), SiteBudget()
    budget.note_page("http://a/", 1, PageYield(relevant_items=0, leads=True), explore)
    assert not budget.gave_items("http://a/") and not budget.gave_items("http://b/")
    budget.note_page("http://a/", 2, PageYield(relevant_items=2), explore)
    budget.note_page("http://a/", 3, PageYield(relevant_items=0), explore)
    assert budget.gave_items("http://a/") and not budget.gave_items("http://b/")


def test_a_page_pointing_at_pages_still_to_read_is_no_dead_end() -> None:
    detector = StuckDetector(max_empty_scrapes=3)
    detector.record_scrape(new_links=0, new_items=0)
    detector.record_scrape(new_links=0, new_items=0)
    detector.record_scrape(new_links=0, new_items=0, open_leads=5)  # an index of sections its menu showed first
    assert not detector.is_stuck
    detector.record_scrape(new_links=0, new_items=0)
    detector.record_scrape(new_links=0, new_items=0)
    assert not detector.is_stuck
    detector.record_scrape(new_links=0, new_items=0)
    assert detector.is_stuck
