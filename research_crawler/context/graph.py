"""The navigation graph of a run: which page linked to which, with anchor text, score and visit order.

Exported with every run (JSON node-link data and GraphML) and used for provenance: the path from a
site's root to the page where an item was found.
"""

from __future__ import annotations

import json
import logging
import math
import re
from pathlib import Path
from typing import Any

import networkx as nx
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from research_crawler.context.durable_files import atomic_write_text
from research_crawler.context.urls import canonicalize_url, try_canonicalize_url
from research_crawler.context.web_context import clean_text
from research_crawler.errors import CorruptStateError, ToolInputError

__all__ = ["GRAPHML_FILE", "GRAPH_JSON_FILE", "NavigationGraph"]

logger = logging.getLogger(__name__)

GRAPH_JSON_FILE = "graph.json"
GRAPHML_FILE = "graph.graphml"

# Characters XML 1.0 cannot hold; page text is untrusted and may contain them.
_XML_INVALID = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


class _NodeRecord(BaseModel):
    model_config = ConfigDict(extra="ignore")

    id: str = Field(min_length=1)
    title: str = ""
    determination: str | None = None
    visit_order: int | None = Field(default=None, ge=1)


class _EdgeRecord(BaseModel):
    model_config = ConfigDict(extra="ignore")

    source: str = Field(min_length=1)
    target: str = Field(min_length=1)
    anchor_text: str = ""
    score: float | None = Field(default=None, allow_inf_nan=False)


class _GraphRecord(BaseModel):
    model_config = ConfigDict(extra="ignore")

    directed: bool = True
    multigraph: bool = False
    nodes: list[_NodeRecord] = Field(default_factory=list)
    edges: list[_EdgeRecord] = Field(default_factory=list)


