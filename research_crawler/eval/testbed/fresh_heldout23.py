"""HELD OUT, and fresh (twenty-third batch): three more sites built as a daily-papers aggregator where a community
features and upvotes new preprints day by day, a herbarium's specimen portal with the bibliography of the papers that
cite its specimens, and a Planet-style aggregator of botanists' blogs are, on topics no other testbed site holds
(`fresh_heldout23_topics.toml`), written with their requests and ground truth before the crawler was ever run on
them. Do not read or tune anything to this module, to `fresh_heldout23_daily.py`, `fresh_heldout23_herbarium.py`,
`fresh_heldout23_planet.py` or the topics file: their first run is the measure.

- Paperfeed Daily (`fresh23-daily`, in `fresh_heldout23_daily.py`): a Hugging-Face-daily-papers-like site. The home
  page's trending papers are drawn by a script from a JSON API with a cursor (infinite scroll); "Daily Papers"
  (`/papers`) is the newest featured day, each day (`/papers/date/2024-03-13`) a page of cards ordered by upvotes
  (title, first author and "· 4 authors", who submitted it, upvotes) with "Previous"/"Next" links to the featured
  days before and after; the weekly and monthly views are shells a script fills. A paper (`/papers/2403.91234`) shows
  every author, "Published on Mar 12, 2024" (the year left out for this year's papers, as the site writes it), the
  day it was featured, the abstract, links to the arXiv abstract and PDF elsewhere and Open Graph tags only; filler
  papers on other subjects share the days. A GET search is open; robots.txt forbids sign-in and settings pages.
- Whinmoor Herbarium Specimen Portal (`fresh23-herbarium`, in `fresh_heldout23_herbarium.py`): a Symbiota-like
  portal of a herbarium's collections. Its bibliography (`/bibliography/`) lists the papers that cite its specimens
  ten a page, ordered by first author's surname, in the botanical citation style ("Okafor, A., C. Rossi & D. Vance.
  2024. Title. Journal 12: 45–67."), with year links (`?year=2024`) and numbered pages; a reference's page
  (`/bibliography/4821`) is a table (authors "Okafor, Aino; Rossi, Chiara", "Date published: 12.03.2024", journal,
  DOI, abstract) with the specimens it cites, and for a paper first announced as a preprint on a member's blog, a
  link to that post (one work, two sites); no metadata tags. The taxonomic tree leads from families to species
  pages listing specimens and the literature citing them; a specimen's record gives collector, "12 iii 2019" and
  locality. The occurrence search posts a form; robots.txt forbids it, downloads and the image search.
- Planet Field Botany (`fresh23-planet`, in `fresh_heldout23_planet.py`): a Planet-style aggregator of botanists'
  and ecologists' blogs. The home page is the river: the newest entries under day headings ("March 12, 2024"), a
  teaser each, older entries scrolled in by a script from `/river.json?before=…` (a `<noscript>` note points to the
  archives); monthly archives list every entry oldest first; each member blog has a page of its entries, ten a page.
  An entry keeps the copy of the post (`/2024/03/12/slug/`): "Posted by <blogger> on <blog>", the day and time
  ("Tuesday 12 March 2024, 09:14"), the text announcing a preprint with the reference in Vancouver style at the end
  ("Okafor A, Rossi C, Vance D. Title. Preprint, 2024.") and its PDF, and when the paper appeared since, an update
  linking the herbarium's reference. Field notes, event reports and photo posts sit among them. No search; an RSS
  feed of the newest entries; robots.txt forbids the planet's cache and admin pages.
"""

from __future__ import annotations

import hashlib
from datetime import date

from research_crawler.eval.testbed.markup import url_slug
from research_crawler.eval.testbed.models import SiteSpec

__all__ = [
    "FRESH23_BATCH",
    "FRESH23_PER_TOPIC",
    "FRESH23_PLANS",
    "FRESH23_SHARED",
    "FRESH23_SITE_SPECS",
    "FRESH23_TOPICS_FILE",
    "JOURNALS",
    "fresh23_identity",
    "journal_of",
    "paper_id",
    "refid",
]

#: The twenty-third batch's own topics and near misses (the format of `unfamiliar_topics.toml`), held out with it.
FRESH23_TOPICS_FILE = "fresh_heldout23_topics.toml"

