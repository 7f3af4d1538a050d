"""The Search Context S = ⟨Q, P, α, β, γ⟩ of the paper: the query-level state across sites.

P is the priority queue of sites still to explore, α the site being explored, β the one before it,
γ whether the whole search has ended and why. Each site's own exploration lives in its `WebContext`.
"""

from __future__ import annotations

import bisect
import logging
import math
from enum import StrEnum
from typing import Literal, Self

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from research_crawler.context.request import ResearchRequest
from research_crawler.context.urls import canonicalize_url
from research_crawler.context.web_context import CleanText
from research_crawler.errors import StateError, ToolInputError

__all__ = ["Completion", "FinishedSite", "PendingSite", "SearchContext", "SiteRef", "StopReason"]

logger = logging.getLogger(__name__)


class SiteRef(BaseModel):
    """A website to explore: its name, canonical start URL, what it holds, and how to fetch it."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: CleanText = Field(min_length=1)
    url: str = Field(description="Canonical start URL of the site.")
    description: CleanText = ""
    render: Literal["http", "browser", "auto"] | None = Field(
        None, description="How its pages are fetched (settings.RenderMode); None: the fetch settings' render."
    )

    @field_validator("name")
    @classmethod
    def _stripped_name(cls, value: str) -> str:
        stripped = value.strip()
        if not stripped:
            raise ValueError("a site needs a name")
        return stripped

    @field_validator("url")
    @classmethod
    def _canonical_url(cls, value: str) -> str:
        return canonicalize_url(value)


class StopReason(StrEnum):
    """Why a site's exploration or the whole search stopped."""

    COMPLETED = "completed"
    """The site was explored until the Supervisor was satisfied (a site's normal end)."""
    ALL_SITES_DONE = "all_sites_done"
    LIMIT_REACHED = "limit_reached"
    STUCK = "stuck"
    UNREACHABLE = "unreachable"
    """The site's start page could not be opened (refused, DNS, connection, robots.txt, HTTP error)."""
    NO_USABLE_REPLY = "no_usable_reply"
    """The site's agents gave no usable reply (no verdict, only unusable or empty replies)."""
    ABORTED = "aborted"
    INTERRUPTED = "interrupted"
    ERROR = "error"


class Completion(BaseModel):
    """γ: whether the search has ended, and why. Truthy exactly when done, like the paper's boolean."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    done: bool = False
    reason: StopReason | None = None
    detail: CleanText = ""

    @model_validator(mode="after")
    def _reason_iff_done(self) -> Self:
        if self.done != (self.reason is not None):
            raise ValueError("a completion has a reason exactly when it is done")
        return self

    def __bool__(self) -> bool:
        return self.done


class PendingSite(BaseModel):
    """An entry of P: a site with its priority and insertion order (the stable tie-break)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    site: SiteRef
    priority: float = Field(allow_inf_nan=False)
    seq: int = Field(ge=0)

    @property
    def pop_key(self) -> tuple[float, int]:
        """Highest priority first, then earliest added."""
        return (-self.priority, self.seq)


