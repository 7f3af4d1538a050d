"""One work, one item: when two items are the same work, and which of a work's copies the merged item is.

Two items are one work when
- they share a DOI or an arXiv identifier and their titles agree, or both name it in their own address: a DOI is an
  identity only where the page's title agrees (one DOI copied onto three pages of three papers names none of them);
- their titles are the same after normalisation (three words or more with the same first author, four or more
  when a first author is unknown) and their first authors do not disagree;
- one is the other's PDF (named by its tags, or a file found on its page: "Download (PDF)"), or a citation of the
  other met on the other's own page (a "Cite" string: the whole title with its authors or year around it);
- one is the other's companion: its title is the other's whole title (four words or more) with a label of at most
  four words and no number set apart before or after it ("Data for: …", "… (code)", "Poster – …"), and their first
  authors do not disagree: a repository's record of a work's data, code, slides or poster is that work's, not one
  of its own. The work's copy is then the version of record, the companion listed in `also_at`.

The merged item is the work's **version of record**, chosen by one rule whatever order the copies came in: a copy
read from its own page before one known only from a listing; then a copy with a DOI and no arXiv identifier (the
published version) before a preprint; then a copy whose address holds its DOI (the publisher's page) before one that
only names it; then the copy with more of authors, date, DOI and abstract; then the later date (a journal version
follows its preprint); then the URL, alphabetically. Its URL, title and authors are that
copy's; a field it lacks comes from the next copy that has it; every other copy's URL is listed in `also_at`.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations
from urllib.parse import unquote

from research_crawler.context.urls import try_canonicalize_url
from research_crawler.pages.person_names import surname as person_surname
from research_crawler.report.index_pages import is_file_address
from research_crawler.report.models import LISTING_SOURCES, ReportItem

__all__ = [
    "IDENTIFIER_KINDS",
    "merge_same_works",
    "normal_title",
    "same_work",
    "surname",
    "titles_agree",
    "version_of_record",
    "work_keys",
]

_ARXIV = re.compile(r"(?:arxiv\.org/(?:abs|pdf)/|arxiv:\s*)(\d{4}\.\d{4,5}|[a-z-]+(?:\.[A-Z]{2})?/\d{7})", re.I)
_DOI_IN_URL = re.compile(r"(?:doi\.org/|/doi/(?:abs/|full/|pdf/)?)(10\.\d{4,9}/[^\s?#]+)", re.I)
_VERSION = re.compile(r"v\d+$")
_YEAR = re.compile(r"\b(?:19|20)\d\d\b")
#: Titles whose words overlap this much (shared / all) agree.
_TITLES_AGREE = 0.8
#: The kinds of `work_keys` that are identifiers: they name a work only where its title agrees.
IDENTIFIER_KINDS = ("doi:", "arxiv:")
#: Fields the version of record may lack and take from the work's other copies.
_FILLED = ("authors", "date", "abstract", "doi", "pdf_url")


def normal_title(title: str) -> str:
    """`title` folded for comparison: ASCII, lower case, words of letters and digits separated by one space."""
    text = unicodedata.normalize("NFKD", title).encode("ascii", "ignore").decode().lower()
    return " ".join(re.findall(r"[a-z0-9]+", text))


def surname(author: str) -> str:
    """An author's surname (`pages.person_names.surname`: "Surname, Given", "Surname GI", "Given Surname"), folded
    as `normal_title` folds."""
    return normal_title(person_surname(author))


def _identifiers(item: ReportItem, *, own_address_only: bool = False) -> set[str]:
    """The item's DOI and arXiv identifier (without version); with `own_address_only`, only those its own URLs name."""
    keys: set[str] = set()
    urls = (item.url, *item.also_at) if own_address_only else (item.url, *item.also_at, item.pdf_url or "")
    doi = None if own_address_only else item.doi
    doi = doi or next((m.group(1) for url in urls if (m := _DOI_IN_URL.search(url))), None)
    if doi:
        keys.add("doi:" + doi.lower().rstrip("."))
    for text in urls:
        if m := _ARXIV.search(text):
            keys.add("arxiv:" + _VERSION.sub("", m.group(1).lower()))
    return keys


