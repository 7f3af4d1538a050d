"""The parts of a work whose own page was read — its PDF, its "Download", its claims — wait in the Planner's view
behind the pages that may hold new works, marked "(collected)": opening them finds the same work again."""

from __future__ import annotations

from research_crawler.context.web_context import WebContext
from research_crawler.tools.hints import HintState
from research_crawler.tools.navigation import get_top_urls

SITE = "http://register.test/"
ITEM = f"{SITE}publication/EP4229651A1"
LISTING = f"{SITE}classification/C04B"


def _register_after_an_item_page(*, collected: bool = True) -> WebContext:
    """A register after a classification listing and one patent's page were read: the listing's other patent and its
    next page wait; the patent's page queued its claims, its original document and a "Download" of its full text,
    found on the page read last and scored high by the Crawler (the patent's title is all around them)."""
    web = WebContext.for_site(SITE)
    web.take(SITE)
    web.add_url(LISTING, 6.0, anchor_text="C04B", found_on=SITE)
    web.take(LISTING)
    web.add_url(f"{SITE}publication/EP4253408A1", 5.0, anchor_text="UREA-FREE NUTRIENT MIXES IN BRIDGE DECK OVERLAYS",
                found_on=LISTING)  # fmt: skip
    web.add_url(f"{LISTING}?page=2", 5.0, anchor_text="page 2 — the next page of the listing", found_on=LISTING)
    web.add_url(ITEM, 7.0, anchor_text="SELF-HEALING CONCRETE WITH BACTERIAL SPORES", found_on=LISTING)
    web.take(ITEM)
    if collected:
        web.add_item(ITEM, title="Self-healing concrete with bacterial spores", score=9.0, found_on=ITEM,
                     authors=["Ana Torres"])  # fmt: skip
    web.add_url(f"{ITEM}/claims", 8.0, anchor_text="Claims", found_on=ITEM)
    web.add_url(f"{ITEM}/original-document.pdf", 8.0, anchor_text="Original document", found_on=ITEM)
    web.add_url(f"{SITE}cgi/viewcontent.cgi?article=1036", 8.0, anchor_text="Download", found_on=ITEM)
    return web


def _listing(web: WebContext, k: int) -> list[str]:
    state = HintState(subpages_left=3, items_collected=1)
    return get_top_urls(web, k, state=state).message.splitlines()[1 : k + 1]


def test_the_parts_of_a_work_read_wait_behind_the_pages_that_may_hold_new_works() -> None:
    lines = _listing(_register_after_an_item_page(), 5)
    assert [line.split(" — ")[0] for line in lines] == [
        "1. /publication/EP4253408A1",
        "2. /classification/C04B?page=2",
        "3. /publication/EP4229651A1/claims",
        "4. /publication/EP4229651A1/original-document.pdf",
        "5. /cgi/viewcontent.cgi?article=1036",
    ]
    assert all(line.endswith("(collected)") for line in lines[2:])
    assert not any(line.endswith("(collected)") for line in lines[:2])


def test_an_item_page_whose_work_was_not_collected_keeps_its_links_in_place() -> None:
    # the page was read but held no work of the request: its links are not parts of a work read
    lines = _listing(_register_after_an_item_page(collected=False), 3)
    assert [line.split(" — ")[0] for line in lines] == [
        "1. /publication/EP4229651A1/claims",
        "2. /publication/EP4229651A1/original-document.pdf",
        "3. /cgi/viewcontent.cgi?article=1036",
    ]


def test_a_titled_link_or_a_numbered_page_below_a_collected_address_keeps_its_place() -> None:
    # a listing taken for an item lists its works and its next pages below its own address: never parts of one work
    web = WebContext.for_site(SITE)
    web.take(SITE)
    section = f"{SITE}biology_facpubs/"
    web.add_url(section, 6.0, anchor_text="Biology Faculty Publications", found_on=SITE)
    web.take(section)
    web.add_item(section, title="Biology Faculty Publications", score=6.0, found_on=section, authors=["Tidewater"])
    web.add_url(f"{section}131", 5.0, anchor_text="Five Years of Limestone Marl Mounds: Salinity Regimes",
                found_on=section)  # fmt: skip
    web.add_url(f"{section}index.2.html", 5.0, anchor_text="2", found_on=section)
    assert [line.split(" — ")[0] for line in _listing(web, 2)] == [
        "1. /biology_facpubs/131",
        "2. /biology_facpubs/index.2.html",
    ]
