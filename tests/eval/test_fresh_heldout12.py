"""The twelfth batch of fresh held-out sites (`eval/testbed/fresh_heldout12*.py`) as built, served on loopback: each
structure they claim, and every relevant item reachable from the home page as a visitor reaches it (the links a
person clicks, paging and sorting included) within robots.txt, with a robots.txt that shuts the way showing the
check can fail. No crawler runs here: their first benchmark run is the measure, and it is the lead's."""

from __future__ import annotations

import json
import re
from datetime import date

import pytest
from site_visitor import (
    METADATA_TAGS,
    Served,
    check_reachable,
    links_of,
    missing,
    page_of,
    robots_of,
    url_of,
    visit,
)

from research_crawler.eval.testbed import Testbed
from research_crawler.eval.testbed.fresh_heldout12 import FRESH12_SITE_SPECS
from research_crawler.eval.testbed.fresh_heldout12_library import GROUP, folders
from research_crawler.eval.testbed.fresh_heldout12_library import PER_PAGE as LIBRARY_PAGE
from research_crawler.eval.testbed.fresh_heldout12_newsletter import SHOWN, listed_date, post_date, posts
from research_crawler.eval.testbed.fresh_heldout12_theses import PER_PAGE, TODAY, collections, surname_first
from research_crawler.eval.testbed.layouts import make_site_app, offline_links
from research_crawler.eval.testbed.site_app import Request

SITES = [spec.name for spec in FRESH12_SITE_SPECS]
THESES, NEWSLETTER, LIBRARY = "fresh12-theses", "fresh12-newsletter", "fresh12-library"
HANDLE = r"/handle/10523/\d+"


# ---------------------------------------------------------------------------------------------- theses repository


def test_collections_browse_by_issue_date_oldest_first_twenty_a_page_and_recent_means_accessioned(
    web: Testbed, get: Served
) -> None:
    items = web.items_on(THESES)
    every = collections(items)
    tree = page_of(get, THESES, "/community-list")
    assert {c.path for c in every} <= set(links_of(tree, HANDLE))
    found: list[str] = []
    for collection in every:
        page = page_of(get, THESES, f"{collection.path}/browse?type=dateissued")
        shown = links_of(page, HANDLE)
        assert len(shown) == min(PER_PAGE, len(collection.records))
        while found_next := re.search(r'class="next-page-link" href="([^"]+)"', page):
            page = page_of(get, THESES, found_next.group(1).replace("&amp;", "&"))
            shown += links_of(page, HANDLE)
        assert shown == [r.path for r in collection.records]
        assert [r.issued for r in collection.records] == sorted(r.issued for r in collection.records)
        found += shown
    assert {i.path for i in items} <= set(found) and len(found) > 3 * len(items)
    assert any(len(c.records) > PER_PAGE for c in every)
    data = next(c for c in every if c.name == "Research data")
    assert all(r.item is None and r.kind == "Dataset" for r in data.records)
    mixed = [c for c in every if any(r.item for r in c.records)]
    assert all(any(r.item is None for r in c.records) for c in mixed)
    differs = 0
    for collection in mixed:
        recent = links_of(page_of(get, THESES, collection.path).split("Recent Submissions")[1], HANDLE)
        by_accession = sorted(collection.records, key=lambda r: (r.accessioned, r.handle), reverse=True)
        assert recent == [r.path for r in by_accession[:5]]
        differs += recent != [r.path for r in sorted(collection.records, key=lambda r: r.issued, reverse=True)[:5]]
    assert differs
    robots = robots_of(get, THESES)
    statistics = links_of(page_of(get, THESES, every[0].path), r"[^\"]+/statistics")
    assert statistics and not robots.can_fetch(url_of(get, THESES, statistics[0]), "*")
    assert not robots.can_fetch(url_of(get, THESES, "/discover?query=river"), "*")
    assert robots.can_fetch(url_of(get, THESES, "/browse?type=dateissued&offset=20"), "*")


