"""The twenty-second batch of fresh held-out sites (`eval/testbed/fresh_heldout22*.py`) as built, served on loopback:
each structure they claim, and every relevant item reachable from the home page as a visitor reaches it (the links a
person clicks, paging included, and on the script-drawn service the links its script draws) within robots.txt, with
a robots.txt that shuts the way showing the check can fail. No crawler runs here: their first benchmark run is the
measure, and it is the lead's."""

from __future__ import annotations

import json
import re
from datetime import date
from urllib.parse import urljoin

import pytest
from lxml import etree
from site_visitor import METADATA_TAGS, Served, check_reachable, links_of, missing, page_of, robots_of, url_of, visit

from research_crawler.eval.testbed import Testbed
from research_crawler.eval.testbed.fresh_heldout22 import FRESH22_SITE_SPECS, JOURNALS, isbn13, journal_of, osf_guid
from research_crawler.eval.testbed.fresh_heldout22_handbook import (
    BUILT,
    GUIDES,
    apa_authors,
    apa_citation,
    book_order,
    joined_authors,
    published_line,
    years_of,
)
from research_crawler.eval.testbed.fresh_heldout22_osf import (
    API_PAGE,
    PROVIDER,
    STEWARDS,
    citation_author,
    contributors,
    newest_first,
    preprint_doi,
    subject_id,
)
from research_crawler.eval.testbed.fresh_heldout22_press import (
    NEW_SHOWN,
    PER_PAGE,
    SERIES,
    TODAY,
    author_path,
    byline,
    card_authors,
    paperback,
    pub_date,
    season_of,
    series_of,
    subject_slug,
)
from research_crawler.eval.testbed.markup import MONTHS

SITES = [spec.name for spec in FRESH22_SITE_SPECS]
OSF, HANDBOOK, PRESS = "fresh22-osf", "fresh22-handbook", "fresh22-press"
PREPRINT = rf"/preprints/{PROVIDER}/[2-9a-z]{{5}}"
COMPANION = r"/papers/\d{4}/(?!index\.html)[a-z0-9-]+\.html"
BOOK = r"/97813990\d{5}/[a-z0-9-]+/"
SITEMAP = "{http://www.sitemaps.org/schemas/sitemap/0.9}"


def _unescaped(page: str) -> str:
    return page.replace("&amp;", "&").replace("&quot;", '"').replace("&#x27;", "'")


def _text(fragment: str) -> str:
    return _unescaped(re.sub(r"<[^>]+>", "", fragment))


def _api(get: Served, path: str) -> dict:  # type: ignore[type-arg]
    response = get[1].get(url_of(get, OSF, path))
    assert response.status_code == 200 and response.headers["content-type"].startswith("application/json")
    data: dict = response.json()  # type: ignore[type-arg]
    return data


# ---------------------------------------------------------------------------------------------- preprint service


def test_every_page_of_the_service_is_a_shell_its_script_draws_from_the_api(web: Testbed, get: Served) -> None:
    items = web.items_on(OSF)
    home = get[1].get(url_of(get, OSF, "/"), follow_redirects=False)
    assert home.status_code == 302 and home.headers["location"] == f"/preprints/{PROVIDER}"
    for path in (f"/preprints/{PROVIDER}", f"/preprints/{PROVIDER}/discover", items[0].path):
        page = page_of(get, OSF, path)
        assert '<div id="app" data-provider="scree"></div>' in page and "<noscript>" in page
        assert '<script src="/static/app.js"></script>' in page and not links_of(page, PREPRINT)
        assert not any(i.title in _unescaped(page.split("</head>", 1)[1]) for i in items)
    script = get[1].get(url_of(get, OSF, "/static/app.js"))
    assert script.status_code == 200 and "javascript" in script.headers["content-type"]
    assert "doc.links.next" in script.text and '"Load more"' in script.text and '"Created: "' in script.text
    assert "c.attributes.bibliographic" in script.text
    subjects = _api(get, f"/api/v2/providers/preprints/{PROVIDER}/subjects/")["data"]
    named = {s["attributes"]["text"]: s for s in subjects}
    assert set(named) == {i.category for i in items}
    for name, subject in named.items():
        assert subject["id"] == subject_id(name)
        assert subject["attributes"]["preprint_count"] == sum(i.category == name for i in items)
    robots = robots_of(get, OSF)
    assert not robots.can_fetch(url_of(get, OSF, "/api/v2/search/?q=landslide"), "*")
    assert not robots.can_fetch(url_of(get, OSF, "/login"), "*")
    assert robots.can_fetch(url_of(get, OSF, items[0].path), "*")
    assert robots.can_fetch(url_of(get, OSF, f"/api/v2/providers/preprints/{PROVIDER}/preprints/?page=2"), "*")


