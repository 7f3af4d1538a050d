"""Links that open a person's page: an author's profile under a byline ("Mei Berg" → ``/authors/Mei_Berg/28658``), a
listing's author facet ("Petrova R" → ``/publications?f[author]=37``), a member's page in a directory.

Such a page lists that person's works, on every subject they wrote on; a reader looking for works on a topic opens
it last, and one looking for works by a person opens only that person's. A link counts only when both its words and
its address say so: its text reads as one person's name (`person_names.is_person_name`) and its address names a
person's page by a word of its path or of its query ("authors", "author=", "people", "profile"…). Either alone is not
enough: a subject's name ("Environmental Biotechnology") can read as a name, and an address naming "people" can open a
directory's index. The words of addresses are data, by language, as link_kinds' words are.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from urllib.parse import parse_qsl, unquote, urlsplit

from research_crawler.pages.person_names import is_person_name, name_key

__all__ = ["PERSON_PAGE_WORDS", "names_one_of", "opens_a_persons_page"]

#: Words of an address (a path segment, a query key or value) that name a person's page or an author filter, by
#: language (lower case); add a language by adding its words.
PERSON_PAGE_WORDS: dict[str, tuple[str, ...]] = {
    "en": ("author", "authors", "auth", "people", "person", "persons", "profile", "profiles", "staff", "researcher",
           "researchers", "member", "members", "contributor", "contributors", "creator", "creators", "user", "users"),
    "de": ("autor", "autoren", "autorin", "person", "personen", "mitarbeiter", "mitarbeitende", "profil"),
    "fr": ("auteur", "auteurs", "personne", "personnes", "chercheur", "chercheurs", "membre", "membres", "profil"),
    "es": ("autor", "autores", "persona", "personas", "investigador", "investigadores", "perfil", "miembros"),
    "it": ("autore", "autori", "persona", "persone", "ricercatore", "ricercatori", "profilo", "membri"),
    "pt": ("autor", "autores", "pessoa", "pessoas", "pesquisador", "pesquisadores", "investigador", "perfil"),
}  # fmt: skip
_PERSON_WORDS = frozenset(word for words in PERSON_PAGE_WORDS.values() for word in words)
#: The words of an address part: letters only, a camel-cased key split where its case changes ("authFullName_s").
_ADDRESS_WORD = re.compile(r"[A-Z]?[a-z\u00df-\u00ff]+|[A-Z]+(?![a-z])")


def opens_a_persons_page(url: str, text: str) -> bool:
    """Whether the link `text` → `url` opens a person's page: its text reads as one person's name and its address
    names a person's page or an author filter (`PERSON_PAGE_WORDS`)."""
    return is_person_name(text) and _address_names_a_person(url)


def names_one_of(text: str, people: Iterable[str]) -> bool:
    """Whether the link text `text` names one of `people` (a request's authors, often a surname alone): a word of it
    is one's surname, accents and case aside ("Petrova R" and "Elena Petrova" both name "Petrova")."""
    words = {_folded(word) for word in re.findall(r"[^\W\d_]+(?:['’-][^\W\d_]+)*", text)}
    return any(key in words for key in (name_key(person) for person in people) if key)


def _address_names_a_person(url: str) -> bool:
    parts = urlsplit(url)
    pieces = [unquote(segment) for segment in parts.path.split("/")]
    for key, value in parse_qsl(parts.query, keep_blank_values=True):
        pieces += [key, value]
    return any(
        word.casefold() in _PERSON_WORDS
        for piece in pieces
        for chunk in re.split(r"[\W_\d]+", piece)
        for word in _ADDRESS_WORD.findall(chunk)
    )


def _folded(word: str) -> str:
    plain = unicodedata.normalize("NFKD", word)
    return "".join(ch for ch in plain if ch.isalnum()).casefold()
