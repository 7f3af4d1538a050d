"""The page-understanding corpus: real saved pages of many academic sites, each with what a person read off it.

The corpus is kept in the repository (``benchmarks/pagecorpus``; ``$RESEARCH_CRAWLER_PAGECORPUS`` or
``../shared/pagecorpus`` name another): ``MANIFEST.tsv`` names each page's file (gzip), site, provenance
(repository, path, commit, licence) and its part — ``dev`` (read while developing), ``heldout`` (chosen at random by
a seeded script before any page was read, and never read while developing), ``development2``/``heldout2`` to
``development7``/``heldout7`` (later batches, split the same way), ``heldout8`` (a batch held out whole),
``development9``/``heldout9`` (the ninth batch, split the same way), ``heldout10`` to ``heldout13`` (the tenth to
the thirteenth batches, each held out whole, mostly pages of sites that are not academic),
``development12``/``development13`` (the twelfth and thirteenth batches rebuilt in the repository after the first
corpus was lost), ``academic`` (academic pages), ``heldout14`` to ``heldout26`` (batches held out whole) or
``dropped`` (with the reason).
``labels/<id>.json`` holds what a person read off the page: the kind of page, its title, first author's surname,
number of authors and date for an item page; the links to the items for a listing; whether a person could search
the site from it. No label comes from a parser. This module reads the corpus and says whether an answer agrees with a
label.
"""

from __future__ import annotations

import csv
import gzip
import json
import os
import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from research_crawler.errors import ConfigError
from research_crawler.web.html_body import decode_html_as

__all__ = [
    "CorpusPage",
    "PageLabels",
    "author_count_matches",
    "corpus_parts",
    "exact_date_matches",
    "find_page_corpus",
    "first_author_matches",
    "read_page_corpus",
    "title_matches",
    "year_matches",
]

PageKind = Literal["item", "listing", "search", "other", "blocked"]
Part = Literal[
    "dev",
    "heldout",
    "development2",
    "heldout2",
    "development3",
    "heldout3",
    "development4",
    "heldout4",
    "development5",
    "heldout5",
    "development6",
    "heldout6",
    "development7",
    "heldout7",
    "heldout8",
    "development9",
    "heldout9",
    "heldout10",
    "heldout11",
    "heldout12",
    "heldout13",
    "development12",
    "development13",
    "academic",
    "heldout14",
    "heldout15",
    "heldout16",
    "heldout17",
    "heldout18",
    "heldout19",
    "heldout20",
    "heldout21",
    "heldout22",
    "heldout23",
    "heldout24",
    "heldout25",
    "heldout26",
    "dropped",
]

_YEAR = re.compile(r"(1[5-9]\d\d|20\d\d)")


@dataclass(frozen=True)
class PageLabels:
    """What a person read off one page. Absent fields were not judged (a listing has no first author)."""

    page_kind: PageKind
    original_url: str
    title: str | None = None
    title_also: tuple[str, ...] = ()
    first_author: str | None = None
    authors_count: int | None = None
    date: str | None = None
    date_also: tuple[str, ...] = ()
    item_links: tuple[str, ...] = ()
    search_form: Literal["usable", "none", "js"] = "none"
    notes: str = ""


@dataclass(frozen=True)
class CorpusPage:
    """One saved page: where it is, where it came from, and its labels."""

    id: str
    file: Path
    site: str
    part: Part
    source: str
    licence: str
    labels: PageLabels
    extra: dict[str, str] = field(default_factory=dict)

    def html(self) -> str:
        """The page decoded as a browser would (BOM, ``<meta charset>``, else UTF-8)."""
        _, text = decode_html_as(gzip.decompress(self.file.read_bytes()), None)
        return text

    @property
    def is_item(self) -> bool:
        return self.labels.page_kind == "item"

    @property
    def is_listing(self) -> bool:
        return self.labels.page_kind in ("listing", "search")


def read_page_corpus(root: Path, parts: Sequence[Part] = ("dev", "heldout")) -> list[CorpusPage]:
    """The pages of the corpus at `root` in `parts`, in the manifest's order.

    Raises ConfigError when the manifest is missing or a listed page has no file or no labels.
    """
    manifest = root / "MANIFEST.tsv"
    try:
        with manifest.open(encoding="utf-8") as handle:
            rows = list(csv.DictReader(handle, delimiter="\t"))
    except OSError as exc:
        raise ConfigError(f"the page corpus is not readable at {root}: {exc}") from exc
    pages = []
    for row in rows:
        if row["part"] not in parts:
            continue
        file = root / "pages" / row["file"]
        label_file = root / "labels" / f"{row['id']}.json"
        if not file.is_file() or not label_file.is_file():
            raise ConfigError(f"{row['id']}: its page or its labels are missing under {root}")
        raw = json.loads(label_file.read_text(encoding="utf-8"))
        labels = PageLabels(
            page_kind=raw["page_kind"],
            original_url=raw.get("original_url") or "",  # null where the page names no address of its own
            title=raw.get("title"),
            title_also=tuple(raw.get("title_also", ())),
            first_author=raw.get("first_author"),
            authors_count=raw.get("authors_count"),
            date=raw.get("date"),
            date_also=tuple(_as_list(raw.get("date_also"))),
            item_links=tuple(raw.get("item_links", ())),
            search_form=raw.get("search_form", "none"),
            notes=raw.get("notes", ""),
        )
        pages.append(
            CorpusPage(
                id=row["id"],
                file=file,
                site=raw.get("site", row["site"]),
                part=row["part"],  # type: ignore[arg-type]
                source=f"{row['source_repo']}:{row['source_path']}@{row['source_commit'][:12]}",
                licence=row["licence"],
                labels=labels,
            )
        )
    return pages


