"""The names a page declares for its publisher — the organisation that puts the site out, never a writer of its
item unless the page shows it as the item's byline ("By Wikimedia Foundation").

A careful reader (a librarian, Zotero's translators) does not take a newspaper's name for its reporter's: where
a page's only "author" is the masthead — a JSON-LD or microdata author typed as an organisation, the publisher a
tag names, the application the site calls itself (``application-name``), or the name a ``<title>`` puts after
its item's — the page names no writer. What is declared is read, with extruct for schema.org's vocabularies; a
site named after a person (a one-person blog) declares no organisation, so its owner stays an author.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from typing import Any

import lxml.html
from extruct.jsonld import JsonLdExtractor
from extruct.w3cmicrodata import MicrodataExtractor

from research_crawler.pages.metadata_sources import schema_types
from research_crawler.pages.page_shows import words_of

__all__ = ["publisher_names"]

logger = logging.getLogger(__name__)

# schema.org's organisation types: their names are publishers' names (a WebSite's is left out: a blog's is its owner's)
_ORGANISATION_TYPES = frozenset(
    {
        "organization",
        "newsmediaorganization",
        "corporation",
        "educationalorganization",
        "collegeoruniversity",
        "governmentorganization",
        "ngo",
        "researchorganization",
        "onlinebusiness",
        "localbusiness",
        "library",
    }
)
# the tags that name the publisher or the application the site is (a person's blog sets none of these to a name)
_PUBLISHER_TAGS = frozenset(
    {
        "application-name",
        "apple-mobile-web-app-title",
        "msapplication-tooltip",
        "publisher",
        "dc.publisher",
        "dcterms.publisher",
        "citation_publisher",
        "article:publisher",
    }
)
_MAX_DEPTH = 8


def publisher_names(tree: lxml.html.HtmlElement) -> frozenset[str]:
    """The publisher names the page declares, each reduced to its words (`words_of`); empty when it declares none
    or its structured data cannot be read."""
    names: set[str] = set()
    for meta in tree.iter("meta"):
        key = (meta.get("name") or meta.get("property") or "").strip().lower()
        if key in _PUBLISHER_TAGS and not (meta.get("content") or "").startswith(("http://", "https://")):
            names.add(words_of(meta.get("content") or ""))
    for script in tree.xpath('//script[@type="application/ld+json"]'):
        try:
            names.update(_organisations(JsonLdExtractor().extract_items(script), depth=0))
        except Exception as error:  # one broken script costs its names, never the page
            logger.debug("skipping unreadable JSON-LD block: %s", error)
    if tree.xpath("//*[@itemscope]"):
        try:
            names.update(_organisations(MicrodataExtractor().extract_items(tree, ""), depth=0))
        except Exception as error:
            logger.debug("skipping unreadable microdata: %s", error)
    return frozenset(name for name in names if name)


def _organisations(node: Any, *, depth: int) -> Iterator[str]:
    """The names of the organisation-typed objects in JSON-LD (``@type``/``name``) or extruct's microdata items
    (``type``/``properties.name``), at any depth."""
    if depth > _MAX_DEPTH:
        return
    if isinstance(node, list):
        for child in node:
            yield from _organisations(child, depth=depth + 1)
        return
    if not isinstance(node, dict):
        return
    inner = node.get("properties")
    properties: dict[str, Any] = inner if isinstance(inner, dict) else node
    kinds = set(schema_types(node.get("@type", node.get("type"))))
    name = properties.get("name")
    if kinds & _ORGANISATION_TYPES and isinstance(name, str):
        yield words_of(name)
    for child in properties.values():
        if isinstance(child, dict | list):
            yield from _organisations(child, depth=depth + 1)
