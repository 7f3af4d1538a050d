"""The seventeenth batch of fresh held-out sites (`eval/testbed/fresh_heldout17*.py`) as built, served on loopback:
each structure they claim, and every relevant item reachable from the home page as a visitor reaches it (the links a
person clicks, paging included) within robots.txt, with a robots.txt that shuts the way showing the check can fail.
No crawler runs here: their first benchmark run is the measure, and it is the lead's."""

from __future__ import annotations

import json
import re
from datetime import date, datetime

import lxml.html
import pytest
from site_visitor import METADATA_TAGS, Served, check_reachable, links_of, missing, page_of, robots_of, url_of, visit

from research_crawler.eval.testbed import Testbed
from research_crawler.eval.testbed.fresh_heldout17 import FRESH17_SITE_SPECS, SERIES, series_of
from research_crawler.eval.testbed.fresh_heldout17_commons import COMMUNITIES, dc_date, downloads, series_order
from research_crawler.eval.testbed.fresh_heldout17_commons import PER_PAGE as SERIES_PAGE
from research_crawler.eval.testbed.fresh_heldout17_papers import EJOURNALS, PER_PAGE, ejournals_of, posted_order
from research_crawler.eval.testbed.fresh_heldout17_pubpub import EDITORS, issue_of, latest, pubpub_date, updated

SITES = [spec.name for spec in FRESH17_SITE_SPECS]
PAPERS, PUBPUB, COMMONS = "fresh17-papers", "fresh17-pubpub", "fresh17-commons"


def _unique(links: list[str]) -> list[str]:
    return list(dict.fromkeys(links))


def _local(get: Served, site: str, links: list[str]) -> list[str]:
    """Absolute links of `site` as its own paths."""
    base = url_of(get, site, "")
    return [link[len(base) :] if link.startswith(base) else link for link in links]


# ---------------------------------------------------------------------------------------------- Digital Commons


def test_the_repository_leads_to_series_that_page_their_papers_newest_first_under_year_headings(
    web: Testbed, get: Served
) -> None:
    items = web.items_on(COMMONS)
    home = page_of(get, COMMONS, "/")
    popular = sorted(items, key=downloads, reverse=True)[:5]
    assert _local(get, COMMONS, links_of(home, r"[^\"]+/[a-z_]+/\d+")) == [i.path for i in popular]
    collections = page_of(get, COMMONS, "/communities.html")
    assert {f"/{code}/" for code in COMMUNITIES} | {f"/{c}/" for c in SERIES} <= set(
        links_of(collections, r"/[a-z_]+/")
    )
    reached: list[str] = []
    paged = 0
    for context in SERIES:
        mine = series_order([i for i in items if i.key.startswith(context + "/")])
        page, pages = page_of(get, COMMONS, f"/{context}/"), 1
        shown: list[str] = []
        assert "Follow</a>" in page
        while True:
            found = _unique(_local(get, COMMONS, links_of(page, rf"[^\"]+/{context}/\d+")))
            assert len(found) <= SERIES_PAGE
            years = [int(y) for y in re.findall(r'<h4 id="year_\d+">(\d{4})</h4>', page)]
            assert years == sorted(set(years), reverse=True)
            assert years == list(dict.fromkeys(i.year for i in mine if i.path in found))
            shown += found
            following = re.search(r'<a href="([^"]+)" class="next">', page)
            if following is None:
                break
            pages += 1
            assert following.group(1).endswith(f"/{context}/index.{pages}.html")
            page = page_of(get, COMMONS, _local(get, COMMONS, [following.group(1)])[0])
        assert shown == [i.path for i in mine]
        reached += shown
        paged += pages > 1
    assert sorted(reached) == sorted(i.path for i in items) and paged
    assert get[1].get(url_of(get, COMMONS, f"/{next(iter(SERIES))}/index.1.html")).status_code == 404
    assert "There are no items in this series." in page_of(get, COMMONS, "/biology_etds/")
    assert {i.topic for i in items if series_of(i.title) == "biology_facpubs"} & {
        i.topic for i in items if series_of(i.title) == "envsci_facpubs"
    }
    robots = robots_of(get, COMMONS)
    assert not robots.can_fetch(url_of(get, COMMONS, "/do/search/?q=oyster&start=0"), "*")
    assert not robots.can_fetch(url_of(get, COMMONS, "/cgi/follow.cgi?context=biology_facpubs"), "*")
    assert robots.can_fetch(url_of(get, COMMONS, items[0].pdf_path), "*")


