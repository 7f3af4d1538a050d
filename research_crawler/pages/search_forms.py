"""Site search forms: find a page's search forms and OpenSearch descriptions, and build the search request.

A form is used the way a person uses it: its search box filled, its other fields as the page sets them, sent
with its own method — a GET (the search is then a URL) or a POST (`build_search_submission`). A form that only its
script sends (its ``onsubmit`` returns false), and a search box outside any form, are used as a person with a browser
uses them: the words typed into the box and Enter pressed (method ``TYPE``, done in the browser; tried after the
others). A form is unusable when a person could not use it (its action is not a web address), or when its results
are on another site (the page cannot widen what the crawler explores); it is then reported with the reason, never
guessed at. Fields a person would fill for the
request — an author, the dates, "newest first" — are found by their names, labels and options.
"""

# Over 400 lines on purpose: GET forms and OpenSearch links are found, scored and ranked against each other in
# one pass; apart, the ranking would need both halves' internals.

from __future__ import annotations

import logging
import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal
from urllib.parse import parse_qsl, quote, quote_plus, urljoin, urlsplit, urlunsplit

import lxml.html
from lxml import etree
from pydantic import BaseModel, Field

from research_crawler.context.urls import canonicalize_url, host_of, is_same_site, on_another_site
from research_crawler.errors import InvalidURLError, ToolInputError
from research_crawler.pages.html_forms import (
    FormSubmission,
    browser_selector,
    control_labels,
    controls_by_form,
    form_data,
    form_method,
    form_target,
    input_type,
    is_disabled,
    is_submit,
    without_fragment,
)
from research_crawler.pages.html_tree import base_url, parse_html
from research_crawler.pages.search_dates import DateFields, find_date_fields

__all__ = [
    "QUERY_PLACEHOLDER",
    "SearchMechanism",
    "build_search_submission",
    "build_search_url",
    "find_search_mechanism",
    "find_search_mechanisms",
    "read_opensearch_description",
]

logger = logging.getLogger(__name__)

QUERY_PLACEHOLDER = "{query}"
OPENSEARCH_TYPE = "application/opensearchdescription+xml"

# The usual names of a search box's field ("q", "query", "searchterm", "keywords", "s", …).
_QUERY_NAME = re.compile(r"q|qs|query|search(?:_?(?:term|terms|text|query))?|terms?|keywords?|kw|s|k|text|for|find")
_SEARCH_HINT = re.compile(r"search|srch|recherch|cherch|such|busca|find", re.IGNORECASE)
_NAME_SEPARATORS = re.compile(r"[.$:\[\]]+")
_NOT_A_QUERY = re.compile(r"mail|user|login|passw|phone|captcha|zip", re.IGNORECASE)
#: Fields for an author's name ("author", "au", "creator"), never the query.
_AUTHOR_FIELD = re.compile(r"(?:^|[_.\-\[\s])(?:authors?|au|creators?|byline)(?:$|[_.\-\]\s])", re.IGNORECASE)
#: Fields of a bibliographic search beside the query (title, abstract, subject…): the form searches papers.
_BIBLIOGRAPHIC = re.compile(
    r"(?:^|[_.\-\[\s])(?:title|ti|abstract|ab|subject|journal|keywords?|doi|authors?|au)(?:$|[_.\-\]\s])",
    re.IGNORECASE,
)
#: A field a topic may go into when the form has no general one (titles, abstracts, subjects, all fields).
_TOPIC_FIELD = re.compile(r"(?:^|[_.\-\[\s])(?:title|ti|abstract|ab|subject|topic|all|any|anywhere)", re.IGNORECASE)
_NOT_A_TOPIC = re.compile(
    r"(?:^|[_-])(?:year|date|from|until|volume|vol|issue|pages?|doi|isbn|issn|number)(?:$|[_-])", re.IGNORECASE
)
# An OpenSearch link costs one more fetch, so a form with clear search signals (score > 4) goes first.
_OPENSEARCH_SCORE = 4
_OPENSEARCH_DEFAULT_COUNT = 20
_OPENSEARCH_PARAM = re.compile(r"\{([^{}?]+)(\?)?\}")
_XML_DECLARATION = re.compile(r"^\s*<\?xml[^>]*\?>")
_XML_PARSER = etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False, remove_comments=True)


