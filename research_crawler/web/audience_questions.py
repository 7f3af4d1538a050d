"""Audience questions: a page that asks who the visitor is before it shows anything ("Are you a healthcare
professional?", "Please tell us who you are": a researcher, a clinician, a member of the public), as many medical and
scientific publishers do, and the answer a careful researcher gives to go on.

It is an interstitial like a cookie notice (`interstitials.py` recognises a small page that is nothing else, and
passes it the same way): the page asks the question in its title, a heading or its few lines of text, and offers its
answers as buttons, radio buttons, a drop-down list or links — two at least, or one that is not a member of the
public's. The answer chosen is the researcher's (the one thing the tool's user is), else a neutral one that declares
nothing ("other", "continue"), else a member of the public's or a "no", which is true of a researcher who is nothing
more. The tool never declares on its user's behalf what it cannot know: a professional's answer ("I am a healthcare
professional", a "yes" or "I confirm" to such a question), a student's, an investor's is never given — a page that
offers only those is not passed, like a sign-in. A choice that signs in, registers, subscribes or pays is never one,
and a form with a password field is a sign-in, never a question.
"""

from __future__ import annotations

import re
from urllib.parse import urljoin

import lxml.html

from research_crawler.pages.html_forms import (
    FormSubmission,
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

__all__ = [
    "AUDIENCE_LITERALS",
    "CHOSEN",
    "NEVER_GIVEN",
    "ONLY_DECLARATIONS",
    "answer_rank",
    "asks_who_the_visitor_is",
    "audience_answers",
]

#: Cheap first look in the lower-cased HTML: a page without any of these asks no audience question.
AUDIENCE_LITERALS = ("who are you", "are you a", "tell us", "your role", "your profession", "professionals only")
_QUESTION = re.compile(
    r"\bwho are you\b"
    r"|\bare you an?\s+(?:[\w-]+\s+){0,3}?(?:professional|practitioner|clinician|physician|doctor|nurse|pharmacist"
    r"|researcher|scientist|investor|patient|member of the public)\b"
    r"|\b(?:tell us|confirm|select|choose|declare|indicate|let us know|identify)\s+(?:[\w-]+\s+){0,3}?"
    r"(?:who you are|your (?:role|profession|occupation|audience|user type|profile)|(?:that )?you are an?\s)"
    r"|\bfor (?:healthcare|health care|health|medical) professionals only\b",
    re.IGNORECASE,
)
_NEVER = re.compile(
    r"\b(?:sign[\s-]?(?:in|up|on)|log[\s-]?(?:in|on)|register|subscribe|subscription|buy|purchase|pay|password)\b",
    re.IGNORECASE,
)
_DENIAL = re.compile(r"\b(?:no|not|none of (?:these|the above))\b", re.IGNORECASE)
_RESEARCHER = re.compile(r"\b(?:researchers?|scientists?|academics?|scholars?|research(?:ing)?)\b", re.IGNORECASE)
_PROFESSIONAL = re.compile(
    r"\b(?:professionals?|practitioners?|clinicians?|physicians?|doctors?|nurses?|pharmacists?|hcps?)\b", re.IGNORECASE
)
_LAY = re.compile(r"\b(?:(?:general )?public|consumers?|lay(?:person|people)?)\b", re.IGNORECASE)
#: A declaration the tool cannot make for its user (a profession, a status, an affirmation of either).
_DECLARATION = re.compile(
    r"\b(?:students?|investors?|patients?|carers?|caregivers?|yes|confirm|certify|declare|i am|i'm)\b", re.IGNORECASE
)
_NEUTRAL = re.compile(r"\b(?:others?|continue|proceed|enter|skip)\b", re.IGNORECASE)
#: What the answer of each rank says, in fixed words (never the page's own).
CHOSEN = {
    0: "answered it as a researcher",
    1: "gave its answer that declares nothing (it offered no researcher's answer)",
    2: "answered it as a member of the public (it offered no researcher's answer, and a professional's is never given)",
}
#: The rank of an answer offered that the tool never gives: it would declare for its user what it cannot know.
NEVER_GIVEN = 3
#: Why a page that offers only such answers is not passed (fixed words).
ONLY_DECLARATIONS = (
    "that offers only answers declaring a profession or status, which research-crawler never gives for you"
)
_FRAMES = frozenset({"nav", "header", "footer", "aside"})


def asks_who_the_visitor_is(tree: lxml.html.HtmlElement, main_text: str) -> bool:
    """Whether the page (its `main_text`: the visible text outside its frames) asks who its visitor is and offers
    answers to it: two at least, or one that is not a member of the public's. How small the page must be to be
    nothing but the question is `interstitials.py`'s to say."""
    if any(input_type(c) == "password" for c in tree.iter("input")):
        return False  # a sign-in form: a login wall, never passed
    headings = " ".join(_text(e) for e in tree.xpath("//title | //h1 | //h2 | //legend"))
    if not (_QUESTION.search(headings) or _QUESTION.search(main_text)):
        return False
    ranks = [rank for rank, _ in audience_answers(tree, base="")]
    return len(ranks) >= 2 or (len(ranks) == 1 and ranks[0] != 2)


def answer_rank(label: str) -> int | None:
    """0 a researcher's answer, 1 a neutral one that declares nothing, 2 a member of the public's or a no,
    `NEVER_GIVEN` one that declares a profession or status (offered, never given); None for what is no answer (or a
    sign-in, a purchase)."""
    if not label or _NEVER.search(label):
        return None
    if _RESEARCHER.search(label):
        return 0
    if _DENIAL.search(label) or _LAY.search(label):
        return 2
    if _PROFESSIONAL.search(label) or _DECLARATION.search(label):
        return NEVER_GIVEN
    return 1 if _NEUTRAL.search(label) else None


def audience_answers(tree: lxml.html.HtmlElement, *, base: str) -> list[tuple[int, FormSubmission | None]]:
    """Every answer the page offers, with its rank (`answer_rank`) and the request that sends it as a browser would
    (None for a form that only a script or a dialog handles): buttons, radio buttons and drop-down options of its
    forms (a form with a password field is none), then links outside its frames."""
    found: list[tuple[int, FormSubmission | None]] = []
    labels = control_labels(tree)
    for form, controls in controls_by_form(tree).items():
        if any(input_type(c) == "password" for c in controls):
            continue
        submits = [c for c in controls if is_submit(c) and not is_disabled(c)]
        choices = _choices(controls, labels)
        for control in submits if not choices else []:  # a form of choices: its button only sends the one chosen
            rank = answer_rank(_label(control, labels))
            if rank is not None:
                found.append((rank, _submission(form, controls, control, {}, base=base)))
        senders = [c for c in submits if not _NEVER.search(_label(c, labels))]
        if not senders:
            continue
        for name, value, label in choices:  # sent by the form's button ("Continue")
            rank = answer_rank(label)
            if rank is not None:
                found.append((rank, _submission(form, controls, senders[0], {name: value}, base=base)))
    for link in tree.iter("a"):
        href = (link.get("href") or "").strip()
        if not href or href.startswith(("#", "javascript:", "mailto:", "tel:")) or _in_frame(link):
            continue
        rank = answer_rank(_text(link))
        if rank is not None:
            found.append((rank, FormSubmission("GET", without_fragment(urljoin(base, href)))))
    return found


def _submission(
    form: lxml.html.HtmlElement,
    controls: list[lxml.html.HtmlElement],
    submitter: lxml.html.HtmlElement,
    values: dict[str, str],
    *,
    base: str,
) -> FormSubmission | None:
    method = form_method(form, submitter)
    if method == "dialog":
        return None
    _, action = form_target(form, submitter, base=base)
    fields = tuple((name, value or "") for name, value in form_data(controls, submitter=submitter) if name)
    submission = FormSubmission("POST" if method == "post" else "GET", without_fragment(action), fields)
    return submission.with_values(values) if values else submission


def _choices(
    controls: list[lxml.html.HtmlElement], labels: dict[lxml.html.HtmlElement, str]
) -> list[tuple[str, str, str]]:
    """(field name, value, what a person reads) of each radio button and drop-down option of a form."""
    found: list[tuple[str, str, str]] = []
    for control in controls:
        name = control.get("name")
        if not name or is_disabled(control):
            continue
        if input_type(control) == "radio":
            value = control.get("value", "on")
            found.append((name, value, labels.get(control) or _text(control.tail or "") or value))
        elif control.tag == "select":
            for option in control.iter("option"):
                if option.get("disabled") is None:
                    text = _text(option)
                    found.append((name, option.get("value") if option.get("value") is not None else text, text))
    return found


def _label(control: lxml.html.HtmlElement, labels: dict[lxml.html.HtmlElement, str]) -> str:
    parts = [control.get("value", "") if control.tag == "input" else control.text_content()]
    parts += [labels.get(control, ""), control.get("aria-label", ""), control.get("title", "")]
    return " ".join(" ".join(parts).split())[:200]


def _in_frame(element: lxml.html.HtmlElement) -> bool:
    return any(isinstance(a.tag, str) and a.tag.lower() in _FRAMES for a in element.iterancestors())


def _text(element: lxml.html.HtmlElement | str) -> str:
    text = element if isinstance(element, str) else element.text_content()
    return " ".join(str(text).split())[:200]
