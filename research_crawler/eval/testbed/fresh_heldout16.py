"""HELD OUT, and fresh (sixteenth batch): three more sites built as a HAL-like national open archive, a Jekyll-built
research group blog and a Mailman mailing-list archive are, on topics no other testbed site holds
(`fresh_heldout16_topics.toml`), written with their requests and ground truth before the crawler was ever run on
them. Do not read or tune anything to this module, to `fresh_heldout16_hal.py`, `fresh_heldout16_blog.py`,
`fresh_heldout16_lists.py` or the topics file: their first run is the measure.

- NOVA open archive (`fresh16-hal`, in `fresh_heldout16_hal.py`): a HAL-like national open archive of deposits by
  laboratory collections: its home shows the latest submissions and leads to the collections; a collection's home
  shows its own latest submissions and browse pages (by year, by document type) whose links open result lists, ten a
  page, newest first; a record gives its document type, authors with affiliations, the publication date, "Submitted
  on" and "Last modification on" as HAL writes them, the reference, the file and Scholar meta tags. Its user and
  statistics pages are forbidden.
- Vine and Cereal Pathology Group blog (`fresh16-blog`, in `fresh_heldout16_blog.py`): a Jekyll site with the minima
  theme: a home page of posts, five a page with older pages, tag and year archives, an Atom feed; a post announcing
  a paper gives its day as minima writes it, the post's writer as its author in the byline and the SEO tags, and the
  paper's authors only in its text; lab news and field-season posts sit beside them. Posts on papers deposited in
  the archive link to the deposit (one work, two sites).
- Text analysis mailing list (`fresh16-lists`, in `fresh_heldout16_lists.py`): a Mailman 2 server: the list
  overview, a list's info page, its Pipermail archive by month, each month by thread, subject, author and date; a
  message gives its poster, the day in Pipermail's form, and in its body the announced paper's authors; replies,
  calls for papers and job posts among them; attachments scrubbed to links. The list's admin, options and roster
  pages and the gzipped month texts are forbidden.
"""

from __future__ import annotations

import hashlib
from datetime import date

from research_crawler.eval.testbed.markup import MONTHS, url_slug
from research_crawler.eval.testbed.models import SiteSpec

__all__ = [
    "FRESH16_BATCH",
    "FRESH16_PER_TOPIC",
    "FRESH16_PLANS",
    "FRESH16_SITE_SPECS",
    "FRESH16_TOPICS_FILE",
    "LIST",
    "fresh16_identity",
    "hal_id",
    "message_number",
]

#: The sixteenth batch's own topics and near misses (the format of `unfamiliar_topics.toml`), held out with it.
FRESH16_TOPICS_FILE = "fresh_heldout16_topics.toml"

FRESH16_SITE_SPECS: tuple[SiteSpec, ...] = (
    SiteSpec(
        name="fresh16-hal",
        title="NOVA open archive",
        layout="fresh16-hal",
        tagline="A multidisciplinary open archive for the deposit and dissemination of research",
        categories={
            "mildew-forecasts": "VITIPATH",
            "geothermal-lithium": "GEOFLUIDES",
            "mildew-other": "VITIPATH",
            "lithium-other": "GEOFLUIDES",
        },
    ),
    SiteSpec(
        name="fresh16-blog",
        title="Vine and Cereal Pathology Group",
        layout="fresh16-blog",
        tagline="News and papers from the epidemiology group",
        categories={
            "mildew-forecasts": "grapevine",
            "wheat-rust-spores": "cereals",
            "mildew-other": "grapevine",
            "rust-other": "cereals",
        },
    ),
    SiteSpec(
        name="fresh16-lists",
        title="Text Analysis Mailing Lists",
        layout="fresh16-lists",
        tagline="Mailing lists for computational text analysis in the humanities",
        categories={
            "stylometry-authorship": "stylometry",
            "newspaper-ner": "newspapers",
            "stylometry-other": "stylometry",
            "ner-other": "newspapers",
        },
    ),
)
#: Each site's requests, as `unfamiliar_corpus.UNFAMILIAR_PLANS` writes them.
FRESH16_PLANS: dict[str, tuple[str, ...]] = {
    "fresh16-hal": ("topic", "recent", "year", "cross:fresh16-blog"),
    "fresh16-blog": ("topic", "author", "recent"),
    "fresh16-lists": ("topic", "author", "recent", "year"),
}
#: Papers per topic on each site (the archive and the blog share works: at most 10 between them).
FRESH16_PER_TOPIC: dict[str, tuple[int, int]] = {
    "fresh16-hal": (4, 5),
    "fresh16-blog": (4, 5),
    "fresh16-lists": (5, 7),
}
#: Works on two sites: deposits in the archive that the group's blog announces later.
FRESH16_SHARED: dict[tuple[str, str], tuple[str, ...]] = {("fresh16-hal", "fresh16-blog"): ("mildew-forecasts",)}
#: What `unfamiliar_corpus` adds, from its own random stream: the sites, requests and shared works.
FRESH16_BATCH = (FRESH16_SITE_SPECS, FRESH16_PLANS, FRESH16_SHARED)

#: The mailing list whose archive holds the announcements.
LIST = "textanalysis-l"
_EPOCH = date(2021, 1, 1)


def hal_id(serial: int) -> str:
    """A HAL-style identifier ('hal-04512345')."""
    return f"hal-{4_100_000 + 7919 * serial % 900_000:08d}"


def message_number(day: date) -> int:
    """A Pipermail message number: the archive numbers messages in the order they came, three a day at most here."""
    return 40 + 3 * (day - _EPOCH).days


def fresh16_identity(layout: str, day: date, serial: int, title: str) -> tuple[str, str, str, str | None, str | None]:
    """(key, path, PDF path, DOI, preprint id) of an item of the sixteenth fresh batch."""
    if layout == "fresh16-hal":
        key = hal_id(serial)
        slug = "-".join(title.split()[:3]).lower()
        pdf = f"/{key}/file/{url_slug(slug, limit=30)}.pdf"
        doi = f"10.48712/nova.{day.year}.{serial:05d}" if serial % 3 else None
        return key, f"/{key}", pdf, doi, None
    if layout == "fresh16-blog":
        slug = url_slug(title, limit=70)
        path = f"/papers/{day:%Y/%m/%d}/{slug}.html"
        return slug, path, f"/assets/pdf/{day.year}-{slug[:40].rstrip('-')}.pdf", None, None
    number = message_number(day)
    month = f"{day.year}-{MONTHS[day.month - 1]}"
    digest = hashlib.sha1(title.encode()).hexdigest()[:8]
    pdf = f"/pipermail/{LIST}/attachments/{day:%Y%m%d}/{digest}/attachment.pdf"
    return f"{number:06d}", f"/pipermail/{LIST}/{month}/{number:06d}.html", pdf, None, None
