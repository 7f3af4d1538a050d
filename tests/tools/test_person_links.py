"""People's pages in the Planner's view: the authors' profiles an item's byline links, and a listing's author facets,
wait behind the pages that may hold works on the request's topic, unless they name an author the request asks for."""

from __future__ import annotations

from research_crawler.context.web_context import WebContext
from research_crawler.pages.person_links import names_one_of, opens_a_persons_page
from research_crawler.tools.hints import HintState
from research_crawler.tools.navigation import get_top_urls

SITE = "http://portal.test/"
ITEM = f"{SITE}articles/journal_contribution/Hidden_Sector_Bosons/21000001"


def _site_after_an_item_page() -> WebContext:
    """A portal after its subject listing and one item page were read: the listing's next page and another item wait
    from the listing; the item page's byline queued its authors' profiles, scored as high by the Crawler, and
    found on the page read last (C's order puts them first)."""
    web = WebContext.for_site(SITE)
    web.take(SITE)
    listing = f"{SITE}categories/Particle_physics"
    web.add_url(listing, 6.0, anchor_text="Particle physics", found_on=SITE)
    web.take(listing)
    web.add_url(f"{listing}?page=2", 5.0, anchor_text="page 2 — the next page of the listing", found_on=listing)
    web.add_url(
        f"{SITE}articles/preprint/Sensitivity_of_An_Active_Calorimeter/21000002",
        5.0,
        anchor_text="Sensitivity of An Active Electromagnetic Calorimeter",
        found_on=listing,
    )
    web.add_url(ITEM, 7.0, anchor_text="Hidden-Sector Bosons and Prompt Decays", found_on=listing)
    web.take(ITEM)
    for number, name in enumerate(("Mei Berg", "Kofi Fischer", "Greta Berg", "Emeka Yilmaz", "Minh Costa"), 1):
        web.add_url(f"{SITE}authors/{name.replace(' ', '_')}/{28650 + number}", 6.0, anchor_text=name, found_on=ITEM)
    return web


def _listed(web: WebContext, k: int, *, authors: list[str] | None = None) -> list[str]:
    state = HintState(subpages_left=3, items_collected=1, authors_asked=authors or [])
    return [pending.anchor_text for pending in get_top_urls(web, k, state=state).urls]


def test_the_authors_profiles_of_an_item_page_wait_behind_the_listings_next_page_and_its_items() -> None:
    web = _site_after_an_item_page()
    first = _listed(web, 3)
    assert first == [
        "page 2 — the next page of the listing",
        "Sensitivity of An Active Electromagnetic Calorimeter",
        "Mei Berg",
    ]
    # C itself keeps the Crawler's scores: the profiles are there, only listed after
    assert web.top_urls(1)[0].anchor_text == "Mei Berg"


def test_a_request_by_an_author_keeps_that_authors_page_in_place_and_the_others_wait() -> None:
    listed = _listed(_site_after_an_item_page(), 3, authors=["Costa"])
    assert listed == [
        "Minh Costa",
        "page 2 — the next page of the listing",
        "Sensitivity of An Active Electromagnetic Calorimeter",
    ]


def test_an_author_facet_of_a_listing_waits_too() -> None:
    web = WebContext.for_site(SITE)
    web.take(SITE)
    listing = f"{SITE}publications"
    web.add_url(listing, 6.0, anchor_text="Publications", found_on=SITE)
    web.take(listing)
    for number, name in enumerate(("Petrova R", "Almeida I", "Kaur N"), 1):
        web.add_url(f"{listing}?f%5Bauthor%5D={number}", 3.5, anchor_text=name, found_on=listing)
    web.add_url(f"{SITE}node/903", 1.0, anchor_text="Postoperative Delirium in Frail Inpatients", found_on=listing)
    assert _listed(web, 1) == ["Postoperative Delirium in Frail Inpatients"]


def test_a_persons_page_is_named_by_both_its_words_and_its_address() -> None:
    assert opens_a_persons_page(f"{SITE}authors/Mei_Berg/28658", "Mei Berg")
    assert opens_a_persons_page(f"{SITE}publications?f%5Bauthor%5D=37", "Petrova R")
    assert opens_a_persons_page(f"{SITE}author=8243398", "Jonas Wang")
    assert opens_a_persons_page(f"{SITE}search/index/?q=authFullName_s%3ARavi+Wang", "Ravi Wang")
    assert opens_a_persons_page(f"{SITE}personen/schmidt", "Anna Schmidt")
    # a subject whose name reads like a person's, an index of people, an item titled with a name: none of them
    assert not opens_a_persons_page(f"{SITE}categories/Environmental_biotechnology", "Environmental Biotechnology")
    assert not opens_a_persons_page(f"{SITE}people", "People")
    assert not opens_a_persons_page(f"{SITE}node/903", "Postoperative Delirium in Frail Inpatients")
    assert not opens_a_persons_page(f"{SITE}user/login/", "Log in")


def test_a_link_names_a_requested_author_by_their_surname_written_either_way() -> None:
    assert names_one_of("Petrova R", ["Petrova"])
    assert names_one_of("Elena Pétrova", ["Petrova"])
    assert names_one_of("Lukas O'Connor", ["Sean O'Connor"])
    assert not names_one_of("Mei Berg", ["Weber"])
    assert not names_one_of("Mei Berg", [])
