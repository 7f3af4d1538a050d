"""The Scraper nested chat (paper Fig. 3a): fetch the chosen page once, the Crawler scores its links, the
Item Collector stores its items chunk by chunk and writes the page report the Planner reads.

Both read the same copy of the page and neither needs the other's answer, so with ``run.scrape_concurrently``
their chats run at the same time (the Crawler's in a thread of its own): the page costs one model wait, not two.
Once the page is read, the best pending URLs are fetched ahead (``fetch.fetch_ahead``) while the Planner
thinks, so the page it chooses next is usually there already.

It is a reply function rather than AG2's static chat queue because each step's message depends on the
previous one (the page must be fetched before anyone reads it, and long pages have a variable number of
chunks). Every step still starts from a clean context, as the paper intends.
"""

from __future__ import annotations

import logging
import re
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import TypeVar

import autogen

from research_crawler.agents.ag2 import run_nested_chat
from research_crawler.context.urls import host_of, shown_on_site
from research_crawler.context.web_context import EMPTY_PAGES_FREE
from research_crawler.nested_chats.enough_check import check_before_enough
from research_crawler.nested_chats.judged_links import JudgedLinks
from research_crawler.nested_chats.site_navigation import SiteNavigation
from research_crawler.nested_chats.unchanged_pages import UnchangedPages
from research_crawler.pages.breadcrumbs import breadcrumb_trail
from research_crawler.pages.main_content import frame_link_urls, main_content_markdown
from research_crawler.pages.navigation_pages import finds_the_way_on, leads_still_open
from research_crawler.pages.page import Determination, Page
from research_crawler.pages.search_forms import find_search_mechanisms
from research_crawler.pages.view import PageView, link_view, split_into_chunks
from research_crawler.rank.link_prerank import top_links
from research_crawler.text.untrusted import untrusted_page
from research_crawler.tools import navigation
from research_crawler.tools.broader_search import offer_broader_search
from research_crawler.tools.collector_tools import CollectorTools
from research_crawler.tools.crawler_tools import CrawlerTools
from research_crawler.tools.exploration import Exploration
from research_crawler.tools.search_hits import offer_search_hits
from research_crawler.tools.site_budget import PageYield
from research_crawler.tools.site_offers import (
    offer_author_entries,
    offer_dated_links,
    offer_feeds,
    offer_next_page,
    offer_sitemaps,
    shows_more_of_a_listing,
)
from research_crawler.tools.site_search import (
    forbidden_by_robots,
    found_nothing,
    search_page_mechanisms,
    usable_mechanisms,
)
from research_crawler.web.url_guard import without_a_sites_allow_hint

__all__ = ["ScraperChat"]

logger = logging.getLogger(__name__)

_T = TypeVar("_T")

#: A view with no numbered link and fewer words than this holds no item to collect (an empty results page,
#: a form, a page whose content a script never rendered): the Collector is not asked to read it.
_MIN_COLLECTABLE_WORDS = 25
_NUMBERED_LINK = re.compile(r"\[\d+\]")
_WORD = re.compile(r"\w+")

#: Titles named in a page report the Collector did not write itself; the rest are counted. The Planner
#: keeps every report, so each title it reads is paid for again on every later turn of the site.
_TITLES_IN_REPORT = 5
#: Pages of a site that answered with a sign-in or a paywall after which the site is left (the start page: at once).
_WALLS_TO_LEAVE = 2


