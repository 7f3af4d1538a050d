"""The Web Context W = ⟨C, CP, DP, DU, VU⟩ of the paper: the exploration state of one site.

Tools, not agents, change it, so whatever an LLM says the invariants below hold and no page is
visited twice; backtracking is the Planner taking another of the best pending URLs of C (`top_urls`, `take`).
"""

# Over 400 lines on purpose: this is the paper's W, five sets kept consistent by one class's methods and
# invariants; splitting the sets apart would let them drift. Its entries (a pending URL, an item) are
# `context/web_entries.py`'s.

from __future__ import annotations

import heapq
import logging
import math
from typing import Annotated, Any, Self

from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    PlainSerializer,
    field_validator,
    model_validator,
)

from research_crawler.context.urls import canonicalize_url, is_same_site, try_canonicalize_url
from research_crawler.context.web_entries import (
    MAX_SCORE,
    MIN_SCORE,
    CleanText,
    CollectedItem,
    ItemUpdate,
    PendingURL,
    clean_text,
)
from research_crawler.errors import StateError, ToolInputError

__all__ = [
    "EMPTY_PAGES_FREE",
    "MAX_SCORE",
    "MIN_SCORE",
    "CleanText",
    "CollectedItem",
    "ItemUpdate",
    "PendingURL",
    "WebContext",
    "clean_text",
]

logger = logging.getLogger(__name__)

#: Visited pages of a site that showed nothing to read — a search that matched nothing, a page not found — which
#: cost it no subpage (a model told that fewer words may find something can try them without giving up a page).
EMPTY_PAGES_FREE = 2


def _sorted_urls(urls: set[str]) -> list[str]:
    return sorted(urls)


def _queue_in_pop_order(pending: dict[str, PendingURL]) -> list[PendingURL]:
    return sorted(pending.values(), key=lambda entry: entry.pop_key)


def _pending_from_list(value: Any) -> Any:
    """Accept the saved form of C (a list in pop order) and key it by URL, refusing duplicates."""
    if not isinstance(value, list):
        return value
    keyed: dict[str, Any] = {}
    for entry in value:
        if isinstance(entry, PendingURL):
            url: object = entry.url
        elif isinstance(entry, dict):
            url = entry.get("url")
        else:
            url = None
        if not isinstance(url, str):
            raise ValueError(f"pending entry without a URL: {entry!r}")
        if url in keyed:
            raise ValueError(f"URL pending twice: {url}")
        keyed[url] = entry
    return keyed


# Sets are saved sorted so that state files are stable and diffable.
_URLSet = Annotated[set[str], PlainSerializer(_sorted_urls, return_type=list[str], when_used="json")]
_PendingQueue = Annotated[
    dict[str, PendingURL],
    BeforeValidator(_pending_from_list),
    PlainSerializer(_queue_in_pop_order, return_type=list[PendingURL], when_used="json"),
]


def _checked_score(score: object, *, what: str) -> float:
    if isinstance(score, bool) or not isinstance(score, int | float):
        raise ToolInputError(f"{what} score must be a number from 0 to 10, got {score!r}")
    value = float(score)
    if math.isnan(value) or not MIN_SCORE <= value <= MAX_SCORE:
        raise ToolInputError(f"{what} score must be a number from 0 to 10, got {score!r}")
    return value


def _checked_text(value: object, *, what: str) -> str:
    if not isinstance(value, str):
        raise ToolInputError(f"{what} must be a string, got {type(value).__name__}")
    return clean_text(value).strip()


