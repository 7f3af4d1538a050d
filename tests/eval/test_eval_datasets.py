"""The dataset files: testbed.yaml is exactly what the generator makes, both have the paper's shape, and bad
dataset files are refused with a clear error."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from research_crawler.errors import ConfigError
from research_crawler.eval.dataset import builtin_dataset_path, load_dataset, resolve_dataset
from research_crawler.eval.datasets.build import render_testbed_dataset, write_testbed_dataset
from research_crawler.eval.testbed import generate_testbed
from research_crawler.eval.testbed.models import Testbed


def test_testbed_yaml_is_what_the_generator_makes(tmp_path: Path) -> None:
    packaged = builtin_dataset_path("testbed")
    assert packaged.read_text(encoding="utf-8") == render_testbed_dataset(), (
        "testbed.yaml is stale: run `python -m research_crawler.eval.datasets.build`"
    )
    rebuilt = write_testbed_dataset(tmp_path / "testbed.yaml")
    assert load_dataset(rebuilt) == load_dataset(packaged)


def test_testbed_dataset_has_the_papers_shape_and_the_testbeds_answers(testbed: Testbed) -> None:
    dataset = load_dataset(builtin_dataset_path("testbed"))
    assert dataset.source == "testbed" and dataset.seed == testbed.seed and len(dataset.queries) == 60
    assert Counter((q.site, q.kind) for q in dataset.queries) == {
        (site, kind): 6 for site in testbed.site_names() for kind in ("general", "specific")
    }
    for query in dataset.queries:
        truth = testbed.query(query.id)
        assert (query.site, query.kind, query.query) == (truth.site, truth.kind, truth.text)
        assert query.relevant == truth.relevant_item_ids and query.relevant
    for site in testbed.site_names():
        chosen = [q.id for q in dataset.queries if q.site == site and q.kind == "general"]
        assert chosen == [q.id for q in testbed.queries_for(site, kind="general")[:6]]


def test_another_seed_gives_another_dataset() -> None:
    assert render_testbed_dataset(generate_testbed(seed=11)) != render_testbed_dataset()


def test_preprints_dataset_has_the_papers_shape() -> None:
    dataset = load_dataset(resolve_dataset("preprints"))
    assert dataset.source == "web" and not dataset.has_ground_truth and len(dataset.queries) == 60
    assert [site.label for site in dataset.sites] == ["arXiv", "bioRxiv", "ChemRxiv", "medRxiv", "Springer"]
    assert all(site.url and site.url.startswith("https://") for site in dataset.sites)
    assert Counter((q.site, q.kind) for q in dataset.queries) == {
        (site.name, kind): 6 for site in dataset.sites for kind in ("general", "specific")
    }
    assert len({q.query for q in dataset.queries}) == 60 and not any(q.relevant for q in dataset.queries)


def test_selecting_sites(tmp_path: Path) -> None:
    dataset = load_dataset(resolve_dataset("testbed"))
    subset = dataset.select(["js-site"])
    assert subset.site_names() == ["js-site"] and len(subset.queries) == 12
    with pytest.raises(ConfigError, match=r"no site 'arxiv'.*arxiv-like"):
        dataset.select(["arxiv"])


_WEB = "name: x\nsource: web\nsites: [{name: a, url: 'https://a.org/'}]\n"


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        (
            _WEB + "queries: [{id: q, site: b, kind: general, query: find it}]",
            "not listed under sites",
        ),
        (
            _WEB + "queries: [{id: q, site: a, kind: general, query: find it}, "
            "{id: q, site: a, kind: specific, query: find more}]",
            "used twice",
        ),
        (
            "name: x\nsource: testbed\nsites: [{name: a}]\nqueries: [{id: q, site: a, kind: general, query: find it, "
            "relevant: [a:1]}]",
            "needs the seed",
        ),
        (
            "name: x\nsource: web\nsites: [{name: a}]\nqueries: [{id: q, site: a, kind: general, query: find it}]",
            "need a start url",
        ),
        (
            _WEB + "queries: [{id: q, site: a, kind: broad, query: find it}]",
            "queries.0.kind",
        ),
        ("name: x\nsource: web\nsites: [{name: a, url: 'https://a.org/'}\n", "not valid YAML"),
        ("- just\n- a list\n", "must be a mapping"),
    ],
)
def test_bad_dataset_files_are_refused_clearly(tmp_path: Path, text: str, problem: str) -> None:
    path = tmp_path / "bad.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ConfigError, match=problem) as refused:
        load_dataset(path)
    assert str(path) in str(refused.value)


def test_unknown_datasets_are_refused(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="not a built-in dataset"):
        resolve_dataset(tmp_path / "missing.yaml")
    assert resolve_dataset("testbed") == builtin_dataset_path("testbed")
