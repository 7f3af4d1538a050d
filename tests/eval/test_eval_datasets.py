"""The dataset files: testbed.yaml is exactly what the generator makes, both have the paper's shape, and bad
dataset files are refused with a clear error."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest
import yaml

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
    first = [q for q in dataset.queries if q.kind != "unfamiliar"]
    assert dataset.source == "testbed" and dataset.seed == testbed.seed and len(first) == 85
    assert Counter((q.site, q.kind) for q in first) == {
        **{(site, kind): 6 for site in testbed.site_names() for kind in ("general", "specific")},
        **{(site, "constrained"): 5 for site in testbed.site_names()},
    }
    for query in first:
        if query.kind == "constrained":
            continue
        truth = testbed.query(query.id)
        assert (query.site, query.kind, query.query) == (truth.site, truth.kind, truth.text)
        assert query.relevant == truth.relevant_item_ids and query.relevant
    for site in testbed.site_names():
        chosen = [q.id for q in dataset.queries if q.site == site and q.kind == "general"]
        assert chosen == [q.id for q in testbed.queries_for(site, kind="general")[:6]]


def test_constrained_requests_carry_their_contract_and_its_ground_truth(testbed: Testbed) -> None:
    dataset = load_dataset(builtin_dataset_path("testbed"))
    constrained = [q for q in dataset.queries if q.kind == "constrained"]
    assert all(q.contract is not None and q.relevant for q in constrained)
    for query in constrained:
        contract = query.contract
        assert contract is not None
        items = [testbed.item(item_id) for item_id in query.relevant]
        assert all(item.site == query.site for item in items)
        topic = items[0].topic
        of_topic = testbed.items_on(query.site)  # newest first
        of_topic = [item for item in of_topic if item.topic == topic]
        low, high = contract.year_from or 0, contract.year_to or 9999
        if contract.most_recent is None:  # the ground truth is every item of the topic inside the years, only those
            assert {i.id for i in items} == {i.id for i in of_topic if low <= i.year <= high}, query.id
        if contract.year_from is not None or contract.year_to is not None:
            assert len(items) < len(of_topic), f"{query.id}: a date constraint that leaves nothing out tests nothing"
        if contract.most_recent is not None:
            assert [i.id for i in items] == [i.id for i in of_topic[: contract.most_recent]]
            assert of_topic[contract.most_recent - 1].date > of_topic[contract.most_recent].date  # no tie
        if contract.named_site is not None:
            assert contract.named_site == query.site and "{site_url}" in query.query and query.start_sites
            assert all(topic not in testbed.site(start).topics for start in query.start_sites)
    kinds = Counter(
        "range" if q.contract and q.contract.year_to else
        "most recent" if q.contract and q.contract.most_recent else
        "more than exist" if q.contract and q.contract.count and q.contract.count > len(q.relevant) else
        "fewer than exist" if q.contract and q.contract.count else
        "named site" for q in constrained
    )  # fmt: skip
    assert kinds == dict.fromkeys(["range", "most recent", "more than exist", "fewer than exist", "named site"], 5)


def test_a_query_naming_its_site_in_the_text_needs_start_sites(tmp_path: Path) -> None:
    data = yaml.safe_load(builtin_dataset_path("testbed").read_text(encoding="utf-8"))
    named = next(q for q in data["queries"] if q.get("start_sites"))
    named.pop("start_sites")
    path = tmp_path / "bad.yaml"
    path.write_text(yaml.safe_dump(data), encoding="utf-8")
    with pytest.raises(ConfigError, match="start_sites"):
        load_dataset(path)


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
    assert len(subset.queries) == 17 and {q.site for q in subset.queries} == {"js-site"}
    # the request naming js-site only in its text starts on another site, which the subset keeps to start there
    named = next(q for q in subset.queries if q.start_sites)
    assert subset.site_names() == ["biorxiv-like", "js-site"] and named.start_sites == ("biorxiv-like",)
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


def test_the_unfamiliar_webs_requests_are_its_generators_with_their_contracts() -> None:
    web = generate_testbed(unfamiliar=True)
    dataset = load_dataset(builtin_dataset_path("testbed"))
    unfamiliar = [q for q in dataset.queries if q.kind == "unfamiliar"]
    assert [q.id for q in unfamiliar] == [q.id for q in web.queries if q.kind == "unfamiliar"]
    assert len(unfamiliar) == 284
    for query in unfamiliar:
        truth = web.query(query.id)
        assert (query.site, query.query, query.relevant, query.also_sites) == (
            truth.site, truth.text, truth.relevant_item_ids, truth.also_sites,
        )  # fmt: skip
        contract = query.contract
        if truth.most_recent:
            assert contract is not None and contract.most_recent == contract.count == 3 and contract.newest_first
        if truth.year is not None:
            assert contract is not None and contract.year_from == contract.year_to == truth.year
        if truth.author is not None:
            assert contract is not None and contract.author == truth.author
        if not (truth.most_recent or truth.year or truth.author):
            assert contract is None
    assert sum(1 for q in unfamiliar if q.also_sites) == 26
