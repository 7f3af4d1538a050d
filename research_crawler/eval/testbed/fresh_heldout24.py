"""HELD OUT, and fresh (twenty-fourth batch): three more sites built as a Europe-PMC-like database of life-science
literature and preprints, an Episciences-like overlay journal whose articles are peer-reviewed preprints, and a
EurekAlert!-like service of research news releases are, on topics no other testbed site holds
(`fresh_heldout24_topics.toml`), written with their requests and ground truth before the crawler was ever run on
them. Do not read or tune anything to this module, to `fresh_heldout24_pmc.py`, `fresh_heldout24_overlay.py`,
`fresh_heldout24_newsroom.py` or the topics file: their first run is the measure.

- Lumina PMC (`fresh24-pmc`, in `fresh_heldout24_pmc.py`): a Europe-PMC-like literature database. Everything is a
  GET search (`/search?query=...`): twenty-five results a page, journal articles (fillers on other subjects) and
  preprints mixed, paged by an opaque cursor ("Next 25 ›" with `cursorMark=`, no page numbers), sorted by relevance
  or by date, with facet links (source, year, preprint server). The home page links the newest preprints and each
  subject's preprints; a preprint record (`/article/PPR/PPR812345`) shows the authors as "Okafor A, Rossi C" with an
  "Author information" list of full names, "Posted: 2024 Mar 12", the server and its own DOI, the abstract and
  schema.org JSON-LD; one later published names and links its version of record. robots.txt forbids the REST API and
  the export pages.
- Annals of Quantitative Biology (`fresh24-overlay`, in `fresh_heldout24_overlay.py`): an Episciences-like overlay
  journal. Articles are preprints it has peer-reviewed: a page (`/10123`) gives "Aino Okafor ; Chiara Rossi",
  "Submitted on: …", "Accepted on: …", "Published on: March 12, 2024", the volume and section, the source preprint
  (an arXiv identifier, or the database's preprint record for those first posted there), the DOI and `citation_*`
  tags. "Latest articles" lists ten a page with numbered pages; volumes (one a year) and sections list theirs;
  authors are browsed by letter. The search is forbidden by robots.txt.
- ScienceWire (`fresh24-newsroom`, in `fresh_heldout24_newsroom.py`): a EurekAlert!-like service where universities
  post news releases. The home page shows the latest eight; every release is listed twenty a page with numbered
  pages (`/news-releases/browse/all?page=2`); a subject channel shows ten and a "Load more" button whose script
  fetches the next ten as HTML. A release about a paper (`/news-releases/1038765`) has a headline of its own, the
  institution, "12-Mar-2024", a body naming the first author and co-authors in prose and the paper's fields
  ("Journal", "DOI", "Article Title", "Article Publication Date"); announcements, grants and meeting notices sit among
  them; no metadata tags. A GET search is open; robots.txt forbids embargoed releases and the reporters' portal.
"""

from __future__ import annotations

import hashlib
from datetime import date, timedelta

from research_crawler.eval.testbed.models import SiteSpec

__all__ = [
    "FRESH24_BATCH",
    "FRESH24_PER_TOPIC",
    "FRESH24_PLANS",
    "FRESH24_SHARED",
    "FRESH24_SITE_SPECS",
    "FRESH24_TOPICS_FILE",
    "JOURNALS",
    "SERVERS",
    "arxiv_source",
    "docid",
    "fresh24_identity",
    "journal_of",
    "ppr_id",
    "release_id",
    "server_of",
]

#: The twenty-fourth batch's own topics and near misses (the format of `unfamiliar_topics.toml`), held out with it.
FRESH24_TOPICS_FILE = "fresh_heldout24_topics.toml"