def test_a_thesis_record_gives_surname_first_names_the_issue_date_embargoes_meta_tags_and_a_full_record(
    web: Testbed, get: Served
) -> None:
    items = web.items_on(THESES)
    records = {r.item.id: r for c in collections(items) for r in c.records if r.item}
    item = next(i for i in items if len(i.authors) > 1)
    page = page_of(get, THESES, item.path)
    assert f'<h2 class="page-header">{item.title}</h2>' in page
    assert f"<h5>Date</h5><span>{item.date}</span>" in page
    assert f">{surname_first(item.authors[0])}</a>" in page
    assert f"<h5>Supervisor</h5><span>{'; '.join(surname_first(a) for a in item.authors[1:])}</span>" in page
    assert f'<meta name="citation_author" content="{surname_first(item.authors[0])}" />' in page
    assert f'<meta name="DC.contributor" content="{surname_first(item.authors[1])}" />' in page
    assert f'<meta name="citation_date" content="{item.date}" />' in page
    full = page_of(get, THESES, f"{item.path}?show=full")
    accessioned = re.search(r"<td>dc.date.accessioned</td><td>(\d{4}-\d\d-\d\d)T", full).group(1)  # type: ignore[union-attr]
    assert accessioned > item.date and f"<td>dc.date.issued</td><td>{item.date}</td>" in full
    closed = next(i for i in items if (e := records[i.id].embargo) is not None and e > TODAY)
    closed_page = page_of(get, THESES, closed.path)
    assert "Restricted until" in closed_page and "citation_pdf_url" not in closed_page
    assert get[1].get(url_of(get, THESES, closed.pdf_path)).status_code == 403
    opened = next(i for i in items if not ((e := records[i.id].embargo) is not None and e > TODAY))
    pdf = get[1].get(url_of(get, THESES, opened.pdf_path))
    assert pdf.status_code == 200 and pdf.content.startswith(b"%PDF")
    shared = next(i for i in items if i.work)
    post = next(c for c in web.copies_of(shared) if c.site == NEWSLETTER)
    assert f'href="{url_of(get, NEWSLETTER, post.path)}"' in page_of(get, THESES, shared.path)
    author = links_of(page, r"/browse\?type=author&amp;value=[^\"]+")
    assert item.path in links_of(page_of(get, THESES, author[0]), HANDLE)


# ---------------------------------------------------------------------------------------------- newsletter


def test_the_archive_shows_twelve_and_scrolls_the_rest_in_from_the_api_and_sitemaps_list_every_post(
    web: Testbed, get: Served
) -> None:
    items = web.items_on(NEWSLETTER)
    every = posts(items)
    archive = page_of(get, NEWSLETTER, "/archive")
    assert links_of(archive, r"/p/[a-z0-9-]+") == [p.path for p in every[:SHOWN]]
    assert "/api/v1/archive?sort=new" in archive and every[SHOWN].path not in archive
    api = get[1].get(url_of(get, NEWSLETTER, "/api/v1/archive?sort=new&search=&offset=12&limit=12")).json()
    assert [row["slug"] for row in api] == [p.slug for p in every[SHOWN : 2 * SHOWN]]
    assert api[0]["post_date"].startswith(every[SHOWN].day.isoformat())
    app = make_site_app(web, NEWSLETTER, offline_links(web, NEWSLETTER))
    scrolled = app.handle(Request("GET", "/archive", {}))
    assert list(scrolled.script_links) == [p.path for p in every[SHOWN:]]
    this_year = next(p for p in every if p.day.year == 2026)
    assert f"<time>{listed_date(this_year.day)}</time>" in archive and str(2026) not in listed_date(this_year.day)
    assert {p.kind for p in every if p.item is None} == {"newsletter", "podcast", "thread"}
    assert any(p.paid for p in every) and len(every) > 2 * len(items)
    sitemap = page_of(get, NEWSLETTER, "/sitemap")
    listed: list[str] = []
    for year in links_of(sitemap, r"/sitemap/\d{4}"):
        listed += links_of(page_of(get, NEWSLETTER, year), r"/p/[a-z0-9-]+")
    assert sorted(listed) == sorted(p.path for p in every)
    robots = page_of(get, NEWSLETTER, "/robots.txt")
    assert f"Sitemap: {url_of(get, NEWSLETTER, '/sitemap.xml')}" in robots
    xml = page_of(get, NEWSLETTER, "/sitemap.xml")
    assert all(url_of(get, NEWSLETTER, i.path) in xml for i in items)
    for section in links_of(page_of(get, NEWSLETTER, "/"), r"/s/[a-z-]+"):
        chosen = [p.path for p in every if p.section == section[3:]]
        assert links_of(page_of(get, NEWSLETTER, section), r"/p/[a-z0-9-]+") == chosen[:SHOWN]


