"""HELD OUT, and fresh (nineteenth batch): three more sites built as a university's Figshare portal, an INSPIRE-like
particle-physics literature database and an Islandora digital library are, on topics no other testbed site holds
(`fresh_heldout19_topics.toml`), written with their requests and ground truth before the crawler was ever run on them.
Do not read or tune anything to this module, to `fresh_heldout19_portal.py`, `fresh_heldout19_hep.py`,
`fresh_heldout19_library.py` or the topics file: their first run is the measure.

- Thornbury University Figshare (`fresh19-portal`, in `fresh_heldout19_portal.py`): a Figshare institutional portal:
  its browse and category pages show a first screen of items and add the rest as the visitor scrolls; item pages as
  Figshare writes them (item type, "Posted on" dates, authors, categories, keywords, licence, files), accepted
  manuscripts among preprints and conference contributions. Search, the account and the downloader are forbidden.
- HEPindex (`fresh19-hep`, in `fresh_heldout19_hep.py`): a literature database of particle and nuclear physics
  as INSPIRE writes it: collections by arXiv category and by experiment as searches sorted by earliest date, records
  with authors surname first and their affiliations, e-prints, the journal reference and the record's history,
  author profiles. Some records are the published versions of manuscripts the portal holds (one work, two sites).
  Exports and the account are forbidden.
- Thornbury Special Collections Digital Library (`fresh19-library`, in `fresh_heldout19_library.py`): an Islandora
  repository on Drupal: a root collection of sub-collections whose objects are listed in the order they were
  ingested, citation objects with a formatted citation and a MODS details table. Solr search and datastream
  management are forbidden.
"""

from __future__ import annotations

import hashlib
import re
from datetime import date

from research_crawler.eval.testbed.models import SiteSpec

__all__ = [
    "FRESH19_BATCH",
    "FRESH19_PER_TOPIC",
    "FRESH19_PLANS",
    "FRESH19_SITE_SPECS",
    "FRESH19_TOPICS_FILE",
    "article_id",
    "figshare_slug",
    "fresh19_identity",
    "item_type",
    "pid_number",
    "recid",
]

#: The nineteenth batch's own topics and near misses (the format of `unfamiliar_topics.toml`), held out with it.
FRESH19_TOPICS_FILE = "fresh_heldout19_topics.toml"

FRESH19_SITE_SPECS: tuple[SiteSpec, ...] = (
    SiteSpec(
        name="fresh19-portal",
        title="Thornbury University Figshare",
        layout="fresh19-portal",
        tagline="Research outputs and data of Thornbury University",
        categories={
            "dark-photons": "Particle and high energy physics",
            "microbial-fuel-cells": "Environmental biotechnology",
            "darkphoton-other": "Particle and high energy physics",
            "fuelcell-other": "Environmental biotechnology",
        },
    ),
    SiteSpec(
        name="fresh19-hep",
        title="HEPindex",
        layout="fresh19-hep",
        tagline="The literature of high-energy and nuclear physics",
        categories={
            "dark-photons": "hep-ex",
            "double-beta": "nucl-ex",
            "darkphoton-other": "hep-ex",
            "doublebeta-other": "nucl-ex",
        },
    ),
    SiteSpec(
        name="fresh19-library",
        title="Thornbury Special Collections Digital Library",
        layout="fresh19-library",
        tagline="Digitised collections and research of Thornbury University Library",
        categories={
            "binding-fragments": "Manuscripts and Early Books",
            "mining-oral-histories": "Coalfield Voices",
            "fragments-other": "Manuscripts and Early Books",
            "mining-other": "Coalfield Voices",
        },
    ),
)
#: Each site's requests, as `unfamiliar_corpus.UNFAMILIAR_PLANS` writes them.
FRESH19_PLANS: dict[str, tuple[str, ...]] = {
    "fresh19-portal": ("topic", "recent", "year", "cross:fresh19-hep"),
    "fresh19-hep": ("topic", "author", "recent"),
    "fresh19-library": ("topic", "recent", "author", "year"),
}
#: Papers per topic on each site (the portal and the database share works: at most 10 between them).
FRESH19_PER_TOPIC: dict[str, tuple[int, int]] = {
    "fresh19-portal": (5, 5),
    "fresh19-hep": (4, 5),
    "fresh19-library": (5, 7),
}
#: Works on two sites: accepted manuscripts the portal holds, whose published versions the database indexes later.
FRESH19_SHARED: dict[tuple[str, str], tuple[str, ...]] = {("fresh19-portal", "fresh19-hep"): ("dark-photons",)}
#: What `unfamiliar_corpus` adds, from its own random stream: the sites, requests and shared works.
FRESH19_BATCH = (FRESH19_SITE_SPECS, FRESH19_PLANS, FRESH19_SHARED)

#: Figshare's item types (the URL's word, the label its pages show); most of the portal's papers are the first.
_TYPES = (
    ("journal_contribution", "Journal contribution"),
    ("journal_contribution", "Journal contribution"),
    ("journal_contribution", "Journal contribution"),
    ("journal_contribution", "Journal contribution"),
    ("preprint", "Preprint"),
    ("conference_contribution", "Conference contribution"),
)


def _digest(title: str) -> int:
    return int(hashlib.sha1(title.encode()).hexdigest()[:8], 16)


def item_type(title: str) -> tuple[str, str]:
    """(URL word, label) of a portal item's Figshare type."""
    return _TYPES[_digest(title) % len(_TYPES)]


def figshare_slug(title: str) -> str:
    """A title as Figshare writes it in a URL ('Search for X: Y' → 'Search_for_X_Y')."""
    return re.sub(r"[^A-Za-z0-9]+", "_", title).strip("_")


def article_id(serial: int) -> int:
    return 21_000_000 + 86_243 * serial % 4_000_000


def recid(serial: int) -> int:
    return 2_100_000 + 3_571 * serial % 700_000


def pid_number(serial: int) -> int:
    """The number of an Islandora object's PID: objects are numbered as they are ingested, not by date."""
    return 1000 + 613 * serial % 9000


def fresh19_identity(layout: str, day: date, serial: int, title: str) -> tuple[str, str, str, str | None, str | None]:
    """(key, path, PDF path, DOI, preprint id) of an item of the nineteenth fresh batch."""
    if layout == "fresh19-portal":
        number = article_id(serial)
        kind = item_type(title)[0]
        doi = f"10.25392/thornbury.{number}.v1"
        return (
            str(number),
            f"/articles/{kind}/{figshare_slug(title)}/{number}",
            f"/ndownloader/files/{number + 7}",
            doi,
            None,
        )
    if layout == "fresh19-hep":
        record = recid(serial)
        doi = f"10.1103/PhysRevD.{day.year - 1915}.{serial % 90 + 10:02d}{day.month:02d}{serial % 7:02d}"
        eprint = f"{day:%y%m}.{(serial * 389) % 30000:05d}"
        return str(record), f"/literature/{record}", f"/files/arXiv:{eprint}.pdf", doi, eprint
    pid = f"thornbury:{pid_number(serial)}"
    return pid, f"/islandora/object/{pid}", f"/islandora/object/{pid}/datastream/OBJ/view", None, None
