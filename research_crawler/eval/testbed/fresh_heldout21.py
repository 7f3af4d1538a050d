"""HELD OUT, and fresh (twenty-first batch): three more sites built as a GitLab-like code forge of research software
with its software papers, a Sciety-like aggregator of preprint evaluations and a ResearchGate-like academic social
network are, on topics no other testbed site holds (`fresh_heldout21_topics.toml`), written with their requests and
ground truth before the crawler was ever run on them. Do not read or tune anything to this module, to
`fresh_heldout21_forge.py`, `fresh_heldout21_reviews.py`, `fresh_heldout21_social.py` or the topics file: their
first run is the measure.

- Halvard Code (`fresh21-forge`, in `fresh_heldout21_forge.py`): a GitLab instance of a university's research
  software groups. `/` sends an anonymous visitor to "Explore projects", every project twenty a page by last
  activity (numbered pages); groups list their projects alphabetically, six at a time, with keyset "Next" links;
  topics list theirs by name. A project's page renders its README (badges, install, "Citing" with a BibTeX entry
  that has the year only) and links its releases (dated later than the paper) and its software paper, a
  `paper/paper.md` file rendered with its YAML front matter shown as a code block ("date: 12 March 2024", the
  authors one per entry with ORCID and affiliation indices), then Summary and Statement of need; no meta tags. The
  search, the API, sign-in, blame, commits and archives are forbidden.
- PreLens (`fresh21-reviews`, in `fresh_heldout21_reviews.py`): a Sciety-like aggregator where review groups
  evaluate preprints. Groups (`/groups/<slug>`) have an about page and an "Evaluated articles" list (`/lists/<id>`)
  ordered by the date of the latest evaluation, five a page ("Next page"); users' curated lists likewise; a GET
  search (`/search?query=`) with ten results a page. An article page (`/articles/activity/10.1101/…`) gives the
  title, every author, "Posted Mar 12, 2024 on bioRxiv", the abstract and the evaluations, each dated, and, for a
  preprint since published, the journal version; Open Graph tags without dates.
- ScholarNet (`fresh21-social`, in `fresh_heldout21_social.py`): a ResearchGate-like network. The landing page
  leads to the institution directory, an institution's departments and a department's research, five a page newest
  first (numbered pages), each entry "Article · Mar 2024 · Journal" with its authors, four at most then "[...]" and
  the last. A publication page (`/publication/<number>_<Title_words>`) shows the month and year only, the journal,
  the DOI, every author linked to their profile, the abstract and, for an article first reviewed as a preprint, a
  link to its evaluations on PreLens (one work, two sites); citation meta tags with "2024/03". A profile shows two
  research items and loads the rest by script ("Show more", JSON with a cursor). Search, sign-up, log-in and
  full-text requests are forbidden.
"""

from __future__ import annotations

import hashlib
import re
from datetime import date

from research_crawler.eval.testbed.models import SiteSpec

__all__ = [
    "FRESH21_BATCH",
    "FRESH21_PER_TOPIC",
    "FRESH21_PLANS",
    "FRESH21_SITE_SPECS",
    "FRESH21_TOPICS_FILE",
    "NAMESPACES",
    "fresh21_identity",
    "namespace_of",
    "preprint_doi",
    "project_name",
    "publication_number",
    "title_words",
]

#: The twenty-first batch's own topics and near misses (the format of `unfamiliar_topics.toml`), held out with it.
FRESH21_TOPICS_FILE = "fresh_heldout21_topics.toml"

