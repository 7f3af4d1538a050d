"""HELD OUT, and fresh (twentieth batch): three more sites built as a RePEc/IDEAS-like index of economics working
papers, a SciELO-like regional collection of open-access journals and a PhilPapers-like categorised bibliography of
philosophy are, on topics no other testbed site holds (`fresh_heldout20_topics.toml`), written with their requests
and ground truth before the crawler was ever run on them. Do not read or tune anything to this module, to
`fresh_heldout20_econ.py`, `fresh_heldout20_scielo.py`, `fresh_heldout20_philbib.py` or the topics file: their first
run is the measure.

- EconLit Index (`fresh20-econ`, in `fresh_heldout20_econ.py`): an index of economics working papers as IDEAS
  shows RePEc: archives of institutions, each a working-paper series listed on one page under year headings; NEP
  reports (weekly announcement issues of new papers in a field, archived by date); a record per paper headed by
  its RePEc handle, its registered and listed authors, "Date: 2024-03-12" written as the series deposits it, JEL
  codes, keywords, the suggested citation and the published version in a journal where there is one (one work, two
  sites); author pages of registered authors. Its search, reference lists and corrections are forbidden.
- SciLAT Austral (`fresh20-scielo`, in `fresh_heldout20_scielo.py`): a SciELO-like collection of open-access
  journals in Spanish and Portuguese: journals alphabetically and by subject, a journal's grid of issues by year, an
  issue's table of contents by section with each article's languages, article pages in the journal's language with
  "Recibido / Aceptado / Publicado" dates written in Spanish, authors with superscript affiliations, "Cómo citar",
  citation meta tags, and the working paper a published article first appeared as. Its search is forbidden.
- PhilIndex (`fresh20-philbib`, in `fresh_heldout20_philbib.py`): a PhilPapers-like bibliography of philosophy:
  areas, categories and leaf categories edited by volunteers, a category's entries (its sub-categories' entries
  included) ten at a time ordered by first author, with "next ›" offsets and a link to order them by year; entries
  written "Surname, Given & Surname, Given (2024). Title. Journal 12 (3):45-67."; records with the year only, the
  date they were added to the index, keywords, categories and similar works; profile pages of authors. Its
  advanced search, exports and bookmarks are forbidden.
"""

from __future__ import annotations

import hashlib
import re
from datetime import date

from research_crawler.eval.testbed.models import SiteSpec

__all__ = [
    "ARCHIVES",
    "FRESH20_BATCH",
    "FRESH20_PER_TOPIC",
    "FRESH20_PLANS",
    "FRESH20_SITE_SPECS",
    "FRESH20_TOPICS_FILE",
    "JOURNALS",
    "archive_of",
    "fresh20_identity",
    "journal_of",
    "paper_number",
    "philpapers_id",
    "scielo_pid",
]

#: The twentieth batch's own topics and near misses (the format of `unfamiliar_topics.toml`), held out with it.
FRESH20_TOPICS_FILE = "fresh_heldout20_topics.toml"

FRESH20_SITE_SPECS: tuple[SiteSpec, ...] = (
    SiteSpec(
        name="fresh20-econ",
        title="EconLit Index",
        layout="fresh20-econ",
        tagline="Working papers in economics from research institutions of the region",
        categories={
            "remittances-schooling": "Economics of Human Migration",
            "savings-groups": "Microfinance",
            "remittance-other": "Economics of Human Migration",
            "savings-other": "Microfinance",
        },
    ),
    SiteSpec(
        name="fresh20-scielo",
        title="SciLAT Austral",
        layout="fresh20-scielo",
        tagline="Scientific Electronic Library Online: open-access journals of the southern cone",
        categories={
            "remittances-schooling": "Migración y desarrollo",
            "street-vending": "Economía urbana",
            "remittance-other": "Migración y desarrollo",
            "vending-other": "Economía urbana",
        },
    ),
    SiteSpec(
        name="fresh20-philbib",
        title="PhilIndex",
        layout="fresh20-philbib",
        tagline="A categorised bibliography of philosophy",
        categories={
            "testimonial-injustice": "Epistemic Injustice",
            "resultant-luck": "Moral Luck",
            "injustice-other": "Epistemic Injustice",
            "luck-other": "Moral Luck",
        },
    ),
)
#: Each site's requests, as `unfamiliar_corpus.UNFAMILIAR_PLANS` writes them.
FRESH20_PLANS: dict[str, tuple[str, ...]] = {
    "fresh20-econ": ("topic", "recent", "author", "cross:fresh20-scielo"),
    "fresh20-scielo": ("recent", "recent", "topic", "year"),
    "fresh20-philbib": ("topic", "author", "year"),
}
#: Papers per topic on each site (the index and the collection share works: at most 10 between them).
FRESH20_PER_TOPIC: dict[str, tuple[int, int]] = {
    "fresh20-econ": (5, 6),
    "fresh20-scielo": (4, 4),
    "fresh20-philbib": (7, 9),
}
#: Works on two sites: working papers the index lists, whose published versions a journal of the collection holds.
FRESH20_SHARED: dict[tuple[str, str], tuple[str, ...]] = {
    ("fresh20-econ", "fresh20-scielo"): ("remittances-schooling",),
}
#: What `unfamiliar_corpus` adds, from its own random stream: the sites, requests and shared works.
FRESH20_BATCH = (FRESH20_SITE_SPECS, FRESH20_PLANS, FRESH20_SHARED)

