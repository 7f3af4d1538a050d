"""The sixth batch of fresh held-out sites (`eval/testbed/fresh_heldout6*.py`) as built, served on loopback: each
structure they claim, and every relevant item reachable from the home page as a visitor reaches it (the links a
person clicks, facet and paging links included) within robots.txt, with a robots.txt that shuts the way showing the
check can fail. No crawler runs here: their first benchmark run is the measure, and it is the lead's."""

from __future__ import annotations

import re
from urllib.parse import parse_qs, urlsplit

import lxml.etree
import pytest
from protego import Protego
from site_visitor import METADATA_TAGS, Served, check_reachable, links_of, missing, page_of, url_of, visit

from research_crawler.eval.testbed import Testbed
from research_crawler.eval.testbed.fresh_heldout6 import FRESH6_SITE_SPECS
from research_crawler.eval.testbed.fresh_heldout6_catalogue import EXTRAS, PER_PAGE, inverted
from research_crawler.eval.testbed.fresh_heldout6_datarepo import PAPER_TYPES, deposits, us_date
from research_crawler.eval.testbed.fresh_heldout6_news import BYLINE, OTHER_POSTS, headline, posts

SITES = [spec.name for spec in FRESH6_SITE_SPECS]


# ---------------------------------------------------------------------------------------------- catalogue


def test_the_catalogue_pages_ten_results_and_its_facet_links_narrow_them_with_non_articles_mixed_in(
    web: Testbed, get: Served
) -> None:
    items = web.items_on("fresh6-catalogue")
    home = page_of(get, "fresh6-catalogue", "/")
    browse = links_of(home, r"/Search/Results\?[^\"]+")
    assert len(browse) == 3 and '<form class="searchForm" action="/Search/Results" method="get">' in home
    everything = page_of(get, "fresh6-catalogue", browse[-1])
    total = len(items) + len(EXTRAS)
    assert f"Showing {PER_PAGE} of {total} results" in everything
    assert len(re.findall(r'<li class="result">', everything)) == PER_PAGE
    pages = links_of(everything, r"/Search/Results\?[^\"]*page=\d+")
    assert [parse_qs(urlsplit(p).query)["page"] for p in pages] == [["2"], ["3"]]
    formats = {m for m in re.findall(r'<span class="format">([^<]+)</span>', everything)}
    formats |= set(re.findall(r'<span class="format">([^<]+)</span>', page_of(get, "fresh6-catalogue", pages[0])))
    assert {"Article"} < formats and formats & {"Book", "Map", "Journal", "Video"}
    year = next(p for p in links_of(everything, r"/Search/Results\?[^\"]+") if "publishDate" in p and "2024" in p)
    narrowed = page_of(get, "fresh6-catalogue", year)
    shown = re.findall(r'class="title" href="/Record/(b\d+)"', narrowed)
    in_2024 = {i.key for i in items if i.year == 2024} | {e[0] for e in EXTRAS if e[4] == 2024}
    assert set(shown) == in_2024 and "Year of Publication: 2024" in narrowed
    assert '<h2 class="facet">Year of Publication</h2>' not in narrowed  # a chosen facet leaves the sidebar
    searched = page_of(get, "fresh6-catalogue", "/Search/Results?lookfor=Cryosphere+Vellmar&type=AllFields")
    assert "Showing 0 of 0 results" in searched  # every word must match
    assert get[1].get(url_of(get, "fresh6-catalogue", "/Record/b1")).status_code == 404