def test_a_paper_shows_its_publication_date_as_digital_commons_does_and_its_tags_give_the_year_alone(
    web: Testbed, get: Served
) -> None:
    items = web.items_on(COMMONS)
    for item in items:
        page = page_of(get, COMMONS, item.path)
        day = date.fromisoformat(item.date)
        assert f"<h4>Publication Date</h4><p>{dc_date(day)}</p>" in page
        assert f'<meta name="bepress_citation_date" content="{item.year}" />' in page
        assert not METADATA_TAGS.search(page) and item.date not in page
        tree = lxml.html.fromstring(page)
        assert [p.find("a/strong").text for p in tree.find_class("author")] == list(item.authors)
        assert tree.find_class("count")[-1].text == str(downloads(item))
        assert f"/{item.key.split('/')[0]}/" in links_of(page, r"[^\"]+/[a-z_]+/")[-1]
    assert dc_date(date(2024, 3, 5)) == "3-5-2024"
    pdf = get[1].get(url_of(get, COMMONS, items[0].pdf_path))
    assert pdf.status_code == 200 and pdf.content.startswith(b"%PDF")


# ---------------------------------------------------------------------------------------------- working papers


def test_the_network_leads_to_ejournals_that_list_papers_newest_posted_first_five_a_page(
    web: Testbed, get: Served
) -> None:
    items = web.items_on(PAPERS)
    root = get[1].get(url_of(get, PAPERS, "/"))
    assert root.status_code == 302 and root.headers["location"] == "/index.cfm/en/"
    home = page_of(get, PAPERS, "/index.cfm/en/")
    assert links_of(home, r"/abstract=\d+") == [i.path for i in posted_order(items)[:5]]
    journals: list[str] = []
    for network in links_of(home, r"/index\.cfm/en/[a-z]+/"):
        journals += links_of(page_of(get, PAPERS, network), r"/sol3/JELJOUR_Results\.cfm\?[^\"]+")
    assert len(journals) == len(EJOURNALS)
    reached: list[str] = []
    for link in journals:
        number = int(link.rsplit("journal_id=", 1)[1])
        page, shown = page_of(get, PAPERS, link), []
        while True:
            found = links_of(page, r"/abstract=\d+")
            assert len(found) <= PER_PAGE and "Posted: " in page
            shown += found
            following = re.search(r'<a href="([^"]+npage=\d+)">Next</a>', page)
            if following is None:
                break
            page = page_of(get, PAPERS, following.group(1).replace("&amp;", "&"))
        assert shown == [i.path for i in posted_order([i for i in items if number in ejournals_of(i)])]
        reached += shown
    assert sorted(reached) == sorted(2 * [i.path for i in items])
    assert any(len([i for i in items if j in ejournals_of(i)]) > PER_PAGE for j in EJOURNALS)
    robots = robots_of(get, PAPERS)
    assert not robots.can_fetch(url_of(get, PAPERS, "/sol3/results.cfm?txtKey_Words=congestion"), "*")
    assert not robots.can_fetch(url_of(get, PAPERS, items[0].pdf_path), "*")
    assert robots.can_fetch(url_of(get, PAPERS, items[0].path), "*")


def test_an_abstract_page_gives_date_written_and_posted_and_links_its_authors_pages(web: Testbed, get: Served) -> None:
    items = web.items_on(PAPERS)
    for item in items:
        page = page_of(get, PAPERS, item.path)
        assert item.title in page.replace("&amp;", "&") and METADATA_TAGS.search(page)
        written = re.search(r"Date Written: ([A-Z][a-z]+ \d{1,2}, \d{4})</p>", page)
        assert written is not None and datetime.strptime(written.group(1), "%B %d, %Y").date().isoformat() == item.date
        posted = re.search(r"Posted: (\d{1,2} [A-Z][a-z]{2} \d{4})</span>", page)
        assert posted is not None and datetime.strptime(posted.group(1), "%d %b %Y").date().isoformat() >= item.date
        assert f'<meta name="citation_publication_date" content="{item.date.replace("-", "/")}" />' in page
        people = links_of(page, r"/author=\d+")[: len(item.authors)]
        assert [
            lxml.html.fromstring(page).find_class("authors")[0].xpath(".//h2/a")[n].text for n in range(len(people))
        ] == list(item.authors)
        assert item.path in links_of(page_of(get, PAPERS, people[-1]), r"/abstract=\d+")
    shared = [i for i in items if i.work]
    assert len(shared) == 3
    for item in shared:
        copy = next(c for c in web.copies_of(item) if c.site == PUBPUB)
        assert copy.date > item.date and f'href="{url_of(get, PUBPUB, copy.path)}"' in page_of(get, PAPERS, item.path)


# ---------------------------------------------------------------------------------------------- PubPub


