"""HELD OUT, and fresh (twenty-second batch): three more sites built as an OSF-hosted preprint service whose pages
a script draws from a JSON:API, a hydrology lab's handbook written as a Jupyter Book with a companion notebook for
each of its papers, and a university press's catalogue of books are, on topics no other testbed site holds
(`fresh_heldout22_topics.toml`), written with their requests and ground truth before the crawler was ever run on
them. Do not read or tune anything to this module, to `fresh_heldout22_osf.py`, `fresh_heldout22_handbook.py`,
`fresh_heldout22_press.py` or the topics file: their first run is the measure.

- Scree Preprints (`fresh22-osf`, in `fresh_heldout22_osf.py`): an earth-science preprint service hosted on an
  OSF-like platform. Every page is the same application shell (a `<noscript>` note, a script) that draws itself from
  the platform's JSON:API on the same origin (`/api/v2/…`, JSON:API documents with `links.next`); the provider's
  landing page (`/preprints/scree`) lists its subjects, "discover" lists a subject's preprints ten at a time, newest
  first, with a "Load more" button that follows the API's next link. A preprint's page (`/preprints/scree/<guid>`)
  carries `citation_*` tags in its head (authors "Surname, Given", the date "2024/03/12") and shows, once drawn, the
  title, the bibliographic contributors only, "Created: March 12, 2024", the abstract, the preprint DOI, and for a
  preprint since published its peer-reviewed DOI and the lab's companion page of the paper (one work, two sites).
  robots.txt names the sitemap and forbids the platform's search API, sign-in and the file renderer.
- Tarn Lab Handbook (`fresh22-handbook`, in `fresh_heldout22_handbook.py`): a Jupyter Book (Sphinx book theme) of
  a university hydrology lab: `/` redirects to the introduction; a sidebar table of contents of parts (welcome,
  working in the lab, fieldwork, computing, paper companions) whose chapters unfold only for the page being read;
  "Paper companions" has a chapter per year, each listing that year's papers as a bibliography (APA, ordered by first
  author: "Okafor, A., Rossi, C., & Vance, D. (2024). Title. Journal, 12(3), 45–67.") linking the companion pages;
  a companion page states the paper's title, its authors joined with "and", "Published 12 March 2024 in <journal>",
  its DOI, the preprint when there was one, the abstract and notebook cells that redo its figures; "Previous" and
  "Next" links, a footer "Last updated on" a later day; no metadata tags. Search is a script over a search index;
  robots.txt forbids the notebook sources and downloads.
- Calder University Press (`fresh22-press`, in `fresh_heldout22_press.py`): a university press's catalogue of
  books. The home shows the six newest as "New & Noteworthy"; subjects list their books six a page, sorted by title
  unless the visitor picks "Newest first" (`?sort=pubdate`), with numbered pages, each entry with two authors then
  "et al." and "Hardcover · Mar 2024"; seasonal catalogues (`/catalogs/spring-2024`) list a season's books under
  month headings ("March 2024"); series pages list their volumes by number; a book's page
  (`/9781…/holy-miles/`) names every author ("By A and B" / "By A, B, C, and D"), its formats, each with its ISBN and
  its own date (hardcover "03/12/2024", the paperback, once out, a year or more later), the description, praise by
  other scholars, the contents and notes on the authors, and carries schema.org Book JSON-LD; an author's page lists
  their books. The search posts a form; robots.txt forbids it, the cart, desk and exam copies.
"""

from __future__ import annotations

import hashlib
from datetime import date

from research_crawler.eval.testbed.markup import url_slug
from research_crawler.eval.testbed.models import SiteSpec

__all__ = [
    "FRESH22_BATCH",
    "FRESH22_PER_TOPIC",
    "FRESH22_PLANS",
    "FRESH22_SHARED",
    "FRESH22_SITE_SPECS",
    "FRESH22_TOPICS_FILE",
    "JOURNALS",
    "fresh22_identity",
    "isbn13",
    "journal_of",
    "osf_guid",
]

#: The twenty-second batch's own topics and near misses (the format of `unfamiliar_topics.toml`), held out with it.
FRESH22_TOPICS_FILE = "fresh_heldout22_topics.toml"

