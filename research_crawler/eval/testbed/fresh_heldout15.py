"""HELD OUT, and fresh (fifteenth batch): three more sites built as a PKP OJS journal, a CRAN-like software registry
and a Confluence-like team wiki of technical reports are, on topics no other testbed site holds
(`fresh_heldout15_topics.toml`), written with their requests and ground truth before the crawler was ever run on
them. Do not read or tune anything to this module, to `fresh_heldout15_ojs.py`, `fresh_heldout15_cran.py`,
`fresh_heldout15_confluence.py` or the topics file: their first run is the measure.

- Journal of Quantitative Ecology (`fresh15-ojs`, in `fresh_heldout15_ojs.py`): an Open Journal Systems 3 journal:
  the install's root leads to the journal's home (the current issue's table of contents), the issue archive lists
  issues eight a page, an issue's table of contents groups articles by section (editorials and software reviews among
  them) with their galleys; an article's landing page gives "Published" as OJS writes it, the issue, the section,
  authors with affiliations, keywords, the abstract, "How to Cite" and Google Scholar meta tags; galleys are viewer
  pages framing the download. Search, citation downloads and user pages forbidden.
- CRAN (`fresh15-cran`, in `fresh_heldout15_cran.py`): a Comprehensive R Archive Network mirror: a home page with
  the navigation beside the banner, relative links throughout, packages listed by date of
  publication and by name, task views naming packages in prose; a package's page gives its Title, Description
  (citing its paper by DOI), "Published: 2024-03-15" (the current version's day), authors with their roles, its
  maintainer, its reference manual and citation info. Some packages are described later in the journal, whose
  article links to the package (one work, two sites); check results and the source archive forbidden.
- Rail and Wind Engineering wiki (`fresh15-confluence`, in `fresh_heldout15_confluence.py`): a Confluence Data
  Center: the dashboard lists spaces and recent updates, the engineering space's home shows a page per team, each
  with a technical-reports page (and a Page Properties Report of them) whose children are year pages whose children
  are the reports; a report is a page whose Page Properties table gives its number, authors (user mentions), status
  and "Date issued", while the byline names its creator and the day it was last modified; labels list pages too;
  meeting notes, how-to pages and draft reports sit beside them; the search, page history and exports
  forbidden.
"""

from __future__ import annotations

import hashlib
import re
from datetime import date

from research_crawler.eval.testbed.models import SiteSpec

__all__ = [
    "FRESH15_BATCH",
    "FRESH15_PER_TOPIC",
    "FRESH15_PLANS",
    "FRESH15_SITE_SPECS",
    "FRESH15_TOPICS_FILE",
    "SPACE_KEY",
    "article_id",
    "fresh15_identity",
    "package_name",
    "page_id",
    "report_number",
]

#: The fifteenth batch's own topics and near misses (the format of `unfamiliar_topics.toml`), held out with it.
FRESH15_TOPICS_FILE = "fresh_heldout15_topics.toml"