class SearchMechanism(BaseModel):
    """One way to search a site: a form (GET or POST) or an OpenSearch description, and whether it can be used."""

    kind: Literal["form", "opensearch"]
    method: Literal["GET", "POST", "TYPE"] = "GET"
    url_template: str = Field(
        description=f"For a GET, the absolute URL with {QUERY_PLACEHOLDER} where the query goes; for a POST, the "
        "action the fields are sent to; for a TYPE, the page whose search box is typed into; the bare form action "
        "when unusable; empty for an OpenSearch description not read yet."
    )
    query_field: str | None = Field(
        default=None, description="Name of the field that carries the query; for a TYPE, the box's CSS selector."
    )
    hidden_fields: dict[str, str] = Field(
        default_factory=dict, description="Other fields sent with the query: hidden inputs, select defaults."
    )
    fields: list[tuple[str, str | None]] = Field(
        default_factory=list,
        description="A POST form's fields in the form's order, the query field's value None (filled when sent).",
    )
    author_field: str | None = Field(default=None, description="A field for an author's name, if the form has one.")
    usable: bool
    note: str = Field(default="", description="Why the mechanism cannot be used, or what remains to do.")
    description_url: str | None = Field(default=None, description="Where the OpenSearch description lives.")
    dates: DateFields = Field(default_factory=DateFields, description="The form's date and sort fields, if any.")


@dataclass
class _Ranked:
    mechanism: SearchMechanism
    score: int
    order: int


def find_search_mechanisms(html: str, *, url: str) -> list[SearchMechanism]:
    """Every search form and OpenSearch link on the page, best first (usable ones before unusable ones)."""
    tree = parse_html(html)
    if tree is None:
        return []
    base = base_url(tree, url)
    ranked = [
        *_form_mechanisms(tree, page_url=url, base=base),
        *_opensearch_links(tree, base=base),
        *_boxes_outside_forms(tree, page_url=url),
    ]
    # A search that is a URL (GET) goes before one that must be posted: its results can be linked and cached; one
    # typed in the browser goes last (it needs the browser, and its page's script decides what is sent).
    method_rank = {"GET": 0, "POST": 1, "TYPE": 2}
    ranked.sort(key=lambda r: (not r.mechanism.usable, method_rank[r.mechanism.method], -r.score, r.order))
    unique: dict[tuple[str, str, str, str | None], SearchMechanism] = {}
    for item in ranked:
        m = item.mechanism
        unique.setdefault((m.kind, m.method, m.url_template, m.description_url), m)
    return list(unique.values())


def find_search_mechanism(html: str, *, url: str) -> SearchMechanism | None:
    """The best usable search mechanism of the page, else the best unusable one (with its note), else None."""
    mechanisms = find_search_mechanisms(html, url=url)
    return mechanisms[0] if mechanisms else None


def build_search_url(mechanism: SearchMechanism, query: str) -> str:
    """The URL that submits `query` through `mechanism` (the query URL-encoded into its template).

    Raises `ToolInputError` when the mechanism is unusable, is a POST (`build_search_submission`), its OpenSearch
    description has not been read yet, or the query is empty.
    """
    if not mechanism.usable:
        raise ToolInputError(f"This site search cannot be used: {mechanism.note or 'unusable'}.")
    if mechanism.method == "POST":
        raise ToolInputError("This search form is sent by POST: it has no search URL (use build_search_submission).")
    if not query or not query.strip():
        raise ToolInputError("The search query is empty: give the words to search for.")
    template = mechanism.url_template
    if QUERY_PLACEHOLDER not in template:
        raise ToolInputError(
            "This OpenSearch mechanism has no URL template until its description is read; use search_site."
        )
    in_query_string = "?" in template[: template.index(QUERY_PLACEHOLDER)]
    encoded = quote_plus(query.strip()) if in_query_string else quote(query.strip(), safe="")
    search_url = template.replace(QUERY_PLACEHOLDER, encoded)
    try:
        canonicalize_url(search_url)
    except InvalidURLError as exc:
        raise ToolInputError(f"The search URL cannot be used ({exc}); try a shorter query.") from exc
    return search_url


