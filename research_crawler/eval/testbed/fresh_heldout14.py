"""HELD OUT, and fresh (fourteenth batch): three more sites built as a university's Pure-like research portal (a
CRIS), an OpenReview-like conference review forum and a Wikibase-like linked-data knowledge graph are, on topics no
other testbed site holds (`fresh_heldout14_topics.toml`), written with their requests and ground truth before the
crawler was ever run on them. Do not read or tune anything to this module, to `fresh_heldout14_cris.py`,
`fresh_heldout14_forum.py`, `fresh_heldout14_wikibase.py` or the topics file: their first run is the measure.

- Ashcombe University Research Portal (`fresh14-cris`, in `fresh_heldout14_cris.py`): a Pure portal: research
  output listed twenty a page newest first with zero-based `?page=` links, facet links marked `nofollow=true` and
  forbidden, persons and organisations each with a research output tab; an output's page names its type as Pure
  does ("Contribution to journal › Article › peer-review"), its internal authors linked and external ones as
  initials, its status ("Published - 15 Mar 2024", some by month only after an "E-pub ahead of print" date) and
  Google Scholar meta tags; abstracts, editorials, reports and theses among the articles. Conference papers of the
  review forum are listed too, linking back to their forum (one work, two sites); the search is forbidden.
- ESC OpenReview (`fresh14-forum`, in `fresh_heldout14_forum.py`): an OpenReview-like venue site: a venue group per
  year whose tabs list the submissions by decision (oral, poster, rejected, withdrawn), forum pages (`/forum/<id>`,
  the note id in the path where OpenReview puts it in the query) with the
  submission ("Published: 15 Mar 2024, Last Modified: 02 Apr 2024", keywords, primary area, authors linked to
  profiles), its reviews and the decision, each dated; profiles list a person's submissions; the API, the PDFs'
  revisions and the search forbidden.
- Archaeogenetics Knowledge Graph (`fresh14-wikibase`, in `fresh_heldout14_wikibase.py`): a Wikibase: the main page
  links the main-subject items and the list of all items; items are statements (instance of, title, author items
  with series ordinals in the order they were added, author name strings, publication date at its precision, main
  subject, published in); works reached from a subject or a person by "What links here"; datasets, sites, persons
  and journals are items too; `/w/` (history, edit, index.php paging) forbidden.
"""

from __future__ import annotations

import hashlib
from datetime import date

from research_crawler.eval.testbed.markup import url_slug
from research_crawler.eval.testbed.models import SiteSpec

__all__ = [
    "FRESH14_BATCH",
    "FRESH14_PER_TOPIC",
    "FRESH14_PLANS",
    "FRESH14_SITE_SPECS",
    "FRESH14_TOPICS_FILE",
    "forum_id",
    "fresh14_identity",
    "work_qid",
]

#: The fourteenth batch's own topics and near misses (the format of `unfamiliar_topics.toml`), held out with it.
FRESH14_TOPICS_FILE = "fresh_heldout14_topics.toml"

FRESH14_SITE_SPECS: tuple[SiteSpec, ...] = (
    SiteSpec(
        name="fresh14-cris",
        title="Ashcombe University Research Portal",
        layout="fresh14-cris",
        tagline="Research outputs, people and organisations of Ashcombe University",
        categories={
            "crop-yield-satellite": "School of Geography and Environmental Science",
            "copper-surfaces": "Institute of Infection and Immunity",
            "copper-other": "Institute of Infection and Immunity",
            "crop-other": "School of Geography and Environmental Science",
        },
    ),
    SiteSpec(
        name="fresh14-forum",
        title="ESC OpenReview",
        layout="fresh14-forum",
        tagline="Open peer review for the Earth and Signal Computing conference",
        categories={
            "crop-yield-satellite": "applications to remote sensing and agriculture",
            "deepfake-audio": "speech and audio security",
            "deepfake-other": "speech and audio security",
            "crop-other": "applications to remote sensing and agriculture",
        },
    ),
    SiteSpec(
        name="fresh14-wikibase",
        title="Archaeogenetics Knowledge Graph",
        layout="fresh14-wikibase",
        tagline="A Wikibase of ancient genomes, sites and the literature about them",
        categories={
            "horse-adna": "horse domestication",
            "plague-genomes": "second plague pandemic",
            "horse-other": "horses in history",
            "plague-other": "epidemics in history",
        },
    ),
)
#: Each site's requests, as `unfamiliar_corpus.UNFAMILIAR_PLANS` writes them.
FRESH14_PLANS: dict[str, tuple[str, ...]] = {
    "fresh14-cris": ("topic", "recent", "author", "cross:fresh14-forum"),
    "fresh14-forum": ("topic", "year", "recent"),
    "fresh14-wikibase": ("topic", "recent", "year", "author"),
}
#: Papers per topic on each site (the forum and the portal share works: at most 10 between them).
FRESH14_PER_TOPIC: dict[str, tuple[int, int]] = {
    "fresh14-cris": (4, 5),
    "fresh14-forum": (4, 5),
    "fresh14-wikibase": (6, 7),
}
#: Works on two sites: conference papers of the forum's venues that the university's portal lists later.
FRESH14_SHARED: dict[tuple[str, str], tuple[str, ...]] = {("fresh14-forum", "fresh14-cris"): ("crop-yield-satellite",)}
#: What `unfamiliar_corpus` adds, from its own random stream: the sites, requests and shared works.
FRESH14_BATCH = (FRESH14_SITE_SPECS, FRESH14_PLANS, FRESH14_SHARED)

_ID_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"


def forum_id(serial: int) -> str:
    """An OpenReview note id ('aB3dE5fG7h'), drawn from `serial`."""
    digest = hashlib.sha1(f"forum-{serial}".encode()).digest()
    return "".join(_ID_ALPHABET[b % len(_ID_ALPHABET)] for b in digest[:10])


def work_qid(serial: int) -> str:
    """A work's item id in the knowledge graph ('Q1234')."""
    return f"Q{1200 + 7 * serial}"


def fresh14_identity(layout: str, day: date, serial: int, title: str) -> tuple[str, str, str, str | None, str | None]:
    """(key, path, PDF path, DOI, preprint id) of an item of the fourteenth fresh batch."""
    if layout == "fresh14-cris":
        key = url_slug(title, limit=200)
        uuid = hashlib.sha1(f"pure-{serial}".encode()).hexdigest()
        doi = f"10.4821/ash.{day.year}.{serial:03d}"
        pdf = f"/files/{int(uuid[:8], 16) % 90000000 + 10000000}/{uuid[:8]}.pdf"
        return key, f"/en/publications/{key}", pdf, doi, None
    if layout == "fresh14-forum":
        note = forum_id(serial)
        return note, f"/forum/{note}", f"/pdf/{note}", None, None
    qid = work_qid(serial)
    digest = hashlib.md5(f"{qid}.pdf".encode()).hexdigest()
    return qid, f"/wiki/Item:{qid}", f"/w/images/{digest[0]}/{digest[:2]}/{qid}.pdf", None, None