FRESH22_SITE_SPECS: tuple[SiteSpec, ...] = (
    SiteSpec(
        name="fresh22-osf",
        title="Scree Preprints",
        layout="fresh22-osf",
        tagline="The open preprint service for the Earth surface sciences",
        categories={
            "landslide-rainfall": "Geomorphology",
            "river-ice-breakup": "Hydrology",
            "landslide-other": "Geomorphology",
            "riverice-other": "Hydrology",
        },
    ),
    SiteSpec(
        name="fresh22-handbook",
        title="Tarn Lab Handbook",
        layout="fresh22-handbook",
        tagline="How we work, and the notebooks behind our papers",
        categories={
            "landslide-rainfall": "Hillslope hydrology",
            "snow-drought": "Snow hydrology",
            "landslide-other": "Hillslope hydrology",
            "snowdrought-other": "Snow hydrology",
        },
    ),
    SiteSpec(
        name="fresh22-press",
        title="Calder University Press",
        layout="fresh22-press",
        tagline="Books that last, since 1893",
        categories={
            "medieval-pilgrimage": "History",
            "silent-cinema": "Film & Media Studies",
            "pilgrimage-other": "History",
            "cinema-other": "Film & Media Studies",
        },
    ),
)
#: Each site's requests, as `unfamiliar_corpus.UNFAMILIAR_PLANS` writes them.
FRESH22_PLANS: dict[str, tuple[str, ...]] = {
    "fresh22-osf": ("topic", "recent", "year", "cross:fresh22-handbook"),
    "fresh22-handbook": ("recent", "year", "topic", "author"),
    "fresh22-press": ("recent", "topic", "author"),
}
#: Papers per topic on each site (the service and the handbook share works: at most 10 between them).
FRESH22_PER_TOPIC: dict[str, tuple[int, int]] = {
    "fresh22-osf": (5, 6),
    "fresh22-handbook": (4, 4),
    "fresh22-press": (6, 8),
}
#: Works on two sites: preprints on the service whose published papers have a companion page in the handbook.
FRESH22_SHARED: dict[tuple[str, str], tuple[str, ...]] = {
    ("fresh22-osf", "fresh22-handbook"): ("landslide-rainfall",),
}
#: What `unfamiliar_corpus` adds, from its own random stream: the sites, requests and shared works.
FRESH22_BATCH = (FRESH22_SITE_SPECS, FRESH22_PLANS, FRESH22_SHARED)

#: The journals the lab publishes in (code in its DOIs → name).
JOURNALS: dict[str, str] = {
    "nhr": "Natural Hazards Review Letters",
    "hyp": "Hydrological Processes and Systems",
    "mwr": "Mountain Water Research",
    "esl": "Earth Surface Letters",
}
_GUID = "23456789abcdefghjkmnpqrstuvwxyz"


def _digest(text: str) -> int:
    return int(hashlib.sha1(text.encode()).hexdigest()[:12], 16)


def osf_guid(serial: int, title: str) -> str:
    """The platform's five-character identifier of a preprint ('k7d2x'): fixed by the serial, unique in a batch."""
    value = serial * 7919 + _digest(title) % 97 * 2_000_003
    chars = []
    for _ in range(5):
        value, rest = divmod(value, len(_GUID))
        chars.append(_GUID[rest])
    return "".join(chars)


def isbn13(serial: int) -> str:
    """The press's ISBN-13 of a book's hardcover ('9781399012345'), with its check digit."""
    body = f"978139901{serial * 37 % 1000:03d}"
    total = sum(int(d) * (1 if n % 2 == 0 else 3) for n, d in enumerate(body))
    return body + str((10 - total % 10) % 10)


def journal_of(title: str) -> str:
    """The code of the journal a paper of the lab appeared in."""
    return tuple(JOURNALS)[_digest(title) % len(JOURNALS)]


def fresh22_identity(layout: str, day: date, serial: int, title: str) -> tuple[str, str, str, str | None, str | None]:
    """(key, path, PDF path, DOI, preprint id) of an item of the twenty-second fresh batch."""
    if layout == "fresh22-osf":
        guid = osf_guid(serial, title)
        return guid, f"/preprints/scree/{guid}", f"/preprints/scree/{guid}/download", None, None
    if layout == "fresh22-handbook":
        slug = url_slug(title, limit=48)
        doi = f"10.47219/{journal_of(title)}.{day.year}.{serial:04d}"
        return (
            f"{day.year}/{slug}",
            f"/papers/{day.year}/{slug}.html",
            f"/_static/papers/{day.year}-{slug}.pdf",
            doi,
            None,
        )
    isbn = isbn13(serial)
    slug = url_slug(title.split(":")[0], limit=40)
    return isbn, f"/{isbn}/{slug}/", f"/media/samples/{isbn}-sample.pdf", None, None
