"""The agents end to end: the paper's flow on the testbed, limits, invariants, faults, stop and resume."""

from __future__ import annotations

import asyncio
import gc
import itertools
import json
import weakref
from pathlib import Path
from typing import Any, ClassVar

import pytest
from preset_runs import SessionWithClient

from research_crawler.agents.speaker_selection import TRANSITIONS
from research_crawler.config.settings import Settings
from research_crawler.context.store import RunStore
from research_crawler.eval.testbed import TestbedServer
from research_crawler.eval.testbed.models import Testbed
from research_crawler.llm.simulated import SimulatedModelClient
from research_crawler.report.models import Report
from research_crawler.run.session import ResearchSession
from research_crawler.run.trace import read_trace
from research_crawler.web.fetcher import Fetcher


def run_query(settings: Settings, server: TestbedServer, site: str, query: str) -> Report:
    return ResearchSession(settings, backend="simulated").run(query, sites=[server.base_url(site)])


def events(report: Report, kind: str) -> list[dict]:
    assert report.run_dir is not None
    return [e for e in read_trace(Path(report.run_dir) / "trace.jsonl") if e["event"] == kind]


def test_a_query_runs_to_a_report_along_the_papers_flow(
    settings: Settings, testbed: Testbed, testbed_server: TestbedServer
) -> None:
    settings.explore.parallel_sites = 1  # the paper's one group chat, from the Web Selector to the Presenter
    query = testbed.queries_for("arxiv-like")[0]
    # a count the site's search answers, so that the Planner hands over to the Supervisor before the budget ends the
    # site (a request with no count looks for as many as a report lists)
    assert query.id == "arxiv-like/general/gnn"
    report = run_query(settings, testbed_server, "arxiv-like", "Find 3 papers on graph neural networks")
    run_dir = Path(report.run_dir or "")
    assert (run_dir / "report.md").read_text().count("simulated model") == 1
    assert json.loads((run_dir / "report.json").read_text())["simulated_model"] is True
    assert report.items, "the simulated agents found nothing on the arXiv-like site"
    assert {item.url for item in report.items} & testbed_server.relevant_urls(query.id)

    transitions = events(report, "transition")
    known_rows = {t.row for t in TRANSITIONS}
    assert all(t["row"] in known_rows for t in transitions)
    for before, after in itertools.pairwise(transitions):
        assert after["last"] == before["next"], (before, after)
    path = [(t["last"], t["next"]) for t in transitions]
    assert path[:4] == [
        ("UserProxy", "PageSelectorProxy"),
        ("PageSelectorProxy", "UserProxy"),
        ("UserProxy", "ScraperProxy"),  # run.open_start_page: the site's start page needs no Planner call
        ("ScraperProxy", "Planner"),
    ]
    assert transitions[2]["row"] == "open_start_page"
    assert ("PlannerTools", "ScraperProxy") in path and ("ScraperProxy", "Planner") in path
    assert ("PlannerTools", "SupervisorProxy") in path
    assert path[-1] == ("PresenterProxy", None)
    assert any(e["agent"] == "Crawler" and e["tool"] == "save_links" for e in events(report, "tool_call"))
    assert any(e["agent"] == "Collector" and e["tool"] == "collect_items" for e in events(report, "tool_call"))
    assert all(e["input_tokens"] > 0 for e in events(report, "model_call"))
    assert report.stats.model_calls == len(events(report, "model_call"))


def test_limits_are_honoured_exactly(settings: Settings, testbed: Testbed, testbed_server: TestbedServer) -> None:
    settings.explore.max_subpages = 2
    settings.explore.max_subpages_earned = 3  # a site that yields may earn one page (subpages_step), no more
    settings.explore.subpages_step = 1
    query = testbed.queries_for("journal-like")[0]
    report = run_query(settings, testbed_server, "journal-like", query.text)
    state = RunStore(Path(report.run_dir or "")).load()
    assert all(web.visited_count <= 3 for web in state.web_contexts.values())

    settings.explore.max_subpages = 5
    settings.run.max_model_calls = 7
    limited = run_query(settings, testbed_server, "journal-like", query.text)
    exploring = [e for e in events(limited, "model_call") if e["agent"] not in ("Presenter", "Critique")]
    assert len(exploring) == 7
    assert limited.stop_reason == "limit_reached" and "7 model calls" in limited.stop_detail
    assert limited.markdown, "a run stopped by its budget still gets a written report"


async def _links_of(urls: list[str], settings: Settings) -> set[str]:
    async with Fetcher(settings.fetch, page_view=settings.page_view) as fetcher:
        pages = await asyncio.gather(*(fetcher.fetch(url) for url in urls))
    return {link.url for page in pages for link in page.links}


