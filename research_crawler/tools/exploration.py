"""The live state of one run that every agent's tools act on: contexts, graph, page access, flow flags.

Tools change the Search and Web Contexts only through their methods, then `save()` persists them
atomically; the speaker selection reads the flow flags (what the Planner asked for, the Supervisor's
verdict, the stuck detector) to pick the next speaker.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date
from typing import Any, Literal, Protocol

from research_crawler.config.settings import Settings
from research_crawler.context.graph import NavigationGraph
from research_crawler.context.search_context import SearchContext, SiteRef, StopReason
from research_crawler.context.store import RunStore
from research_crawler.context.web_context import WebContext
from research_crawler.errors import StateError
from research_crawler.llm.usage import ModelCall
from research_crawler.pages.html_forms import FormSubmission
from research_crawler.pages.page import Page
from research_crawler.pages.search_forms import SearchMechanism
from research_crawler.tools.hints import HintState
from research_crawler.tools.site_budget import BudgetGrant, PageYield, SiteBudget
from research_crawler.tools.stuck import StuckDetector

__all__ = ["EventSink", "Exploration", "Flow", "PageAccess", "PageFetch", "PageMemory", "ScrapeTarget", "SiteFindings"]

logger = logging.getLogger(__name__)


class PageFetch(Protocol):
    """Fetches a URL for a site (blocking; the session bridges to the async fetcher); with `form`, submits that
    search form (a POST) and returns its results page under `url`, the submission's identity."""

    def __call__(self, url: str, site: SiteRef, /, *, form: FormSubmission | None = None) -> Page: ...


class EventSink(Protocol):
    """Where the tools and chats record what they do: the run's trace (`run/trace.py`) in a real run."""

    def emit(self, event_type: str, /, **fields: Any) -> Any:
        """Record one event of `event_type` with `fields`."""
        ...


class PageMemory(Protocol):
    """What the agents made of pages in earlier runs, kept beside the pages themselves (`web/page_store.py`)."""

    def memory(self, url: str) -> Any:
        """What was remembered for canonical `url`'s kept copy (None: nothing)."""
        ...

    def remember(self, url: str, memory: Any) -> None:
        """Keep `memory` (JSON-serialisable) for `url`'s kept copy."""
        ...


@dataclass(frozen=True)
class ScrapeTarget:
    """The page the Planner asked the Scraper to read."""

    url: str
    kind: Literal["page", "search"] = "page"
    search_query: str = ""
    form: FormSubmission | None = None
    """The search form to POST or type into its page (its results page is `url`); None for a page opened by its URL."""


@dataclass
class Flow:
    """Where the turn stands, for the speaker selection (`agents/speaker_selection.py` reads these after each
    turn): what the Planner asked for, the Supervisor's verdict, the page being read, and why the site failed."""

    sites_selected: bool = False
    planner_action: Literal["none", "scrape", "review"] = "none"
    scrape_target: ScrapeTarget | None = None
    supervisor_verdict: Literal["none", "approved", "more"] = "none"
    supervisor_feedback: str = ""
    current_page: Page | None = None
    site_failure: str = ""
    """Why the current site cannot be explored at all (its start page could not be opened), "" otherwise."""


@dataclass
class PageAccess:
    """How the tools reach pages, shared by every site explored at once in one run."""

    fetch_page: PageFetch
    fetched_urls: set[str] = field(default_factory=set)
    """Every readable page's URL, asked for and final (the citation guard's fetched set)."""
    fetch_ahead: Callable[[str, SiteRef], None] | None = None
    """Starts fetching a page the agents will likely read next, in the background (None: nothing is fetched ahead)."""
    robots_sitemaps: Callable[[str], list[str]] | None = None
    """The sitemaps the robots.txt of a URL's site names (None: none are looked for)."""
    robots_refusal: Callable[[str], str | None] | None = None
    """Why robots.txt forbids a URL, or None when it may be read (None: nothing is asked before the fetch)."""
    page_memory: PageMemory | None = None
    """What the agents made of pages in earlier runs: a page unchanged since (304) is not read by a model again."""


@dataclass
class SiteFindings:
    """What the run learned of each site, by site URL: shared by the sites explored at once, read by the report."""

    site_search: dict[str, list[SearchMechanism]] = field(default_factory=dict)
    search_form_pages: dict[str, str] = field(default_factory=dict)
    subpage_offsets: dict[str, int] = field(default_factory=dict)
    """Pages a site had read before this query (a follow-up's budget starts after them)."""
    walls: dict[str, list[str]] = field(default_factory=dict)
    """The pages of a site that answered with a sign-in or a paywall (never passed), each once."""
    searched: set[str] = field(default_factory=set)
    """The sites whose own search the Planner has used."""
    budget: SiteBudget = field(default_factory=SiteBudget)
    """The pages each site may read: its base, and those it earned by yielding (`tools/site_budget.py`)."""
    checked: set[str] = field(default_factory=set)
    """The collected items read on their own pages before their site's items were taken to be enough."""
    not_counted: dict[str, str] = field(default_factory=dict)
    """Collected items their own pages showed the report leaves out (`nested_chats/enough_check.py`), with why: they
    no longer count toward the items the request wants."""

    def can_search(self, site_url: str) -> bool:
        """Whether the site has a search to use: a usable form, or an OpenSearch description not read yet (a form its
        robots.txt forbids is remembered, unusable, and is none)."""
        return any(m.usable or m.kind == "opensearch" for m in self.site_search.get(site_url, []))


