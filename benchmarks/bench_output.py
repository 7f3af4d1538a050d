"""Output of the benchmarks: a plain-text table on stdout and the same figures as JSON in benchmarks/out/."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

__all__ = ["print_table", "ratio", "write_json"]


def ratio(value: float, reference: float) -> float | None:
    """`value / reference` rounded for a table, None when the reference is zero."""
    return round(value / reference, 3) if reference else None


def print_table(headers: Sequence[str], rows: Sequence[Sequence[Any]]) -> None:
    """Columns padded to their widest cell; numbers right-aligned, None shown as "-"."""
    cells = [[_cell(value) for value in row] for row in rows]
    widths = [
        max(len(header), *(len(row[i]) for row in cells)) if cells else len(header) for i, header in enumerate(headers)
    ]
    numeric = [all(isinstance(row[i], int | float) or row[i] is None for row in rows) for i in range(len(headers))]
    print(
        "  ".join(
            h.rjust(w) if numeric[i] else h.ljust(w) for i, (h, w) in enumerate(zip(headers, widths, strict=True))
        )
    )
    for row in cells:
        print(
            "  ".join(
                c.rjust(w) if numeric[i] else c.ljust(w) for i, (c, w) in enumerate(zip(row, widths, strict=True))
            )
        )


def write_json(path: Path, document: dict[str, Any]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(document, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"JSON written to {path}")


def _cell(value: Any) -> str:
    if value is None:
        return "-"
    if isinstance(value, float):
        return f"{value:,.3f}" if abs(value) < 10 else f"{value:,.1f}"
    if isinstance(value, int):
        return f"{value:,}"
    return str(value)
