"""The nineteenth batch of fresh held-out sites (`eval/testbed/fresh_heldout19*.py`) as built, served on loopback:
each structure they claim, and every relevant item reachable from the home page as a visitor reaches it (the links a
person clicks, paging included, and on the portal the cards its script adds as one scrolls) within robots.txt, with
a robots.txt that shuts the way showing the check can fail. No crawler runs here: their first benchmark run is the
measure, and it is the lead's."""

from __future__ import annotations

import json
import re
from datetime import date

import lxml.html
import pytest
from site_visitor import Served, check_reachable, links_of, missing, page_of, robots_of, url_of, visit

from research_crawler.eval.testbed import Testbed
from research_crawler.eval.testbed.fresh_heldout19 import FRESH19_SITE_SPECS, figshare_slug
from research_crawler.eval.testbed.fresh_heldout19_hep import (
    EXPERIMENTS,
    experiment_of,
    inspire_date,
    journal_ref,
    most_recent,
)
from research_crawler.eval.testbed.fresh_heldout19_hep import PER_PAGE as HEP_PAGE
from research_crawler.eval.testbed.fresh_heldout19_library import (
    COLLECTIONS,
    PER_PAGE,
    apa_citation,
    ingest_order,
    solr_date,
)
from research_crawler.eval.testbed.fresh_heldout19_portal import SHOWN, author_path, newest_first, posted_time

SITES = [spec.name for spec in FRESH19_SITE_SPECS]
PORTAL, HEP, LIBRARY = "fresh19-portal", "fresh19-hep", "fresh19-library"
ARTICLE = r"/articles/[a-z_]+/[A-Za-z0-9_]+/\d{8}"
RECORD = r"/literature/\d{7}"
OBJECT = r"/islandora/object/thornbury:\d+"


def _scrolled(get: Served, address: str) -> list[str]:
    """The item links a listing of the portal shows, then those its script fetches from the API, page by page."""
    page = page_of(get, PORTAL, address)
    shown = links_of(page, ARTICLE)
    state = json.loads(lxml.html.fromstring(page).get_element_by_id("scroll-state").text)
    api, base = state["api"], get[0].base_url(PORTAL).rstrip("/")
    while True:
        rows = json.loads(page_of(get, PORTAL, api))
        if not rows:
            return shown
        shown += [row["url_public_html"].removeprefix(base) for row in rows]
        offset = int(re.search(r"offset=(\d+)", api).group(1))  # type: ignore[union-attr]
        api = api.replace(f"offset={offset}", f"offset={offset + state['limit']}")


def _pages(get: Served, site: str, first: str, pattern: str, following: str) -> list[str]:
    """The links matching `pattern` on `first` and on each page its `following` link (a regex group) leads to."""
    page, found = page_of(get, site, first), []
    while True:
        found += links_of(page, pattern)
        step = re.search(following, page)
        if step is None:
            return found
        page = page_of(get, site, step.group(1).replace("&amp;", "&"))


# ---------------------------------------------------------------------------------------------- portal


def test_the_portal_shows_a_first_screen_of_cards_and_its_script_fetches_the_rest_newest_first(
    web: Testbed, get: Served
) -> None:
    items = web.items_on(PORTAL)
    home = page_of(get, PORTAL, "/")
    categories = links_of(home, r"/categories/[A-Za-z_]+")
    assert categories == [f"/categories/{figshare_slug(c)}" for c in dict.fromkeys(i.category for i in items)]
    assert links_of(home, ARTICLE) == [i.path for i in newest_first(items)[:4]]
    reached: list[str] = []
    for link in categories:
        mine = newest_first([i for i in items if figshare_slug(i.category) == link.rsplit("/", 1)[1]])
        assert links_of(page_of(get, PORTAL, link), ARTICLE) == [i.path for i in mine[:SHOWN]] and len(mine) > SHOWN
        shown = _scrolled(get, link)
        assert shown == [i.path for i in mine]
        reached += shown
    assert sorted(reached) == sorted(i.path for i in items)
    assert _scrolled(get, "/browse") == [i.path for i in newest_first(items)]
    assert "page=" not in page_of(get, PORTAL, "/browse")  # no pager: the rest comes only by scrolling
    robots = robots_of(get, PORTAL)
    assert not robots.can_fetch(url_of(get, PORTAL, "/search?q=dark"), "*")
    assert not robots.can_fetch(url_of(get, PORTAL, items[0].pdf_path), "*")
    assert robots.can_fetch(url_of(get, PORTAL, items[0].path), "*")


