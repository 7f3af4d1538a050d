from __future__ import annotations

import json
from pathlib import Path

from research_crawler.run.trace import Trace, read_trace


def test_events_are_appended_masked_and_numbered(tmp_path: Path) -> None:
    path = tmp_path / "trace.jsonl"
    seen = []
    trace = Trace(path, secrets=["sk-canary-123456"])
    trace.subscribe(seen.append)
    trace.emit("model_call", agent="Planner", kind="x", error="bad key sk-canary-123456 refused")
    trace.emit("fetch", url="http://a.org/")
    trace.close()
    events = read_trace(path)
    assert [e["seq"] for e in events] == [1, 2]
    assert "sk-canary" not in path.read_text() and "***" in events[0]["error"]
    assert events[0]["kind"] == "x" and events[0]["event"] == "model_call"
    assert seen == events
    resumed = Trace(path)
    resumed.emit("run", action="resume")
    resumed.close()
    assert read_trace(path)[-1]["seq"] == 3


def test_a_torn_last_line_is_skipped(tmp_path: Path) -> None:
    path = tmp_path / "trace.jsonl"
    path.write_text(json.dumps({"seq": 1, "event": "a"}) + "\n" + '{"seq": 2, "ev', encoding="utf-8")
    assert [e["seq"] for e in read_trace(path)] == [1]
