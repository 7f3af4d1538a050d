"""HELD OUT, and fresh (eighth batch): three more sites built as a university's research portal, an open-review
venue and a preprint server with versioned records are, on topics no other testbed site holds
(`fresh_heldout8_topics.toml`), written with their requests and ground truth before the crawler was ever run on
them. Do not read or tune anything to this module, to `fresh_heldout8_portal.py`, `fresh_heldout8_review.py`,
`fresh_heldout8_preprints.py` or the topics file: their first run is the measure.

- Ellerby University Research Portal (`fresh8-portal`, in `fresh_heldout8_portal.py`): a Pure-like portal of
  persons, organisational units and research outputs of many types (articles, conference contributions, chapters
  among patents, datasets and press clippings that are not works); listings filtered by query parameters (type,
  unit, year) ten a page from page 0, sorted by year then title; an output's page names its type and its
  publication statuses with dates ("Accepted/In press", "E-pub ahead of print", "Published"); articles carry
  citation_* tags, the other types none; exports and the portal's web services forbidden by robots.txt.
- SGU on OpenForum (`fresh8-review`, in `fresh_heldout8_review.py`): an OpenReview-like venue: one group page per
  year with tabs (accepted oral, accepted poster, rejected, withdrawn) as query parameters, five notes a tab page;
  a forum page per submission with its reviews, comments, author responses and decision; only accepted
  submissions are published works; revisions and profiles forbidden by robots.txt. Some accepted papers are the
  final versions of preprints of the preprint server (one work, two sites).
- Lintel Preprints (`fresh8-preprints`, in `fresh_heldout8_preprints.py`): a Preprints.org-like server whose
  records have versions (v1, v2, v3; the title changes between versions, each version has its own page and DOI,
  the record's page is the latest); subject listings paged by offset; a monthly digest that lists each month's new
  preprints under the titles they were posted with; PDF downloads and search forbidden by robots.txt.
"""

from __future__ import annotations

import zlib
from datetime import date

from research_crawler.eval.testbed.markup import url_slug
from research_crawler.eval.testbed.models import SiteSpec

__all__ = [
    "FRESH8_BATCH",
    "FRESH8_PER_TOPIC",
    "FRESH8_PLANS",
    "FRESH8_SITE_SPECS",
    "FRESH8_TOPICS_FILE",
    "fresh8_identity",
]

#: The eighth batch's own topics and near misses (the format of `unfamiliar_topics.toml`), held out with it.
FRESH8_TOPICS_FILE = "fresh_heldout8_topics.toml"

FRESH8_SITE_SPECS: tuple[SiteSpec, ...] = (
    SiteSpec(
        name="fresh8-portal",
        title="Ellerby University Research Portal",
        layout="fresh8-portal",
        tagline="Research outputs, people and units of Ellerby University",
        categories={
            "peat-rewetting": "Department of Geography and Environment",
            "quake-phones": "School of Earth Sciences",
            "peat-other": "Department of Geography and Environment",
            "quake-other": "School of Earth Sciences",
        },
    ),
    SiteSpec(
        name="fresh8-review",
        title="SGU on OpenForum",
        layout="fresh8-review",
        tagline="Workshop on Sign and Gesture Understanding: open peer review",
        categories={"sign-video": "SGU", "sign-other": "SGU"},
    ),
    SiteSpec(
        name="fresh8-preprints",
        title="Lintel Preprints",
        layout="fresh8-preprints",
        tagline="Early versions of research articles, free to read and to post",
        categories={
            "sign-video": "Computer Science and Mathematics",
            "quake-phones": "Environmental and Earth Sciences",
            "sign-other": "Computer Science and Mathematics",
            "quake-other": "Environmental and Earth Sciences",
        },
    ),
)
#: Each site's requests, as `unfamiliar_corpus.UNFAMILIAR_PLANS` writes them.
FRESH8_PLANS: dict[str, tuple[str, ...]] = {
    "fresh8-portal": ("topic", "year", "author", "recent"),
    "fresh8-review": ("topic", "recent", "cross:fresh8-preprints"),
    "fresh8-preprints": ("topic", "author", "year", "topic"),
}
#: Papers per topic on each site (the venue and the preprint server share works: at most 10 between them).
FRESH8_PER_TOPIC: dict[str, tuple[int, int]] = {
    "fresh8-portal": (5, 7),
    "fresh8-review": (4, 5),
    "fresh8-preprints": (4, 5),
}
#: Works on two sites: preprints whose final versions the venue accepted.
FRESH8_SHARED: dict[tuple[str, str], tuple[str, ...]] = {("fresh8-preprints", "fresh8-review"): ("sign-video",)}
#: What `unfamiliar_corpus` adds, from its own random stream: the sites, requests and shared works.
FRESH8_BATCH = (FRESH8_SITE_SPECS, FRESH8_PLANS, FRESH8_SHARED)

_ALPHABET = "abcdefghijkmnopqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789"


def _forum_id(serial: int, title: str) -> str:
    """A ten-character note id, as an open-review system gives one."""
    number = zlib.crc32(f"{serial}:{title}".encode()) * 7919 + serial
    chars = []
    for _ in range(10):
        number, digit = divmod(number, len(_ALPHABET))
        chars.append(_ALPHABET[digit])
    return "".join(chars)


def fresh8_identity(layout: str, day: date, serial: int, title: str) -> tuple[str, str, str, str | None, str | None]:
    """(key, path, PDF path, DOI, preprint id) of an item of the eighth fresh batch."""
    if layout == "fresh8-portal":
        slug = url_slug(title)
        return f"ro{serial:05d}", f"/en/publications/{slug}", f"/files/{40000 + serial}/{slug}.pdf", None, None
    if layout == "fresh8-review":
        key = _forum_id(serial, title)
        return key, f"/forum/{key}", f"/pdf/{key}", None, None
    key = f"{day:%Y%m}.{serial:04d}"
    return key, f"/manuscript/{key}", f"/manuscript/{key}/download", None, key
