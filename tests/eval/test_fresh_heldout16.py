"""The sixteenth batch of fresh held-out sites (`eval/testbed/fresh_heldout16*.py`) as built, served on loopback:
each structure they claim, and every relevant item reachable from the home page as a visitor reaches it (the links a
person clicks, paging included) within robots.txt, with a robots.txt that shuts the way showing the check can fail.
No crawler runs here: their first benchmark run is the measure, and it is the lead's."""

from __future__ import annotations

import json
import re
from datetime import date, datetime

import lxml.html
import pytest
from lxml import etree
from site_visitor import METADATA_TAGS, Served, check_reachable, links_of, missing, page_of, robots_of, url_of, visit

from research_crawler.eval.testbed import Testbed
from research_crawler.eval.testbed.fresh_heldout16 import FRESH16_SITE_SPECS, LIST
from research_crawler.eval.testbed.fresh_heldout16_blog import PER_PAGE as POSTS_PER_PAGE
from research_crawler.eval.testbed.fresh_heldout16_blog import WRITERS, minima_date, posts
from research_crawler.eval.testbed.fresh_heldout16_hal import (
    COLLECTIONS,
    PER_PAGE,
    deposited,
    doc_type,
    long_stamp,
    result_order,
)
from research_crawler.eval.testbed.fresh_heldout16_lists import messages, pipermail_date

SITES = [spec.name for spec in FRESH16_SITE_SPECS]
HAL, BLOG, LISTS = "fresh16-hal", "fresh16-blog", "fresh16-lists"
RECORD = r"/hal-\d{8}"


def _unique(links: list[str]) -> list[str]:
    return list(dict.fromkeys(links))


# ---------------------------------------------------------------------------------------------- open archive


