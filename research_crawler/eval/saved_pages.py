"""The real saved pages of ``shared/realweb`` as sites: which pages each site holds, at which original path,
under which title, and a ground truth for a request read from the pages' own metadata.

MANIFEST.tsv lists each saved page with its site, its kind (listing, search, abstract, article) and the URL it
was saved from. A page is usable when that URL is a real one: the field's first word is an http(s) URL with
nothing elided (``...``); pages whose origin was only described ("PLoS ONE site search for …, c.2009") are
left out, since they have no path to be served at.

The ground truth rule (`relevant_pages`) reads nothing but the pages: an item page (kind ``abstract`` or
``article``) is relevant to a request when its title shares a topic word with the request. The title is read here,
apart from the product's metadata reader (an instrument that judged with the reader it measures would repeat its
misreadings): the page's ``citation_title`` meta tag, else its ``og:title``, else its ``<title>`` up to " | " (the
site's name after it); topic words are the words of three letters or more that are not stopwords,
a final "s" dropped ("models" is "model"). No answer is picked by hand: change the request and the ground
truth follows.
"""

from __future__ import annotations

import csv
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import parse_qsl, unquote, urlsplit

import lxml.etree
import lxml.html

from research_crawler.errors import ConfigError
from research_crawler.llm.simulated_words import STOPWORDS
from research_crawler.web.html_body import decode_html_as

__all__ = [
    "ITEM_KINDS",
    "START_KINDS",
    "THREE_SITES_QUERY",
    "SavedPage",
    "SavedSitesQuery",
    "page_key",
    "read_saved_pages",
    "relevant_pages",
    "topic_words",
]

#: Page kinds that are one item each, and those that list items (a site's possible start pages).
ITEM_KINDS = frozenset({"abstract", "article"})
START_KINDS = frozenset({"listing", "search"})

_URL = re.compile(r"^https?://\S+$")
_WORD = re.compile(r"[a-z0-9]+")
#: The pages' bytes are decoded before they are parsed (`read_saved_pages`): lxml reads them as UTF-8.
_PARSER = lxml.html.HTMLParser(encoding="utf-8")


@dataclass(frozen=True)
class SavedSitesQuery:
    """A request over some saved sites, for a benchmark: its text and the sites it is asked on."""

    text: str
    sites: tuple[str, ...]


#: The 3-site request of `benchmarks/latency_cost.py --web realweb`: the three sites whose saved pages include
#: both a start page with a real URL (a listing or a search) and item pages of one field (machine learning and
#: language), so that the request may have relevant items on each.
THREE_SITES_QUERY = SavedSitesQuery("papers on language models", ("arxiv", "aclanthology", "acm"))


@dataclass(frozen=True)
class SavedPage:
    """One saved page: its file, site and kind, the URL it was saved from, its title and its bytes' encoding (as a
    browser reads it: BOM, ``<meta charset>``, else UTF-8)."""

    file: Path
    site: str
    kind: str
    original_url: str
    title: str
    charset: str

    @property
    def target(self) -> str:
        """The original URL's path and query: where the page is served."""
        parts = urlsplit(self.original_url)
        return (parts.path or "/") + (f"?{parts.query}" if parts.query else "")

    @property
    def is_item(self) -> bool:
        return self.kind in ITEM_KINDS

    @property
    def content_type(self) -> str:
        return f"text/html; charset={self.charset}"


def page_key(target: str) -> tuple[str, tuple[tuple[str, str], ...]]:
    """What identifies a page on its site: the decoded path and the query's parameters in order of name, so
    that ``/a?x=1&y=2`` and ``/a?y=2&x=1`` are one page and ``/search/?start=50`` is not ``/search/``."""
    parts = urlsplit(target)
    return unquote(parts.path or "/"), tuple(sorted(parse_qsl(parts.query, keep_blank_values=True)))


def read_saved_pages(realweb: Path, sites: Sequence[str] | None = None) -> list[SavedPage]:
    """The usable pages of `realweb`/MANIFEST.tsv (those of `sites` when given), in the manifest's order.

    Raises ConfigError when the manifest is missing or a site named in `sites` has no usable page.
    """
    manifest = realweb / "MANIFEST.tsv"
    try:
        with manifest.open(encoding="utf-8") as handle:
            rows = list(csv.DictReader(handle, delimiter="\t"))
    except OSError as exc:
        raise ConfigError(f"the real saved pages are not readable at {realweb}: {exc}") from exc
    pages = []
    for row in rows:
        if sites is not None and row["site"] not in sites:
            continue
        url = _original_url(row["original_url"])
        if url is None:
            continue
        file = realweb / "pages" / row["file"]
        charset, html = decode_html_as(file.read_bytes(), None)
        pages.append(SavedPage(file, row["site"], row["page_kind"], url, _title(html), charset))
    missing = sorted(set(sites or ()) - {page.site for page in pages})
    if missing:
        raise ConfigError(f"no usable saved page of {missing} in {manifest}")
    return pages


def topic_words(text: str) -> set[str]:
    """The words of `text` that say what it is about: three letters or more, no stopword, final "s" dropped."""
    words = set()
    for word in _WORD.findall(text.lower()):
        if len(word) < 3 or word in STOPWORDS:
            continue
        words.add(word[:-1] if word.endswith("s") and not word.endswith("ss") and len(word) > 3 else word)
    return words


def relevant_pages(request: str, pages: Iterable[SavedPage]) -> list[SavedPage]:
    """The item pages whose title shares a topic word with `request` (the rule of the module's docstring)."""
    wanted = topic_words(request)
    return [page for page in pages if page.is_item and wanted & topic_words(page.title)]


def _original_url(field: str) -> str | None:
    first = field.split()[0].rstrip(",") if field.split() else ""
    if not _URL.match(first) or "..." in first:
        return None
    return first


def _title(html: str) -> str:
    """The page's title as the module's docstring says: ``citation_title``, else ``og:title``, else ``<title>`` up
    to " | "; "" for a page with none (or no markup lxml can read)."""
    try:
        tree = lxml.html.document_fromstring(html.encode("utf-8"), parser=_PARSER)
    except (lxml.etree.ParserError, ValueError):
        return ""
    for attribute, value in (("name", "citation_title"), ("property", "og:title")):
        for meta in tree.iter("meta"):
            content = " ".join((meta.get("content") or "").split())
            if (meta.get(attribute) or "").strip().casefold() == value and content:
                return content
    title = next((" ".join(element.text_content().split()) for element in tree.iter("title")), "")
    return title.split(" | ")[0].strip()
