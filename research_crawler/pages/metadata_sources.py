"""What a page's hidden metadata says about its item, one reading per vocabulary: Highwire ``citation_*``,
bepress, EPrints, PRISM, Dublin Core and ``dcterms``, JSON-LD, microdata and RDFa (read by extruct), JSON held
in scripts (a publisher's page-state object), a Markdown document's front matter shown on the page, Open Graph, and
the ``<title>`` element.

Each reader gives what its vocabulary says and nothing more; which reading is believed is decided against what
the page shows (`metadata.py`). A vocabulary that trips on a page gives no reading; the others still do.
"""

from __future__ import annotations

import html as html_entities
import logging
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any, Literal

import lxml.html
from extruct.dublincore import DublinCoreExtractor
from extruct.jsonld import JsonLdExtractor
from extruct.opengraph import OpenGraphExtractor
from extruct.w3cmicrodata import MicrodataExtractor

from research_crawler.context.urls import try_canonicalize_url
from research_crawler.pages.bylines import names_after_by
from research_crawler.pages.front_matter import read_front_matter
from research_crawler.pages.item_dates import tag_date
from research_crawler.pages.person_names import split_people
from research_crawler.pages.script_json import page_state_objects

__all__ = [
    "WEB_VOCABULARIES",
    "MetadataSource",
    "Reading",
    "container_names",
    "normalise_doi",
    "read_tag_sources",
    "schema_types",
]

logger = logging.getLogger(__name__)

MetadataSource = Literal[
    "citation",
    "bepress",
    "eprints",
    "prism",
    "dublin_core",
    "json_ld",
    "microdata",
    "rdfa",
    "script_json",
    "front_matter",
    "opengraph",
    "html_title",
    "page_heading",
    "page_field",
    "page_byline",
    "page_text",
    "htmldate",
    "trafilatura",
]

# The vocabularies of the general web, which a CMS fills in for any post (its account as the author, a timestamp in
# UTC as the date), as against a scholarly publisher's tags written for indexers.
WEB_VOCABULARIES: frozenset[MetadataSource] = frozenset({"json_ld", "microdata", "rdfa", "dublin_core", "opengraph"})

# bioRxiv puts a placeholder (Jan 1 of the year) in citation_publication_date and the posting day in
# citation_date; elsewhere the two agree, so citation_date goes first.
_CITATION_DATE_TAGS = ("citation_date", "citation_publication_date", "citation_cover_date", "citation_online_date")
_DC_DATE_TERMS = ("date", "issued", "created", "available")
# JSON-LD and microdata types that describe an item, best first; a WebPage only counts through its mainEntity.
_TYPE_RANK = {
    "scholarlyarticle": 0,
    "medicalscholarlyarticle": 0,
    "article": 1,
    "newsarticle": 1,
    "techarticle": 1,
    "report": 1,
    "thesis": 1,
    "chapter": 1,
    "blogposting": 1,
    "discussionforumposting": 1,  # a forum thread's opening post: its starter and the day it began
    "book": 2,
    "dataset": 2,
    "creativework": 2,
}
_JSON_LD_MAX_DEPTH = 8
_CONTAINER_TAGS = (
    "citation_journal_title",
    "citation_conference_title",
    "citation_inbook_title",
    "citation_publisher",
    "bepress_citation_journal_title",
    "prism.publicationname",
    "dc.source",
    "dc.publisher",
    "dc.relation.ispartof",
    "dcterms.ispartof",
    "og:site_name",
    "application-name",
)
_DOI = re.compile(r"^10\.\d{4,9}/\S+$")
_DOI_PREFIX = re.compile(r"^(?:doi:\s*|info:doi/|https?://(?:dx\.)?doi\.org/)", re.IGNORECASE)
_TAG = re.compile(r"<[A-Za-z/!][^>]*>")
_HEADING = re.compile(r"<h[1-6][^>]*>.*?</h[1-6]\s*>", re.IGNORECASE | re.DOTALL)
_BLOCK_TAG = re.compile(r"</?(?:p|div|br|li|ul|ol|section|h[1-6]|jats:p|jats:sec|jats:title)\b[^>]*>", re.I)


@dataclass(frozen=True)
class Reading:
    """What one vocabulary of the page says about its item (fields it does not give are None or empty)."""

    source: MetadataSource
    title: str | None = None
    authors: tuple[str, ...] = ()
    date: str | None = None
    abstract: str | None = None
    doi: str | None = None
    pdf_url: str | None = None


