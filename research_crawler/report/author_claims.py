"""Author names in a report entry, checked against the authors the item's page lists.

Names are checked only where a clause is an author list — after an author label (in a few languages, or a
table column so headed), behind "by", before "et al.", or when one of its names is an author of a
collected item — so a name in a sentence of prose is left alone. A name matches when each of its words is
a word or an initial of a listed author ("A. Smith" and "Smith" name "Smith, Alice").
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass

from research_crawler.report.claim import Claim, FieldKind, Span, overlaps
from research_crawler.report.text_edits import removal_span

__all__ = ["AUTHOR_LABELS", "author_claims"]

AUTHOR_LABELS = frozenset(
    {
        *("author", "authors", "by", "written by", "creator", "creators", "contributors", "first author"),
        *("autor", "autoren", "autorin", "autorinnen", "verfasser", "auteur", "auteurs", "autore", "autori"),
        *("autores", "autora", "autoras", "autorzy", "författare", "forfatter", "forfattere", "auteurs"),
        *("yazar", "yazarlar", "penulis", "pengarang", "tác giả", "автор", "авторы", "作者", "著者", "저자"),
    }
)
_BY_PREFIX = re.compile(r"^(?:by|par|por|door|przez)\s+", re.IGNORECASE)
_ET_AL = re.compile(r"\s*,?\s*\bet\s+al\b\.?\s*$", re.IGNORECASE)
_ET_AL_AFTER = re.compile(r"\s*,?\s*\bet\s+al\b\.?", re.IGNORECASE)
_PARTICLES = frozenset(
    {
        "van",
        "von",
        "der",
        "den",
        "de",
        "di",
        "da",
        "del",
        "della",
        "dos",
        "du",
        "la",
        "le",
        "ten",
        "ter",
        "bin",
        "al",
        "el",
        "zu",
        "y",
    }
)
_CONJUNCTIONS = r"(?:and|&|und|et(?!\s+al\b)|y|e|i|og|en|och|и)"
_NAME_SEPARATOR = re.compile(rf"\s*,\s*(?:{_CONJUNCTIONS}\s+)?|\s+{_CONJUNCTIONS}\s+|\s*[、，和与]\s*", re.IGNORECASE)
_NAME_SEPARATOR_SEMICOLON = re.compile(rf"\s*;\s*(?:{_CONJUNCTIONS}\s+)?|\s+{_CONJUNCTIONS}\s+", re.IGNORECASE)
_CLAUSE_DELIMITER = re.compile(
    r"\s[-—–]\s|[—–|()\[\]·•]|[:：](?:\*\*|__|\*|_)?(?=\s|$)|(?<=[^\W\d_A-Z][^\W\d_A-Z])\.(?=\s|$)|(?<=[\d)])\.(?=\s|$)"
)
_LETTERS = re.compile(r"[^\W\d_]+")
_INITIALS_ONLY = re.compile(r"^(?:[^\W\d_]\.?(?:[\s-]+|$))+$")
_LIST_MARKER = re.compile(r"^\s*(?:>\s*)*(?:[-*+]|\d{1,9}[.)])\s+")


def _name_tokens(name: str) -> list[str]:
    folded = unicodedata.normalize("NFKD", name).casefold()
    return _LETTERS.findall("".join(ch for ch in folded if not unicodedata.combining(ch)))


def _same_person(shown: str, known: str) -> bool:
    """`shown` names `known`: each of its words is one of known's words, an initial of one, or a particle,
    and at least one full word matches ("A. Smith", "Smith" and "Alice Smith" all name "Smith, Alice")."""
    shown_tokens, known_tokens = _name_tokens(shown), set(_name_tokens(known))
    full_match = False
    for token in shown_tokens:
        if token in known_tokens:
            full_match = full_match or (len(token) > 1 and token not in _PARTICLES)
        elif not (len(token) == 1 and any(k.startswith(token) for k in known_tokens)) and token not in _PARTICLES:
            return False
    return full_match


def _name_like(text: str) -> bool:
    """Looks like a person's name: 1–6 words, no digits, each word capitalised (or a particle, or in a
    script without case)."""
    words = text.split()
    if not 1 <= len(words) <= 6 or len(text) > 60 or any(ch.isdigit() for ch in text):
        return False
    for word in words:
        core = word.strip(".,'’-")
        if not core:
            return False
        first = core[0]
        if not (first.isupper() or (first.isalpha() and first.lower() == first.upper()) or core.lower() in _PARTICLES):
            return False
    return any(word.strip(".,'’-").lower() not in _PARTICLES for word in words)


@dataclass(frozen=True, slots=True)
class _NamePart:
    start: int
    end: int
    text: str


def _clauses(line: str) -> list[tuple[int, int, str]]:
    """(start, end, label) of the clauses of `line`; label is the text before the colon that opened it."""
    clauses: list[tuple[int, int, str]] = []
    position, label = 0, ""
    for match in _CLAUSE_DELIMITER.finditer(line):
        clauses.append((position, match.start(), label))
        delimiter = match.group(0)
        label = line[position : match.start()] if delimiter[0] in ":：" else ""
        position = match.end()
    clauses.append((position, len(line), label))
    return clauses


def _normalise_label(label: str) -> str:
    text = _LIST_MARKER.sub("", label).strip(" \t*_").casefold().replace("(s)", "")
    return " ".join(text.split())


def _name_parts(line: str, start: int, end: int) -> tuple[list[_NamePart], bool, bool]:
    """The names of the clause line[start:end], and whether it opened with "by" and closed with "et al."."""
    text = line[start:end]
    lead = len(text) - len(text.lstrip(" \t*_"))
    text = text.strip(" \t*_")
    by = _BY_PREFIX.match(text)
    if by:
        lead += by.end()
        text = text[by.end() :]
    et_al = _ET_AL.search(text)
    if et_al:
        text = text[: et_al.start()]
    separator = _NAME_SEPARATOR_SEMICOLON if ";" in text else _NAME_SEPARATOR
    parts, position = [], 0
    for match in [*separator.finditer(text), None]:
        part_end = match.start() if match else len(text)
        raw = text[position:part_end]
        stripped = raw.strip(" \t*_")
        if part_et_al := _ET_AL.search(stripped):  # "Smith et al., 2024": the list ends inside the clause
            stripped, et_al = stripped[: part_et_al.start()], et_al or part_et_al
        if stripped:
            offset = start + lead + position + (len(raw) - len(raw.lstrip(" \t*_")))
            parts.append(_NamePart(offset, offset + len(stripped), stripped))
        position = match.end() if match else len(text)
    return parts, bool(by), bool(et_al)


def author_claims(
    line: str,
    index: int,
    authors: Sequence[str],
    pool: Sequence[str],
    protected: Sequence[Span],
    column_labels: Sequence[str] | None,
) -> list[Claim]:
    claims: list[Claim] = []
    for start, end, clause_label in _clauses(line):
        label = clause_label
        if column_labels is not None and line.lstrip().startswith("|"):
            label = _column_label(line, start, column_labels) or label
        parts, by, et_al = _name_parts(line, start, end)
        parts = [p for p in parts if not overlaps(p.start, p.end, protected) and not _INITIALS_ONLY.match(p.text)]
        labelled = _normalise_label(label) in AUTHOR_LABELS
        names = [p for p in parts if _name_like(p.text) and (len(p.text.split()) > 1 or labelled or et_al or by)]
        if not names:
            continue
        matched = [any(_same_person(p.text, a) for a in authors) for p in names]
        in_pool = any(_same_person(p.text, a) for p in names for a in pool)
        all_names = len(names) == len(parts)
        if not (labelled or (all_names and (by or et_al or any(matched) or in_pool))):
            continue
        whole_clause = None if any(matched) else _clause_cut(line, start, names, by=by, all_names=all_names)
        for number, (part, supported) in enumerate(zip(names, matched, strict=True)):
            cut = whole_clause or ((part.start, part.end) if supported else _part_cut(names, matched, number))
            claims.append(Claim(FieldKind.AUTHOR, index, part.start, part.end, part.text, supported, cut))
    return claims


def _clause_cut(line: str, clause_start: int, names: list[_NamePart], *, by: bool, all_names: bool) -> Span:
    """The whole author list (its "by" and "et al." included, and its label when nothing else is in it)."""
    start, end = names[0].start, names[-1].end
    if tail := _ET_AL_AFTER.match(line, end):
        end = len(line[: tail.end()].rstrip())
    if by:
        start = clause_start + len(line[clause_start:start]) - len(line[clause_start:start].lstrip(" \t*_"))
    return removal_span(line, start, end, with_label=all_names)


def _part_cut(names: list[_NamePart], matched: list[bool], number: int) -> Span:
    """One name out of a list that keeps at least one name: with the separator before it when a kept name
    precedes it, else with the separator after it (so that cuts of neighbouring names never overlap)."""
    part = names[number]
    if any(matched[:number]):
        return names[number - 1].end, part.end
    return part.start, names[number + 1].start


def _column_label(line: str, position: int, column_labels: Sequence[str]) -> str | None:
    column = line[:position].count("|") - (1 if line.lstrip().startswith("|") else 0)
    return column_labels[column] if 0 <= column < len(column_labels) else None