def test_a_portal_item_gives_its_type_posted_time_and_authors_and_the_publishers_doi_when_published(
    web: Testbed, get: Served
) -> None:
    items = web.items_on(PORTAL)
    for item in items:
        page = page_of(get, PORTAL, item.path)
        assert f"<p>Posted on {posted_time(item)}</p>" in page
        day = date.fromisoformat(item.date)
        assert f'<meta name="citation_publication_date" content="{day:%Y/%m/%d}" />' in page
        assert links_of(page, r"/authors/[A-Za-z_]+/\d+") == [author_path(a) for a in item.authors]
        assert item.path in _scrolled(get, author_path(item.authors[0]))
        assert ("Publisher DOI" in page) == bool(item.work)
    shared = [i for i in items if i.work]
    assert len(shared) == 3
    for item in shared:
        record = next(c for c in web.copies_of(item) if c.site == HEP)
        assert record.date > item.date and f"https://doi.org/{record.doi}" in page_of(get, PORTAL, item.path)
        assert f'href="{url_of(get, PORTAL, item.path)}"' in page_of(get, HEP, record.path)
    assert get[1].get(url_of(get, PORTAL, items[0].path.replace("/articles/", "/articles/x"))).status_code == 404


# ---------------------------------------------------------------------------------------------- database


