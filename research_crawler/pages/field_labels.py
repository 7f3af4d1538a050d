"""The labels a page writes before a value ("Author(s):", "Jahr", "Date deposited", a DSpace ``dc.title`` row), by
what the value is: a title, the authors, the publication date, or another field (dates of other events than
publication — an update, a deposit, a receipt — are "other"), in the languages of the page corpus's pages."""

from __future__ import annotations

import re
from typing import Literal

__all__ = ["GENERIC_HEADING_WORDS", "FieldKind", "label_kind"]

FieldKind = Literal["title", "authors", "date", "other"]

#: The words of headings that name a kind of page or a part of one, never an item ("Publication details", "Abstract").
GENERIC_HEADING_WORDS = frozenset(
    [
        "abstract",
        "abstracts",
        "article",
        "articles",
        "details",
        "detail",
        "publication",
        "publications",
        "document",
        "documents",
        "record",
        "records",
        "full",
        "item",
        "view",
        "home",
        "page",
        "search",
        "results",
        "result",
        "contents",
        "table",
        "journal",
        "issue",
        "volume",
        "menu",
        "navigation",
        "references",
        "summary",
        "overview",
        "metadata",
        "information",
        "info",
        "citation",
        "cite",
        "export",
        "share",
        "dettaglio",
        "tesi",
        "thesis",
        "theses",
        "titelansicht",
        "vollanzeige",
        "katalog",
        "catalogue",
        "catalog",
        "detailanzeige",
        "notice",
        "résumé",
        "resume",
    ]
)