def work_keys(item: ReportItem) -> set[str]:
    """The identities `item` claims: its DOI, its arXiv identifier (without version), its normalised title with its
    first author's surname. A key names a work only with its title (`same_work` decides)."""
    keys = _identifiers(item)
    title = normal_title(item.title)
    if item.authors and len(title.split()) >= 3:
        keys.add(f"title:{title}|{surname(item.authors[0])}")
    return keys


def _titles_agree(first: str, second: str) -> bool:
    """Normalised titles that are the same, or nearly: a journal's small edits to its preprint's title (a word or
    two in ten), never a different number ("Part 2", "Paper 4")."""
    if not first or not second:
        return False
    if first == second:
        return True
    a, b = set(first.split()), set(second.split())
    return len(a & b) / len(a | b) >= _TITLES_AGREE and not any(re.search(r"\d", word) for word in a ^ b)


def titles_agree(first: str, second: str) -> bool:
    """Whether two titles name one work: the same after normalisation, or nearly (a word or two in ten changed,
    never a number)."""
    return _titles_agree(normal_title(first), normal_title(second))


@dataclass(frozen=True)
class _Copy:
    """What `same_work` compares of one item, read once."""

    item: ReportItem
    title: str
    surname: str
    identifiers: frozenset[str]
    own_identifiers: frozenset[str]
    url: str
    found_on: str | None
    pdf_url: str | None

    @classmethod
    def of(cls, item: ReportItem) -> _Copy:
        return cls(
            item=item,
            title=normal_title(item.title),
            surname=surname(item.authors[0]) if item.authors else "",
            identifiers=frozenset(_identifiers(item)),
            own_identifiers=frozenset(_identifiers(item, own_address_only=True)),
            url=_canonical(item.url) or item.url,
            found_on=_canonical(item.found_on),
            pdf_url=_canonical(item.pdf_url),
        )


#: What sets a companion's label apart from the work's title it repeats: a colon, a dash, a bracket.
_LABEL_MARK = re.compile(r"[:(\[\]–—]|\s-\s|\s-$|^-\s")
#: The most words a companion's label ("Supplementary data for") holds.
_LABEL_WORDS = 4


def _companion(a: _Copy, b: _Copy) -> bool:
    """Whether `a` is `b`'s companion (the rule in the module's docstring)."""
    if len(b.title.split()) < 4 or a.title == b.title or (a.surname and b.surname and a.surname != b.surname):
        return False
    padded, whole = f" {a.title} ", f" {b.title} "
    if whole not in padded:
        return False
    before, _, after = padded.partition(whole)
    label = f"{before} {after}".split()
    if not 1 <= len(label) <= _LABEL_WORDS or any(re.search(r"\d", word) for word in label):
        return False
    # the label, as the title writes it, is set apart from the work's title
    start = a.item.title.casefold().find(b.item.title.strip().casefold())
    if start < 0:
        return False
    written = a.item.title[:start] + " " + a.item.title[start + len(b.item.title.strip()) :]
    return bool(_LABEL_MARK.search(written))


def _same_title(a: _Copy, b: _Copy) -> bool:
    if not a.title or a.title != b.title:
        return False
    if a.surname and b.surname:
        return a.surname == b.surname and len(a.title.split()) >= 3
    return len(a.title.split()) >= 4


def _canonical(url: str | None) -> str | None:
    return try_canonicalize_url(url) if url else None


def _cites(citation: _Copy, work: _Copy) -> bool:
    """`citation` is `work`'s PDF (the one its tags name, or a file found on its own page: "Download (PDF)"), or a
    citation of it on its own page: the whole title with an author or a year."""
    if work.pdf_url is not None and citation.url == work.pdf_url:
        return True
    if citation.found_on == work.url and is_file_address(citation.url):
        return True
    title, text = work.title, citation.title
    if citation.found_on != work.url or len(title.split()) < 3 or title not in text or title == text:
        return False
    rest = text.replace(title, " ")
    return bool((work.surname and work.surname in rest.split()) or _YEAR.search(rest))