FRESH23_SITE_SPECS: tuple[SiteSpec, ...] = (
    SiteSpec(
        name="fresh23-daily",
        title="Paperfeed Daily",
        layout="fresh23-daily",
        tagline="The papers the community is reading today",
        categories={
            "speculative-decoding": "cs.CL",
            "frame-interpolation": "cs.CV",
            "decoding-other": "cs.CL",
            "interp-other": "cs.CV",
        },
    ),
    SiteSpec(
        name="fresh23-herbarium",
        title="Whinmoor Herbarium Specimen Portal",
        layout="fresh23-herbarium",
        tagline="Specimens, images and literature of the Whinmoor Herbarium (WHM)",
        categories={
            "moss-desiccation": "Pottiaceae",
            "orchid-mycorrhiza": "Orchidaceae",
            "moss-other": "Pottiaceae",
            "orchid-other": "Orchidaceae",
        },
    ),
    SiteSpec(
        name="fresh23-planet",
        title="Planet Field Botany",
        layout="fresh23-planet",
        tagline="What botanists and field ecologists are writing",
        categories={
            "moss-desiccation": "Bryology",
            "weed-seedbank": "Arable ecology",
            "moss-other": "Bryology",
            "weed-other": "Arable ecology",
        },
    ),
)
#: Each site's requests, as `unfamiliar_corpus.UNFAMILIAR_PLANS` writes them.
FRESH23_PLANS: dict[str, tuple[str, ...]] = {
    "fresh23-planet": ("topic", "recent", "year", "cross:fresh23-herbarium"),
    "fresh23-herbarium": ("recent", "year", "topic", "author"),
    "fresh23-daily": ("recent", "topic", "author"),
}
#: Papers per topic on each site (the planet and the herbarium share works: at most 10 between them).
FRESH23_PER_TOPIC: dict[str, tuple[int, int]] = {
    "fresh23-planet": (5, 6),
    "fresh23-herbarium": (4, 4),
    "fresh23-daily": (6, 8),
}
#: Works on two sites: preprints announced on members' blogs whose published papers the herbarium's bibliography holds.
FRESH23_SHARED: dict[tuple[str, str], tuple[str, ...]] = {
    ("fresh23-planet", "fresh23-herbarium"): ("moss-desiccation",),
}
#: What `unfamiliar_corpus` adds, from its own random stream: the sites, requests and shared works.
FRESH23_BATCH = (FRESH23_SITE_SPECS, FRESH23_PLANS, FRESH23_SHARED)

#: The journals the herbarium's literature appears in (code in their DOIs → name).
JOURNALS: dict[str, str] = {
    "jbb": "Journal of Bryophyte Biology",
    "orr": "Orchid Research and Reports",
    "pln": "Plant Ecology Notes",
    "hbt": "Herbarium Botany",
}


def _digest(text: str) -> int:
    return int(hashlib.sha1(text.encode()).hexdigest()[:12], 16)


def paper_id(day: date, serial: int) -> str:
    """The arXiv identifier the aggregator files a paper under ('2403.91234'): fixed by the serial and month."""
    return f"{day:%y%m}.{90000 + serial * 37 % 10000:05d}"


def refid(serial: int) -> str:
    """The herbarium bibliography's number of a reference ('4821'): unique in a batch."""
    return str(4000 + serial * 13 % 6000)


def journal_of(title: str) -> str:
    """The code of the journal a paper citing the herbarium's specimens appeared in."""
    return tuple(JOURNALS)[_digest(title) % len(JOURNALS)]


def fresh23_identity(layout: str, day: date, serial: int, title: str) -> tuple[str, str, str, str | None, str | None]:
    """(key, path, PDF path, DOI, preprint id) of an item of the twenty-third fresh batch."""
    if layout == "fresh23-daily":
        key = paper_id(day, serial)
        return key, f"/papers/{key}", f"/papers/{key}/pdf", None, key
    if layout == "fresh23-herbarium":
        key = refid(serial)
        doi = f"10.52871/{journal_of(title)}.{day.year}.{serial:04d}"
        return key, f"/bibliography/{key}", f"/bibliography/{key}/reprint.pdf", doi, None
    slug = url_slug(title, limit=50)
    key = f"{day:%Y/%m/%d}/{slug}"
    return key, f"/{key}/", f"/files/{day:%Y}/{slug}.pdf", None, None
