"""The Planner's history hook: older tool exchanges dropped whole, reports and the latest exchanges kept."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from research_crawler.agents.planner_history import keep_reports, planner_history_hook

Message = dict[str, Any]


def call(call_id: str, name: str = "get_top_urls", *more: str) -> Message:
    ids = [call_id, *more]
    return {
        "content": None,
        "role": "assistant",
        "tool_calls": [{"id": i, "type": "function", "function": {"name": name, "arguments": "{}"}} for i in ids],
    }


def result(*call_ids: str) -> Message:
    """A tool result as AG2 stores it: one message whose tool_responses answer the calls."""
    responses = [{"tool_call_id": i, "role": "tool", "content": f"result of {i}"} for i in call_ids]
    return {
        "content": "\n".join(r["content"] for r in responses),
        "tool_responses": responses,
        "role": "tool",
        "name": "PlannerTools",
    }


def said(name: str, text: str) -> Message:
    return {"content": text, "role": "user", "name": name}


def test_older_exchanges_go_whole_and_every_report_stays() -> None:
    request = said("UserProxy", 'Request: "graph neural networks"')
    report_1, report_2 = said("ScraperProxy", "Page one report"), said("ScraperProxy", "Page two report")
    verdict = said("SupervisorProxy", "Only 2 of 5 items so far")
    messages = [
        request,
        call("c1"),
        result("c1"),
        call("c2", "scrape_url"),
        result("c2"),
        report_1,
        call("c3"),
        result("c3"),
        verdict,
        call("c4", "scrape_url"),
        result("c4"),
        report_2,
    ]
    kept = keep_reports(messages, recent_tool_calls=2)
    assert kept == [request, report_1, messages[6], messages[7], verdict, messages[9], messages[10], report_2]
    assert keep_reports(messages, recent_tool_calls=10) == messages
    assert messages[1]["tool_calls"][0]["id"] == "c1", "the input messages are not changed"


def test_site_searches_are_kept_whatever_their_age() -> None:
    messages = [call("s1", "search_site"), result("s1"), call("c2"), result("c2"), call("c3"), result("c3")]
    kept = keep_reports(messages, recent_tool_calls=1, always_keep={"search_site"})
    assert kept == [messages[0], messages[1], messages[4], messages[5]]


def test_an_exchange_still_waiting_for_its_result_is_never_dropped() -> None:
    messages = [call("c1"), result("c1"), call("c2"), result("c2"), call("c3")]
    assert keep_reports(messages, recent_tool_calls=1) == [messages[2], messages[3], messages[4]]


def test_one_message_answering_two_calls_and_per_call_results_pair_up() -> None:
    double = call("a", "get_top_urls", "b")
    single = {"role": "tool", "tool_call_id": "c", "content": "result of c"}
    messages = [double, result("a", "b"), call("c"), single, call("d"), result("d")]
    assert keep_reports(messages, recent_tool_calls=1) == [messages[4], messages[5]]
    assert keep_reports(messages, recent_tool_calls=2) == messages[2:]


def test_an_orphan_result_and_its_claimed_call_are_left_alone() -> None:
    # A result that answers ids of two different calls cannot be dropped with either: all three stay.
    messages = [call("a"), call("b"), result("a", "b"), call("c"), result("c"), call("d"), result("d")]
    assert keep_reports(messages, recent_tool_calls=1) == [*messages[:3], messages[5], messages[6]]


def test_the_hook_refuses_a_history_of_no_tool_calls() -> None:
    with pytest.raises(ValueError, match="at least 1"):
        planner_history_hook(recent_tool_calls=0)
    with pytest.raises(ValueError, match="at least 1"):
        keep_reports([], recent_tool_calls=0)
    hook = planner_history_hook(recent_tool_calls=1)
    assert hook([call("x"), result("x"), call("y"), result("y")]) == [call("y"), result("y")]


@st.composite
def conversations(draw: st.DrawFn) -> list[Message]:
    """A Planner history: reports, calls (some with two ids, some searches), results in order, some missing."""
    messages: list[Message] = []
    for index in range(draw(st.integers(0, 14))):
        kind = draw(st.sampled_from(["report", "exchange", "double", "unanswered", "search"]))
        if kind == "report":
            messages.append(said("ScraperProxy", f"report {index}"))
        elif kind == "double":
            messages += [call(f"a{index}", "get_top_urls", f"b{index}"), result(f"a{index}", f"b{index}")]
        elif kind == "unanswered":
            messages.append(call(f"u{index}"))
        else:
            name = "search_site" if kind == "search" else "scrape_url"
            messages += [call(f"c{index}", name), result(f"c{index}")]
    return messages


@settings(max_examples=200, deadline=None)
@given(conversations(), st.integers(1, 4))
def test_no_result_is_ever_left_without_its_call(messages: list[Message], recent: int) -> None:
    kept = keep_reports(messages, recent_tool_calls=recent, always_keep={"search_site"})
    calls_seen: set[str] = set()
    for message in kept:
        for tool_call in message.get("tool_calls") or []:
            calls_seen.add(tool_call["id"])
        for response in message.get("tool_responses") or []:
            assert response["tool_call_id"] in calls_seen, "a tool result whose call was dropped"
    answered = {r["tool_call_id"] for m in messages for r in m.get("tool_responses") or []}
    for message in kept:
        ids = {c["id"] for c in message.get("tool_calls") or []}
        if ids and ids <= answered:
            kept_answers = {r["tool_call_id"] for m in kept for r in m.get("tool_responses") or []}
            assert ids <= kept_answers, "a call whose results were dropped"
    assert [m for m in kept if not m.get("tool_calls") and m.get("role") != "tool"] == [
        m for m in messages if not m.get("tool_calls") and m.get("role") != "tool"
    ]
    searches = [m for m in messages if m.get("tool_calls") and m["tool_calls"][0]["function"]["name"] == "search_site"]
    assert all(any(m is s for m in kept) for s in searches)
    complete = [m for m in messages if m.get("tool_calls") and {c["id"] for c in m["tool_calls"]} <= answered]
    dropped_complete = [m for m in complete if not any(m is k for k in kept)]
    latest = [m for m in complete if m not in searches][-recent:]
    assert not any(any(m is d for d in dropped_complete) for m in latest), "one of the latest exchanges was dropped"
    kept_ordinary = [m for m in complete if m not in searches and any(m is k for k in kept)]
    assert len(kept_ordinary) == min(recent, len([m for m in complete if m not in searches]))


def test_only_the_latest_listing_of_pending_urls_is_kept() -> None:
    from research_crawler.agents.planner_history import drop_old_listings

    old = {"role": "user", "name": "ScraperProxy", "content": "Page A\n\nPending URLs on x (3 in all):\n1. u — a"}
    new = {"role": "user", "name": "ScraperProxy", "content": "Page B\n\nPending URLs on x (2 in all):\n1. v — b"}
    kept = drop_old_listings([{"role": "system", "content": "s"}, old, new])
    assert kept[1]["content"] == "Page A"
    assert kept[2] is new and old["content"].endswith("1. u — a")


# --- summary: bounded whatever the number of pages ----------------------------------------------------------


def _site_history(pages: int) -> list[Message]:
    """A Planner history over two sites: the second announced after the first's reports, then `pages` moves."""
    messages = [
        said("UserProxy", 'Request: "graph neural networks"'),
        said("UserProxy", "Now exploring Site A (http://a/), at most 40 subpages."),
        said("ScraperProxy", "Page http://a/ — A\n(3 new link(s) queued; 2 new item(s) stored.)"),
        call("old-search", "search_site"),
        result("old-search"),
        said("SupervisorProxy", "Verdict on Site A: approved."),
        said("UserProxy", "Now exploring Site B (http://b/), at most 40 subpages."),
    ]
    for page in range(pages):
        if page:
            messages += [call(f"c{page}", "scrape_url"), result(f"c{page}")]
        if page % 5 == 3:
            messages.append(said("ScraperProxy", f"Could not read http://b/{page}: not_found (404)."))
        else:
            form = "; this site has a search form (search_site can use it)" if page == 0 else ""
            facts = f"(1 new link(s) queued; 2 new item(s) stored{form}.)"
            messages.append(said("ScraperProxy", f"Page http://b/{page} — P{page}\n{facts}"))
        if page == 6:
            messages.append(said("SupervisorProxy", "Only 4 of 10 items so far: open more listings."))
    return messages


