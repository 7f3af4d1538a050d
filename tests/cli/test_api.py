"""The Python API: `ResearchCrawler.run/arun`, events by callback and async iterator, cancel, errors; and the
progress the live view folds from those events."""

from __future__ import annotations

import asyncio
import io
import threading
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console

import research_crawler
from research_crawler import ResearchCrawler, Settings
from research_crawler.cli.live_view import LiveView, choose_view_mode
from research_crawler.errors import ConfigError, ModelError, StateError
from research_crawler.eval.testbed import TestbedServer
from research_crawler.eval.testbed.models import Testbed
from research_crawler.run.progress import RunProgress
from research_crawler.run.trace import read_trace


def test_the_api_is_exported() -> None:
    assert {"ResearchCrawler", "Settings", "Report"} <= set(research_crawler.__all__)
    assert research_crawler.ResearchCrawler is ResearchCrawler


def test_run_returns_the_report_and_the_callback_sees_every_event(
    settings: Settings, testbed: Testbed, testbed_server: TestbedServer
) -> None:
    seen: list[dict[str, Any]] = []
    threads: set[str] = set()

    def listen(event: dict[str, Any]) -> None:
        seen.append(event)
        threads.add(threading.current_thread().name)

    crawler = ResearchCrawler(settings, backend="simulated", on_event=listen)
    query = testbed.queries_for("arxiv-like")[0]
    report = crawler.run(query.text, sites=[testbed_server.base_url("arxiv-like")])
    assert report.simulated_model and report.items
    assert {item.url for item in report.items} & testbed_server.relevant_urls(query.id)
    on_disk = read_trace(Path(report.run_dir or "") / "trace.jsonl")
    assert [e["seq"] for e in seen] == [e["seq"] for e in on_disk], "the callback missed or reordered events"
    kinds = Counter(e["event"] for e in seen)
    assert kinds["fetch"] >= 1 and kinds["model_call"] >= 1 and kinds["complete"] == 1


async def test_events_iterate_as_the_run_goes_and_end_with_the_report(
    settings: Settings, testbed: Testbed, testbed_server: TestbedServer
) -> None:
    crawler = ResearchCrawler(settings, backend="simulated")
    query = testbed.queries_for("journal-like")[0].text
    stream = crawler.events(query, sites=[testbed_server.base_url("journal-like")])
    events = [event async for event in stream]
    assert stream.report is not None and stream.report.items
    assert events[0]["event"] == "run" and [e["event"] for e in events].count("complete") == 1
    assert [e["seq"] for e in events] == sorted(e["seq"] for e in events)
    on_disk = read_trace(Path(stream.report.run_dir or "") / "trace.jsonl")
    assert len(events) == len(on_disk)


async def test_leaving_the_event_loop_early_stops_the_run_gracefully(
    settings: Settings, testbed: Testbed, testbed_server: TestbedServer
) -> None:
    settings.simulated.latency_s = 0.05
    crawler = ResearchCrawler(settings, backend="simulated")
    stream = crawler.events(testbed.queries_for("arxiv-like")[1].text, sites=[testbed_server.base_url("arxiv-like")])
    iterator = stream.__aiter__()
    async for event in iterator:
        if event["event"] == "fetch":
            break
    await iterator.aclose()
    assert stream.report is not None
    assert stream.report.stop_reason == "interrupted"
    assert not crawler.running


def test_cancel_from_another_thread_writes_the_report_from_what_was_collected(
    settings: Settings, testbed: Testbed, testbed_server: TestbedServer
) -> None:
    settings.simulated.latency_s = 0.05
    crawler: ResearchCrawler

    def on_event(event: dict[str, Any]) -> None:
        if event["event"] == "scrape":
            threading.Thread(target=crawler.cancel).start()

    crawler = ResearchCrawler(settings, backend="simulated", on_event=on_event)
    report = crawler.run(testbed.queries_for("repo-like")[0].text, sites=[testbed_server.base_url("repo-like")])
    assert report.stop_reason == "interrupted"
    assert (Path(report.run_dir or "") / "report.md").exists()


async def test_one_crawler_runs_one_query_at_a_time(
    settings: Settings, testbed: Testbed, testbed_server: TestbedServer
) -> None:
    crawler = ResearchCrawler(settings, backend="simulated")
    site = [testbed_server.base_url("arxiv-like")]
    first = asyncio.ensure_future(crawler.arun("graph neural networks", sites=site))
    await asyncio.sleep(0)
    with pytest.raises(StateError, match="already running"):
        await crawler.arun("diffusion models", sites=site)
    assert (await first).markdown


def test_bad_use_fails_before_anything_runs(settings: Settings, home: Path) -> None:
    with pytest.raises(ConfigError, match="empty"):
        ResearchCrawler(settings, backend="simulated").run("   ")
    with pytest.raises(ModelError, match="OPENAI_API_KEY"):
        ResearchCrawler(settings).run("graph neural networks")
    assert not settings.runs_dir.exists()


def test_a_local_endpoint_needs_no_key(settings: Settings) -> None:
    from research_crawler.api import require_model_endpoint

    settings.models.base_url = "http://127.0.0.1:11434/v1"
    require_model_endpoint(settings)  # Ollama and friends take no key
    settings.models.base_url = "https://api.openai.com/v1"
    with pytest.raises(ModelError):
        require_model_endpoint(settings)


