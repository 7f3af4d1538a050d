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
from urllib.parse import unquote

from research_crawler.pages.html_tree import MONTHS
from research_crawler.pages.metadata import normalise_date, normalise_doi
from research_crawler.report.author_claims import author_claims
from research_crawler.report.claim import Claim, FieldKind, Span, overlaps
from research_crawler.report.text_edits import removal_span

__all__ = ["find_claims"]


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
