"""The fields a report entry shows — dates, DOIs, author names — found in its lines and checked against
the metadata read from the item's own page, with the span to cut when a field is not supported.

Detection is structural, so it works whatever the report's language: a DOI is a ``10.x/y`` string; a date
is an ISO, numeric or English month-name date anywhere, or a bare year standing in its own segment
("(2023)", "Smith, 2023", "Date: 2023", "Mai 2023" in a table cell) — a year inside a sentence ("improves
on the 2021 method") is prose, not a field. Author names: see `author_claims`.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from urllib.parse import unquote

from research_crawler.pages.html_tree import MONTHS
from research_crawler.pages.metadata import normalise_date, normalise_doi
from research_crawler.pages.person_names import NAME_PARTICLES, same_person
from research_crawler.report.text_edits import removal_span

__all__ = ["AUTHOR_LABELS", "Claim", "FieldKind", "Span", "author_claims", "find_claims", "overlaps"]


# One field a report entry shows — a date, a DOI, an author name — with its verdict against the item's metadata and
# the span of its line to cut when the metadata does not support it.


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


_YEAR = r"(?:19|20)\d{2}"
_MONTH_NAME = (
    r"Jan(?:uary)?|Feb(?:ruary)?|Mar(?:ch)?|Apr(?:il)?|May|June?|July?|Aug(?:ust)?|Sept?(?:ember)?|"
    r"Oct(?:ober)?|Nov(?:ember)?|Dec(?:ember)?"
)
_DATE = re.compile(
    rf"""(?<![\w./\-])(?:
        (?P<y1>{_YEAR})-(?P<m1>\d{{1,2}})(?:-(?P<d1>\d{{1,2}}))?
      | (?P<y2>{_YEAR})/(?P<m2>\d{{1,2}})/(?P<d2>\d{{1,2}})
      | (?P<y3>{_YEAR})\.(?P<m3>\d{{1,2}})\.(?P<d3>\d{{1,2}})
      | (?P<a4>\d{{1,2}})[./](?P<b4>\d{{1,2}})[./](?P<y4>{_YEAR})
      | (?:(?P<d5>\d{{1,2}})(?:st|nd|rd|th)?\.?\s+)?(?P<mon5>{_MONTH_NAME})\.?\s+
        (?:(?P<d6>\d{{1,2}})(?:st|nd|rd|th)?,?\s+)?(?P<y5>{_YEAR})
      | (?P<y6>{_YEAR})
    )(?![\w/\-]|[.\-]\d)""",
    re.VERBOSE,
)
_SEGMENT_DELIMITERS = "|()[],;·•—–:："
_FIELD_SEGMENT = r"^(?:(?:[^\W\d_]{{1,12}}\.?|\d{{1,2}}(?:st|nd|rd|th)?\.?)\s+){{0,3}}{date}$"
_DOI = re.compile(r"(?<![\w.])10\.\d{4,9}/[^\s\"<>|\[\]{}`]+")
_DOI_PREFIX = re.compile(r"\bdoi(?::\s?|\s)$", re.IGNORECASE)
_LIST_MARKER = re.compile(r"^\s*(?:>\s*)*(?:[-*+]|\d{1,9}[.)])\s+")


# ---------------------------------------------------------------------------------------------- dates


def _parse_item_date(raw: str | None) -> tuple[int | None, int | None, int | None]:
    if not raw:
        return None, None, None
    text = normalise_date(raw)
    if match := re.fullmatch(r"(\d{4})(?:-(\d{2})(?:-(\d{2}))?)?", text):
        return tuple(int(part) if part else None for part in match.groups())  # type: ignore[return-value]
    if match := re.search(rf"\b{_YEAR}\b", text):
        return int(match.group(0)), None, None
    return None, None, None


def _date_supported(shown: tuple[int, int | None, int | None], item: tuple[int | None, int | None, int | None]) -> bool:
    """The shown date agrees with the item's in every part it shows, and shows no part the item lacks."""
    return all(part is None or part == known for part, known in zip(shown, item, strict=True))


def _segment(line: str, start: int, end: int) -> Span:
    """The stretch around line[start:end] up to the nearest separators (brackets, pipes, commas, dashes,
    colons, sentence ends), trimmed of spaces, emphasis marks and a leading list marker."""
    left = start
    while (
        left > 0
        and line[left - 1] not in _SEGMENT_DELIMITERS
        and line[max(0, left - 3) : left] != " - "
        and not (
            line[left - 1] == " "
            and left >= 3
            and line[left - 2] == "."
            and (line[left - 3].islower() or line[left - 3].isdigit())
        )
    ):
        left -= 1
    right = end
    while (
        right < len(line)
        and line[right] not in _SEGMENT_DELIMITERS
        and line[right : right + 3] != " - "
        and not (line[right] == "." and (right + 1 == len(line) or line[right + 1] == " "))
    ):
        right += 1
    if left == 0 and (marker := _LIST_MARKER.match(line)) and marker.end() <= start:
        left = marker.end()
    while left < start and line[left] in " \t*_":
        left += 1
    while right > end and line[right - 1] in " \t*_":
        right -= 1
    return left, right


