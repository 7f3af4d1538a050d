"""Item metadata from the standard tags publishers put in pages, so report fields are read, not generated.

Sources, highest priority first: Highwire ``citation_*`` meta tags, Dublin Core (``DC.*``/``dcterms.*``),
schema.org JSON-LD articles, OpenGraph (title only), and the page's ``<title>`` (title only).
"""

from __future__ import annotations

import html as html_entities
import logging
import re
from collections.abc import Iterator
from datetime import date
from typing import Any, Literal

import lxml.html
from extruct.dublincore import DublinCoreExtractor
from extruct.jsonld import JsonLdExtractor
from extruct.opengraph import OpenGraphExtractor
from pydantic import BaseModel, Field

from research_crawler.context.urls import try_canonicalize_url
from research_crawler.pages.html_tree import MONTHS, base_url, parse_html
from research_crawler.text.untrusted import UntrustedText

__all__ = ["ItemMetadata", "MetadataSource", "normalise_date", "normalise_doi", "read_item_metadata"]

logger = logging.getLogger(__name__)

MetadataSource = Literal["citation", "dublin_core", "json_ld", "opengraph", "html_title"]

_FIELDS = ("title", "authors", "date", "abstract", "doi", "pdf_url")

# bioRxiv puts a placeholder (Jan 1 of the year) in citation_publication_date and the posting day in
# citation_date; elsewhere the two agree, so citation_date goes first.
_CITATION_DATE_TAGS = (
    "citation_date",
    "citation_publication_date",
    "citation_cover_date",
    "citation_online_date",
)
_DC_DATE_TERMS = ("date", "issued", "created", "available")

# JSON-LD @types that describe an item, best first; a WebPage only counts through its mainEntity.
_JSON_LD_TYPE_RANK = {
    "scholarlyarticle": 0,
    "medicalscholarlyarticle": 0,
    "article": 1,
    "newsarticle": 1,
    "techarticle": 1,
    "report": 1,
    "thesis": 1,
    "chapter": 1,
    "book": 2,
    "dataset": 2,
    "creativework": 2,
}
_JSON_LD_MAX_DEPTH = 8

_DOI = re.compile(r"^10\.\d{4,9}/\S+$")
_DOI_PREFIX = re.compile(r"^(?:doi:\s*|info:doi/|https?://(?:dx\.)?doi\.org/)", re.IGNORECASE)
_TAG = re.compile(r"<[A-Za-z/!][^>]*>")
_HEADING = re.compile(r"<h[1-6][^>]*>.*?</h[1-6]\s*>", re.IGNORECASE | re.DOTALL)
_BLOCK_TAG = re.compile(r"</?(?:p|div|br|li|ul|ol|section|h[1-6]|jats:p|jats:sec|jats:title)\b[^>]*>", re.I)

_NUMERIC_DATE = re.compile(r"^(\d{4})(?:[-/.](\d{1,2})(?:[-/.](\d{1,2}))?)?(?:[T\s]\d{1,2}:\d{2}\S*)?$")
_YEAR_MONTH_DAY = re.compile(r"^(\d{4})\s+([A-Za-z]+)\.?(?:\s+(\d{1,2}))?$")
_MONTH_DAY_YEAR = re.compile(r"^([A-Za-z]+)\.?\s+(\d{1,2}),?\s+(\d{4})$")
_DAY_MONTH_YEAR = re.compile(r"^(\d{1,2})\s+([A-Za-z]+)\.?,?\s+(\d{4})$")
_MONTH_YEAR = re.compile(r"^([A-Za-z]+)\.?,?\s+(\d{4})$")


