from __future__ import annotations

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
