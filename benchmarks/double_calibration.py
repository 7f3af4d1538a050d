"""The simulated model's relevance thresholds: fitted on the calibration split, and its agreement with the ground
truth reported on the evaluation split (prints a table and writes JSON; not a timed test).

Pairs of (request, title) are labelled by a ground truth the double never sees:
- the testbed's: a request on a topic (the testbed's general and aspect queries; a year in a query is the contract's
  business, not relevance, so it is ignored here) against every item of its site, relevant when the item is on that
  topic (and aspect); the double reads the title, and the title with the first 300 characters of the abstract, as it
  reads a listing's entry;
- real titles: requests by arXiv subject category against the entries of saved arXiv pages, relevant when arXiv lists
  the paper under that category (`eval/query_splits.py` names the pages and requests of each split).

The thresholds are those that maximise F1 on the calibration pairs (the mean of the testbed's and the real titles'
F1, so that neither outweighs the other by its number of pairs): ITEM_RELEVANT on the double's item score (the
closer of title and title+abstract), LINK_ON_TOPIC on the title alone (a link's anchor). They are then copied into
`research_crawler/llm/simulated_meaning.py` by hand; this script reports the agreement of the thresholds in force
(and of the fitted ones) on the evaluation pairs, which nothing was fitted on.

Usage: .venv/bin/python benchmarks/double_calibration.py [--realweb DIR] [--out benchmarks/out/double_calibration.json]
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import lxml.html
from bench_output import print_table, write_json
from testbed_runs import OUT_DIR, REALWEB, machine

from research_crawler.eval.query_splits import (
    CALIBRATION_REAL_PAGES,
    EVALUATION_REAL_PAGES,
    REAL_CALIBRATION_REQUESTS,
    REAL_EVALUATION_REQUESTS,
    Split,
    split_of_topic,
)
from research_crawler.eval.testbed import generate_testbed
from research_crawler.llm.simulated_encoder import double_judge
from research_crawler.llm.simulated_meaning import ITEM_RELEVANT, LINK_ON_TOPIC, MeaningJudge

#: Titles of the issue that asked for this calibration, judged as a reviewer would (not used to fit anything).
SPOT_CHECKS = (
    ("Find papers on graph neural networks", "Neural Message Passing for Quantum Chemistry", True),
    ("Find papers on solid-state battery electrolytes", "Polymer Electrolytes for Flexible Supercapacitors", False),
    (
        "Find papers on solid-state battery electrolytes",
        "Sulfide Solid Electrolytes with High Ionic Conductivity",
        True,
    ),
)


@dataclass(frozen=True)
class Pair:
    source: str
    request: str
    title: str
    block: str
    relevant: bool


def testbed_pairs(split: Split) -> list[Pair]:
    testbed = generate_testbed()
    pairs = []
    for query in testbed.queries:
        if split_of_topic(query.topic) != split or query.year is not None:
            continue
        for item in testbed.items_on(query.site):
            relevant = item.topic == query.topic and (query.aspect is None or item.aspect == query.aspect)
            block = f"{item.title} {item.abstract[:300]}"
            pairs.append(Pair("testbed", query.text, item.title, block, relevant))
    return pairs


def arxiv_entries(path: Path) -> list[tuple[str, set[str]]]:
    """(title, subject categories) of each entry of a saved arXiv listing or search page."""
    doc = lxml.html.parse(str(path)).getroot()
    found = []
    titles = doc.xpath('//div[contains(@class,"list-title")]')
    subjects = doc.xpath('//div[contains(@class,"list-subjects")]')
    for title, subject in zip(titles, subjects, strict=True):
        text = " ".join(title.text_content().replace("Title:", "").split())
        found.append((text, {c.strip("()") for c in subject.text_content().split() if c.startswith("(")}))
    for entry in doc.xpath('//li[contains(@class,"arxiv-result")]'):
        text = " ".join(entry.xpath('.//p[contains(concat(" ", @class, " "), " title ")]')[0].text_content().split())
        tags = entry.xpath('.//div[contains(@class,"tags")]/span[contains(@class,"tag")]')
        found.append((text, {tag.text_content().strip() for tag in tags}))
    return found


def real_pairs(realweb: Path, split: Split) -> list[Pair]:
    pages = CALIBRATION_REAL_PAGES if split == "calibration" else EVALUATION_REAL_PAGES
    requests = REAL_CALIBRATION_REQUESTS if split == "calibration" else REAL_EVALUATION_REQUESTS
    entries = [entry for page in pages for entry in arxiv_entries(realweb / "pages" / page)]
    return [
        Pair("real", request, title, title, bool(set(categories) & subjects))
        for request, categories in requests
        for title, subjects in entries
    ]


def scores(judge: MeaningJudge, pairs: Sequence[Pair]) -> tuple[list[float], list[float]]:
    """(title score, item score) of each pair: the item score is the closer of title and block, as the double's."""
    by_title = [0.0] * len(pairs)
    by_item = [0.0] * len(pairs)
    for request in dict.fromkeys(pair.request for pair in pairs):
        mine = [n for n, pair in enumerate(pairs) if pair.request == request]
        titles = judge.similarity(request, [pairs[n].title for n in mine])
        blocks = judge.similarity(request, [pairs[n].block for n in mine])
        for n, title, block in zip(mine, titles, blocks, strict=True):
            by_title[n], by_item[n] = title, max(title, block)
    return by_title, by_item