FRESH21_SITE_SPECS: tuple[SiteSpec, ...] = (
    SiteSpec(
        name="fresh21-forge",
        title="Halvard Code",
        layout="fresh21-forge",
        tagline="The GitLab of Halvard University's research software groups",
        categories={
            "bat-calls": "bioacoustics",
            "glacier-velocity": "glaciology",
            "bat-other": "bioacoustics",
            "glacier-other": "glaciology",
        },
    ),
    SiteSpec(
        name="fresh21-reviews",
        title="PreLens",
        layout="fresh21-reviews",
        tagline="Preprint evaluations from the communities that review them",
        categories={
            "microbiome-sleep": "Microbiology",
            "fin-regeneration": "Developmental Biology",
            "microbiome-other": "Microbiology",
            "fin-other": "Developmental Biology",
        },
    ),
    SiteSpec(
        name="fresh21-social",
        title="ScholarNet",
        layout="fresh21-social",
        tagline="Discover research and connect with the people who do it",
        categories={
            "microbiome-sleep": "Department of Physiology",
            "heatwave-mental-health": "Department of Psychiatry",
            "microbiome-other": "Department of Physiology",
            "heatwave-other": "Department of Psychiatry",
        },
    ),
)
#: Each site's requests, as `unfamiliar_corpus.UNFAMILIAR_PLANS` writes them.
FRESH21_PLANS: dict[str, tuple[str, ...]] = {
    "fresh21-forge": ("recent", "topic", "author"),
    "fresh21-reviews": ("topic", "recent", "year", "cross:fresh21-social"),
    "fresh21-social": ("recent", "year", "topic", "author"),
}
#: Papers per topic on each site (the aggregator and the network share works: at most 10 between them).
FRESH21_PER_TOPIC: dict[str, tuple[int, int]] = {
    "fresh21-forge": (6, 8),
    "fresh21-reviews": (5, 6),
    "fresh21-social": (4, 4),
}
#: Works on two sites: preprints the aggregator's groups evaluated, whose journal versions the network lists.
FRESH21_SHARED: dict[tuple[str, str], tuple[str, ...]] = {
    ("fresh21-reviews", "fresh21-social"): ("microbiome-sleep",),
}
#: What `unfamiliar_corpus` adds, from its own random stream: the sites, requests and shared works.
FRESH21_BATCH = (FRESH21_SITE_SPECS, FRESH21_PLANS, FRESH21_SHARED)

#: The forge's namespaces (path → the group's name); a project's namespace is fixed by its paper's title.
NAMESPACES: dict[str, str] = {
    "ecology-lab": "Vestre Ecology Lab",
    "cryosphere": "Cryosphere Remote Sensing Group",
    "rse": "Research Software Engineering",
}
_FIRST = ("ka", "tor", "vel", "mir", "sun", "bra", "lo", "fen", "dra", "qui", "har", "ost", "pel", "rin", "ze", "mo")
_SECOND = ("bat", "lis", "kor", "van", "tek", "sul", "nox", "ria", "dun", "pix", "gla", "mer", "tra", "fyr", "lum")


def _digest(text: str) -> int:
    return int(hashlib.sha1(text.encode()).hexdigest()[:12], 16)


def namespace_of(title: str) -> str:
    """The group whose project holds the software paper."""
    return tuple(NAMESPACES)[_digest(title) % len(NAMESPACES)]


def project_name(serial: int, title: str) -> str:
    """The project's name ('torlis', 'velkor-py'): two syllables fixed by the serial, unique within a batch (the
    first 240 serials give 240 pairs)."""
    base = _FIRST[serial % len(_FIRST)] + _SECOND[(serial * 7 + serial // len(_FIRST)) % len(_SECOND)]
    return base + ("-py" if _digest(title) % 3 == 0 else "")


def preprint_doi(day: date, serial: int) -> str:
    """A bioRxiv-style DOI of the preprint, dated the day it was posted ('10.1101/2024.03.12.584321')."""
    return f"10.1101/{day:%Y.%m.%d}.{580_000 + serial * 37:06d}"


def publication_number(serial: int, title: str) -> int:
    """The network's nine-digit number of a publication."""
    return 370_000_000 + _digest(title) % 9_000_000 * 3 + serial % 3


def title_words(title: str) -> str:
    """The title as the network writes it in addresses ('Heat_and_Mood_in_Lisbon')."""
    return "_".join(re.findall(r"[A-Za-z0-9]+", title))


def fresh21_identity(layout: str, day: date, serial: int, title: str) -> tuple[str, str, str, str | None, str | None]:
    """(key, path, PDF path, DOI, preprint id) of an item of the twenty-first fresh batch."""
    if layout == "fresh21-forge":
        project = f"{namespace_of(title)}/{project_name(serial, title)}"
        return (
            project,
            f"/{project}/-/blob/main/paper/paper.md",
            f"/{project}/-/jobs/artifacts/main/paper.pdf",
            None,
            None,
        )
    if layout == "fresh21-reviews":
        doi = preprint_doi(day, serial)
        return doi, f"/articles/activity/{doi}", f"/articles/{doi}.pdf", None, None
    number = publication_number(serial, title)
    doi = f"10.48731/snj.{day.year}.{serial:04d}"
    return str(number), f"/publication/{number}_{title_words(title)}", f"/publication/{number}/download", doi, None