def test_a_collections_browse_pages_open_result_lists_ten_a_page_newest_publication_first(
    web: Testbed, get: Served
) -> None:
    items = web.items_on(HAL)
    home = page_of(get, HAL, "/")
    newest = sorted(items, key=deposited, reverse=True)[:10]
    assert _unique(links_of(home, RECORD)) == [i.path for i in newest]
    assert "/browse/collections" in links_of(home, r"/browse/[a-z]+")
    listed = links_of(page_of(get, HAL, "/browse/collections"), r"/[A-Z]+")
    assert {f"/{code}" for code in COLLECTIONS} <= set(listed)
    for code in COLLECTIONS:
        mine = [i for i in items if i.category == code]
        collection = page_of(get, HAL, f"/{code}")
        assert len(_unique(links_of(collection, RECORD))) == 5
        period = page_of(get, HAL, f"/{code}/browse/period")
        years = links_of(period, rf"/{code}/search/index/\?[^\"]+")
        assert len(years) == len({i.year for i in mine}) > 1
        reached: list[str] = []
        for link in years:
            page = page_of(get, HAL, link)
            shown = _unique(links_of(page, RECORD))
            assert len(shown) <= PER_PAGE
            for more in _unique(links_of(page, rf"/{code}/search/index/\?[^\"]*page=\d+")):
                shown += _unique(links_of(page_of(get, HAL, more), RECORD))
            year = int(link.rsplit("=", 1)[1])
            assert shown == [i.path for i in result_order([i for i in mine if i.year == year])]
            reached += shown
        assert sorted(reached) == sorted(i.path for i in mine)
        everything = page_of(get, HAL, f"/{code}/search/index/?q=*")
        assert f"{len(mine)} results" in everything and _unique(links_of(everything, RECORD)) == [
            i.path for i in result_order(mine)[:PER_PAGE]
        ]
        doctype = page_of(get, HAL, f"/{code}/browse/doctype")
        assert "Preprints, Working Papers, ..." in doctype and "Journal articles" in doctype
    assert len(items) > PER_PAGE and "/search/index/?q=*" in links_of(home, r"/search/[^\"]+")
    page, shown = page_of(get, HAL, "/search/index/?q=*"), []
    for number in range(2, -(-len(items) // PER_PAGE) + 2):
        shown += _unique(links_of(page, RECORD))
        following = [link for link in links_of(page, r"/search/index/\?[^\"]+") if link.endswith(f"page={number}")]
        page = page_of(get, HAL, following[0]) if following else ""
    assert shown == [i.path for i in result_order(items)]
    robots = robots_of(get, HAL)
    assert not robots.can_fetch(url_of(get, HAL, "/user/login"), "*")
    assert not robots.can_fetch(url_of(get, HAL, f"/{items[0].key}/stat/"), "*")
    assert robots.can_fetch(url_of(get, HAL, "/VITIPATH/search/index/?q=*&page=2"), "*")


def test_a_record_gives_its_type_publication_date_deposit_and_modification_as_hal_writes_them(
    web: Testbed, get: Served
) -> None:
    items = web.items_on(HAL)
    kinds = {doc_type(i) for i in items}
    assert {"ART", "UNDEFINED"} <= kinds
    late = [i for i in items if deposited(i).date() > date.fromisoformat(i.date)]
    assert late and all(doc_type(i) != "UNDEFINED" for i in late)
    for item in items:
        page = page_of(get, HAL, item.path)
        assert f'<h1 class="title">{item.title}</h1>' in page.replace("&amp;", "&") and METADATA_TAGS.search(page)
        assert f"Submitted on : {long_stamp(deposited(item))}</li>" in page
        assert f"<dt>Publication date</dt><dd>{item.date}</dd>" in page
        assert f'<meta name="citation_publication_date" content="{item.date}" />' in page
        names = [a.text_content().split(" ")[:-1] for a in lxml.html.fromstring(page).find_class("author")]
        assert [" ".join(n) for n in names] == list(item.authors)
        assert item.pdf_path in links_of(page, r"/hal-[^\"]+")
    assert long_stamp(datetime(2024, 3, 15, 14, 2, 9)) == "Friday, March 15, 2024-2:02:09 PM"
    pdf = get[1].get(url_of(get, HAL, items[0].pdf_path))
    assert pdf.status_code == 200 and pdf.content.startswith(b"%PDF")
    shared = next(i for i in items if i.work)
    post = next(c for c in web.copies_of(shared) if c.site == BLOG)
    assert post.date > shared.date and doc_type(shared) == "UNDEFINED"
    assert f'href="{url_of(get, BLOG, post.path)}"' in page_of(get, HAL, shared.path)


# ---------------------------------------------------------------------------------------------- Jekyll blog


def test_the_blog_pages_its_posts_five_at_a_time_and_archives_them_by_tag_and_year_with_a_feed(
    web: Testbed, get: Served
) -> None:
    items = web.items_on(BLOG)
    every = posts(items)
    assert len(every) > len(items) and [p.day for p in every] == sorted((p.day for p in every), reverse=True)
    shown: list[str] = []
    page, path = page_of(get, BLOG, "/"), "/"
    while True:
        found = links_of(page, r"/(?:papers|news)/[^\"]+\.html")
        assert len(found) <= POSTS_PER_PAGE
        shown += found
        older = re.search(r'<a href="(/page\d+/)" class="next">', page)
        if older is None:
            break
        path = older.group(1)
        page = page_of(get, BLOG, path)
    assert path == f"/page{-(-len(every) // POSTS_PER_PAGE)}/" and shown == [p.path for p in every]
    assert get[1].get(url_of(get, BLOG, "/page1/")).status_code == 404
    for tag in {i.category for i in items}:
        archive = page_of(get, BLOG, f"/tag/{tag}/")
        assert set(links_of(archive, r"/papers/[^\"]+")) == {i.path for i in items if i.category == tag}
    year = page_of(get, BLOG, "/2024/")
    assert re.findall(r'<span class="post-meta">([^<]+)</span>', year)[-1].endswith(", 2024")
    feed = etree.fromstring(get[1].get(url_of(get, BLOG, "/feed.xml")).content)
    atom = "{http://www.w3.org/2005/Atom}"
    entries = [e.find(f"{atom}link").get("href") for e in feed.iter(f"{atom}entry")]
    assert entries == [url_of(get, BLOG, p.path) for p in every[:10]]


def test_a_post_names_the_group_writer_as_author_and_the_papers_authors_only_in_its_text(
    web: Testbed, get: Served
) -> None:
    items = web.items_on(BLOG)
    for item in items:
        page = page_of(get, BLOG, item.path)
        day = date.fromisoformat(item.date)
        assert f'itemprop="datePublished">{minima_date(day)}</time>' in page
        writer = lxml.html.fromstring(page).find_class("p-author")[0].text
        assert writer in WRITERS and writer not in item.authors
        data = json.loads(lxml.html.fromstring(page).xpath('//script[@type="application/ld+json"]')[0].text)
        assert data["author"]["name"] == writer and data["datePublished"].startswith(item.date)
        text = lxml.html.fromstring(page).find_class("post-content")[0].text_content()
        assert all(a in text for a in item.authors) and item.pdf_path in links_of(page, r"/assets/[^\"]+")
    assert minima_date(date(2024, 3, 5)) == "Mar 5, 2024"
    news = [p for p in posts(items) if p.item is None]
    assert "new-paper" not in news[0].tags and "Our paper" not in page_of(get, BLOG, news[0].path)
    shared = next(i for i in items if i.work)
    record = next(c for c in web.copies_of(shared) if c.site == HAL)
    assert f'href="{url_of(get, HAL, record.path)}"' in page_of(get, BLOG, shared.path)
    pdf = get[1].get(url_of(get, BLOG, items[0].pdf_path))
    assert pdf.status_code == 200 and pdf.content.startswith(b"%PDF")


# ---------------------------------------------------------------------------------------------- Mailman


def test_the_server_leads_to_the_lists_archive_whose_months_list_every_message_by_four_views(
    web: Testbed, get: Served
) -> None:
    items = web.items_on(LISTS)
    every = messages(items, url_of(get, LISTS, ""))
    root = get[1].get(url_of(get, LISTS, "/"))
    assert root.status_code == 302 and root.headers["location"] == "/mailman/listinfo"
    overview = page_of(get, LISTS, "/mailman/listinfo")
    assert f"listinfo/{LIST}" in links_of(overview, r"listinfo/[a-z-]+")
    info = page_of(get, LISTS, f"/mailman/listinfo/{LIST}")
    assert url_of(get, LISTS, f"/pipermail/{LIST}/") in links_of(info, r"[^\"]+")
    index = page_of(get, LISTS, f"/pipermail/{LIST}/")
    months = _unique([link.split("/")[0] for link in links_of(index, r"\d{4}-[A-Za-z]+/thread\.html")])
    assert months == _unique([m.month for m in reversed(every)])
    numbers = [m.number for m in every]
    assert numbers == sorted(numbers) and len(set(numbers)) == len(numbers)
    assert any(m.parent for m in every) and any(m.item is None and m.parent is None for m in every)
    listed: list[str] = []
    for month in months:
        for view in ("thread", "subject", "author", "date"):
            page = page_of(get, LISTS, f"/pipermail/{LIST}/{month}/{view}.html")
            found = links_of(page.replace("HREF", "href"), r"\d{6}\.html")
            assert sorted(found) == sorted(f"{m.number:06d}.html" for m in every if m.month == month), (month, view)
            if view == "date":
                assert found == sorted(found)
                listed += [f"/pipermail/{LIST}/{month}/{f}" for f in found]
    assert {i.path for i in items} <= set(listed)
    robots = robots_of(get, LISTS)
    assert not robots.can_fetch(url_of(get, LISTS, f"/pipermail/{LIST}/{months[0]}.txt.gz"), "*")
    assert not robots.can_fetch(url_of(get, LISTS, f"/mailman/admin/{LIST}"), "*")
    assert robots.can_fetch(url_of(get, LISTS, items[0].path), "*")


def test_a_message_gives_its_poster_its_pipermail_date_and_the_papers_authors_in_its_body(
    web: Testbed, get: Served
) -> None:
    items = web.items_on(LISTS)
    posters = set()
    for item in items:
        page = page_of(get, LISTS, item.path)
        assert item.title in page.replace("&amp;", "&") and not METADATA_TAGS.search(page)
        stamp = re.search(r"<BR>\n<I>([^<]+)</I>", page)
        assert stamp is not None and stamp.group(1)[-4:] == item.date[:4]
        assert datetime.strptime(stamp.group(1), "%a %b %d %H:%M:%S UTC %Y").date().isoformat() == item.date
        poster = re.search(r"<B>([^<]+)</B>", page)
        assert poster is not None
        posters.add(poster.group(1) == item.authors[0])
        body = page[page.index("<!--beginarticle-->") : page.index("<!--endarticle-->")]
        assert ", ".join(item.authors) in body.replace("&#x27;", "'")
        assert url_of(get, LISTS, item.pdf_path) in links_of(body.replace("HREF", "href"), r"[^\"]+")
    assert posters == {True, False}
    assert pipermail_date(datetime(2024, 3, 1, 9, 5, 2)) == "Fri Mar  1 09:05:02 UTC 2024"
    pdf = get[1].get(url_of(get, LISTS, items[0].pdf_path))
    assert pdf.status_code == 200 and pdf.content.startswith(b"%PDF")


# ---------------------------------------------------------------------------------------------- reachability


@pytest.mark.parametrize("site", SITES)
def test_every_relevant_item_is_reachable_from_home_as_a_visitor_within_robots_txt(web: Testbed, site: str) -> None:
    check_reachable(web, site)


def _shut(site: str) -> str:
    """Each site's way to its items shut while the items themselves stay allowed: the archive's collections and
    result lists (its home still shows the latest submissions), the blog's older pages and archives (its home still
    shows the newest posts), the list's month pages."""
    if site == HAL:
        return "Disallow: /VITIPATH\nDisallow: /GEOFLUIDES\nDisallow: /search/\n"
    if site == BLOG:
        return "Disallow: /page\nDisallow: /tag/\nDisallow: /20\n"
    return f"Disallow: /pipermail/{LIST}/20\nAllow: /pipermail/{LIST}/*/0\n"


@pytest.mark.parametrize("site", SITES)
def test_the_reachability_check_fails_when_robots_txt_shuts_the_way(web: Testbed, site: str) -> None:
    reached = visit(web, site, robots_txt=f"User-agent: *\n{_shut(site)}")
    assert missing(web, site, reached)
    if site != LISTS:
        assert reached & {i.path for i in web.items_on(site)}  # the home page still shows the newest
