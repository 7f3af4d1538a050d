"""The navigation graph: visit order, links, provenance paths, JSON and GraphML export round trips."""

from __future__ import annotations

import json
from pathlib import Path

import networkx as nx
import pytest
from hypothesis import given
from hypothesis import strategies as st

from research_crawler.context.graph import GRAPH_JSON_FILE, GRAPHML_FILE, NavigationGraph
from research_crawler.errors import CorruptStateError, InvalidURLError, ToolInputError
from research_crawler.pages.page import Determination

ROOT = "https://ex.org/"


def sample_graph() -> NavigationGraph:
    g = NavigationGraph()
    g.add_page(ROOT, determination=Determination.OK, title="Home")
    g.add_link(ROOT, "https://ex.org/list", anchor_text="All papers", score=8)
    g.add_link(ROOT, "https://ex.org/about", anchor_text="About")
    g.add_page("https://ex.org/list", determination="ok", title="List")
    g.add_link("https://ex.org/list", "https://ex.org/p/1", anchor_text="Paper one", score=9.5)
    g.add_page("https://ex.org/gone", determination=Determination.NOT_FOUND)
    return g


def test_visit_order_is_assigned_on_the_first_visit_only() -> None:
    g = sample_graph()
    assert g.visit_order() == [ROOT, "https://ex.org/list", "https://ex.org/gone"]
    g.add_page("https://EX.org/list#top", determination="timeout", title="")
    assert g.visit_order() == [ROOT, "https://ex.org/list", "https://ex.org/gone"]
    node = g.graph.nodes["https://ex.org/list"]
    assert (node["visit_order"], node["determination"], node["title"]) == (2, "timeout", "List")
    assert g.graph.nodes["https://ex.org/p/1"]["visit_order"] is None, "linked to, not visited"
    g.add_page("https://ex.org/p/1")  # no determination: still not visited
    assert "https://ex.org/p/1" not in g.visit_order()


def test_links_keep_the_first_anchor_text_and_the_best_score() -> None:
    g = NavigationGraph()
    g.add_link(ROOT, "https://ex.org/a", score=3)
    g.add_link(ROOT, "https://ex.org/a?utm_source=x", anchor_text="A", score=2)
    g.add_link(ROOT, "https://ex.org/a", anchor_text="B", score=7)
    assert g.graph.edges[ROOT, "https://ex.org/a"] == {"anchor_text": "A", "score": 7.0}
    g.add_link(ROOT, "https://ex.org/#self", anchor_text="top")
    assert not g.graph.has_edge(ROOT, ROOT), "self-links say nothing about navigation"
    with pytest.raises(ToolInputError):
        g.add_link(ROOT, "https://ex.org/b", score=float("nan"))
    with pytest.raises(InvalidURLError):
        g.add_link(ROOT, "javascript:void(0)")


def test_path_from_root() -> None:
    g = sample_graph()
    assert g.path_from_root("https://ex.org/p/1", ROOT) == [ROOT, "https://ex.org/list", "https://ex.org/p/1"]
    assert g.path_from_root(ROOT, ROOT) == [ROOT]
    assert g.path_from_root("https://ex.org/gone", ROOT) == [], "visited but never linked to"
    assert g.path_from_root(ROOT, "https://ex.org/p/1") == [], "links are directed"
    assert g.path_from_root("https://ex.org/nowhere", ROOT) == []
    assert g.path_from_root("not a url", ROOT) == []
    assert "https://EX.org/list" in g and "https://ex.org/nowhere" not in g and len(g) == 5


def test_json_round_trip_is_exact_and_is_networkx_node_link_data() -> None:
    g = sample_graph()
    data = json.loads(json.dumps(g.to_json()))
    restored = NavigationGraph.from_json(data)
    assert restored == g
    assert restored.visit_order() == g.visit_order()
    restored.add_page("https://ex.org/p/1", determination="ok")
    assert restored.graph.nodes["https://ex.org/p/1"]["visit_order"] == 4, "visit numbers continue"
    assert restored != g
    as_networkx = nx.node_link_graph(data, edges="edges")
    assert nx.utils.graphs_equal(as_networkx, g.graph)


@given(
    st.lists(
        st.tuples(st.integers(0, 6), st.integers(0, 6), st.text(max_size=12), st.none() | st.floats(0, 10)),
        max_size=15,
    ),
    st.lists(st.integers(0, 6), max_size=8),
)
def test_json_round_trip_property(links, visits) -> None:
    g = NavigationGraph()
    for source, target, text, score in links:
        g.add_link(f"https://ex.org/{source}", f"https://ex.org/{target}", anchor_text=text, score=score)
    for page in visits:
        g.add_page(f"https://ex.org/{page}", determination="ok", title=f"page {page}")
    assert NavigationGraph.from_json(json.loads(json.dumps(g.to_json()))) == g


def test_write_exports_json_and_graphml_that_read_back(tmp_path: Path) -> None:
    g = sample_graph()
    # Page text is untrusted: control characters must not make the GraphML unreadable.
    g.add_link("https://ex.org/list", "https://ex.org/p/2", anchor_text="bad\x00\x0b text\ud800 é", score=1)
    g.write(tmp_path / "run")
    assert NavigationGraph.from_json(json.loads((tmp_path / "run" / GRAPH_JSON_FILE).read_text("utf-8"))) == g
    read = nx.read_graphml(tmp_path / "run" / GRAPHML_FILE)
    assert isinstance(read, nx.DiGraph)
    assert set(read.nodes) == set(g.graph.nodes)
    assert set(read.edges) == set(g.graph.edges)
    assert read.nodes[ROOT] == {"title": "Home", "determination": "ok", "visit_order": 1}
    assert read.nodes["https://ex.org/p/1"] == {"title": ""}, "absent values are left out, not 'None'"
    paper_link = read.edges["https://ex.org/list", "https://ex.org/p/1"]
    assert paper_link == {"anchor_text": "Paper one", "score": 9.5}
    assert read.edges[ROOT, "https://ex.org/about"] == {"anchor_text": "About"}
    assert read.edges["https://ex.org/list", "https://ex.org/p/2"]["anchor_text"] == "bad text\ufffd é"
    written = {p.name for p in (tmp_path / "run").iterdir()}
    assert written == {GRAPH_JSON_FILE, GRAPHML_FILE}, "no temp files left"


@pytest.mark.parametrize(
    "data",
    [
        None,
        [],
        {"nodes": "x"},
        {"nodes": [{"title": "no id"}]},
        {"nodes": [{"id": "a"}, {"id": "a"}]},
        {"nodes": [{"id": "a", "visit_order": 1}, {"id": "b", "visit_order": 1}]},
        {"nodes": [{"id": "a", "visit_order": 0}]},
        {"nodes": [{"id": "a"}], "edges": [{"source": "a", "target": "b"}]},
        {"nodes": [{"id": "a"}, {"id": "b"}], "edges": [{"source": "a", "target": "b", "score": "NaN"}]},
        {"directed": False, "nodes": []},
    ],
)
def test_from_json_rejects_bad_data(data: object) -> None:
    with pytest.raises(CorruptStateError):
        NavigationGraph.from_json(data)