class ItemMetadata(BaseModel):
    """What a page's own tags say about its item; absent fields are None/[] and missing from `sources`."""

    title: UntrustedText | None = None
    authors: list[UntrustedText] = Field(
        default_factory=list, description="In the page's order, as the page writes them."
    )
    date: UntrustedText | None = Field(
        default=None, description="YYYY-MM-DD, YYYY-MM or YYYY when parseable, else the raw value."
    )
    abstract: UntrustedText | None = None
    doi: UntrustedText | None = Field(default=None, description="Bare '10.xxxx/...' form.")
    pdf_url: str | None = Field(default=None, description="Absolute canonical URL of the PDF.")
    sources: dict[str, MetadataSource] = Field(
        default_factory=dict, description="Field name -> the kind of tag it was read from."
    )

    @property
    def is_empty(self) -> bool:
        """True when the page carried none of the fields."""
        return not self.sources


def read_item_metadata(html: str, *, url: str) -> ItemMetadata:
    """Read title, authors, date, abstract, DOI and PDF link from the page's metadata tags.

    Each field comes from the highest-priority source that has it (citation_* > Dublin Core > JSON-LD >
    OpenGraph > <title>). Nothing is guessed: a page without tags gives an empty result, and garbage
    input (empty, binary, broken JSON-LD) never raises.
    """
    tree = parse_html(html)
    if tree is None:
        return ItemMetadata()
    base = base_url(tree, url)
    metas = _meta_values(tree)
    readers: list[tuple[MetadataSource, dict[str, Any]]] = [
        ("citation", _guarded(_from_citation, metas, base)),
        ("dublin_core", _guarded(_from_dublin_core, tree)),
        ("json_ld", _guarded(_from_json_ld, tree)),
        ("opengraph", _guarded(_from_opengraph, tree)),
        ("html_title", _guarded(_from_html_title, tree)),
    ]
    values: dict[str, Any] = {}
    sources: dict[str, MetadataSource] = {}
    for source, found in readers:
        for field in _FIELDS:
            if field not in values and found.get(field):
                values[field] = found[field]
                sources[field] = source
    return ItemMetadata(**values, sources=sources)


def normalise_date(raw: str) -> str:
    """`raw` as YYYY-MM-DD, YYYY-MM or YYYY when it is a recognisable date, else `raw` stripped."""
    text = " ".join(raw.split())
    if match := _NUMERIC_DATE.match(text):
        parts = _date_parts(match.group(1), match.group(2), match.group(3))
    elif match := _YEAR_MONTH_DAY.match(text):
        parts = _date_parts(match.group(1), MONTHS.get(match.group(2).lower()), match.group(3), named=True)
    elif match := _MONTH_DAY_YEAR.match(text):
        parts = _date_parts(match.group(3), MONTHS.get(match.group(1).lower()), match.group(2), named=True)
    elif match := _DAY_MONTH_YEAR.match(text):
        parts = _date_parts(match.group(3), MONTHS.get(match.group(2).lower()), match.group(1), named=True)
    elif match := _MONTH_YEAR.match(text):
        parts = _date_parts(match.group(2), MONTHS.get(match.group(1).lower()), None, named=True)
    else:
        parts = None
    return parts or text


def normalise_doi(raw: str) -> str | None:
    """The bare ``10.xxxx/...`` DOI in `raw` (``doi:``/doi.org prefixes removed), or None if it is not one."""
    text = _DOI_PREFIX.sub("", raw.strip()).strip()
    return text if _DOI.match(text) else None


# ---------------------------------------------------------------------------------------------- sources


def _from_citation(metas: dict[str, list[str]], base: str) -> dict[str, Any]:
    found: dict[str, Any] = {
        "title": _first_clean(metas.get("citation_title", [])),
        "abstract": _first_clean(metas.get("citation_abstract", []), abstract=True),
    }
    authors = _clean_all(metas.get("citation_author", []))
    if not authors:  # the older single-tag form, "A; B; C"
        authors = _clean_all(part for joined in metas.get("citation_authors", []) for part in joined.split(";"))
    found["authors"] = authors
    found["date"] = next(
        (normalise_date(v) for tag in _CITATION_DATE_TAGS for v in _clean_all(metas.get(tag, []))), None
    )
    found["doi"] = next((d for v in metas.get("citation_doi", []) if (d := normalise_doi(v))), None)
    found["pdf_url"] = next(
        (u for v in metas.get("citation_pdf_url", []) if v.strip() and (u := try_canonicalize_url(v.strip(), base))),
        None,
    )
    return found