@dataclass
class Exploration:
    """Everything the tools of one exploration share: the contexts, the turn (`flow`), the way to pages (`pages`) and
    what was learned of the sites (`findings`). A site explored beside others (`lane`) has its own search, trace,
    graph, turn and stuck detector, and shares the rest with the run."""

    settings: Settings
    search: SearchContext
    pages: PageAccess
    trace: EventSink
    store: RunStore | None = None
    web_contexts: dict[str, WebContext] = field(default_factory=dict)
    graph: NavigationGraph = field(default_factory=NavigationGraph)
    stuck: StuckDetector = field(default_factory=StuckDetector)
    flow: Flow = field(default_factory=Flow)
    findings: SiteFindings = field(default_factory=SiteFindings)
    saver: Callable[[], None] | None = None
    tool_errors: int = 0
    lane: bool = False
    """This exploration is one site's of several explored at once (`run/site_lanes.py`), inside the run's own."""
    lock: threading.RLock = field(default_factory=threading.RLock)
    """Held while the contexts are changed and while they are saved: the Crawler's and the Collector's chats
    on one page run at the same time (`run.scrape_concurrently`), and parallel sites share one run's lock, so
    a save never meets a half-made change."""

    def __post_init__(self) -> None:
        self.stuck.max_site_model_calls = self.settings.run.max_model_calls_per_site

    # --- the current site -------------------------------------------------------------------------

    @property
    def site(self) -> SiteRef:
        """α, the site being explored (StateError when none is)."""
        site = self.search.current_site
        if site is None:
            raise StateError("no site is being explored")
        return site

    @property
    def web(self) -> WebContext:
        """The Web Context of the current site."""
        return self.web_contexts[self.site.url]

    @property
    def subpages_used(self) -> int:
        """The current site's pages counted against its budget in this query."""
        if self.search.current_site is None:
            return 0
        return self.web.pages_counted - self.findings.subpage_offsets.get(self.site.url, 0)

    @property
    def subpages_left(self) -> int:
        """The current site's pages left now (it may earn more by yielding: `note_page_yield`); never one past the
        ceiling, counting the pages that went free."""
        if self.search.current_site is None:
            return 0
        read = self.web.visited_count - self.findings.subpage_offsets.get(self.site.url, 0)
        return self.findings.budget.pages_left(self.site.url, self.subpages_used, read, self.settings.explore)

    @property
    def last_subpage(self) -> bool:
        """No page is left on the current site and it cannot earn more from what it has given so far."""
        if self.subpages_left > 0:
            return False
        return self.search.current_site is None or not self.findings.budget.may_grow(
            self.site.url, self.settings.explore
        )

    def note_page_yield(self, page: PageYield) -> BudgetGrant | None:
        """Record what the page just read gave; the pages the site earned by it (in the trace too), if any."""
        with self.lock:
            site = self.site.url
            grant = self.findings.budget.note_page(site, self.subpages_used, page, self.settings.explore)
        if grant is not None:
            self.trace.emit("budget", site=site, earned=grant.earned, limit=grant.limit, reason=grant.reason)
        return grant

    def request_summary(self, *, today: date | None = None) -> str:
        """The request's contract in one line ("5 papers on … · 2025 only · newest first"), "" before it is read."""
        request = self.search.request
        if request is None:
            return ""
        return request.summary(
            today=today or date.today(),
            recent_days=self.settings.report.recent_days,
            item_kind=self.settings.explore.item_kind,
        )

    @property
    def items_wanted(self) -> int:
        """How many items the report lists: the number the request asks for, else `report.top_k`."""
        request = self.search.request
        return (request.count if request is not None else None) or self.settings.report.top_k

    def counted_note(self) -> str:
        """What counts toward `items_wanted` in the hints' words: with the request's dates, only items that may be
        of those dates ("; only papers that may be dated in 2024 count"); "" otherwise."""
        request = self.search.request
        if request is None or not request.has_dates():
            return ""
        days = self.settings.report.recent_days
        dates = request.describe_dates(today=date.today(), recent_days=days, in_sentence=True)
        return f"; only {self.settings.explore.item_kind}s that may be dated {dates} count"

    def items_counted(self) -> int:
        """The current site's collected items that count toward `items_wanted` in the hints: all of them, or, when
        the request has dates, those not dated outside them (an undated one may still be of those dates) — ten
        papers of other years leave a request for one year's papers as unmet as none."""
        if self.search.current_site is None:
            return 0
        return self.items_counting({item.url for item in self.web.items()})

    def items_counting(self, urls: set[str]) -> int:
        """How many of the current site's items at `urls` count toward `items_wanted` (as `items_counted`); an item
        its own page showed the report leaves out never does."""
        items = [item for item in self.web.items() if item.url in urls and item.url not in self.findings.not_counted]
        request = self.search.request
        if request is None or not request.has_dates():
            return len(items)
        today, recent_days = date.today(), self.settings.report.recent_days
        return sum(request.date_fit(item.date, today=today, recent_days=recent_days) != "outside" for item in items)

    def hint_state(self) -> HintState:
        site = self.search.current_site
        items = self.items_counted() if site is not None else 0
        return HintState(
            subpages_left=self.subpages_left,
            items_collected=items,
            item_kind=self.settings.explore.item_kind,
            items_wanted=self.items_wanted,
            counted_note=self.counted_note(),
            search_unused=site is not None
            and self.findings.can_search(site.url)
            and site.url not in self.findings.searched,
            authors_asked=list(self.search.request.authors) if self.search.request is not None else [],
        )

    def start_next_site(self, reason: StopReason | None, detail: str = "") -> SiteRef | None:
        """Finish α (with `reason`) and move to the next site of P, giving it a fresh Web Context."""
        with self.lock:
            return self._start_next_site(reason, detail)

    def _start_next_site(self, reason: StopReason | None, detail: str) -> SiteRef | None:
        if self.search.current_site is not None and reason is not None:
            self.search.finish_current_site(reason, detail or self.stuck.reason)
        site = self.search.next_site()
        self.stuck.reset()
        self.flow = Flow(sites_selected=self.flow.sites_selected)  # a new site's turn starts afresh
        if site is not None and site.url not in self.web_contexts:
            self.web_contexts[site.url] = WebContext.for_site(site.url, name=site.name)
        self.trace.emit("site", action="start", site=site.url if site else None, reason=str(reason or ""))
        self.save()
        return site

    def note_model_call(self, _call: ModelCall) -> None:
        """A model call ended (its client tells every agent's): counted against the current site's budget."""
        with self.lock:
            if self.search.current_site is not None:
                self.stuck.record_model_call()

    def start_scrape(self, target: ScrapeTarget) -> None:
        """The Scraper begins reading `target`: only now does it leave C and enter VU, so a page chosen but
        never read (a second pick in one turn, a run stopped in between) is not lost. Saved at once: a stop
        during the scrape leaves it unfinished, and a resumed run reads it again first."""
        with self.lock:
            web = self.web
            if web.is_pending(target.url):
                web.take(target.url)
            elif not web.is_visited(target.url):
                web.mark_visited(target.url)
            web.begin_scrape(target.url)
            self.save()

    def end_scrape(self, url: str, *, site_failure: str = "") -> None:
        """The Scraper finished reading `url` (whatever it found): saved at once. `site_failure` says why the site
        cannot be explored at all (its start page could not be opened)."""
        with self.lock:
            self.web.end_scrape(url)
            if site_failure:
                self.flow.site_failure = site_failure
            self.save()

    def note_wall(self, site_url: str, page: Page) -> int:
        """Record that `page` of the site at `site_url` answered with a sign-in or a paywall; how many of its pages
        have (0 when `page` is no such wall)."""
        if page.blocked_by not in ("login_wall", "paywall"):
            return len(self.findings.walls.get(site_url, []))
        with self.lock:
            seen = self.findings.walls.setdefault(site_url, [])
            if page.url not in seen:
                seen.append(page.url)
            return len(seen)

    def complete(self, reason: StopReason, detail: str = "") -> None:
        """Set γ: the search is over (for a lane, its one site's exploration: the event says `lane_complete`, and
        the run's own `complete` follows once every lane has ended)."""
        with self.lock:
            if not self.search.gamma:
                self.search.complete(reason, detail or self.stuck.reason)
                self.trace.emit("lane_complete" if self.lane else "complete", reason=str(reason), detail=detail)
                self.save()

    def known_sites(self) -> list[SiteRef]:
        """Every site of this query: finished, current and pending."""
        sites = [record.site for record in self.search.finished_sites]
        for site in (self.search.current_site, *[entry.site for entry in self.search.pending_sites]):
            if site is not None and site not in sites:
                sites.append(site)
        return sites

    # --- persistence ----------------------------------------------------------------------------

    def save(self) -> None:
        """Persist S, every W and the graph atomically (no-op without a store; `saver` when sites run in
        parallel, where the run's state spans several explorations)."""
        with self.lock:
            if self.saver is not None:
                self.saver()
            elif self.store is not None:
                self.store.save(
                    search=self.search,
                    web_contexts=self.web_contexts,
                    graph=self.graph,
                    budget=self.findings.budget.saved(),
                )