def build_search_submission(mechanism: SearchMechanism, query: str) -> FormSubmission:
    """The request that submits `query` through `mechanism`: a GET of its search URL, a POST of its fields, or the
    words typed into its page's search box in the browser (TYPE).

    Raises `ToolInputError` as `build_search_url` does (but a POST is built, not refused).
    """
    if mechanism.method == "GET" or not mechanism.usable:
        return FormSubmission("GET", build_search_url(mechanism, query))
    if not query or not query.strip():
        raise ToolInputError("The search query is empty: give the words to search for.")
    if mechanism.method == "TYPE":
        return FormSubmission("TYPE", mechanism.url_template, ((mechanism.query_field or "", query.strip()),))
    fields = tuple((name, query.strip() if value is None else value) for name, value in mechanism.fields)
    return FormSubmission("POST", mechanism.url_template, fields)


def read_opensearch_description(xml: str, *, url: str) -> SearchMechanism | None:
    """The HTML-results URL template of an OpenSearch description document, or None if it has none.

    Parsed without DTDs, entity expansion or network access; documents declaring a DTD are refused.
    """
    if not xml or "<!doctype" in xml.lower() or "<!entity" in xml.lower():
        return None
    try:
        root = etree.fromstring(_XML_DECLARATION.sub("", xml, count=1), parser=_XML_PARSER)
    except (etree.XMLSyntaxError, ValueError) as exc:
        logger.debug("unreadable OpenSearch description at %s: %s", url, exc)
        return None
    candidates: list[SearchMechanism] = []
    for element in root.iter():
        if not isinstance(element.tag, str) or etree.QName(element).localname != "Url":
            continue
        kind = (element.get("type") or "").split(";")[0].strip().lower()
        rels = (element.get("rel") or "results").lower().split()
        template = (element.get("template") or "").strip()
        if kind in ("text/html", "application/xhtml+xml") and "results" in rels and "{searchTerms" in template:
            candidates.append(_opensearch_mechanism(element, template, description_url=url))
    return next((m for m in candidates if m.usable), candidates[0] if candidates else None)


# ---------------------------------------------------------------------------------------------- forms


def _form_mechanisms(tree: lxml.html.HtmlElement, *, page_url: str, base: str) -> Iterable[_Ranked]:
    controls = controls_by_form(tree)
    labels = control_labels(tree)
    for order, form in enumerate(tree.iter("form")):
        ranked = _form_mechanism(form, controls.get(form, []), labels, page_url=page_url, base=base, order=order)
        if ranked is not None:
            yield ranked