class NavigationGraph:
    """A directed graph of pages (nodes, by canonical URL) and the links between them (edges).

    Node attributes: ``title``, ``determination`` (how the fetch went, None until visited) and
    ``visit_order`` (1, 2, 3… in order of first visit, None for pages only linked to). Edge attributes:
    ``anchor_text`` and ``score`` (the Crawler's relevance score, None when not scored). Self-links
    are ignored: they say nothing about navigation.
    """

    __hash__ = None  # type: ignore[assignment]  # mutable

    def __init__(self) -> None:
        self._graph: nx.DiGraph = nx.DiGraph()
        self._visits = 0

    @property
    def graph(self) -> nx.DiGraph:
        """The underlying networkx graph (read it; change it only through this class)."""
        return self._graph

    def __contains__(self, url: object) -> bool:
        canonical = try_canonicalize_url(url) if isinstance(url, str) else None
        return canonical is not None and canonical in self._graph

    def __len__(self) -> int:
        return self._graph.number_of_nodes()

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, NavigationGraph):
            return NotImplemented
        return bool(nx.utils.graphs_equal(self._graph, other._graph))

    def __repr__(self) -> str:
        links = self._graph.number_of_edges()
        return f"NavigationGraph(pages={len(self)}, links={links}, visited={self._visits})"

    # ------------------------------------------------------------------ building

    def add_page(self, url: str, *, determination: str | None = None, title: str = "") -> None:
        """Record a page; with a `determination` it counts as visited and gets the next visit number.

        A page keeps the visit number of its first visit; a later call may update its determination
        and fill in a title.
        """
        node = canonicalize_url(url)
        self._ensure_node(node)
        attrs = self._graph.nodes[node]
        if title.strip():
            attrs["title"] = clean_text(title).strip()
        if determination is not None:
            attrs["determination"] = clean_text(str(determination))
            if attrs["visit_order"] is None:
                self._visits += 1
                attrs["visit_order"] = self._visits

    def add_link(self, source: str, target: str, *, anchor_text: str = "", score: float | None = None) -> None:
        """Record a link `source` → `target`; a repeated link keeps its first anchor text and best score."""
        src, dst = canonicalize_url(source), canonicalize_url(target)
        if score is not None and (
            isinstance(score, bool) or not isinstance(score, int | float) or not math.isfinite(score)
        ):
            raise ToolInputError(f"link score must be a finite number, got {score!r}")
        if src == dst:
            return
        self._ensure_node(src)
        self._ensure_node(dst)
        value = float(score) if score is not None else None
        anchor_text = clean_text(anchor_text).strip()
        if self._graph.has_edge(src, dst):
            attrs = self._graph.edges[src, dst]
            if not attrs["anchor_text"]:
                attrs["anchor_text"] = anchor_text
            if value is not None and (attrs["score"] is None or value > attrs["score"]):
                attrs["score"] = value
            return
        self._graph.add_edge(src, dst, anchor_text=anchor_text, score=value)

    def merge(self, other: NavigationGraph) -> None:
        """Add `other`'s pages and links (a site explored in parallel); its visits are numbered after ours,
        in their own order, and links keep their first anchor text and best score."""
        for node in other.visit_order():
            attrs = other._graph.nodes[node]
            self.add_page(node, determination=attrs["determination"], title=attrs["title"])
        for node, attrs in other._graph.nodes(data=True):
            self.add_page(node, title=attrs["title"])
        for source, target, attrs in other._graph.edges(data=True):
            self.add_link(source, target, anchor_text=attrs["anchor_text"], score=attrs["score"])

    def _ensure_node(self, node: str) -> None:
        if node not in self._graph:
            self._graph.add_node(node, title="", determination=None, visit_order=None)

    # ------------------------------------------------------------------ reading

    def visit_order(self) -> list[str]:
        """The visited pages, in the order they were visited."""
        nodes = self._graph.nodes(data="visit_order")
        visited = [(order, node) for node, order in nodes if order is not None]
        return [node for _, node in sorted(visited)]

    def title(self, url: str) -> str:
        """The title recorded for the page at `url` ('' when unknown or untitled)."""
        node = try_canonicalize_url(url)
        return str(self._graph.nodes[node].get("title") or "") if node is not None and node in self._graph else ""

    def path_from_root(self, url: str, root: str) -> list[str]:
        """The shortest chain of links from `root` to `url` (both included); [] when there is none."""
        target, start = try_canonicalize_url(url), try_canonicalize_url(root)
        if target is None or start is None or target not in self._graph or start not in self._graph:
            return []
        try:
            return list(nx.shortest_path(self._graph, start, target))
        except nx.NetworkXNoPath:
            return []

    # ------------------------------------------------------------------ export

    def to_json(self) -> dict[str, Any]:
        """Node-link data (the shape of ``nx.node_link_data(G, edges="edges")``), JSON-serialisable."""
        return {
            "directed": True,
            "multigraph": False,
            "graph": {},
            "nodes": [{"id": node, **attrs} for node, attrs in self._graph.nodes(data=True)],
            "edges": [{"source": src, "target": dst, **attrs} for src, dst, attrs in self._graph.edges(data=True)],
        }

    @classmethod
    def from_json(cls, data: object) -> NavigationGraph:
        """Rebuild a graph from `to_json` output; `CorruptStateError` when the data does not fit."""
        try:
            record = _GraphRecord.model_validate(data)
        except ValidationError as exc:
            raise CorruptStateError(f"navigation graph data is invalid: {_first_error(exc)}") from exc
        if not record.directed or record.multigraph:
            raise CorruptStateError("navigation graph data must describe a simple directed graph")
        graph = cls()
        orders: list[int] = []
        for node in record.nodes:
            if node.id in graph._graph:
                raise CorruptStateError(f"navigation graph lists page {node.id} twice")
            graph._graph.add_node(
                node.id, title=node.title, determination=node.determination, visit_order=node.visit_order
            )
            if node.visit_order is not None:
                orders.append(node.visit_order)
        if len(set(orders)) != len(orders):
            raise CorruptStateError("navigation graph gives two pages the same visit number")
        for edge in record.edges:
            if edge.source not in graph._graph or edge.target not in graph._graph:
                raise CorruptStateError(f"navigation graph link {edge.source} → {edge.target} names an unknown page")
            graph._graph.add_edge(edge.source, edge.target, anchor_text=edge.anchor_text, score=edge.score)
        graph._visits = max(orders, default=0)
        return graph

    def to_graphml(self) -> str:
        """The graph as GraphML text; absent values are left out and XML-invalid characters dropped."""
        export = nx.DiGraph()
        for node, attrs in self._graph.nodes(data=True):
            export.add_node(_xml_safe(node), **_graphml_attrs(attrs))
        for src, dst, attrs in self._graph.edges(data=True):
            export.add_edge(_xml_safe(src), _xml_safe(dst), **_graphml_attrs(attrs))
        return "\n".join(nx.generate_graphml(export)) + "\n"

    def write(self, directory: Path) -> None:
        """Write ``graph.json`` and ``graph.graphml`` into `directory`, each atomically."""

        directory = Path(directory)
        node_link = json.dumps(self.to_json(), ensure_ascii=False, indent=2)
        atomic_write_text(directory / GRAPH_JSON_FILE, node_link)
        atomic_write_text(directory / GRAPHML_FILE, self.to_graphml())
        logger.debug("navigation graph written to %s (%d pages)", directory, len(self))


def _xml_safe(text: str) -> str:
    return _XML_INVALID.sub("", text)


def _graphml_attrs(attrs: dict[str, Any]) -> dict[str, str | int | float | bool]:
    """GraphML holds only str/int/float/bool values: drop the Nones, clean the strings."""
    cleaned: dict[str, str | int | float | bool] = {}
    for key, value in attrs.items():
        if value is None:
            continue
        cleaned[key] = _xml_safe(value) if isinstance(value, str) else value
    return cleaned


def _first_error(exc: ValidationError) -> str:
    error = exc.errors()[0]
    where = ".".join(str(part) for part in error["loc"]) or "top level"
    return f"{where}: {error['msg']}"
