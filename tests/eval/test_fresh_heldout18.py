"""The eighteenth batch of fresh held-out sites (`eval/testbed/fresh_heldout18*.py`) as built, served on loopback:
each structure they claim, and every relevant item reachable from the home page as a visitor reaches it (the links a
person clicks, paging included) within robots.txt, with a robots.txt that shuts the way showing the check can fail.
No crawler runs here: their first benchmark run is the measure, and it is the lead's."""

from __future__ import annotations

import re
from datetime import date, datetime
from urllib.parse import quote_plus

import lxml.html
import pytest
from site_visitor import METADATA_TAGS, Served, check_reachable, links_of, missing, page_of, robots_of, url_of, visit

from research_crawler.eval.testbed import Testbed
from research_crawler.eval.testbed.fresh_heldout18 import FRESH18_SITE_SPECS, JOURNALS, journal_of
from research_crawler.eval.testbed.fresh_heldout18_department import (
    NEWS_PAGE,
    biblio_date,
    biblio_order,
    drupal_submitted,
    news_of,
)
from research_crawler.eval.testbed.fresh_heldout18_department import PER_PAGE as BIBLIO_PAGE
from research_crawler.eval.testbed.fresh_heldout18_literature import PER_PAGE as RESULTS_PAGE
from research_crawler.eval.testbed.fresh_heldout18_literature import citation, pubmed_date, short_author
from research_crawler.eval.testbed.fresh_heldout18_patents import (
    PER_PAGE,
    SUBCLASSES,
    family_id,
    grant_date,
    inventor,
    newest_first,
)

SITES = [spec.name for spec in FRESH18_SITE_SPECS]
LITERATURE, DEPARTMENT, PATENTS = "fresh18-literature", "fresh18-department", "fresh18-patents"
RECORD = r"/\d{8}/"
DOCUMENT = r"/publication/EP\d{7}A[12]"


def _follow(get: Served, site: str, first: str, pattern: str, following: str) -> list[str]:
    """The links matching `pattern` on `first` and on each page its `following` link (a regex group) leads to."""
    page, found = page_of(get, site, first), []
    while True:
        found += links_of(page, pattern)
        step = re.search(following, page)
        if step is None:
            return found
        page = page_of(get, site, step.group(1).replace("&amp;", "&"))


# ---------------------------------------------------------------------------------------------- patents


def test_the_register_browses_subclasses_that_list_families_newest_publication_first(web: Testbed, get: Served) -> None:
    items = web.items_on(PATENTS)
    home = page_of(get, PATENTS, "/")
    assert links_of(home, r"/publication/EP\d{7}A[12]") == [i.path for i in newest_first(items)[:5]]
    subclasses = links_of(page_of(get, PATENTS, "/classification"), r"/classification/[A-H]\d\d[A-Z]")
    assert subclasses == [f"/classification/{s}" for s in SUBCLASSES]
    reached: list[str] = []
    for link in subclasses:
        first = page_of(get, PATENTS, link)
        pages = [link, *dict.fromkeys(links_of(first, re.escape(link) + r"\?page=\d+"))]
        shown = [path for address in pages for path in links_of(page_of(get, PATENTS, address), DOCUMENT)]
        mine = newest_first([i for i in items if i.category == link.rsplit("/", 1)[1]])
        assert shown == [i.path for i in mine]
        assert len(links_of(first, r"/publication/EP\d{7}A[12]")) == min(PER_PAGE, len(mine))
        reached += shown
    assert sorted(reached) == sorted(i.path for i in items) and any(
        sum(i.category == s for i in items) > PER_PAGE for s in SUBCLASSES
    )
    assert "No results found" in page_of(get, PATENTS, "/classification/A01D")
    robots = robots_of(get, PATENTS)
    assert not robots.can_fetch(url_of(get, PATENTS, "/search?q=concrete"), "*")
    assert not robots.can_fetch(url_of(get, PATENTS, f"{items[0].path}/legal-status"), "*")
    assert robots.can_fetch(url_of(get, PATENTS, items[0].path), "*")


