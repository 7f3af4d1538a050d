"""Consent interstitials: a page that only asks for consent — a cookie notice, "continue to site", a region or
language chooser, or who the visitor is ("Are you a healthcare professional?", `audience_questions.py`: answered as a
researcher would) — before it shows the page that was asked for, and the way through it a careful person takes.

A page is an interstitial when its title or main heading says so (cookies, consent, privacy choices, "choose your
region") or a consent container holds nearly all its text, and it offers next to nothing else: few words and few
links outside that notice. Article pages (``citation_title``) never are. The way through is the page's own: its
consent form submitted as a browser would (only the necessary cookies when it offers that choice, else its accept
button), or its continue / accept / region link followed — on the page's own site only, so a page cannot send the
crawler anywhere it would not go otherwise. A notice whose only way through is a script has none here.

The fetcher (`fetcher.py`) sends that request through the URL guard, robots.txt and the host's pace, keeps the cookie
it sets in the site's own jar (`cookie_jars.py`), and asks again for the page it wanted.
"""

from __future__ import annotations

import asyncio
import logging
import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, Literal
from urllib.parse import urljoin, urlsplit

import lxml.html

from research_crawler.context.urls import is_same_site
from research_crawler.pages.html_forms import (
    FormSubmission,
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
from research_crawler.pages.page import Determination, Page
from research_crawler.web.audience_questions import (
    AUDIENCE_LITERALS,
    CHOSEN,
    NEVER_GIVEN,
    ONLY_DECLARATIONS,
    asks_who_the_visitor_is,
    audience_answers,
)
from research_crawler.web.block_pages import main_text_words
from research_crawler.web.page_building import failed_page
from research_crawler.web.rendering import script_rendering_reason

__all__ = ["MAX_PASSES", "Interstitial", "describe_ways_through", "find_interstitial", "pass_interstitial"]

logger = logging.getLogger(__name__)

InterstitialKind = Literal["consent", "region", "audience"]

#: Cheap first look in the lower-cased HTML: a page without any of these words is no interstitial.
_LITERALS = (
    "cookie", "consent", "gdpr", "privacy", "continue", "region", "country", "language", "location", *AUDIENCE_LITERALS
)  # fmt: skip
_CONSENT_HEADING = re.compile(
    r"\b(?:cookies?|consent|gdpr|your privacy|privacy (?:settings|preferences|choices|options|notice|cent(?:er|re))"
    r"|data protection|tracking preferences)\b",
    re.IGNORECASE,
)
_REGION_HEADING = re.compile(
    r"\b(?:choose|select|pick|change|set)\s+(?:your\s+|a\s+|the\s+)?(?:country|region|location|language|site|edition)"
    r"|\bwhere are you\b|\b(?:country|region|language) (?:selection|selector|chooser)\b",
    re.IGNORECASE,
)
_CONSENT_CONTAINER = re.compile(
    r"(?:^|[\s_-])(?:cookies?|consent|gdpr|onetrust|cookiebot|cmp|privacy-?banner)(?:$|[\s_-])", re.IGNORECASE
)
#: Choices that let the least through ("Reject all", "Only necessary cookies", "Continue without accepting").
_MINIMAL = re.compile(
    r"\b(?:reject|decline|refuse|deny|disagree)\b|\b(?:necessary|essential|required|functional)\b"
    r"|\bcontinue without\b|\bwithout (?:accepting|cookies|agreeing)\b",
    re.IGNORECASE,
)
_ACCEPT = re.compile(
    r"\b(?:accept|agree|allow|consent|got it|ok(?:ay)?|i understand|understood|confirm|continue|proceed|enter"
    r"|go to (?:the )?(?:site|website|page)|take me to|yes|save)\b",
    re.IGNORECASE,
)
#: A heading that names a document about cookies or privacy, not a notice asking for a choice.
_POLICY_DOCUMENT = re.compile(r"\b(?:polic(?:y|ies)|statement|terms)\b", re.IGNORECASE)
#: Links that lead to a notice's settings or its policy, not through it.
_NOT_THROUGH = re.compile(
    r"\b(?:settings|preferences|manage|customi[sz]e|options|learn more|more info(?:rmation)?|read more|details"
    r"|polic(?:y|ies)|terms|imprint|contact)\b",
    re.IGNORECASE,
)
_PREFERRED_REGION = re.compile(
    r"^(?:international|global|worldwide|english|united states|usa|u\.s\.|united kingdom|uk|en)\b", re.IGNORECASE
)
#: A page with more words than this outside its notice, or more links, is a page with a notice, not a notice.
_MAX_OTHER_WORDS = 150
_MAX_OTHER_LINKS = 8
_MAX_PAGE_WORDS = 600
#: A consent container holding this share of the page's words (and little else around it) makes a notice page.
_CONTAINER_SHARE = 0.6
_MAX_WORDS_BESIDE_CONTAINER = 60
_ITEM_META = re.compile(r"<meta\b[^>]*\bname\s*=\s*[\"']?(?:citation_title|dc\.title)\b", re.DOTALL)
_INVISIBLE = frozenset({"script", "style", "noscript", "template", "svg", "head", "select", "option"})
_FRAMES = frozenset({"nav", "header", "footer", "aside"})


@dataclass(frozen=True, slots=True)
class Interstitial:
    """A page that asks for consent (or a region) before the page itself, and the request that passes it.

    `action` is None when the page offers no way through that works without a script, or none the tool takes (`how`
    then says why, else nothing). `how` says in fixed words (never the page's own) what passing it does.
    """

    kind: InterstitialKind
    action: FormSubmission | None
    how: str

    @property
    def described(self) -> str:
        """The page in a few fixed words ("a cookie consent page")."""
        return {"consent": "a cookie consent page", "region": "a region or language chooser"}.get(
            self.kind, "a page asking who the visitor is"
        )


def find_interstitial(html: str, *, url: str) -> Interstitial | None:
    """The interstitial `html` (at `url`) is, with its way through, or None for an ordinary page (never raises)."""
    if not isinstance(html, str) or not html:
        return None
    lowered = html.lower()
    if not any(literal in lowered for literal in _LITERALS) or _ITEM_META.search(lowered):
        return None
    tree = parse_html(html)
    if tree is None:
        return None
    kind = _kind(tree, html)
    if kind is None:
        return None
    base = base_url(tree, url)
    if kind == "audience":
        return Interstitial(kind, *_answer_through(tree, base=base, page_url=url))
    action, how = _form_through(tree, base=base, page_url=url)
    if action is None:
        action, how = _link_through(tree, kind, base=base, page_url=url)
    return Interstitial(kind, action, how)


# ---------------------------------------------------------------------------------------------- is it one?


def _kind(tree: lxml.html.HtmlElement, html: str) -> InterstitialKind | None:
    """'consent' or 'region' when the page is nothing but such a notice, 'audience' when it only asks who the visitor
    is (a cookie banner may sit beside the question), else None."""
    kind = _notice_kind(tree, html)
    if kind is None and _only_asks_who(tree, html):
        return "audience"
    return kind


def _notice_kind(tree: lxml.html.HtmlElement, html: str) -> InterstitialKind | None:
    """'consent' or 'region' when the page is nothing but such a notice, else None."""
    headings = [_text(e) for e in tree.xpath("//title | //h1 | //h2 | //legend | //*[@role='dialog']/@aria-label")]
    headings = [h for h in headings if h][:8]
    body = tree.find("body")
    scope = body if body is not None else tree
    said = any(_REGION_HEADING.search(h) or _CONSENT_HEADING.search(h) for h in headings)
    containers = _consent_containers(scope)
    if not said and not containers:
        return None  # nothing calls itself a notice: the page is what it is (most pages end here, parsed once)
    if _own_heading(scope, containers):
        return None  # the page shows its own heading beside the notice: a page with a banner on top, not a notice
    words = _visible_words(scope, skip_frames=False)
    if words > _MAX_PAGE_WORDS:
        return None
    other_words = main_text_words(html)  # outside frames and consent containers (the notice's own words)
    other_links = _other_links(scope)
    if other_words > _MAX_OTHER_WORDS or other_links > _MAX_OTHER_LINKS:
        return None
    if any(_REGION_HEADING.search(h) for h in headings):
        return "region"
    if any(_CONSENT_HEADING.search(h) for h in headings):
        return "consent"
    in_containers = sum(_visible_words(e, skip_frames=False) for e in containers)
    if words and in_containers / words >= _CONTAINER_SHARE and other_words <= _MAX_WORDS_BESIDE_CONTAINER:
        return "consent"
    return None


def _only_asks_who(tree: lxml.html.HtmlElement, html: str) -> bool:
    """Whether the page is nothing but a question about who its visitor is (`audience_questions.py`): as small as a
    notice (its own heading, "Welcome to …", is part of the question)."""
    lowered = html.lower()
    if not any(literal in lowered for literal in AUDIENCE_LITERALS):
        return False
    body = tree.find("body")
    scope = body if body is not None else tree
    if _visible_words(scope, skip_frames=False) > _MAX_PAGE_WORDS or _other_links(scope) > _MAX_OTHER_LINKS:
        return False
    return main_text_words(html) <= _MAX_OTHER_WORDS and asks_who_the_visitor_is(tree, _visible_text(scope, True))


def _own_heading(scope: lxml.html.HtmlElement, containers: list[lxml.html.HtmlElement]) -> bool:
    """Whether the page has a main heading of its own: an ``<h1>`` outside its frames and consent notices that
    speaks of neither consent nor a region (a short page, an empty listing or search, under a cookie banner), or
    names a policy (a privacy and cookie policy explains; it asks nothing)."""
    for heading in scope.iter("h1"):
        around = list(heading.iterancestors())
        if any(_is_frame(element) for element in around) or any(notice in around for notice in containers):
            continue
        text = _text(heading)
        notice = _CONSENT_HEADING.search(text) or _REGION_HEADING.search(text)
        if text and (not notice or _POLICY_DOCUMENT.search(text)):
            return True
    return False


def _consent_containers(scope: lxml.html.HtmlElement) -> list[lxml.html.HtmlElement]:
    """The outermost elements whose id or class names a consent notice."""
    found: list[lxml.html.HtmlElement] = []
    for element in scope.iter():
        if not isinstance(element.tag, str) or not _is_container(element):
            continue
        if not any(outer in element.iterancestors() for outer in found):
            found.append(element)
    return found


def _other_links(scope: lxml.html.HtmlElement) -> int:
    """Links outside frames and consent notices that lead somewhere (not a notice's way through or its policy)."""
    count = 0
    for link in scope.iter("a"):
        href = (link.get("href") or "").strip()
        if not href or href.startswith(("#", "javascript:", "mailto:")):
            continue
        if any(_is_frame(a) or _is_container(a) for a in link.iterancestors()):
            continue
        text = _text(link)
        if _NOT_THROUGH.search(text) or _ACCEPT.search(text) or _MINIMAL.search(text):
            continue
        count += 1
    return count


def _is_frame(element: Any) -> bool:
    return isinstance(element.tag, str) and element.tag.lower() in _FRAMES


def _is_container(element: Any) -> bool:
    return bool(_CONSENT_CONTAINER.search(f"{element.get('id') or ''} {element.get('class') or ''}"))


def _visible_words(element: lxml.html.HtmlElement, *, skip_frames: bool) -> int:
    return len(_visible_text(element, skip_frames).split())


def _visible_text(element: lxml.html.HtmlElement, skip_frames: bool) -> str:
    texts: list[str] = []
    stack: list[Any] = [element]
    while stack:  # iterative: a very deep DOM must not exhaust the recursion limit
        node = stack.pop()
        if not isinstance(node.tag, str) or node.tag.lower() in _INVISIBLE or (skip_frames and _is_frame(node)):
            if node is not element and node.tail:
                texts.append(node.tail)
            continue
        if node.text:
            texts.append(node.text)
        if node is not element and node.tail:
            texts.append(node.tail)
        stack.extend(reversed(node))
    return " ".join(texts)


def _text(element: Any) -> str:
    text = element if isinstance(element, str) else element.text_content()
    return " ".join(str(text).split())[:200]


# ---------------------------------------------------------------------------------------------- the way through


def _form_through(tree: lxml.html.HtmlElement, *, base: str, page_url: str) -> tuple[FormSubmission | None, str]:
    """The consent form's submission with its least-consenting button, else its accepting one."""
    best: tuple[int, FormSubmission, str] | None = None
    for form, controls in controls_by_form(tree).items():
        if any(input_type(c) == "password" for c in controls):
            continue  # a sign-in form is no consent
        for control in controls:
            if not is_submit(control) or is_disabled(control):
                continue
            label = _button_label(control)
            rank = 0 if _MINIMAL.search(label) else 1 if _ACCEPT.search(label) else None
            if rank is None:
                continue
            method = form_method(form, control)
            _, action = form_target(form, control, base=base)
            if method == "dialog" or not _on_site(action, page_url):
                continue
            fields = tuple((name, value or "") for name, value in form_data(controls, submitter=control) if name)
            submission = FormSubmission("POST" if method == "post" else "GET", without_fragment(action), fields)
            how = (
                "submitted its form choosing only the necessary cookies" if rank == 0 else "submitted its consent form"
            )
            if best is None or rank < best[0]:
                best = (rank, submission, how)
    return (best[1], best[2]) if best is not None else (None, "")


def _answer_through(tree: lxml.html.HtmlElement, *, base: str, page_url: str) -> tuple[FormSubmission | None, str]:
    """The answer a researcher gives to the page's audience question, on the page's own site (`audience_questions`)."""
    offered = [(rank, way) for rank, way in audience_answers(tree, base=base) if way is not None]
    answers = [
        (rank, way)
        for rank, way in offered
        if _on_site(way.action, page_url)
        and not (way.method == "GET" and _same_page(way.url, page_url))  # a link back to itself leads nowhere
    ]
    given = [(rank, way) for rank, way in answers if rank != NEVER_GIVEN]
    if not given:
        if answers:
            return None, ONLY_DECLARATIONS
        if any(not _on_site(way.action, page_url) for _, way in offered):
            return None, "whose answers lead to another site, where the crawler does not follow them"
        return None, ""
    rank, way = min(given, key=lambda answer: answer[0])
    return way, CHOSEN[rank]


def _link_through(
    tree: lxml.html.HtmlElement, kind: InterstitialKind, *, base: str, page_url: str
) -> tuple[FormSubmission | None, str]:
    """The link a person follows through the notice: the least-consenting, else a continue / accept link; on a
    region chooser the international or English choice, else its continue link."""
    ranked: list[tuple[int, int, str]] = []
    for order, link in enumerate(tree.iter("a")):
        href = (link.get("href") or "").strip()
        if not href or href.startswith(("#", "javascript:", "mailto:", "tel:")):
            continue
        target = urljoin(base, href)
        if not _on_site(target, page_url) or _same_page(target, page_url):
            continue
        text = _text(link) or " ".join(link.get(a, "") for a in ("title", "aria-label")).strip()
        if kind == "region" and _PREFERRED_REGION.search(text):
            rank = 0
        elif _NOT_THROUGH.search(text):
            continue
        elif _MINIMAL.search(text):
            rank = 1
        elif _ACCEPT.search(text):
            rank = 2
        else:
            continue
        ranked.append((rank, order, without_fragment(target)))
    if not ranked:
        return None, ""
    rank, _, target = min(ranked)
    how = {0: "chose its international or English site", 1: "followed its link that declines cookies"}.get(
        rank, "followed its continue link"
    )
    return FormSubmission("GET", target), how


def _button_label(control: lxml.html.HtmlElement) -> str:
    parts = [control.get("value", "") if control.tag == "input" else control.text_content()]
    parts += [control.get("aria-label", ""), control.get("title", ""), control.get("name", "")]
    return " ".join(" ".join(parts).split())[:200]


def _on_site(url: str, page_url: str) -> bool:
    if urlsplit(url).scheme.lower() not in ("http", "https"):
        return False
    return is_same_site(url, page_url) or is_same_site(page_url, url)


def _same_page(url: str, page_url: str) -> bool:
    return without_fragment(url) == without_fragment(page_url)


# ---------------------------------------------------------------------------------------------- passing one

#: Notices passed for one page at most (a region chooser, then a cookie notice).
MAX_PASSES = 2
#: Links on a page past which it cannot be a notice (a cheap look before parsing).
_MAX_ANCHORS = 200


async def pass_interstitial(
    page: Page,
    *,
    url: str,
    send: Callable[[FormSubmission], Awaitable[Page]],
    again: Callable[[], Awaitable[Page]],
    answer_is_page: bool = True,
) -> Page:
    """`page` (asked for as `url`), or — when it is a consent or region notice — the page behind it: the notice's
    way through sent (`send`), then the page asked for again (`again`) with the cookie that set; when the way through
    led back to `url` itself that answer is the page (unless not `answer_is_page`: a page read in the browser is
    rendered again). A notice that cannot be passed gives a ``blocked`` page that says why, unless it is a script
    shell the browser may still read."""
    wall = await _interstitial_of(page)
    if wall is None:
        return page
    passed: list[str] = []
    landed: Page | None = None  # where the way through led, when that is an ordinary page (a region's home)
    for _ in range(MAX_PASSES):
        if wall.action is None:
            if script_rendering_reason(page.html, page.markdown) is not None:
                return page  # a script shell: the browser may read it (render "auto")
            return _blocked(page, f"{wall.described} {wall.how or 'that offers no way through without a script'}")
        answer = await send(wall.action)
        if not answer.ok:
            detail = f"{answer.determination.value}" + (f": {answer.reason}" if answer.reason else "")
            return _blocked(page, f"{wall.described} whose way through failed ({wall.how}: {detail})")
        passed.append(wall.how)
        if await _interstitial_of(answer) is None:
            if answer.final_url == url and answer_is_page:
                return _passed(answer.model_copy(update={"url": url}), wall, passed)
            landed = answer
        page = await again()
        if not page.ok:
            return page
        wall_again = await _interstitial_of(page)
        if wall_again is None:
            return _passed(page, wall, passed)
        wall = wall_again
    if landed is not None:
        return _passed(landed, wall, passed)
    did = describe_ways_through(passed, "and")
    return _blocked(page, f"{wall.described} that was shown again after the crawler {did}")


async def _interstitial_of(page: Page) -> Interstitial | None:
    if not page.ok or not page.html or page.html.count("<a") > _MAX_ANCHORS:
        return None
    return await asyncio.to_thread(find_interstitial, page.html, url=page.final_url)


def describe_ways_through(passed: list[str], joiner: str) -> str:
    """The ways through taken, in order, one said once however often it was taken ("…, twice")."""
    runs: list[list[Any]] = []  # [how, times taken in a row]
    for how in passed:
        if runs and runs[-1][0] == how:
            runs[-1][1] += 1
        else:
            runs.append([how, 1])
    said = [how if times == 1 else f"{how}, {'twice' if times == 2 else f'{times} times'}" for how, times in runs]
    return f" {joiner} ".join(said)


def _passed(page: Page, wall: Interstitial, passed: list[str]) -> Page:
    did = describe_ways_through(passed, "and then")
    note = f"passed {wall.described} first (the crawler {did}; its cookie kept for this site)"
    logger.info("%s: %s", page.final_url, note)
    return page.model_copy(update={"reason": f"{page.reason}; {note}" if page.reason else note})


def _blocked(page: Page, why: str) -> Page:
    logger.info("%s is %s", page.final_url, why)
    return failed_page(
        url=page.url,
        final_url=page.final_url,
        determination=Determination.BLOCKED,
        reason=why,
        blocked_by="consent",
        status=page.status,
        render=page.render,
        content_type=page.content_type,
        attempts=page.attempts,
    )
