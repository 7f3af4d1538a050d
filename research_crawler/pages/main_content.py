"""The main content of a page for the Item Collector: the page view without navigation, headers, footers,
sidebars, cookie banners and figure captions, its links still carrying the page's own numbers.

Boilerplate is removed in two passes over the tree whose anchors are already numbered: first the page's
own landmarks (HTML5 sectioning elements, ARIA roles, consent banners), then Crawl4AI's pruning filter
(`fetch.prune_boilerplate_html`) for the legacy layouts that mark nothing up. Removing never renumbers:
the numbers are given over the whole page first, and every number left in the view is checked against
the page's link table.
"""

from __future__ import annotations

import copy
import logging
import re
from collections.abc import Callable
from typing import Any

import lxml.html

# The sentinel that opens a link number while the tree is rewritten (page_links keeps it private because
# nothing outside the page view should see it; pruning must, to show Crawl4AI which text is link text).
from research_crawler.pages.links import _OPEN as LINK_MARKER_OPEN
from research_crawler.pages.markdown import prune_boilerplate_html
from research_crawler.pages.page import Page
from research_crawler.pages.page_frame import is_landmark
from research_crawler.pages.view import DEFAULT_LINK_TEXT_CHARS, DEFAULT_MAX_LINKS, PageView, build_page_view

__all__ = ["frame_link_urls", "main_content_markdown", "prune_boilerplate"]

logger = logging.getLogger(__name__)

_LINK_NUMBER = re.compile(r"\[(\d+)\]")


def main_content_markdown(
    page: Page, *, max_links: int = DEFAULT_MAX_LINKS, max_link_text_chars: int = DEFAULT_LINK_TEXT_CHARS
) -> str:
    """The page's main content as Markdown, `[n]` numbers those of `page.links` (Collector's view).

    `max_links` and `max_link_text_chars` must be those the page was built with (the fetch settings').
    A page without HTML (failed, or not HTML) gives its Markdown unchanged. Should a number in the pruned
    view ever disagree with the page's link table, the whole-page Markdown is returned instead (logged):
    a view whose numbers point elsewhere would make the Collector store the wrong URLs.
    """
    if not page.ok or not page.html.strip():
        return page.markdown
    view = _pruned_view(page, prune_boilerplate, max_links=max_links, max_link_text_chars=max_link_text_chars)
    numbered = {link.id: link.url for link in view.links}
    for number in {int(found) for found in _LINK_NUMBER.findall(view.markdown)}:
        link = page.link(number)
        if link is None or numbered.get(number) != link.url:
            logger.warning(
                "main content of %s: link [%d] does not match the page's link table; showing the whole page",
                page.final_url,
                number,
            )
            return page.markdown
    return view.markdown


def frame_link_urls(
    page: Page, *, max_links: int = DEFAULT_MAX_LINKS, max_link_text_chars: int = DEFAULT_LINK_TEXT_CHARS
) -> frozenset[str]:
    """The URLs of `page`'s links that it shows only in its frame: the header, navigation, footer and sidebars its
    landmarks mark (the site's menu: "About", "Venue", "For authors"), never beside its own content. Empty for a page
    that marks no landmark, or is all frame. `max_links` and `max_link_text_chars` as for `main_content_markdown`."""
    if not page.ok or not page.html.strip() or not page.links:
        return frozenset()
    view = _pruned_view(page, _remove_landmarks, max_links=max_links, max_link_text_chars=max_link_text_chars)
    numbered = {link.id: link.url for link in view.links}
    shown = {int(found) for found in _LINK_NUMBER.findall(view.markdown)}
    if not any(character.isalnum() for character in view.markdown) or any(
        numbered.get(link.id) != link.url for link in page.links
    ):
        return frozenset()  # nothing but frame, or numbers that disagree with the page's: no link is told apart
    return frozenset(link.url for link in page.links if link.id not in shown)


def _pruned_view(page: Page, prune: Callable[[Any], None], *, max_links: int, max_link_text_chars: int) -> PageView:
    """`page`'s view with `prune` applied after its links are numbered (the numbers stay the page's)."""
    return build_page_view(
        page.html, url=page.final_url, max_links=max_links, max_link_text_chars=max_link_text_chars, prune=prune
    )


def prune_boilerplate(root: Any) -> None:
    """Remove boilerplate from a parsed page in place (landmarks, then Crawl4AI's pruning).

    Each pass is kept only if some text survives it: a page that is all "navigation" (a site map, a
    page wrapped in one landmark) is better shown whole than as nothing.
    """
    body = root.find("body")
    if body is None:
        body = root
    _keep_if_text_left(body, _remove_landmarks)
    _keep_if_text_left(body, _crawl4ai_pruning)


def _keep_if_text_left(body: Any, remove: Callable[[Any], None]) -> None:
    trial = copy.deepcopy(body)
    remove(trial)
    if not _has_words(trial):
        logger.info("pruning left no text on a page; that pass is not applied")
        return
    body[:] = list(trial)
    body.text = trial.text


def _has_words(element: Any) -> bool:
    return any(character.isalnum() for text in element.itertext() for character in text)


def _remove_landmarks(body: Any) -> None:
    doomed = [element for element in body.iter() if element is not body and is_landmark(element)]
    for element in doomed:
        if element.getparent() is not None:
            element.drop_tree()


def _crawl4ai_pruning(body: Any) -> None:
    # Numbered links are spans by now; Crawl4AI weighs link text by <a> elements, so show it them.
    for span in body.iter("span"):
        if (span.text or "").startswith(LINK_MARKER_OPEN):
            span.tag = "a"
    kept = prune_boilerplate_html(lxml.html.tostring(body, encoding="unicode", method="html"))
    parser = lxml.html.HTMLParser(encoding="utf-8", remove_comments=True)
    pruned = lxml.html.document_fromstring(f"<html><body>{kept}</body></html>".encode(), parser=parser).find("body")
    if pruned is None:  # pragma: no cover - lxml always builds the body it was given
        body[:] = []
        return
    for anchor in pruned.iter("a"):
        anchor.tag = "span"
    body[:] = list(pruned)
    body.text = pruned.text