def _walk_api(get: Served, address: str) -> tuple[list[dict], int]:  # type: ignore[type-arg]
    found, pages = [], 0
    while address:
        data = _api(get, address)
        pages += 1
        found += data["data"]
        address = data["links"]["next"] or ""
    return found, pages


def test_discover_lists_preprints_newest_first_ten_at_a_time_following_next_links(web: Testbed, get: Served) -> None:
    items = web.items_on(OSF)
    base = f"/api/v2/providers/preprints/{PROVIDER}/preprints/?sort=-date_created"
    everything, pages = _walk_api(get, base)
    assert [r["id"] for r in everything] == [i.key for i in newest_first(items)]
    assert pages == -(-len(items) // API_PAGE) > 1
    assert [r["attributes"]["date_created"][:10] for r in everything] == [i.date for i in newest_first(items)]
    for name in {i.category for i in items}:
        found, _ = _walk_api(get, f"{base}&filter[subjects]={subject_id(name)}")
        assert [r["links"]["html"] for r in found] == [i.path for i in newest_first(items) if i.category == name]
    first = _api(get, base)
    assert first["links"]["prev"] is None and first["meta"]["total"] == len(items)
    assert "page=2" in first["links"]["next"] and "sort=-date_created" in first["links"]["next"]


def test_a_preprint_has_citation_tags_and_its_data_names_every_contributor(web: Testbed, get: Served) -> None:
    items = web.items_on(OSF)
    for item in items:
        page = _unescaped(page_of(get, OSF, item.path))
        day = date.fromisoformat(item.date)
        assert f'<meta name="citation_title" content="{item.title}" />' in page
        assert re.findall(r'name="citation_author" content="([^"]+)"', page) == [
            citation_author(a) for a in item.authors
        ]
        assert f'<meta name="citation_publication_date" content="{day:%Y/%m/%d}" />' in page
        assert item.date not in page and preprint_doi(item) in page
        data = _api(get, f"/api/v2/preprints/{item.key}/?embed=contributors")["data"]
        assert data["attributes"]["title"] == item.title and data["attributes"]["description"] == item.abstract
        people = data["embeds"]["contributors"]["data"]
        named = [
            (p["embeds"]["users"]["data"]["attributes"]["full_name"], p["attributes"]["bibliographic"]) for p in people
        ]
        assert named == contributors(item) and [n for n, shown in named if shown] == list(item.authors)
        assert data["attributes"]["date_modified"][:10] >= item.date
    assert any(len(contributors(i)) > len(i.authors) for i in items)
    assert all(n in STEWARDS for i in items for n, shown in contributors(i) if not shown)
    assert citation_author("Ana María Souza") == "Souza, Ana María"
    assert len({osf_guid(n, "t") for n in range(300)}) == 300
    pdf = get[1].get(url_of(get, OSF, items[0].pdf_path))
    assert pdf.status_code == 200 and pdf.content.startswith(b"%PDF")


def test_the_sitemap_named_in_robots_txt_lists_every_preprint(web: Testbed, get: Served) -> None:
    items = web.items_on(OSF)
    robots = page_of(get, OSF, "/robots.txt")
    index = re.search(r"Sitemap: (\S+)", robots)
    assert index is not None and index.group(1) == url_of(get, OSF, "/sitemap.xml")
    root = etree.fromstring(get[1].get(index.group(1)).content)
    (listing,) = [loc.text for loc in root.iter(f"{SITEMAP}loc")]
    urls = etree.fromstring(get[1].get(str(listing)).content)
    locs = [str(loc.text) for loc in urls.iter(f"{SITEMAP}loc")]
    assert {url_of(get, OSF, i.path) for i in items} <= set(locs)


def test_a_shared_preprint_names_its_published_paper_and_the_labs_companion(web: Testbed, get: Served) -> None:
    items = web.items_on(OSF)
    shared = [i for i in items if i.work]
    assert len(shared) == 3
    for item in shared:
        companion = next(c for c in web.copies_of(item) if c.site == HANDBOOK)
        assert companion.date > item.date and item.doi == companion.doi
        data = _api(get, f"/api/v2/preprints/{item.key}/")["data"]["attributes"]
        assert data["doi"] == companion.doi and data["has_data_links"] == "available"
        assert data["data_links"] == [url_of(get, HANDBOOK, companion.path)]
        page = _unescaped(page_of(get, HANDBOOK, companion.path))
        assert f'href="{url_of(get, OSF, item.path)}">Scree Preprints</a>' in page
    alone = next(i for i in items if not i.work)
    assert _api(get, f"/api/v2/preprints/{alone.key}/")["data"]["attributes"]["data_links"] == []


# ---------------------------------------------------------------------------------------------- handbook


def test_the_handbook_sidebar_unfolds_only_the_open_chapter(web: Testbed, get: Served) -> None:
    items = web.items_on(HANDBOOK)
    root = get[1].get(url_of(get, HANDBOOK, "/"), follow_redirects=False)
    assert root.status_code == 302 and root.headers["location"] == "/intro.html"
    intro = page_of(get, HANDBOOK, "/intro.html")
    sidebar = intro.split('<nav class="bd-links"', 1)[1].split("</nav>", 1)[0]
    years = years_of(items)
    assert links_of(sidebar, r"/papers/\d{4}/index\.html") == [f"/papers/{y}/index.html" for y in years]
    assert not links_of(sidebar, COMPANION) and all(f'href="/{path}"' in sidebar for path in GUIDES)
    for year in years:
        mine = [i.path for i in book_order(items) if i.year == year]
        page = page_of(get, HANDBOOK, mine[0])
        bar = page.split('<nav class="bd-links"', 1)[1].split("</nav>", 1)[0]
        assert [p for p in links_of(bar, COMPANION)] == mine
    index = page_of(get, HANDBOOK, "/papers/index.html")
    article = index.split('<article class="bd-article"', 1)[1].split("</article>", 1)[0]
    assert links_of(article, r"/papers/\d{4}/index\.html") == [f"/papers/{y}/index.html" for y in years]
    robots = robots_of(get, HANDBOOK)
    assert not robots.can_fetch(url_of(get, HANDBOOK, "/_sources/papers/2024/x.ipynb"), "*")
    assert not robots.can_fetch(url_of(get, HANDBOOK, "/_downloads/0a1b2c3d/x.ipynb"), "*")
    assert robots.can_fetch(url_of(get, HANDBOOK, items[0].path), "*")
    search = page_of(get, HANDBOOK, "/search.html")
    assert "<noscript>" in search and "/searchindex.js" in search
    index_js = get[1].get(url_of(get, HANDBOOK, "/searchindex.js")).text
    assert index_js.startswith("Search.setIndex(") and items[0].title in json.loads(index_js[16:-1])["titles"]


def test_a_year_chapter_is_an_apa_bibliography_ordered_by_first_author(web: Testbed, get: Served) -> None:
    items = web.items_on(HANDBOOK)
    for year in years_of(items):
        path = f"/papers/{year}/index.html"
        page = page_of(get, HANDBOOK, path)
        article = page.split('<article class="bd-article"', 1)[1]
        mine = [i for i in book_order(items) if i.year == year]
        targets = [urljoin(path, h) for h in re.findall(r'class="reference internal" href="([^"/]+\.html)"', article)]
        assert targets == [i.path for i in mine]
        surnames = [i.authors[0].rsplit(" ", 1)[1] for i in mine]
        assert surnames == sorted(surnames)
        text = _text(article)
        assert all(apa_citation(i) in text for i in mine)
    assert apa_authors(("Aino Okafor", "Chiara Rossi", "Dario Vance")) == "Okafor, A., Rossi, C., & Vance, D."
    assert apa_authors(("Ana María Souza",)) == "Souza, A. M."


def test_a_companion_page_gives_authors_the_published_day_and_no_tags(web: Testbed, get: Served) -> None:
    items = web.items_on(HANDBOOK)
    for item in items:
        page = _unescaped(page_of(get, HANDBOOK, item.path))
        day = date.fromisoformat(item.date)
        assert f"<h1>{item.title}</h1>" in page and f"<p>{joined_authors(item.authors)}</p>" in page
        line = f"Published {day.day} {MONTHS[day.month - 1]} {day.year} in {JOURNALS[journal_of(item.title)]}"
        assert published_line(item) == line and line in page and f"https://doi.org/{item.doi}" in page
        assert not METADATA_TAGS.search(page) and item.date not in page and item.abstract in page
        assert f"Last updated on {BUILT:%b} {BUILT.day:02d}, {BUILT.year}." in page
        assert item.pdf_path in page and "/_downloads/" in page
    assert joined_authors(("A B", "C D", "E F")) == "A B, C D and E F"
    pdf = get[1].get(url_of(get, HANDBOOK, items[0].pdf_path))
    assert pdf.status_code == 200 and pdf.content.startswith(b"%PDF")


def test_next_links_walk_the_whole_book_in_order(web: Testbed, get: Served) -> None:
    items = web.items_on(HANDBOOK)
    walked, address = [], "/intro.html"
    while address:
        walked.append(address)
        page = page_of(get, HANDBOOK, address)
        step = re.search(r'class="right-next" href="([^"]+)"', page)
        back = re.search(r'class="left-prev" href="([^"]+)"', page)
        assert (back is None) == (address == "/intro.html")
        if back is not None:
            assert back.group(1) == walked[-2]
        address = step.group(1) if step else ""
    assert [p for p in walked if re.fullmatch(COMPANION, p)] == [i.path for i in book_order(items)]
    assert walked[: len(GUIDES)] == [f"/{p}" for p in GUIDES]


# ---------------------------------------------------------------------------------------------- press


def test_the_press_home_shows_the_newest_books(web: Testbed, get: Served) -> None:
    items = web.items_on(PRESS)
    home = page_of(get, PRESS, "/")
    newest = sorted(items, key=lambda i: (i.date, i.key), reverse=True)[:NEW_SHOWN]
    assert list(dict.fromkeys(links_of(home, BOOK))) == [i.path for i in newest]
    assert 'action="/search" method="post"' in home
    robots = robots_of(get, PRESS)
    for path in ("/search", "/cart", "/exam-copy?isbn=1", f"{items[0].path}?add-to-cart={items[0].key}"):
        assert not robots.can_fetch(url_of(get, PRESS, path), "*"), path
    assert robots.can_fetch(url_of(get, PRESS, items[0].path), "*")
    empty = page_of(get, PRESS, "/search?keywords=pilgrim")
    assert not links_of(empty, BOOK)
    posted = get[1].post(url_of(get, PRESS, "/search"), data={"keywords": items[0].authors[0]})
    assert posted.status_code == 200 and items[0].path in links_of(posted.text, BOOK)


def _walk_subject(get: Served, address: str) -> tuple[list[str], int]:
    found, pages = [], 0
    while address:
        page = page_of(get, PRESS, address)
        pages += 1
        found += list(dict.fromkeys(links_of(page.split('<main class="content">', 1)[1], BOOK)))
        step = re.search(r'class="next" href="([^"]+)"', page)
        address = _unescaped(step.group(1)) if step else ""
    return found, pages


def test_a_subject_lists_six_books_a_page_by_title_or_newest_first(web: Testbed, get: Served) -> None:
    items = web.items_on(PRESS)
    subjects = links_of(page_of(get, PRESS, "/subjects"), r"/subjects/[a-z-]+")
    assert sorted(subjects) == sorted({f"/subjects/{subject_slug(i.category)}" for i in items})
    for category in {i.category for i in items}:
        mine = [i for i in items if i.category == category]
        slug = subject_slug(category)
        by_title, pages = _walk_subject(get, f"/subjects/{slug}")
        assert by_title == [i.path for i in sorted(mine, key=lambda i: (i.title.lower(), i.key))]
        assert pages == -(-len(mine) // PER_PAGE) > 1
        newest, _ = _walk_subject(get, f"/subjects/{slug}?sort=pubdate")
        assert newest == [i.path for i in sorted(mine, key=lambda i: (i.date, i.key), reverse=True)]
        first = _unescaped(page_of(get, PRESS, f"/subjects/{slug}?sort=pubdate"))
        top = max(mine, key=lambda i: (i.date, i.key))
        day = date.fromisoformat(top.date)
        assert card_authors(top.authors) in first and f"Hardcover · {MONTHS[day.month - 1][:3]} {day.year}" in first
    assert card_authors(("A B", "C D", "E F", "G H")) == "A B, C D, et al."
    assert byline(("A B", "C D", "E F")) == "A B, C D, and E F" and byline(("A B", "C D")) == "A B and C D"


def test_catalogues_list_each_season_by_month_and_series_by_volume(web: Testbed, get: Served) -> None:
    items = web.items_on(PRESS)
    seasons = links_of(page_of(get, PRESS, "/catalogs"), r"/catalogs/(?:spring|fall)-\d{4}")
    assert sorted(seasons) == sorted({f"/catalogs/{season_of(date.fromisoformat(i.date))}" for i in items})
    reached: list[str] = []
    for season in seasons:
        page = _unescaped(page_of(get, PRESS, season))
        mine = sorted((i for i in items if f"/catalogs/{season_of(date.fromisoformat(i.date))}" == season),
                      key=lambda i: (i.date, i.key))  # fmt: skip
        assert list(dict.fromkeys(links_of(page.split('<main class="content">', 1)[1], BOOK))) == [i.path for i in mine]
        for item in mine:
            day = date.fromisoformat(item.date)
            assert f"<h2>{MONTHS[day.month - 1]} {day.year}</h2>" in page
        reached += [i.path for i in mine]
    assert sorted(reached) == sorted(i.path for i in items)
    for slug in SERIES:
        page = page_of(get, PRESS, f"/series/{slug}")
        volumes = [int(n) for n in re.findall(r'<span class="number">Volume (\d+)</span>', page)]
        assert volumes == sorted(volumes, reverse=True) and volumes
        members = sorted((i for i in items if series_of(i) == slug), key=lambda i: (i.date, i.key), reverse=True)
        assert links_of(page, BOOK) == [i.path for i in members]
    assert not any(series_of(i) for i in items if i.topic.endswith("-other"))


def test_a_book_names_every_author_its_formats_dates_and_book_json_ld(web: Testbed, get: Served) -> None:
    items = web.items_on(PRESS)
    for item in items:
        page = _unescaped(page_of(get, PRESS, item.path))
        visible = page.split("</head>", 1)[1]
        assert f"<h1>{item.title.split(': ')[0]}</h1>" in visible
        line = visible.split('<p class="byline">', 1)[1].split("</p>", 1)[0]
        assert links_of(line, r"/authors/[a-z0-9-]+") == [author_path(a) for a in item.authors]
        assert _text(line) == "By " + byline(item.authors)
        day = date.fromisoformat(item.date)
        assert f"<td>Hardcover</td><td>{item.key}</td><td>{pub_date(day)}</td>" in visible
        soft_isbn, soft_day = paperback(item)
        assert (f"<td>Paperback</td><td>{soft_isbn}</td><td>{pub_date(soft_day)}</td>" in visible) == (
            soft_day <= TODAY
        )
        assert item.date not in visible and item.abstract in visible
        found = re.search(r'<script type="application/ld\+json">(.+?)</script>', page)
        assert found is not None
        data = json.loads(found.group(1))
        assert data["@type"] == "Book" and data["datePublished"] == item.date and data["isbn"] == item.key
        assert [a["name"] for a in data["author"]] == list(item.authors)
    assert pub_date(date(2024, 3, 12)) == "03/12/2024" and len({isbn13(n) for n in range(1000)}) == 1000
    assert all(sum(int(d) * (3 if n % 2 else 1) for n, d in enumerate(i.key)) % 10 == 0 for i in items)
    assert any(paperback(i)[1] <= TODAY for i in items) and any(paperback(i)[1] > TODAY for i in items)
    pdf = get[1].get(url_of(get, PRESS, items[0].pdf_path))
    assert pdf.status_code == 200 and pdf.content.startswith(b"%PDF")


def test_an_authors_page_lists_their_books_newest_first(web: Testbed, get: Served) -> None:
    items = web.items_on(PRESS)
    names = {a for i in items for a in i.authors}
    busy = [n for n in names if sum(n in i.authors for i in items) > 1]
    assert busy
    for name in names:
        page = page_of(get, PRESS, author_path(name))
        mine = sorted((i for i in items if name in i.authors), key=lambda i: (i.date, i.key), reverse=True)
        assert list(dict.fromkeys(links_of(page.split('<main class="content">', 1)[1], BOOK))) == [i.path for i in mine]


# ---------------------------------------------------------------------------------------------- reachability


@pytest.mark.parametrize("site", SITES)
def test_every_relevant_item_is_reachable_from_home_as_a_visitor_within_robots_txt(web: Testbed, site: str) -> None:
    check_reachable(web, site, scripted=site == OSF)


def test_the_service_shows_nothing_to_a_visitor_without_its_script(web: Testbed) -> None:
    reached = visit(web, OSF)
    assert not reached & {i.path for i in web.items_on(OSF)} and missing(web, OSF, reached)


def _shut(site: str) -> str:
    """Each site's way to its items shut while the items themselves stay allowed: the service's discover pages, the
    handbook's paper chapters (its sidebar still links them), the press's subjects, catalogues, series and authors
    (its home still shows the newest books)."""
    if site == OSF:
        return f"Disallow: /preprints/{PROVIDER}/discover\n"
    if site == HANDBOOK:
        return "Disallow: /papers/index.html\nDisallow: /papers/20\n"
    return "Disallow: /subjects\nDisallow: /catalogs\nDisallow: /series\nDisallow: /authors/\n"


@pytest.mark.parametrize("site", SITES)
def test_the_reachability_check_fails_when_robots_txt_shuts_the_way(web: Testbed, site: str) -> None:
    reached = visit(web, site, robots_txt=f"User-agent: *\n{_shut(site)}", scripted=site == OSF)
    assert missing(web, site, reached)
    if site == PRESS:  # the home page still shows the newest books
        assert reached & {i.path for i in web.items_on(site)}