def test_the_community_shows_its_latest_pubs_and_its_collections_list_every_pub(web: Testbed, get: Served) -> None:
    items = web.items_on(PUBPUB)
    home = page_of(get, PUBPUB, "/")
    assert links_of(home, r"/pub/[0-9a-z]{8}") == [i.path for i in latest(items)[:6]]
    issues = _unique(links_of(page_of(get, PUBPUB, "/issues"), r"/volume-\d+-issue-\d"))
    assert issues == sorted(
        {f"/{issue_of(i)[0]}" for i in items}, key=lambda s: [int(n) for n in s.split("-")[1::2]], reverse=True
    )
    listed: list[str] = []
    for issue in issues:
        found = links_of(page_of(get, PUBPUB, issue), r"/pub/[0-9a-z]{8}")
        assert found == [i.path for i in sorted(items, key=lambda i: i.date) if f"/{issue_of(i)[0]}" == issue]
        listed += found
    assert sorted(listed) == sorted(i.path for i in items)
    for category in {i.category for i in items}:
        topic = links_of(home, r"/[a-z-]+")
        slug = next(link for link in topic if link == "/" + category.lower().replace(" ", "-"))
        assert links_of(page_of(get, PUBPUB, slug), r"/pub/[0-9a-z]{8}") == [
            i.path for i in latest([i for i in items if i.category == category])
        ]
    assert not links_of(page_of(get, PUBPUB, "/search?q=congestion"), r"/pub/[^\"]+")
    robots = robots_of(get, PUBPUB)
    assert not robots.can_fetch(url_of(get, PUBPUB, "/dash"), "*")
    assert not robots.can_fetch(url_of(get, PUBPUB, "/login"), "*")
    assert robots.can_fetch(url_of(get, PUBPUB, items[0].path), "*")


def test_a_pub_gives_its_byline_its_published_on_day_and_an_editor_apart_from_its_authors(
    web: Testbed, get: Served
) -> None:
    items = web.items_on(PUBPUB)
    for item in items:
        page = page_of(get, PUBPUB, item.path)
        tree = lxml.html.fromstring(page)
        day = date.fromisoformat(item.date)
        assert f'<span class="label">Published on</span> {pubpub_date(day)}</div>' in page
        byline = tree.find_class("byline-component")[0].text_content()
        assert all(a in byline for a in item.authors) and not any(e in byline for e in EDITORS)
        data = json.loads(tree.get_element_by_id("initial-data").get("data-json"))
        assert data["pubData"]["title"] == item.title
        assert {a["name"] for a in data["pubData"]["attributions"] if "Author" in a["roles"]} == set(item.authors)
        later = updated(item)
        second = get[1].get(url_of(get, PUBPUB, f"{item.path}/release/2"))
        assert second.status_code == (200 if later else 404)
        assert f'<meta name="citation_publication_date" content="{day:%Y/%m/%d}" />' in page
    assert pubpub_date(date(2024, 3, 5)) == "Mar 05, 2024"
    assert any(updated(i) for i in items) and not all(updated(i) for i in items)
    shared = next(i for i in items if i.work)
    paper = next(c for c in web.copies_of(shared) if c.site == PAPERS)
    assert f'href="{url_of(get, PAPERS, paper.path)}"' in page_of(get, PUBPUB, shared.path)
    pdf = get[1].get(url_of(get, PUBPUB, items[0].pdf_path))
    assert pdf.status_code == 200 and pdf.content.startswith(b"%PDF")


# ---------------------------------------------------------------------------------------------- reachability


@pytest.mark.parametrize("site", SITES)
def test_every_relevant_item_is_reachable_from_home_as_a_visitor_within_robots_txt(web: Testbed, site: str) -> None:
    check_reachable(web, site)


def _shut(site: str) -> str:
    """Each site's way to its items shut while the items themselves stay allowed: the repository's series pages (its
    home still shows the popular papers), the network's eJournals and author pages (its home still shows the newest),
    the community's collections (its home still shows the latest pubs)."""
    if site == COMMONS:
        return "Disallow: /*/$\n"
    if site == PAPERS:
        return "Disallow: /sol3/JELJOUR_Results.cfm\nDisallow: /author=\n"
    return "Disallow: /issues\nDisallow: /volume-\nDisallow: /cities-and-mobility\nDisallow: /open-methods\n"


@pytest.mark.parametrize("site", SITES)
def test_the_reachability_check_fails_when_robots_txt_shuts_the_way(web: Testbed, site: str) -> None:
    reached = visit(web, site, robots_txt=f"User-agent: *\n{_shut(site)}")
    assert missing(web, site, reached)
    assert reached & {i.path for i in web.items_on(site)}  # the home page still shows some