def agreement(values: Sequence[float], labels: Sequence[bool], threshold: float) -> dict[str, Any]:
    tp = sum(1 for v, y in zip(values, labels, strict=True) if v >= threshold and y)
    fp = sum(1 for v, y in zip(values, labels, strict=True) if v >= threshold and not y)
    fn = sum(1 for v, y in zip(values, labels, strict=True) if v < threshold and y)
    tn = len(labels) - tp - fp - fn
    precision = tp / (tp + fp) if tp + fp else 0.0
    recall = tp / (tp + fn) if tp + fn else 0.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    return {
        "threshold": round(threshold, 3),
        "pairs": len(labels),
        "relevant": tp + fn,
        "precision": round(precision, 3),
        "recall": round(recall, 3),
        "f1": round(f1, 3),
        "accuracy": round((tp + tn) / len(labels), 3) if labels else 0.0,
    }


def best_threshold(values: Sequence[float], labels: Sequence[bool], sources: Sequence[str]) -> float:
    """The threshold of best F1, averaged over the sources of pairs (testbed, real) so that neither outweighs the
    other by its number of pairs; ties go to the lower threshold."""
    candidates = [round(0.05 + 0.01 * n, 2) for n in range(71)]

    def macro_f1(threshold: float) -> float:
        f1s = []
        for source in dict.fromkeys(sources):
            keep = [n for n, s in enumerate(sources) if s == source]
            f1s.append(agreement([values[n] for n in keep], [labels[n] for n in keep], threshold)["f1"])
        return sum(f1s) / len(f1s)

    return max(candidates, key=lambda t: (round(macro_f1(t), 4), -t))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--realweb", type=Path, default=REALWEB)
    parser.add_argument("--out", type=Path, default=OUT_DIR / "double_calibration.json")
    args = parser.parse_args()
    started = time.perf_counter()
    judge = double_judge()
    figures: dict[str, Any] = {"machine": machine(), "double": "all-mpnet-base-v2"}
    fitted: dict[str, float] = {}
    rows = []
    for split in ("calibration", "evaluation"):
        pairs = testbed_pairs(split) + real_pairs(args.realweb, split)
        by_title, by_item = scores(judge, pairs)
        labels = [pair.relevant for pair in pairs]
        if split == "calibration":
            sources = [pair.source for pair in pairs]
            fitted = {
                "item": best_threshold(by_item, labels, sources),
                "link": best_threshold(by_title, labels, sources),
            }
            figures["fitted"] = fitted
        for source in ("testbed", "real", "all"):
            keep = [n for n, pair in enumerate(pairs) if source in ("all", pair.source)]
            item_values = [by_item[n] for n in keep]
            title_values = [by_title[n] for n in keep]
            kept_labels = [labels[n] for n in keep]
            for what, values, in_force, fit in (
                ("item", item_values, ITEM_RELEVANT, fitted["item"]),
                ("link", title_values, LINK_ON_TOPIC, fitted["link"]),
            ):
                now = agreement(values, kept_labels, in_force)
                with_fit = agreement(values, kept_labels, fit)
                figures.setdefault(split, {}).setdefault(source, {})[what] = {"in_force": now, "fitted": with_fit}
                rows.append([split, source, what, now["pairs"], now["relevant"], in_force, now["precision"],
                             now["recall"], now["f1"], fit, with_fit["f1"]])  # fmt: skip
    spot = judge.similarity
    checks = [
        {"request": request, "title": title, "relevant": relevant, "score": spot(request, [title])[0]}
        for request, title, relevant in SPOT_CHECKS
    ]
    figures["spot_checks"] = checks
    figures["seconds"] = round(time.perf_counter() - started, 1)
    print(f"The double's relevance judge (all-mpnet-base-v2) against the ground truth ({machine()})")
    headers = ["split", "pairs from", "judges", "pairs", "relevant", "threshold", "precision", "recall", "F1",
               "fitted", "F1 fitted"]  # fmt: skip
    print_table(headers, rows)
    for check in checks:
        verdict = "taken" if check["score"] >= ITEM_RELEVANT else "declined"
        said = f"{check['score']:.3f} ({verdict}; relevant: {check['relevant']})"
        print(f"  {check['title']!r} for {check['request']!r}: {said}")
    write_json(args.out, figures)


if __name__ == "__main__":
    main()