def read_tag_sources(tree: lxml.html.HtmlElement, html: str, *, base: str) -> list[Reading]:
    """Every vocabulary's reading of the page, most trusted first (the order a tie between tags is broken in)."""
    metas = _meta_values(tree)
    readers: list[tuple[MetadataSource, Callable[[], dict[str, Any]]]] = [
        ("citation", lambda: _highwire(metas, "citation_", base)),
        ("bepress", lambda: _highwire(metas, "bepress_citation_", base)),
        ("eprints", lambda: _eprints(metas, base)),
        ("prism", lambda: _prism(metas)),
        ("dublin_core", lambda: _dublin_core(tree)),
        ("json_ld", lambda: _json_ld(tree)),
        ("microdata", lambda: _microdata(tree, base)),
        ("script_json", lambda: _script_json(html)),
        ("front_matter", lambda: read_front_matter(tree)),
        ("opengraph", lambda: _opengraph(tree, metas)),
        ("html_title", lambda: {"title": _clean(tree.findtext(".//title"))}),
    ]
    readings = []
    for source, reader in readers:
        try:
            found = reader()
        except Exception as exc:  # one vocabulary that trips must not hide the others
            logger.debug("metadata source %s failed: %s", source, exc)
            continue
        if any(found.values()):
            readings.append(Reading(source=source, **{**found, "authors": tuple(found.get("authors") or ())}))
    return readings


def container_names(tree: lxml.html.HtmlElement) -> list[str]:
    """The names of what holds the item — journal, proceedings, book, publisher, site — as its tags give them."""
    metas = _meta_values(tree)
    names = [value for tag in _CONTAINER_TAGS for value in _clean_all(metas.get(tag, [])) if len(value) >= 3]
    return sorted(set(names), key=len, reverse=True)


def normalise_doi(raw: str) -> str | None:
    """The bare ``10.xxxx/...`` DOI in `raw` (``doi:``/doi.org prefixes removed), or None if it is not one."""
    text = _DOI_PREFIX.sub("", raw.strip()).strip()
    return text if _DOI.match(text) else None


# --- the vocabularies -------------------------------------------------------------------------------------


def _highwire(metas: dict[str, list[str]], prefix: str, base: str) -> dict[str, Any]:
    """Highwire Press ``citation_*`` tags (Google Scholar's), or bepress's ``bepress_citation_*`` copy of them."""
    authors = _people(metas.get(f"{prefix}author", []))
    if not authors:  # the older single-tag form, "A; B; C"
        authors = _people(metas.get(f"{prefix}authors", []))
    dates = [f"{prefix}{tag.removeprefix('citation_')}" for tag in _CITATION_DATE_TAGS]
    return {
        "title": _first_clean(metas.get(f"{prefix}title", [])),
        "abstract": _first_clean(metas.get(f"{prefix}abstract", []), abstract=True),
        "authors": authors,
        "date": _first_date(metas, dates),
        "doi": next((d for v in metas.get(f"{prefix}doi", []) if (d := normalise_doi(v))), None),
        "pdf_url": _first_url(metas.get(f"{prefix}pdf_url", []), base),
    }


def _eprints(metas: dict[str, list[str]], base: str) -> dict[str, Any]:
    """EPrints repositories' ``eprints.*`` tags (creators written "Last, First")."""
    return {
        "title": _first_clean(metas.get("eprints.title", [])),
        "authors": _people(metas.get("eprints.creators_name", [])),
        "date": _first_date(metas, ("eprints.date",)),
        "abstract": _first_clean(metas.get("eprints.abstract", []), abstract=True),
        "doi": next((d for v in metas.get("eprints.id_number", []) if (d := normalise_doi(v))), None),
        "pdf_url": _first_url(metas.get("eprints.document_url", []), base),
    }


def _prism(metas: dict[str, list[str]]) -> dict[str, Any]:
    """PRISM tags: publication and cover dates, the DOI (titles and authors are left to Dublin Core)."""
    return {
        "title": _first_clean(metas.get("prism.title", [])),
        "date": _first_date(metas, ("prism.publicationdate", "prism.coverdate", "prism.coverdisplaydate")),
        "doi": next((d for v in metas.get("prism.doi", []) if (d := normalise_doi(v))), None),
    }


def _dublin_core(tree: lxml.html.HtmlElement) -> dict[str, Any]:
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
        "authors": _people(terms.get("creator", [])) or _people(terms.get("contributor", [])),
        "date": next((tag_date(v) for term in _DC_DATE_TERMS for v in _clean_all(terms.get(term, []))), None),
        "abstract": _first_clean(terms.get("abstract", []) + terms.get("description", []), abstract=True),
        "doi": next((d for v in terms.get("identifier", []) if (d := normalise_doi(v))), None),
    }


