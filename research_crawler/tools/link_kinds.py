"""Which of a page's links judged alike a person opens first: the one whose words name works.

A department's home page offers "News" and "Publications" side by side; asked for its studies, a person opens
"Publications" first, whatever order the menu gives them, and "News", "Events" or "People" after. The Crawler scores
links by their relevance; where it gives two links the same score, this order breaks the tie: a link whose text
names a list of works (publications, papers, articles, preprints, records, theses, outputs, literature…, or one of them
as a part's name has it: "Paper companions", "Publication list") comes before one that names nothing of either, which
comes before one that names news, events or people. Only a link of a few words is read so, the name of a part of the
site; a longer one is a title (an item's, a story's) and keeps its place. The words are data, by language, and they
only break ties: a link the model scored higher is never passed over for one that names works.
"""

from __future__ import annotations

import re

__all__ = ["NOT_WORKS_WORDS", "WORKS_WORDS", "link_rank"]

#: Words of a link's text that name a list of works or one ("Publications", "Working papers", "Research outputs"),
#: the singular too where a part's name uses it as a noun's modifier ("Paper companions", "Publication list"), by
#: language (lower case); add a language by adding its words.
WORKS_WORDS: dict[str, tuple[str, ...]] = {
    "en": ("publications", "papers", "articles", "preprints", "records", "outputs", "theses", "dissertations",
           "bibliography", "literature", "proceedings", "monographs", "repository", "catalogue", "catalog",
           "publication", "paper", "article", "preprint", "thesis", "dissertation", "monograph"),
    "de": ("publikationen", "veröffentlichungen", "schriften", "aufsätze", "artikel", "dissertationen", "literatur"),
    "fr": ("publications", "articles", "thèses", "bibliographie", "prépublications"),
    "es": ("publicaciones", "artículos", "tesis", "bibliografía", "literatura"),
    "it": ("pubblicazioni", "articoli", "tesi", "bibliografia", "letteratura"),
    "pt": ("publicações", "artigos", "teses", "bibliografia", "literatura"),
}  # fmt: skip
#: Words of a link's text that name what is not a work: news, events, people, the organisation itself.
NOT_WORKS_WORDS: dict[str, tuple[str, ...]] = {
    "en": ("news", "event", "events", "calendar", "people", "staff", "team", "members", "directory", "blog",
           "press", "newsletter", "jobs", "vacancies", "careers", "awards", "announcements"),
    "de": ("aktuelles", "nachrichten", "veranstaltungen", "termine", "personen", "mitarbeiter", "team", "stellen",
           "presse"),
    "fr": ("actualités", "événements", "agenda", "équipe", "personnel", "membres", "presse", "emplois"),
    "es": ("noticias", "eventos", "agenda", "equipo", "personal", "miembros", "prensa", "empleo"),
    "it": ("notizie", "eventi", "agenda", "persone", "personale", "membri", "stampa"),
    "pt": ("notícias", "eventos", "agenda", "equipe", "equipa", "pessoas", "membros", "imprensa"),
}  # fmt: skip
_WORKS = frozenset(word for words in WORKS_WORDS.values() for word in words)
_NOT_WORKS = frozenset(word for words in NOT_WORKS_WORDS.values() for word in words)
_WORD = re.compile(r"[^\W\d_]+")
#: A link of more words than this is a title (an item's, a story's), not the name of a part of the site.
_MAX_NAME_WORDS = 4


def link_rank(text: str) -> int:
    """Where a link reading `text` stands among links scored alike: 0 when its words name works, 2 when they name
    news, events or people and no works, 1 otherwise (the page's order is kept within each)."""
    found = _WORD.findall(text.casefold())
    if len(found) > _MAX_NAME_WORDS:
        return 1
    words = set(found)
    if words & _WORKS:
        return 0
    if words & _NOT_WORKS:
        return 2
    return 1
