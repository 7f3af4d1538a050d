"""Catalogue cases of answers that agree with themselves, tried as a researcher would with the simulated model on the
testbed: a follow-up never empties a report that had items; a follow-up of a search stopped before its request was
read keeps the request's topic; "the most recent paper" asks for one; the coverage lines never call a collected
item's page left-out work, nor a searched, approved site unexplored."""

from __future__ import annotations

import tempfile
from datetime import date
from pathlib import Path
from typing import Any

from research_crawler.api import ResearchCrawler
from research_crawler.context.request_rules import FOLLOW_UP, read_request
from research_crawler.eval.reliability.catalogue import Outcome, case
from research_crawler.eval.reliability.run_cases import testbed_settings, testbed_web

_GROUP = "answers that agree with themselves"
_SITE = "arxiv-like"


@case(_GROUP, "'continue on SITE' keeps the report's entries; its heading is never taken for an invented paper")
def _continue_on() -> Outcome:
    with tempfile.TemporaryDirectory() as tmp, testbed_web() as server:
        site = server.base_url(_SITE)
        query = server.testbed.queries_for(_SITE)[0].text
        crawler = ResearchCrawler(testbed_settings(server, Path(tmp) / "runs"), backend="simulated")
        first = crawler.run(query, sites=[site])
        second = crawler.follow_up(Path(first.run_dir or ""), f"{query}{FOLLOW_UP}continue on {site}", sites=[site])
        shown = [item for item in second.items if f"]({item.url})" in second.markdown]
        invented = [note for note in second.guard_notes if "not among the collected" in note]
        held = bool(second.items) and len(shown) == len(second.items) and not invented
        return Outcome(held, f"{len(first.items)} items, then {len(second.items)}, {len(shown)} shown; {invented}")


@case(_GROUP, "a follow-up of a search stopped before its request was read keeps the request's topic")
def _follow_up_after_a_stop() -> Outcome:
    with tempfile.TemporaryDirectory() as tmp, testbed_web() as server:
        query = server.testbed.queries_for(_SITE)[0].text
        crawler = ResearchCrawler(testbed_settings(server, Path(tmp) / "runs"), backend="simulated")

        def stop_at_once(event: dict[str, Any]) -> None:
            if event["event"] == "run":
                crawler.cancel()

        crawler.on_event = stop_at_once
        first = crawler.run(query, sites=[server.base_url(_SITE)])
        crawler.on_event = None
        other = server.base_url("journal-like")
        second = crawler.follow_up(Path(first.run_dir or ""), f"{query}{FOLLOW_UP}also search {other}", sites=[other])
        topic = second.request.topic if second.request else ""
        held = bool(topic) and "follow" not in topic and "also" not in topic.split() and bool(second.items)
        return Outcome(held, f"topic {topic!r}; {len(second.items)} items from the other site")


@case(_GROUP, "'the most recent paper on X' asks for one, newest first")
def _the_most_recent() -> Outcome:
    readings = {
        text: read_request(text, today=date(2026, 1, 1))
        for text in ("the most recent paper on graph neural networks", "Find the latest preprint about RNA velocity")
    }
    held = all(request.count == 1 and request.order == "newest" for request in readings.values())
    return Outcome(held, "; ".join(f"{text!r}: count {r.count}, {r.order}" for text, r in readings.items()))


@case(_GROUP, "the coverage lines: no collected item's page as left-out work, a searched site not '0 % explored'")
def _coverage() -> Outcome:
    with tempfile.TemporaryDirectory() as tmp, testbed_web() as server:
        settings = testbed_settings(server, Path(tmp) / "runs")
        settings.explore.max_subpages = 2
        query = server.testbed.queries_for(_SITE)[0].text
        report = ResearchCrawler(settings, backend="simulated").run(query, sites=[server.base_url(_SITE)])
        items = {url for item in report.items for url in (item.url, item.pdf_url) if url}
        [coverage] = report.coverage
        pending_items = [page.url for page in coverage.best_pending if page.url in items]
        share = coverage.promising_explored_share
        held = not pending_items and (share is None or share > 0 or not coverage.search_tried)
        return Outcome(held, f"items among the best pending: {len(pending_items)}; share explored {share}")