def _json_ld(tree: lxml.html.HtmlElement) -> dict[str, Any]:
    extractor = JsonLdExtractor()
    candidates: list[tuple[int, int, dict[str, Any]]] = []
    nodes: dict[str, dict[str, Any]] = {}
    pages: list[dict[str, Any]] = []
    for script in tree.xpath('//script[@type="application/ld+json"]'):
        try:  # one broken script must not hide the others
            items = extractor.extract_items(script)
        except Exception as exc:
            logger.debug("skipping unreadable JSON-LD block: %s", exc)
            continue
        nodes.update(_identified_nodes(items, depth=0))
        for rank, item in _json_ld_articles(items, depth=0):
            candidates.append((rank, len(candidates), item))
        pages += _json_ld_web_pages(items)
    if not candidates:
        # no article: the page's own WebPage node (an SEO plugin's @graph) still dates it
        published = next((value for page in pages if (value := _text(page.get("datePublished")))), None)
        return {"date": tag_date(published)} if published else {}
    article = min(candidates, key=lambda c: (c[0], c[1]))[2]
    # an author given by reference to a node of the graph ({"@id": "…#/schema/person/1"}, as SEO plugins write it)
    people = [
        nodes.get(p["@id"], p) if isinstance(p, dict) and "@id" in p else p for p in _as_list(article.get("author"))
    ]
    return _schema_org_fields({**article, "author": people} if people else article)


def _json_ld_web_pages(node: Any) -> list[dict[str, Any]]:
    """The WebPage objects at the top level, in a list or in @graph (not those other objects point to)."""
    found: list[dict[str, Any]] = []
    for item in node if isinstance(node, list) else [node]:
        if isinstance(item, dict) and isinstance(item.get("@graph"), list):
            found += _json_ld_web_pages(item["@graph"])
        elif isinstance(item, dict) and {"webpage", "itempage"} & set(schema_types(item.get("@type"))):
            found.append(item)
    return found


def _identified_nodes(node: Any, *, depth: int) -> Iterator[tuple[str, dict[str, Any]]]:
    """(its @id, the node) for every JSON-LD object that has an identifier and says more than that."""
    if depth > _JSON_LD_MAX_DEPTH:
        return
    children = node if isinstance(node, list) else list(node.values()) if isinstance(node, dict) else []
    if isinstance(node, dict) and isinstance(node.get("@id"), str) and len(node) > 1:
        yield node["@id"], node
    for child in children:
        yield from _identified_nodes(child, depth=depth + 1)


def _microdata(tree: lxml.html.HtmlElement, base: str) -> dict[str, Any]:
    """schema.org microdata (``itemscope``/``itemprop``), read by extruct."""
    if not tree.xpath("//*[@itemscope]"):
        return {}
    candidates: list[tuple[int, int, dict[str, Any]]] = []
    for item in MicrodataExtractor().extract_items(tree, base):
        types = [str(t).rsplit("/", 1)[-1].lower() for t in _as_list(item.get("type"))]
        ranks = [_TYPE_RANK[t] for t in types if t in _TYPE_RANK]
        if ranks:
            candidates.append((min(ranks), len(candidates), item.get("properties", {})))
    if not candidates:
        return {}
    properties = min(candidates, key=lambda c: (c[0], c[1]))[2]
    people = [p.get("properties", p) if isinstance(p, dict) else p for p in _as_list(properties.get("author"))]
    return _schema_org_fields({**properties, "author": people})


def _script_json(html: str) -> dict[str, Any]:
    """A publisher's page-state object in a script (IEEE's ``xplGlobal.document.metadata``, a Next.js page's
    data): the object that holds a title with authors, the richest first."""
    for found in page_state_objects(html):
        return found
    return {}


def _opengraph(tree: lxml.html.HtmlElement, metas: dict[str, list[str]]) -> dict[str, Any]:
    """Open Graph's title, and its article's publication time (``article:published_time``; never its
    ``modified_time``), the day as the tag writes it in its own zone."""
    found: dict[str, Any] = {}
    for block in OpenGraphExtractor().extract_items(tree):
        for prop, value in block.get("properties", []):
            if prop == "og:title" and (title := _clean(value)):
                found["title"] = title
                break
        if found:
            break
    published = _first_clean(metas.get("article:published_time", []))
    if published and _READ_DATE.match(day := tag_date(published)):
        found["date"] = day
    return found


# --- schema.org objects ------------------------------------------------------------------------------------


