"""The few hits of the site's own search for the request's words, each opened as a person opens them.

A site search that says it found three results for the words typed has matched them on more than their titles (the
abstract, the full text, a field the results do not show): "Awake at Three: Wrist Actigraphy and Attention Lapses"
shares no word with "shift work and circadian disruption", yet the site's search found it for those words. A person
who sees so short a list opens each result rather than judging it by its title. So, after a search run for the
request (`search_site`) whose results page says it found few (`results_count`, at most `_FEW_HITS`), the links that
title its results are raised to `SEARCH_HIT_SCORE` with words that say so, and the Planner sees them near the top of
the pending pages.

Read from the page's structure, never from its words: a hit is a link of the page's own content (not its header,
navigation or footer), on the site, long enough to be a work's title, that no result names as one of its parts (a
result's PDF, its abstract) and that is no other view of the same search (its sort, its facets, its next page). At
most as many as the page says it found, in the page's order; a page visited already, or forbidden by robots.txt, is
left as it is. A search that found many is a ranked list judged link by link, as any listing is.
"""

from __future__ import annotations

from collections.abc import Set
from urllib.parse import urlsplit

from research_crawler.context.urls import is_same_site, try_canonicalize_url
from research_crawler.pages.page import Page
from research_crawler.tools.broader_search import results_count
from research_crawler.tools.exploration import Exploration

__all__ = ["SEARCH_HIT_SCORE", "offer_search_hits"]

#: Where a hit of a short results list stands among the Crawler's scores (0-10): with the links judged on the topic.
SEARCH_HIT_SCORE = 6.5
#: A results page that says it found this many or fewer is a list a person reads whole.
_FEW_HITS = 5
#: A link's text this long reads as a work's title ("Date", "Relevance", "Next 25 ›" do not).
_TITLE_WORDS = 3
_TITLE_CHARS = 60


def offer_search_hits(x: Exploration, page: Page, query: str, *, menu: Set[str]) -> int:
    """Raise the hits of the results `page` of the site search for `query` (the rule of the module docstring), where
    `menu` holds the URLs of the page's header, navigation and footer; how many changed the queue."""
    count = results_count(page.markdown)
    if count is None or not 1 <= count <= _FEW_HITS:
        return 0
    parts = {link.id for link in page.links if link.result_title is not None}
    search_path = urlsplit(page.final_url).path
    hits: list[tuple[str, str]] = []
    for link in page.links:
        if len(hits) >= count:
            break
        url = try_canonicalize_url(link.url)
        if url is None or url in menu or url == page.final_url or link.id in parts or link.names_entry:
            continue
        if not link.same_site or not is_same_site(url, x.web.site_url) or urlsplit(url).path == search_path:
            continue  # another view of the same search: its sort, a facet, its next page
        if len(link.text.split()) < _TITLE_WORDS or any(url == seen for seen, _ in hits):
            continue
        if x.pages.robots_refusal is not None and x.pages.robots_refusal(url) is not None:
            continue
        hits.append((url, " ".join(link.text.split())))
    raised = 0
    for url, text in hits:
        shown = text[:_TITLE_CHARS] + ("…" if len(text) > _TITLE_CHARS else "")
        anchor = f"{shown} — one of the {count} result(s) of the site's search for “{query.strip()}”"
        with x.lock:
            if x.web.is_visited(url) or not x.web.promote_url(
                url, SEARCH_HIT_SCORE, anchor_text=anchor, found_on=page.final_url
            ):
                continue
            x.graph.add_link(page.final_url, url, anchor_text=anchor, score=SEARCH_HIT_SCORE)
        x.trace.emit("offered", kind="search_hit", url=url, found_on=page.final_url)
        raised += 1
    return raised
