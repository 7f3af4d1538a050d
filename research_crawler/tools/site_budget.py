"""A site's page budget that follows what the site yields, as a careful person spends their time.

A site starts with `explore.max_subpages` pages (the paper's five). Each time they are spent, the site earns
`explore.subpages_step` more — up to `explore.max_subpages_earned` in all — when the pages it was last given still
gave relevant items (stored or confirmed on them, of the request's dates when it has some), or when its last page
queued the next page of a listing (or links to the dates asked for) on a site that has given relevant items already,
or when its last page was a navigation page that showed promising links not seen before (`PageYield.finds_the_way`:
a site's index, a grid of issues, a table of contents — how a person finds the works of a journal kept in its back
issues), and the step before was not itself earned so: a site that earned a step by finding its way and then gave
nothing earns no second one that way. A site that has given nothing yet earns one step too when its last page was the
first of its pages to open a listing that goes on (its next page queued, or links to the dates asked for): a person
who comes on a site's list of works (its bibliography, its archive by year) only on the last page they meant to give
it reads on rather than leave it unread (the Crawler scores such a last page's links: `may_grow_by_a_listing`); a
site whose earlier pages led on already has had its chance that way. A work's own page never finds the way, whatever
it links (its PDF, its claim page): a page of a work judged off-topic always costs and earns nothing. The pages
judged are those read since the last grant: its base pages as a whole for the first (a site whose search results or
first listing gave the works, and whose next pages were spent finding the way on, has shown it holds them), the
step's pages after that. A site
that gives nothing, and whose pages find no way on, stays at its base, and the stuck detector may leave it sooner. A
ceiling at or below the base is the paper's fixed budget, exactly; so is a base below the paper's five under the
default ceiling, which a user sets to keep a run small. Whatever pages went free (`WebContext.empty_pages`), a site
never reads more pages than the ceiling the user set (`pages_left`).

The ledgers live beside the run's other findings (one per site URL, shared by the sites explored at once); the
callers hold the exploration's lock. They are saved with the run's state, so a run killed and resumed keeps the pages
its sites had earned; a follow-up query starts every site at its base again. A saved ledger is data from a run
directory: it is checked when read, and never lets a site past the ceiling.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from research_crawler.config.sections import ExploreSettings
from research_crawler.errors import CorruptStateError

__all__ = ["PAPER_SUBPAGES", "BudgetGrant", "PageYield", "SiteBudget"]

#: The paper's per-site page limit: a smaller `explore.max_subpages` under the default ceiling is a fixed cap.
PAPER_SUBPAGES = 5
_DEFAULT_CEILING = ExploreSettings.model_fields["max_subpages_earned"].default
_FOUND_THE_WAY = (
    "its last page, a navigation page (an index, a grid of issues, a table of contents), showed promising links"
)
_FOUND_A_LISTING = (
    "its last page was the first of the site to open a listing that goes on (its next page, or the dates asked for)"
)


@dataclass(frozen=True)
class PageYield:
    """What one page read on a site gave toward the request."""

    relevant_items: int
    """Items the Collector stored or confirmed on it that count toward the request."""
    leads: bool = False
    """It queued the next page of a listing, or links naming the dates asked for."""
    finds_the_way: bool = False
    """It was a navigation page (`pages/navigation_pages.py`) that gave no relevant item and queued promising links
    not seen before: a step toward the site's works."""


@dataclass(frozen=True)
class BudgetGrant:
    """Pages a site earned: `earned` more, `limit` in all, and why (for the trace and the Planner)."""

    earned: int
    limit: int
    reason: str

    def sentence(self, ceiling: int) -> str:
        """The grant as the page report says it."""
        return f"this site earned {self.earned} more subpage(s), {self.limit} in all (at most {ceiling}): {self.reason}"


@dataclass
class _Ledger:
    extra: int = 0
    pages: list[PageYield] = field(default_factory=list)
    granted_at: int = 0
    """How many of `pages` were read when the site last earned pages (0 before its first grant)."""
    found_the_way: bool = False
    """Its last grant was earned by a navigation page or a listing's first page alone (no relevant item among the
    pages it judged)."""


class _SavedPage(BaseModel):
    model_config = ConfigDict(extra="forbid")

    relevant_items: int = Field(ge=0)
    leads: bool = False
    finds_the_way: bool = False


class _SavedLedger(BaseModel):
    model_config = ConfigDict(extra="forbid")

    extra: int = Field(ge=0)
    pages: list[_SavedPage] = Field(default_factory=list)
    granted_at: int = Field(0, ge=0)
    found_the_way: bool = False