def test_a_post_gives_bylines_its_date_json_ld_an_attachment_and_a_spotlight_links_the_thesis(
    web: Testbed, get: Served
) -> None:
    items = web.items_on(NEWSLETTER)
    item = next(i for i in items if not i.work and len(i.authors) > 1)
    page = page_of(get, NEWSLETTER, item.path)
    day = date.fromisoformat(item.date)
    assert f'<h1 class="post-title">{item.title}</h1>' in page and f'"post-date">{post_date(day)}<' in page
    assert f"{item.authors[-2]} and {item.authors[-1]}" in page and item.date not in page.split("<body")[1]
    linked = json.loads(re.search(r'<script type="application/ld\+json">(.*?)</script>', page).group(1))  # type: ignore[union-attr]
    assert linked["@type"] == "NewsArticle" and linked["datePublished"].startswith(item.date)
    assert [a["name"] for a in linked["author"]] == list(item.authors)
    pdf = get[1].get(url_of(get, NEWSLETTER, links_of(page, r"/api/v1/file/[0-9a-f]+-paper\.pdf")[0]))
    assert pdf.status_code == 200 and pdf.content.startswith(b"%PDF")
    shared = next(i for i in items if i.work)
    thesis = next(c for c in web.copies_of(shared) if c.site == THESES)
    spotlight = page_of(get, NEWSLETTER, shared.path)
    assert "Thesis spotlight" in spotlight and f'href="{url_of(get, THESES, thesis.path)}"' in spotlight
    assert thesis.date < shared.date
    paid = next(p for p in posts(items) if p.paid)
    assert "This post is for paid subscribers" in page_of(get, NEWSLETTER, paid.path)
    robots = robots_of(get, NEWSLETTER)
    comments = links_of(page, r"/p/[a-z0-9-]+/comments")
    assert comments and not robots.can_fetch(url_of(get, NEWSLETTER, comments[0]), "*")
    assert not robots.can_fetch(url_of(get, NEWSLETTER, "/sign-in"), "*")


# ---------------------------------------------------------------------------------------------- group library


def test_the_library_pages_by_title_headers_resort_and_collections_list_only_what_is_filed_in_them(
    web: Testbed, get: Served
) -> None:
    items = web.items_on(LIBRARY)
    made, entries = folders(items)
    first = page_of(get, LIBRARY, f"{GROUP}/library")
    item_link = rf"{GROUP}/items/[0-9A-Z]{{8}}"
    shown = links_of(first, item_link)
    assert len(shown) == LIBRARY_PAGE < len(entries)
    for more in links_of(first, rf"{GROUP}/library\?order=title&amp;sort=asc&amp;page=\d+"):
        shown += links_of(page_of(get, LIBRARY, more), item_link)
    assert shown == [e.path for e in sorted(entries, key=lambda e: (e.title.lower(), e.key))]
    newest = links_of(first, rf"{GROUP}/library\?order=date&amp;sort=asc")
    assert newest
    by_date = page_of(get, LIBRARY, f"{GROUP}/library?order=date&sort=desc")
    assert links_of(by_date, item_link)[0] == max(entries, key=lambda e: (e.day, e.key)).path
    assert {e.item_type for e in entries if e.item is None} >= {"Web Page", "Newspaper Article", "Dataset"}
    for folder in made:
        page = page_of(get, LIBRARY, folder.path)
        assert sorted(links_of(page, item_link)) == sorted(e.path for e in entries if e.folder == folder.key)
        if folder.parent is None:
            assert not any(e.item for e in entries if e.folder == folder.key)
    assert {i.path for i in items} <= {e.path for e in entries if any(f.key == e.folder and f.parent for f in made)}


