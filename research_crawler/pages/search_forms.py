"""Site search forms: find a page's search forms and OpenSearch descriptions, and build a search URL.

Only GET submissions are made (a search is then just a URL to fetch); POST-only and script-driven
forms are reported as unusable with the reason, never guessed at.
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

from research_crawler.context.urls import canonicalize_url, is_same_site
from research_crawler.errors import InvalidURLError, ToolInputError
from research_crawler.pages.html_tree import base_url, parse_html
from research_crawler.pages.search_dates import DateFields, find_date_fields

__all__ = [
    "QUERY_PLACEHOLDER",
    "SearchMechanism",
    "build_search_url",
    "find_search_mechanism",
    "find_search_mechanisms",
    "read_opensearch_description",
]

logger = logging.getLogger(__name__)

QUERY_PLACEHOLDER = "{query}"
OPENSEARCH_TYPE = "application/opensearchdescription+xml"

# The usual names of a search box's field ("q", "query", "searchterm", "keywords", "s", …).
_QUERY_NAME = re.compile(
    r"q|qs|query|search(?:_?(?:term|terms|text|query))?|terms?|keywords?|kw|s|k|text|for|find"
)
_SEARCH_HINT = re.compile(r"search|srch|recherch|cherch|such|busca|find", re.IGNORECASE)
_NAME_SEPARATORS = re.compile(r"[.$:\[\]]+")
_NOT_A_QUERY = re.compile(r"mail|user|login|passw|phone|captcha|zip", re.IGNORECASE)
# An OpenSearch link costs one more fetch, so a form with clear search signals (score > 4) goes first.
_OPENSEARCH_SCORE = 4
_OPENSEARCH_DEFAULT_COUNT = 20
_OPENSEARCH_PARAM = re.compile(r"\{([^{}?]+)(\?)?\}")
_XML_DECLARATION = re.compile(r"^\s*<\?xml[^>]*\?>")
_XML_PARSER = etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False, remove_comments=True)


class SearchMechanism(BaseModel):
    """One way to search a site: a GET form or an OpenSearch description, and whether it can be used."""

    kind: Literal["form", "opensearch"]
    method: Literal["GET", "POST"] = "GET"
    url_template: str = Field(
        description=f"Absolute URL with {QUERY_PLACEHOLDER} where the query goes (the bare form action when "
        "unusable; empty for an OpenSearch description not read yet)."
    )
    query_field: str | None = Field(default=None, description="Name of the field that carries the query.")
    hidden_fields: dict[str, str] = Field(
        default_factory=dict, description="Other fields sent with the query: hidden inputs, select defaults."
    )
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
    ranked = [*_form_mechanisms(tree, page_url=url, base=base), *_opensearch_links(tree, base=base)]
    ranked.sort(key=lambda r: (not r.mechanism.usable, -r.score, r.order))
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

    Raises `ToolInputError` when the mechanism is unusable, its OpenSearch description has not been
    read yet, or the query is empty.
    """
    if not mechanism.usable:
        raise ToolInputError(f"This site search cannot be used: {mechanism.note or 'unusable'}.")
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
        if (
            kind in ("text/html", "application/xhtml+xml")
            and "results" in rels
            and "{searchTerms" in template
        ):
            candidates.append(_opensearch_mechanism(element, template, description_url=url))
    return next((m for m in candidates if m.usable), candidates[0] if candidates else None)


# ---------------------------------------------------------------------------------------------- forms


def _form_mechanisms(tree: lxml.html.HtmlElement, *, page_url: str, base: str) -> Iterable[_Ranked]:
    controls = _controls_by_form(tree)
    for order, form in enumerate(tree.iter("form")):
        ranked = _form_mechanism(form, controls.get(form, []), page_url=page_url, base=base, order=order)
        if ranked is not None:
            yield ranked


def _controls_by_form(
    tree: lxml.html.HtmlElement,
) -> dict[lxml.html.HtmlElement, list[lxml.html.HtmlElement]]:
    """Each form's controls in tree order, including those outside it that name it with form=."""
    owners: dict[lxml.html.HtmlElement, list[lxml.html.HtmlElement]] = {}
    for control in tree.iter("input", "select", "textarea", "button"):
        owner = None
        if control.get("form"):
            named = tree.xpath("//form[@id=$id]", id=control.get("form"))
            owner = named[0] if named else None
        else:
            owner = next(control.iterancestors("form"), None)
        if owner is not None:
            owners.setdefault(owner, []).append(control)
    return owners