@dataclass
class ScraperChat:
    """Runs one scrape for the group chat's Scraper Proxy."""

    exploration: Exploration
    crawler: autogen.ConversableAgent
    crawler_executor: autogen.ConversableAgent
    crawler_tools: CrawlerTools
    collector: autogen.ConversableAgent
    collector_executor: autogen.ConversableAgent
    collector_tools: CollectorTools
    shown_links: dict[str, JudgedLinks] = field(default_factory=dict)
    """Site URL → the link URLs already shown to the Crawler there (repeated navigation is shown once; a link shown
    only in a menu is shown again where a page lists it among its own links)."""
    ranked_out_links: dict[str, JudgedLinks] = field(default_factory=dict)
    """Site URL → the link URLs left out there by the pre-ranking (page_view.crawler_top_links), not shown again (one
    left out of a menu is ranked again where a page lists it among its own links)."""
    search_pages_tried: set[str] = field(default_factory=set)
    """The search pages links named (`pages/search_links.py`) already read for their forms, each once per run."""
    where: str = ""
    """Where the page being read sits in its site (its breadcrumbs, or the pages that led to it), one line."""
    site_navigation: SiteNavigation = field(default_factory=SiteNavigation)
    """The links repeated on every page read of each site: its navigation, left out of the Collector's view."""

    def run(self) -> str:
        """Scrape the Planner's target and return the page report."""
        x = self.exploration
        target = x.flow.scrape_target
        if target is None:
            return "The Scraper had no page to read: the Planner must choose a URL with scrape_url."
        x.start_scrape(target)
        page = x.pages.fetch_page(target.url, x.site, form=target.form)
        x.graph.add_page(page.final_url, determination=page.determination.value, title=page.title)
        if page.final_url != target.url:
            x.graph.add_page(target.url, determination=page.determination.value, title=page.title)
            if page.ok:
                with x.lock:  # the address it answered from is this page: never offered as another one
                    x.web.note_answered_from(page.final_url)
        x.trace.emit("scrape", url=target.url, kind=target.kind, determination=page.determination.value)
        if not page.ok:
            x.stuck.record_scrape(new_links=0, new_items=0)
            failure = ""
            if target.url == x.web.site_url and x.web.visited_count == 1:  # nothing else of the site is known
                failure = f"its start page {target.url} could not be opened: {page.determination.value}"
                failure += f" ({without_a_sites_allow_hint(target.url, page.reason)})" if page.reason else ""
            elif page.blocked_by == "challenge":  # asked whether we are a robot: a person would not keep trying
                failure = f"it answered {target.url} with {page.reason}; the site is left rather than tried again"
            elif x.note_wall(x.site.url, page) >= _WALLS_TO_LEAVE:  # its pages need a sign-in: a person leaves
                failure = f"{page.reason}, on {x.note_wall(x.site.url, page)} of its pages; the site is left"
            x.end_scrape(target.url, site_failure=failure)
            x.note_page_yield(PageYield(relevant_items=0))
            free = ""
            if page.determination is Determination.NOT_FOUND and self._empty_page_was_free(target.url):
                free = " It cost no subpage."
            return self._finish(f"Could not read {target.url}: {page.determination.value} ({page.reason}).{free}")
        self.where = self._where(page)
        search_form = self._note_search_form(page)
        offered = offer_feeds(x, page) + (offer_sitemaps(x, page) if x.web.visited_count == 1 else 0)
        if target.url == x.web.site_url and page.title and x.web.name == host_of(x.web.site_url):
            with x.lock:  # a site named by its URL takes its start page's title
                x.web.name = " ".join(page.title.split())[:80]
        x.flow.current_page = page
        self.crawler_tools.new_links = 0
        self.crawler_tools.promising_links = 0
        self.crawler_tools.menu = frame_link_urls(
            page,
            max_links=x.settings.fetch.max_links_per_page,
            max_link_text_chars=x.settings.page_view.max_link_text_chars,
        )
        self.collector_tools.new_items = 0
        self.collector_tools.stored_titles = []
        self.collector_tools.touched = set()
        unchanged = UnchangedPages(x, self.crawler_tools, self.collector_tools)
        try:
            report = unchanged.replay(page)  # a page unchanged since it was read for this request: no model call
            if report is None:
                report = self._crawl_and_collect(page)
                unchanged.remember(page, report)
        finally:
            x.flow.current_page = None
        new_links, new_items = self.crawler_tools.new_links, self.collector_tools.new_items
        next_page = offer_next_page(x, page, new_items=new_items)
        dated = offer_dated_links(x, page) + offer_author_entries(x, page)
        broader = offer_broader_search(x, page, target.search_query) if target.kind == "search" else 0
        hits = (
            offer_search_hits(x, page, target.search_query, menu=self.crawler_tools.menu)
            if target.kind == "search"
            else 0
        )
        with x.lock:
            gave = x.findings.budget.gave_items(x.site.url)
            open_leads = leads_still_open(page, menu=self.crawler_tools.menu, is_pending=x.web.is_pending)
        x.stuck.record_scrape(
            new_links=new_links + next_page + dated + broader + hits,
            new_items=new_items,
            site_gave_items=gave,
            open_leads=open_leads,
        )
        x.end_scrape(target.url)
        with x.lock:
            relevant = x.items_counting(self.collector_tools.touched)
        # an index, a grid of issues, a table of contents showing promising links: a step toward the works
        finds_the_way = not relevant and finds_the_way_on(
            page, self.crawler_tools.menu, self.crawler_tools.promising_links
        )
        grant = x.note_page_yield(
            PageYield(relevant_items=relevant, leads=bool(next_page or dated or hits), finds_the_way=finds_the_way)
        )
        not_counted = check_before_enough(x)  # "enough" is believed only of items their own pages bear out
        self._fetch_ahead()
        facts = [f"{new_links} new link(s) queued", f"{new_items} new item(s) stored"]
        if not_counted:
            facts.append(
                f"{not_counted} item(s) collected on this site, read on their own pages, are not "
                f"{x.settings.explore.item_kind}s of the request (or not of its dates) and no longer count"
            )
        if grant is not None:
            facts.append(grant.sentence(x.findings.budget.ceiling(x.settings.explore)))
        if search_form:  # said once per site: the Planner keeps every page report
            facts.append(search_form)
        if next_page:
            facts.append("the next page of this listing is queued")
        if dated:
            facts.append(f"{dated} link(s) naming the year asked for (or the newest) are queued near the top")
        if offered:
            facts.append(f"{offered} feed(s) or sitemap(s) of the site queued as pages")
        if hits:
            facts.append(
                f"the {hits} result(s) of this short list are queued near the top, to be read on their own pages"
            )
        if broader:
            facts.append(f"{broader} shorter search(es) of fewer words queued, as this one found little")
        if target.kind == "search" and not new_items and found_nothing(page.markdown):
            facts.append(
                "the search found nothing"
                + (" (it cost no subpage)" if self._empty_page_was_free(target.url) else "")
                + ": a site's search may match every word, so fewer or other words may"
            )
        heading = "Search results" if target.kind == "search" else "Page"
        where = f"\n{self.where}" if self.where else ""
        return self._finish(
            f"{heading} {page.final_url} — {page.title or 'untitled'}{where}\n{report or '(no report)'}\n"
            f"({'; '.join(facts)}.)"
        )

    def _empty_page_was_free(self, url: str) -> bool:
        """Note that the visited `url` showed nothing to read; whether it is one of the site's first
        `EMPTY_PAGES_FREE` such pages, which cost no subpage."""
        x = self.exploration
        with x.lock:
            free = len(x.web.empty_pages) < EMPTY_PAGES_FREE
            x.web.note_empty_page(url)  # visited when its scrape began
        return free

    def _finish(self, report: str) -> str:
        """`report` with what is left: the subpages and items, or (report_lists_top_urls) the best pending
        URLs, whose hint gives the same counts."""
        x = self.exploration
        x.flow.scrape_target = None
        if x.settings.run.report_lists_top_urls and x.subpages_left > 0:
            listing = navigation.get_top_urls(
                x.web, x.settings.explore.top_k_urls, state=x.hint_state(), page_titles=x.graph.title
            )
            return f"{report}\n\n{listing.message}"
        return f"{report}\n{x.subpages_left} subpage(s) left on this site; {x.web.item_count} item(s) collected here."

    def _where(self, page: Page) -> str:
        """Where `page` sits in its site, for the Planner and the Crawler: its own breadcrumb trail, else the chain
        of pages that led here from the site's start page when it is two levels deep or more ('' otherwise)."""
        trail = breadcrumb_trail(page.html)
        if trail:
            return "Where (the page's breadcrumbs): " + " › ".join(trail)
        x = self.exploration
        with x.lock:
            path = x.graph.path_from_root(page.final_url, x.web.site_url)
            names = [" ".join((x.graph.title(url) or shown_on_site(url, x.web.site_url)).split())[:40] for url in path]
        return "Reached from the start page by: " + " › ".join(names) if len(names) >= 3 else ""

    def _note_search_form(self, page: Page) -> str:
        """Remember the site's search form if `page` shows the first one seen there, and say so ("" when it does not);
        a search robots.txt forbids is remembered as unusable, and said to be (a person reads the site instead)."""
        x = self.exploration
        site = x.site.url
        if site in x.findings.site_search:
            return ""
        mechanisms = usable_mechanisms(find_search_mechanisms(page.html, url=page.final_url))
        mechanisms = [forbidden_by_robots(m, x.pages.robots_refusal) for m in mechanisms]
        form_page, on_its_page = page.final_url, ""
        if not mechanisms:  # no form here: the search page a link names has it, as a person who clicks it finds
            mechanisms, form_page = search_page_mechanisms(x, page, tried=self.search_pages_tried)
            on_its_page = f", on its search page {shown_on_site(form_page, x.web.site_url)}"
        if not mechanisms:
            return ""
        x.findings.site_search[site] = mechanisms
        x.findings.search_form_pages[site] = form_page
        if not x.findings.can_search(site):
            return "this site's search is forbidden to crawlers by its robots.txt (browse its pages instead)"
        return f"this site has a search form{on_its_page} (search_site can use it)"

    def _crawl_and_collect(self, page: Page) -> str:
        """The Crawler's and the Collector's chats on `page`, at once with ``run.scrape_concurrently`` (their
        tools share the exploration's lock); the Collector's report. An error in either is raised once both
        have ended, so neither chat is cut off half-way."""
        x = self.exploration
        if not x.settings.run.scrape_concurrently:
            self._step("crawler", page, self._crawl)
            return self._step("collector", page, self._collect)
        with ThreadPoolExecutor(max_workers=1, thread_name_prefix="crawler") as pool:
            crawling = pool.submit(self._step, "crawler", page, self._crawl)
            try:
                report = self._step("collector", page, self._collect)
            finally:
                crawled = crawling.exception()  # waits for the Crawler either way
            if crawled is not None:
                raise crawled
        return report

    def _step(self, step: str, page: Page, run: Callable[[Page], _T]) -> _T:
        """`run(page)` between a start and an end event in the trace (where the two chats overlap)."""
        trace = self.exploration.trace
        trace.emit("scrape_step", step=step, phase="start", url=page.final_url)
        started = time.monotonic()
        try:
            return run(page)
        finally:
            elapsed = round(time.monotonic() - started, 3)
            trace.emit("scrape_step", step=step, phase="end", url=page.final_url, elapsed_s=elapsed)

    def _crawl(self, page: Page) -> None:
        x = self.exploration
        if x.last_subpage and not x.settings.run.links_on_last_page and not self._earns_by_listing(page):
            x.trace.emit("skip", step="crawler", url=page.final_url, reason="the site's last subpage")
            return
        content = self._crawler_view(page)
        if content is None:
            x.trace.emit("skip", step="crawler", url=page.final_url, reason="no link left to score")
            return
        if self.where:  # which level of the site these links lead from (a year under a subject…)
            content = f"{self.where}\n\n{content}"
        message = (
            f'Request: "{x.search.query}"\n'
            f"{untrusted_page(content, url=page.final_url, title=page.title)}\n"
            "Call save_links with the links worth visiting"
            + ("." if x.settings.run.stop_after_tool else ", then reply with one short sentence.")
        )
        run_nested_chat(self.crawler_executor, self.crawler, message, max_turns=x.settings.run.nested_max_turns)

    def _earns_by_listing(self, page: Page) -> bool:
        """Whether the site's last page opens a listing that goes on and so earns the site more pages
        (`SiteBudget.may_grow_by_a_listing`): its links, the listing's entries among them, are then worth scoring. A
        site whose search form may be used instead has its next page queued only when the listing gave items, which
        earn pages by themselves."""
        x = self.exploration
        with x.lock:
            may_grow = x.findings.budget.may_grow_by_a_listing(x.site.url, x.settings.explore)
        return may_grow and not x.findings.can_search(x.site.url) and shows_more_of_a_listing(x, page)

    def _fetch_ahead(self) -> None:
        """Start fetching the site's best pending URLs (the Planner's likely next choice) in the background."""
        x = self.exploration
        if x.pages.fetch_ahead is None or not x.settings.fetch.fetch_ahead or x.subpages_left == 0:
            return
        with x.lock:
            urls = [entry.url for entry in x.web.top_urls(x.settings.fetch.fetch_ahead)]
        for url in urls:
            x.pages.fetch_ahead(url, x.site)

    def _crawler_view(self, page: Page) -> str | None:
        """The page as the Crawler reads it (settings.page_view): the whole Markdown, or the numbered links
        with their context. With hide_seen_links, the links shown to it on an earlier page of this site are left
        out, and so are those ranked out there, but for a link judged there only in the site's menu that this page
        lists among its own links: it is judged anew, in its place (`JudgedLinks`). Past crawler_top_links, only the
        best against the request are shown (the local embedding model ranks them). None when the view would list no
        link: nothing to score."""
        settings = self.exploration.settings.page_view
        if settings.crawler_view == "markdown":
            return page.markdown
        site = self.exploration.site.url
        shown = self.shown_links.setdefault(site, JudgedLinks())
        ranked_before = self.ranked_out_links.setdefault(site, JudgedLinks())
        menu = self.crawler_tools.menu
        urls = {link.url for link in page.links}
        hidden = {url for url in urls if shown.covers(url, menu=menu)} if settings.hide_seen_links else set()
        judged = {url for url in urls if ranked_before.covers(url, menu=menu)} if settings.hide_seen_links else set()
        candidates = [link for link in page.links if link.url not in hidden and link.url not in judged]
        if not candidates:
            return None
        chosen = candidates
        if settings.crawler_top_links and len(candidates) > settings.crawler_top_links:
            chosen = top_links(
                self.exploration.search.query, candidates, settings.crawler_top_links, self.exploration.settings.rerank
            )
            self.exploration.trace.emit("links_preranked", url=page.final_url, links=len(candidates), shown=len(chosen))
        chosen_urls = {link.url for link in chosen}
        ranked_now = {link.url for link in candidates} - chosen_urls
        ranked_out = {link.id for link in page.links if link.url in ranked_now or link.url in judged}
        view = PageView(title=page.title, markdown=page.markdown, links=page.links, base_url=page.final_url)
        content = link_view(view, already_shown=hidden, ranked_out=ranked_out, menu=menu)
        shown.note(chosen_urls, menu=menu)
        # Like the navigation already shown, a link the ranking left out is judged once per site: a later page
        # that repeats it shows the links that are new there instead.
        ranked_before.note(ranked_now, menu=menu)
        return content

    def _collector_view(self, page: Page) -> str:
        """The page as the Collector reads it (settings.page_view): its main content, or the whole Markdown;
        the link numbers are the page's own either way."""
        settings = self.exploration.settings
        if settings.page_view.collector_view == "markdown":
            return page.markdown
        return main_content_markdown(
            page,
            max_links=settings.fetch.max_links_per_page,
            max_link_text_chars=settings.page_view.max_link_text_chars,
        )

    def _collect(self, page: Page) -> str:
        x = self.exploration
        view = self._collector_view(page)
        if x.settings.page_view.hide_seen_links:
            view = self.site_navigation.without_navigation(x.site.url, page, view)
        words = len(_WORD.findall(view))
        if words < _MIN_COLLECTABLE_WORDS and not _NUMBERED_LINK.search(view):
            x.trace.emit("skip", step="collector", url=page.final_url, reason="no link and almost no text")
            return f"Nothing to collect: the page's content is {words} word(s) and no link."
        chunks = split_into_chunks(view, token_budget=x.settings.page_view.chunk_tokens)
        limit = x.settings.run.max_chunks_per_page
        reports = []
        for index, chunk in enumerate(chunks[:limit], 1):
            part = f"Part {index} of {len(chunks)} of the page.\n" if len(chunks) > 1 else ""
            message = (
                f'Request: "{x.search.query}"\n'
                f"{part}{untrusted_page(chunk, url=page.final_url, title=page.title)}\n"
                f"Store the relevant {x.settings.explore.item_kind}s with collect_items"
                + (
                    "; if there are none, say in one sentence what the page holds."
                    if x.settings.run.stop_after_tool
                    else ", then write your page report."
                )
            )
            report = run_nested_chat(
                self.collector_executor, self.collector, message, max_turns=x.settings.run.nested_max_turns
            )
            if report:
                reports.append(report)
        stored = self.collector_tools.stored_titles
        if not reports and stored:  # the chat ended on the successful tool call
            more = f"; and {len(stored) - _TITLES_IN_REPORT} more" if len(stored) > _TITLES_IN_REPORT else ""
            reports.append(f"Stored {len(stored)} relevant item(s): {'; '.join(stored[:_TITLES_IN_REPORT])}{more}.")
        if len(chunks) > limit:
            reports.append(f"(Only the first {limit} of {len(chunks)} parts of this long page were read.)")
        return "\n".join(reports)
