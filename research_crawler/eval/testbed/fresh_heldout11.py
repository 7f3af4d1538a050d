"""HELD OUT, and fresh (eleventh batch): three more sites built as a standards and measurement institute's
technical publications, a university's special collections (an archival finding-aid portal) and a registry of
studies are, on topics no other testbed site holds (`fresh_heldout11_topics.toml`), written
with their requests and ground truth before the crawler was ever run on them. Do not read or tune anything to this
module, to `fresh_heldout11_standards.py`, `fresh_heldout11_archive.py`, `fresh_heldout11_registry.py` or the topics
file: their first run is the measure.

- Aldmoor Institute of Standards and Measurement (`fresh11-standards`, in `fresh_heldout11_standards.py`): a
  NIST-like publications site: technical reports in versions (public drafts, each its own page with its date and
  comment period, then the final, which may supersede an older withdrawn report and later gain errata), the work
  being the report, not each draft; a publication search listing finals, drafts and withdrawn reports fifteen a page
  newest release first (dates mm/dd/yyyy), with status, series and topic-area facets as links; a final's page gives
  "Date Published" as month and year and the full dates only in its document history; working groups list their
  reports; exports and the comment forms forbidden by robots.txt.
- Halvergate University Special Collections (`fresh11-archive`, in `fresh_heldout11_archive.py`): an
  ArchivesSpace-like portal: collections with finding aids, each arranged in series (minutes, correspondence and
  photographs that are not works, beside series of reports and theses that are), a series listing its components
  twenty a page, a component's page headed "Title, 2024 March 12" (so its schema.org JSON-LD names it) with its
  identifier, DACS-style dates, creators written surname first, a digital object to view, breadcrumbs; printable
  finding aids, request forms and the staff interface forbidden.
- Northmoor Trials Registry (`fresh11-registry`, in `fresh_heldout11_registry.py`): a ClinicalTrials.gov-like
  study registry: condition categories list their studies ten a page, newest registration first (recruiting,
  terminated and withdrawn studies without results among those whose results are posted); a study record in tabs
  (details with dates of several kinds written "March 12, 2024": first submitted, study start, primary and study
  completion, results first posted, last update; investigators; results with the results report and its
  publications; a record history of versions); a results report the archive holds links to the archive's copy
  (one work, two sites); downloads and the API forbidden by robots.txt.
"""

from __future__ import annotations

from datetime import date

from research_crawler.eval.testbed.models import SiteSpec

__all__ = [
    "FRESH11_BATCH",
    "FRESH11_PER_TOPIC",
    "FRESH11_PLANS",
    "FRESH11_SITE_SPECS",
    "FRESH11_TOPICS_FILE",
    "fresh11_identity",
]

#: The eleventh batch's own topics and near misses (the format of `unfamiliar_topics.toml`), held out with it.
FRESH11_TOPICS_FILE = "fresh_heldout11_topics.toml"

FRESH11_SITE_SPECS: tuple[SiteSpec, ...] = (
    SiteSpec(
        name="fresh11-standards",
        title="Aldmoor Institute of Standards and Measurement",
        layout="fresh11-standards",
        tagline="Measurement science, reference data and technical guidance",
        categories={
            "mass-timber-fire": "Fire Safety Engineering",
            "h2-embrittlement": "Materials Measurement",
            "timber-other": "Fire Safety Engineering",
            "hydrogen-other": "Materials Measurement",
        },
    ),
    SiteSpec(
        name="fresh11-archive",
        title="Halvergate University Special Collections",
        layout="fresh11-archive",
        tagline="Archives, manuscripts and the university's own records",
        categories={
            "wool-mills": "Halvergate Textile Heritage Collection",
            "phonics-reading": "School of Education Records",
            "wool-other": "Halvergate Textile Heritage Collection",
        },
    ),
    SiteSpec(
        name="fresh11-registry",
        title="Northmoor Trials Registry",
        layout="fresh11-registry",
        tagline="A public register of trials and studies in health, education and social care",
        categories={
            "phonics-reading": "Education and Literacy",
            "falls-exercise": "Injuries and Accidents",
            "phonics-other": "Education and Literacy",
            "falls-other": "Injuries and Accidents",
        },
    ),
)
#: Each site's requests, as `unfamiliar_corpus.UNFAMILIAR_PLANS` writes them.
FRESH11_PLANS: dict[str, tuple[str, ...]] = {
    "fresh11-standards": ("topic", "recent", "year", "author"),
    "fresh11-archive": ("topic", "recent", "year"),
    "fresh11-registry": ("topic", "cross:fresh11-archive", "author", "recent"),
}
#: Papers per topic on each site (the archive and the registry share works: at most 10 between them).
FRESH11_PER_TOPIC: dict[str, tuple[int, int]] = {
    "fresh11-standards": (5, 6),
    "fresh11-archive": (4, 5),
    "fresh11-registry": (4, 5),
}
#: Works on two sites: the archive's reports and theses on one topic, whose trials the registry
#: holds with their results.
FRESH11_SHARED: dict[tuple[str, str], tuple[str, ...]] = {("fresh11-archive", "fresh11-registry"): ("phonics-reading",)}
#: What `unfamiliar_corpus` adds, from its own random stream: the sites, requests and shared works.
FRESH11_BATCH = (FRESH11_SITE_SPECS, FRESH11_PLANS, FRESH11_SHARED)


def fresh11_identity(layout: str, day: date, serial: int, title: str) -> tuple[str, str, str, str | None, str | None]:
    """(key, path, PDF path, DOI, preprint id) of an item of the eleventh fresh batch."""
    if layout == "fresh11-standards":
        number = 8400 + 7 * serial
        return f"TR.{number}", f"/pubs/tr/{number}/final", f"/docs/AISM.TR.{number}.pdf", None, None
    if layout == "fresh11-archive":
        component = 40000 + 13 * serial
        return (
            f"{component}",
            f"/repositories/2/archival_objects/{component}",
            f"/files/{component}/access.pdf",
            None,
            None,
        )
    number = 20410 + 29 * serial
    return f"NMR{number}", f"/study/NMR{number}", f"/study/NMR{number}/document/results-report.pdf", None, None
