"""HTML forms as a browser submits them: each form's controls (those outside it that name it with ``form=``
included), the form data set for a chosen submit button, and the request that results (`FormSubmission`).

Shared by the site search (`search_forms.py`) and the consent pages the fetcher passes (`web/interstitials.py`):
a form is read the way the HTML standard says a browser builds its request, never guessed at.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal
from urllib.parse import parse_qsl, urlencode, urljoin, urlsplit, urlunsplit

import lxml.html

__all__ = [
    "FormSubmission",
    "browser_selector",
    "control_labels",
    "controls_by_form",
    "form_data",
    "form_method",
    "form_target",
    "input_type",
    "is_disabled",
    "is_submit",
    "selected_values",
    "submission_identity",
    "without_fragment",
]

#: "TYPE": the query typed into the page's search box in the browser and Enter pressed (a form only its script sends).
FormMethod = Literal["GET", "POST", "TYPE"]


@dataclass(frozen=True, slots=True)
class FormSubmission:
    """One form submission: the method, the absolute action URL, and the fields in the form's order.

    A GET puts the fields in the action's query (replacing the query it had, as browsers do; with no fields it is
    the action itself: a link followed); a POST sends them as an ``application/x-www-form-urlencoded`` body. A TYPE
    is done in the browser on the page at `action`: its one field is the search box (a CSS selector) and the words
    typed into it; the page's own script sends them.
    """

    method: FormMethod
    action: str
    fields: tuple[tuple[str, str], ...] = ()

    @property
    def url(self) -> str:
        """The URL requested: for a GET the action with the fields as its query, for a POST the action."""
        parts = urlsplit(self.action)
        query = urlencode(self.fields) if self.method == "GET" and self.fields else parts.query
        return urlunsplit((parts.scheme, parts.netloc, parts.path, query, ""))

    @property
    def body(self) -> bytes:
        """The urlencoded body of a POST (empty for a GET)."""
        return urlencode(self.fields).encode("ascii") if self.method == "POST" else b""

    def with_values(self, values: dict[str, str]) -> FormSubmission:
        """This submission with the fields named in `values` set (each once, where it stood; added at the end when
        the form did not have it). A GET without fields (a search URL) has its query changed instead."""
        if self.method == "GET" and not self.fields:
            parts = urlsplit(self.action)
            pairs = _set_values(parse_qsl(parts.query, keep_blank_values=True), values)
            return FormSubmission("GET", urlunsplit((parts.scheme, parts.netloc, parts.path, urlencode(pairs), "")))
        return FormSubmission(self.method, self.action, tuple(_set_values(list(self.fields), values)))


def _set_values(pairs: list[tuple[str, str]], values: dict[str, str]) -> list[tuple[str, str]]:
    kept: list[tuple[str, str]] = []
    placed: set[str] = set()
    for name, value in pairs:
        if name in values:
            if name not in placed:
                kept.append((name, values[name]))
                placed.add(name)
            continue
        kept.append((name, value))
    return kept + [(name, value) for name, value in values.items() if name not in placed]


def controls_by_form(
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


def form_method(form: lxml.html.HtmlElement, submitter: lxml.html.HtmlElement | None) -> str:
    """The method a submission by `submitter` uses, lower-cased ('get', 'post' or 'dialog'; anything else is get)."""
    method = (submitter.get("formmethod") if submitter is not None else None) or form.get("method") or "get"
    method = method.strip().lower()
    return method if method in ("post", "dialog") else "get"


def form_target(form: lxml.html.HtmlElement, submitter: lxml.html.HtmlElement | None, *, base: str) -> tuple[str, str]:
    """(the action as written, the absolute action URL) of a submission by `submitter` (no action: `base`)."""
    raw = ((submitter.get("formaction") if submitter is not None else None) or form.get("action") or "").strip()
    return raw, urljoin(base, raw) if raw else base


def form_data(
    controls: list[lxml.html.HtmlElement],
    *,
    submitter: lxml.html.HtmlElement | None,
    blank: lxml.html.HtmlElement | None = None,
) -> list[tuple[str, str | None]]:
    """The form data set a browser would submit with `submitter`, in tree order; `blank`'s value is None (the
    field the caller fills in)."""
    pairs: list[tuple[str, str | None]] = []
    for control in controls:
        if is_disabled(control):
            continue
        name = control.get("name")
        kind = input_type(control)
        if control is blank:
            pairs.append((name or "", None))
        elif is_submit(control):
            if submitter is not None and control is submitter and name:
                if kind == "image":
                    pairs += [(f"{name}.x", "0"), (f"{name}.y", "0")]
                else:
                    pairs.append((name, control.get("value", "")))
        elif not name or control.tag == "button" or kind in ("button", "reset", "file"):
            continue
        elif control.tag == "select":
            pairs += [(name, value) for value in selected_values(control)]
        elif control.tag == "textarea":
            pairs.append((name, control.text_content()))
        elif kind in ("checkbox", "radio"):
            if control.get("checked") is not None:
                pairs.append((name, control.get("value", "on")))
        else:
            pairs.append((name, control.get("value", "")))
    return pairs


def selected_values(select: lxml.html.HtmlElement) -> list[str]:
    """The values a <select> submits: its selected options (the first option when none is selected)."""
    options = [o for o in select.iter("option") if o.get("disabled") is None]
    chosen = [o for o in options if o.get("selected") is not None]
    if select.get("multiple") is None:
        chosen = chosen[-1:] or options[:1]  # the last `selected` wins; none selected shows the first
    return [o.get("value") if o.get("value") is not None else " ".join(o.text_content().split()) for o in chosen]


def input_type(control: lxml.html.HtmlElement) -> str:
    """A control's kind: an <input>'s type (text by default), a <button>'s (submit by default), else its tag."""
    if control.tag == "button":
        return (control.get("type") or "submit").strip().lower()
    if control.tag != "input":
        return str(control.tag)
    return (control.get("type") or "text").strip().lower()


