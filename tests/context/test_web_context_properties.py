"""Random sequences of Web Context operations against a plain reference model.

Never a second visit, never a duplicate item, pops in (score desc, seq asc) order, every invariant
after every step, and exact save/load round trips (pydantic JSON and `RunStore`) at any point.
"""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule

from research_crawler.context.graph import NavigationGraph
from research_crawler.context.search_context import SearchContext
from research_crawler.context.store import RunStore
from research_crawler.context.web_context import ItemUpdate, WebContext
from research_crawler.errors import StateError

SITE = "https://ex.org/"
PAGES = 10
ITEMS = 6

page_numbers = st.integers(min_value=0, max_value=PAGES - 1)
# Few distinct scores so that ties (and so the seq tie-break) are common.
scores = st.sampled_from([0.0, 2.5, 5.0, 5.0, 7.0, 10.0]) | st.floats(min_value=0, max_value=10)
spellings = st.sampled_from(["plain", "noisy"])
titles = st.sampled_from(["", "A title", "Another title"])
descriptions = st.sampled_from(["", "short", "a longer description"])


def page_url(number: int, spelling: str = "plain") -> str:
    """The canonical URL of page `number`, or a non-canonical spelling of the same URL."""
    if spelling == "plain":
        return f"https://ex.org/p{number}?a=1&b=2"
    return f"HTTPS://EX.org:443/p{number}?b=2&utm_source=feed&a=1#section"


def item_url(number: int) -> str:
    return f"https://ex.org/item/{number}"


class WebContextMachine(RuleBasedStateMachine):
    def __init__(self) -> None:
        super().__init__()
        self.context = WebContext.for_site(SITE)
        self.run_dir = Path(tempfile.mkdtemp(prefix="webctx-"))
        # The reference model: plain Python containers updated by the rules of the paper.
        self.pending: dict[str, tuple[float, int, int]] = {SITE: (10.0, 0, 0)}
        self.discovered: set[str] = {SITE}
        self.visits: list[str] = []
        self.items: dict[str, dict] = {}
        self.url_seq = 1
        self.item_seq = 0

    def teardown(self) -> None:
        shutil.rmtree(self.run_dir, ignore_errors=True)

    def _pop_key(self, url: str) -> tuple[float, int, int]:
        score, seq, found_at = self.pending[url]
        return (-score, -found_at, seq)  # the best score, then the page read last, then the page's order

    def _visit(self, url: str) -> None:
        assert url not in self.visits, f"{url} visited twice"
        self.visits.append(url)
        self.pending.pop(url, None)
        self.discovered.add(url)

    @rule(number=page_numbers, score=scores, spelling=spellings)
    def add_url(self, number: int, score: float, spelling: str) -> None:
        url = page_url(number)
        expected = url not in self.discovered
        assert self.context.add_url(page_url(number, spelling), score, found_on=SITE) is expected
        if expected:
            self.pending[url] = (score, self.url_seq, len(self.visits))
            self.url_seq += 1
            self.discovered.add(url)

    @rule()
    def take_the_best(self) -> None:
        top = self.context.top_urls(1)
        if not self.pending:
            assert top == []
            return
        best = min(self.pending, key=self._pop_key)
        taken = self.context.take(top[0].url)
        assert (taken.url, taken.score, taken.seq, taken.found_at) == (best, *self.pending[best])
        self._visit(best)

    @rule(number=page_numbers, spelling=spellings)
    def take(self, number: int, spelling: str) -> None:
        url = page_url(number)
        if url in self.pending:
            assert self.context.take(page_url(number, spelling)).url == url
            self._visit(url)
        else:
            match = "already visited" if url in self.visits else "not"
            with pytest.raises(StateError, match=match):
                self.context.take(page_url(number, spelling))

    @rule(number=page_numbers, spelling=spellings)
    def mark_visited(self, number: int, spelling: str) -> None:
        url = page_url(number)
        if url in self.visits:
            with pytest.raises(StateError, match="already visited"):
                self.context.mark_visited(page_url(number, spelling))
        else:
            self.context.mark_visited(page_url(number, spelling))
            self._visit(url)

    @rule(
        number=st.integers(min_value=0, max_value=ITEMS - 1),
        title=titles,
        description=descriptions,
        score=scores,
        found_on=page_numbers,
    )
    def add_item(self, number: int, title: str, description: str, score: float, found_on: int) -> None:
        url = item_url(number)
        outcome = self.context.add_item(
            url + "#abstract", title=title, description=description, score=score, found_on=page_url(found_on)
        )
        old = self.items.get(url)
        if old is None:
            self.items[url] = {
                "title": title,
                "description": description,
                "score": score,
                "found_on": page_url(found_on),
                "seq": self.item_seq,
            }
            self.item_seq += 1
            assert outcome is ItemUpdate.ADDED
            return
        new = dict(old)
        if score > old["score"]:
            new["score"] = score
        if len(description) > len(old["description"]):
            new["description"] = description
        if title and not old["title"]:
            new["title"] = title
        assert outcome is (ItemUpdate.UPDATED if new != old else ItemUpdate.UNCHANGED)
        self.items[url] = new

    @rule()
    def json_round_trip(self) -> None:
        loaded = WebContext.model_validate_json(self.context.model_dump_json())
        assert loaded == self.context
        self.context = loaded  # the reloaded object must go on working

    @precondition(lambda self: len(self.visits) % 3 == 0)
    @rule()
    def store_round_trip(self) -> None:
        store = RunStore(self.run_dir)
        search = SearchContext(query="papers")
        graph = NavigationGraph()
        for url in self.visits:
            graph.add_page(url, determination="ok")
        store.save(search=search, web_contexts={SITE: self.context}, graph=graph)
        state = store.load()
        assert state.web_contexts == {SITE: self.context}
        assert state.search == search and state.graph == graph
        self.context = state.web_contexts[SITE]

    @invariant()
    def matches_the_reference_model(self) -> None:
        w = self.context
        w.check_invariants()
        assert w.visited_urls == set(self.visits) and len(self.visits) == len(set(self.visits))
        assert w.discovered_urls == self.discovered
        assert (w.VU, w.DU) == (frozenset(self.visits), frozenset(self.discovered))  # noqa: SIM300
        expected_queue = sorted(self.pending, key=self._pop_key)
        assert [p.url for p in w.C] == expected_queue
        assert [p.url for p in w.top_urls(3)] == expected_queue[:3]
        assert w.DP == set(w.CP) == set(self.items)
        assert len(w.items()) == w.item_count == len(self.items)
        ranked = sorted(self.items, key=lambda url: (-self.items[url]["score"], self.items[url]["seq"]))
        assert [item.url for item in w.items()] == ranked
        for item in w.items():
            expected = self.items[item.url]
            assert (item.title, item.description, item.score, item.found_on, item.seq) == (
                expected["title"],
                expected["description"],
                expected["score"],
                expected["found_on"],
                expected["seq"],
            )


WebContextMachine.TestCase.settings = settings(
    max_examples=60,
    stateful_step_count=40,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
TestWebContextProperties = WebContextMachine.TestCase
