"""What is done in a browser tab before its HTML is read, as a person would do it.

Lists that a page loads by script: its "Load more" / "Show more" button pressed, or its endless list scrolled — bounded
in presses, links, size and time — so that the items it adds are read as part of that page. And a site search that
only the page's script sends (`type_search`): the words typed into its search box and Enter pressed.

`expansion_signal` tells from a page's HTML (fetched over plain HTTP) that it has such a list, so ``render = "auto"``
reads it in the browser. `expand` does the pressing in a rendered tab (Playwright): each press waits for the host's
turn (`pace`: the per-host delay holds between presses as between pages), the data requests it starts must be
allowed (`allowed`: robots.txt and the URL guard, as for any fetch), and it stops when the list stops growing, the
control is gone, or a bound is reached. A link with an address of its own ("Next page") is not pressed: it is a page,
which the Crawler may follow.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from research_crawler.config.fetch_settings import FetchSettings
from research_crawler.pages.html_tree import parse_html
from research_crawler.pages.load_more_address import LOAD_MORE_WORDS

__all__ = ["Expansion", "ExpansionBounds", "TypedSearch", "expand", "expansion_signal", "type_search"]

logger = logging.getLogger(__name__)

#: A bare "Show more": a list loader only right after a list of entries (it also unfolds abstracts and author lists).
SHOW_MORE = re.compile(r"^\W*(?:show|view|see)\s+more\W*$", re.IGNORECASE)
_FRAMES = frozenset({"nav", "header", "footer", "aside"})
_FRAME_ROLES = frozenset({"navigation", "banner", "contentinfo", "complementary"})
#: A list of entries: this many links with a title-like text (4 words or more) in one element before the control.
_MIN_ENTRIES = 3
_ENTRY_WORDS = 4
_JS_AFTER_A_LIST = """(control) => {
  let node = control;
  for (let level = 0; level < 3 && node; level++, node = node.parentElement) {
    let sibling = node.previousElementSibling;
    for (let step = 0; step < 2 && sibling; step++, sibling = sibling.previousElementSibling) {
      const entries = Array.from(sibling.querySelectorAll('a[href]'))
        .filter(a => (a.innerText || '').trim().split(/\\s+/).length >= %d);
      if (entries.length >= %d) return true;
    }
  }
  return false;
}""".replace("%d", str(_ENTRY_WORDS), 1).replace("%d", str(_MIN_ENTRIES), 1)
_JS_IN_A_FRAME = """(control) => control.closest(
  'nav, header, footer, aside, [role=navigation], [role=banner], [role=contentinfo], [role=complementary]') !== null"""
#: Markup of an endless list: a sentinel the page watches, or a container that says it loads as it scrolls.
_SCROLL_MARK = re.compile(r"(?:^|[\s_-])(?:infinite|endless|sentinel|scroll-?trigger|auto-?load)(?:$|[\s_-])", re.I)
_SCROLL_ATTRIBUTES = ("data-infinite-scroll", "data-infinite", "data-next-page", "data-autoload")
#: A cheap look at the lower-cased HTML before it is parsed: a page without any of these has no such list.
_HINTS = re.compile(
    r"(?:load|show|view|see|get|display)\s+(?:\d+\s+)?more|more\s+(?:results|articles|papers|entries|posts|records"
    r"|publications|stories|preprints)|mehr\s+laden|charger\s+plus|cargar\s+m[áa]s|infinite|endless|sentinel"
    r"|scroll-?trigger|auto-?load|data-next-page"
)
#: How long one press or scroll may take to add to the list before the list is taken as complete.
_GROWTH_WAIT_S = 3.0
_POLL_S = 0.1
#: After the list grew: how long it may take to settle, and how many unchanged polls make it settled.
_SETTLE_S = 1.0
_STILL_POLLS = 3
#: Text a list without links must gain to count as grown (about a paragraph).
_MIN_TEXT_GROWTH = 200
#: Text a page must gain or lose for a search shown in place to count ("No results" is enough).
_MIN_RESULTS_TEXT = 10

#: The page's size, its links, its text and whether an endless-list mark is in its DOM, in one evaluation.
_MEASURE = """() => ({
  html: document.documentElement.outerHTML.length,
  links: document.querySelectorAll('a[href]').length,
  text: (document.body ? document.body.innerText.length : 0),
  height: (document.body ? document.body.scrollHeight : 0),
})"""
_HAS_SCROLL_MARK = """([pattern, attrs]) => {
  const mark = new RegExp(pattern, 'i');
  return Array.from(document.querySelectorAll('[id],[class]')).some(
      el => mark.test(el.id || '') || mark.test(typeof el.className === 'string' ? el.className : ''))
    || attrs.some(a => document.querySelector('[' + a + ']') !== null);
}"""


@dataclass(frozen=True, slots=True)
class ExpansionBounds:
    """How far a list is loaded: presses (or scrolls), links on the page, the page's HTML size, seconds."""

    max_presses: int
    max_links: int
    max_html_chars: int
    max_s: float

    @classmethod
    def of(cls, settings: FetchSettings) -> ExpansionBounds | None:
        """The bounds the settings give (None: lists are never loaded further): the presses and seconds of
        fetch.load_more_*, the page's link cap, half its byte cap (the HTML must stay under it)."""
        if not settings.load_more_presses:
            return None
        return cls(
            settings.load_more_presses, settings.max_links_per_page, settings.max_page_bytes // 2, settings.load_more_s
        )