def test_contexts_keep_their_invariants_and_only_page_links_enter_them(
    settings: Settings, testbed: Testbed, testbed_server: TestbedServer
) -> None:
    query = testbed.queries_for("repo-like")[0]
    report = run_query(settings, testbed_server, "repo-like", query.text)
    state = RunStore(Path(report.run_dir or "")).load()
    fetched = [e["url"] for e in events(report, "fetch") if e["source"] == "web"]
    assert len(fetched) == len(set(fetched)), "a page was fetched twice"
    for site, web in state.web_contexts.items():
        web.check_invariants()
        searches = {
            json.loads(e["arguments"])["query"] for e in events(report, "tool_call") if e["tool"] == "search_site"
        }
        page_links = asyncio.run(_links_of(sorted(web.VU), settings))
        allowed = page_links | {site} | {u for u in web.VU if "?" in u and searches}
        assert {p.url for p in web.C} <= allowed
        assert set(web.CP) <= page_links | web.VU


def test_with_injected_faults_the_run_still_reports_and_loses_nothing(
    settings: Settings, testbed: Testbed, testbed_server: TestbedServer
) -> None:
    settings.simulated.fault_rate = 0.4  # a query takes ~15 model calls: enough faults to matter
    settings.simulated.seed = 3
    query = testbed.queries_for("arxiv-like")[1]
    report = run_query(settings, testbed_server, "arxiv-like", query.text)
    assert report.markdown
    injected = {k: v for k, v in report.stats.faults.items() if k not in ("tool_errors", "model_call_failures")}
    assert sum(injected.values()) >= 3, report.stats.faults
    state = RunStore(Path(report.run_dir or "")).load()
    stored = {url for web in state.web_contexts.values() for url in web.CP}
    added = set()
    for event in events(report, "tool_call"):
        if event["tool"] == "collect_items":
            try:
                arguments = json.loads(event["arguments"])
            except json.JSONDecodeError:
                continue
            added.update(str(i.get("url")) for i in arguments.get("items", []) if i.get("url"))
    assert added <= stored
    assert {item.url for item in report.items} <= stored


@pytest.mark.parametrize("site", ["biorxiv-like", "journal-like"])
def test_every_site_layout_ends_with_a_report(
    site: str, settings: Settings, testbed: Testbed, testbed_server: TestbedServer
) -> None:
    report = run_query(settings, testbed_server, site, testbed.queries_for(site)[0].text)
    assert report.stop_reason in ("all_sites_done", "limit_reached")
    assert report.sites and report.sites[0].pages_visited >= 1


@pytest.mark.browser
def test_a_script_rendered_site_is_read_through_the_browser(
    settings: Settings, testbed: Testbed, testbed_server: TestbedServer
) -> None:
    """fetch.render = auto (the default): the site's pages are empty shells over HTTP, so they are fetched again
    through the browser, and the papers its scripts list are found; with plain HTTP they are not."""
    assert settings.fetch.render == "auto"
    query = testbed.queries_for("js-site")[0]
    report = run_query(settings, testbed_server, "js-site", query.text)
    fetches = [e for e in events(report, "fetch") if e["source"] == "web" and e["determination"] == "ok"]
    rendered = [e for e in fetches if e["render"] == "browser"]
    assert rendered and all("rendered with the browser" in e["reason"] for e in rendered)
    assert {item.url for item in report.items} & testbed_server.relevant_urls(query.id)

    settings.fetch.render = "http"
    plain = run_query(settings, testbed_server, "js-site", query.text)
    assert not {item.url for item in plain.items} & testbed_server.relevant_urls(query.id)


class _WatchedClient(SimulatedModelClient):
    """The simulated model, each instance watched through a weak reference (`alive`)."""

    alive: ClassVar[list[weakref.ref[SimulatedModelClient]]] = []

    def __init__(self, config: dict[str, Any], **kwargs: Any) -> None:
        super().__init__(config, **kwargs)
        _WatchedClient.alive.append(weakref.ref(self))


def test_a_finished_run_leaves_nothing_behind_in_memory(
    settings: Settings, testbed: Testbed, testbed_server: TestbedServer
) -> None:
    """A batch runs many queries in one process: once a run has ended, its model clients — and through them its
    agents, pages and state — must be freed (AG2 memoises a log helper on the client; we clear it)."""
    _WatchedClient.alive.clear()
    for query in testbed.queries_for("journal-like")[:2]:
        session = SessionWithClient(settings, client_cls=_WatchedClient)
        session.run(query.text, sites=[testbed_server.base_url("journal-like")])
    assert len(_WatchedClient.alive) >= 10  # every agent of both runs had its client
    gc.collect()
    assert [ref for ref in _WatchedClient.alive if ref() is not None] == []