# Each label in lower case, without ':' or '*'.
_LABELS: dict[str, FieldKind] = {
    **dict.fromkeys(
        (
            "title",
            "titel",
            "titolo",
            "titre",
            "título",
            "titulo",
            "haupttitel",
            "titel/stichwort",
            "dc.title",
            "title proper",
            "article title",
            "document title",
        ),
        "title",
    ),
    **dict.fromkeys(
        (
            "author",
            "authors",
            "author(s)",
            "autor",
            "autoren",
            "autore",
            "autori",
            "auteur",
            "auteurs",
            "auteur(s)",
            "autor / hrsg.",
            "autor/hrsg.",
            "creator",
            "creators",
            "creator(s)",
            "verfasser",
            "1. verfasser",
            "verfasser/in",
            "dc.contributor.author",
            "dc.creator",
            "written by",
            "by",
            # "Text: Jane Doe", "Tekst: …", "Texto: …": the words' credit beside a photo's; a broadcaster's web
            # story credits its writers as its desk ("Redaktion: Jane Doe und John Roe")
            "text",
            "texte",
            "tekst",
            "texti",
            "texto",
            "testo",
            "redaktion",
            "hrsg./bearb.",
            "hrsg.",
            "herausgeber",
            "editor",
            "editors",
            "editor(s)",
            "tesista",
            # a talk's or a report's people: who gave it, who wrote it with them, who prepared it
            "speaker",
            "speakers",
            "speaker(s)",
            "presenter",
            "presenters",
            "presented by",
            "joint work with",
            "co-authors",
            "coauthors",
            "prepared by",
            # a registered study's people: those who lead it write up its results
            "principal investigator",
            "principal investigators",
            "principal investigator(s)",
            "chief investigator",
            "lead investigator",
            "investigator",
            "investigators",
            # a patent's people: its inventors wrote it, its applicants own it
            "inventor",
            "inventors",
            "inventor(s)",
        ),
        "authors",
    ),
    **dict.fromkeys(
        (
            "date",
            "year",
            "jahr",
            "erscheinungsjahr",
            "erscheinungsdatum",
            "publication date",
            "date of publication",
            "published",
            "publication year",
            "year published",
            "issue date",
            "date issued",
            "dc.date.issued",
            "date created",
            "year accepted",
            "data conseguimento",
            "année",
            "anno",
            "fecha",
            "datum",
            "erschienen",
            "date of conference",
            "veröffentlicht",
            "published in",
            "publié",
            "publicado",
            "pubblicato",
            "publication",
            "date of award",
            "defense date",
            "date de soutenance",
            "copyright date",
            "dc.date.copyright",
            "publication date (web)",
            "date of publication (online)",
            "year of first publication",
            "published online",
            "first published",
            "first published online",
            "published online ahead of print",
            "available online",
            "version of record online",
            "online publication date",
            "verlagsort, verlag, jahr",
            "ort/verlag/jahr",
            "erschienen:",
            "release date",
            "released",
            "publisher",
            "imprint",
            "verlag",
            "éditeur",
            "editore",
            "editorial",
            "publication info",
            # a registered study's work is its results: the day they were posted is its publication
            "results first posted",
            "results posted",
            "results first published",
        ),
        "date",
    ),
    **dict.fromkeys(
        (
            "updated",
            "last updated",
            "last modified",
            "modified",
            "date modified",
            "last modification date",
            "dc.date.accessioned",
            "dc.date.available",
            "date accessioned",
            "date available",
            "received",
            "accepted",
            "revised",
            "submitted",
            "soumis le",
            "folder created",
            "aufnahmedatum",
            "ultimo aggiornamento",
            "dernière modification le",
            "archivage à long terme le",
            "anno iscrizione",
            "date deposited",
            "deposited on",
            "record created",
            "last modified on",
            # the events of a registered study other than its results' publication
            "first submitted",
            "date registered",
            "registered",
            "registration date",
            "first posted",
            "study start",
            "study start (actual)",
            "study start (estimated)",
            "primary completion",
            "primary completion (actual)",
            "study completion",
            "study completion (actual)",
            "last update posted",
        ),
        "other",
    ),
}
_MAX_LABEL_WORDS = 5
# "Year of completion", "Jahr der Fertigstellung", "Date de mise en ligne", "Tag der Prüfung": a date or year of an
# event the label names; the work's date unless that event is another one (an update, a deposit, a birth).
_DATE_OF_EVENT = re.compile(
    r"^(?:year|date|day|jahr|datum|tag|année|date|anno|data|año|fecha)\s+"
    r"(?:of(?: the)?|der|des|de(?: la| l')?|du|di|del(?:la)?|dell')\s+\S"
)
_OTHER_EVENT = re.compile(
    r"updat|modif|änderung|aktualis|deposit|hinterleg|aufnahme|eingang|einreich|submi|soumis|receiv|réception|"
    r"recep|ricev|accept|annahme|revis|access|abruf|zugriff|consult|birth|geburt|naissance|nascita|nacimiento|"
    r"death|tod|décès|entry|erfassung|creation|erstellung des datensatzes|record|last",
)


_AUTHOR_WORDS = frozenset({"author", "authors", "author(s)"})
#: The roles an author label may name before "author(s)" ("Main Author:", "Other Authors:", "Corresponding author:");
#: a heading such as "Top authors" or "Related authors" names people who are no authors of the item.
_AUTHOR_ROLES = frozenset(
    {"main", "other", "additional", "corresponding", "lead", "first", "senior", "last", "contributing", "personal",
     "primary", "principal", "joint", "co", "secondary", "added"}
)  # fmt: skip


def label_kind(text: str) -> FieldKind | None:
    """What a label announces ("Author(s):" → authors), or None when `text` is no known label. A kind of author
    ("Main Author:", "Other Authors:", "Corresponding author:") announces authors as "Author:" does."""
    label = " ".join(text.strip().strip(":*").strip().casefold().split())
    if not label or len(label.split()) > _MAX_LABEL_WORDS:
        return None
    known = _LABELS.get(label) or _LABELS.get(label.rstrip(" :"))
    if known is None and _DATE_OF_EVENT.match(label):
        return "other" if _OTHER_EVENT.search(label) else "date"
    words = label.split()
    if known is None and len(words) == 2 and words[0] in _AUTHOR_ROLES and words[1] in _AUTHOR_WORDS:
        return "authors"
    return known