def test_a_catalogue_record_gives_the_year_only_no_tags_but_coins_a_staff_view_and_author_pages(
    web: Testbed, get: Served
) -> None:
    item = web.items_on("fresh6-catalogue")[0]
    page = page_of(get, "fresh6-catalogue", item.path)
    assert f"<h1>{item.title}</h1>" in page and f"<th>Published:</th><td>{item.year}</td>" in page
    assert not METADATA_TAGS.search(page) and item.date not in page and item.date[5:7] + "/" not in page
    coins = re.search(r'<span class="Z3988" title="([^"]+)"', page)
    assert coins is not None and f"rft.date={item.year}&amp;" in coins.group(1)
    assert 'Main Author:</th><td><a href="/Author/Home?author=' in page and inverted(item.authors[0]) in page
    details = page_of(get, "fresh6-catalogue", f"{item.path}/Details")
    assert f"<th>245</th><td>10</td><td>|a {item.title}</td>" in details
    assert f"<th>264</th><td>_1</td><td>|c {item.year}</td>" in details
    author = page_of(get, "fresh6-catalogue", links_of(page, r"/Author/Home\?[^\"]+")[0])
    assert f'href="{item.path}"' in author
    pdf = get[1].get(url_of(get, "fresh6-catalogue", f"{item.path}/Fulltext"))
    assert pdf.status_code == 200 and pdf.content.startswith(b"%PDF")
    book = page_of(get, "fresh6-catalogue", f"/Record/{EXTRAS[0][0]}")
    assert "<th>Format:</th><td>Book</td>" in book and "Fulltext" not in book
    robots = Protego.parse(page_of(get, "fresh6-catalogue", "/robots.txt"))
    assert not robots.can_fetch(url_of(get, "fresh6-catalogue", "/Search/Results?lookfor=&sort=year"), "*")
    assert not robots.can_fetch(url_of(get, "fresh6-catalogue", f"{item.path}/Export?style=BibTeX"), "*")
    assert robots.can_fetch(url_of(get, "fresh6-catalogue", "/Search/Results?lookfor=&type=AllFields"), "*")


# ---------------------------------------------------------------------------------------------- data repository


def test_the_repository_mixes_papers_with_their_data_code_and_posters_newest_first_ten_a_page(
    web: Testbed, get: Served
) -> None:
    items = web.items_on("fresh6-datarepo")
    records = deposits(items)
    companions = [d for d in records if d.item is None]
    assert companions and {d.resource_type for d in companions} == {"Dataset", "Software", "Poster"}
    assert all(d.paper.title in d.title for d in companions)  # their titles repeat the paper's
    communities = links_of(page_of(get, "fresh6-datarepo", "/communities"), r"/communities/[a-z-]+/records")
    assert len(communities) == 2 and 'href="/communities"' in page_of(get, "fresh6-datarepo", "/")
    for community in communities:
        page = page_of(get, "fresh6-datarepo", community)
        listed = re.findall(r'<h3><a href="(/records/\d+)">', page)
        theirs = [d for d in records if f"/communities/{d.community.lower().replace(' ', '-')}/records" == community]
        assert listed == [d.path for d in theirs[:10]]
        dates = re.findall(r'<span class="date">([A-Z][a-z]{2} \d{1,2}, \d{4})</span>', page)
        assert len(dates) == len(listed)
        if len(theirs) > 10:
            second = page_of(get, "fresh6-datarepo", f"{community}?page=2")
            assert re.findall(r'<h3><a href="(/records/\d+)">', second) == [d.path for d in theirs[10:20]]
        publications = page_of(get, "fresh6-datarepo", f"{community}?resource_type=publication")
        assert set(re.findall(r'<span class="label">([^<]+)</span> <span class="date">', publications)) <= set(
            PAPER_TYPES
        )
        assert f'href="{community}?resource_type=dataset"' in page


def test_repository_records_carry_citation_tags_datasets_too_and_its_search_is_a_forbidden_script(
    web: Testbed, get: Served
) -> None:
    item = web.items_on("fresh6-datarepo")[0]
    page = page_of(get, "fresh6-datarepo", item.path)
    assert f'<meta name="citation_title" content="{item.title}" />' in page
    assert f'<meta name="citation_publication_date" content="{item.date.replace("-", "/")}" />' in page
    assert f"Published {us_date(item.date)} | Version v1" in page and us_date("2024-03-04") == "March 4, 2024"
    dataset = next(d for d in deposits(web.items_on("fresh6-datarepo")) if d.resource_type == "Dataset")
    data_page = page_of(get, "fresh6-datarepo", dataset.path)
    assert '<meta name="citation_title" content="Data for: ' in data_page and "Is supplement to" in data_page
    assert f'href="{dataset.paper.path}"' in data_page
    pdf = get[1].get(url_of(get, "fresh6-datarepo", item.pdf_path))
    assert pdf.status_code == 200 and pdf.content.startswith(b"%PDF")
    search = page_of(get, "fresh6-datarepo", "/search?q=hearing")
    assert 'data-api-endpoint="/api/records"' in search and "/records/" not in search
    robots = Protego.parse(page_of(get, "fresh6-datarepo", "/robots.txt"))
    assert not robots.can_fetch(url_of(get, "fresh6-datarepo", "/search?q=x"), "*")
    assert not robots.can_fetch(url_of(get, "fresh6-datarepo", "/api/records?q=x"), "*")
    assert robots.can_fetch(url_of(get, "fresh6-datarepo", item.path), "*")