def schema_types(value: Any) -> list[str]:
    """A schema.org ``@type`` (or extruct's microdata ``type``) as bare lower-case names: "https://schema.org/
    NewsArticle", "schema:Organization" and ["Article", …] give "newsarticle", "organization", "article"."""
    return [
        kind.rsplit("/", 1)[-1].removeprefix("schema:").lower() for kind in _as_list(value) if isinstance(kind, str)
    ]


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
    types = schema_types(node.get("@type"))
    ranks = [_TYPE_RANK[t] for t in types if t in _TYPE_RANK]
    if ranks:
        yield min(ranks), node
    for key in ("@graph", "mainEntity"):
        if key in node:
            yield from _json_ld_articles(node[key], depth=depth + 1)
    if "qapage" in types and isinstance(node.get("mainEntity"), dict):
        # a Q&A thread's question (the page's one mainEntity, not an FAQ's list): its asker and the day it was asked
        question = node["mainEntity"]
        if "question" in schema_types(question.get("@type")):
            yield _TYPE_RANK["discussionforumposting"], question


def _schema_org_fields(article: dict[str, Any]) -> dict[str, Any]:
    date_value = _text(article.get("datePublished")) or _text(article.get("dateCreated"))
    return {
        "title": _clean(_text(article.get("headline")) or _text(article.get("name"))),
        "authors": _schema_org_people(article.get("author") or article.get("creator")),
        "date": tag_date(date_value) if date_value else None,
        "abstract": _clean(_text(article.get("abstract")) or _text(article.get("description")), abstract=True),
        "doi": _schema_org_doi(article),
    }


def _text(value: Any) -> str | None:
    if isinstance(value, list):
        value = next((v for v in value if isinstance(v, str | int)), None)
    if isinstance(value, dict):
        value = value.get("@value")
    return str(value) if isinstance(value, str | int) and not isinstance(value, bool) else None


def _schema_org_people(value: Any) -> list[str]:
    names: list[str] = []
    for person in _as_list(value):
        if isinstance(person, str):
            name = _clean(person)
        elif isinstance(person, dict):
            given, family = _text(person.get("givenName")), _text(person.get("familyName"))
            name = _clean(_text(person.get("name")) or " ".join(p for p in (given, family) if p))
        else:
            name = None
        if name and not _ADDRESS_NOT_NAME.match(name):  # an author given as its profile's address is no name
            # one Person whose name is a whole byline ("By JANE DOE and JOHN ROE, Associated Press"): its names
            names += names_after_by(name) or [name]
    return names


def _schema_org_doi(article: dict[str, Any]) -> str | None:
    values: list[Any] = []
    for key in ("identifier", "sameAs", "@id", "url"):
        values.extend(_as_list(article.get(key)))
    for value in values:
        if isinstance(value, dict):  # PropertyValue {"propertyID": "DOI", "value": "10..."}
            value = value.get("value") if str(value.get("propertyID", "")).lower() == "doi" else None
        if isinstance(value, str) and (doi := normalise_doi(value)):
            return doi
    return None


# --- helpers ---------------------------------------------------------------------------------------------


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


_UNFILLED_TEMPLATE = re.compile(r"\$\{?[A-Za-z_]|\{\{|\}\}|\{%|%s\b|<%")
_READ_DATE = re.compile(r"^\d{4}(?:-\d\d){0,2}$")  # a tag value read as a date, not left as written
_ADDRESS_NOT_NAME = re.compile(r"^\s*(?:https?://|www\.|/)\S*\s*$", re.I)


def _people(values: list[str]) -> list[str]:
    """Author tags' names in order; a tag that holds a whole list ("A, B and C", "A; B") is split."""
    names: list[str] = []
    for value in _clean_all(values):
        if _ADDRESS_NOT_NAME.match(value) or _UNFILLED_TEMPLATE.search(value):
            # "https://…/dr.-sebastian-brueggemann.html": a profile's address; "$author.firstName $author.lastName",
            # "{{ author.name }}": a template the site left unfilled — neither is a name
            continue
        split = split_people(value) if len(values) == 1 or ";" in value else []
        names.extend(split if len(split) > 1 else [value])
    return names


def _first_date(metas: dict[str, list[str]], tags: Any) -> str | None:
    return next((tag_date(v) for tag in tags for v in _clean_all(metas.get(tag, []))), None)


def _first_url(values: list[str], base: str) -> str | None:
    return next((u for v in values if v.strip() and (u := try_canonicalize_url(v.strip(), base))), None)


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


def _as_list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else [value] if value is not None else []