def _from_dublin_core(tree: lxml.html.HtmlElement) -> dict[str, Any]:
    terms: dict[str, list[str]] = {}
    for block in DublinCoreExtractor().extract_items(tree):
        for entry in [*block.get("elements", []), *block.get("terms", [])]:
            name = str(entry.get("name", "")).lower()
            # extruct also counts un-prefixed tags such as <meta name="description"> as Dublin Core.
            if not name.startswith(("dc.", "dcterms.")):
                continue
            value = entry.get("content", entry.get("value"))
            if isinstance(value, str):
                terms.setdefault(str(entry.get("URI", "")).rsplit("/", 1)[-1].lower(), []).append(value)
    return {
        "title": _first_clean(terms.get("title", [])),
        "authors": _clean_all(terms.get("creator", [])) or _clean_all(terms.get("contributor", [])),
        "date": next((normalise_date(v) for term in _DC_DATE_TERMS for v in _clean_all(terms.get(term, []))), None),
        "abstract": _first_clean(terms.get("abstract", []) + terms.get("description", []), abstract=True),
        "doi": next((d for v in terms.get("identifier", []) if (d := normalise_doi(v))), None),
    }


def _from_json_ld(tree: lxml.html.HtmlElement) -> dict[str, Any]:
    extractor = JsonLdExtractor()
    candidates: list[tuple[int, int, dict[str, Any]]] = []
    for script in tree.xpath('//script[@type="application/ld+json"]'):
        try:  # one broken script must not hide the others
            items = extractor.extract_items(script)
        except Exception as exc:
            logger.debug("skipping unreadable JSON-LD block: %s", exc)
            continue
        for rank, item in _json_ld_articles(items, depth=0):
            candidates.append((rank, len(candidates), item))
    if not candidates:
        return {}
    article = min(candidates, key=lambda c: (c[0], c[1]))[2]
    date_value = _json_ld_text(article.get("datePublished")) or _json_ld_text(article.get("dateCreated"))
    return {
        "title": _clean(_json_ld_text(article.get("headline")) or _json_ld_text(article.get("name"))),
        "authors": _json_ld_people(article.get("author")),
        "date": normalise_date(date_value) if date_value else None,
        "abstract": _clean(
            _json_ld_text(article.get("abstract")) or _json_ld_text(article.get("description")), abstract=True
        ),
        "doi": _json_ld_doi(article),
    }


def _from_opengraph(tree: lxml.html.HtmlElement) -> dict[str, Any]:
    for block in OpenGraphExtractor().extract_items(tree):
        for prop, value in block.get("properties", []):
            if prop == "og:title" and (title := _clean(value)):
                return {"title": title}
    return {}


def _from_html_title(tree: lxml.html.HtmlElement) -> dict[str, Any]:
    titles = tree.xpath("//title[not(ancestor::svg)]")
    return {"title": _clean(titles[0].text_content())} if titles else {}


# ---------------------------------------------------------------------------------------------- JSON-LD


def _json_ld_articles(node: Any, *, depth: int) -> Iterator[tuple[int, dict[str, Any]]]:
    """Article-like objects at the top level, in lists, in @graph, or as a page's mainEntity."""
    if depth > _JSON_LD_MAX_DEPTH:
        return
    if isinstance(node, list):
        for child in node:
            yield from _json_ld_articles(child, depth=depth + 1)
        return
    if not isinstance(node, dict):
        return
    ranks = [_JSON_LD_TYPE_RANK[t] for t in _json_ld_types(node) if t in _JSON_LD_TYPE_RANK]
    if ranks:
        yield min(ranks), node
    for key in ("@graph", "mainEntity"):
        if key in node:
            yield from _json_ld_articles(node[key], depth=depth + 1)