# ---------------------------------------------------------------------------------------------- news blog


def test_the_blog_pages_five_posts_with_papers_among_other_news_and_older_posts_links(
    web: Testbed, get: Served
) -> None:
    items = web.items_on("fresh6-news")
    every = posts(items)
    assert len(every) == len(items) + len(OTHER_POSTS)
    path, seen = "/", []
    while True:
        page = page_of(get, "fresh6-news", path)
        seen += re.findall(r'<h2 class="entry-title"><a href="([^"]+)"', page)
        assert f"by {BYLINE}" in page and 'type="application/rss+xml"' in page
        older = re.search(r'<a href="([^"]+)">« Older posts</a>', page)
        if older is None:
            break
        path = older.group(1)
    assert seen == [p.path for p in every] and path == f"/page/{-(-len(every) // 5)}/"
    styles = {headline(i).split(" ")[0] for i in items}
    assert "Congratulations" in styles and styles - {"Congratulations"}
    hidden = next(i for i in items if headline(i).startswith("Congratulations"))
    assert hidden.title not in headline(hidden)
    publications = page_of(get, "fresh6-news", "/category/publications/")
    assert "Category: Publications" in publications and "« Older posts" in publications
    month = page_of(get, "fresh6-news", items[0].path[:9])
    assert f'href="{items[0].path}"' in month


def test_a_paper_post_is_signed_by_the_communications_team_names_the_authors_in_text_and_feeds_list_ten(
    web: Testbed, get: Served
) -> None:
    item = next(i for i in web.items_on("fresh6-news") if i.work)
    page = page_of(get, "fresh6-news", item.path)
    assert f'<meta property="og:title" content="{headline(item)}" />' in page
    assert f'<meta name="author" content="{BYLINE}" />' in page and f"<strong>{item.title}</strong>" in page
    assert ", ".join(item.authors[:-1]) + " and " + item.authors[-1] in page
    assert f'<meta property="article:published_time" content="{item.date}T09:30:00+00:00" />' in page
    deposited = next(c for c in web.copies_of(item) if c.site == "fresh6-datarepo")
    assert get[0].base_url("fresh6-datarepo").rstrip("/") + deposited.path in page
    assert deposited.title == item.title and deposited.date < item.date
    feed = lxml.etree.fromstring(get[1].get(url_of(get, "fresh6-news", "/feed/")).content)
    titles = [t.text for t in feed.iter("title")][1:]
    assert titles == [p.headline for p in posts(web.items_on("fresh6-news"))[:10]]
    robots = Protego.parse(page_of(get, "fresh6-news", "/robots.txt"))
    assert not robots.can_fetch(url_of(get, "fresh6-news", "/?s=hearing"), "*")
    assert robots.can_fetch(url_of(get, "fresh6-news", item.path), "*")


# ---------------------------------------------------------------------------------------------- reachability


@pytest.mark.parametrize("site", SITES)
def test_every_relevant_item_is_reachable_from_home_as_a_visitor_within_robots_txt(web: Testbed, site: str) -> None:
    check_reachable(web, site)


def _shut(web: Testbed, site: str) -> str:
    """Each site's way to its items shut while the items themselves stay allowed: the catalogue's searches and
    author pages, the repository's communities (its home still shows six recent uploads), the blog's older pages,
    categories and monthly archives (its home still shows the five newest posts)."""
    if site == "fresh6-catalogue":
        return "Disallow: /Search/\nDisallow: /Author/\n"
    if site == "fresh6-datarepo":
        return "Disallow: /communities\n"
    months = sorted({p.day[:7] for p in posts(web.items_on(site))})
    return "Disallow: /page/\nDisallow: /category/\n" + "".join(f"Disallow: /{m[:4]}/{m[5:]}/$\n" for m in months)


@pytest.mark.parametrize("site", SITES)
def test_the_reachability_check_fails_when_robots_txt_shuts_the_way(web: Testbed, site: str) -> None:
    reached = visit(web, site, robots_txt=f"User-agent: *\n{_shut(web, site)}")
    assert missing(web, site, reached)
    assert reached & {i.path for i in web.items_on(site)} or site == "fresh6-catalogue"