def test_an_item_gives_its_fields_creators_surname_first_dates_as_entered_and_children(
    web: Testbed, get: Served
) -> None:
    items = web.items_on(LIBRARY)
    item = items[0]
    page = page_of(get, LIBRARY, item.path)
    given, _, surname = item.authors[0].rpartition(" ")
    assert f"<tr><th>Title</th><td>{item.title}</td></tr>" in page
    assert f"<tr><th>Author</th><td>{surname}, {given}</td></tr>" in page and not METADATA_TAGS.search(page)
    written = re.search(r"<tr><th>Date</th><td>([^<]+)</td>", page).group(1)  # type: ignore[union-attr]
    assert str(date.fromisoformat(item.date).year) in written
    styles = set()
    for other in items:
        text = re.search(r"<tr><th>Date</th><td>([^<]+)</td>", page_of(get, LIBRARY, other.path)).group(1)  # type: ignore[union-attr]
        styles.add(re.sub(r"\d", "9", re.sub(r"[A-Za-z]+", "M", text)))
    assert len(styles) >= 3
    assert "<th>Date Added</th>" in page and "Full Text PDF" in page
    pdf = get[1].get(url_of(get, LIBRARY, links_of(page, r"[^\"]+/file\.pdf")[0]))
    assert pdf.status_code == 200 and pdf.content.startswith(b"%PDF")
    robots = robots_of(get, LIBRARY)
    export = links_of(page, r"[^\"]+/export\?format=ris")
    assert export and not robots.can_fetch(url_of(get, LIBRARY, export[0]), "*")
    assert not robots.can_fetch(url_of(get, LIBRARY, f"{GROUP}/search?q=scooter"), "*")
    assert robots.can_fetch(url_of(get, LIBRARY, f"{GROUP}/library?order=date&sort=desc&page=2"), "*")


# ---------------------------------------------------------------------------------------------- reachability


@pytest.mark.parametrize("site", SITES)
def test_every_relevant_item_is_reachable_from_home_as_a_visitor_within_robots_txt(web: Testbed, site: str) -> None:
    check_reachable(web, site)


def test_the_newsletters_archive_script_reaches_every_post_without_its_sitemaps_and_sections(web: Testbed) -> None:
    shut = "User-agent: *\nDisallow: /sitemap\nDisallow: /s/\n"
    assert missing(web, NEWSLETTER, visit(web, NEWSLETTER, robots_txt=shut))
    assert not missing(web, NEWSLETTER, visit(web, NEWSLETTER, robots_txt=shut, scripted=True))


def _shut(site: str) -> str:
    """Each site's way to its items shut while the items themselves stay allowed: the repository's browse indexes
    (its home and collections still show recent submissions), the newsletter's archive, sections and sitemap (its
    home still shows the latest posts), the library's listings and collections."""
    if site == THESES:
        return "Disallow: /browse\nDisallow: /handle/*/browse\n"
    if site == NEWSLETTER:
        return "Disallow: /archive\nDisallow: /s/\nDisallow: /sitemap\n"
    return f"Disallow: {GROUP}/library\nDisallow: {GROUP}/collections/\n"


@pytest.mark.parametrize("site", SITES)
def test_the_reachability_check_fails_when_robots_txt_shuts_the_way(web: Testbed, site: str) -> None:
    reached = visit(web, site, robots_txt=f"User-agent: *\n{_shut(site)}")
    assert missing(web, site, reached)
    if site != LIBRARY:
        assert reached & {i.path for i in web.items_on(site)}  # the home page still shows some