def _json_ld_types(node: dict[str, Any]) -> list[str]:
    raw = node.get("@type")
    types = raw if isinstance(raw, list) else [raw]
    return [t.rsplit("/", 1)[-1].removeprefix("schema:").lower() for t in types if isinstance(t, str)]


def _json_ld_text(value: Any) -> str | None:
    if isinstance(value, list):
        value = next((v for v in value if isinstance(v, str | int)), None)
    if isinstance(value, dict):
        value = value.get("@value")
    return str(value) if isinstance(value, str | int) and not isinstance(value, bool) else None


def _json_ld_people(value: Any) -> list[str]:
    people = value if isinstance(value, list) else [value]
    names: list[str] = []
    for person in people:
        if isinstance(person, str):
            name = _clean(person)
        elif isinstance(person, dict):
            given, family = _json_ld_text(person.get("givenName")), _json_ld_text(person.get("familyName"))
            name = _clean(_json_ld_text(person.get("name")) or " ".join(p for p in (given, family) if p))
        else:
            name = None
        if name:
            names.append(name)
    return names


def _json_ld_doi(article: dict[str, Any]) -> str | None:
    values: list[Any] = []
    for key in ("identifier", "sameAs", "@id", "url"):
        raw = article.get(key)
        values.extend(raw if isinstance(raw, list) else [raw])
    for value in values:
        if isinstance(value, dict):  # PropertyValue {"propertyID": "DOI", "value": "10..."}
            value = value.get("value") if str(value.get("propertyID", "")).lower() == "doi" else None
        if isinstance(value, str) and (doi := normalise_doi(value)):
            return doi
    return None


# ---------------------------------------------------------------------------------------------- helpers


def _guarded(reader: Any, *args: Any) -> dict[str, Any]:
    """Run one source's reader; a page that trips one source still gives the others."""
    try:
        result: dict[str, Any] = reader(*args)
    except Exception as exc:
        logger.debug("metadata source %s failed: %s", reader.__name__, exc)
        return {}
    return result


def _meta_values(tree: lxml.html.HtmlElement) -> dict[str, list[str]]:
    """Every <meta name|property=... content=...>, keyed by lower-cased name, values in page order.

    ``value=`` is read when ``content=`` is missing: some tools rewrite the attribute when saving pages.
    """
    metas: dict[str, list[str]] = {}
    for meta in tree.iter("meta"):
        name = meta.get("name") or meta.get("property")
        value = meta.get("content", meta.get("value"))
        if name and value is not None:
            metas.setdefault(name.strip().lower(), []).append(value)
    return metas


def _clean(value: str | None, *, abstract: bool = False) -> str | None:
    """Text without tags, entities or runs of whitespace; None when nothing is left."""
    if not value:
        return None
    text = value
    if _TAG.search(text):
        if abstract:  # "<h3>ABSTRACT</h3><p>…" — the heading is not part of the abstract
            text = _HEADING.sub(" ", text)
        text = _TAG.sub("", _BLOCK_TAG.sub(" ", text))
    text = " ".join(html_entities.unescape(text).split())
    return text or None


def _first_clean(values: list[str], *, abstract: bool = False) -> str | None:
    return next((c for v in values if (c := _clean(v, abstract=abstract))), None)


def _clean_all(values: Any) -> list[str]:
    return [c for v in values if (c := _clean(v))]


def _date_parts(year: str, month: str | int | None, day: str | None, *, named: bool = False) -> str | None:
    if named and month is None:
        return None
    try:
        if month is None:
            return f"{int(year):04d}"
        if day is None:
            date(int(year), int(month), 1)
            return f"{int(year):04d}-{int(month):02d}"
        return date(int(year), int(month), int(day)).isoformat()
    except ValueError:
        return None
