"""HELD OUT, and fresh (seventeenth batch): three more sites built as a Digital Commons-like institutional
repository, an SSRN-like working-paper network and a PubPub-like community publishing platform are, on topics no
other testbed site holds (`fresh_heldout17_topics.toml`), written with their requests and ground truth before the
crawler was ever run on them. Do not read or tune anything to this module, to `fresh_heldout17_commons.py`,
`fresh_heldout17_papers.py`, `fresh_heldout17_pubpub.py` or the topics file: their first run is the measure.

- Tidewater ScholarWorks (`fresh17-commons`, in `fresh_heldout17_commons.py`): a bepress Digital Commons repository
  of a university: its home shows the most downloaded papers and leads to the collections; a community lists its
  series; a series pages its papers newest first under year headings; a paper gives its authors with affiliations,
  the publication date as Digital Commons writes it, the document type, the source, the disciplines, the download
  count, the recommended citation and bepress meta tags that give the year alone. Its search, account and follow
  pages are forbidden.
- Social Research Exchange (`fresh17-papers`, in `fresh_heldout17_papers.py`): an SSRN-like working-paper network:
  research networks, their eJournals, an eJournal's papers newest first by the page; a paper's abstract page gives
  its authors with affiliations and links to their author pages, "Date Written" and "Posted" as SSRN writes them,
  pages, keywords and JEL codes, download counts and the suggested citation; papers published later in the
  community journal link to the published version. Its search and delivery pages are forbidden.
- Civic Data Review (`fresh17-pubpub`, in `fresh_heldout17_pubpub.py`): a PubPub community: a home of the latest
  pubs, issue and topic collections, pubs with contributors, "Published on" and releases as PubPub writes them,
  connections to the working paper a pub was first posted as (one work, two sites). Its dashboard, login and search
  are forbidden.
"""

from __future__ import annotations

import hashlib
from datetime import date

from research_crawler.eval.testbed.models import SiteSpec

__all__ = [
    "FRESH17_BATCH",
    "FRESH17_PER_TOPIC",
    "FRESH17_PLANS",
    "FRESH17_SITE_SPECS",
    "FRESH17_TOPICS_FILE",
    "SERIES",
    "abstract_id",
    "fresh17_identity",
    "pub_id",
    "series_of",
]

#: The seventeenth batch's own topics and near misses (the format of `unfamiliar_topics.toml`), held out with it.
FRESH17_TOPICS_FILE = "fresh_heldout17_topics.toml"

FRESH17_SITE_SPECS: tuple[SiteSpec, ...] = (
    SiteSpec(
        name="fresh17-papers",
        title="Social Research Exchange",
        layout="fresh17-papers",
        tagline="Working papers in the social sciences, shared before publication",
        categories={
            "congestion-pricing": "Transportation Economics eJournal",
            "gig-income": "Labor Markets: Contracts & Earnings eJournal",
            "congestion-other": "Transportation Economics eJournal",
            "gig-other": "Labor Markets: Contracts & Earnings eJournal",
        },
    ),
    SiteSpec(
        name="fresh17-pubpub",
        title="Civic Data Review",
        layout="fresh17-pubpub",
        tagline="An open-access journal of data, methods and public policy",
        categories={
            "congestion-pricing": "Cities and Mobility",
            "notebook-reproducibility": "Open Methods",
            "congestion-other": "Cities and Mobility",
            "notebook-other": "Open Methods",
        },
    ),
    SiteSpec(
        name="fresh17-commons",
        title="Tidewater ScholarWorks",
        layout="fresh17-commons",
        tagline="The open repository of Tidewater State University",
        categories={
            "oyster-reefs": "Marine Biology",
            "amphibian-roads": "Terrestrial and Aquatic Ecology",
            "oyster-other": "Marine Biology",
            "amphibian-other": "Terrestrial and Aquatic Ecology",
        },
    ),
)
#: Each site's requests, as `unfamiliar_corpus.UNFAMILIAR_PLANS` writes them.
FRESH17_PLANS: dict[str, tuple[str, ...]] = {
    "fresh17-papers": ("topic", "recent", "author", "cross:fresh17-pubpub"),
    "fresh17-pubpub": ("topic", "year", "recent"),
    "fresh17-commons": ("topic", "author", "recent", "year"),
}
#: Papers per topic on each site (the network and the journal share works: at most 10 between them).
FRESH17_PER_TOPIC: dict[str, tuple[int, int]] = {
    "fresh17-papers": (4, 5),
    "fresh17-pubpub": (4, 5),
    "fresh17-commons": (5, 7),
}
#: Works on two sites: working papers that the community journal published later.
FRESH17_SHARED: dict[tuple[str, str], tuple[str, ...]] = {("fresh17-papers", "fresh17-pubpub"): ("congestion-pricing",)}
#: What `unfamiliar_corpus` adds, from its own random stream: the sites, requests and shared works.
FRESH17_BATCH = (FRESH17_SITE_SPECS, FRESH17_PLANS, FRESH17_SHARED)

#: The repository's series of papers (context → name); a paper sits in its department's series, whatever its topic.
SERIES = {
    "biology_facpubs": "Biology Faculty Publications",
    "envsci_facpubs": "Environmental Science and Policy Faculty Publications",
    "fieldstation_reports": "Coastal Field Station Reports",
}


def _digest(title: str) -> str:
    return hashlib.sha1(title.encode()).hexdigest()


def series_of(title: str) -> str:
    """The series a repository paper sits in (its department's, not its topic's)."""
    return list(SERIES)[int(_digest(title)[:6], 16) % len(SERIES)]


def abstract_id(serial: int) -> str:
    """A working paper's abstract id ('4712345')."""
    return str(4_600_000 + 7919 * serial % 390_000)


def pub_id(title: str) -> str:
    """A pub's short id, as PubPub gives a pub without a custom slug ('k3x9q2mw')."""
    alphabet = "0123456789abcdefghijklmnopqrstuvwxyz"
    number = int(_digest(title)[:12], 16)
    return "".join(alphabet[number // 36**n % 36] for n in range(8))


def fresh17_identity(layout: str, day: date, serial: int, title: str) -> tuple[str, str, str, str | None, str | None]:
    """(key, path, PDF path, DOI, preprint id) of an item of the seventeenth fresh batch."""
    if layout == "fresh17-papers":
        key = abstract_id(serial)
        pdf = f"/sol3/Delivery.cfm/SSRN_ID{key}_code{1_200_000 + 37 * serial}.pdf"
        return key, f"/abstract={key}", pdf, f"10.2139/ssrn.{key}", None
    if layout == "fresh17-pubpub":
        key = pub_id(title)
        return key, f"/pub/{key}", f"/pub/{key}/download/pdf", f"10.21428/8d4e16c5.{key}", None
    context = series_of(title)
    number = 100 + serial
    pdf = f"/cgi/viewcontent.cgi?article={1000 + serial}&context={context}"
    doi = f"10.1007/s12237-{day.year}-{serial:05d}-x" if context != "fieldstation_reports" else None
    return f"{context}/{number}", f"/{context}/{number}", pdf, doi, None
