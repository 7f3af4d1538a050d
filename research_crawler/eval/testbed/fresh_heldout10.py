"""HELD OUT, and fresh (tenth batch): three more sites built as a computer-science bibliography, a research
institute's event platform and a single-page-app discovery service are, on topics no other testbed site holds
(`fresh_heldout10_topics.toml`), written with their requests and ground truth before the crawler was ever run on
them. Do not read or tune anything to this module, to `fresh_heldout10_index.py`, `fresh_heldout10_events.py`,
`fresh_heldout10_discovery.py` or the topics file: their first run is the measure.

- CSBib (`fresh10-index`, in `fresh_heldout10_index.py`): a DBLP-like bibliography: browse persons by the letter of
  their surname, person pages listing works by year with co-author links and homonyms told apart by a number
  ("Ana Silva 0002", whose page holds only editorships), venue pages by year (workshops) and volume (journals), a
  record per work (citation, abstract only when known, years only, an "electronic edition" link that for some works
  leads to the paper's page on the discovery service), BibTeX links that are not works, RIS/XML exports and the
  search forbidden by robots.txt.
- Indico at the Ostrava Institute of Edge Computing (`fresh10-events`, in `fresh_heldout10_events.py`): an
  Indico-like event platform: a category tree, a seminar series whose events (a talk each, with speakers, a
  description, slides and the paper as attachments, dates written "Tuesday 12 March 2024") are listed by month, a
  year at a time; a yearly workshop with a timetable by day and session, a contribution list filtered by track,
  keynotes, panels and breaks that are not works, a book of abstracts, registration and venue pages; calendar
  exports and the login forbidden by robots.txt.
- Lumen Scholar (`fresh10-discovery`, in `fresh_heldout10_discovery.py`): a Semantic-Scholar-like discovery service
  whose home, field and author pages are empty shells filled by script from a JSON API on the same origin (a
  `<noscript>` note says so), server-rendered paper pages with `citation_*` tags, references linking to other
  papers and citations loaded by script, a sitemap named in robots.txt, its search forbidden; it holds some of the
  bibliography's works too (one work, two sites).
"""

from __future__ import annotations

import hashlib
import re
from datetime import date

from research_crawler.eval.testbed.markup import url_slug
from research_crawler.eval.testbed.models import SiteSpec

__all__ = [
    "FRESH10_BATCH",
    "FRESH10_PER_TOPIC",
    "FRESH10_PLANS",
    "FRESH10_SITE_SPECS",
    "FRESH10_TOPICS_FILE",
    "fresh10_identity",
]

#: The tenth batch's own topics and near misses (the format of `unfamiliar_topics.toml`), held out with it.
FRESH10_TOPICS_FILE = "fresh_heldout10_topics.toml"

FRESH10_SITE_SPECS: tuple[SiteSpec, ...] = (
    SiteSpec(
        name="fresh10-index",
        title="CSBib",
        layout="fresh10-index",
        tagline="computer science bibliography",
        categories={
            "repair": "Software Engineering",
            "federated": "Machine Learning Systems",
            "repair-other": "Software Engineering",
            "federated-other": "Machine Learning Systems",
        },
    ),
    SiteSpec(
        name="fresh10-events",
        title="Indico at the Ostrava Institute of Edge Computing",
        layout="fresh10-events",
        tagline="Seminars, workshops and meetings of the institute",
        categories={"federated": "Edge Learning Seminars", "federated-other": "Edge Learning Seminars"},
    ),
    SiteSpec(
        name="fresh10-discovery",
        title="Lumen Scholar",
        layout="fresh10-discovery",
        tagline="A free, AI-assisted research tool for scientific literature",
        categories={
            "repair": "Computer Science",
            "seagrass": "Environmental Science",
            "repair-other": "Computer Science",
            "seagrass-other": "Environmental Science",
        },
    ),
)
#: Each site's requests, as `unfamiliar_corpus.UNFAMILIAR_PLANS` writes them.
FRESH10_PLANS: dict[str, tuple[str, ...]] = {
    "fresh10-index": ("topic", "author", "cross:fresh10-discovery", "year"),
    "fresh10-events": ("topic", "recent", "year"),
    "fresh10-discovery": ("topic", "recent", "author", "year"),
}
#: Papers per topic on each site (the bibliography and the discovery service share works: at most 10 between them).
FRESH10_PER_TOPIC: dict[str, tuple[int, int]] = {
    "fresh10-index": (4, 5),
    "fresh10-events": (5, 7),
    "fresh10-discovery": (5, 5),
}
#: Works on two sites: the bibliography's records whose paper the discovery service holds too, found there later.
FRESH10_SHARED: dict[tuple[str, str], tuple[str, ...]] = {("fresh10-index", "fresh10-discovery"): ("repair",)}
#: What `unfamiliar_corpus` adds, from its own random stream: the sites, requests and shared works.
FRESH10_BATCH = (FRESH10_SITE_SPECS, FRESH10_PLANS, FRESH10_SHARED)


def paper_id(title: str) -> str:
    """The discovery service's 40-hex paper id of a title (its corpus id, as Semantic Scholar's are)."""
    return hashlib.sha1(title.encode("utf-8")).hexdigest()


def fresh10_identity(layout: str, day: date, serial: int, title: str) -> tuple[str, str, str, str | None, str | None]:
    """(key, path, PDF path, DOI, preprint id) of an item of the tenth fresh batch."""
    if layout == "fresh10-index":
        word = next((w for w in re.findall(r"[A-Za-z]+", title) if len(w) > 3), "Paper").capitalize()
        key = f"{word}{day:%y}{chr(97 + serial % 26)}{serial}"
        return key, f"/rec/{key}.html", f"/ee/{key}.pdf", None, None
    if layout == "fresh10-events":
        key = f"{1200 + 7 * serial}"
        return key, f"/event/{key}/", f"/event/{key}/attachments/{3 * serial % 1000}/{serial}/paper.pdf", None, None
    pid = paper_id(title)
    return pid, f"/paper/{url_slug(title, limit=80)}/{pid}", f"/reader/{pid}.pdf", None, None
