"""HELD OUT, and fresh (eighteenth batch): three more sites built as an Espacenet-like patent register, a
PubMed-like biomedical literature database and a Drupal university department's news-and-publications site are, on
topics no other testbed site holds (`fresh_heldout18_topics.toml`), written with their requests and ground truth
before the crawler was ever run on them. Do not read or tune anything to this module, to
`fresh_heldout18_patents.py`, `fresh_heldout18_literature.py`, `fresh_heldout18_department.py` or the topics file:
their first run is the measure.

- Nordhavn Patent Register (`fresh18-patents`, in `fresh_heldout18_patents.py`): an Espacenet-like register of
  published patent applications: the classification browser leads to CPC subclasses whose documents are listed
  newest publication first by the page; a publication's bibliographic data gives its number with its kind code,
  inventors and applicants as patent offices write them, the application, priority and publication dates, the
  classifications and the family's other members (a later grant among them, its own page, the same invention).
  Its search, its exports and its legal-status services are forbidden.
- MedIndex (`fresh18-literature`, in `fresh_heldout18_literature.py`): a PubMed-like database of abstracts: a home
  that links the latest literature of its journals as searches sorted by date, a GET search with numbered pages,
  result rows written as PubMed writes citations, records with full author names and affiliations, electronic and
  issue dates, MeSH terms that link to searches and citation meta tags. Its account and export pages are forbidden.
- Department of Anaesthesia and Perioperative Medicine (`fresh18-department`, in `fresh_heldout18_department.py`): a
  Drupal university department site: front page news, a news view, a Biblio publications list by year and by the
  page, staff profiles, publication nodes as Biblio shows them (dates as imported from PubMed), some linking to
  their record on the literature database (one work, two sites). Its site search, user pages and exports are
  forbidden.
"""

from __future__ import annotations

import hashlib
from datetime import date

from research_crawler.eval.testbed.models import Item, SiteSpec

__all__ = [
    "FRESH18_BATCH",
    "FRESH18_PER_TOPIC",
    "FRESH18_PLANS",
    "FRESH18_SITE_SPECS",
    "FRESH18_TOPICS_FILE",
    "JOURNALS",
    "fresh18_identity",
    "journal_of",
    "kind_code",
    "node_id",
    "pmid",
    "publication_number",
]

#: The eighteenth batch's own topics and near misses (the format of `unfamiliar_topics.toml`), held out with it.
FRESH18_TOPICS_FILE = "fresh_heldout18_topics.toml"

FRESH18_SITE_SPECS: tuple[SiteSpec, ...] = (
    SiteSpec(
        name="fresh18-literature",
        title="MedIndex",
        layout="fresh18-literature",
        tagline="Citations and abstracts of the biomedical literature",
        categories={
            "snakebite-antivenom": "Snake Bites",
            "postop-delirium": "Postoperative Cognitive Complications",
            "snakebite-other": "Snake Bites",
            "delirium-other": "Postoperative Cognitive Complications",
        },
    ),
    SiteSpec(
        name="fresh18-department",
        title="Department of Anaesthesia and Perioperative Medicine",
        layout="fresh18-department",
        tagline="Research, teaching and clinical care at Ellesford University",
        categories={
            "postop-delirium": "Perioperative Brain Health",
            "prehabilitation": "Exercise and Perioperative Medicine",
            "delirium-other": "Perioperative Brain Health",
            "prehab-other": "Exercise and Perioperative Medicine",
        },
    ),
    SiteSpec(
        name="fresh18-patents",
        title="Nordhavn Patent Register",
        layout="fresh18-patents",
        tagline="Published patent applications and granted patents",
        categories={
            "bacterial-concrete": "C04B",
            "fruit-grippers": "B25J",
            "concrete-other": "C04B",
            "gripper-other": "B25J",
        },
    ),
)
#: Each site's requests, as `unfamiliar_corpus.UNFAMILIAR_PLANS` writes them.
FRESH18_PLANS: dict[str, tuple[str, ...]] = {
    "fresh18-literature": ("topic", "year", "recent", "cross:fresh18-department"),
    "fresh18-department": ("topic", "author", "recent"),
    "fresh18-patents": ("topic", "recent", "author", "year"),
}
#: Papers per topic on each site (the department and the database share works: at most 10 between them).
FRESH18_PER_TOPIC: dict[str, tuple[int, int]] = {
    "fresh18-literature": (4, 5),
    "fresh18-department": (5, 5),
    "fresh18-patents": (5, 7),
}
#: Works on two sites: papers the department posted when accepted, indexed later by the database.
FRESH18_SHARED: dict[tuple[str, str], tuple[str, ...]] = {
    ("fresh18-department", "fresh18-literature"): ("postop-delirium",)
}
#: What `unfamiliar_corpus` adds, from its own random stream: the sites, requests and shared works.
FRESH18_BATCH = (FRESH18_SITE_SPECS, FRESH18_PLANS, FRESH18_SHARED)

#: The database's journals (abbreviation, ISSN, field): a paper's journal is one of its field's, after its title.
JOURNALS = (
    ("Br J Anaesth", "1471-6771", "perioperative"),
    ("Toxicon", "1879-3150", "tropical"),
    ("Anaesthesia", "1365-2044", "perioperative"),
    ("PLoS Negl Trop Dis", "1935-2735", "tropical"),
    ("Age Ageing", "1468-2834", "perioperative"),
)


def _digest(title: str) -> int:
    return int(hashlib.sha1(title.encode()).hexdigest()[:8], 16)


def journal_of(item: Item) -> tuple[str, str]:
    """(abbreviation, ISSN) of the journal a paper of the database or the department appeared in."""
    field = "tropical" if item.topic.startswith("snakebite") else "perioperative"
    mine = [(name, issn) for name, issn, kind in JOURNALS if kind == field]
    return mine[_digest(item.title) % len(mine)]


def kind_code(title: str) -> str:
    """A published application's kind code: A1 with its search report, A2 without."""
    return "A1" if _digest(title) % 4 else "A2"


def publication_number(serial: int) -> str:
    return f"EP{4_000_000 + 7919 * serial % 900_000}"


def pmid(serial: int) -> str:
    return str(37_000_000 + 104_729 * serial % 2_900_000)


def node_id(serial: int) -> int:
    return 200 + 37 * serial % 4000


def fresh18_identity(layout: str, day: date, serial: int, title: str) -> tuple[str, str, str, str | None, str | None]:
    """(key, path, PDF path, DOI, preprint id) of an item of the eighteenth fresh batch."""
    if layout == "fresh18-patents":
        key = publication_number(serial) + kind_code(title)
        return key, f"/publication/{key}", f"/publication/{key}/original-document.pdf", None, None
    if layout == "fresh18-literature":
        key = pmid(serial)
        doi = f"10.{1016 + 170 * (serial % 3)}/s{12871 + serial % 9}-{day:%y}-{serial:05d}"
        return key, f"/{key}/", f"/pmc/articles/PMC{9_000_000 + serial}/pdf/", doi, None
    nid = node_id(serial)
    doi = f"10.{1016 + 170 * (serial % 3)}/s{12871 + serial % 9}-{day:%y}-{serial:05d}"
    return str(nid), f"/node/{nid}", f"/sites/default/files/biblio/{nid}-accepted.pdf", doi, None
