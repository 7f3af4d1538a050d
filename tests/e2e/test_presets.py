"""The `paper` and `default` presets, and what each agent reads under them in a whole query on the testbed."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path
from typing import Any

import pytest
from preset_runs import run_preset, text_of

from research_crawler.config.settings import PRESETS_DIR, Settings, preset_names
from research_crawler.errors import ConfigError
from research_crawler.eval.testbed import TestbedServer
from research_crawler.eval.testbed.models import Testbed

#: The fields in which the paper's configuration differs from ours (the token diet, the Crawler and the
#: Collector reading a page at the same time, and the next page fetched ahead).
DIET = {
    "page_view.crawler_view",
    "page_view.collector_view",
    "page_view.hide_seen_links",
    "run.planner_history",
    "run.stop_after_tool",
    "run.report_lists_top_urls",
    "run.items_in_task",
    "run.links_on_last_page",
    "run.open_start_page",
    "run.scrape_concurrently",
    "fetch.fetch_ahead",
    "page_view.crawler_top_links",
    "report.summary_chars",
    "explore.parallel_sites",
    "explore.max_subpages_earned",
}


def differing_fields(one: Settings, other: Settings) -> set[str]:
    first, second = one.model_dump(), other.model_dump()
    return {
        f"{section}.{name}"
        for section, values in first.items()
        if isinstance(values, dict)
        for name, value in values.items()
        if second[section][name] != value
    }


def test_presets_ship_and_default_is_the_built_in_configuration() -> None:
    assert {"paper", "default"} <= set(preset_names())
    assert Settings.from_preset("default") == Settings()
    paper = Settings.from_preset("paper")
    assert differing_fields(paper, Settings()) == DIET
    assert paper.page_view.crawler_view == "markdown" and paper.page_view.collector_view == "markdown"
    assert paper.run.planner_history == "full" and not paper.page_view.hide_seen_links
    assert paper.explore.parallel_sites == 1 and paper.explore.max_subpages == 5
    assert paper.explore.max_subpages_earned == 5  # the paper's budget is fixed: a site earns no more pages


@pytest.mark.parametrize("name", ["paper", "default"])
def test_every_preset_field_is_explained_by_a_comment(name: str) -> None:
    path = PRESETS_DIR / f"{name}.toml"
    lines = path.read_text(encoding="utf-8").splitlines()
    assert tomllib.loads("\n".join(lines)), "the preset is valid TOML"
    for index, line in enumerate(lines):
        if re.match(r"^\s*\w+\s*=", line):
            assert lines[index - 1].lstrip().startswith("#"), f"{path.name}: {line.strip()} has no comment above it"


def test_the_environment_and_arguments_apply_over_a_preset(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("RESEARCH_CRAWLER_PAGE_VIEW__CRAWLER_VIEW", "links")
    monkeypatch.setenv("RESEARCH_CRAWLER_EXPLORE__MAX_SUBPAGES", "7")
    paper = Settings.from_preset("paper")
    assert paper.page_view.crawler_view == "links"  # the environment wins over the preset
    assert paper.page_view.collector_view == "markdown"  # what the environment does not name stays the preset's
    overridden = Settings.from_preset("paper", explore={"max_subpages": 2}, page_view={"chunk_tokens": 900})
    assert overridden.explore.max_subpages == 2
    assert overridden.page_view.collector_view == "markdown" and overridden.page_view.chunk_tokens == 900


def test_load_puts_the_preset_above_the_settings_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    config = tmp_path / "research-crawler.toml"
    config.write_text('[page_view]\ncollector_view = "main"\nchunk_tokens = 1234\n', encoding="utf-8")
    loaded = Settings.load(config, preset="paper")
    assert loaded.page_view.collector_view == "markdown"  # chosen for this run: the preset wins
    assert loaded.page_view.chunk_tokens == 1234  # the file still sets what the preset leaves alone
    monkeypatch.setenv("RESEARCH_CRAWLER_RUN__PLANNER_HISTORY", "reports")
    assert Settings.load(config, preset="paper").run.planner_history == "reports"
    assert Settings.load(config).page_view.collector_view == "main"


@pytest.mark.parametrize("name", ["nope", "../settings", "", "paper.toml"])
def test_an_unknown_preset_is_refused_with_the_known_ones(name: str) -> None:
    with pytest.raises(ConfigError, match="known presets: default, paper, small-local"):
        Settings.from_preset(name)


def test_a_preset_with_bad_overrides_says_so() -> None:
    with pytest.raises(ConfigError, match=r"page_view\.collector_view"):
        Settings.from_preset("default", page_view={"collector_view": "everything"})


# --- whole queries ------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def runs(testbed: Testbed, testbed_server: TestbedServer, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    query = testbed.query("journal-like/general/gnn")
    tmp_path = tmp_path_factory.mktemp("presets")
    recorded = {name: run_preset(name, testbed_server, query.site, query.text, tmp_path) for name in DEFAULTS}
    return {"query": query, "relevant": testbed_server.relevant_urls(query.id), **recorded}


DEFAULTS = ("paper", "default")


def test_default_reads_fewer_tokens_than_paper_and_finds_as_much(runs: dict[str, Any]) -> None:
    paper, default = runs["paper"].report, runs["default"].report
    relevant = runs["relevant"]
    found = {name: {item.url for item in runs[name].report.items} & relevant for name in DEFAULTS}
    assert found["paper"], "the paper preset found nothing relevant: the comparison would say nothing"
    assert found["default"] >= found["paper"]
    assert default.stats.input_tokens < paper.stats.input_tokens
    for agent in ("Planner", "Crawler", "Collector"):
        assert default.stats.by_agent[agent].input_tokens < paper.stats.by_agent[agent].input_tokens, agent


def test_each_agent_reads_the_view_its_preset_names(runs: dict[str, Any]) -> None:
    paper_crawler, default_crawler = runs["paper"].of("Crawler"), runs["default"].of("Crawler")
    # paper: the whole page, cookie banner included; default: one "[n] text — context" line per link
    assert "Accept all cookies" in text_of(paper_crawler[0][1])
    assert "Accept all cookies" not in text_of(default_crawler[0][1])
    assert re.search(r"^\[\d+\] .+ — .+$", text_of(default_crawler[0][1]), re.MULTILINE)
    paper_collector, default_collector = runs["paper"].of("Collector"), runs["default"].of("Collector")
    assert "Accept all cookies" in text_of(paper_collector[0][1])
    for messages in default_collector:
        assert "Accept all cookies" not in text_of(messages[1])
        assert not re.search("privacy policy", text_of(messages[1]), re.IGNORECASE)
    later_tasks = [text_of(messages[1]) for messages in default_crawler[1:]]
    assert any("links already shown on earlier pages of this site are left out" in task for task in later_tasks)
    assert not any("already shown on earlier pages" in text_of(m[1]) for m in paper_crawler)


def test_nested_chats_start_from_a_clean_context(runs: dict[str, Any]) -> None:
    for preset in DEFAULTS:
        for agent in ("Crawler", "Collector", "Supervisor", "Presenter"):
            requests = runs[preset].of(agent)
            assert requests or agent == "Supervisor", (preset, agent)  # the Supervisor speaks when asked
            tasks = []
            for messages in requests:
                assert messages[0]["role"] == "system"
                others = [m for m in messages[1:] if m["role"] == "user"]
                assert len(others) == 1, "a nested chat holds its own task and nothing of earlier chats"
                assert "".join(text_of(m) for m in messages).count("<page-content") <= 1
                tasks.append(text_of(others[0]))
            if agent == "Crawler":
                pages = [re.search(r'<page-content url="([^"]+)"', task).group(1) for task in tasks]  # type: ignore[union-attr]
                assert len(set(pages)) > 1, "several pages were scraped, each in its own chat"


def test_the_planner_keeps_reports_and_only_whole_recent_exchanges(runs: dict[str, Any]) -> None:
    full, reports = runs["paper"].of("Planner"), runs["default"].of("Planner")
    for messages in reports:
        calls: set[str] = set()
        for message in messages:
            calls.update(call["id"] for call in message.get("tool_calls") or [])
            if message["role"] == "tool":
                assert message["tool_call_id"] in calls, "a tool result without its call"
        exchanges = [m for m in messages if m.get("tool_calls")]
        searches = [m for m in exchanges if m["tool_calls"][0]["function"]["name"] == "search_site"]
        assert len(exchanges) - len(searches) <= Settings().run.planner_recent_tool_calls + 1  # and the call answered
    # every page report the Planner was shown stays in its view to the end (named by its first line, "Page URL —
    # title"); the default preset may read more pages than the paper's fixed budget, never fewer
    shown = {line for messages in reports for line in _scraper_reports(messages)}
    kept = _scraper_reports(reports[-1])
    assert kept and shown <= set(kept) and len(kept) >= len(_scraper_reports(full[-1]))
    assert len([m for m in full[-1] if m.get("tool_calls")]) > len([m for m in reports[-1] if m.get("tool_calls")])


def _scraper_reports(messages: list[dict[str, Any]]) -> list[str]:
    """The first line of each page report (the ScraperProxy's) among `messages`."""
    return [str(m["content"]).splitlines()[0] for m in messages if m.get("name") == "ScraperProxy"]