@dataclass(frozen=True, slots=True)
class Expansion:
    """What pressing and scrolling did to one page."""

    presses: int = 0
    scrolls: int = 0
    links_before: int = 0
    links_after: int = 0
    stopped: str = ""

    @property
    def note(self) -> str:
        """One line for the page's reason ('' when nothing was done)."""
        if not self.presses and not self.scrolls:
            return ""
        done = (
            f"pressed its 'load more' control {self.presses} time(s)"
            if self.presses
            else f"scrolled its endless list {self.scrolls} time(s)"
        )
        return f"{done} in the browser: {self.links_before} → {self.links_after} links ({self.stopped})"


def expansion_signal(html: str) -> str | None:
    """Why the page in `html` holds a list its script loads more of (in a few fixed words), or None."""
    if not isinstance(html, str) or not html:
        return None
    if _HINTS.search(html.lower()) is None:
        return None
    tree = parse_html(html)
    if tree is None:
        return None
    for element in tree.iter("button", "a", "input", "div", "span", "li"):
        if not isinstance(element.tag, str):
            continue
        if element.tag == "a" and _is_real_link(element.get("href")):
            continue  # "Next page" with an address: a page of its own, for the Crawler
        if element.tag in ("div", "span", "li") and element.get("role") != "button" and element.get("onclick") is None:
            continue
        label = element.get("value", "") if element.tag == "input" else element.text_content()
        label = " ".join(f"{label} {element.get('aria-label', '')}".split())
        if not label or len(label) >= 60 or _in_a_frame(element):
            continue
        if LOAD_MORE_WORDS.search(label) or (SHOW_MORE.search(label) and _after_a_list(element)):
            return "a 'load more' control"
    for element in tree.iter():
        if not isinstance(element.tag, str):
            continue
        if _SCROLL_MARK.search(f"{element.get('id') or ''} {element.get('class') or ''}") or any(
            element.get(a) is not None for a in _SCROLL_ATTRIBUTES
        ):
            return "an endless list (it loads more as it is scrolled)"
    return None


