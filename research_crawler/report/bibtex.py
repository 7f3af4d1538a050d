"""BibTeX for the report's papers: one ``@misc`` entry per item (preprints are @misc by convention),
built and written with bibtexparser, text fields LaTeX-escaped with pylatexenc.

Fields come from the page's own metadata only: title, author, year, month, date (biblatex, ISO 8601), doi,
url, eprint and archiveprefix for arXiv pages, and a note naming the site it was found on. An item with
no authors or date still gives a valid entry.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from urllib.parse import quote

import bibtexparser
from bibtexparser.middlewares import MonthAbbreviationMiddleware
from bibtexparser.model import Entry, Field
from pylatexenc.latexencode import UnicodeToLatexEncoder

from research_crawler.context.urls import host_of
from research_crawler.pages.metadata import normalise_date, normalise_doi
from research_crawler.pages.person_names import NAME_PARTICLES, surname
from research_crawler.report.models import ReportItem

__all__ = ["citation_key", "to_bibtex"]

_ENCODER = UnicodeToLatexEncoder(
    non_ascii_only=False,  # also & % $ # _ { } ~ ^ \ — BibTeX passes field text to LaTeX as is
    replacement_latex_protection="braces-all",
    unknown_char_policy="keep",  # CJK and other scripts without a LaTeX macro stay as UTF-8
    unknown_char_warning=False,
)
_KEY_STOPWORDS = frozenset(
    {
        "a",
        "an",
        "the",
        "on",
        "of",
        "in",
        "for",
        "to",
        "and",
        "with",
        "towards",
        "toward",
        "from",
        "by",
        "at",
        "via",
        "is",
        "are",
        "do",
        "does",
        "how",
        "what",
        "why",
        "when",
    }
)
_ISO_DATE = re.compile(r"^(\d{4})(?:-(\d{2})(?:-(\d{2}))?)?$")
_YEAR = re.compile(r"\b(1[5-9]\d{2}|20\d{2})\b")
_ARXIV = re.compile(
    r"^https?://(?:www\.|export\.)?arxiv\.org/(?:abs|pdf)/(?P<id>[^?#\s]+?)(?:\.pdf)?/?(?:[?#].*)?$", re.IGNORECASE
)
_AND = re.compile(r"\band\b", re.IGNORECASE)


def _latex(text: str) -> str:
    return str(_ENCODER.unicode_to_latex(" ".join(text.split())))


def _title(text: str) -> str:
    """The title escaped, with words that carry capitals after their first letter ("CRISPR", "AlphaFold",
    "mRNA") braced so that bibliography styles which lower-case titles leave them alone."""
    words = []
    for word in text.split():
        encoded = _latex(word)
        words.append(f"{{{encoded}}}" if any(ch.isupper() for ch in word[1:]) else encoded)
    return " ".join(words)


def _author(name: str) -> str:
    """One name for the ``and``-joined author list; a name that itself contains "and" is braced whole."""
    encoded = _latex(name)
    return f"{{{encoded}}}" if _AND.search(name) else encoded


def _verbatim(value: str) -> str:
    """A URL or DOI as BibTeX reads it verbatim: braces, backslashes and whitespace percent-encoded."""
    return quote(value.strip(), safe="".join(chr(c) for c in range(33, 127) if chr(c) not in "{}\\"))


def _date_parts(raw: str | None) -> tuple[str | None, int | None, str | None]:
    """(year, month, ISO date) of an item's date, each None when unknown."""
    if not raw:
        return None, None, None
    text = normalise_date(raw)
    if match := _ISO_DATE.match(text):
        month = int(match.group(2)) if match.group(2) else None
        return match.group(1), month if month and 1 <= month <= 12 else None, text
    found = _YEAR.search(text)
    return (found.group(1) if found else None), None, None


def _ascii_word(text: str) -> str:
    folded = unicodedata.normalize("NFKD", text)
    return re.sub(r"[^a-z0-9]", "", folded.encode("ascii", "ignore").decode().lower())


def _key_name(name: str) -> str:
    """A name's part of a citation key: its surname (`pages.person_names.surname`, "Petrova" of "Petrova R") without
    the particles that open it, as BibTeX styles leave them out of labels ("beethoven" of "Ludwig van Beethoven"),
    ASCII lower case ("" for a name with no ASCII letter)."""
    words = surname(name).split()
    while len(words) > 1 and words[0].casefold() in NAME_PARTICLES:
        words.pop(0)
    return _ascii_word("".join(words))


def citation_key(item: ReportItem) -> str:
    """First author's surname (`_key_name`) + year + first significant title word, ASCII lower-case
    ("smith2024diffusion"); the parts that are unknown are left out, and "item" stands in when all are."""
    family = _key_name(item.authors[0]) if item.authors else ""
    year = _date_parts(item.date)[0] or ""
    words = [_ascii_word(word) for word in item.title.split()]
    word = next((w for w in words if w and w not in _KEY_STOPWORDS), "")
    return f"{family}{year}{word}" or "item"


def _unique(key: str, taken: set[str]) -> str:
    """`key`, or `key` with the first free suffix b, c, …, z, then 27, 28, …"""
    candidate, suffixes = key, iter([*"bcdefghijklmnopqrstuvwxyz"])
    counter = 27
    while candidate in taken:
        suffix = next(suffixes, None)
        if suffix is None:
            suffix, counter = str(counter), counter + 1
        candidate = f"{key}{suffix}"
    taken.add(candidate)
    return candidate


def _entry(item: ReportItem, key: str) -> Entry:
    fields = [Field("title", _title(item.title))] if item.title.strip() else []
    authors = [name for name in (" ".join(a.split()) for a in item.authors) if name]
    if authors:
        fields.append(Field("author", " and ".join(_author(name) for name in authors)))
    year, month, iso_date = _date_parts(item.date)
    if year:
        fields.append(Field("year", year))
    if month:
        fields.append(Field("month", str(month)))
    if iso_date and month:  # a bare year says nothing "year" does not
        fields.append(Field("date", iso_date))
    if item.doi and (doi := normalise_doi(item.doi)):
        fields.append(Field("doi", _verbatim(doi)))
    fields.append(Field("url", _verbatim(item.url)))
    if arxiv := _ARXIV.match(item.url):
        fields += [Field("eprint", _verbatim(arxiv.group("id"))), Field("archiveprefix", "arXiv")]
    fields.append(Field("note", _latex(f"Found on {host_of(item.site) or item.site}")))
    return Entry("misc", key, fields)


def to_bibtex(items: Sequence[ReportItem]) -> str:
    """The items as a BibTeX file (one @misc entry each, keys unique within the file); "" for no items."""
    library = bibtexparser.Library()
    taken: set[str] = set()
    for item in items:
        library.add(_entry(item, _unique(citation_key(item), taken)))
    if not library.entries:
        return ""
    return str(bibtexparser.write_string(library, prepend_middleware=[MonthAbbreviationMiddleware()]))