FRESH15_SITE_SPECS: tuple[SiteSpec, ...] = (
    SiteSpec(
        name="fresh15-ojs",
        title="Journal of Quantitative Ecology",
        layout="fresh15-ojs",
        tagline="An open-access journal of statistical methods for ecology and the environment",
        categories={
            "camera-trap-abundance": "Methods",
            "algal-bloom-forecasts": "Applications",
            "camera-other": "Methods",
            "algal-other": "Applications",
        },
    ),
    SiteSpec(
        name="fresh15-cran",
        title="The Comprehensive R Archive Network",
        layout="fresh15-cran",
        tagline="A network of servers that store identical, up-to-date versions of code and documentation for R",
        categories={
            "camera-trap-abundance": "Environmetrics",
            "small-area-poverty": "OfficialStatistics",
            "camera-other": "Environmetrics",
            "poverty-other": "OfficialStatistics",
        },
    ),
    SiteSpec(
        name="fresh15-confluence",
        title="Rail and Wind Engineering",
        layout="fresh15-confluence",
        tagline="Team spaces of the asset engineering department",
        categories={
            "rail-track-vibration": "Track Engineering",
            "turbine-icing": "Wind Operations",
            "rail-other": "Track Engineering",
            "icing-other": "Wind Operations",
        },
    ),
)
#: Each site's requests, as `unfamiliar_corpus.UNFAMILIAR_PLANS` writes them.
FRESH15_PLANS: dict[str, tuple[str, ...]] = {
    "fresh15-ojs": ("topic", "recent", "year", "cross:fresh15-cran"),
    "fresh15-cran": ("topic", "author", "recent"),
    "fresh15-confluence": ("topic", "author", "recent", "year"),
}
#: Papers per topic on each site (the registry and the journal share works: at most 10 between them).
FRESH15_PER_TOPIC: dict[str, tuple[int, int]] = {
    "fresh15-ojs": (4, 5),
    "fresh15-cran": (4, 5),
    "fresh15-confluence": (5, 7),
}
#: Works on two sites: packages released on the registry that the journal describes in an article later.
FRESH15_SHARED: dict[tuple[str, str], tuple[str, ...]] = {("fresh15-cran", "fresh15-ojs"): ("camera-trap-abundance",)}
#: What `unfamiliar_corpus` adds, from its own random stream: the sites, requests and shared works.
FRESH15_BATCH = (FRESH15_SITE_SPECS, FRESH15_PLANS, FRESH15_SHARED)

#: The wiki's engineering space: each team's section is a page of it.
SPACE_KEY = "AE"
_SMALL = {"a", "an", "and", "the", "of", "for", "in", "on", "with", "from", "to", "by", "at", "under", "how"}
_SUFFIXES = ("", "R", "2", "Tools", "Est", "Bayes", "Fit")


def article_id(serial: int) -> int:
    """An OJS submission id."""
    return 2000 + 11 * serial


def page_id(serial: int) -> int:
    """A Confluence page id."""
    return 40_000_000 + 977 * serial


def package_name(title: str, serial: int) -> str:
    """An R package's name drawn from its title ('camtrapDens'): two significant words and a suffix."""
    words = [w for w in re.findall(r"[A-Za-z]+", title) if w.lower() not in _SMALL]
    first = words[0].lower()[:7]
    second = words[1][:6].capitalize() if len(words) > 1 else ""
    return first + second + _SUFFIXES[serial % len(_SUFFIXES)]


def fresh15_identity(layout: str, day: date, serial: int, title: str) -> tuple[str, str, str, str | None, str | None]:
    """(key, path, PDF path, DOI, preprint id) of an item of the fifteenth fresh batch."""
    if layout == "fresh15-ojs":
        number = article_id(serial)
        galley = number * 3 + 1
        doi = f"10.58112/jqe.{number}"
        return (
            str(number),
            f"/index.php/jqe/article/view/{number}",
            f"/index.php/jqe/article/download/{number}/{galley}",
            doi,
            None,
        )
    if layout == "fresh15-cran":
        name = package_name(title, serial)
        return (
            name,
            f"/web/packages/{name}/index.html",
            f"/web/packages/{name}/{name}.pdf",
            f"10.32614/CRAN.package.{name}",
            None,
        )
    number = page_id(serial)
    words = "+".join(re.findall(r"[A-Za-z0-9]+(?:-[A-Za-z0-9]+)*", title))
    pdf = f"/download/attachments/{number}/{report_number(day, title)}.pdf"
    return str(number), f"/display/{SPACE_KEY}/{words}", pdf, None, None


def report_number(day: date, title: str) -> str:
    """A technical report's number ('AE-TR-2024-3F1A')."""
    return f"AE-TR-{day.year}-{hashlib.sha1(title.encode()).hexdigest()[:4].upper()}"