@pytest.mark.parametrize("parallel_sites", [1, 2], ids=["one-site-at-a-time", "sites-at-once"])
def test_progress_folds_a_real_run_exactly(
    settings: Settings, testbed: Testbed, testbed_server: TestbedServer, parallel_sites: int
) -> None:
    settings.explore.max_subpages = 3
    settings.explore.parallel_sites = parallel_sites
    sites = [testbed_server.base_url("arxiv-like"), testbed_server.base_url("journal-like")]
    report = ResearchCrawler(settings, backend="simulated").run(testbed.queries_for("arxiv-like")[0].text, sites=sites)
    events = read_trace(Path(report.run_dir or "") / "trace.jsonl")
    progress = RunProgress(subpage_limit=3)
    lines = [line for event in events if (line := progress.apply(event)) is not None]

    from research_crawler.context.store import RunStore

    state = RunStore(Path(report.run_dir or "")).load()
    assert progress.items == sum(web.item_count for web in state.web_contexts.values())
    assert progress.subpages == {url: web.visited_count for url, web in state.web_contexts.items()}
    assert progress.sites == sites
    if parallel_sites > 1:  # the lanes' events interleave; each names its site, and the view shows every site
        assert progress.parallel and progress.links_pending is None
        assert progress.sites_text == " · ".join(f"{url} {progress.subpages[url]}/3" for url in sites)
        assert all(progress.subpages[url] > 0 for url in sites)
    else:
        assert progress.site_position == (2, 2)
    assert progress.model_calls == report.stats.model_calls
    assert progress.input_tokens == report.stats.input_tokens
    assert progress.pages_fetched == report.stats.pages_fetched
    assert progress.finished == report.stop_reason
    assert progress.latest_titles and all(t in {i.title for w in state.web_contexts.values() for i in w.CP.values()}
                                          for t in progress.latest_titles)
    assert any(line.startswith("Exploring") and "(2 of 2)" in line for line in lines)
    assert any(line.startswith("Exploring") and "(1 of 2)" in line for line in lines)


def test_progress_survives_malformed_events() -> None:
    progress = RunProgress(subpage_limit=5)
    malformed: list[dict[str, Any]] = [
        {},
        {"event": "tool_call", "tool": "collect_items", "arguments": "{not json"},
        {"event": "items_stored", "added": 2, "titles": "not a list of titles"},
        {"event": "items_stored", "added": None},
        {"event": "links_queued", "queued": "x"},
        {"event": "model_call", "input_tokens": None},
        {"event": "site", "action": "start", "site": None},
        {"event": "sites"},
        {"event": "whatever"},
    ]
    for event in malformed:
        progress.apply(event)
    assert progress.items == 2 and progress.model_calls == 1 and progress.current_site is None


def test_the_line_on_settings_not_restored_names_the_command_for_this_run_directory() -> None:
    line = RunProgress(subpage_limit=5).apply(
        {"event": "settings_not_restored", "names": ["fetch.chromium_path"], "run_dir": "/tmp/my runs/r1"}
    )
    assert line is not None and "fetch.chromium_path" in line
    assert "research-crawler resume '/tmp/my runs/r1' --set NAME=VALUE" in line


def test_live_view_modes(settings: Settings) -> None:
    assert choose_view_mode(quiet=True, stdout_is_terminal=True) == "off"
    assert choose_view_mode(quiet=False, stdout_is_terminal=False) == "plain"
    assert choose_view_mode(quiet=False, stdout_is_terminal=True) == "live"
    events: list[dict[str, Any]] = [
        {"event": "run", "query": "q", "backend": "simulated", "action": "start"},
        {"event": "sites", "chosen": ["http://a.test/", "http://b.test/"]},
        {"event": "site", "action": "start", "site": "http://b.test/"},
        {"event": "fetch", "url": "http://b.test/x", "determination": "ok", "source": "web"},
        {"event": "scrape", "url": "http://b.test/x", "kind": "page"},
        {"event": "tool_call", "agent": "Collector", "tool": "collect_items", "arguments": "{}"},
        {"event": "items_stored", "added": 1, "titles": ["A paper on graphs"], "on_site": 1},
        {"event": "model_call", "agent": "Collector", "input_tokens": 1200, "output_tokens": 30, "cost_usd": 0.01},
    ]
    plain = io.StringIO()
    with LiveView(console=Console(file=plain, width=200), mode="plain", subpage_limit=5) as view:
        for event in events:
            view.on_event(event)
    text = plain.getvalue()
    assert "Exploring http://b.test/ (2 of 2)" in text and "+1 item(s): A paper on graphs" in text

    live = io.StringIO()
    view = LiveView(console=Console(file=live, width=200, force_terminal=True), mode="live", subpage_limit=5)
    for event in events:
        view.on_event(event)
    panel = Console(file=io.StringIO(), width=200)
    panel.print(view._render())
    shown = panel.file.getvalue()  # type: ignore[attr-defined]
    for expected in ("http://b.test/  (2 of 2)", "http://b.test/x", "1 / 5", "1 collected", "A paper on graphs",
                     "Collector", "1,200 in", "$0.0100"):
        assert expected in shown, expected

    quiet = io.StringIO()
    with LiveView(console=Console(file=quiet), mode="off", subpage_limit=5) as view:
        for event in events:
            view.on_event(event)
    assert quiet.getvalue() == ""
