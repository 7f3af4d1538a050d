"""Every held-out part's first run on the page corpus, pooled: the blind figure of issue 27.

Each held-out part of the page corpus was run once, before any of its pages' misses were looked at, and that run
was kept as it came out (``heldoutN_first_run.txt`` beside the corpus; ``page_understanding.py`` printed it). The
first thirteen parts' runs were kept with the corpus outside the repository and lost with it when the project moved
machines: ``heldout1-13_first_run.txt`` holds their pooled counts as stop 39 printed them. Later
figures on a part are development material. This script reads those kept runs — it runs nothing — and prints, per
part and pooled, the pages read right by research-crawler and by trafilatura on each field.

Usage: .venv/bin/python benchmarks/page_corpus_first_runs.py [--corpus DIR] [--out FILE.json]
"""

from __future__ import annotations

import argparse
import re
from pathlib import Path

from bench_output import print_table, ratio, write_json
from page_understanding import corpus_dir
from testbed_runs import OUT_DIR

FIELDS = ("title", "first author", "author count", "year", "exact date")
_FIRST_RUN = re.compile(r"^(heldout(?:\d+-)?\d*)_first_run\.txt$")


def part_scores(text: str, part: str) -> dict[str, tuple[int, int, int, int]]:
    """`field -> (ours right, ours of, trafilatura right, trafilatura of)` from the corpus table of `part` in a
    kept run (a run of several parts holds one table each)."""
    start = re.search(rf"^== corpus, {re.escape(part)} part\b.*$", text, re.MULTILINE)
    if start is None:
        raise ValueError(f"no table for the part {part!r} in its first run")
    table = text[start.end() :]
    end = re.search(r"^== ", table, re.MULTILINE)
    table = table[: end.start()] if end else table
    scores = {}
    for field in FIELDS:
        row = re.search(rf"^{field}\s+(\d+)/(\d+)\s+[\d.]+\s+(\d+)/(\d+)", table, re.MULTILINE)
        if row is not None:
            ours, ours_of, theirs, theirs_of = (int(value) for value in row.groups())
            scores[field] = (ours, ours_of, theirs, theirs_of)
    return scores


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", default=None, help="the page corpus (default: as page_understanding.py finds it)")
    parser.add_argument("--out", type=Path, default=OUT_DIR / "page_corpus_first_runs.json")
    args = parser.parse_args()
    root = corpus_dir(args.corpus, None)
    runs = sorted(
        (match.group(1), path) for path in root.iterdir() if (match := _FIRST_RUN.match(path.name)) is not None
    )
    pooled = {field: [0, 0, 0, 0] for field in FIELDS}
    parts: dict[str, dict[str, tuple[int, int, int, int]]] = {}
    for part, path in sorted(runs, key=lambda run: int(run[0].removeprefix("heldout").split("-")[-1] or 1)):
        parts[part] = part_scores(path.read_text(encoding="utf-8"), part)
        for field, counts in parts[part].items():
            pooled[field] = [total + count for total, count in zip(pooled[field], counts, strict=True)]
    headers = ["part", *(f"{field} (ours / trafilatura)" for field in FIELDS)]
    rows = [
        [part, *(f"{s[0]}/{s[1]} / {s[2]}/{s[3]}" if (s := scores.get(field)) else "-" for field in FIELDS)]
        for part, scores in parts.items()
    ]
    rows.append(["pooled", *(f"{p[0]}/{p[1]} / {p[2]}/{p[3]}" for p in pooled.values())])
    print(f"first runs of the held-out parts kept in {root} ({len(parts)})\n")
    print_table(headers, rows)
    print()
    print_table(
        ["field", "research-crawler", "trafilatura"],
        [[field, ratio(p[0], p[1]), ratio(p[2], p[3])] for field, p in pooled.items()],
    )
    write_json(
        args.out,
        {
            "corpus": str(root),
            "parts": {
                part: {field: list(counts) for field, counts in scores.items()} for part, scores in parts.items()
            },
            "pooled": {
                field: {"ours": ratio(p[0], p[1]), "trafilatura": ratio(p[2], p[3]), "counts": p}
                for field, p in pooled.items()
            },
        },
    )


if __name__ == "__main__":
    main()
