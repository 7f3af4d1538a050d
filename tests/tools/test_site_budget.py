"""A site's page budget follows what it yields: a yielding site earns pages in steps up to the ceiling, a site that
yields nothing stays at its base, and a ceiling at the base is the paper's fixed budget."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from research_crawler.config.sections import ExploreSettings
from research_crawler.errors import CorruptStateError
from research_crawler.tools.site_budget import PageYield, SiteBudget

SITE = "https://example.org/"


def _read(budget: SiteBudget, explore: ExploreSettings, pages: list[PageYield]) -> int:
    """Read `pages` one after another while the site has pages left; how many were read."""
    used = 0
    for page in pages:
        if used >= budget.limit(SITE, explore):
            break
        used += 1
        budget.note_page(SITE, used, page, explore)
    return used


def test_a_site_that_keeps_yielding_earns_pages_in_steps_up_to_the_ceiling() -> None:
    explore = ExploreSettings(max_subpages=5, max_subpages_earned=12, subpages_step=3)
    budget = SiteBudget()
    assert _read(budget, explore, [PageYield(relevant_items=1)] * 30) == 12
    assert budget.limit(SITE, explore) == 12
    assert not budget.may_grow(SITE, explore)


def test_each_grant_is_said_when_the_pages_are_spent_and_why() -> None:
    explore = ExploreSettings(max_subpages=2, max_subpages_earned=10, subpages_step=3)
    budget = SiteBudget()
    assert budget.note_page(SITE, 1, PageYield(relevant_items=4), explore) is None  # a page is still left
    grant = budget.note_page(SITE, 2, PageYield(relevant_items=0), explore)
    assert grant is not None and (grant.earned, grant.limit) == (3, 5)
    assert "4 relevant item(s)" in grant.reason and "earned 3 more subpage(s), 5 in all (at most 10)" in grant.sentence(
        10
    )


def test_a_site_that_yields_nothing_stays_at_its_base() -> None:
    explore = ExploreSettings(max_subpages=5, max_subpages_earned=14, subpages_step=3)
    budget = SiteBudget()
    assert _read(budget, explore, [PageYield(relevant_items=0, leads=True)] * 30) == 5
    assert budget.limit(SITE, explore) == 5 and not budget.may_grow(SITE, explore)


def test_a_site_whose_yield_dries_up_stops_earning() -> None:
    explore = ExploreSettings(max_subpages=5, max_subpages_earned=14, subpages_step=3)
    budget = SiteBudget()
    pages = [PageYield(relevant_items=n) for n in (0, 0, 0, 0, 2, 0, 0, 0, 0, 0)]
    assert _read(budget, explore, pages) == 8  # one step for the fifth page's items; the next three gave none


def test_a_site_whose_first_pages_gave_the_works_earns_a_step_for_its_base_as_a_whole() -> None:
    """Its search results (the first page) held the works; the next four pages were spent finding the way on (an
    archive, an issue, a browse page): the base pages are judged as a whole, the step after them on its own."""
    explore = ExploreSettings(max_subpages=5, max_subpages_earned=14, subpages_step=3)
    budget = SiteBudget()
    pages = [PageYield(relevant_items=n) for n in (2, 0, 0, 0, 0)]
    assert _read(budget, explore, [*pages, *[PageYield(relevant_items=0)] * 10]) == 8
    assert not budget.may_grow(SITE, explore)


def test_a_later_step_is_judged_by_its_own_pages_only() -> None:
    explore = ExploreSettings(max_subpages=5, max_subpages_earned=14, subpages_step=3)
    budget = SiteBudget()
    pages = [PageYield(relevant_items=n) for n in (3, 3, 3, 3, 3, 0, 0, 0, 1, 1)]
    assert _read(budget, explore, pages) == 8  # the base earned a step; that step's three pages gave nothing


def test_a_listing_that_goes_on_earns_pages_on_a_site_that_gave_items() -> None:
    explore = ExploreSettings(max_subpages=4, max_subpages_earned=13, subpages_step=2)
    budget = SiteBudget()
    pages = [PageYield(relevant_items=n, leads=lead) for n, lead in ((3, False), (0, False), (0, False), (0, True))]
    assert _read(budget, explore, [*pages, *[PageYield(relevant_items=0)] * 10]) == 6


def test_a_ceiling_at_the_base_is_the_fixed_budget() -> None:
    for ceiling in (5, 3, 1):
        explore = ExploreSettings(max_subpages=5, max_subpages_earned=ceiling, subpages_step=3)
        budget = SiteBudget()
        assert _read(budget, explore, [PageYield(relevant_items=5, leads=True)] * 30) == 5
        assert not budget.may_grow(SITE, explore)


def test_sites_earn_pages_each_for_itself() -> None:
    explore = ExploreSettings(max_subpages=1, max_subpages_earned=5, subpages_step=2)
    budget = SiteBudget()
    budget.note_page(SITE, 1, PageYield(relevant_items=2), explore)
    budget.note_page("https://other.example/", 1, PageYield(relevant_items=0), explore)
    assert budget.limit(SITE, explore) == 3 and budget.limit("https://other.example/", explore) == 1


def test_a_base_below_the_papers_five_is_a_cap_that_earns_nothing() -> None:
    """`--max-subpages 2` asks for a small run: under the default ceiling the site keeps its two pages however
    much it yields (a ceiling of one's own, as the other tests set, lets it grow)."""
    explore = ExploreSettings(max_subpages=2, max_subpages_earned=14, subpages_step=3)
    budget = SiteBudget()
    assert budget.ceiling(explore) == 2
    assert budget.note_page("http://site/", 1, PageYield(relevant_items=4), explore) is None
    assert budget.note_page("http://site/", 2, PageYield(relevant_items=4), explore) is None
    assert budget.limit("http://site/", explore) == 2


def test_the_saved_budget_is_restored_exactly_and_goes_on_earning() -> None:
    explore = ExploreSettings(max_subpages=2, max_subpages_earned=10, subpages_step=2)
    budget = SiteBudget()
    assert _read(budget, explore, [PageYield(relevant_items=1, leads=True)] * 4) == 4
    restored = SiteBudget.restored(json.loads(json.dumps(budget.saved())))
    assert restored == budget and restored.limit(SITE, explore) == budget.limit(SITE, explore) == 6
    assert restored.note_page(SITE, 6, PageYield(relevant_items=2), explore) is not None  # earns on from its record
    assert restored.limit(SITE, explore) == 8


@pytest.mark.parametrize(
    "saved",
    [
        {SITE: {"extra": -3, "pages": []}},
        {SITE: {"extra": 2, "pages": [{"relevant_items": "many"}]}},
        {SITE: {"extra": 2, "pages": [], "run": "rm -rf ~"}},
        {SITE: ["not", "a", "ledger"]},
    ],
)
def test_a_damaged_saved_budget_is_a_clear_error(saved: dict[str, Any]) -> None:
    with pytest.raises(CorruptStateError, match=re.escape(f"page budget saved for {SITE!r} is invalid")):
        SiteBudget.restored(saved)


def test_a_saved_budget_never_lets_a_site_past_the_ceiling() -> None:
    explore = ExploreSettings(max_subpages=5, max_subpages_earned=14, subpages_step=3)
    budget = SiteBudget.restored({SITE: {"extra": 1000, "pages": []}})
    assert budget.limit(SITE, explore) == 14
    fixed = ExploreSettings(max_subpages=3, max_subpages_earned=3)
    assert budget.limit(SITE, fixed) == 3


NAVIGATION = PageYield(relevant_items=0, finds_the_way=True)
NOTHING = PageYield(relevant_items=0)


def test_a_site_whose_works_lie_deep_earns_a_step_by_finding_its_way() -> None:
    """Start page, index of journals, a journal, its grid of issues, a table of contents: the base spent on the way
    in, the last page showing promising links, earns one step; its papers then earn on."""
    explore = ExploreSettings(max_subpages=5, max_subpages_earned=14, subpages_step=3)
    budget = SiteBudget()
    for used in range(1, 5):
        assert budget.note_page(SITE, used, NAVIGATION, explore) is None
    grant = budget.note_page(SITE, 5, NAVIGATION, explore)
    assert grant is not None and (grant.earned, grant.limit) == (3, 8)
    assert "navigation page" in grant.reason
    budget.note_page(SITE, 6, NOTHING, explore)
    budget.note_page(SITE, 7, PageYield(relevant_items=1), explore)
    later = budget.note_page(SITE, 8, NOTHING, explore)
    assert later is not None and "relevant item(s)" in later.reason and later.limit == 11


def test_finding_the_way_earns_no_second_step_in_a_row() -> None:
    """A site that earned a step by its navigation pages and gave nothing in it is not followed further down."""
    explore = ExploreSettings(max_subpages=5, max_subpages_earned=14, subpages_step=3)
    budget = SiteBudget()
    assert _read(budget, explore, [NAVIGATION] * 30) == 8
    assert not budget.may_grow(SITE, explore)


def test_a_work_page_judged_off_topic_earns_nothing_even_after_the_way_in() -> None:
    """Work pages judged off-topic (nothing relevant, no way on: their PDF and claim page are no navigation) cost
    their page and earn no step."""
    explore = ExploreSettings(max_subpages=3, max_subpages_earned=9, subpages_step=2)
    budget = SiteBudget()
    assert _read(budget, explore, [NAVIGATION, NAVIGATION, NAVIGATION, NOTHING, NOTHING, NOTHING]) == 5


def test_a_site_never_reads_past_the_ceiling_whatever_went_free() -> None:
    explore = ExploreSettings(max_subpages=5, max_subpages_earned=6, subpages_step=3)
    budget = SiteBudget()
    assert budget.pages_left(SITE, used=3, read=5, explore=explore) == 1, "two free pages: one left to the ceiling"
    assert budget.pages_left(SITE, used=4, read=6, explore=explore) == 0
    fixed = ExploreSettings(max_subpages=5, max_subpages_earned=5)
    assert budget.pages_left(SITE, used=3, read=4, explore=fixed) == 1
    assert budget.pages_left(SITE, used=2, read=2, explore=fixed) == 3
    small = ExploreSettings(max_subpages=2)  # a run asked to stay small: two pages counted, an empty one may go free
    assert budget.pages_left(SITE, used=1, read=2, explore=small) == 1


def test_the_way_found_is_saved_with_the_budget() -> None:
    explore = ExploreSettings(max_subpages=2, max_subpages_earned=10, subpages_step=2)
    budget = SiteBudget()
    assert _read(budget, explore, [NAVIGATION] * 2) == 2
    restored = SiteBudget.restored(json.loads(json.dumps(budget.saved())))
    assert restored == budget and restored.limit(SITE, explore) == 4
    assert restored.note_page(SITE, 4, NAVIGATION, explore) is None, "a second step in a row is not earned so"


def test_a_site_that_gave_nothing_earns_one_step_when_its_last_page_first_opens_a_listing() -> None:
    explore = ExploreSettings(max_subpages=5, max_subpages_earned=14, subpages_step=3)
    budget = SiteBudget()
    nothing, listing = PageYield(relevant_items=0), PageYield(relevant_items=0, leads=True)
    assert budget.may_grow_by_a_listing(SITE, explore)
    # four pages of menus, then the site's list of works, whose first page holds nothing asked for: it is read on
    assert _read(budget, explore, [nothing] * 4 + [listing] * 30) == 8
    assert budget.limit(SITE, explore) == 8
    assert not budget.may_grow_by_a_listing(SITE, explore)  # the listing was found once: it earns no second step


def test_the_first_listing_earns_no_step_past_the_ceiling() -> None:
    explore = ExploreSettings(max_subpages=5, max_subpages_earned=5, subpages_step=3)
    budget = SiteBudget()
    assert not budget.may_grow_by_a_listing(SITE, explore)
    assert _read(budget, explore, [PageYield(relevant_items=0)] * 4 + [PageYield(relevant_items=0, leads=True)]) == 5
