"""One field a report entry shows — a date, a DOI, an author name — with its verdict against the item's
metadata and the span of its line to cut when the metadata does not support it."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

__all__ = ["Claim", "FieldKind", "Span", "overlaps"]

Span = tuple[int, int]


class FieldKind(StrEnum):
    DATE = "date"
    DOI = "DOI"
    AUTHOR = "author"


@dataclass(frozen=True, slots=True)
class Claim:
    """One field shown on one line: `value` at line[start:end]; `cut` is what to remove when unsupported."""

    kind: FieldKind
    line: int
    start: int
    end: int
    value: str
    supported: bool
    cut: Span


#: Labels that introduce an author list (case-folded, emphasis and "(s)" removed).


def overlaps(start: int, end: int, spans: Sequence[Span]) -> bool:
    """True when [start, end) shares a character with one of `spans`."""
    return any(start < span_end and span_start < end for span_start, span_end in spans)
