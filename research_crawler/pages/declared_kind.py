"""The kind of record a page declares itself to be: "Journal article", "Dataset", "Software", "Patent", "Guidance",
"Official Statistics" — what repositories, research portals, lab sites and publication finders write beside a
record's title, and what a careful reader looks at before taking a page for a paper.

Read from where pages declare it, never from the title's words: a labelled field ("Type: Dataset", "Output type",
"Document type", "Resource type", a ``Type`` row or label over its value), the caption set just above the main
heading ("Research and analysis", "Guidance") or just below it ("Dataset", "Research output: Patent"); else Dublin
Core's ``DC.type``, else the schema.org ``@type`` of the page's JSON-LD (Dataset, SoftwareSourceCode, ProfilePage…):
what the reader is shown comes first, a template's tag ("Article" on every page of a site) after. A caption counts
only when all its words name kinds of records (a banner "Statistics Canada" or "Software Engineering Notes" names a
publisher, not a kind).

`names_another_kind` then says whether a declared kind is plainly not the kind asked for: for papers (articles,
reports, theses, chapters, preprints…), a kind naming data, software, a patent, guidance, a consultation,
statistics, news, an event, a presentation or an entity (a person, an organisation, a project, a collection) and no
kind of text work ("Data paper" and "Policy paper" are papers; "Research" qualifies a kind and names none: "Research
article" is a paper, "Research data" and Pure's "Press/Media: Research" are not). A kind it does not know is never
taken for another.
"""

from __future__ import annotations

import json
import re
from typing import Any

from research_crawler.pages.html_tree import meta_content
from research_crawler.pages.page_shows import VisiblePage, read_visible_page, words_of

__all__ = ["declared_kind", "declares_a_post", "json_ld_types", "link_names_another_kind", "names_another_kind"]

#: Labels naming a record's kind ("Type:", "Publication type", "Resource type").
_KIND_LABELS = frozenset({
    "type", "kind", "genre", "category", "document type", "publication type", "output type", "resource type",
    "item type", "content type", "record type", "work type", "article type", "type of publication",
    "type of document", "type of output", "type of resource", "type of work", "format", "research output",
    "output",
})  # fmt: skip
#: Words naming kinds of text works: what a request for papers asks for.
_TEXT_WORK_WORDS = frozenset({
    "article", "articles", "paper", "papers", "preprint", "preprints", "report", "reports", "thesis", "theses",
    "dissertation", "chapter", "book", "books", "monograph", "proceedings", "review", "letter", "essay",
    "manuscript", "journal", "conference", "contribution", "scholarlyarticle", "techarticle", "researchreport",
    "working", "brief", "study", "studies", "publication", "abstract", "analysis", "evaluation",
})  # fmt: skip
#: Words naming kinds of records that are no text work: data, software, inventions, official non-research
#: documents, news, events, presentations and the entities a site has pages about.
_OTHER_KIND_WORDS = frozenset({
    "dataset", "datasets", "data", "software", "code", "softwaresourcecode", "softwareapplication", "patent",
    "patents", "guidance", "guide", "consultation", "consultations", "statistics", "statistical", "news",
    "newsarticle", "blogposting", "press", "media", "clipping", "blog", "event", "events", "form", "forms", "foi",
    "transparency", "poster", "presentation", "slides", "talk", "video", "audio", "image", "podcast", "person",
    "profile", "profilepage", "organisation", "organization", "project", "researchproject", "programme",
    "collection", "collectionpage", "searchresultspage", "datacatalog", "course", "service", "product",
    # the resource types of library and museum catalogues (Dublin Core's DCMI types, MODS' typeOfResource):
    # "PhysicalObject", "StillImage", "MovingImage", "Sound", "Cartographic", "Three dimensional object"
    "object", "cartographic", "map", "maps", "sound", "recording", "photograph", "specimen", "artefact", "artifact",
})  # fmt: skip
#: Words that qualify a kind without naming one ("Official Statistics", "Consultation outcome").
_QUALIFYING_WORDS = frozenset({
    "and", "of", "the", "a", "an", "official", "national", "outcome", "outcomes", "release", "releases", "open",
    "public", "policy", "corporate", "original", "full", "short", "peer", "reviewed", "other", "item", "record",
    "source", "set", "page", "only", "research",
})  # fmt: skip
#: schema.org types that say nothing of the record (a site's own publisher, its pages in general).
_KNOWN_WORDS = _TEXT_WORK_WORDS | _OTHER_KIND_WORDS | _QUALIFYING_WORDS
#: Kinds whose pages may list works, or be them on some sites (a person's or a project's page lists their papers; a
#: seminar's talks are its works; a centre's news announces its papers): a link naming one is no detour.
_MAY_LEAD_TO_WORKS = frozenset({
    "news", "newsarticle", "blog", "blogposting", "press", "media", "clipping",
    "person", "profile", "profilepage", "organisation", "organization", "project", "researchproject", "programme",
    "collection", "collectionpage", "searchresultspage", "datacatalog", "event", "events", "poster",
    "presentation", "slides", "talk", "video", "audio", "podcast", "course", "service", "product",
})  # fmt: skip
#: Words of the kinds a page's tags give a post of a blog or a news site (schema.org's BlogPosting, NewsArticle).
_POST_WORDS = frozenset({"blogposting", "newsarticle", "posting", "blog", "news"})
_SAYS_NOTHING = frozenset({"webpage", "website", "organization", "person", "breadcrumblist", "thing", "creativework"})
_MAX_KIND_WORDS = 6


