"""The closing table of a run with a real model: one line per model call — its agent, whether the reply was usable
(and why not), and what the project did with it: the tool it ran and the tool's answer, a re-ask, giving up."""

from __future__ import annotations

from typing import Any

from research_crawler.llm.reply_checks import ASKED_AGAIN, GAVE_UP, PASSED_ON
from research_crawler.run.call_table import call_rows, call_table


def model_call(agent: str, *, ok: bool, reply: str, outcome: str, error: str = "") -> dict[str, Any]:
    return {"event": "model_call", "agent": agent, "ok": ok, "reply": reply, "outcome": outcome, "error": error,
            "latency_s": 12.5}


TRACE: list[dict[str, Any]] = [
    model_call("WebSelector", ok=True, reply="calls record_request", outcome=PASSED_ON),
    {"event": "tool_call", "agent": "WebSelector", "tool": "record_request", "arguments": "{}"},
    {"event": "tool_result", "agent": "RequestTools", "to": "WebSelector",
     "content": "Error: this reading of the request is invalid (date_from is after date_to).\nCall it again."},
    model_call("WebSelector", ok=False, reply="empty", outcome=ASKED_AGAIN, error="the reply was empty"),
    model_call("Collector", ok=False, reply="calls collect_items", outcome=GAVE_UP,
               error="the reply was cut off at the output token limit (400 of 400 tokens)"),
    model_call("Planner", ok=True, reply="text", outcome=PASSED_ON),
]


def test_each_call_says_what_came_back_and_what_was_done_with_it() -> None:
    rows = call_rows(TRACE)
    assert [(row.agent, row.valid) for row in rows] == [
        ("WebSelector", True), ("WebSelector", False), ("Collector", False), ("Planner", True)
    ]
    assert rows[0].done.startswith("ran it: Error: this reading of the request is invalid")
    assert rows[1].reply == "empty: the reply was empty" and rows[1].done == ASKED_AGAIN
    assert "cut off" in rows[2].reply and rows[2].done == GAVE_UP
    assert rows[3].done == "passed the text on to the conversation"


def test_the_table_has_a_header_a_line_per_call_and_says_what_it_left_out() -> None:
    lines = call_table(call_rows(TRACE), limit=3)
    assert lines[0].split() == ["#", "agent", "reply", "s", "what", "the", "project", "did"]
    assert len(lines) == 1 + 3 + 1 and lines[-1].startswith("… and 1 more calls")
    assert " valid " in lines[1] and " invalid " in lines[2]
