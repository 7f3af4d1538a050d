"""HELD OUT, and fresh (ninth batch): three more sites built as a research funder's project portal, a government's
publications finder and a research group's static site are, on topics no other testbed site holds
(`fresh_heldout9_topics.toml`), written with their requests and ground truth before the crawler was ever run on
them. Do not read or tune anything to this module, to `fresh_heldout9_funder.py`, `fresh_heldout9_agency.py`,
`fresh_heldout9_group.py` or the topics file: their first run is the measure.

- Veldmark Research Council (`fresh9-funder`, in `fresh_heldout9_funder.py`): a CORDIS-like project portal:
  programmes list their projects five a page (acronym, dates written day/month/year, status), a project's fact sheet
  (objective, coordinator, partners, funding) and its results tab, where publications (each with a record page) sit
  among deliverables and periodic reports that are not works; records of papers reported by a project link to the
  paper's page on the group's site; CSV/XML exports forbidden by robots.txt.
- GOV.VELD (`fresh9-agency`, in `fresh_heldout9_agency.py`): a GOV.UK-like publications finder: ten a page sorted
  "Updated (newest)" by default, facets of document type, organisation and topic as links, research and analysis
  among guidance, consultations, statistics and FOI releases that are not research; a publication page with its
  organisation, "Published"/"Last updated" dates, attachments (the report, an annex, an easy-read version) and the
  report's authors only in the details text; collections group documents; print views forbidden by robots.txt.
- Kestrel Structures Lab (`fresh9-group`, in `fresh_heldout9_group.py`): a Hugo-Academic-like group site: a home
  with featured and recent publications and a news feed ("paper accepted at …"), a publication list paged ten at a
  time whose rows carry year and type for a filter script (talks, posters and theses among the papers), one page per
  paper (date written "Mar 12, 2024", [PDF] [Cite] [Code] [Slides], Open Graph tags whose time is the page's, not the
  paper's), author pages of members; an admin area forbidden by robots.txt; its papers are reported on the funder's
  portal as well (one work, two sites).
"""

from __future__ import annotations

from datetime import date

from research_crawler.eval.testbed.markup import url_slug
from research_crawler.eval.testbed.models import SiteSpec

__all__ = [
    "FRESH9_BATCH",
    "FRESH9_PER_TOPIC",
    "FRESH9_PLANS",
    "FRESH9_SITE_SPECS",
    "FRESH9_TOPICS_FILE",
    "fresh9_identity",
]

#: The ninth batch's own topics and near misses (the format of `unfamiliar_topics.toml`), held out with it.
FRESH9_TOPICS_FILE = "fresh_heldout9_topics.toml"

FRESH9_SITE_SPECS: tuple[SiteSpec, ...] = (
    SiteSpec(
        name="fresh9-funder",
        title="Veldmark Research Council",
        layout="fresh9-funder",
        tagline="Projects funded by the Veldmark Research Council and what they produced",
        categories={
            "bridge-shm": "Resilient Infrastructure",
            "heat-pumps": "Clean Heat and Buildings",
            "bridge-other": "Resilient Infrastructure",
            "heat-other": "Clean Heat and Buildings",
        },
    ),
    SiteSpec(
        name="fresh9-agency",
        title="GOV.VELD",
        layout="fresh9-agency",
        tagline="Services and information from the Government of Veldmark",
        categories={
            "heat-pumps": "Home heating and energy efficiency",
            "dementia-music": "Dementia care",
            "heat-other": "Home heating and energy efficiency",
            "dementia-other": "Dementia care",
        },
    ),
    SiteSpec(
        name="fresh9-group",
        title="Kestrel Structures Lab",
        layout="fresh9-group",
        tagline="Sensing, modelling and caring for ageing bridges",
        categories={"bridge-shm": "Bridges", "bridge-other": "Other"},
    ),
)
#: Each site's requests, as `unfamiliar_corpus.UNFAMILIAR_PLANS` writes them.
FRESH9_PLANS: dict[str, tuple[str, ...]] = {
    "fresh9-funder": ("topic", "cross:fresh9-group", "year", "recent"),
    "fresh9-agency": ("topic", "recent", "year", "author"),
    "fresh9-group": ("topic", "recent", "author"),
}
#: Papers per topic on each site (the group and the funder share works: at most 10 between them).
FRESH9_PER_TOPIC: dict[str, tuple[int, int]] = {
    "fresh9-funder": (4, 5),
    "fresh9-agency": (5, 6),
    "fresh9-group": (5, 5),
}
#: Works on two sites: the group's papers, reported by the projects that funded them on the funder's portal.
FRESH9_SHARED: dict[tuple[str, str], tuple[str, ...]] = {("fresh9-group", "fresh9-funder"): ("bridge-shm",)}
#: What `unfamiliar_corpus` adds, from its own random stream: the sites, requests and shared works.
FRESH9_BATCH = (FRESH9_SITE_SPECS, FRESH9_PLANS, FRESH9_SHARED)


def fresh9_identity(layout: str, day: date, serial: int, title: str) -> tuple[str, str, str, str | None, str | None]:
    """(key, path, PDF path, DOI, preprint id) of an item of the ninth fresh batch."""
    if layout == "fresh9-funder":
        key = f"{604000 + 17 * serial}"
        return key, f"/results/publication/{key}", f"/results/publication/{key}/fulltext.pdf", None, None
    slug = url_slug(title, limit=200)
    if layout == "fresh9-agency":
        file = 1180000 + 37 * serial
        return slug, f"/government/publications/{slug}", f"/media/{file}/{slug}.pdf", None, None
    return slug, f"/publication/{slug}/", f"/publication/{slug}/{slug[:24].rstrip('-')}.pdf", None, None
