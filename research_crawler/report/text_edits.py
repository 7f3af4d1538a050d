"""Cutting a phrase out of one line of Markdown without leaving debris: its label ("Date:"), the
parentheses or emphasis around it and one of the separators beside it go with it, and a line left
with only a label is dropped.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = ["LineEdit", "apply_line_edits", "removal_span", "tidy_line"]

_SOFT_SEPARATORS = ",;·•—–"
_EMPHASIS = ("**", "__", "*", "_")
_LABEL_BEFORE = re.compile(
    r"(?P<label>(?:\*\*|__|\*|_)?[^\W\d_][^:：|()\[\]\n,;]{0,30}?(?:\*\*|__|\*|_)?\s*[:：]\s*(?:\*\*|__|\*|_)?)\s*$"
)
_LIST_PREFIX = re.compile(r"^\s*(?:>\s*)*(?:[-*+]|\d{1,9}[.)])?\s*")
_LABEL_ONLY = re.compile(
    r"^\s*(?:>\s*)*(?:[-*+]|\d{1,9}[.)])?\s*(?:(?:\*\*|__|\*|_)?[^\W\d_][^:：|]{0,30}?(?:\*\*|__|\*|_)?\s*[:：]"
    r"\s*(?:\*\*|__|\*|_)?)?\s*$"
)


@dataclass(frozen=True, slots=True)
class LineEdit:
    """Replace line[start:end] with `replacement`."""

    start: int
    end: int
    replacement: str = ""


def _boundary_before(line: str, index: int) -> bool:
    before = line[:index].rstrip(" \t")
    if not before or _LIST_PREFIX.fullmatch(before):
        return True
    return before[-1] in _SOFT_SEPARATORS + "|([*_" or before.endswith(" -")


def removal_span(line: str, start: int, end: int, *, with_label: bool = True) -> tuple[int, int]:
    """The span to cut so that removing line[start:end] leaves tidy text.

    Widens over emphasis or brackets that wrap exactly the phrase, over a preceding ``Label:`` when the
    phrase is all the label introduces (and `with_label`), then over one neighbouring separator:
    "Smith, 2023 (x)" → "Smith (x)"; "(2023, arXiv)" → "(arXiv)"; "Date: 2023; DOI" → "DOI".
    """
    widened = True
    while widened:
        widened = False
        for mark in _EMPHASIS:
            if line[max(0, start - len(mark)) : start] == mark and line[end : end + len(mark)] == mark:
                start, end, widened = start - len(mark), end + len(mark), True
                break
        if not widened and start > 0 and end < len(line):
            pair = line[start - 1] + line[end]
            if pair in ("()", "“”", '""', "«»") or (pair == "[]" and line[end + 1 : end + 2] != "("):
                start, end, widened = start - 1, end + 1, True
    rest = line[end:].lstrip(" \t*_")
    label = _LABEL_BEFORE.search(line, 0, start) if with_label else None
    if label and (not rest or rest[0] in _SOFT_SEPARATORS + "|).") and _boundary_before(line, label.start("label")):
        start = label.start("label")
    left = line[:start].rstrip(" \t")
    right_start = end + (len(line[end:]) - len(line[end:].lstrip(" \t")))
    right = line[right_start:]
    if right.startswith(".") and (not left or left[-1] in ".!?" or _LIST_PREFIX.fullmatch(left)):
        # the phrase was a sentence of its own ("… 2023). DOI: 10.x/y. Next …"): its full stop goes too
        end = right_start + 1
        end += len(line[end:]) - len(line[end:].lstrip(" \t"))
    elif left and (left[-1] in _SOFT_SEPARATORS or left.endswith(" -")) and not _LIST_PREFIX.fullmatch(left):
        start = len(left[:-1].rstrip(" \t"))
    elif (
        right
        and (right[0] in _SOFT_SEPARATORS or right.startswith("- "))
        and (not left or left[-1] in "([|:：" or _LIST_PREFIX.fullmatch(left))
    ):
        end = right_start + 1
        end += len(line[end:]) - len(line[end:].lstrip(" \t"))
    elif left and right[:1] in ("", ".", ",", ";", ")", "|", ":"):
        start = len(left)
    return start, end


def tidy_line(line: str) -> str:
    """Debris a cut can leave: empty brackets or emphasis, doubled separators, a separator at the edge."""
    indent = line[: len(line) - len(line.lstrip(" \t"))]
    hard_break = line.endswith("  ")
    body = line[len(indent) :]
    previous = None
    while previous != body:
        previous = body
        body = re.sub(r"\(\s*\)|\[\s*\](?!\()|“\s*”|«\s*»|\*\*\s*\*\*|__\s*__", "", body)
        body = re.sub(r"([,;])\s*[,;]", r"\1", body)
        body = re.sub(r"\(\s*[,;]\s*", "(", body)
        body = re.sub(r"\s*[,;]\s*\)", ")", body)
        body = re.sub(r"(?<=\S)[ \t]+([,;.)])", r"\1", body)
        body = re.sub(r"\(\s+", "(", body)
        body = re.sub(r"(?<=\S) {2,}(?=\S)", " ", body)
        body = re.sub(r"\s*(?:[,;·•—–]|\s-)\s*(?=\|)", " ", body)
        body = re.sub(r"(?<=\|)\s*[,;·•—–]\s*", " ", body)
        body = re.sub(r"[ \t]*(?:[,;·•—–]|(?<=\s)-)[ \t]*$", "", body)
        body = re.sub(r"^((?:>\s*)*(?:[-*+]|\d{1,9}[.)])?\s*)(?:[,;·•—–]\s*)+", r"\1", body)
    body = body.rstrip(" \t")
    return indent + body + ("  " if hard_break and body else "")


def apply_line_edits(lines: list[str], edits: dict[int, list[LineEdit]], *, keep_first_line: bool = True) -> list[str]:
    """`lines` with `edits` (by line index) applied; edited lines are tidied, and an edited line left empty
    or holding only a label is dropped — except line 0 when `keep_first_line`."""
    result = []
    for index, line in enumerate(lines):
        line_edits = edits.get(index)
        if not line_edits:
            result.append(line)
            continue
        new = line
        last_start = len(line) + 1
        for edit in sorted(line_edits, key=lambda e: e.start, reverse=True):
            if edit.end > last_start:
                continue  # overlaps an edit already applied
            new = new[: edit.start] + edit.replacement + new[edit.end :]
            last_start = edit.start
        new = tidy_line(new)
        if _LABEL_ONLY.fullmatch(new) and not (keep_first_line and index == 0):
            continue
        result.append(new)
    return result