def _form_mechanism(
    form: lxml.html.HtmlElement,
    controls: list[lxml.html.HtmlElement],
    labels: dict[lxml.html.HtmlElement, str],
    *,
    page_url: str,
    base: str,
    order: int,
) -> _Ranked | None:
    active = [c for c in controls if not is_disabled(c)]
    if any(input_type(c) == "password" for c in active):
        return None  # a login form
    # A form only its script sends: what it sends is the script's business, so a box without a name is a box too.
    scripted = "return false" in " ".join((form.get("onsubmit") or "").lower().split())
    text_fields = [c for c in active if _is_text_field(c, named=not scripted)]
    if not text_fields:
        return None
    authors = [c for c in text_fields if _is_author_field(c, labels)]
    topical = [c for c in text_fields if c not in authors and not _NOT_A_TOPIC.search(_last_name_part(c))]
    if not topical:
        return None  # only an author, a year or a number to type: no place for a topic
    query_field = max(topical, key=lambda c: (_query_field_score(c, labels), -topical.index(c)))
    submitter = next((c for c in active if is_submit(c)), None)
    method = form_method(form, submitter)
    if method == "dialog":
        return None
    raw_action, action = form_target(form, submitter, base=base)
    action = action if raw_action else page_url

    score = _form_score(form, query_field, submitter, active, labels, raw_action, action, page_url)
    if score is None:
        return None
    pairs = form_data(active, submitter=submitter, blank=query_field)
    hidden: dict[str, str] = {}
    for name, value in pairs:
        if value is not None:
            hidden.setdefault(name, value)
    field_name = query_field.get("name", "")
    if scripted and urlsplit(page_url).scheme.lower() in ("http", "https"):
        return _Ranked(_typed(query_field, page_url, "its form is sent only by its script"), score, order)
    if urlsplit(action).scheme.lower() not in ("http", "https"):
        note, usable = f"the form's action is not an http(s) URL ({raw_action[:60]!r})", False
    elif scripted:
        note, usable = "the form is submitted only by JavaScript (onsubmit returns false)", False
    elif on_another_site(action, page_url, base):
        note, usable = f"its results are on another site ({host_of(action)}), which the crawler does not explore", False
    else:
        note, usable = "", True
    posted = method == "post"
    template = _form_template(action, pairs) if usable and not posted else without_fragment(action)
    mechanism = SearchMechanism(
        kind="form",
        method="POST" if posted else "GET",
        url_template=template,
        query_field=field_name,
        hidden_fields=hidden,
        fields=pairs if usable and posted else [],
        author_field=authors[0].get("name") if authors else None,
        usable=usable,
        note=note,
        dates=find_date_fields(active),
    )
    return _Ranked(mechanism=mechanism, score=score, order=order)


def _form_score(
    form: lxml.html.HtmlElement,
    query_field: lxml.html.HtmlElement,
    submitter: lxml.html.HtmlElement | None,
    controls: list[lxml.html.HtmlElement],
    labels: dict[lxml.html.HtmlElement, str],
    raw_action: str,
    action: str,
    page_url: str,
) -> int | None:
    """How much the form looks like the site's search box; None when nothing says it is a search."""
    signals = 0
    roles = [form.get("role"), form.get("aria-role"), *(a.get("role") for a in form.iterancestors())]
    if "search" in roles:
        signals += 3
    if _SEARCH_HINT.search(" ".join(form.get(a, "") for a in ("id", "class", "name", "title", "aria-label"))):
        signals += 2
    if _SEARCH_HINT.search(urlsplit(action).path):
        signals += 2
    if _SEARCH_HINT.search(_heading_before(form)):
        signals += 2  # "Advanced search", "Find articles" above it, or its legend
    field_score = _query_field_score(query_field, labels)
    signals += field_score
    text_fields = [c for c in controls if _is_text_field(c)]
    bibliographic = sum(1 for c in text_fields if _BIBLIOGRAPHIC.search(_field_words(c, labels)))
    if bibliographic >= 2:
        signals += 2  # title and author boxes: a search of the site's papers
    if submitter is not None and _SEARCH_HINT.search(
        " ".join([submitter.get("value", ""), submitter.get("aria-label", ""), submitter.text_content()])
    ):
        signals += 1
    if signals == 0:
        return None
    penalty = 0
    if any(input_type(c) == "email" or _NOT_A_QUERY.search(c.get("name", "")) for c in controls):
        penalty += 4  # newsletter sign-ups and contact forms
    if bibliographic < 2:
        penalty += min(2, len(text_fields) - 1)  # look-up forms (an advanced search of papers is not one)
    if not raw_action:
        penalty += 1  # forms without an action are usually driven by script
    if (query_field.get("value") or "").strip():
        penalty += 1  # a box echoing the current query refines that search rather than searching the site
    if not (is_same_site(action, page_url) or is_same_site(page_url, action)):
        penalty += 3
    return signals - penalty


