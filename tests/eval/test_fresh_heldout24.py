"""The twenty-fourth batch of fresh held-out sites (`eval/testbed/fresh_heldout24*.py`) as built, served on loopback:
each structure they claim, and every relevant item reachable from the home page as a visitor reaches it (the links a
person clicks, paging and facets included) within robots.txt, with a robots.txt that shuts the way showing the check
can fail. No crawler runs here: their first benchmark run is the measure, and it is the lead's."""

from __future__ import annotations

import json
import re
from datetime import date

import pytest
from site_visitor import (
    METADATA_TAGS,
    Served,
    check_batch,
    check_reachable,
    links_of,
    missing,
    page_of,
    robots_of,
    url_of,
    visit,
)

from research_crawler.eval.testbed import Testbed
from research_crawler.eval.testbed.fresh_batches import FRESH_BATCHES
from research_crawler.eval.testbed.fresh_heldout24 import (
    FRESH24_SITE_SPECS,
    SERVERS,
    docid,
    journal_of,
    ppr_id,
    release_id,
    server_of,
)
from research_crawler.eval.testbed.fresh_heldout24_newsroom import (
    ALL_PAGE,
    CHANNEL_PAGE,
    co_author_sentence,
    headline,
    releases_of,
    wire_day,
)
from research_crawler.eval.testbed.fresh_heldout24_newsroom import HOME_LATEST as NEWS_HOME
from research_crawler.eval.testbed.fresh_heldout24_overlay import (
    HOME_LATEST,
    LATEST_PAGE,
    accepted_on,
    long_us_day,
    semicolon_names,
    submitted_on,
    volume_of,
)
from research_crawler.eval.testbed.fresh_heldout24_pmc import (
    PAGE_SIZE,
    fillers,
    pmc_day,
    preprint_doi,
    vancouver,
)
from research_crawler.eval.testbed.models import Item

SITES = [spec.name for spec in FRESH24_SITE_SPECS]
PMC, OVERLAY, NEWSROOM = "fresh24-pmc", "fresh24-overlay", "fresh24-newsroom"
RECORD = r"/article/(?:PPR/PPR|MED/)\d+"
ARTICLE = r"/\d{5}"
RELEASE = r"/news-releases/\d{7}"


def _unescaped(page: str) -> str:
    return page.replace("&amp;", "&").replace("&quot;", '"').replace("&#x27;", "'")


def _text(fragment: str) -> str:
    return _unescaped(re.sub(r"<[^>]+>", "", fragment))


def _main(page: str, marker: str) -> str:
    return page.split(marker, 1)[1]


def test_the_batch_is_sound(web: Testbed) -> None:
    batch = next(b for b in FRESH_BATCHES if b.layout == "fresh24")
    check_batch(web, batch)
    assert [s.name for s in batch.specs] == SITES
    assert len({ppr_id(n) for n in range(5000)}) == 5000 and len({docid(n) for n in range(5000)}) == 5000
    assert len({release_id(n) for n in range(5000)}) == 5000
    keys = {p.key for p in fillers(web.items_on(PMC))}
    assert not keys & {i.key for i in web.items_on(PMC)}


# ---------------------------------------------------------------------------------------------- literature database


def _walk_results(get: Served, address: str) -> tuple[list[str], int]:
    """Every record a search lists, following its "Next 25" cursor links, and how many pages that took."""
    found, pages = [], 0
    while address:
        page = page_of(get, PMC, address)
        pages += 1
        found += links_of(_main(page, '<section class="results">'), RECORD)
        step = re.search(r'class="next" href="([^"]+)"', page)
        address = _unescaped(step.group(1)) if step else ""
    return found, pages


def _records(web: Testbed) -> list[Item]:
    items = web.items_on(PMC)
    return sorted(items + fillers(items), key=lambda r: (r.date, r.key), reverse=True)