def _reports(messages: list[Message]) -> list[str]:
    return [m["content"] for m in messages if m.get("name") == "ScraperProxy"]


def test_the_summary_keeps_the_request_the_site_and_its_latest_reports() -> None:
    from research_crawler.agents.planner_history import summarise_old_reports

    messages = _site_history(13)
    kept = summarise_old_reports(messages, recent_reports=4)
    assert kept[0] is messages[0] and kept[1] is messages[6], "the request, then the current site's announcement"
    assert not any("Site A" in str(m.get("content")) or "http://a/" in str(m.get("content")) for m in kept)
    assert not any(m.get("tool_calls") and m["tool_calls"][0]["id"] == "old-search" for m in kept)
    summary, *latest = _reports(kept)
    assert summary.startswith("Earlier on this site (8 page reports, summarised): ")
    # pages 0-7 were folded: page 3 could not be read, the other 7 stored 2 items each; page 0 saw the search form
    assert "7 page(s) read; 1 could not be read; 14 new item(s) stored" in summary
    assert "this site has a search form (search_site can use it)" in summary
    assert latest == _reports(messages)[-5:]
    assert [m["content"] for m in kept if m.get("name") == "SupervisorProxy"] == [
        "Only 4 of 10 items so far: open more listings."
    ]


def test_what_the_planner_reads_stops_growing_with_the_pages() -> None:
    from research_crawler.agents.planner_history import summarise_old_reports

    hook = planner_history_hook(recent_tool_calls=1, always_keep={"search_site"}, recent_reports=4)
    sizes = [len(hook(_site_history(pages))) for pages in range(1, 60)]
    assert max(sizes[20:]) <= max(sizes[:12]), sizes
    assert max(len(_reports(hook(_site_history(pages)))) for pages in range(1, 60)) <= 1 + 7, (
        "the summary and at most 2 x 4 - 1 reports"
    )
    assert len(hook(_site_history(59))) < len(_site_history(59)) / 10
    assert len(summarise_old_reports(_site_history(59), recent_reports=4)) < len(_site_history(59))