async def expand(
    page: Any,
    *,
    bounds: ExpansionBounds,
    pace: Callable[[], Awaitable[object]],
) -> Expansion:
    """Press the tab's "load more" control until the list is whole or a bound is reached; without one, scroll an
    endless list the same way. `page` is a Playwright page; `pace` waits for the host's turn before each press."""
    started = time.monotonic()
    first = await page.evaluate(_MEASURE)
    measure = first
    presses = scrolls = 0
    stopped = "nothing to load"
    for _ in range(bounds.max_presses):
        if (limit := _over(measure, bounds, started)) is not None:
            stopped = limit
            break
        control = await (_control_again(page, deadline=started + bounds.max_s) if presses else _control(page))
        if control is None and (presses or not await _has_scroll_mark(page)):
            stopped = "the list is whole" if presses else stopped
            break
        await pace()
        try:
            if control is not None:
                await control.click(timeout=_GROWTH_WAIT_S * 1000)
                presses += 1
            else:
                await page.evaluate("() => window.scrollTo(0, document.body.scrollHeight)")
                scrolls += 1
        except Exception as exc:  # the control went away or cannot be pressed: what loaded stays
            logger.debug("pressing 'load more' failed: %s", exc)
            stopped = "its control could not be pressed"
            break
        grown = await _grown(page, measure, deadline=started + bounds.max_s)
        if grown is None:
            stopped = "the list stopped growing"
            break
        measure = grown
    else:
        stopped = f"the bound of {bounds.max_presses} presses"
    return Expansion(presses, scrolls, first["links"], measure["links"], stopped)


@dataclass(frozen=True, slots=True)
class TypedSearch:
    """Words to type into a page's search box (found by `selector`, CSS or ``xpath=``) before pressing Enter."""

    selector: str
    words: str


async def type_search(
    page: Any, search: TypedSearch, *, pace: Callable[[], Awaitable[object]], timeout_s: float
) -> str | None:
    """Type the words into the tab's search box and press Enter, on the host's turn — or, when Enter does nothing,
    press the button beside the box, as a person would; wait for the page it leads to (or, when the script shows the
    results in place, for the page to change and settle). Returns None when that happened, else why not."""
    deadline = time.monotonic() + timeout_s
    box = page.locator(search.selector).first
    try:
        await box.fill(search.words, timeout=_GROWTH_WAIT_S * 1000)
    except Exception as exc:
        logger.debug("typing into %s failed: %s", search.selector, exc)
        return "its search box could not be typed into"
    button = box.locator(_BUTTON_BESIDE).first
    for press in (lambda: box.press("Enter"), lambda: button.click(timeout=_GROWTH_WAIT_S * 1000)):
        before, address = await page.evaluate(_MEASURE), page.url
        await pace()
        try:
            await press()
        except Exception as exc:  # no such button, or the page left while it was pressed (the search leaving)
            logger.debug("sending the search typed into %s: %s", search.selector, exc)
        if await _results_came(page, before, address, deadline=deadline):
            return None
        if not await button.count():
            break
    return "pressing Enter in its search box, or the button beside it, changed nothing"


#: The button nearest the box: in the box's closest ancestor that holds one.
_BUTTON_BESIDE = (
    "xpath=ancestor::*[.//button or .//input[@type='submit' or @type='button' or @type='image']][1]"
    "//*[self::button or self::input[@type='submit' or @type='button' or @type='image']]"
)


async def _results_came(page: Any, before: dict[str, int], address: str, *, deadline: float) -> bool:
    """Whether the tab went to another address (then loaded) or changed in place (then settled) in time."""
    end = min(deadline, time.monotonic() + 2 * _GROWTH_WAIT_S)
    while time.monotonic() < end:
        await asyncio.sleep(_POLL_S)
        if page.url != address:
            with contextlib.suppress(Exception):
                await page.wait_for_load_state("load", timeout=max(0.1, deadline - time.monotonic()) * 1000)
            with contextlib.suppress(Exception):
                await _settled(page, await page.evaluate(_MEASURE), deadline=deadline)
            return True
        try:
            now = await page.evaluate(_MEASURE)
        except Exception:  # a navigation is under way: the next poll sees its address
            continue
        if now["links"] != before["links"] or abs(now["text"] - before["text"]) >= _MIN_RESULTS_TEXT:
            await _settled(page, now, deadline=deadline)
            return True
    return False


async def _has_scroll_mark(page: Any) -> bool:
    return bool(await page.evaluate(_HAS_SCROLL_MARK, [_SCROLL_MARK.pattern, list(_SCROLL_ATTRIBUTES)]))