def test_the_database_is_a_search_paged_by_cursor_with_facets(web: Testbed, get: Served) -> None:
    records = _records(web)
    home = _unescaped(page_of(get, PMC, "/"))
    assert not links_of(home, RECORD) and 'action="/search" method="get"' in home
    recent = re.search(r'href="(/search\?query=SRC%3APPR[^"]*)">Recent preprints</a>', home)
    assert recent is not None and "P_PDATE_D" in recent.group(1)
    found, pages = _walk_results(get, recent.group(1))
    assert found == [r.path for r in records if r.key.startswith("PPR")]
    assert pages == -(-len(found) // PAGE_SIZE) > 1
    second = _unescaped(page_of(get, PMC, recent.group(1)))
    assert "cursorMark=AoJ" in second and "page=" not in second
    assert "Next 25 ›" in second and 'class="next"' in second
    for year_link in links_of(second.split('<aside class="facets">', 1)[1].split("</aside>")[0], r"/search\?[^\"]+"):
        if "PUB_YEAR" not in year_link:
            continue
        year = re.search(r"PUB_YEAR%3A(\d{4})", year_link)
        assert year is not None
        listed, _ = _walk_results(get, year_link)
        assert listed == [r.path for r in records if r.key.startswith("PPR") and r.date[:4] == year.group(1)]
    subjects = {i.category for i in web.items_on(PMC)}
    for subject in subjects:
        assert f"{subject} preprints</a>" in home
    item = web.items_on(PMC)[0]
    mixed, pages = _walk_results(get, f"/search?query=SUBJECT%3A%22{item.category}%22&sort=P_PDATE_D+desc")
    assert mixed == [r.path for r in records if r.category == item.category] and any("/MED/" in p for p in mixed)
    by_surname = page_of(get, PMC, f"/search?query={item.authors[0].split()[-1]}")
    assert item.path in links_of(by_surname, RECORD)
    robots = robots_of(get, PMC)
    for path in ("/api/rest/search?query=x", "/export/ris?ids=PPR700001", "/accounts/login"):
        assert not robots.can_fetch(url_of(get, PMC, path), "*"), path
    assert robots.can_fetch(url_of(get, PMC, item.path), "*") and robots.can_fetch(url_of(get, PMC, "/search?q"), "*")
    bad = get[1].get(url_of(get, PMC, "/search?query=SRC:PPR&cursorMark=nonsense"))
    assert bad.status_code == 400


def test_a_preprint_record_has_vancouver_authors_a_posted_day_and_json_ld_only(web: Testbed, get: Served) -> None:
    for item in web.items_on(PMC):
        page = _unescaped(page_of(get, PMC, item.path))
        head, visible = page.split("</head>", 1)
        assert f'<h1 id="article--current--title">{item.title}</h1>' in visible and item.abstract in visible
        assert f'<div class="authors">{vancouver(item.authors)}</div>' in visible
        assert re.findall(r'<span class="name">([^<]+)</span>', visible) == list(item.authors)
        assert f"{SERVERS[server_of(item.title)]}. Posted: {pmc_day(item.date)}." in visible
        assert preprint_doi(item) in visible and item.date not in visible and "This article is a preprint" in visible
        data = json.loads(re.search(r'<script type="application/ld\+json">(.*?)</script>', head, re.S).group(1))  # type: ignore[union-attr]
        assert data["@type"] == "ScholarlyArticle" and data["datePublished"] == item.date
        assert [a["name"] for a in data["author"]] == list(item.authors)
        assert "citation_" not in page and 'property="og:' not in page
    assert vancouver(("Aino Okafor", "Ana María Souza")) == "Okafor A, Souza AM"
    assert pmc_day("2024-03-12") == "2024 Mar 12"
    pdf = get[1].get(url_of(get, PMC, web.items_on(PMC)[0].pdf_path))
    assert pdf.status_code == 200 and pdf.content.startswith(b"%PDF")
    relevant = {i for q in web.queries for i in q.relevant_item_ids}
    assert not {f"{PMC}:{r.key}" for r in fillers(web.items_on(PMC))} & relevant
    med = next(r for r in fillers(web.items_on(PMC)) if not r.key.startswith("PPR"))
    assert "PMID: " + med.key in page_of(get, PMC, med.path)


# ---------------------------------------------------------------------------------------------- overlay journal


def test_the_journal_lists_latest_volumes_sections_and_authors(web: Testbed, get: Served) -> None:
    items = web.items_on(OVERLAY)
    home = page_of(get, OVERLAY, "/")
    assert links_of(_main(home, '<div id="content">'), ARTICLE) == [i.path for i in items[:HOME_LATEST]]
    found, pages = [], 0
    first = page_of(get, OVERLAY, "/browse/latest")
    numbered = links_of(first, r"/browse/latest\?page=\d+")
    for address in ["/browse/latest", *numbered]:
        found += links_of(_main(page_of(get, OVERLAY, address), '<div id="content">'), ARTICLE)
        pages += 1
    assert found == [i.path for i in items] and pages == -(-len(items) // LATEST_PAGE) > 1
    for item in items[:LATEST_PAGE]:
        assert f"Published on {long_us_day(date.fromisoformat(item.date))}" in first
    volumes = links_of(page_of(get, OVERLAY, "/browse/volumes"), r"/volume/view/id/\d+")
    assert len(volumes) == len({i.year for i in items})
    reached = []
    for volume in volumes:
        page = page_of(get, OVERLAY, volume)
        year = int(re.search(r"<h1>Volume \d+ - (\d{4})</h1>", page).group(1))  # type: ignore[union-attr]
        listed = links_of(page, ARTICLE)
        assert listed == [i.path for i in sorted(items, key=lambda i: (i.date, i.key)) if i.year == year]
        assert f"<h1>Volume {volume_of(year)} - {year}</h1>" in page and f"{volume}/editorial" in page
        reached += listed
    assert sorted(reached) == sorted(i.path for i in items)
    sections = links_of(page_of(get, OVERLAY, "/browse/sections"), r"/section/view/id/\d+")
    assert len(sections) == len({i.category for i in items})
    assert sorted(p for s in sections for p in links_of(page_of(get, OVERLAY, s), ARTICLE)) == sorted(
        i.path for i in items
    )
    surname = items[0].authors[0].rsplit(" ", 1)[1]
    letter = page_of(get, OVERLAY, f"/browse/authors?letter={surname[0]}")
    search = links_of(letter, r"/search/\?authorFullname_s=[^\"]+")
    assert search and f">{surname}, " in letter
    robots = robots_of(get, OVERLAY)
    assert not robots.can_fetch(url_of(get, OVERLAY, search[0]), "*")
    assert not robots.can_fetch(url_of(get, OVERLAY, "/user/login"), "*")
    assert robots.can_fetch(url_of(get, OVERLAY, items[0].path), "*")


def test_an_article_has_semicolon_authors_its_dates_source_and_citation_tags(web: Testbed, get: Served) -> None:
    for item in web.items_on(OVERLAY):
        page = _unescaped(page_of(get, OVERLAY, item.path))
        day = date.fromisoformat(item.date)
        assert f'<p class="authors">{semicolon_names(item.authors)}</p>' in page and item.abstract in page
        assert f"<dt>Published on</dt><dd>{long_us_day(day)}</dd>" in page
        assert submitted_on(item) < accepted_on(item) < day
        assert f"<dd>{long_us_day(accepted_on(item))}</dd>" in page
        assert f"<dd>{long_us_day(submitted_on(item))}</dd>" in page
        authors = re.findall(r'<meta name="citation_author" content="([^"]+)"', page)
        assert authors == [f"{a.rsplit(' ', 1)[1]}, {a.rsplit(' ', 1)[0]}" for a in item.authors]
        assert f'<meta name="citation_publication_date" content="{day:%Y/%m/%d}"' in page
        assert f'<meta name="citation_doi" content="{item.doi}"' in page and "ld+json" not in page
        if item.work is None:
            assert f'href="https://arxiv.org/abs/{item.arxiv_id}"' in page
    assert semicolon_names(("Aino Okafor", "Chiara Rossi")) == "Aino Okafor ; Chiara Rossi"
    assert long_us_day(date(2024, 3, 12)) == "March 12, 2024"
    pdf = get[1].get(url_of(get, OVERLAY, web.items_on(OVERLAY)[0].pdf_path))
    assert pdf.status_code == 200 and pdf.content.startswith(b"%PDF")


# ---------------------------------------------------------------------------------------------- newsroom


def test_the_newsroom_lists_releases_twenty_a_page_and_channels_load_more(web: Testbed, get: Served) -> None:
    items = web.items_on(NEWSROOM)
    releases = releases_of(items)
    assert sum(r.item is None for r in releases) >= len(items) // 3
    home = page_of(get, NEWSROOM, "/")
    assert links_of(_main(home, "<main>").split("<aside>")[0], RELEASE) == [r.path for r in releases[:NEWS_HOME]]
    first = page_of(get, NEWSROOM, "/news-releases/browse/all")
    numbered = links_of(first, r"/news-releases/browse/all\?page=\d+")
    found = []
    for address in ["/news-releases/browse/all", *numbered]:
        found += links_of(_main(page_of(get, NEWSROOM, address), "<main>"), RELEASE)
    assert found == [r.path for r in releases] and len(numbered) == -(-len(releases) // ALL_PAGE) - 1 > 0
    assert f"<time>{wire_day(releases[0].day)}</time>" in first
    channels = links_of(
        page_of(get, NEWSROOM, "/news-releases/browse/subjects"), r"/news-releases/browse/subject/[a-z-]+"
    )
    assert len(channels) == len({i.category for i in items})
    for channel in channels:
        page = page_of(get, NEWSROOM, channel)
        mine = [r for r in releases if channel.endswith(re.sub(r"[^a-z0-9]+", "-", r.category.lower()).strip("-"))]
        walked = links_of(_main(page, "<main>"), RELEASE)
        assert walked == [r.path for r in mine[:CHANNEL_PAGE]] and len(mine) > CHANNEL_PAGE
        more = re.search(r'class="load-more" data-url="([^"]+)"', page)
        while more:
            fragment = get[1].get(url_of(get, NEWSROOM, _unescaped(more.group(1)))).text
            walked += links_of(fragment, RELEASE)
            more = re.search(r'class="load-more" data-url="([^"]+)"', fragment)
        assert walked == [r.path for r in mine]
    robots = robots_of(get, NEWSROOM)
    for path in ("/embargoed/", "/reporter/login", "/submitter/login"):
        assert not robots.can_fetch(url_of(get, NEWSROOM, path), "*"), path
    assert robots.can_fetch(url_of(get, NEWSROOM, items[0].path), "*")
    searched = page_of(get, NEWSROOM, f"/news-releases/search?keywords={items[0].authors[0].split()[-1]}")
    assert items[0].path in links_of(searched, RELEASE)


def test_a_release_names_the_paper_and_its_authors_in_prose_without_tags(web: Testbed, get: Served) -> None:
    items = web.items_on(NEWSROOM)
    for item in items:
        page = _unescaped(page_of(get, NEWSROOM, item.path))
        assert not METADATA_TAGS.search(page) and item.date not in page
        assert f'<h1 class="page_title">{headline(item)}</h1>' in page and headline(item) != item.title
        assert f"<h3>Article Title</h3><p>{item.title}</p>" in page
        day = wire_day(date.fromisoformat(item.date))
        assert f"News Release <time>{day}</time>" in page and f"<h3>Article Publication Date</h3><p>{day}</p>" in page
        assert f"said {item.authors[0]}, first author of the study" in page
        assert co_author_sentence(item.authors) in page and f"<p>{journal_of(item.title, item.category)}</p>" in page
        assert str(item.doi) in page
    assert co_author_sentence(("A", "B", "C", "D")) == "Co-authors of the paper are B, C and D."
    assert wire_day(date(2024, 3, 2)) == "02-Mar-2024"
    other = next(r for r in releases_of(items) if r.item is None)
    notice = page_of(get, NEWSROOM, other.path)
    assert "Article Title" not in notice and other.kind in notice
    assert get[1].get(url_of(get, NEWSROOM, other.path + "/print.pdf")).status_code == 404
    pdf = get[1].get(url_of(get, NEWSROOM, items[0].pdf_path))
    assert pdf.status_code == 200 and pdf.content.startswith(b"%PDF")


# ---------------------------------------------------------------------------------------------- shared works


def test_a_shared_work_links_the_preprint_record_and_the_journal_article(web: Testbed, get: Served) -> None:
    shared = [i for i in web.items_on(PMC) if i.work]
    assert len(shared) == 3
    for item in shared:
        copy = next(c for c in web.copies_of(item) if c.site == OVERLAY)
        assert copy.date > item.date and copy.doi == item.doi and copy.title == item.title
        record = _unescaped(page_of(get, PMC, item.path))
        assert f'href="{url_of(get, OVERLAY, copy.path)}">Read the version of record</a>' in record
        assert f"Annals of Quantitative Biology</i>, {pmc_day(copy.date)}. DOI: {copy.doi}" in record
        article = _unescaped(page_of(get, OVERLAY, copy.path))
        assert f'href="{url_of(get, PMC, item.path)}">record in Lumina PMC</a>' in article
        assert "arxiv.org" not in article
    alone = next(i for i in web.items_on(PMC) if not i.work)
    assert "version of record" not in page_of(get, PMC, alone.path)


# ---------------------------------------------------------------------------------------------- reachability


@pytest.mark.parametrize("site", SITES)
def test_every_relevant_item_is_reachable_from_home_as_a_visitor_within_robots_txt(web: Testbed, site: str) -> None:
    check_reachable(web, site)
    check_reachable(web, site, scripted=True)


def _shut(site: str) -> str:
    """Each site's way to its items shut while the items themselves stay allowed: the database's searches (every
    listing is one), the journal's browse pages, volumes and sections (its home still shows the latest five), the
    newsroom's listings and channels (its home still shows the latest eight)."""
    if site == PMC:
        return "Disallow: /search\n"
    if site == OVERLAY:
        return "Disallow: /browse/\nDisallow: /volume/\nDisallow: /section/\n"
    return "Disallow: /news-releases/browse/\n"


@pytest.mark.parametrize("site", SITES)
def test_the_reachability_check_fails_when_robots_txt_shuts_the_way(web: Testbed, site: str) -> None:
    reached = visit(web, site, robots_txt=f"User-agent: *\n{_shut(site)}")
    assert missing(web, site, reached)
    items = {i.path for i in web.items_on(site)}
    assert bool(reached & items) == (site != PMC)
