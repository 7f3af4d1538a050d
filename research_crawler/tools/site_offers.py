"""Pages a site offers beside its links: the Atom and RSS feeds a page names (``<link rel="alternate">``) and the
sitemaps its robots.txt names. Each is queued in C like a link, with words that say what it is, so the Planner sees
it among the pending pages and may open it like any other; a feed, the site's newest entries newest first, is the
natural source for "the most recent", and goes near the top when the request asks for the newest or for dates.

Bounded: a few of each per site, on the site only; a sitemap is a page of its own, fetched only if chosen, and read
from its first part (`pages/sitemaps.py`): never a reason to fetch a whole sitemap.

An archive browsed by date (a journal's volumes and issues, a conference's editions, a calendar of years) is read
toward the dates the request names: the links whose own words name a year the request asks for ("JCCS 2024", "Volume
13 (2024)", "Issue 4" beside "October–December 2024"), or, for the newest, the latest year the page lists, are raised
to the same place and say so — a site whose search cannot be used is still browsed to the year or issue asked for.
For the newest (no dates named), so are the links that lead to the site's newest works whatever year they name or
none: its current issue, its latest additions, a listing's sort by date newest first (`pages/newest_links.py`) —
where a person asked for "the most recent" looks first on a site never seen.
A link that takes a year off the filters of the page it is on (the "remove" or "×" beside an active year facet)
leads away from that year, whatever the words beside it name, and is not raised for it.

Asked for one author's works, a person scans a listing for that name: the entries whose byline, under the title or
before it in a reference, names an author the request names (`pages/entry_bylines.py`, `person_names.same_person`)
are raised the same way, so that their pages are read even where the titles share no word with the topic.

A listing paged by number (``?page=N``, "Next ›") is read on as a person pages through it: the next page of a
listing that gave items, or of any listing on a site with no search to use, is raised to the middle of the
Crawler's scale and named for what it is ("the next page of …"), one page at a time, within the site's budget.
"""

from __future__ import annotations

import re

from research_crawler.context.pagination import next_listing_page, removed_values
from research_crawler.context.urls import is_same_site, shown_on_site, try_canonicalize_url
from research_crawler.pages.entry_bylines import entry_people
from research_crawler.pages.feeds import feed_links
from research_crawler.pages.load_more_address import load_more_address
from research_crawler.pages.newest_links import leads_to_newest
from research_crawler.pages.page import Link, Page
from research_crawler.pages.person_names import same_person
from research_crawler.tools.exploration import Exploration
from research_crawler.tools.navigation import entry_anchor, lists_nothing_new

__all__ = [
    "offer_author_entries",
    "offer_dated_links",
    "offer_feeds",
    "offer_next_page",
    "offer_page",
    "offer_sitemaps",
    "shows_more_of_a_listing",
]

#: Where an offered page stands among the Crawler's scores (0-10): a feed near the top for the newest, else in the
#: middle; a sitemap, a list of every page, below the promising links.
FEED_SCORE_NEWEST = 9.0
FEED_SCORE = 5.0
SITEMAP_SCORE = 3.0
#: The next page of a listing being read: as promising as a feed, below the links judged likely to hold items.
NEXT_PAGE_SCORE = 5.0
#: A link naming the year asked for, or the newest year an archive lists: above the next page of a listing.
DATED_SCORE = 6.0
#: How far below the one before it each further link a page raises for its year is queued: C lists them in the
#: page's order (a list of papers newest first, an archive's issues), not in the order they were first seen.
_PAGE_ORDER_STEP = 0.01
_MAX_DATED = 4
#: An index's name is short ("Issue 4", "JCCS 2024", "Volume 13 (2024)"); an item's title is longer.
_INDEX_WORDS = 3
_YEAR = re.compile(r"(?<!\d)((?:19|20)\d\d)(?!\d)")
_MONTH = r"(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?"
#: A day beside a link ("Last modified: 2 October 2026", "Oct 5, 2025", "2025-10-05", "05/10/2025") dates a page or a
#: post, not an index: the year in it is not one the link names.
_DAY = re.compile(
    rf"\b(?:\d{{1,2}}\s+{_MONTH}\s+(?:19|20)\d\d|{_MONTH}\s+\d{{1,2}},?\s+(?:19|20)\d\d|(?:19|20)\d\d-\d\d-\d\d|"
    r"\d{1,2}[/.]\d{1,2}[/.](?:19|20)\d\d)\b",
    re.IGNORECASE,
)
_TITLE_CHARS = 60
_MAX_PER_PAGE = 2
_MAX_SITEMAPS = 3


def _forbidden(x: Exploration, url: str) -> bool:
    """Whether the site's robots.txt forbids `url`: such a page is never offered, whatever its words name (a "Login"
    beside the year asked for), as no link robots.txt forbids is queued."""
    return x.pages.robots_refusal is not None and x.pages.robots_refusal(url) is not None


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
        offered += offer_page(x, feed.url, FEED_SCORE_NEWEST if newest else FEED_SCORE, anchor, page, kind="feed")
    return offered