def _same_work(a: _Copy, b: _Copy) -> bool:
    shared = a.identifiers & b.identifiers
    if shared and (_titles_agree(a.title, b.title) or shared & a.own_identifiers & b.own_identifiers):
        return True
    return _same_title(a, b) or _cites(a, b) or _cites(b, a) or _companion(a, b) or _companion(b, a)


def same_work(a: ReportItem, b: ReportItem) -> bool:
    """Whether `a` and `b` are copies of one work (the rules in the module's docstring)."""
    return _same_work(_Copy.of(a), _Copy.of(b))


def _read_from_own_page(item: ReportItem) -> bool:
    return any(source not in LISTING_SOURCES for source in item.metadata_sources.values())


def _day_number(value: str | None) -> int:
    """A date as a sortable number (2024-03-12 → 20240312, 2024 → 20240000); 0 when there is none."""
    digits = re.sub(r"\D", "", value or "")[:8]
    return int(digits.ljust(8, "0")) if len(digits) >= 4 else 0


def _record_rank(copy: _Copy) -> tuple[bool, bool, bool, int, int, str]:
    """Sorts a work's copies, version of record first (ascending)."""
    item = copy.item
    kinds = {key.split(":", 1)[0] for key in copy.identifiers}
    published = "doi" in kinds and "arxiv" not in kinds
    doi_in_address = bool(item.doi) and str(item.doi).lower() in unquote(copy.url).lower()
    known = sum(1 for name in ("authors", "date", "doi", "abstract") if getattr(item, name))
    return (not _read_from_own_page(item), not published, not doi_in_address, -known, -_day_number(item.date), copy.url)


def version_of_record(copies: Sequence[ReportItem]) -> ReportItem:
    """The one item `copies` of a work become (the rule in the module's docstring); its rank and scores are those of
    the best-ranked copy."""
    read = [_Copy.of(copy) for copy in copies]
    # a companion (a work's data, code, poster) is never the work's version of record
    companions = {id(a) for a in read if any(_companion(a, b) for b in read if b is not a)}
    ordered = [c.item for c in sorted(read, key=lambda c: (id(c) in companions, *_record_rank(c)))]
    record, best = ordered[0], min(copies, key=lambda item: item.rank)
    filled: dict[str, object] = {}
    sources = dict(record.metadata_sources)
    for name in _FILLED:
        if getattr(record, name):
            continue
        donor = next((copy for copy in ordered[1:] if getattr(copy, name)), None)
        if donor is not None:
            filled[name] = getattr(donor, name)
            if name in donor.metadata_sources:
                sources[name] = donor.metadata_sources[name]
    also_at: list[str] = []
    for copy in ordered:
        for url in (copy.url, *copy.also_at):
            if url != record.url and url not in also_at:
                also_at.append(url)
    return record.model_copy(
        update={
            **filled,
            "rank": best.rank,
            "collector_score": best.collector_score,
            "rerank_score": best.rerank_score,
            "metadata_sources": sources,
            "also_at": also_at,
        }
    )


def merge_same_works(items: Sequence[ReportItem]) -> list[ReportItem]:
    """`items` (best first) with each work once, at the place of its best-ranked copy, as its `version_of_record`."""
    group = list(range(len(items)))

    def root(index: int) -> int:
        while group[index] != index:
            group[index] = group[group[index]]
            index = group[index]
        return index

    copies = [_Copy.of(item) for item in items]
    for i, j in combinations(range(len(items)), 2):
        if root(i) != root(j) and _same_work(copies[i], copies[j]):
            group[max(root(i), root(j))] = min(root(i), root(j))
    works: dict[int, list[ReportItem]] = {}
    for index, item in enumerate(items):
        works.setdefault(root(index), []).append(item.model_copy(update={"rank": index + 1}))
    merged = [version_of_record(copies) for _, copies in sorted(works.items())]
    return [item.model_copy(update={"rank": rank}) for rank, item in enumerate(merged, 1)]