@dataclass
class SiteBudget:
    """The pages each site may read: its base, and what it has earned since."""

    ledgers: dict[str, _Ledger] = field(default_factory=dict)

    def saved(self) -> dict[str, Any]:
        """The ledgers as JSON for the run's state file (`restored` reads them back)."""
        return {
            site: {
                "extra": ledger.extra,
                "pages": [vars(page) for page in ledger.pages],
                "granted_at": ledger.granted_at,
                "found_the_way": ledger.found_the_way,
            }
            for site, ledger in self.ledgers.items()
        }

    @classmethod
    def restored(cls, saved: dict[str, Any]) -> SiteBudget:
        """The budget a resumed run goes on with; CorruptStateError when the saved ledgers are not well formed."""
        ledgers: dict[str, _Ledger] = {}
        for site, raw in saved.items():
            try:
                ledger = _SavedLedger.model_validate(raw)
            except ValidationError as exc:
                first = exc.errors()[0]
                where = ".".join(str(part) for part in first["loc"]) or "the ledger"
                raise CorruptStateError(
                    f"the page budget saved for {site!r} is invalid ({where}: {first['msg']})"
                ) from None
            pages = [
                PageYield(relevant_items=page.relevant_items, leads=page.leads, finds_the_way=page.finds_the_way)
                for page in ledger.pages
            ]
            granted_at = min(ledger.granted_at, len(pages))
            ledgers[site] = _Ledger(
                extra=ledger.extra, pages=pages, granted_at=granted_at, found_the_way=ledger.found_the_way
            )
        return cls(ledgers=ledgers)

    @staticmethod
    def ceiling(explore: ExploreSettings) -> int:
        """The most pages a site may reach; the base when the budget is fixed. A base below the paper's five with
        the default ceiling (`--max-subpages 2`, a batch entry's or the small-local preset's smaller budget) is a cap
        the run was asked to keep: such a site earns nothing unless a ceiling of its own is set too."""
        if explore.max_subpages < PAPER_SUBPAGES and explore.max_subpages_earned == _DEFAULT_CEILING:
            return explore.max_subpages
        return max(explore.max_subpages, explore.max_subpages_earned)

    def limit(self, site_url: str, explore: ExploreSettings) -> int:
        """The pages the site at `site_url` may read now (never past the ceiling, whatever a saved ledger says)."""
        ledger = self.ledgers.get(site_url)
        earned = explore.max_subpages + (ledger.extra if ledger else 0)
        return min(earned, self.ceiling(explore))

    def pages_left(self, site_url: str, used: int, read: int, explore: ExploreSettings) -> int:
        """The pages the site at `site_url` may still read, `used` of its pages counted and `read` read in all (a page
        that went free is read all the same): never one past the ceiling the user set (`max_subpages_earned`, or the
        base when that is larger; a base below the paper's five under the default ceiling caps the pages counted, and
        an empty page may still go free under it)."""
        most = max(explore.max_subpages, explore.max_subpages_earned)
        return max(0, min(self.limit(site_url, explore) - used, most - read))

    def may_grow(self, site_url: str, explore: ExploreSettings) -> bool:
        """Whether the site may still earn pages from what it has given so far (its page being read not counted): a
        last page then still has its links scored, as they may be opened after all."""
        if self.limit(site_url, explore) >= self.ceiling(explore):
            return False
        return self._why(self.ledgers.get(site_url, _Ledger()), explore) is not None

    def may_grow_by_a_listing(self, site_url: str, explore: ExploreSettings) -> bool:
        """Whether the site would earn pages if its page being read opens a listing that goes on (`_FOUND_A_LISTING`):
        the links of such a last page are worth scoring."""
        if self.limit(site_url, explore) >= self.ceiling(explore):
            return False
        ledger = self.ledgers.get(site_url, _Ledger())
        return not any(page.leads for page in ledger.pages)

    def gave_items(self, site_url: str) -> bool:
        """Whether any page read on the site so far gave relevant items."""
        ledger = self.ledgers.get(site_url)
        return ledger is not None and any(page.relevant_items for page in ledger.pages)

    def note_page(self, site_url: str, used: int, page: PageYield, explore: ExploreSettings) -> BudgetGrant | None:
        """Record what a page of the site gave, `used` of its pages now counted; the pages it earns once its budget is
        spent (None when it earns none)."""
        ledger = self.ledgers.setdefault(site_url, _Ledger())
        ledger.pages.append(page)
        limit, ceiling = self.limit(site_url, explore), self.ceiling(explore)
        if used < limit or limit >= ceiling:
            return None
        reason = self._why(ledger, explore)
        if reason is None:
            return None
        earned = min(explore.subpages_step, ceiling - limit)
        ledger.extra += earned
        ledger.found_the_way = reason in (_FOUND_THE_WAY, _FOUND_A_LISTING)
        ledger.granted_at = len(ledger.pages)
        return BudgetGrant(earned=earned, limit=limit + earned, reason=reason)

    @staticmethod
    def _why(ledger: _Ledger, explore: ExploreSettings) -> str | None:
        """Why the site deserves more pages, from the pages read since it last earned some (all of them before its
        first grant); None when it does not."""
        recent = ledger.pages[ledger.granted_at :]
        items = sum(page.relevant_items for page in recent)
        if items:
            return f"{items} relevant item(s) stored or confirmed on its last {len(recent)} page(s)"
        given = any(page.relevant_items for page in ledger.pages)
        if given and recent and recent[-1].leads:
            return "its last page queued the next page of a listing (or the dates asked for) on a site that gave items"
        if recent and recent[-1].finds_the_way and not ledger.found_the_way:
            return _FOUND_THE_WAY
        if recent and recent[-1].leads and not any(page.leads for page in ledger.pages[:-1]):
            return _FOUND_A_LISTING
        return None