def offer_sitemaps(x: Exploration, page: Page) -> int:
    """Queue the sitemaps the robots.txt of `page`'s site names (on the site only); how many were new."""
    if x.pages.robots_sitemaps is None:
        return 0
    offered = 0
    for url in x.pages.robots_sitemaps(page.final_url)[:_MAX_SITEMAPS]:
        anchor = "sitemap named by robots.txt: the site's pages with their last change, newest first"
        offered += offer_page(x, url, SITEMAP_SCORE, anchor, page, kind="sitemap")
    return offered


def offer_page(x: Exploration, url: str, score: float, anchor: str, page: Page, *, kind: str) -> int:
    """Queue `url`, found on `page`, as a pending page of the current site named `anchor` (1), unless it is off the
    site, forbidden by robots.txt or discovered before (0); the trace says what `kind` of page was offered."""
    canonical = try_canonicalize_url(url)
    if canonical is None or not is_same_site(canonical, x.web.site_url) or _forbidden(x, canonical):
        return 0
    with x.lock:
        if not x.web.add_url(canonical, score, anchor_text=anchor, found_on=page.final_url):
            return 0
        x.graph.add_link(page.final_url, canonical, anchor_text=anchor, score=score)
    x.trace.emit("offered", kind=kind, url=canonical, found_on=page.final_url)
    return 1


def offer_next_page(x: Exploration, page: Page, *, new_items: int) -> bool:
    """Raise the next page of the listing `page` shows (its pager's "next" link, else the nearest numbered page
    after it) to `NEXT_PAGE_SCORE` with words that say what it is, when the listing gave `new_items` or the site
    has no search form to use instead; whether the queue changed. A page visited already is left as it is."""
    if not new_items and x.findings.can_search(x.site.url):
        return False
    link = _next_part(x, page)
    if link is None:
        return False
    title = " ".join((page.title or shown_on_site(page.final_url, x.web.site_url)).split())
    title = title[:_TITLE_CHARS] + ("…" if len(title) > _TITLE_CHARS else "")
    shown = " ".join(link.text.split())[:40]
    anchor = f"{'page ' if shown.isdigit() else ''}{shown} — the next page of the listing “{title}”"
    with x.lock:
        if x.web.is_visited(link.url) or not x.web.promote_url(
            link.url, NEXT_PAGE_SCORE, anchor_text=anchor, found_on=page.final_url
        ):
            return False
        x.graph.add_link(page.final_url, link.url, anchor_text=anchor, score=NEXT_PAGE_SCORE)
    x.trace.emit("offered", kind="next_page", url=link.url, found_on=page.final_url)
    return True


def shows_more_of_a_listing(x: Exploration, page: Page) -> bool:
    """Whether `page` is a listing whose next page (or next part, "Load more") is one the site allows and has not
    been read yet: one `offer_next_page` may queue."""
    link = _next_part(x, page)
    if link is None:
        return False
    with x.lock:
        return not x.web.is_visited(link.url)


def _next_part(x: Exploration, page: Page) -> Link | None:
    """The link to the next page of the listing `page` shows (its pager's, else its "load more" control's), None when
    it shows none or the site's robots.txt forbids it."""
    same_site = [link for link in page.links if link.same_site and is_same_site(link.url, x.web.site_url)]
    link = next_listing_page(page.final_url, same_site) or _load_more_link(page)
    if link is None or _forbidden(x, link.url):
        return None
    return link


#: The note a browser's presses leave in a page's reason ("… in the browser: 33 → 57 links (…)").
_PRESSED = re.compile(r"in the browser: (\d+) → (\d+) links")


def _load_more_link(page: Page) -> Link | None:
    """The next part of the page's list that its "load more" control names (`load_more_address`), as a link "Load
    more", when the browser's presses, if any, added no link to the page (its script loaded nothing)."""
    pressed = _PRESSED.search(page.reason or "")
    if pressed is not None and int(pressed.group(2)) > int(pressed.group(1)):
        return None  # the list grew in the browser: what the control loads is on the page already
    address = load_more_address(page.html, page.final_url)
    canonical = try_canonicalize_url(address) if address is not None else None
    if canonical is None or canonical == page.final_url:
        return None
    return Link(id=max((link.id for link in page.links), default=0) + 1, url=canonical, text="Load more",
                same_site=True)  # fmt: skip