#: The index's archives (RePEc code → the institution's working-paper series); a paper's archive is its institution.
ARCHIVES: dict[str, tuple[str, str]] = {
    "cor": ("Documentos de Trabajo", "Instituto de Economía, Universidad de Coromandel"),
    "hil": ("Working Papers", "Halden Institute for Labour Studies"),
    "cdf": ("Discussion Papers", "Centre for Development Finance, Ostend"),
    "bcv": ("Documentos de Trabajo", "Banco Central de Valdivia"),
}
#: The collection's journals (acronym → title, ISSN, language); an article's journal is fixed by its PID.
JOURNALS: dict[str, tuple[str, str, str]] = {
    "rede": ("Revista de Economía y Desarrollo", "0718-4471", "es"),
    "cdes": ("Cadernos de Desenvolvimento e Sociedade", "1983-2265", "pt"),
}
_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"


def _digest(title: str) -> int:
    return int(hashlib.sha1(title.encode()).hexdigest()[:12], 16)


def archive_of(title: str) -> str:
    """The RePEc code of the institution whose series issued the working paper."""
    return tuple(ARCHIVES)[_digest(title) % len(ARCHIVES)]


def journal_of(title: str) -> str:
    """The acronym of the journal that published the article."""
    return tuple(JOURNALS)[_digest(title) // 7 % len(JOURNALS)]


def paper_number(day: date, serial: int) -> str:
    """A working paper's number in its series ('2024-37')."""
    return f"{day.year}-{serial:02d}"


def scielo_pid(title: str) -> str:
    """The 23-character identifier of an article in the collection ('XbVqK8mNpTz4wQrL2sDf7Gh')."""
    number, letters = _digest(title + "#pid"), []
    for _ in range(23):
        number, rest = divmod(number * 7919 + 104_729, len(_ALPHABET))
        letters.append(_ALPHABET[rest])
    return "".join(letters)


def philpapers_id(title: str, serial: int) -> str:
    """A record's identifier as the bibliography coins it from the title and a number ('RESFAB-37')."""
    words = [w for w in re.findall(r"[A-Za-z]+", title) if w.lower() not in {"a", "an", "the", "of", "and", "in"}]
    core = (words[0][:3] + "".join(w[0] for w in words[1:4])).upper()
    return f"{core}-{serial}"


def fresh20_identity(layout: str, day: date, serial: int, title: str) -> tuple[str, str, str, str | None, str | None]:
    """(key, path, PDF path, DOI, preprint id) of an item of the twentieth fresh batch."""
    if layout == "fresh20-econ":
        code, number = archive_of(title), paper_number(day, serial)
        return (
            f"RePEc:{code}:wpaper:{number}",
            f"/p/{code}/wpaper/{number}.html",
            f"/files/{code}/wp{number.replace('-', '')}.pdf",
            None,
            None,
        )
    if layout == "fresh20-scielo":
        acronym, pid = journal_of(title), scielo_pid(title)
        issn = JOURNALS[acronym][1]
        doi = f"10.4067/S{issn}{day.year}000{(day.month - 1) // 3 + 1}{serial:05d}"
        return pid, f"/j/{acronym}/a/{pid}/", f"/j/{acronym}/a/{pid}/pdf", doi, None
    record = philpapers_id(title, serial)
    return record, f"/rec/{record}", f"/archive/{record}.pdf", None, None