def test_the_database_lists_categories_and_experiments_as_searches_most_recent_first_ten_a_page(
    web: Testbed, get: Served
) -> None:
    items = web.items_on(HEP)
    home = page_of(get, HEP, "/")
    searches = links_of(home, r"/literature\?[^\"]+")
    assert [s.rsplit("%20", 1)[1] for s in searches] == sorted(EXPERIMENTS)
    every: list[str] = []
    for search in searches:
        category = search.rsplit("%20", 1)[1]
        first = page_of(get, HEP, search)
        pages = list(
            dict.fromkeys([search, *links_of(first, r"/literature\?sort=mostrecent&amp;[^\"]*page=\d+[^\"]*")])
        )
        assert len(pages) == -(-sum(i.category == category for i in items) // HEP_PAGE)
        shown = [p for address in pages for p in dict.fromkeys(links_of(page_of(get, HEP, address), RECORD))]
        assert shown == [i.path for i in most_recent([i for i in items if i.category == category])]
        every += shown
    assert sorted(every) == sorted(i.path for i in items) and len(items) > HEP_PAGE
    by_experiment: list[str] = []
    for experiment in links_of(page_of(get, HEP, "/experiments"), r"/experiments/\d{7}"):
        listing = links_of(page_of(get, HEP, experiment), r"/literature\?[^\"]+")[0]
        shown = list(dict.fromkeys(links_of(page_of(get, HEP, listing), RECORD)))
        name = listing.rsplit("%20", 1)[1]
        assert shown == [i.path for i in most_recent([i for i in items if experiment_of(i)[0] == name])]
        by_experiment += shown
    assert sorted(by_experiment) == sorted(every)
    cited = page_of(get, HEP, searches[0].replace("sort=mostrecent", "sort=mostcited"))
    assert links_of(cited, RECORD) != links_of(page_of(get, HEP, searches[0]), RECORD)
    robots = robots_of(get, HEP)
    assert not robots.can_fetch(url_of(get, HEP, f"{items[0].path}/export?format=bibtex"), "*")
    assert not robots.can_fetch(url_of(get, HEP, f"/literature?q=refersto%3Arecid%3A{items[0].key}"), "*")
    assert robots.can_fetch(url_of(get, HEP, searches[0]), "*")


def test_a_record_gives_authors_with_affiliations_the_date_as_inspire_writes_it_and_profiles_list_them(
    web: Testbed, get: Served
) -> None:
    items = web.items_on(HEP)
    for item in items:
        page = page_of(get, HEP, item.path)
        day = date.fromisoformat(item.date)
        assert f"<div>Published: {inspire_date(day)}</div>" in page and f"Published in: {journal_ref(item)}" in page
        assert ("e-Print: " in page) == bool(item.arxiv_id) and (item.arxiv_id is None) == bool(item.work)
        profiles = links_of(page, r"/authors/\d{7}")
        assert len(profiles) == len(item.authors)
        given, _, surname = item.authors[0].rpartition(" ")
        profile = page_of(get, HEP, profiles[0])
        assert f"<h2>{surname}, {given}</h2>" in profile and item.path in links_of(profile, RECORD)
    assert inspire_date(date(2024, 3, 5)) == "Mar 5, 2024"


# ---------------------------------------------------------------------------------------------- library


def test_the_library_lists_each_collection_in_ingest_order_twelve_a_page_counting_from_zero(
    web: Testbed, get: Served
) -> None:
    items = web.items_on(LIBRARY)
    front = page_of(get, LIBRARY, "/")
    assert links_of(front, OBJECT) == [i.path for i in ingest_order(items)[::-1][:3]]
    root = page_of(get, LIBRARY, "/islandora/object/thornbury:root")
    collections = [c for c in dict.fromkeys(links_of(root, r"/islandora/object/thornbury:[a-z]+")) if "root" not in c]
    assert collections == [f"/islandora/object/thornbury:{name}" for name in COLLECTIONS]
    reached: list[str] = []
    for link in collections:
        shown = _pages(get, LIBRARY, link, OBJECT, r'<li class="pager-next"><a href="([^"]+)">')
        shown = list(dict.fromkeys(shown))
        listed = list(
            dict.fromkeys(_pages(get, LIBRARY, f"{link}?display=list", OBJECT, r'pager-next"><a href="([^"]+)'))
        )
        assert listed == shown and len(shown) > PER_PAGE
        assert [int(p.rsplit(":", 1)[1]) for p in shown] == sorted(int(p.rsplit(":", 1)[1]) for p in shown)
        mine = [i for i in items if i.path in shown]
        assert mine and ingest_order(mine) != sorted(mine, key=lambda i: i.date)  # ingested, not by date
        assert f'href="{link}?page=1">2</a>' in page_of(get, LIBRARY, link)
        reached += [p for p in shown if p in {i.path for i in items}]
    assert sorted(reached) == sorted(i.path for i in items)
    robots = robots_of(get, LIBRARY)
    assert not robots.can_fetch(url_of(get, LIBRARY, "/islandora/search/%22parchment%22?type=dismax"), "*")
    assert not robots.can_fetch(url_of(get, LIBRARY, f"{items[0].path}/manage"), "*")
    assert robots.can_fetch(url_of(get, LIBRARY, f"{collections[0]}?page=1"), "*")


def test_an_object_shows_its_apa_citation_and_mods_details_with_solr_dates(web: Testbed, get: Served) -> None:
    items = web.items_on(LIBRARY)
    for item in items:
        page = page_of(get, LIBRARY, item.path).replace("&amp;", "&")
        assert f'<div class="citation">{apa_citation(item)}</div>' in page.replace("&#x27;", "'")
        assert f"<dt>Date Issued</dt><dd>{solr_date(item.date)}</dd>" in page
        assert page.count(item.date) == 1 and f"({item.year})." in page
        given, _, surname = item.authors[0].rpartition(" ")
        assert f"<dd>{surname}, {given} (author)</dd>" in page
    pdf = get[1].get(url_of(get, LIBRARY, items[0].pdf_path))
    assert pdf.status_code == 200 and pdf.content.startswith(b"%PDF")
    assert solr_date("2024-03-05") == "2024-03-05T00:00:00Z"


# ---------------------------------------------------------------------------------------------- reachability


@pytest.mark.parametrize("site", SITES)
def test_every_relevant_item_is_reachable_from_home_as_a_visitor_within_robots_txt(web: Testbed, site: str) -> None:
    check_reachable(web, site, scripted=site == PORTAL)


def _shut(site: str) -> str:
    """Each site's way to its items shut while the items themselves stay allowed: the portal's listings and author
    pages (its home still shows the newest items), the database's searches and experiments, the library's
    collections (its front page still shows the objects ingested last)."""
    if site == PORTAL:
        return "Disallow: /browse\nDisallow: /categories/\nDisallow: /authors/\n"
    if site == HEP:
        return "Disallow: /literature?\nDisallow: /experiments\n"
    return "Disallow: /islandora/object/thornbury:r\nDisallow: /islandora/object/thornbury:m\n"


@pytest.mark.parametrize("site", SITES)
def test_the_reachability_check_fails_when_robots_txt_shuts_the_way(web: Testbed, site: str) -> None:
    robots_txt = f"User-agent: *\n{_shut(site)}"
    reached = visit(web, site, robots_txt=robots_txt, scripted=True)
    assert missing(web, site, reached)
    if site != HEP:  # the database's home page shows no record
        assert reached & {i.path for i in web.items_on(site)}