def offer_dated_links(x: Exploration, page: Page) -> int:
    """Raise the links of `page` that name a year the request asks for (its dates), or for the newest items the latest
    year the page lists (a page naming two years or more: an archive), to `DATED_SCORE` with words that say so; how
    many changed the queue. A link counts when its own short text ("JCCS 2024", "Issue 4") or, for a text of an
    index's length, the words beside it ("October–December 2024") name the year; an item's title does not, nor a
    day beside the link ("Last modified: 2 October 2026"). A citation's first link ("[Abstract]" after "Novak, S.
    … 2024.") names the one year of its citation: the work's, not yet collected. At most `_MAX_DATED` a page,
    queued in the page's order; pages visited already are left as they are, and a link robots.txt forbids is never
    raised. For the newest (no dates named), the links that lead to the site's newest works (`leads_to_newest`:
    "Current issue", "Latest articles", "Sort by date") are raised the same way, after those naming a year."""
    request = x.search.request
    if request is None:
        return 0
    named: list[tuple[Link, int]] = []
    entry = ""
    narrowed = lists_nothing_new(page)  # a year facet of a result list shown whole lists none of that year's new
    for link in page.links:
        if not link.same_site or not is_same_site(link.url, x.web.site_url) or link.url == page.final_url:
            continue
        if narrowed(link.url):
            continue
        if link.names_entry:  # "[Abstract]" after a citation: the work's first link, dated by its citation's one year
            cited = {int(y) for y in _YEAR.findall(_DAY.sub(" ", link.context))}
            if link.context != entry and len(cited) == 1 and link.url not in x.web.collected:
                named.append((link, cited.pop()))
            entry = link.context
            continue
        years = [int(y) for y in _YEAR.findall(link.text)]
        if not years and len(link.text.split()) <= _INDEX_WORDS:
            years = [int(y) for y in _YEAR.findall(_DAY.sub(" ", link.context))]
        lifted = " ".join(removed_values(page.final_url, link.url))
        years = [year for year in years if str(year) not in lifted]  # "remove" beside the active year: away from it
        if years and len(link.text.split()) <= 2 * _INDEX_WORDS:
            named.append((link, max(years)))
    newest = request.date_from is None and request.date_to is None and (request.order == "newest" or request.recent)
    if request.date_from is not None or request.date_to is not None:
        low = request.date_from.year if request.date_from is not None else 0
        high = request.date_to.year if request.date_to is not None else 9999
        wanted, why = {year for _, year in named if low <= year <= high}, "the year the request asks for"
    elif newest:
        listed = {year for _, year in named}
        wanted, why = ({max(listed)} if len(listed) >= 2 else set()), "the newest year this page lists"
    else:
        return 0
    offers: list[tuple[Link, str, str]] = []  # a link, what it is called in C, the kind of offer the trace names
    for link, year in named:
        if year not in wanted:
            continue
        shown = " ".join(link.text.split())[:40]
        beside = " ".join(link.context.split())[:40] if str(year) not in link.text else ""
        named_as = entry_anchor(link) if link.names_entry else f"{shown}{f' ({beside})' if beside else ''}"
        offers.append((link, f"{named_as} — names {year}, {why}", "dated"))
    if newest:  # "Current issue", "Latest articles", "Sort by date": where a person asked for the newest looks
        offered_links = {link.url for link, _, _ in offers}
        for link in page.links:
            if (
                link.same_site
                and is_same_site(link.url, x.web.site_url)
                and link.url not in (page.final_url, *offered_links)
                and not narrowed(link.url)
                and leads_to_newest(link, on=page.final_url)
            ):
                offered_links.add(link.url)
                shown = " ".join(link.text.split())[:40]
                offers.append((link, f"{shown} — leads to the site's newest works, for the most recent", "newest"))
    offered = 0
    for link, anchor, kind in offers:
        if offered >= _MAX_DATED or _forbidden(x, link.url):
            continue
        score = DATED_SCORE - _PAGE_ORDER_STEP * offered  # raised links keep the page's order among themselves
        with x.lock:
            if x.web.is_visited(link.url) or not x.web.promote_url(
                link.url, score, anchor_text=anchor, found_on=page.final_url
            ):
                continue
            x.graph.add_link(page.final_url, link.url, anchor_text=anchor, score=score)
        x.trace.emit("offered", kind=kind, url=link.url, found_on=page.final_url)
        offered += 1
    return offered


def offer_author_entries(x: Exploration, page: Page) -> int:
    """Raise the links of `page` whose entry shows an author the request names in its byline (`entry_people`) to
    `DATED_SCORE`, with words that say so; how many changed the queue. Works stored already, pages visited, links off
    the site or forbidden by robots.txt are left as they are; at most `_MAX_DATED` a page, in the page's order."""
    request = x.search.request
    if request is None or not request.authors:
        return 0
    offered = 0
    for link in page.links:
        if offered >= _MAX_DATED:
            break
        if (
            not link.same_site
            or not is_same_site(link.url, x.web.site_url)
            or link.url == page.final_url
            or link.url in x.web.collected
            or _forbidden(x, link.url)
        ):
            continue
        shown = entry_people(page.markdown, link)
        named = next((person for person in shown if any(same_person(a, person) for a in request.authors)), None)
        if named is None:
            continue
        title = " ".join(link.text.split())[:_TITLE_CHARS]
        anchor = f"{title} — by {named}, an author the request names"
        score = DATED_SCORE - _PAGE_ORDER_STEP * offered
        with x.lock:
            if x.web.is_visited(link.url) or not x.web.promote_url(
                link.url, score, anchor_text=anchor, found_on=page.final_url
            ):
                continue
            x.graph.add_link(page.final_url, link.url, anchor_text=anchor, score=score)
        x.trace.emit("offered", kind="author_entry", url=link.url, found_on=page.final_url)
        offered += 1
    return offered