class WebContext(BaseModel):
    """The exploration state of one site: W = ⟨C, CP, DP, DU, VU⟩.

    - C  (`pending`): the priority queue of discovered URLs awaiting a visit; pops come out by highest
      score, then from the page read last (`found_at`), then in insertion order (`seq`).
    - CP (`collected`): the collected items, keyed by canonical item URL.
    - DP (`discovered_items`): the item URLs collected so far, so no item is stored twice.
    - DU (`discovered_urls`): every URL seen, queued or not, visited or not.
    - VU (`visited_urls`): the URLs already visited.

    Beside W, `scraping` holds the visited URLs whose scrape has begun and not finished: a run that stops
    in between (a crash, a kill) leaves them there, and the resumed run reads them again first.

    Beside W too, `empty_pages` holds the visited pages that showed nothing to read (a search of the site that
    matched nothing, a page not found): the first `EMPTY_PAGES_FREE` of them cost the site no subpage.

    Invariants, kept by every method and checked when a saved context is loaded:
    VU ⊆ DU; C ∩ VU = ∅; every URL in C is in DU; DP == keys of CP; scraping ⊆ VU; empty_pages ⊆ VU; each URL
    is visited at most once (a second visit raises `StateError`). All URLs are canonical
    (`context.urls.canonicalize_url`).

    Mutate it only through its methods; the fields are public for (de)serialisation. Pydantic's JSON
    round trip is exact: ``WebContext.model_validate_json(w.model_dump_json()) == w``.
    """

    model_config = ConfigDict(extra="forbid")

    site_url: str = Field(description="Canonical start URL of the site.")
    name: CleanText = ""
    pending: _PendingQueue = Field(default_factory=dict, description="C: pending URLs (saved in pop order).")
    collected: dict[str, CollectedItem] = Field(default_factory=dict, description="CP: items by URL.")
    discovered_items: _URLSet = Field(default_factory=set, description="DP: item URLs collected.")
    discovered_urls: _URLSet = Field(default_factory=set, description="DU: every URL seen.")
    visited_urls: _URLSet = Field(default_factory=set, description="VU: URLs visited.")
    scraping: _URLSet = Field(default_factory=set, description="Visited URLs whose scrape has not finished.")
    empty_pages: _URLSet = Field(
        default_factory=set, description="Visited pages that showed nothing to read (an empty search, a 404)."
    )
    next_url_seq: int = Field(default=0, ge=0, description="Sequence number of the next queued URL.")
    next_item_seq: int = Field(default=0, ge=0, description="Sequence number of the next collected item.")

    @field_validator("site_url")
    @classmethod
    def _canonical_site_url(cls, value: str) -> str:
        return canonicalize_url(value)

    @model_validator(mode="after")
    def _check_loaded_invariants(self) -> Self:
        problems = self.invariant_violations()
        if problems:
            raise ValueError("Web Context breaks its invariants: " + "; ".join(problems))
        return self

    # ------------------------------------------------------------------ construction

    @classmethod
    def for_site(cls, site_url: str, *, name: str = "") -> WebContext:
        """A fresh context for the site at `site_url`, its start URL queued with the top score."""
        context = cls(site_url=site_url, name=_checked_text(name, what="name"))
        context.add_url(context.site_url, MAX_SCORE, anchor_text=context.name)
        return context

    # ------------------------------------------------------------------ URLs

    def add_url(
        self, url: str, score: float, *, anchor_text: str = "", found_on: str | None = None, dead_end: bool = False
    ) -> bool:
        """Queue `url` in C unless it was discovered before; True when it was queued.

        A URL already in DU (pending, visited or marked discovered) changes nothing: the first sighting
        keeps its score (`raise_pending` raises one judged higher where it is seen again). A link of a `dead_end` (a
        page that offered no promising way on) counts as found on the page read before it (`PendingURL.found_at` one
        less): it waits behind that page's links, as a person goes back up one step. Raises `InvalidURLError` for a
        URL that is not http(s) and `ToolInputError` for a score outside 0..10.
        """
        canonical = canonicalize_url(url)
        value = _checked_score(score, what="link")
        anchor = _checked_text(anchor_text, what="anchor_text")
        source = canonicalize_url(found_on) if found_on is not None else None
        if canonical in self.discovered_urls:
            return False
        self.pending[canonical] = PendingURL(
            url=canonical,
            score=value,
            anchor_text=anchor,
            found_on=source,
            seq=self.next_url_seq,
            found_at=len(self.visited_urls) - (1 if dead_end else 0),
        )
        self.next_url_seq += 1
        self.discovered_urls.add(canonical)
        return True

    def promote_url(self, url: str, score: float, *, anchor_text: str, found_on: str) -> bool:
        """Queue `url`, or raise it in C when it waits there already: it takes at least `score`, the new
        `anchor_text` (what it is now known to be) and counts as found on the page read last. A URL visited, or
        marked discovered without waiting in C, changes nothing. True when C changed."""
        canonical = canonicalize_url(url)
        value = _checked_score(score, what="link")
        if canonical not in self.pending:
            return self.add_url(canonical, value, anchor_text=anchor_text, found_on=found_on)
        entry = self.pending[canonical]
        self.pending[canonical] = entry.model_copy(
            update={
                "score": max(entry.score, value),
                "anchor_text": _checked_text(anchor_text, what="anchor_text"),
                "found_on": canonicalize_url(found_on),
                "found_at": len(self.visited_urls),
            }
        )
        return True

    def raise_pending(self, url: str, score: float, *, anchor_text: str, found_on: str, margin: float = 0.0) -> bool:
        """Raise `url` when it waits in C more than `margin` below `score`: seen again where it is judged higher (a
        link first seen in a site's menu, then among a page's own links), it takes that score, those words and that
        place (`promote_url`). True when it was raised; a URL not pending, or pending at `score - margin` or above,
        changes nothing."""
        canonical = canonicalize_url(url)
        value = _checked_score(score, what="link")
        entry = self.pending.get(canonical)
        if entry is None or entry.score + margin >= value:
            return False
        return self.promote_url(canonical, value, anchor_text=anchor_text, found_on=found_on)

    def take(self, url: str) -> PendingURL:
        """Take the pending URL the Planner chose and mark it visited.

        Raises `StateError` when `url` is not pending: already visited, or never discovered.
        """
        canonical = canonicalize_url(url)
        entry = self.pending_entry(canonical)
        self._visit_pending(canonical)
        return entry

    def pending_entry(self, url: str) -> PendingURL:
        """The entry of pending `url`, left in C. Raises `StateError`, saying why, when `url` is not pending."""
        canonical = canonicalize_url(url)
        if canonical in self.pending:
            return self.pending[canonical]
        if canonical in self.visited_urls:
            raise StateError(f"{canonical} was already visited; each page is visited once: choose another")
        raise StateError(f"{canonical} is not a pending URL of {self.site_url}: it was never discovered")

    def mark_visited(self, url: str) -> None:
        """Record a visit to `url` that did not come from C (e.g. a site-search results page).

        Adds it to DU and VU and drops it from C if it was pending. Raises `StateError` if already visited.
        """
        canonical = canonicalize_url(url)
        if canonical in self.visited_urls:
            raise StateError(f"{canonical} was already visited; each page is visited once")
        self.pending.pop(canonical, None)
        self.discovered_urls.add(canonical)
        self.visited_urls.add(canonical)

    def note_answered_from(self, final_url: str) -> None:
        """The page just read answered from `final_url`, another address of this site (a redirect: "/" to "/en/"):
        that address joins DU and leaves C, so it is never offered as a page still to read; reading it would read
        the same page again. Nothing changes for an address off the site or already visited."""
        canonical = try_canonicalize_url(final_url)
        if canonical is None or canonical in self.visited_urls or not is_same_site(canonical, self.site_url):
            return
        self.pending.pop(canonical, None)
        self.discovered_urls.add(canonical)

    def note_empty_page(self, url: str) -> None:
        """Record that the visited `url` showed nothing to read (a search of the site that matched nothing, a page
        not found). Raises `StateError` if it was not visited."""
        canonical = canonicalize_url(url)
        if canonical not in self.visited_urls:
            raise StateError(f"{canonical} was not visited")
        self.empty_pages.add(canonical)

    @property
    def pages_counted(self) -> int:
        """Visited pages that count against the site's subpages: every one but the first `EMPTY_PAGES_FREE`
        that showed nothing to read (an empty results page, a dead link: a person would not call it a page
        explored)."""
        return len(self.visited_urls) - min(EMPTY_PAGES_FREE, len(self.empty_pages))

    def begin_scrape(self, url: str) -> None:
        """Record that the scrape of the visited `url` begins (until `end_scrape`). Raises `StateError` if it
        was not visited."""
        canonical = canonicalize_url(url)
        if canonical not in self.visited_urls:
            raise StateError(f"{canonical} cannot be scraped before it is visited")
        self.scraping.add(canonical)

    def end_scrape(self, url: str) -> None:
        """Record that the scrape of `url` finished (whatever it found); nothing happens if none had begun."""
        self.scraping.discard(canonicalize_url(url))

    def unfinished_scrapes(self) -> list[str]:
        """The visited URLs whose scrape began and never finished, in URL order."""
        return sorted(self.scraping)

    def _visit_pending(self, canonical: str) -> None:
        del self.pending[canonical]
        self.visited_urls.add(canonical)

    def is_pending(self, url: str) -> bool:
        """True when `url` waits in C. A URL that cannot be canonicalised is never pending."""
        canonical = try_canonicalize_url(url)
        return canonical is not None and canonical in self.pending

    def is_visited(self, url: str) -> bool:
        """True when `url` is in VU."""
        canonical = try_canonicalize_url(url)
        return canonical is not None and canonical in self.visited_urls

    def is_discovered(self, url: str) -> bool:
        """True when `url` is in DU."""
        canonical = try_canonicalize_url(url)
        return canonical is not None and canonical in self.discovered_urls

    def top_urls(self, k: int) -> list[PendingURL]:
        """The best `k` pending URLs in C's order (`PendingURL.pop_key`), left in C."""
        if isinstance(k, bool) or not isinstance(k, int) or k < 0:
            raise ToolInputError(f"k must be a whole number ≥ 0, got {k!r}")
        return heapq.nsmallest(k, self.pending.values(), key=lambda entry: entry.pop_key)

    # ------------------------------------------------------------------ items

    def add_item(
        self,
        url: str,
        *,
        title: str,
        description: str = "",
        score: float,
        found_on: str,
        date: str | None = None,
        authors: list[str] | None = None,
        fuller_byline: bool = False,
    ) -> ItemUpdate:
        """Store an item in CP (and its URL in DP), or improve the one already stored.

        An item already stored is updated when the new sighting brings a higher score, a longer
        description, a title, a date or authors where it had none; its first `found_on` and `seq` are kept. An
        item is never stored twice. `date` is ISO (YYYY, YYYY-MM or YYYY-MM-DD).

        Where a field was read decides which reading stands: the item's own page (`found_on` is the item) over a
        listing that links it. A date or authors read on the item's own page replace those a listing showed (the
        listing's date may be the posting's or the issue's, its byline cut short); a listing never replaces the
        own page's. Between two readings of one kind, `authors` replace those stored only when the caller says they
        are the fuller byline (`fuller_byline`: the whole byline over one cut short; reading names is the pages
        layer's, `pages.person_names.fuller_byline`).
        """
        canonical = canonicalize_url(url)
        value = _checked_score(score, what="item")
        clean_title = _checked_text(title, what="title")
        clean_description = _checked_text(description, what="description")
        source = canonicalize_url(found_on)
        own_page = source == canonical
        existing = self.collected.get(canonical)
        if existing is None:
            self.collected[canonical] = CollectedItem(
                url=canonical,
                title=clean_title,
                description=clean_description,
                score=value,
                found_on=source,
                site=self.site_url,
                seq=self.next_item_seq,
                date=date,
                authors=tuple(authors or ()),
                read_on_own_page=own_page and bool(date or authors),
            )
            self.next_item_seq += 1
            self.discovered_items.add(canonical)
            return ItemUpdate.ADDED
        changes: dict[str, object] = {}
        if value > existing.score:
            changes["score"] = value
        if len(clean_description) > len(existing.description):
            changes["description"] = clean_description
        if clean_title and not existing.title:
            changes["title"] = clean_title
        changes.update(
            _better_details(existing, date, tuple(authors or ()), own_page=own_page, fuller_byline=fuller_byline)
        )
        if not changes:
            return ItemUpdate.UNCHANGED
        self.collected[canonical] = existing.model_copy(update=changes)
        return ItemUpdate.UPDATED

    def items(self) -> list[CollectedItem]:
        """The collected items, best score first, then in order of collection."""
        return sorted(self.collected.values(), key=lambda item: item.rank_key)

    # ------------------------------------------------------------------ views

    @property
    def pending_count(self) -> int:
        """Number of URLs in C."""
        return len(self.pending)

    @property
    def visited_count(self) -> int:
        """Number of URLs in VU."""
        return len(self.visited_urls)

    @property
    def item_count(self) -> int:
        """Number of items in CP."""
        return len(self.collected)

    @property
    def C(self) -> list[PendingURL]:
        """C, the pending URLs, in pop order (a copy)."""
        return _queue_in_pop_order(self.pending)

    @property
    def CP(self) -> dict[str, CollectedItem]:
        """CP, the collected items by URL (a copy)."""
        return dict(self.collected)

    @property
    def DP(self) -> frozenset[str]:
        """DP, the collected item URLs."""
        return frozenset(self.discovered_items)

    @property
    def DU(self) -> frozenset[str]:
        """DU, every URL discovered."""
        return frozenset(self.discovered_urls)

    @property
    def VU(self) -> frozenset[str]:
        """VU, the URLs visited."""
        return frozenset(self.visited_urls)

    def invariant_violations(self) -> list[str]:
        """Every broken invariant, described; empty when the context is sound."""
        problems: list[str] = []
        if not self.visited_urls <= self.discovered_urls:
            unknown = sorted(self.visited_urls - self.discovered_urls)[:5]
            problems.append(f"visited but not discovered: {unknown}")
        pending = set(self.pending)
        if pending & self.visited_urls:
            problems.append(f"pending and visited: {sorted(pending & self.visited_urls)[:5]}")
        if not pending <= self.discovered_urls:
            problems.append(f"pending but not discovered: {sorted(pending - self.discovered_urls)[:5]}")
        if self.discovered_items != set(self.collected):
            problems.append("discovered item URLs differ from the collected items")
        if not self.scraping <= self.visited_urls:
            problems.append(f"scraping but not visited: {sorted(self.scraping - self.visited_urls)[:5]}")
        if not self.empty_pages <= self.visited_urls:
            problems.append(f"an empty page not visited: {sorted(self.empty_pages - self.visited_urls)[:5]}")
        if any(key != entry.url for key, entry in self.pending.items()):
            problems.append("a pending entry is filed under another URL")
        if any(key != item.url for key, item in self.collected.items()):
            problems.append("a collected item is filed under another URL")
        if len({entry.seq for entry in self.pending.values()}) != len(self.pending):
            problems.append("two pending URLs share a sequence number")
        if any(item.site != self.site_url for item in self.collected.values()):
            problems.append("a collected item belongs to another site")
        if any(entry.seq >= self.next_url_seq for entry in self.pending.values()):
            problems.append("a pending URL has a sequence number not yet issued")
        if any(item.seq >= self.next_item_seq for item in self.collected.values()):
            problems.append("a collected item has a sequence number not yet issued")
        return problems

    def check_invariants(self) -> None:
        """Raise `StateError` naming every broken invariant (tests and paranoid callers)."""
        problems = self.invariant_violations()
        if problems:
            raise StateError(f"Web Context of {self.site_url} is inconsistent: " + "; ".join(problems))


def _better_details(
    existing: CollectedItem, date: str | None, authors: tuple[str, ...], *, own_page: bool, fuller_byline: bool
) -> dict[str, object]:
    """The date and authors of a new sighting of `existing` that replace those stored (`WebContext.add_item`'s
    rule: the item's own page over a listing, then the longer date or the byline the caller says is fuller), with
    where they were read."""
    if not date and not authors:
        return {}
    if existing.read_on_own_page and not own_page:  # a listing's line never overrides the work's own page
        return {}
    changes: dict[str, object] = {}
    replaces = own_page and not existing.read_on_own_page
    if date and (replaces or not existing.date or len(date) > len(existing.date)):
        changes["date"] = date
    if authors and (replaces or not existing.authors or fuller_byline):
        changes["authors"] = authors
    if changes and own_page:
        changes["read_on_own_page"] = True
    return changes
