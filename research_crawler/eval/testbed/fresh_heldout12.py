"""HELD OUT, and fresh (twelfth batch): three more sites built as a university's electronic theses repository, a
research trust's newsletter and a research network's shared bibliography are, on topics no other testbed site holds
(`fresh_heldout12_topics.toml`), written with their requests and ground truth before the crawler was ever run on
them. Do not read or tune anything to this module, to `fresh_heldout12_theses.py`, `fresh_heldout12_newsletter.py`,
`fresh_heldout12_library.py` or the topics file: their first run is the measure.

- Thornbury University Research Repository (`fresh12-theses`, in `fresh_heldout12_theses.py`): a DSpace-like
  repository of electronic theses: communities (faculties) hold sub-communities (schools), whose collections of
  doctoral and masters theses (and a collection of datasets that are not works) are browsed by issue date oldest
  first twenty a page, by title and by author; a collection's "Recent Submissions" go by accession, not issue; an
  item's simple record gives the issue date, the author and supervisors written surname first, files (some under
  embargo) and Dublin Core and citation meta tags; its full record gives every dc field with the accession
  timestamp; discovery search, statistics and logins forbidden by robots.txt.
- Riverwatch Notes (`fresh12-newsletter`, in `fresh_heldout12_newsletter.py`): a Substack-like newsletter of a
  rivers trust's research team: an archive that shows twelve posts and scrolls the rest in by script from a JSON
  API, sections, an HTML sitemap by year and month and an XML one, posts of the current year dated without their
  year in listings; research posts among link roundups, podcast episodes, open threads and paid-only posts; some
  posts present a thesis of the repository and link to it (one work, two sites); comments and sign-in forbidden.
- Urban Health Evidence Network library (`fresh12-library`, in `fresh_heldout12_library.py`): a Zotero-like group
  library: a group page, a library of items twenty-five a page sorted by title (column headers re-sort by creator,
  date or date added), collections and sub-collections, items of many types (web pages, newspaper articles,
  presentations and datasets among articles, reports and conference papers), creators written surname first,
  dates as each was entered, child attachments and notes; exports and the library search forbidden by robots.txt.
"""

from __future__ import annotations

from datetime import date

from research_crawler.eval.testbed.markup import url_slug
from research_crawler.eval.testbed.models import SiteSpec

__all__ = [
    "FRESH12_BATCH",
    "FRESH12_PER_TOPIC",
    "FRESH12_PLANS",
    "FRESH12_SITE_SPECS",
    "FRESH12_TOPICS_FILE",
    "fresh12_identity",
    "zotero_key",
]

#: The twelfth batch's own topics and near misses (the format of `unfamiliar_topics.toml`), held out with it.
FRESH12_TOPICS_FILE = "fresh_heldout12_topics.toml"

FRESH12_SITE_SPECS: tuple[SiteSpec, ...] = (
    SiteSpec(
        name="fresh12-theses",
        title="Thornbury University Research Repository",
        layout="fresh12-theses",
        tagline="Theses, dissertations and research data of Thornbury University",
        categories={
            "urban-vowels": "School of Languages and Linguistics",
            "signal-crayfish": "School of Biological and Environmental Sciences",
            "crayfish-other": "School of Biological and Environmental Sciences",
            "vowels-other": "School of Languages and Linguistics",
        },
    ),
    SiteSpec(
        name="fresh12-newsletter",
        title="Riverwatch Notes",
        layout="fresh12-newsletter",
        tagline="Field notes and research from the Tarn Valley Rivers Trust",
        categories={
            "beaver-floods": "Water and land",
            "signal-crayfish": "Invaders",
            "beaver-other": "Water and land",
        },
    ),
    SiteSpec(
        name="fresh12-library",
        title="Urban Health Evidence Network",
        layout="fresh12-library",
        tagline="A shared library of the network's evidence on health in cities",
        categories={
            "escooter-injuries": "Micromobility",
            "social-prescribing": "Community referral",
            "scooter-other": "Micromobility",
            "prescribing-other": "Community referral",
        },
    ),
)
#: Each site's requests, as `unfamiliar_corpus.UNFAMILIAR_PLANS` writes them.
FRESH12_PLANS: dict[str, tuple[str, ...]] = {
    "fresh12-theses": ("topic", "recent", "year"),
    "fresh12-newsletter": ("topic", "cross:fresh12-theses", "author", "recent"),
    "fresh12-library": ("topic", "recent", "year", "author"),
}
#: Papers per topic on each site (the repository and the newsletter share works: at most 10 between them).
FRESH12_PER_TOPIC: dict[str, tuple[int, int]] = {
    "fresh12-theses": (5, 5),
    "fresh12-newsletter": (4, 5),
    "fresh12-library": (5, 6),
}
#: Works on two sites: theses on one topic that the newsletter presents in posts of their own.
FRESH12_SHARED: dict[tuple[str, str], tuple[str, ...]] = {
    ("fresh12-theses", "fresh12-newsletter"): ("signal-crayfish",)
}
#: What `unfamiliar_corpus` adds, from its own random stream: the sites, requests and shared works.
FRESH12_BATCH = (FRESH12_SITE_SPECS, FRESH12_PLANS, FRESH12_SHARED)

_KEY_ALPHABET = "23456789ABCDEFGHIJKLMNPQRSTUVWXYZ"


def zotero_key(number: int) -> str:
    """An eight-character object key as the library writes them ('7XK2M9QA'), drawn from `number`."""
    value = number * 2654435761 % 33**8
    chars = []
    for _ in range(8):
        value, rest = divmod(value, 33)
        chars.append(_KEY_ALPHABET[rest])
    return "".join(chars)


def fresh12_identity(layout: str, day: date, serial: int, title: str) -> tuple[str, str, str, str | None, str | None]:
    """(key, path, PDF path, DOI, preprint id) of an item of the twelfth fresh batch."""
    if layout == "fresh12-theses":
        handle = 4000 + 11 * serial
        return f"10523/{handle}", f"/handle/10523/{handle}", f"/bitstream/handle/10523/{handle}/thesis.pdf", None, None
    if layout == "fresh12-newsletter":
        slug = url_slug(title)
        return slug, f"/p/{slug}", f"/api/v1/file/{serial * 7919 % 10**8:08x}-paper.pdf", None, None
    key = zotero_key(serial)
    base = f"/groups/5187243/urban_health_evidence/items/{key}"
    return key, base, f"{base}/attachment/{zotero_key(serial + 50000)}/file.pdf", None, None
