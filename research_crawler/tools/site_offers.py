"""Pages a site offers beside its links: the Atom and RSS feeds a page names (``<link rel="alternate">``) and the
sitemaps its robots.txt names. Each is queued in C like a link, with words that say what it is, so the Planner sees
it among the pending pages and may open it like any other; a feed, the site's newest entries newest first, is the
natural source for "the most recent", and goes near the top when the request asks for the newest or for dates.

Bounded: a few of each per site, on the site only; a sitemap is a page of its own, fetched only if chosen, and read
from its first part (`pages/sitemaps.py`): never a reason to fetch a whole sitemap.
"""

from __future__ import annotations

from research_crawler.context.urls import is_same_site, try_canonicalize_url
from research_crawler.pages.feeds import feed_links
from research_crawler.pages.page import Page
from research_crawler.tools.exploration import Exploration

__all__ = ["offer_feeds", "offer_sitemaps"]

#: Where an offered page stands among the Crawler's scores (0-10): a feed near the top for the newest, else in the
#: middle; a sitemap, a list of every page, below the promising links.
FEED_SCORE_NEWEST = 9.0
FEED_SCORE = 5.0
SITEMAP_SCORE = 3.0
_MAX_PER_PAGE = 2
_MAX_SITEMAPS = 3


def offer_feeds(x: Exploration, page: Page) -> int:
    """Queue the feeds `page` names on the current site; how many were new."""
    if not page.html or "alternate" not in page.html:
        return 0
    request = x.search.request
    newest = request is not None and (request.order == "newest" or request.has_dates())
    offered = 0
    for feed in feed_links(page.html, url=page.final_url)[:_MAX_PER_PAGE]:
        label = f"{feed.format} feed" + (f" '{feed.title}'" if feed.title else "")
        anchor = f"{label}: the site's newest entries, newest first"
        offered += _offer(x, feed.url, FEED_SCORE_NEWEST if newest else FEED_SCORE, anchor, page, kind="feed")
    return offered


def offer_sitemaps(x: Exploration, page: Page) -> int:
    """Queue the sitemaps the robots.txt of `page`'s site names (on the site only); how many were new."""
    if x.pages.robots_sitemaps is None:
        return 0
    offered = 0
    for url in x.pages.robots_sitemaps(page.final_url)[:_MAX_SITEMAPS]:
        anchor = "sitemap named by robots.txt: the site's pages with their last change, newest first"
        offered += _offer(x, url, SITEMAP_SCORE, anchor, page, kind="sitemap")
    return offered


def _offer(x: Exploration, url: str, score: float, anchor: str, page: Page, *, kind: str) -> int:
    canonical = try_canonicalize_url(url)
    if canonical is None or not is_same_site(canonical, x.web.site_url):
        return 0
    with x.lock:
        if not x.web.add_url(canonical, score, anchor_text=anchor, found_on=page.final_url):
            return 0
        x.graph.add_link(page.final_url, canonical, anchor_text=anchor, score=score)
    x.trace.emit("offered", kind=kind, url=canonical, found_on=page.final_url)
    return 1