def _query_field_score(field: lxml.html.HtmlElement, labels: dict[lxml.html.HtmlElement, str]) -> int:
    score = 3 if input_type(field) == "search" else 0
    if _QUERY_NAME.fullmatch(_last_name_part(field)):
        score += 2
    hints = _field_words(field, labels)
    if _SEARCH_HINT.search(hints) or "query" in hints.lower():
        score += 1
    elif _TOPIC_FIELD.search(hints):
        score += 1  # a title, subject or "all fields" box takes a topic when no general one is there
    return score


def _last_name_part(field: lxml.html.HtmlElement) -> str:
    """The field's own name inside a framework's ("EntrezSystem2.PEntrez.SearchBar.Term" → "term")."""
    parts = [part for part in _NAME_SEPARATORS.split(field.get("name", "").lower()) if part]
    return parts[-1] if parts else ""


def _is_author_field(field: lxml.html.HtmlElement, labels: dict[lxml.html.HtmlElement, str]) -> bool:
    """A box for an author's name: so named, or labelled with a few words that say so ("Author", "Author name"),
    not a search box that mentions authors among other things ("Search by title, keyword or author")."""
    if _AUTHOR_FIELD.search(" ".join(field.get(a, "") for a in ("name", "id"))):
        return True
    for text in (labels.get(field, ""), field.get("placeholder", ""), field.get("aria-label", "")):
        if text and len(text.split()) <= 3 and _AUTHOR_FIELD.search(text) and not _SEARCH_HINT.search(text):
            return True
    return False


def _field_words(field: lxml.html.HtmlElement, labels: dict[lxml.html.HtmlElement, str]) -> str:
    """What names a field: its name, id, placeholder, labels and classes."""
    words = [field.get(a, "") for a in ("name", "placeholder", "aria-label", "title", "id", "class")]
    return " ".join([*words, labels.get(field, "")])


def _heading_before(form: lxml.html.HtmlElement) -> str:
    """The form's legend, or the heading just before it (what a person reads as the form's title)."""
    legend = next(form.iter("legend"), None)
    if legend is not None:
        return legend.text_content()[:120]
    sibling = form.getprevious()
    for _ in range(3):
        if sibling is None:
            break
        if isinstance(sibling.tag, str) and sibling.tag.lower() in ("h1", "h2", "h3", "h4", "label", "p"):
            return sibling.text_content()[:120]
        sibling = sibling.getprevious()
    return ""


def _form_template(action: str, pairs: list[tuple[str, str | None]]) -> str:
    parts = urlsplit(action)
    path = parts.path.replace("{", "%7B").replace("}", "%7D")
    query = "&".join(
        f"{quote_plus(name)}={QUERY_PLACEHOLDER if value is None else quote_plus(value)}" for name, value in pairs
    )
    return urlunsplit((parts.scheme, parts.netloc, path, query, ""))


def _is_text_field(control: lxml.html.HtmlElement, *, named: bool = True) -> bool:
    if control.tag != "input" or (named and not control.get("name")):
        return False
    words = " ".join(control.get(a, "") for a in ("name", "id"))
    return input_type(control) in ("text", "search") and not _NOT_A_QUERY.search(words)


# ---------------------------------------------------------------------------------------- typed in the browser