class FinishedSite(BaseModel):
    """A site whose exploration has ended, with the reason."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    site: SiteRef
    reason: StopReason
    detail: CleanText = ""


class SearchContext(BaseModel):
    """The state of one query across sites: S = ⟨Q, P, α, β, γ⟩.

    - Q (`query`): the user's request, stripped, never empty.
    - P (`pending_sites`): sites still to explore, kept in pop order (highest priority, then earliest).
    - α (`current_site`): the site being explored, or None.
    - β (`previous_site`): the site explored before α, or None.
    - γ (`completion`): whether the search has ended, and why.

    Invariants: a site (by canonical URL) appears at most once across P, α and the finished sites,
    except that α itself may already be recorded as finished; once γ is done, no further site is started.
    """

    model_config = ConfigDict(extra="forbid")

    query: CleanText
    pending_sites: list[PendingSite] = Field(default_factory=list)
    current_site: SiteRef | None = None
    previous_site: SiteRef | None = None
    completion: Completion = Field(default_factory=Completion)
    finished_sites: list[FinishedSite] = Field(default_factory=list)
    next_site_seq: int = Field(default=0, ge=0)
    request: ResearchRequest | None = Field(
        default=None, description="Q read as a contract (count, dates, order…); None until it is read."
    )

    @field_validator("query")
    @classmethod
    def _non_empty_query(cls, value: str) -> str:
        stripped = value.strip()
        if not stripped:
            raise ValueError("the query must not be empty")
        return stripped

    @model_validator(mode="after")
    def _check_loaded_invariants(self) -> Self:
        self.pending_sites.sort(key=lambda entry: entry.pop_key)
        problems = self.invariant_violations()
        if problems:
            raise ValueError("Search Context breaks its invariants: " + "; ".join(problems))
        return self

    # ------------------------------------------------------------------ sites

    def add_site(self, site: SiteRef, *, priority: float = 0.0) -> bool:
        """Put `site` in P; False (and nothing changes) if it is already pending, current or finished."""
        if not isinstance(site, SiteRef):
            raise ToolInputError(f"expected a SiteRef, got {type(site).__name__}")
        if isinstance(priority, bool) or not isinstance(priority, int | float) or not math.isfinite(priority):
            raise ToolInputError(f"site priority must be a finite number, got {priority!r}")
        if site.url in self._known_site_urls():
            return False
        entry = PendingSite(site=site, priority=float(priority), seq=self.next_site_seq)
        self.next_site_seq += 1
        bisect.insort(self.pending_sites, entry, key=lambda pending: pending.pop_key)
        return True

    def next_site(self) -> SiteRef | None:
        """Move on: β ← α (α recorded as finished if it was not), α ← the best site of P.

        Returns the new α, or None when P is empty (α is then None and β the last site explored).
        Raises `StateError` once the search is complete.
        """
        if self.completion.done:
            raise StateError(f"the search is complete ({self.completion.reason}); no further site is started")
        if self.current_site is not None:
            if not self._is_finished(self.current_site):
                self._record_finished(self.current_site, StopReason.COMPLETED, "moved on to the next site")
            self.previous_site = self.current_site
        self.current_site = self.pending_sites.pop(0).site if self.pending_sites else None
        if self.current_site is not None:
            logger.info("now exploring %s (%s)", self.current_site.name, self.current_site.url)
        return self.current_site

    def finish_current_site(self, reason: StopReason, detail: str = "") -> None:
        """Record why α's exploration ended; the first reason recorded for a site stands.

        α stays current until `next_site`. Raises `StateError` when there is no current site.
        """
        if self.current_site is None:
            raise StateError("there is no current site to finish")
        if not self._is_finished(self.current_site):
            self._record_finished(self.current_site, StopReason(reason), detail)

    def complete(self, reason: StopReason, detail: str = "") -> None:
        """Set γ: the search has ended. The first reason stands; later calls change nothing.

        A current site not yet finished is recorded as finished for the same reason.
        """
        if self.completion.done:
            logger.debug("search already complete (%s); ignoring %s", self.completion.reason, reason)
            return
        stop = StopReason(reason)
        if self.current_site is not None and not self._is_finished(self.current_site):
            self._record_finished(self.current_site, stop, detail)
        self.completion = Completion(done=True, reason=stop, detail=detail)
        logger.info("search complete: %s %s", stop, detail)

    def reopen_if_interrupted(self) -> bool:
        """Undo a stop by the user so the search can go on: γ is cleared and the sites the interruption
        closed are explored again (α stays current; sites explored in parallel go back to P). Any other completion
        stands; returns whether it reopened."""
        if self.completion.reason is not StopReason.INTERRUPTED:
            return False
        closed = [r.site for r in self.finished_sites if r.reason is StopReason.INTERRUPTED]
        self.finished_sites = [r for r in self.finished_sites if r.reason is not StopReason.INTERRUPTED]
        self.completion = Completion()
        for site in closed:  # sites explored in parallel that the stop closed go back to P (α stays current)
            self.add_site(site)
        return True

    def finish_site(self, site: SiteRef, reason: StopReason, detail: str = "") -> None:
        """Record that `site` finished while explored outside α (sites explored in parallel): it leaves P
        and is recorded once; the first reason recorded for a site stands."""
        self.pending_sites = [entry for entry in self.pending_sites if entry.site.url != site.url]
        if not self._is_finished(site):
            self._record_finished(site, StopReason(reason), detail)

    def _record_finished(self, site: SiteRef, reason: StopReason, detail: str) -> None:
        self.finished_sites.append(FinishedSite(site=site, reason=reason, detail=detail))

    def _is_finished(self, site: SiteRef) -> bool:
        return any(record.site.url == site.url for record in self.finished_sites)

    def _known_site_urls(self) -> set[str]:
        known = {entry.site.url for entry in self.pending_sites}
        known.update(record.site.url for record in self.finished_sites)
        if self.current_site is not None:
            known.add(self.current_site.url)
        return known

    def finish_reason(self, site_url: str) -> StopReason | None:
        """Why the site at `site_url` stopped, or None if it has not."""
        canonical = canonicalize_url(site_url)
        return next((record.reason for record in self.finished_sites if record.site.url == canonical), None)

    # ------------------------------------------------------------------ views

    @property
    def has_pending_sites(self) -> bool:
        """True while P is not empty."""
        return bool(self.pending_sites)

    @property
    def is_complete(self) -> bool:
        """γ as a boolean."""
        return self.completion.done

    @property
    def Q(self) -> str:
        """Q, the query."""
        return self.query

    @property
    def P(self) -> list[SiteRef]:
        """P, the sites still to explore, in the order they will be explored (a copy)."""
        return [entry.site for entry in self.pending_sites]

    @property
    def alpha(self) -> SiteRef | None:
        """α, the site being explored."""
        return self.current_site

    @property
    def beta(self) -> SiteRef | None:
        """β, the site explored before α."""
        return self.previous_site

    @property
    def gamma(self) -> Completion:
        """γ, the completion state (truthy when done)."""
        return self.completion

    def invariant_violations(self) -> list[str]:
        """Every broken invariant, described; empty when the context is sound."""
        problems: list[str] = []
        pending = [entry.site.url for entry in self.pending_sites]
        finished = [record.site.url for record in self.finished_sites]
        if len(set(pending)) != len(pending):
            problems.append("a site is pending twice")
        if len(set(finished)) != len(finished):
            problems.append("a site is finished twice")
        if set(pending) & set(finished):
            problems.append("a finished site is still pending")
        if self.current_site is not None and self.current_site.url in pending:
            problems.append("the current site is still pending")
        if len({entry.seq for entry in self.pending_sites}) != len(self.pending_sites):
            problems.append("two pending sites share a sequence number")
        if any(entry.seq >= self.next_site_seq for entry in self.pending_sites):
            problems.append("a pending site has a sequence number not yet issued")
        return problems

    def check_invariants(self) -> None:
        """Raise `StateError` naming every broken invariant."""
        problems = self.invariant_violations()
        if problems:
            raise StateError("Search Context is inconsistent: " + "; ".join(problems))