def test_a_document_gives_capital_title_inventors_as_offices_write_them_and_its_granted_twin(
    web: Testbed, get: Served
) -> None:
    items = web.items_on(PATENTS)
    for item in items:
        page = page_of(get, PATENTS, item.path)
        number, kind = item.key[:-2], item.key[-2:]
        assert f"Bibliographic data: {number} ({kind}) ― {item.date}</h2>" in page
        data = page.split('class="printAbstract"')[0]  # the abstract may name the title in its own words
        assert item.title.upper() in data.replace("&amp;", "&") and item.title not in data
        assert "; ".join(inventor(a) for a in item.authors) in page and not METADATA_TAGS.search(page)
        granted = grant_date(item)
        grant = get[1].get(url_of(get, PATENTS, f"/publication/{number}B1"))
        assert grant.status_code == (200 if granted else 404)
        if granted:
            assert f"({kind}) ― {item.date}" not in grant.text and f"{number} (B1) ― {granted}" in grant.text
            assert f'href="{item.path}"' in grant.text and f'href="/publication/{number}B1"' in page
        assert item.path in links_of(page_of(get, PATENTS, f"/family/{family_id(item)}"), r"/publication/[^\"]+")
    assert any(grant_date(i) for i in items) and not all(grant_date(i) for i in items)
    assert inventor("Ada Okafor").startswith("OKAFOR ADA [")
    pdf = get[1].get(url_of(get, PATENTS, items[0].pdf_path))
    assert pdf.status_code == 200 and pdf.content.startswith(b"%PDF")


# ---------------------------------------------------------------------------------------------- literature


def test_the_database_links_each_journals_latest_literature_as_a_search_sorted_by_date(
    web: Testbed, get: Served
) -> None:
    items = web.items_on(LITERATURE)
    home = page_of(get, LITERATURE, "/")
    searches = links_of(home, r"/\?term=[^\"]+")
    assert searches == ["/?term=" + quote_plus(f'"{name}"[jour]') + "&sort=date" for name, _, _ in JOURNALS]
    reached: list[str] = []
    for search in searches:
        shown = links_of(page_of(get, LITERATURE, search), RECORD)
        journal = search.split("%22")[1].replace("+", " ")
        mine = [i for i in items if journal_of(i)[0] == journal]
        assert shown == [i.path for i in sorted(mine, key=lambda i: i.date, reverse=True)]
        reached += shown
    assert sorted(reached) == sorted(i.path for i in items)
    every = _follow(get, LITERATURE, "/?term=2022%3A2026%5Bdp%5D", RECORD, r'class="next-page-btn" href="([^"]+)"')
    assert len(every) == len(items) > RESULTS_PAGE and sorted(every) == sorted(reached)
    assert len(links_of(page_of(get, LITERATURE, "/?term=2024%5Bdp%5D"), RECORD)) == sum(i.year == 2024 for i in items)
    typed = page_of(get, LITERATURE, "/?term=antivenom")
    assert set(links_of(typed, RECORD)) <= {i.path for i in items if "antivenom" in (i.title + i.abstract).lower()}
    robots = robots_of(get, LITERATURE)
    assert not robots.can_fetch(url_of(get, LITERATURE, f"/export/?id={items[0].key}&format=nbib"), "*")
    assert not robots.can_fetch(url_of(get, LITERATURE, "/myncbi/"), "*")
    assert robots.can_fetch(url_of(get, LITERATURE, searches[0]), "*")


def test_a_record_gives_its_citation_line_full_names_and_mesh_terms_that_link_to_searches(
    web: Testbed, get: Served
) -> None:
    items = web.items_on(LITERATURE)
    for item in items:
        page = page_of(get, LITERATURE, item.path)
        day = date.fromisoformat(item.date)
        assert f'<span class="cit">{citation(item)}</span>' in page.replace("&amp;", "&")
        assert f"{pubmed_date(day)};" in page and item.date not in page
        assert f'<meta name="citation_date" content="{day:%m/%d/%Y}" />' in page
        tree = lxml.html.fromstring(page)
        assert [a.text for a in tree.find_class("full-name")] == list(item.authors)
        author = links_of(page, r"/\?term=[^\"]+%5BAuthor%5D")[0]
        assert item.path in links_of(page_of(get, LITERATURE, author), RECORD)
        mesh = links_of(page, r"/\?term=[^\"]+%5BMeSH%5D")[0]
        assert item.path in links_of(page_of(get, LITERATURE, mesh), RECORD)
    assert pubmed_date(date(2024, 3, 5)) == "2024 Mar 5" and short_author("Ada Bea Okafor") == "Okafor AB"
    assert get[1].get(url_of(get, LITERATURE, items[0].path.rstrip("/"))).status_code == 301


# ---------------------------------------------------------------------------------------------- department