def declared_kind(tree: Any | None) -> str | None:
    """The kind of record the parsed page `tree` declares itself to be, as written there, or None when it declares
    none (the module docstring says where it is read)."""
    if tree is None:
        return None
    page = read_visible_page(tree)  # what the reader is shown first, then what the page's tags say
    if (shown := _labelled_kind(page) or _caption_kind(page)) is not None:
        return shown
    if (dc_type := meta_content(tree, "dc.type") or meta_content(tree, "dcterms.type")) and _short(dc_type):
        return dc_type
    return _schema_kind(tree)


def json_ld_types(tree: Any) -> list[str]:
    """The schema.org ``@type`` names ("ScholarlyArticle", "Movie") of each JSON-LD script's top nodes and of their
    ``@graph``'s nodes, in the page's order, without their vocabulary's prefix."""
    kinds: list[str] = []
    for script in tree.xpath("//script[@type]"):
        if "ld+json" not in (script.get("type") or "").lower():
            continue
        try:
            document = json.loads(script.text or "")
        except ValueError:
            continue
        nodes = document if isinstance(document, list) else [document]
        for node in nodes:
            if isinstance(node, dict):
                graph = node.get("@graph")
                for each in [node, *(graph if isinstance(graph, list) else [])]:
                    if isinstance(each, dict):
                        kinds.extend(_types(each.get("@type")))
    return kinds


def names_another_kind(kind: str, wanted: str) -> bool:
    """Whether the declared `kind` is plainly no record of the `wanted` kind ("paper", the request's): a kind of
    text work is asked for and `kind` names another kind of record and no text work."""
    if not set(words_of(wanted).split()) & _TEXT_WORK_WORDS:
        return False  # only a request for text works is judged: the other kinds' own words vary too much
    words = set(_split_words(kind))
    return bool(words & _OTHER_KIND_WORDS) and not words & _TEXT_WORK_WORDS


def declares_a_post(kind: str | None) -> bool:
    """Whether the declared `kind` is a post of a blog or a news site ("BlogPosting", "NewsArticle", "News"): the
    form of the page, which may announce a work of any kind (a group's post on its new paper, with the paper)."""
    return kind is not None and bool(set(_split_words(kind)) & _POST_WORDS)


def link_names_another_kind(text: str, wanted: str) -> bool:
    """Whether a link's `text` only names another kind of record than the `wanted` one, where no work of that kind
    is ("Datasets", "Guidance only", "Patents", "News" when papers are asked for): a type filter or a section a
    careful reader of papers leaves for last."""
    words = set(_split_words(text))
    return (
        bool(words)
        and words <= _KNOWN_WORDS | {"all", "our", "latest", "recent", "new"}
        and not words & _MAY_LEAD_TO_WORKS
        and names_another_kind(text, wanted)
    )


def _split_words(kind: str) -> list[str]:
    return words_of(re.sub(r"(?<=[a-z])(?=[A-Z])", " ", kind)).split()


def _short(text: str) -> bool:
    return 0 < len(words_of(text).split()) <= _MAX_KIND_WORDS


def _labelled_kind(page: VisiblePage) -> str | None:
    """The value of a field labelled as the record's kind: "Type: Dataset" in one block, or a "Type" block over
    its value's (a table's row, a description list, a label beside its value)."""
    blocks = [block for block in page.blocks if not block.chrome]
    for at, block in enumerate(blocks):
        label, _, value = block.text.partition(":")
        if value.strip() and words_of(label) in _KIND_LABELS and _short(value):
            return value.strip()
        if words_of(block.text.rstrip(":")) in _KIND_LABELS and at + 1 < len(blocks):
            following = blocks[at + 1]
            if _short(following.text) and not following.heading:
                return following.text.strip()
    return None


def _caption_kind(page: VisiblePage) -> str | None:
    """The caption just above or just below the page's first main heading when all its words name kinds of records
    ("Guidance" over it, "Dataset" under it); "Research output: Patent" under it is a labelled field."""
    blocks = [block for block in page.blocks if not block.chrome]
    at = next((n for n, block in enumerate(blocks) if block.heading == 1), None)
    if at is None:
        return None
    for caption in (blocks[at - 1] if at else None, blocks[at + 1] if at + 1 < len(blocks) else None):
        if caption is None or caption.heading or not _short(caption.text):
            continue
        label, _, value = caption.text.partition(":")
        if value.strip() and words_of(label) in _KIND_LABELS:
            return value.strip()
        words = _split_words(caption.text)
        if all(word in _KNOWN_WORDS for word in words) and set(words) - _QUALIFYING_WORDS:
            return caption.text.strip()
    return None


def _schema_kind(tree: Any) -> str | None:
    """The schema.org ``@type`` of the page's JSON-LD record, a text work's first: None when its only types are
    the site's own (its publisher, its pages in general)."""
    kinds = json_ld_types(tree)
    kinds = [kind for kind in kinds if kind.lower() not in _SAYS_NOTHING]
    text = [kind for kind in kinds if set(_split_words(kind)) & _TEXT_WORK_WORDS]
    chosen = text or kinds
    return chosen[0] if chosen else None


def _types(value: Any) -> list[str]:
    values = value if isinstance(value, list) else [value]
    return [v.rsplit("/", 1)[-1].removeprefix("schema:") for v in values if isinstance(v, str)]