def title_matches(labels: PageLabels, title: str | None) -> bool:
    """Whether `title` is the page's title: the same words as the label (or an accepted variant), whatever the
    case, accents, punctuation and spacing."""
    if labels.title is None:
        return True
    got = _words(title or "")
    return bool(got) and any(got == _words(expected) for expected in (labels.title, *labels.title_also))


def first_author_matches(labels: PageLabels, authors: Sequence[str]) -> bool:
    """Whether the first of `authors` is the labelled first author: every word of the labelled surname is a word
    of that name. A page that shows no author (count 0) matches no author given."""
    if labels.authors_count == 0:
        return not authors
    if labels.first_author is None:
        return True
    if not authors:
        return False
    expected = _words(labels.first_author).split()
    got = set(_words(authors[0]).split())
    return bool(expected) and all(word in got for word in expected)


def author_count_matches(labels: PageLabels, authors: Sequence[str]) -> bool:
    return labels.authors_count is None or len(authors) == labels.authors_count


def year_matches(labels: PageLabels, date: str | None) -> bool:
    """Whether `date` has the labelled year (or an accepted one); a page that shows no date matches no date."""
    got = _year(date)
    accepted = [labels.date, *labels.date_also]
    if got is None:
        return labels.date is None or "none" in accepted
    return any(value not in (None, "none") and _year(value) == got for value in accepted)


def exact_date_matches(labels: PageLabels, date: str | None) -> bool | None:
    """Whether the labelled full date (YYYY-MM-DD) is the date read, or the label's own date as written (a month
    where the page shows a run of days, "1-4 June 2004", and accepts either day); None when the label has no day.
    No date read is right where the label accepts "none" too — as its date (a page that shows no date of its own, whose
    other dates a reader may fairly take) or among the dates also accepted — as the year's check says."""
    accepted = [value for value in (labels.date, *labels.date_also) if value and len(value) == 10]
    if not accepted:
        return None
    if not date:
        return "none" in (labels.date, *labels.date_also)
    return str(date)[:10] in accepted or str(date) == labels.date


def _year(value: str | None) -> str | None:
    match = _YEAR.search(value or "")
    return match.group(1) if match else None


def _words(text: str) -> str:
    """`text` reduced to its words: NFKD without accents, casefolded, punctuation and spacing removed."""
    decomposed = unicodedata.normalize("NFKD", text)
    plain = "".join(ch for ch in decomposed if not unicodedata.combining(ch)).casefold()
    return " ".join(re.findall(r"[^\W_]+", plain))


def _as_list(value: object) -> list[str]:
    if value is None:
        return []
    if isinstance(value, str):
        return [value]
    return [str(item) for item in value]  # type: ignore[attr-defined]


def find_page_corpus(project: Path, given: str | None = None, *, part: str | None = None) -> Path | None:
    """The corpus: `given`, else ``$RESEARCH_CRAWLER_PAGECORPUS``, else the first of the repository's own
    (``benchmarks/pagecorpus`` in the `project` directory), ``../shared/pagecorpus`` and ``../pagecorpus`` beside it
    that holds a MANIFEST.tsv — and lists `part`, when one is named; None when none is found."""
    for named in (given, os.environ.get("RESEARCH_CRAWLER_PAGECORPUS")):
        if named:
            return Path(named)
    places = (
        project / "benchmarks" / "pagecorpus",
        project.parent / "shared" / "pagecorpus",
        project.parent / "pagecorpus",
    )
    return next((path for path in places if _holds(path, part)), None)


def corpus_parts(root: Path) -> set[str]:
    """The parts the manifest at `root` lists (empty when there is no manifest)."""
    try:
        with (root / "MANIFEST.tsv").open(encoding="utf-8") as handle:
            return {row["part"] for row in csv.DictReader(handle, delimiter="\t")}
    except OSError:
        return set()


def _holds(root: Path, part: str | None) -> bool:
    return (root / "MANIFEST.tsv").is_file() and (part is None or part in corpus_parts(root))
