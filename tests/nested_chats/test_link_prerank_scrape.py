"""Link pre-ranking in a whole query: a page with more links than `page_view.crawler_top_links` shows the Crawler
only that many (the rest counted in one line, the numbers unchanged), the trace says so, and the query still finds
its items; with 0 the Crawler sees every link."""

from __future__ import annotations

import re
from pathlib import Path
from types import SimpleNamespace

import pytest

from research_crawler.config.settings import Settings
from research_crawler.eval.testbed import TestbedServer
from research_crawler.eval.testbed.models import Testbed
from research_crawler.nested_chats import scraper as scraper_module
from research_crawler.nested_chats.scraper import ScraperChat
from research_crawler.pages.page import Determination, Link, Page
from research_crawler.report.models import Report
from research_crawler.run.session import ResearchSession
from research_crawler.run.trace import TraceEvent, read_trace

_LINK_LINE = re.compile(r"(?:^|, )\[(\d+)\] ", re.MULTILINE)  # a line's links: one, or several sharing a context
_RANKED_OUT = re.compile(r"^\((\d+) links less related to the request are left out\)$", re.MULTILINE)


def _run(server: TestbedServer, testbed: Testbed, tmp_path: Path, top: int) -> tuple[Report, list[TraceEvent]]:
    query = testbed.query("arxiv-like/general/diffusion")
    settings = Settings(
        runs_dir=tmp_path / f"top-{top}",
        page_view={"crawler_top_links": top},
        fetch={"allowed_hosts": server.allowed_hosts(), "per_host_delay_s": 0.0},
        rerank={"kind": "bm25", "device": "cpu"},
    )
    report = ResearchSession(settings, backend="simulated").run(query.text, sites=[server.base_url(query.site)])
    return report, read_trace(Path(report.run_dir or "") / "trace.jsonl")


def _crawler_tasks(events: list[TraceEvent]) -> list[str]:
    return [
        str(event["content"])
        for event in events
        if event["event"] == "message" and "Call save_links" in str(event.get("content", ""))
    ]


def test_the_crawler_is_shown_the_best_links_of_a_page_with_many(
    testbed_server: TestbedServer, testbed: Testbed, tmp_path: Path
) -> None:
    report, events = _run(testbed_server, testbed, tmp_path, top=8)
    ranked = [event for event in events if event["event"] == "links_preranked"]
    assert ranked and all(event["shown"] == 8 < event["links"] for event in ranked)
    tasks = _crawler_tasks(events)
    shown = [[int(number) for number in _LINK_LINE.findall(task)] for task in tasks]
    assert max(len(numbers) for numbers in shown) == 8
    # The start page: its best 8 links shown, the others counted in one line.
    assert _RANKED_OUT.findall(tasks[0]) == [str(ranked[0]["links"] - 8)]
    # The numbers are the page's own: the Crawler's choices map to real links, and the query finds its items.
    saved = [event for event in events if event["event"] == "tool_call" and event.get("tool") == "save_links"]
    assert saved and report.items


def _page(url: str, texts: list[str]) -> Page:
    links = [
        Link(id=number, url=f"https://example.org/{text.replace(' ', '-')}", text=text, same_site=True)
        for number, text in enumerate(texts, 1)
    ]
    return Page(url=url, final_url=url, determination=Determination.OK, title=url, markdown="", links=links)


def _scraper(monkeypatch: pytest.MonkeyPatch, *, top: int, hide_seen_links: bool = True) -> tuple[ScraperChat, list]:
    """A ScraperChat whose exploration is only what the Crawler's view reads, ranking links by whether their text
    names graphs (the embedding model stands aside: this is about what the view does with a ranking)."""
    ranked: list[tuple[int, int]] = []

    def by_graphs(query: str, links: list[Link], limit: int, settings: object) -> list[Link]:
        ranked.append((len(links), limit))
        best = sorted(links, key=lambda link: ("graph" not in link.text, link.id))[:limit]
        return sorted(best, key=lambda link: link.id)

    monkeypatch.setattr(scraper_module, "top_links", by_graphs)
    settings = Settings(page_view={"crawler_top_links": top, "hide_seen_links": hide_seen_links})
    exploration = SimpleNamespace(
        settings=settings,
        site=SimpleNamespace(url="https://example.org/"),
        search=SimpleNamespace(query="graph networks"),
        trace=SimpleNamespace(emit=lambda *args, **kwargs: None),
    )
    crawler_tools = SimpleNamespace(menu=frozenset())  # the site's menu: none seen yet
    chat = ScraperChat(exploration, None, None, crawler_tools, None, None, None)  # type: ignore[arg-type]
    return chat, ranked


NAVIGATION = ["Home", "About", "Help", "Contact"]


def test_a_link_ranked_out_is_judged_once_per_site(monkeypatch: pytest.MonkeyPatch) -> None:
    chat, ranked = _scraper(monkeypatch, top=2)
    first = chat._crawler_view(_page("https://example.org/", [*NAVIGATION, "graph one", "graph two"]))
    assert first is not None and _LINK_LINE.findall(first) == ["5", "6"]
    assert _RANKED_OUT.findall(first) == ["4"]
    # The same navigation on the next page: neither shown nor ranked again; the new links compete alone.
    second = chat._crawler_view(_page("https://example.org/2", [*NAVIGATION, "graph three", "cats"]))
    assert second is not None and _LINK_LINE.findall(second) == ["5", "6"]
    assert _RANKED_OUT.findall(second) == ["4"], "the navigation ranked out on the first page is counted, not listed"
    assert ranked == [(6, 2)], "two new links fit the limit: no ranking needed"
    # A page holding nothing new has nothing to score.
    assert chat._crawler_view(_page("https://example.org/3", [*NAVIGATION, "graph one"])) is None


def test_without_hiding_seen_links_every_page_is_ranked_afresh(monkeypatch: pytest.MonkeyPatch) -> None:
    chat, ranked = _scraper(monkeypatch, top=2, hide_seen_links=False)
    texts = [*NAVIGATION, "graph one", "graph two"]
    first = chat._crawler_view(_page("https://example.org/", texts))
    again = chat._crawler_view(_page("https://example.org/2", texts))
    assert first is not None and again is not None
    assert _LINK_LINE.findall(first) == _LINK_LINE.findall(again) == ["5", "6"]
    assert ranked == [(6, 2), (6, 2)]


def test_with_no_limit_nothing_is_ranked(monkeypatch: pytest.MonkeyPatch) -> None:
    chat, ranked = _scraper(monkeypatch, top=0)
    view = chat._crawler_view(_page("https://example.org/", [*NAVIGATION, "graph one", "graph two"]))
    assert view is not None and len(_LINK_LINE.findall(view)) == 6 and not _RANKED_OUT.search(view)
    assert ranked == []


def test_with_zero_the_crawler_sees_every_link(testbed_server: TestbedServer, testbed: Testbed, tmp_path: Path) -> None:
    _, ranked_events = _run(testbed_server, testbed, tmp_path, top=8)
    _, events = _run(testbed_server, testbed, tmp_path, top=0)
    assert not [event for event in events if event["event"] == "links_preranked"]
    tasks = _crawler_tasks(events)
    assert not any(_RANKED_OUT.search(task) for task in tasks)
    first_page_links = len(_LINK_LINE.findall(tasks[0]))
    first_ranked = next(event for event in ranked_events if event["event"] == "links_preranked")
    assert first_page_links == first_ranked["links"] > 8