def _over(measure: dict[str, int], bounds: ExpansionBounds, started: float) -> str | None:
    if measure["links"] >= bounds.max_links:
        return f"the bound of {bounds.max_links} links"
    if measure["html"] >= bounds.max_html_chars:
        return "the bound on the page's size"
    if time.monotonic() - started >= bounds.max_s:
        return f"the bound of {bounds.max_s:g} s"
    return None


async def _control(page: Any) -> Any | None:
    """The first visible, enabled control of the tab that loads more of its list (not a link to another page; a bare
    "Show more" only right after a list of entries), or None."""
    for role in ("button", "link"):
        for pattern, needs_list in ((LOAD_MORE_WORDS, False), (SHOW_MORE, True)):
            candidates = page.get_by_role(role, name=pattern)
            for index in range(min(await candidates.count(), 5)):
                candidate = candidates.nth(index)
                try:
                    if not await candidate.is_visible() or not await candidate.is_enabled():
                        continue
                    if role == "link" and _is_real_link(await candidate.get_attribute("href")):
                        continue
                    if await candidate.evaluate(_JS_IN_A_FRAME):
                        continue
                    if needs_list and not await candidate.evaluate(_JS_AFTER_A_LIST):
                        continue
                except Exception:  # detached meanwhile
                    continue
                return candidate
    return None


async def _grown(page: Any, before: dict[str, int], *, deadline: float) -> dict[str, int] | None:
    """The tab's measure once its list grew and settled, or None when it did not grow in time. The list's entries
    are links, so growth is more links (a control relabelled "Loading…" is not); a list whose entries have none
    counts when its text grew by a paragraph or more by the end of the wait."""
    end = min(deadline, time.monotonic() + _GROWTH_WAIT_S)
    now = before
    while time.monotonic() < end:
        await asyncio.sleep(_POLL_S)
        try:
            now = await page.evaluate(_MEASURE)
        except Exception:  # a navigation meanwhile: stop where it is
            return None
        if now["links"] > before["links"]:
            return await _settled(page, now, deadline=deadline)
    return now if now["text"] >= before["text"] + _MIN_TEXT_GROWTH else None


async def _settled(page: Any, measure: dict[str, int], *, deadline: float) -> dict[str, int]:
    """The tab's measure once it stopped changing for a few polls (the rest of a batch landed)."""
    still = 0
    end = min(deadline, time.monotonic() + _SETTLE_S)
    while still < _STILL_POLLS and time.monotonic() < end:
        await asyncio.sleep(_POLL_S)
        try:
            now: dict[str, int] = await page.evaluate(_MEASURE)
        except Exception:
            return measure
        still = still + 1 if now == measure else 0
        measure = now
    return measure


async def _control_again(page: Any, *, deadline: float) -> Any | None:
    """The "load more" control after a press: it may be hidden or relabelled while the list loads."""
    end = min(deadline, time.monotonic() + _SETTLE_S)
    while True:
        control = await _control(page)
        if control is not None or time.monotonic() >= end:
            return control
        await asyncio.sleep(_POLL_S * 2)


def _in_a_frame(element: Any) -> bool:
    """Whether `element` sits in the page's frame (navigation, header, footer, sidebar): not its main list."""
    return any(
        isinstance(a.tag, str) and (a.tag in _FRAMES or (a.get("role") or "") in _FRAME_ROLES)
        for a in element.iterancestors()
    )


def _after_a_list(control: Any) -> bool:
    """Whether a list of entries (links with title-like texts) comes just before `control` (or its parents)."""
    node = control
    for _ in range(3):
        if node is None:
            return False
        sibling = node.getprevious()
        for _ in range(2):
            if sibling is None:
                break
            if isinstance(sibling.tag, str):
                entries = [
                    a for a in sibling.iter("a") if a.get("href") and len(a.text_content().split()) >= _ENTRY_WORDS
                ]
                if len(entries) >= _MIN_ENTRIES:
                    return True
            sibling = sibling.getprevious()
        node = node.getparent()
    return False


def _is_real_link(href: str | None) -> bool:
    """Whether an anchor's href leads to another address (not '#', 'javascript:' or nothing)."""
    value = (href or "").strip().lower()
    return bool(value) and not value.startswith(("#", "javascript:"))
