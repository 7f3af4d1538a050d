"""The progress the page shows, folded from trace events: numbers, log lines, and model output of any shape."""

from __future__ import annotations

import json

from research_crawler.serve.progress import WebProgress


def test_events_fold_into_the_numbers_and_lines_the_page_shows() -> None:
    progress = WebProgress()
    assert progress.apply({"event": "run", "action": "follow_up", "query": "only 2025", "backend": "openai"}) == (
        'Following up: "only 2025" with the model'
    )
    assert progress.apply({"event": "site", "action": "start", "site": "https://arxiv.org/"}) == (
        "Exploring https://arxiv.org/ (1 of 1)"
    )
    progress.apply({"event": "fetch", "source": "web", "url": "https://arxiv.org/list", "determination": "ok"})
    progress.apply({"event": "fetch", "source": "archive", "url": "https://arxiv.org/a", "determination": "ok"})
    progress.apply({"event": "model_call", "agent": "Planner", "input_tokens": 1200, "output_tokens": 30,
                    "cost_usd": 0.01})
    progress.apply({"event": "tool_call", "agent": "Collector", "tool": "collect_items", "arguments": "{}"})
    line = progress.apply({"event": "items_stored", "added": 2, "titles": ["First\x1b[2J paper", "Second"]})
    assert line == "+2 item(s): First[2J paper; Second", "the escape character removed, the rest inert text"
    snapshot = progress.snapshot()
    assert snapshot["pages_fetched"] == 1, "a page from the run's archive is not fetched again"
    assert snapshot["items"] == 2 and snapshot["latest"] == "First[2J paper · Second"
    assert snapshot["tokens"] == "1,200 in · 30 out" and snapshot["cost"] == "$0.0100"
    assert snapshot["agent"] == "Collector" and snapshot["site"] == "https://arxiv.org/"


def test_model_output_of_any_shape_is_survived() -> None:
    progress = WebProgress()
    for arguments in ("not json", "[1, 2]", json.dumps({"items": "many"}), None, 42):
        progress.apply({"event": "tool_call", "tool": "collect_items", "arguments": arguments})
        progress.apply({"event": "items_stored", "added": 1, "titles": []})
    assert progress.items == 5 and progress.latest_titles == []
    assert progress.apply({"event": "unknown"}) is None and progress.apply({}) is None


def test_sites_explored_at_once_are_named_together_and_end_once() -> None:
    progress = WebProgress()
    progress.apply({"event": "parallel", "sites": ["https://a.example/", "https://b.example/"], "lanes": 3})
    assert progress.apply({"event": "site", "action": "start", "site": "https://b.example/"}) == (
        "Exploring https://b.example/ (2 of 2)"
    )
    assert progress.snapshot()["site"] == "2 sites at once"
    assert progress.snapshot()["sites"] == ["https://a.example/", "https://b.example/"]
    # a lane's end is not the search's end: the page says "Search ended" once, when the run completes
    assert progress.apply({"event": "lane_complete", "site": "https://b.example/", "reason": "all_sites_done"}) is None
    assert progress.snapshot()["finished"] == ""
    assert progress.apply({"event": "complete", "reason": "all_sites_done"}) == (
        "Search ended: all sites done; writing the report"
    )
