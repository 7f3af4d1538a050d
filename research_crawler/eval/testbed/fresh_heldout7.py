"""HELD OUT, and fresh (seventh batch): three more sites built as a conference's proceedings site, a publisher's
book series and a lab's wiki are, on topics no other testbed site holds (`fresh_heldout7_topics.toml`), written
with their requests and ground truth before the crawler was ever run on them. Do not read or tune anything to this
module, to `fresh_heldout7_proceedings.py`, `fresh_heldout7_books.py`, `fresh_heldout7_wiki.py` or the topics
file: their first run is the measure.

- Nordwyn Meetings on Environmental Sensing (`fresh7-proceedings`, in `fresh_heldout7_proceedings.py`): a society's
  meetings, two a year, each with a programme of days and sessions; a session lists its talks (a talk with a
  proceedings paper links to it) among keynotes, panels, posters and workshops that are not papers; papers are
  published online months after the meeting (a paper of one year presented at the last year's meeting); yearly
  volumes list the papers ten a page; half the paper pages carry citation_* tags, the others only text; robots.txt
  forbids the personal itinerary links on every session.
- Harlan & Voss (`fresh7-books`, in `fresh_heldout7_books.py`): a publisher's book series: series pages list their
  volumes three a page, a volume's page lists its chapters between front matter and an index (not works), chapters
  are the items ("First Online" dates, chapter authors as a list; older volumes without metadata tags); an online
  reader duplicates each chapter behind robots.txt; some chapters extend papers of the proceedings (one work, two
  sites).
- Oksvik Lab Wiki (`fresh7-wiki`, in `fresh_heldout7_wiki.py`): a MediaWiki-like lab wiki: `/` redirects to the main
  page; a Publications page generated from BibTeX (years newest first, entries within a year by key; older years on
  subpages; invited talks listed too), one page per paper named by its BibTeX key (the title in an infobox and the
  BibTeX, dates written in English or German), category pages; edit, history and special pages forbidden by
  robots.txt.
"""

from __future__ import annotations

import re
import zlib
from datetime import date

from research_crawler.eval.testbed.models import SiteSpec
from research_crawler.eval.testbed.vocabulary import DOI_PREFIX

__all__ = [
    "FRESH7_BATCH",
    "FRESH7_PER_TOPIC",
    "FRESH7_PLANS",
    "FRESH7_SITE_SPECS",
    "FRESH7_TOPICS_FILE",
    "fresh7_identity",
]

#: The seventh batch's own topics and near misses (the format of `unfamiliar_topics.toml`), held out with it.
FRESH7_TOPICS_FILE = "fresh_heldout7_topics.toml"

FRESH7_SITE_SPECS: tuple[SiteSpec, ...] = (
    SiteSpec(
        name="fresh7-proceedings",
        title="Nordwyn Meetings on Environmental Sensing",
        layout="fresh7-proceedings",
        tagline="Programmes and proceedings of the Nordwyn Society's spring and autumn meetings",
        categories={
            "street-trees": "Urban Climate Sensing",
            "whale-acoustics": "Underwater Acoustics",
            "whale-other": "Underwater Acoustics",
            "trees-other": "Urban Climate Sensing",
        },
    ),
    SiteSpec(
        name="fresh7-books",
        title="Harlan & Voss",
        layout="fresh7-books",
        tagline="Books and book series in the environmental sciences",
        categories={
            "whale-acoustics": "Marine Bioacoustics",
            "lake-sedadna": "Environmental Archives",
            "whale-other": "Marine Bioacoustics",
            "sediment-other": "Environmental Archives",
        },
    ),
    SiteSpec(
        name="fresh7-wiki",
        title="Oksvik Lab Wiki",
        layout="fresh7-wiki",
        tagline="Palaeogenomics and lake archives group",
        categories={"lake-sedadna": "Publications", "sediment-other": "Publications"},
    ),
)
#: Each site's requests, as `unfamiliar_corpus.UNFAMILIAR_PLANS` writes them.
FRESH7_PLANS: dict[str, tuple[str, ...]] = {
    "fresh7-proceedings": ("topic", "year", "cross:fresh7-books", "recent"),
    "fresh7-books": ("topic", "recent", "author"),
    "fresh7-wiki": ("topic", "recent", "author", "year"),
}
#: Papers per topic on each site (the proceedings and the books share works: at most 10 between them).
FRESH7_PER_TOPIC: dict[str, tuple[int, int]] = {
    "fresh7-proceedings": (4, 5),
    "fresh7-books": (4, 5),
    "fresh7-wiki": (7, 9),
}
#: Works on two sites: meeting papers extended as chapters of the publisher's series.
FRESH7_SHARED: dict[tuple[str, str], tuple[str, ...]] = {("fresh7-proceedings", "fresh7-books"): ("whale-acoustics",)}
#: What `unfamiliar_corpus` adds, from its own random stream: the sites, requests and shared works.
FRESH7_BATCH = (FRESH7_SITE_SPECS, FRESH7_PLANS, FRESH7_SHARED)


def fresh7_identity(layout: str, day: date, serial: int, title: str) -> tuple[str, str, str, str | None, str | None]:
    """(key, path, PDF path, DOI, preprint id) of an item of the seventh fresh batch."""
    if layout == "fresh7-proceedings":
        key = f"nmes{day.year}-{serial:04d}"
        return key, f"/proceedings/{key}", f"/proceedings/{key}/paper.pdf", None, None
    if layout == "fresh7-books":
        key = f"{day.year}-{serial:04d}"
        doi = f"{DOI_PREFIX}/hv.{key}"
        return key, f"/chapter/{doi}", f"/content/pdf/{doi}.pdf", doi, None
    word = next((w for w in re.findall(r"[A-Za-z]+", title) if len(w) > 3), "paper").lower()
    key = f"{word}{day.year}{serial}"
    digest = f"{zlib.crc32(key.encode()):08x}"
    return key, f"/wiki/Paper:{key}", f"/images/{digest[0]}/{digest[:2]}/{key}.pdf", None, None
