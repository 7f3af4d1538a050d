"""HELD OUT, and fresh (sixth batch): three more sites built as a university library's discovery catalogue, a data
repository and a research centre's news blog are, on topics no other testbed site holds
(`fresh_heldout6_topics.toml`), written with their requests and ground truth before the crawler was ever run on
them. Do not read or tune anything to this module, to `fresh_heldout6_catalogue.py`, `fresh_heldout6_datarepo.py`,
`fresh_heldout6_news.py` or the topics file: their first run is the measure.

- Vellmar University Library (`fresh6-catalogue`, in `fresh_heldout6_catalogue.py`): a VuFind-like discovery
  catalogue: a GET search (``lookfor``) whose results come ten a page with numbered pages, facets in a sidebar
  (format, subject, year, with counts) as links that narrow the results; books, journals and maps mixed in with the
  articles; record pages with year only, no metadata tags but a COinS span, a staff view of MARC fields, an author
  page per name and an "Online access" link to the full text; robots.txt forbids sorting, exports and the account.
- Tamsin Research Data (`fresh6-datarepo`, in `fresh_heldout6_datarepo.py`): an InvenioRDM-like repository whose
  records are papers, datasets, software and posters mixed (a paper's data and code deposited beside it under
  titles that repeat the paper's); communities list their records newest first, ten a page, with resource-type
  facets; record pages carry citation_* tags (datasets too), "Published March 4, 2024 | Version v1"; the site search
  is a script-driven app over a JSON API, both forbidden by robots.txt.
- Corvell Centre for Hearing Research (`fresh6-news`, in `fresh_heldout6_news.py`): a WordPress-like news blog
  announcing the centre's papers among events, funding and people news; headlines that sometimes hold the paper's
  title and sometimes only "Congratulations to …"; every post signed by the communications team, the paper's
  authors in the text; pages of five posts ("« Older posts"), categories, monthly archives and an RSS feed; some of
  its papers were deposited in the data repository first (one work, two sites).
"""

from __future__ import annotations

from datetime import date

from research_crawler.eval.testbed.markup import url_slug
from research_crawler.eval.testbed.models import SiteSpec

__all__ = [
    "FRESH6_BATCH",
    "FRESH6_PER_TOPIC",
    "FRESH6_PLANS",
    "FRESH6_SITE_SPECS",
    "FRESH6_TOPICS_FILE",
    "fresh6_identity",
]

#: The sixth batch's own topics and near misses (the format of `unfamiliar_topics.toml`), held out with it.
FRESH6_TOPICS_FILE = "fresh_heldout6_topics.toml"

FRESH6_SITE_SPECS: tuple[SiteSpec, ...] = (
    SiteSpec(
        name="fresh6-catalogue",
        title="Vellmar University Library",
        layout="fresh6-catalogue",
        tagline="Search books, articles, journals and more",
        categories={
            "lichen-air": "Indicators (Biology)",
            "glacial-floods": "Natural disasters -- Mountain regions",
            "lichen-other": "Indicators (Biology)",
            "flood-other": "Natural disasters -- Mountain regions",
        },
    ),
    SiteSpec(
        name="fresh6-datarepo",
        title="Tamsin Research Data",
        layout="fresh6-datarepo",
        tagline="Open repository for the data, software and publications of Tamsin University",
        categories={
            "musician-hearing": "Auditory Research Unit",
            "glacial-floods": "Mountain Cryosphere Lab",
            "hearing-other": "Auditory Research Unit",
            "flood-other": "Mountain Cryosphere Lab",
        },
    ),
    SiteSpec(
        name="fresh6-news",
        title="Corvell Centre for Hearing Research",
        layout="fresh6-news",
        tagline="News, papers and events from the Corvell Centre",
        categories={"musician-hearing": "Publications", "hearing-other": "Publications"},
    ),
)
#: Each site's requests, as `unfamiliar_corpus.UNFAMILIAR_PLANS` writes them.
FRESH6_PLANS: dict[str, tuple[str, ...]] = {
    "fresh6-catalogue": ("topic", "year", "author", "topic"),
    "fresh6-datarepo": ("topic", "recent", "cross:fresh6-news", "year"),
    "fresh6-news": ("recent", "author", "year"),
}
#: Papers per topic on each site (the repository and the blog share works: at most 10 between them).
FRESH6_PER_TOPIC: dict[str, tuple[int, int]] = {
    "fresh6-catalogue": (5, 7),
    "fresh6-datarepo": (4, 5),
    "fresh6-news": (4, 5),
}
#: Works on two sites: papers deposited in the repository, announced on the blog when the journal publishes them.
FRESH6_SHARED: dict[tuple[str, str], tuple[str, ...]] = {("fresh6-datarepo", "fresh6-news"): ("musician-hearing",)}
#: What `unfamiliar_corpus` adds, from its own random stream: the sites, requests and shared works.
FRESH6_BATCH = (FRESH6_SITE_SPECS, FRESH6_PLANS, FRESH6_SHARED)


def fresh6_identity(layout: str, day: date, serial: int, title: str) -> tuple[str, str, str, str | None, str | None]:
    """(key, path, PDF path, DOI, preprint id) of an item of the sixth fresh batch."""
    if layout == "fresh6-catalogue":
        key = f"b{4100000 + serial * 37}"
        return key, f"/Record/{key}", f"/Record/{key}/Fulltext", None, None
    if layout == "fresh6-datarepo":
        key = str(8_200_000 + serial * 113)  # a paper's dataset and code take the next numbers
        return key, f"/records/{key}", f"/records/{key}/files/manuscript.pdf", None, None
    slug = url_slug(title, limit=50)
    return slug, f"/{day:%Y/%m/%d}/{slug}/", f"/wp-content/uploads/{day:%Y/%m}/{slug}.pdf", None, None