def _boxes_outside_forms(tree: lxml.html.HtmlElement, *, page_url: str) -> Iterable[_Ranked]:
    """Search boxes outside any form (a page whose script reads the box when Enter is pressed): a box of type
    ``search``, or one whose name, placeholder or label says search, in a search landmark or not."""
    if urlsplit(page_url).scheme.lower() not in ("http", "https"):
        return
    labels = control_labels(tree)
    for order, box in enumerate(tree.iter("input")):
        if box.get("form") or next(box.iterancestors("form"), None) is not None or is_disabled(box):
            continue
        if not _is_text_field(box, named=False) or _is_author_field(box, labels):
            continue
        in_landmark = any(a.get("role") == "search" or a.tag == "search" for a in box.iterancestors())
        score = _query_field_score(box, labels) + (3 if in_landmark else 0)
        if input_type(box) == "search" or _SEARCH_HINT.search(_field_words(box, labels)) or in_landmark:
            yield _Ranked(_typed(box, page_url, "its search box is read by its script"), score, 1000 + order)


def _typed(box: lxml.html.HtmlElement, page_url: str, why: str) -> SearchMechanism:
    return SearchMechanism(
        kind="form",
        method="TYPE",
        url_template=without_fragment(page_url),
        query_field=browser_selector(box),
        usable=True,
        note=f"typed into the page in the browser: {why}",
    )


# ---------------------------------------------------------------------------------------------- OpenSearch


def _opensearch_links(tree: lxml.html.HtmlElement, *, base: str) -> Iterable[_Ranked]:
    for order, link in enumerate(tree.iter("link")):
        rels = (link.get("rel") or "").lower().split()
        href = (link.get("href") or "").strip()
        if "search" not in rels or (link.get("type") or "").strip().lower() != OPENSEARCH_TYPE or not href:
            continue
        description_url = urljoin(base, href)
        usable = urlsplit(description_url).scheme.lower() in ("http", "https")
        note = (
            "OpenSearch description not read yet: search_site fetches it to learn the search URL"
            if usable
            else f"the OpenSearch description link is not an http(s) URL ({href[:60]!r})"
        )
        mechanism = SearchMechanism(
            kind="opensearch", url_template="", usable=usable, note=note, description_url=description_url
        )
        yield _Ranked(mechanism=mechanism, score=_OPENSEARCH_SCORE, order=order)


def _opensearch_mechanism(url_element: etree._Element, template: str, *, description_url: str) -> SearchMechanism:
    unfilled: list[str] = []
    index_offset = url_element.get("indexOffset") or "1"
    page_offset = url_element.get("pageOffset") or "1"
    fixed = {"count": str(_OPENSEARCH_DEFAULT_COUNT), "startIndex": index_offset, "startPage": page_offset}
    fixed |= {"language": "*", "inputEncoding": "UTF-8", "outputEncoding": "UTF-8"}

    def fill(match: re.Match[str]) -> str:
        name, optional = match.group(1).strip(), bool(match.group(2))
        if name == "searchTerms":
            return QUERY_PLACEHOLDER
        if name in fixed:
            return fixed[name]
        if not optional:
            unfilled.append(name)
        return ""

    absolute = urljoin(description_url, _OPENSEARCH_PARAM.sub(fill, template))
    method = (url_element.get("method") or "get").strip().lower()
    pairs = parse_qsl(urlsplit(absolute).query, keep_blank_values=True)
    query_field = next((name for name, value in pairs if value == QUERY_PLACEHOLDER), None)
    if urlsplit(absolute).scheme.lower() not in ("http", "https"):
        note = "the OpenSearch template is not an http(s) URL"
    elif method != "get":
        note = "the OpenSearch description only offers a POST search"
    elif unfilled:
        note = f"the OpenSearch template needs parameters that cannot be filled: {', '.join(unfilled)}"
    else:
        note = ""
    return SearchMechanism(
        kind="opensearch",
        method="POST" if method == "post" else "GET",
        url_template=absolute if not note else "",
        query_field=query_field,
        hidden_fields={n: v for n, v in pairs if v != QUERY_PLACEHOLDER},
        usable=not note,
        note=note,
        description_url=description_url,
    )
