"""A second, independent reader of who wrote a page's item: trafilatura's metadata extraction (its own reading of
author tags, JSON-LD and bylines), asked only where the project's own readers found no author at all, and
believed only for names the page shows that read as people's names — a vote, never an overruling: what the page
shows still decides (the rule of `metadata`)."""

from __future__ import annotations

import logging
from collections.abc import Callable

from research_crawler.pages.html_tree import parse_html
from research_crawler.pages.other_works import without_other_works
from research_crawler.pages.person_names import clean_name, is_person_name

__all__ = ["authors_by_trafilatura"]

logger = logging.getLogger(__name__)


def authors_by_trafilatura(html: str, *, url: str, shows: Callable[[str], bool]) -> list[str]:
    """The authors trafilatura reads off `html` (its lists of other works left out), each one shown on the page
    (`shows`) and reading as a person's name; [] when it reads none, when any of them is not shown or is no person
    ("Deutsche Welle"), or on any error."""
    try:
        from trafilatura.metadata import extract_metadata
    except ImportError:  # pragma: no cover - a dependency of the project; absent only in a broken install
        return []
    for name in ("trafilatura", "htmldate"):
        logging.getLogger(name).setLevel(logging.ERROR)
    tree = parse_html(html)
    if tree is None:
        return []
    try:  # read without the page's lists of other works: a reference list's first author is no author of the item
        document = extract_metadata(without_other_works(tree), default_url=url if url.startswith("http") else None)
    except Exception as error:  # a second reader's failure costs its vote, never the page
        logger.debug("trafilatura could not read the page's metadata: %s", error)
        return []
    names = [clean_name(name) for name in ((document.author if document else None) or "").split(";")]
    names = [name for name in names if name]
    return names if names and all(shows(name) and is_person_name(name) for name in names) else []
