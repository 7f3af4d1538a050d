"""Helpers of the evaluation tests: fast settings, recorded judge replies, a small dataset, a no-internet guard."""

from __future__ import annotations

import json
import socket
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from research_crawler.config.settings import Settings
from research_crawler.context.web_context import CollectedItem
from research_crawler.eval.dataset import builtin_dataset_path, load_dataset
from research_crawler.eval.evidence import RunEvidence
from research_crawler.eval.langsmith_client import RefusingAdapter
from research_crawler.eval.query_splits import split_of_text
from research_crawler.eval.results import EvaluationResult
from research_crawler.report.models import Report, ReportItem

FIXTURES = Path(__file__).parent / "fixtures"
SUBSET_SITES = ("arxiv-like", "journal-like")
_LOOPBACK = ("127.", "localhost", "::1")
SITE = "http://127.0.0.1:8001/"


def fast_settings(root: Path) -> Settings:
    """Settings for tests: no politeness delay, quick retries, BM25 reranking, never uploading."""
    settings = Settings(runs_dir=root / "runs")
    settings.fetch.per_host_delay_s = 0.0
    settings.models.backoff_base_s = 0.01
    settings.models.backoff_max_s = 0.02
    settings.rerank.kind = "bm25"
    settings.eval.upload = "never"
    return settings


def recorded_replies() -> dict[str, Any]:
    data: dict[str, Any] = json.loads((FIXTURES / "judge_replies.json").read_text(encoding="utf-8"))
    return data


def write_subset(
    path: Path,
    *,
    sites: tuple[str, ...] = SUBSET_SITES,
    per_kind: int = 1,
    kinds: tuple[str, ...] = ("general", "specific"),
) -> Path:
    """A copy of the testbed dataset with `per_kind` queries of each of `kinds` on each of `sites`, of the evaluation
    split (an evaluation runs no other by default)."""
    data = yaml.safe_load(builtin_dataset_path("testbed").read_text(encoding="utf-8"))
    chosen = []
    for site in sites:
        for kind in kinds:
            of_kind = [q for q in data["queries"] if q["site"] == site and q["kind"] == kind]
            chosen += [q for q in of_kind if split_of_text(q["query"]) == "evaluation"][:per_kind]
    data["name"] = "testbed-subset"
    data["queries"] = chosen
    path.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    load_dataset(path)  # still valid
    return path


@dataclass
class NetworkLog:
    """Hosts that something tried to resolve or reach beyond loopback (tests must never touch the internet)."""

    lookups: list[str] = field(default_factory=list)
    langsmith_requests: list[str] = field(default_factory=list)


@contextmanager
def no_internet() -> Iterator[NetworkLog]:
    """Refuses and records every resolution of a host that is not loopback while the block runs, and every
    request the local LangSmith client's transport was asked to send."""
    log = NetworkLog()
    original = socket.getaddrinfo
    refuse = RefusingAdapter.send

    def recording_send(adapter: RefusingAdapter, request: Any, *args: Any, **kwargs: Any) -> Any:
        log.langsmith_requests.append(str(request.url))
        return refuse(adapter, request, *args, **kwargs)

    def guarded(host: Any, *args: Any, **kwargs: Any) -> Any:
        name = host.decode() if isinstance(host, bytes) else str(host)
        if not name.startswith(_LOOPBACK):
            log.lookups.append(name)
            raise socket.gaierror(f"tests may not resolve {name}")
        return original(host, *args, **kwargs)

    socket.getaddrinfo = guarded
    RefusingAdapter.send = recording_send  # type: ignore[method-assign,assignment]
    try:
        yield log
    finally:
        socket.getaddrinfo = original
        RefusingAdapter.send = refuse  # type: ignore[method-assign]


@dataclass
class LocalEvaluation:
    result: EvaluationResult
    out: Path
    dataset: Path
    settings: Settings
    network: NetworkLog


def sample_evidence(*, items: int = 2, collected: int = 3, markdown: str | None = None) -> RunEvidence:
    report_items = [
        ReportItem(
            rank=n,
            title=f"Graph neural networks paper {n}",
            url=f"{SITE}abs/{n}",
            site=SITE,
            found_on=f"{SITE}list/cs.LG",
            collector_score=9,
            authors=["Ada Lovelace", "Alan Turing"] if n == 1 else [],
            date="2024-05-01" if n == 1 else None,
            metadata_sources={"title": "citation_title"} if n == 1 else {},
        )
        for n in range(1, items + 1)
    ]
    report = Report(
        query="What papers are there about graph neural networks? Titles and dates only.",
        simulated_model=False,
        items=report_items,
        markdown=markdown
        if markdown is not None
        else "\n".join(f"{i.rank}. [{i.title}]({i.url}) — {i.date or 'n.d.'}" for i in report_items),
    )
    collected_items = [
        CollectedItem(
            url=f"{SITE}abs/{n}",
            title=f"Graph neural networks paper {n}",
            description="A study of message passing.",
            score=8,
            found_on=f"{SITE}list/cs.LG",
            site=SITE,
            seq=n,
        )
        for n in range(1, collected + 1)
    ]
    return RunEvidence(
        report=report, collected_items=collected_items, page_excerpts={f"{SITE}abs/1": "Abstract: we study GNNs."}
    )
