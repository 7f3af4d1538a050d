"""Every model call of a run, one line each: which agent asked, whether the reply could be used, and what the project
did with it — the tool it ran and the tool's answer, a re-ask and why, giving up, or the run stopping. Read from the
run's trace (`model_call` events and the tool calls and results that follow them), so it can be shown for any run
directory: a weak model's behaviour is seen call by call, never summed into a single "no usable reply".
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from research_crawler.llm.reply_checks import STOPPED

__all__ = ["CallRow", "call_rows", "call_table"]

_TOOL_ANSWER_CHARS = 90


@dataclass(frozen=True)
class CallRow:
    """One model call: its agent, whether its reply was usable (and why not), and what was done with it."""

    number: int
    agent: str
    valid: bool
    reply: str
    done: str
    seconds: float


@dataclass
class _Open:
    agent: str
    valid: bool
    reply: str
    outcome: str
    seconds: float
    tools: list[str] = field(default_factory=list)

    def done(self) -> str:
        if self.tools:
            return "ran it: " + " | ".join(self.tools)
        if self.valid and self.reply == "text":
            return "passed the text on to the conversation"
        return self.outcome or "?"


def call_rows(events: Iterable[dict[str, Any]]) -> list[CallRow]:
    """The model calls of a trace, in order, each with what followed it."""
    calls: list[_Open] = []
    last_of: dict[str, _Open] = {}  # each agent's latest call: its tools' answers follow it
    for event in events:
        kind = event.get("event")
        if kind == "model_call":
            valid = bool(event.get("ok"))
            reply = str(event.get("reply") or "")
            if event.get("outcome") == STOPPED:  # no reply came: the run's closing error says why, once
                reply = "no reply"
            elif not valid and event.get("error"):
                reply = f"{reply + ': ' if reply else ''}{event['error']}"
            call = _Open(
                agent=str(event.get("agent", "?")),
                valid=valid,
                reply=reply,
                outcome=str(event.get("outcome") or ""),
                seconds=float(event.get("latency_s") or 0.0),
            )
            calls.append(call)
            last_of[call.agent] = call
        elif kind == "tool_result":
            answered = last_of.get(str(event.get("to", "")))
            if answered is not None and answered.valid:
                answered.tools.append(_first_line(str(event.get("content", ""))))
    return [
        CallRow(number=n, agent=c.agent, valid=c.valid, reply=c.reply, done=c.done(), seconds=c.seconds)
        for n, c in enumerate(calls, 1)
    ]


def _first_line(text: str) -> str:
    line = next((part.strip() for part in text.splitlines() if part.strip()), "")
    return line if len(line) <= _TOOL_ANSWER_CHARS else line[: _TOOL_ANSWER_CHARS - 1] + "…"


def call_table(rows: list[CallRow], *, limit: int = 60) -> list[str]:
    """The rows as aligned plain-text lines (a header first); past `limit` rows, a line saying how many more."""
    if not rows:
        return []
    width = max(len(row.agent) for row in rows)
    lines = [f"{'#':>3}  {'agent':<{width}}  {'reply':<7}  {'s':>5}  what the project did"]
    for row in rows[:limit]:
        verdict = "valid" if row.valid else "invalid"
        lines.append(
            f"{row.number:>3}  {row.agent:<{width}}  {verdict:<7}  {row.seconds:>5.1f}  {row.reply} → {row.done}"
        )
    if len(rows) > limit:
        lines.append(f"… and {len(rows) - limit} more calls (trace.jsonl has them all)")
    return lines