def test_the_department_pages_news_and_publications_from_zero_and_groups_the_list_by_year(
    web: Testbed, get: Served
) -> None:
    items = web.items_on(DEPARTMENT)
    posts = news_of(items)
    front = page_of(get, DEPARTMENT, "/")
    assert links_of(front, r"/news/[a-z0-9-]+")[::2] == [f"/news/{p.slug}" for p in posts[:4]]
    listed = _follow(get, DEPARTMENT, "/news", r"/news/[a-z0-9-]+", r'<li class="pager-next"><a href="([^"]+)">')
    assert listed == [f"/news/{p.slug}" for p in posts] and len(posts) > NEWS_PAGE
    assert 'href="/news?page=1">2</a>' in page_of(get, DEPARTMENT, "/news")
    for post in posts:
        page = page_of(get, DEPARTMENT, f"/news/{post.slug}")
        assert f"Submitted by webmaster on {drupal_submitted(post.moment)}" in page
        assert (post.item is None) == (not links_of(page, r"/node/\d+"))
    shown = _follow(get, DEPARTMENT, "/publications", r"/node/\d+", r'<li class="pager-next"><a href="([^"]+)">')
    assert shown == [i.path for i in biblio_order(items)] and len(items) > BIBLIO_PAGE
    second = page_of(get, DEPARTMENT, "/publications?page=1")
    assert links_of(second, r"/node/\d+") == [i.path for i in biblio_order(items)[BIBLIO_PAGE:]]
    first = page_of(get, DEPARTMENT, "/publications")
    years = [int(y) for y in re.findall(r'<div class="biblio-separator-bar">(\d{4})</div>', first)]
    assert years == sorted(set(years), reverse=True)
    robots = robots_of(get, DEPARTMENT)
    assert not robots.can_fetch(url_of(get, DEPARTMENT, "/search/node?keys=delirium"), "*")
    assert not robots.can_fetch(url_of(get, DEPARTMENT, "/publications/export/bibtex"), "*")
    assert robots.can_fetch(url_of(get, DEPARTMENT, "/publications?page=1"), "*")


def test_a_publication_node_shows_biblio_fields_and_links_the_record_it_was_indexed_as_later(
    web: Testbed, get: Served
) -> None:
    items = web.items_on(DEPARTMENT)
    for item in items:
        page = page_of(get, DEPARTMENT, item.path)
        day = date.fromisoformat(item.date)
        assert f"Date Published:&nbsp;&nbsp;</td><td>{biblio_date(day)}</td>" in page
        assert f"Year of Publication:&nbsp;&nbsp;</td><td>{item.year}</td>" in page and item.date not in page
        given, _, surname = item.authors[0].rpartition(" ")
        assert f">{surname}, {given}</a>" in page
        author = links_of(page, r"/publications\?f\[author\]=\d+")[0]
        assert item.path in links_of(page_of(get, DEPARTMENT, author), r"/node/\d+")
    shared = [i for i in items if i.work]
    assert len(shared) == 3
    for item in shared:
        record = next(c for c in web.copies_of(item) if c.site == LITERATURE)
        assert record.date > item.date and f'href="{url_of(get, LITERATURE, record.path)}"' in page_of(
            get, DEPARTMENT, item.path
        )
    assert biblio_date(date(2024, 3, 5)) == "2024 Mar 5"
    assert drupal_submitted(datetime(2024, 3, 14, 10, 22)) == "Thu, 03/14/2024 - 10:22"
    pdf = get[1].get(url_of(get, DEPARTMENT, items[0].pdf_path))
    assert pdf.status_code == 200 and pdf.content.startswith(b"%PDF")


# ---------------------------------------------------------------------------------------------- reachability


@pytest.mark.parametrize("site", SITES)
def test_every_relevant_item_is_reachable_from_home_as_a_visitor_within_robots_txt(web: Testbed, site: str) -> None:
    check_reachable(web, site)


def _shut(site: str) -> str:
    """Each site's way to its items shut while the items themselves stay allowed: the database's searches (its home
    still shows the trending articles), the department's news, lists and profiles (its front page still shows the
    recent publications), the register's classification browser (its home still shows the newest documents)."""
    if site == LITERATURE:
        return "Disallow: /?\n"
    if site == DEPARTMENT:
        return "Disallow: /publications\nDisallow: /people\nDisallow: /news\n"
    return "Disallow: /classification\n"


@pytest.mark.parametrize("site", SITES)
def test_the_reachability_check_fails_when_robots_txt_shuts_the_way(web: Testbed, site: str) -> None:
    reached = visit(web, site, robots_txt=f"User-agent: *\n{_shut(site)}")
    assert missing(web, site, reached)
    assert reached & {i.path for i in web.items_on(site)}  # the home page still shows some