FRESH24_SITE_SPECS: tuple[SiteSpec, ...] = (
    SiteSpec(
        name="fresh24-pmc",
        title="Lumina PMC",
        layout="fresh24-pmc",
        tagline="Search life-sciences literature: abstracts, full text and preprints",
        categories={
            "viral-within-host": "Virology",
            "shiftwork-circadian": "Occupational Medicine",
            "viral-other": "Virology",
            "shiftwork-other": "Occupational Medicine",
        },
    ),
    SiteSpec(
        name="fresh24-overlay",
        title="Annals of Quantitative Biology",
        layout="fresh24-overlay",
        tagline="An overlay journal: peer review of open preprints",
        categories={
            "viral-within-host": "Infectious disease dynamics",
            "step-selection": "Movement ecology",
            "viral-other": "Infectious disease dynamics",
            "movement-other": "Movement ecology",
        },
    ),
    SiteSpec(
        name="fresh24-newsroom",
        title="ScienceWire",
        layout="fresh24-newsroom",
        tagline="Research news releases from universities and institutes",
        categories={
            "shiftwork-circadian": "Medicine & Health",
            "step-selection": "Ecology & Environment",
            "shiftwork-other": "Medicine & Health",
            "movement-other": "Ecology & Environment",
        },
    ),
)
#: Each site's requests, as `unfamiliar_corpus.UNFAMILIAR_PLANS` writes them.
FRESH24_PLANS: dict[str, tuple[str, ...]] = {
    "fresh24-pmc": ("topic", "recent", "author", "cross:fresh24-overlay"),
    "fresh24-overlay": ("recent", "year", "topic"),
    "fresh24-newsroom": ("topic", "recent", "year", "author"),
}
#: Papers per topic on each site (the database and the journal share works: at most 10 between them).
FRESH24_PER_TOPIC: dict[str, tuple[int, int]] = {
    "fresh24-pmc": (5, 6),
    "fresh24-overlay": (4, 4),
    "fresh24-newsroom": (5, 7),
}
#: Works on two sites: preprints the database indexes whose peer-reviewed versions the overlay journal published.
FRESH24_SHARED: dict[tuple[str, str], tuple[str, ...]] = {
    ("fresh24-pmc", "fresh24-overlay"): ("viral-within-host",),
}
#: What `unfamiliar_corpus` adds, from its own random stream: the sites, requests and shared works.
FRESH24_BATCH = (FRESH24_SITE_SPECS, FRESH24_PLANS, FRESH24_SHARED)

#: The preprint servers the database indexes (code in their DOIs → name).
SERVERS: dict[str, str] = {
    "rsq": "Research Square",
    "mdx": "medRxiv",
    "ssp": "SSRN Preprints with The Lancet",
    "bio": "bioRxiv",
}
#: The journals the newsroom's releases report papers in, by the subject the release is filed under.
JOURNALS: dict[str, tuple[str, ...]] = {
    "Medicine & Health": ("Journal of Occupational and Environmental Health", "Chronobiology Reports"),
    "Ecology & Environment": ("Movement Ecology Letters", "Journal of Wildlife Management Research"),
}


def _digest(text: str) -> int:
    return int(hashlib.sha1(text.encode()).hexdigest()[:12], 16)


def ppr_id(serial: int) -> str:
    """The database's identifier of a preprint record ('PPR812345'): unique in a batch."""
    return f"PPR{700000 + serial * 389 % 200000}"


def docid(serial: int) -> str:
    """The overlay journal's document number ('10123'): unique in a batch."""
    return str(10000 + serial * 53 % 9000)


def release_id(serial: int) -> str:
    """The newsroom's number of a news release ('1038765'): unique in a batch."""
    return str(1000000 + serial * 7919 % 900000)


def server_of(title: str) -> str:
    """The code of the preprint server a preprint was posted on."""
    return tuple(SERVERS)[_digest(title) % len(SERVERS)]


def journal_of(title: str, category: str) -> str:
    """The journal a paper reported in a news release filed under `category` appeared in."""
    journals = JOURNALS.get(category, ("Journal of Applied Research",))
    return journals[_digest(title) % len(journals)]


def arxiv_source(day: date, title: str) -> str:
    """The arXiv identifier of the preprint an overlay article was submitted as, posted before it appeared."""
    posted = day - timedelta(days=120 + _digest(title) % 200)
    return f"{posted:%y%m}.{10000 + _digest(title + 'x') % 89999:05d}"


def fresh24_identity(layout: str, day: date, serial: int, title: str) -> tuple[str, str, str, str | None, str | None]:
    """(key, path, PDF path, DOI, preprint id) of an item of the twenty-fourth fresh batch."""
    if layout == "fresh24-pmc":
        key = ppr_id(serial)
        return key, f"/article/PPR/{key}", f"/article/PPR/{key}/preprint.pdf", None, None
    if layout == "fresh24-overlay":
        key = docid(serial)
        return key, f"/{key}", f"/{key}/pdf", f"10.46298/aqb.{key}", arxiv_source(day, title)
    key = release_id(serial)
    doi = f"10.5561/jar.{day.year}.{serial:04d}"
    return key, f"/news-releases/{key}", f"/news-releases/{key}/print.pdf", doi, None