def is_submit(control: lxml.html.HtmlElement) -> bool:
    """Whether the control submits its form when pressed."""
    return control.tag in ("input", "button") and input_type(control) in ("submit", "image")


def is_disabled(control: lxml.html.HtmlElement) -> bool:
    """Whether the control is disabled (by itself or by a disabled fieldset around it)."""
    return control.get("disabled") is not None or any(
        a.tag == "fieldset" and a.get("disabled") is not None for a in control.iterancestors()
    )


def submission_identity(submission: FormSubmission) -> str:
    """The URL that stands for `submission` in the sets of visited pages and the page archive: for a GET the URL it
    requests; for a POST the action with the fields added to its query (what the same search as a GET would be)."""
    if submission.method == "GET":
        return submission.url
    # a POST, or a search typed into the page (the box's selector and the words)
    parts = urlsplit(submission.action)
    query = "&".join(part for part in (parts.query, urlencode(submission.fields)) if part)
    return urlunsplit((parts.scheme, parts.netloc, parts.path, query, ""))


def control_labels(tree: lxml.html.HtmlElement) -> dict[lxml.html.HtmlElement, str]:
    """The text of each control's <label> (by for= or around it): what a person reads beside the field."""
    by_id = {element.get("id"): element for element in tree.iter("input", "select", "textarea") if element.get("id")}
    labels: dict[lxml.html.HtmlElement, str] = {}
    for label in tree.iter("label"):
        text = " ".join(label.text_content().split())[:80]
        target = by_id.get(label.get("for")) if label.get("for") else None
        if target is None:
            target = next(iter(label.iter("input", "select", "textarea")), None)
        if target is not None and text:
            labels[target] = text
    return labels


def browser_selector(box: lxml.html.HtmlElement) -> str:
    """A selector Playwright finds `box` by: its id or its name when the page has one such, else its path."""
    tree = box.getroottree()
    box_id, name = box.get("id") or "", box.get("name") or ""
    if re.fullmatch(r"[A-Za-z][\w-]*", box_id) and len(tree.xpath("//*[@id=$v]", v=box_id)) == 1:
        return f"#{box_id}"
    if name and '"' not in name and len(tree.xpath("//input[@name=$v]", v=name)) == 1:
        return f'input[name="{name}"]'
    return "xpath=" + tree.getpath(box)


def without_fragment(url: str) -> str:
    """`url` without its #fragment (a browser never sends it)."""
    parts = urlsplit(url)
    return urlunsplit((parts.scheme, parts.netloc, parts.path, parts.query, ""))
