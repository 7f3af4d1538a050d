"""Record and replay: a run keeps the pages it fetched; a replay answers only from that recording."""

from __future__ import annotations

from pathlib import Path

import pytest

from research_crawler.config.settings import Settings
from research_crawler.errors import ConfigError
from research_crawler.eval.testbed import TestbedServer
from research_crawler.eval.testbed.models import Testbed
from research_crawler.run.session import ResearchSession
from research_crawler.run.trace import read_trace
from research_crawler.web.page_store import PageArchive


def test_two_replays_of_one_recording_give_the_same_report(
    settings: Settings, testbed: Testbed, testbed_server: TestbedServer
) -> None:
    site = "journal-like"
    query = testbed.queries_for(site)[0].text
    recorded = ResearchSession(settings, backend="simulated").run(query, sites=[testbed_server.base_url(site)])
    recording = Path(recorded.run_dir or "")
    assert len(PageArchive(recording / "pages")) >= recorded.stats.pages_fetched > 0

    testbed_server.reset_hits()
    replays = [
        ResearchSession(settings, backend="simulated", replay_from=recording).run(
            query, sites=[testbed_server.base_url(site)]
        )
        for _ in range(2)
    ]
    assert testbed_server.total_hits == 0, "a replay touched the web"
    first, second = replays
    assert first.markdown == second.markdown == recorded.markdown
    assert [i.model_dump() for i in first.items] == [i.model_dump() for i in second.items]
    sources = {e["source"] for e in read_trace(Path(first.run_dir or "") / "trace.jsonl") if e["event"] == "fetch"}
    assert "web" not in sources and "replay" in sources  # "archive": a page read again within the same run


def test_a_replay_refuses_what_was_not_recorded(
    settings: Settings, testbed: Testbed, testbed_server: TestbedServer, tmp_path: Path
) -> None:
    (tmp_path / "empty" / "pages").mkdir(parents=True)
    testbed_server.reset_hits()
    report = ResearchSession(settings, backend="simulated", replay_from=tmp_path / "empty").run(
        testbed.queries_for("repo-like")[0].text, sites=[testbed_server.base_url("repo-like")]
    )
    assert testbed_server.total_hits == 0
    fetches = [e for e in read_trace(Path(report.run_dir or "") / "trace.jsonl") if e["event"] == "fetch"]
    assert fetches and all(e["determination"] == "refused" for e in fetches)
    with pytest.raises(ConfigError, match="no recorded pages"):
        ResearchSession(settings, backend="simulated", replay_from=tmp_path / "nothing-here")
