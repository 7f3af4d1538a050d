"""HELD OUT, and fresh (thirteenth batch): three more sites built as a museum's Omeka S digital collections, a
university's Talis-Aspire-like reading lists and a Kaltura-MediaSpace-like lecture video archive are, on topics no
other testbed site holds (`fresh_heldout13_topics.toml`), written with their requests and ground truth before the
crawler was ever run on them. Do not read or tune anything to this module, to `fresh_heldout13_collections.py`,
`fresh_heldout13_readinglists.py`, `fresh_heldout13_lectures.py` or the topics file: their first run is the measure.

- Harrowgate Museum Digital Collections (`fresh13-collections`, in `fresh_heldout13_collections.py`): an Omeka S
  site: the root redirects to the site's home page; items are browsed twenty-five a page by the date they were
  catalogued (Omeka's "created", newest first, not the work's date), item sets filter the browse, exhibit pages show a
  few items each; an item's page lists its Dublin Core properties as the cataloguers typed them (creators "Surname,
  Given", the date in one of two forms), its media (a page framing the PDF) and its item sets; the museum's reports
  and papers sit among specimen photographs, field notebooks, maps and letters; no meta tags; the search, the API
  and the admin forbidden by robots.txt.
- Kingsbridge University Reading Lists (`fresh13-readinglists`, in `fresh_heldout13_readinglists.py`): a
  Talis-Aspire-like reading list service: a hierarchy of faculties, departments and modules, each module linking
  this year's list and last year's archived one; a list runs by weekly sections in the tutor's order with each
  entry's authors "Surname, Given", its year only, its type and importance; an item page gives the full date written
  day/month/year, the journal and a digitised copy; books, chapters, web pages and videos among the articles; the
  search, exports, bookmarks and logins forbidden.
- Northfield University MediaSpace (`fresh13-lectures`, in `fresh_heldout13_lectures.py`): a Kaltura-MediaSpace-like
  video portal of recorded seminars: channels whose media lists show twelve entries newest first and load the rest
  by script ("Load More"), channel playlists of each seminar year in full, entry pages whose owner is the media team
  (the speaker only in the description), dates written "March 15th, 2024", tags, an interactive transcript and
  attachments (the paper); lab tours, welcome talks and panels among the seminars. Some seminars present a paper of
  the museum's collections and link to it (one work, two sites); the search and user pages forbidden.
"""

from __future__ import annotations

import hashlib
from datetime import date

from research_crawler.eval.testbed.models import SiteSpec

__all__ = [
    "FRESH13_BATCH",
    "FRESH13_PER_TOPIC",
    "FRESH13_PLANS",
    "FRESH13_SITE_SPECS",
    "FRESH13_TOPICS_FILE",
    "OMEKA_SITE",
    "entry_id",
    "fresh13_identity",
    "media_name",
    "talis_id",
]

#: The thirteenth batch's own topics and near misses (the format of `unfamiliar_topics.toml`), held out with it.
FRESH13_TOPICS_FILE = "fresh_heldout13_topics.toml"

FRESH13_SITE_SPECS: tuple[SiteSpec, ...] = (
    SiteSpec(
        name="fresh13-collections",
        title="Harrowgate Museum Digital Collections",
        layout="fresh13-collections",
        tagline="Specimens, archives and research of the Harrowgate Museum of Natural History",
        categories={
            "lead-ammunition": "Bird Collections",
            "tsunami-deposits": "Geology Collections",
            "lead-other": "Bird Collections",
            "tsunami-other": "Geology Collections",
        },
    ),
    SiteSpec(
        name="fresh13-readinglists",
        title="Kingsbridge University Reading Lists",
        layout="fresh13-readinglists",
        tagline="Reading lists for every module at Kingsbridge University",
        categories={
            "sms-adherence": "PH7021 Digital Health Interventions",
            "green-roofs": "CE6104 Sustainable Urban Drainage",
            "sms-other": "PH7021 Digital Health Interventions",
            "roofs-other": "CE6104 Sustainable Urban Drainage",
        },
    ),
    SiteSpec(
        name="fresh13-lectures",
        title="Northfield University MediaSpace",
        layout="fresh13-lectures",
        tagline="Lecture capture and seminar recordings of Northfield University",
        categories={
            "volcanic-ash": "Atmospheric Science Seminars",
            "tsunami-deposits": "Quaternary Research Seminars",
            "ash-other": "Atmospheric Science Seminars",
        },
    ),
)
#: Each site's requests, as `unfamiliar_corpus.UNFAMILIAR_PLANS` writes them.
FRESH13_PLANS: dict[str, tuple[str, ...]] = {
    "fresh13-collections": ("topic", "recent", "year", "author"),
    "fresh13-readinglists": ("topic", "recent", "year", "author"),
    "fresh13-lectures": ("topic", "cross:fresh13-collections", "recent"),
}
#: Papers per topic on each site (the collections and the seminars share works: at most 10 between them).
FRESH13_PER_TOPIC: dict[str, tuple[int, int]] = {
    "fresh13-collections": (5, 5),
    "fresh13-readinglists": (5, 6),
    "fresh13-lectures": (4, 5),
}
#: Works on two sites: the museum's papers on one topic that a seminar presented later.
FRESH13_SHARED: dict[tuple[str, str], tuple[str, ...]] = {
    ("fresh13-collections", "fresh13-lectures"): ("tsunami-deposits",)
}
#: What `unfamiliar_corpus` adds, from its own random stream: the sites, requests and shared works.
FRESH13_BATCH = (FRESH13_SITE_SPECS, FRESH13_PLANS, FRESH13_SHARED)

#: The Omeka S site's slug: every public page sits under `/s/<slug>/`.
OMEKA_SITE = "/s/collections"
_ENTRY_ALPHABET = "0123456789abcdefghijklmnopqrstuvwxyz"


def entry_id(number: int) -> str:
    """A Kaltura entry id ('1_k3v9q2xa'), drawn from `number`."""
    value = number * 2246822519 % 36**8
    chars = []
    for _ in range(8):
        value, rest = divmod(value, 36)
        chars.append(_ENTRY_ALPHABET[rest])
    return "1_" + "".join(chars)


def media_name(title: str) -> str:
    """A title as MediaSpace writes it in a media URL: its words joined by '+', punctuation dropped."""
    words = "".join(c if c.isalnum() or c in " -" else " " for c in title).split()
    return "+".join(words)


def talis_id(number: int) -> str:
    """A resource id as the reading list service writes it ('5C3E0F1A-2B4D-8E17-0A9C-6D2F4B8E1C03')."""
    digest = hashlib.sha1(f"talis-{number}".encode()).hexdigest().upper()
    return f"{digest[:8]}-{digest[8:12]}-{digest[12:16]}-{digest[16:20]}-{digest[20:32]}"


def fresh13_identity(layout: str, day: date, serial: int, title: str) -> tuple[str, str, str, str | None, str | None]:
    """(key, path, PDF path, DOI, preprint id) of an item of the thirteenth fresh batch."""
    if layout == "fresh13-collections":
        number = 310 + 3 * serial
        digest = hashlib.sha1(f"omeka-{serial}".encode()).hexdigest()
        return str(number), f"{OMEKA_SITE}/item/{number}", f"/files/original/{digest}.pdf", None, None
    if layout == "fresh13-readinglists":
        key = talis_id(serial)
        return key, f"/items/{key}.html", f"/digitisations/{key}.pdf", None, None
    entry = entry_id(serial)
    return entry, f"/media/{media_name(title)}/{entry}", f"/media/attachment/{entry}/paper.pdf", None, None