def test_the_summary_changes_only_when_a_block_of_reports_is_folded() -> None:
    """What comes before the latest reports stays the same from one move to the next (a prompt cache keeps it)."""
    from research_crawler.agents.planner_history import summarise_old_reports

    summaries = [_reports(summarise_old_reports(_site_history(p), recent_reports=4))[0] for p in range(8, 20)]
    assert len(set(summaries)) == 3, "folded at 8, 12 and 16 reports, stable in between"
    assert summaries[:4] == [summaries[0]] * 4


def test_the_request_is_read_once_when_the_announcement_quotes_it() -> None:
    from research_crawler.agents.planner_history import summarise_old_reports

    request = said("UserProxy", 'Request: "graph neural networks"')
    quoting = said(
        "UserProxy", 'Now exploring Site B (http://b/), at most 5 subpages. Request: "graph neural networks".'
    )
    report = said("ScraperProxy", "Page http://b/ — B")
    assert summarise_old_reports([request, quoting, report], recent_reports=4) == [quoting, report]
    other = said("UserProxy", 'Request: "graph neural networks, only 2025"')
    assert summarise_old_reports([other, quoting, report], recent_reports=4) == [other, quoting, report]


def test_a_history_without_an_announcement_is_left_alone() -> None:
    from research_crawler.agents.planner_history import summarise_old_reports

    messages = [said("UserProxy", 'Request: "x"'), said("ScraperProxy", "a"), said("ScraperProxy", "b")]
    assert summarise_old_reports(messages, recent_reports=1) == messages
    with pytest.raises(ValueError, match="at least 1"):
        summarise_old_reports(messages, recent_reports=0)
    with pytest.raises(ValueError, match="at least 1"):
        planner_history_hook(recent_tool_calls=1, recent_reports=0)


@settings(max_examples=200, deadline=None)
@given(conversations(), st.integers(1, 4), st.integers(0, 13))
def test_the_summary_never_leaves_a_result_without_its_call(messages: list[Message], recent: int, at: int) -> None:
    from research_crawler.agents.planner_history import summarise_old_reports

    messages = [*messages[:at], said("UserProxy", "Now exploring S (http://s/)."), *messages[at:]]
    kept = summarise_old_reports(keep_reports(messages, recent_tool_calls=1), recent_reports=recent)
    calls_seen: set[str] = set()
    for message in kept:
        calls_seen.update(tool_call["id"] for tool_call in message.get("tool_calls") or [])
        for response in message.get("tool_responses") or []:
            assert response["tool_call_id"] in calls_seen, "a tool result whose call was dropped"
    announcement = next(i for i, m in enumerate(kept) if str(m.get("content")).startswith("Now exploring"))
    assert len(_reports(kept[announcement:])) <= 2 * recent