def _date_claims(line: str, index: int, item_date: str | None, protected: Sequence[Span]) -> list[Claim]:
    known = _parse_item_date(item_date)
    claims = []
    for match in _DATE.finditer(line):
        start, end = match.span()
        if overlaps(start, end, protected):
            continue
        seg_start, seg_end = _segment(line, start, end)
        in_field_position = bool(
            re.match(_FIELD_SEGMENT.format(date=re.escape(match.group(0))), line[seg_start:seg_end])
        )
        if match["y6"] is not None and not in_field_position:
            continue  # a year inside a sentence is prose
        cut_start, cut_end = (seg_start, seg_end) if in_field_position else (start, end)
        candidates = _shown_dates(match)
        supported = any(_date_supported(shown, known) for shown in candidates)
        claims.append(
            Claim(
                FieldKind.DATE,
                index,
                cut_start,
                cut_end,
                line[cut_start:cut_end],
                supported,
                removal_span(line, cut_start, cut_end),
            )
        )
    return claims


def _shown_dates(match: re.Match[str]) -> list[tuple[int, int | None, int | None]]:
    def num(value: str | None) -> int | None:
        return int(value) if value else None

    for suffix in "123":
        if match[f"y{suffix}"]:
            return [(int(match[f"y{suffix}"]), num(match[f"m{suffix}"]), num(match[f"d{suffix}"]))]
    if match["y4"]:  # day.month.year or month/day/year: either reading may be meant
        first, second = int(match["a4"]), int(match["b4"])
        return [(int(match["y4"]), second, first), (int(match["y4"]), first, second)]
    if match["y5"]:
        month = MONTHS[match["mon5"].lower().rstrip(".")]
        return [(int(match["y5"]), month, num(match["d5"] or match["d6"]))]
    return [(int(match["y6"]), None, None)]


# ---------------------------------------------------------------------------------------------- DOIs


def _doi_claims(line: str, index: int, item_doi: str | None, protected: Sequence[Span]) -> list[Claim]:
    known = (normalise_doi(item_doi) or "").casefold() if item_doi else ""
    claims = []
    for match in _DOI.finditer(line):
        start, end = match.start(), match.start() + len(_trim_doi(match.group(0)))
        if overlaps(start, end, protected):
            continue
        if prefix := _DOI_PREFIX.search(line, 0, start):
            start = prefix.start()
        shown = _trim_doi(match.group(0))
        supported = bool(known) and unquote(shown).casefold() == known
        claims.append(Claim(FieldKind.DOI, index, start, end, shown, supported, removal_span(line, start, end)))
    return claims


def _trim_doi(doi: str) -> str:
    while doi and (doi[-1] in ".,;:*_'\"" or (doi[-1] == ")" and doi.count(")") > doi.count("("))):
        doi = doi[:-1]
    return doi


# ---------------------------------------------------------------------------------------------- all


def find_claims(
    lines: Sequence[str],
    *,
    authors: Sequence[str],
    date: str | None,
    doi: str | None,
    author_pool: Sequence[str],
    protected: Sequence[Sequence[Span]],
    column_labels: Sequence[str] | None = None,
) -> list[Claim]:
    """Every date, DOI and author name shown in `lines`, each judged against the item's metadata.

    `protected[i]` are spans of line i that are not fields (the title, URLs, code); `author_pool` holds
    the authors of all collected items, so a name moved from one item to another is recognised as an
    author name. `column_labels` are the header cells when `lines` is a table row.
    """
    claims: list[Claim] = []
    for index, line in enumerate(lines):
        spans = list(protected[index]) if index < len(protected) else []
        dois = _doi_claims(line, index, doi, spans)
        spans += [(claim.start, claim.end) for claim in dois]
        claims += dois
        dates = _date_claims(line, index, date, spans)
        spans += [(claim.start, claim.end) for claim in dates]
        claims += dates
        claims += author_claims(line, index, authors, author_pool, spans, column_labels)
    return claims


# Author names in a report entry, checked against the authors the item's page lists. Names are checked only where a
# clause is an author list — after an author label (in a few languages, or a table column so headed), behind "by",
# before "et al.", or when one of its names is an author of a collected item — so a name in a sentence of prose is
# left alone. A name matches when each of its words is a word or an initial of a listed author ("A. Smith" and "Smith"
# name "Smith, Alice").


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
_CONJUNCTIONS = r"(?:and|&|und|et(?!\s+al\b)|y|e|i|og|en|och|и)"
_NAME_SEPARATOR = re.compile(rf"\s*,\s*(?:{_CONJUNCTIONS}\s+)?|\s+{_CONJUNCTIONS}\s+|\s*[、，和与]\s*", re.IGNORECASE)
_NAME_SEPARATOR_SEMICOLON = re.compile(rf"\s*;\s*(?:{_CONJUNCTIONS}\s+)?|\s+{_CONJUNCTIONS}\s+", re.IGNORECASE)
_CLAUSE_DELIMITER = re.compile(
    r"\s[-—–]\s|[—–|()\[\]·•]|[:：](?:\*\*|__|\*|_)?(?=\s|$)|(?<=[^\W\d_A-Z][^\W\d_A-Z])\.(?=\s|$)|(?<=[\d)])\.(?=\s|$)"
)
_INITIALS_ONLY = re.compile(r"^(?:[^\W\d_]\.?(?:[\s-]+|$))+$")


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
        caseless = first.isalpha() and first.lower() == first.upper()
        if not (first.isupper() or caseless or core.lower() in NAME_PARTICLES):
            return False
    return any(word.strip(".,'’-").lower() not in NAME_PARTICLES for word in words)


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
        matched = [any(same_person(p.text, a) for a in authors) for p in names]
        in_pool = any(same_person(p.text, a) for p in names for a in pool)
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