def _form_mechanism(
    form: lxml.html.HtmlElement,
    controls: list[lxml.html.HtmlElement],
    *,
    page_url: str,
    base: str,
    order: int,
) -> _Ranked | None:
    active = [c for c in controls if not _disabled(c)]
    if any(_input_type(c) == "password" for c in active):
        return None  # a login form
    text_fields = [c for c in active if _is_text_field(c)]
    if not text_fields:
        return None
    query_field = max(text_fields, key=lambda c: (_query_field_score(c), -text_fields.index(c)))
    submitter = next((c for c in active if _is_submit(c)), None)
    method = (_attr(submitter, "formmethod") or form.get("method") or "get").strip().lower()
    if method == "dialog":
        return None
    raw_action = (_attr(submitter, "formaction") or form.get("action") or "").strip()
    action = urljoin(base, raw_action) if raw_action else page_url

    score = _form_score(form, query_field, submitter, active, raw_action, action, page_url)
    if score is None:
        return None
    pairs = _form_data(active, query_field=query_field, submitter=submitter)
    hidden: dict[str, str] = {}
    for name, value in pairs:
        if value is not None:
            hidden.setdefault(name, value)
    field_name = query_field.get("name", "")
    if urlsplit(action).scheme.lower() not in ("http", "https"):
        note, usable = f"the form's action is not an http(s) URL ({raw_action[:60]!r})", False
    elif method == "post":
        note, usable = f"POST-only form (action {_without_fragment(action)})", False
    elif "return false" in " ".join((form.get("onsubmit") or "").lower().split()):
        note, usable = "the form is submitted only by JavaScript (onsubmit returns false)", False
    else:
        note, usable = "", True
    template = _form_template(action, pairs) if usable else _without_fragment(action)
    mechanism = SearchMechanism(
        kind="form",
        method="POST" if method == "post" else "GET",
        url_template=template,
        query_field=field_name,
        hidden_fields=hidden,
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
    field_score = _query_field_score(query_field)
    signals += field_score
    if submitter is not None and _SEARCH_HINT.search(
        " ".join([submitter.get("value", ""), submitter.get("aria-label", ""), submitter.text_content()])
    ):
        signals += 1
    if signals == 0:
        return None
    penalty = 0
    if any(_input_type(c) == "email" or _NOT_A_QUERY.search(c.get("name", "")) for c in controls):
        penalty += 4  # newsletter sign-ups and contact forms
    penalty += min(2, sum(1 for c in controls if _is_text_field(c)) - 1)  # advanced or look-up forms
    if not raw_action:
        penalty += 1  # forms without an action are usually driven by script
    if (query_field.get("value") or "").strip():
        penalty += 1  # a box echoing the current query refines that search rather than searching the site
    if not (is_same_site(action, page_url) or is_same_site(page_url, action)):
        penalty += 3
    return signals - penalty


def _query_field_score(field: lxml.html.HtmlElement) -> int:
    score = 3 if _input_type(field) == "search" else 0
    # Framework names such as "EntrezSystem2.PEntrez.SearchBar.Term" end in the real field name.
    name_parts = [part for part in _NAME_SEPARATORS.split(field.get("name", "").lower()) if part]
    if name_parts and _QUERY_NAME.fullmatch(name_parts[-1]):
        score += 2
    hints = " ".join(field.get(a, "") for a in ("name", "placeholder", "aria-label", "title", "id", "class"))
    if _SEARCH_HINT.search(hints) or "query" in hints.lower():
        score += 1
    return score


def _form_data(
    controls: list[lxml.html.HtmlElement],
    *,
    query_field: lxml.html.HtmlElement,
    submitter: lxml.html.HtmlElement | None,
) -> list[tuple[str, str | None]]:
    """The form data set a browser would submit, in tree order; the query field's value is None."""
    pairs: list[tuple[str, str | None]] = []
    for control in controls:
        name = control.get("name")
        kind = _input_type(control)
        if control is query_field:
            pairs.append((name or "", None))
        elif _is_submit(control):
            if submitter is not None and control is submitter and name:
                if kind == "image":
                    pairs += [(f"{name}.x", "0"), (f"{name}.y", "0")]
                else:
                    pairs.append((name, control.get("value", "")))
        elif not name or control.tag == "button" or kind in ("button", "reset"):
            continue
        elif control.tag == "select":
            pairs += [(name, value) for value in _selected_values(control)]
        elif control.tag == "textarea":
            pairs.append((name, control.text_content()))
        elif kind in ("checkbox", "radio"):
            if control.get("checked") is not None:
                pairs.append((name, control.get("value", "on")))
        else:
            pairs.append((name, control.get("value", "")))
    return pairs


def _selected_values(select: lxml.html.HtmlElement) -> list[str]:
    options = [o for o in select.iter("option") if o.get("disabled") is None]
    chosen = [o for o in options if o.get("selected") is not None]
    if select.get("multiple") is None:
        chosen = chosen[-1:] or options[:1]  # the last `selected` wins; none selected shows the first
    return [
        o.get("value") if o.get("value") is not None else " ".join(o.text_content().split()) for o in chosen
    ]


def _form_template(action: str, pairs: list[tuple[str, str | None]]) -> str:
    parts = urlsplit(action)
    path = parts.path.replace("{", "%7B").replace("}", "%7D")
    query = "&".join(
        f"{quote_plus(name)}={QUERY_PLACEHOLDER if value is None else quote_plus(value)}"
        for name, value in pairs
    )
    return urlunsplit((parts.scheme, parts.netloc, path, query, ""))


def _without_fragment(url: str) -> str:
    parts = urlsplit(url)
    return urlunsplit((parts.scheme, parts.netloc, parts.path, parts.query, ""))


def _input_type(control: lxml.html.HtmlElement) -> str:
    if control.tag == "button":
        return (control.get("type") or "submit").strip().lower()
    if control.tag != "input":
        return control.tag
    return (control.get("type") or "text").strip().lower()


def _is_text_field(control: lxml.html.HtmlElement) -> bool:
    if control.tag != "input" or not control.get("name"):
        return False
    return _input_type(control) in ("text", "search") and not _NOT_A_QUERY.search(control.get("name", ""))


def _attr(element: lxml.html.HtmlElement | None, name: str) -> str | None:
    return element.get(name) if element is not None else None


def _is_submit(control: lxml.html.HtmlElement) -> bool:
    return control.tag in ("input", "button") and _input_type(control) in ("submit", "image")


def _disabled(control: lxml.html.HtmlElement) -> bool:
    return control.get("disabled") is not None or any(
        a.tag == "fieldset" and a.get("disabled") is not None for a in control.iterancestors()
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


def _opensearch_mechanism(
    url_element: etree._Element, template: str, *, description_url: str
) -> SearchMechanism:
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
