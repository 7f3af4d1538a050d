"""The calibration and evaluation splits never overlap, and every benchmark and evaluation reports on evaluation."""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any

import pytest
import yaml

from research_crawler.config.settings import Settings
from research_crawler.errors import ConfigError
from research_crawler.eval.dataset import builtin_dataset_path, load_dataset
from research_crawler.eval.query_splits import (
    CALIBRATION_REAL_PAGES,
    CALIBRATION_TOPICS,
    EVALUATION_REAL_PAGES,
    REAL_CALIBRATION_REQUESTS,
    REAL_EVALUATION_REQUESTS,
    benchmark_queries,
    calibration_queries,
    evaluation_queries,
    split_of_text,
)
from research_crawler.eval.runner import run_evaluation
from research_crawler.eval.testbed.models import Testbed

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"


def test_calibration_and_evaluation_queries_do_not_overlap(testbed: Testbed) -> None:
    calibration, evaluation = calibration_queries(testbed.queries), evaluation_queries(testbed.queries)
    assert calibration and evaluation
    assert len(calibration) + len(evaluation) == len(testbed.queries)
    assert not {q.id for q in calibration} & {q.id for q in evaluation}
    assert not {q.text for q in calibration} & {q.text for q in evaluation}
    assert not {q.topic for q in calibration} & {q.topic for q in evaluation}  # a topic's words never cross
    calibration_items = {i for q in calibration for i in q.relevant_item_ids}
    assert not calibration_items & {i for q in evaluation for i in q.relevant_item_ids}
    assert {q.topic for q in calibration} == CALIBRATION_TOPICS
    for site in testbed.site_names():  # every site keeps queries to report on
        assert len({q.topic for q in evaluation if q.site == site}) >= 4, site


def test_the_dataset_queries_split_by_their_words_as_the_testbed_queries_by_topic(testbed: Testbed) -> None:
    names = {topic.slug: topic.name for topic in testbed.topics}
    for query in load_dataset(builtin_dataset_path("testbed")).queries:
        # a request naming none of the testbed's topics (the unfamiliar web's) is evaluation
        topic = next((slug for slug, name in names.items() if name.lower() in query.query.lower()), None)
        assert split_of_text(query.query) == ("calibration" if topic in CALIBRATION_TOPICS else "evaluation"), query.id


def test_the_real_titles_split_by_page_and_by_subject() -> None:
    assert not set(CALIBRATION_REAL_PAGES) & set(EVALUATION_REAL_PAGES)
    assert not {r for r, _ in REAL_CALIBRATION_REQUESTS} & {r for r, _ in REAL_EVALUATION_REQUESTS}
    calibration = {c for _, categories in REAL_CALIBRATION_REQUESTS for c in categories}
    assert not calibration & {c for _, categories in REAL_EVALUATION_REQUESTS for c in categories}


def test_the_benchmarks_choose_only_evaluation_queries(testbed: Testbed) -> None:
    chosen = benchmark_queries(testbed, per_site=50)
    assert chosen and not {q.id for q in chosen} & {q.id for q in calibration_queries(testbed.queries)}
    # no benchmark picks testbed queries by itself: each goes through benchmark_queries (the calibration script
    # alone reads the calibration split)
    for path in sorted(BENCHMARKS.glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute) and node.attr in {"queries_for", "queries", "query"}:
                owner = ast.unparse(node.value)
                assert "testbed" not in owner.lower() or path.name == "double_calibration.py", (
                    f"{path.name} picks testbed queries itself ({ast.unparse(node)}); use benchmark_queries"
                )


def test_an_evaluation_runs_only_the_evaluation_split_unless_told(tmp_path: Path) -> None:
    data = yaml.safe_load(builtin_dataset_path("testbed").read_text(encoding="utf-8"))
    data["queries"] = [q for q in data["queries"] if split_of_text(q["query"]) == "calibration"]
    dataset = tmp_path / "calibration-only.yaml"
    dataset.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    common: dict[str, Any] = {"settings": Settings(), "backend": "simulated", "judge": "simulated"}
    with pytest.raises(ConfigError, match="no queries to evaluate"):
        run_evaluation(dataset, out=tmp_path / "out", **common)
    with pytest.raises(ConfigError, match="no split 'test'"):
        run_evaluation(dataset, out=tmp_path / "out", split="test", **common)
