"""Every fresh batch's first run, pooled: the blind figure of issue 26.

Each fresh batch of sites was written by an engineer who changed no crawler code, and run once, before anyone read
its traces; that run was kept as it came out (``benchmarks/records/fresh_heldout*_first_run.json``, written by
``unfamiliar_sites.py``). Later runs of a batch are development material. This script reads those kept runs — it
runs nothing — and prints, per batch and pooled over every request, issue 26's figures beside their goals.

Usage: .venv/bin/python benchmarks/fresh_first_runs.py [--records DIR] [--out FILE.json]
"""

from __future__ import annotations

import argparse
import json
import re
from dataclasses import asdict, dataclass, fields
from pathlib import Path

from bench_output import print_table, ratio, write_json
from testbed_runs import OUT_DIR

from research_crawler.eval.results import QueryResult
from research_crawler.eval.table import honoured

RECORDS = Path(__file__).resolve().parent / "records"
_FIRST_RUN = re.compile(r"^fresh_heldout(\d*)_first_run\.json$")
_ORDINALS = (
    "first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth", "eleventh",
    "twelfth", "thirteenth", "fourteenth", "fifteenth", "sixteenth", "seventeenth", "eighteenth", "nineteenth",
    "twentieth", "twenty-first", "twenty-second", "twenty-third", "twenty-fourth",
)


@dataclass
class Counts:
    """Issue 26's counts over some requests (summed over requests, as `eval.table.works_table` sums them)."""

    requests: int = 0
    works: int = 0
    reported: int = 0
    read: int = 0
    entries: int = 0
    relevant_entries: int = 0
    wrong: int = 0
    twice: int = 0
    constrained: int = 0
    honoured: int = 0
    failed: int = 0

    def add(self, other: Counts) -> None:
        for field in fields(self):
            setattr(self, field.name, getattr(self, field.name) + getattr(other, field.name))


def batch_counts(record: dict[str, object]) -> Counts:
    """The counts of one kept first run."""
    counts = Counts()
    requests = record.get("requests")
    if not isinstance(requests, list):
        raise ValueError("a first run without its requests")
    for query in (QueryResult.model_validate(request) for request in requests):
        counts.requests += 1
        counts.failed += bool(query.error)
        if query.compliance is not None:
            counts.constrained += 1
            counts.honoured += honoured(query)
        if (works := query.works) is not None:
            counts.works += works.relevant_works
            counts.reported += works.relevant_works_reported
            counts.read += works.relevant_works_read
            counts.entries += works.entries
            counts.relevant_entries += works.relevant_entries
            counts.wrong += works.wrong_entries
            counts.twice += works.works_twice
    return counts


def batch_name(number: str) -> str:
    """'' -> 'first', '7' -> 'seventh' (the records' own numbering: the first batch has no number)."""
    index = int(number or 1) - 1
    return _ORDINALS[index] if index < len(_ORDINALS) else f"batch {number}"


def row(name: str, commit: str, counts: Counts) -> list[str]:
    return [
        f"{name} ({counts.requests})",
        commit,
        f"{ratio(counts.reported, counts.works)} ({counts.reported}/{counts.works})",
        f"{ratio(counts.relevant_entries, counts.entries)} ({counts.relevant_entries}/{counts.entries})",
        f"{counts.honoured}/{counts.constrained}",
        f"{ratio(counts.read, counts.works)} ({counts.read}/{counts.works})",
        f"{counts.wrong}/{counts.entries}",
        f"{counts.twice}, {counts.failed}",
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--records", type=Path, default=RECORDS, help="where the kept first runs are")
    parser.add_argument("--out", type=Path, default=OUT_DIR / "fresh_first_runs.json")
    args = parser.parse_args()
    runs = sorted(
        ((match.group(1), path) for path in args.records.iterdir() if (match := _FIRST_RUN.match(path.name))),
        key=lambda run: int(run[0] or 1),
    )
    if not runs:
        raise SystemExit(f"no fresh_heldout*_first_run.json in {args.records}")
    pooled, rows, out = Counts(), [], {}
    for number, path in runs:
        record = json.loads(path.read_text(encoding="utf-8"))
        counts = batch_counts(record)
        commit = str(record.get("commit") or "-")[:7]
        pooled.add(counts)
        rows.append(row(batch_name(number), commit, counts))
        out[batch_name(number)] = {"commit": commit, **asdict(counts)}
    rows.append(row("pooled", "-", pooled))
    rows.append(["goal", "", "≥ 0.9", "≥ 0.9", "≥ 0.9 of them", "≥ 0.95", "0", "0, 0"])
    headers = ["batch (requests)", "at", "reported", "relevant", "honoured", "read", "wrong", "twice, failed"]
    print("Every fresh batch's first run, blind (kept records; simulated model):\n")
    print_table(headers, rows)
    out["pooled"] = asdict(pooled)
    write_json(args.out, out)


if __name__ == "__main__":
    main()
