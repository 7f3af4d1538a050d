"""What the User Proxy says when a site starts: the announcement, and the page it hands the Scraper itself —
a page whose scrape a stop interrupted (resume), or a new site's start page (`run.open_start_page`)."""

from __future__ import annotations

from research_crawler.run.trace import Trace
from research_crawler.tools.exploration import Exploration, ScrapeTarget
from research_crawler.tools.navigation import get_top_urls

__all__ = ["announce_site", "open_start_page", "resume_unfinished_scrape"]


def announce_site(x: Exploration, trace: Trace) -> str:
    """The User Proxy's message: the request, or the site now explored and how to begin there."""
    site = x.search.current_site
    if site is None:
        return f'Request: "{x.search.query}"'
    explore = x.settings.explore
    ceiling = x.findings.budget.ceiling(explore)
    earned = (
        f" (up to {ceiling} while its pages keep giving relevant {explore.item_kind}s)"
        if ceiling > explore.max_subpages
        else ""
    )
    intro = f"Now exploring {site.name} ({site.url}), at most {explore.max_subpages} subpages{earned}. "
    intro += f'Request: "{x.search.query}".'
    if x.search.request is not None:  # the contract, and the words for a search box (the topic, nothing else)
        intro += f'\nRead as: {x.request_summary()}. Search words: "{x.search.request.search_words}".'
        if x.search.request.has_dates():
            intro += " Prefer listings and searches sorted or filtered by date."
    kind = x.settings.explore.item_kind
    intro += (
        f"\nThe report lists up to {x.items_wanted} {kind}s: keep opening promising pages until that many relevant "
        f"{kind}s are collected here or nothing promising is left."
    )
    _fetch_next_start_page(x)
    if (unfinished := resume_unfinished_scrape(x, trace)) is not None:
        return f"{intro}\nReading {unfinished} again for the Scraper: a stop interrupted its scrape."
    if open_start_page(x):
        return f"{intro}\nOpening its start page {x.web.site_url} for the Scraper."
    if not x.settings.run.report_lists_top_urls:
        return f"{intro} Start with get_top_urls."
    listing = get_top_urls(x.web, x.settings.explore.top_k_urls, state=x.hint_state(), page_titles=x.graph.title)
    return f"{intro}\n\n{listing.message}"


def _fetch_next_start_page(x: Exploration) -> None:
    """The start page of the site after this one, fetched ahead while this one is explored (another host)."""
    if x.pages.fetch_ahead is not None and x.settings.fetch.fetch_ahead and x.search.pending_sites:
        following = x.search.pending_sites[0].site
        if following.url not in x.web_contexts:  # a site explored before starts where it stopped, not at its root
            x.pages.fetch_ahead(following.url, following)


def resume_unfinished_scrape(x: Exploration, trace: Trace) -> str | None:
    """The current site's page whose scrape a stop (a crash, a kill) interrupted, handed to the Scraper to be
    read again (from the run's page archive: no second request) before the Planner's next move; None
    when there is none."""
    if x.search.current_site is None or not (unfinished := x.web.unfinished_scrapes()):
        return None
    x.flow.planner_action, x.flow.scrape_target = "scrape", ScrapeTarget(unfinished[0])
    trace.emit("scrape_resumed", url=unfinished[0])
    return unfinished[0]


def open_start_page(x: Exploration) -> bool:
    """With run.open_start_page, take a new site's start page (its only pending URL) for the Scraper, as
    the Planner's scrape_url would; whether it did. A site already explored (follow-up, resume) is not.
    The start page stays pending until the Scraper starts reading it (`Exploration.start_scrape`)."""
    web = x.web
    if not x.settings.run.open_start_page or web.visited_count or x.subpages_left <= 0:
        return False
    if web.pending_count != 1 or not web.is_pending(web.site_url):
        return False
    x.flow.planner_action, x.flow.scrape_target = "scrape", ScrapeTarget(web.site_url)
    return True
