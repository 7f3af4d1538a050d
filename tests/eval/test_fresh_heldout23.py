"""The twenty-third batch of fresh held-out sites (`eval/testbed/fresh_heldout23*.py`) as built, served on loopback:
each structure they claim, and every relevant item reachable from the home page as a visitor reaches it (the links a
person clicks, paging included) within robots.txt, with a robots.txt that shuts the way showing the check can fail.
No crawler runs here: their first benchmark run is the measure, and it is the lead's."""

from __future__ import annotations

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
from research_crawler.eval.testbed.fresh_heldout23 import FRESH23_SITE_SPECS, JOURNALS, journal_of, paper_id, refid
from research_crawler.eval.testbed.fresh_heldout23_daily import (
    PER_DAY_FILLERS,
    TODAY,
    TRENDING_PAGE,
    featured_day,
    fillers,
    published_on,
    short_day,
    upvotes,
)
from research_crawler.eval.testbed.fresh_heldout23_herbarium import (
    PER_PAGE,
    botanical_citation,
    date_published,
    semicolon_authors,
    specimens_of,
    surname_key,
    taxon_path,
)
from research_crawler.eval.testbed.fresh_heldout23_planet import (
    BLOG_PAGE,
    RIVER_SHOWN,
    entries_of,
    posted_line,
    river_authors,
    vancouver,
)
from research_crawler.eval.testbed.markup import MONTHS
from research_crawler.eval.testbed.models import Item

SITES = [spec.name for spec in FRESH23_SITE_SPECS]
DAILY, HERBARIUM, PLANET = "fresh23-daily", "fresh23-herbarium", "fresh23-planet"
PAPER = r"/papers/\d{4}\.\d{5}"
REFERENCE = r"/bibliography/\d{4}"
ENTRY = r"/\d{4}/\d{2}/\d{2}/[a-z0-9-]+/"


def _unescaped(page: str) -> str:
    return page.replace("&amp;", "&").replace("&quot;", '"').replace("&#x27;", "'")


def _text(fragment: str) -> str:
    return _unescaped(re.sub(r"<[^>]+>", "", fragment))


def _main(page: str, marker: str) -> str:
    return page.split(marker, 1)[1]


def test_the_batch_is_sound(web: Testbed) -> None:
    batch = next(b for b in FRESH_BATCHES if b.layout == "fresh23")
    check_batch(web, batch)
    assert [s.name for s in batch.specs] == SITES
    ids = [i.arxiv_id for i in web.items if i.arxiv_id]
    assert all(ids.count(i.arxiv_id) == 1 for i in web.items_on(DAILY))
    assert (
        len({refid(n) for n in range(3000)}) == 3000 and len({paper_id(date(2024, 3, 1), n) for n in range(999)}) == 999
    )


# ---------------------------------------------------------------------------------------------- daily papers


def _newest_first_days(items: list[Item]) -> list[date]:
    return sorted({featured_day(p) for p in items + fillers(items)}, reverse=True)


def test_the_daily_home_is_a_shell_whose_trending_list_scrolls_in_by_cursor(web: Testbed, get: Served) -> None:
    items = web.items_on(DAILY)
    papers = items + fillers(items)
    home = page_of(get, DAILY, "/")
    assert '<section id="trending">' in home and '<script src="/static/daily.js"></script>' in home
    assert not links_of(home, PAPER) and "<noscript>" in home
    script = get[1].get(url_of(get, DAILY, "/static/daily.js")).text
    assert "nextCursor" in script and "IntersectionObserver" in script
    walked, cursor, calls = [], "", 0
    while cursor is not None:
        data = get[1].get(url_of(get, DAILY, f"/api/papers/trending?limit={TRENDING_PAGE}&cursor={cursor}")).json()
        walked += [p["id"] for p in data["papers"]]
        cursor, calls = data["nextCursor"], calls + 1
    assert walked == [p.key for p in sorted(papers, key=lambda p: (-upvotes(p), p.key))]
    assert calls == -(-len(papers) // TRENDING_PAGE) > 1
    robots = robots_of(get, DAILY)
    for path in ("/login", "/join", "/settings/profile", "/notifications"):
        assert not robots.can_fetch(url_of(get, DAILY, path), "*"), path
    assert robots.can_fetch(url_of(get, DAILY, items[0].path), "*")
    assert robots.can_fetch(url_of(get, DAILY, "/search?q=decoding"), "*")
    found = page_of(get, DAILY, f"/search?q={items[0].authors[0].split()[-1]}")
    assert items[0].path in links_of(found, PAPER)


def test_featured_days_list_papers_by_upvotes_and_step_to_the_days_around(web: Testbed, get: Served) -> None:
    items = web.items_on(DAILY)
    papers = {p.key: p for p in items + fillers(items)}
    days = _newest_first_days(items)
    assert _main(page_of(get, DAILY, "/papers"), "<main>") == _main(
        page_of(get, DAILY, f"/papers/date/{days[0].isoformat()}"), "<main>"
    )
    walked, address = [], "/papers"
    while address:
        page = _unescaped(page_of(get, DAILY, address))
        day = days[len(walked)]
        walked.append(day)
        assert f'<span class="day">{MONTHS[day.month - 1]} {day.day}, {day.year}</span>' in page
        listed = [papers[p.rsplit("/", 1)[1]] for p in links_of(_main(page, "<main>"), PAPER)]
        assert listed == sorted(
            (p for p in papers.values() if featured_day(p) == day), key=lambda p: (-upvotes(p), p.key)
        )
        assert len(listed) == 1 + PER_DAY_FILLERS and sum(p.topic != "filler" for p in listed) == 1
        top = listed[0]
        assert f'<span class="author">{top.authors[0]}</span> · {len(top.authors)} authors' in page
        assert f'<span class="count">{upvotes(top)}</span>' in page
        step = re.search(r'class="prev" href="([^"]+)"', page)
        address = step.group(1) if step else ""
    assert walked == days
    oldest = page_of(get, DAILY, f"/papers/date/{days[-1].isoformat()}")
    assert 'class="prev"' not in oldest and 'class="next"' in oldest
    for kind, value in (("week", "{y}-W{w:02d}"), ("month", "{y}-{m:02d}")):
        day = featured_day(items[0])
        filled = value.format(
            y=day.isocalendar()[0] if kind == "week" else day.year, w=day.isocalendar()[1], m=day.month
        )
        shell = page_of(get, DAILY, f"/papers/{kind}/{filled}")
        assert 'id="period"' in shell and not links_of(_main(shell, "<main>"), PAPER)
        data = get[1].get(url_of(get, DAILY, f"/api/daily_papers?{kind}={filled}")).json()
        assert items[0].key in [entry["paper"]["id"] for entry in data]


def test_a_paper_names_every_author_and_its_day_with_open_graph_tags_only(web: Testbed, get: Served) -> None:
    items = web.items_on(DAILY)
    for item in items:
        page = _unescaped(page_of(get, DAILY, item.path))
        visible = page.split("</head>", 1)[1]
        assert f"<h1>{item.title}</h1>" in visible and item.abstract in visible
        authors = re.findall(r'<span class="author">([^<]+)</span>', visible)
        assert authors == list(item.authors)
        assert published_on(item) in visible and item.date not in visible
        assert (str(item.year) in published_on(item)) == (item.year != TODAY.year)
        assert f'href="/papers/date/{featured_day(item).isoformat()}"' in visible
        assert f'href="https://arxiv.org/abs/{item.key}"' in visible
        assert re.findall(r'<meta property="(og:[a-z]+)"', page) == ["og:title", "og:description", "og:type", "og:url"]
        assert "citation_" not in page and "ld+json" not in page
    assert short_day(date(2024, 3, 12)) == "Mar 12, 2024" and short_day(date(TODAY.year, 3, 12)) == "Mar 12"
    pdf = get[1].get(url_of(get, DAILY, items[0].pdf_path))
    assert pdf.status_code == 200 and pdf.content.startswith(b"%PDF")
    relevant = {i for q in web.queries for i in q.relevant_item_ids}
    assert not {f"{DAILY}:{p.key}" for p in fillers(items)} & relevant


# ---------------------------------------------------------------------------------------------- herbarium


def _walk_bibliography(get: Served, address: str) -> tuple[list[str], int]:
    found, pages = [], 0
    while address:
        page = page_of(get, HERBARIUM, address)
        pages += 1
        found += links_of(_main(page, '<div id="innertext">'), REFERENCE)
        step = re.search(r'class="next" href="([^"]+)"', page)
        address = _unescaped(step.group(1)) if step else ""
    return found, pages


def test_the_bibliography_lists_ten_a_page_by_surname_with_year_links(web: Testbed, get: Served) -> None:
    items = web.items_on(HERBARIUM)
    home = page_of(get, HERBARIUM, "/")
    assert 'action="/collections/list" method="post"' in home and 'href="/bibliography/"' in home
    ordered, pages = _walk_bibliography(get, "/bibliography/")
    assert ordered == [i.path for i in sorted(items, key=lambda i: (*surname_key(i), i.key))]
    assert pages == -(-len(items) // PER_PAGE) > 1
    first = _text(page_of(get, HERBARIUM, "/bibliography/"))
    top = min(items, key=lambda i: (*surname_key(i), i.key))
    assert botanical_citation(top) in first
    years = links_of(page_of(get, HERBARIUM, "/bibliography/"), r"/bibliography/\?year=\d{4}")
    assert sorted(years) == sorted({f"/bibliography/?year={i.year}" for i in items})
    for link in years:
        year = int(link[-4:])
        found, _ = _walk_bibliography(get, link)
        assert sorted(found) == sorted(i.path for i in items if i.year == year)
    robots = robots_of(get, HERBARIUM)
    for path in ("/collections/list", "/collections/download/index.php", "/imagelib/search", "/api/v2/occurrence"):
        assert not robots.can_fetch(url_of(get, HERBARIUM, path), "*"), path
    assert robots.can_fetch(url_of(get, HERBARIUM, items[0].path), "*")
    posted = get[1].post(url_of(get, HERBARIUM, "/collections/list"), data={"taxa": specimens_of(items[0])[0].taxon})
    assert posted.status_code == 200 and specimens_of(items[0])[0].path in posted.text
    assert botanical_citation(items[0]).startswith(items[0].authors[0].rsplit(" ", 1)[1] + ", ")


def test_a_reference_is_a_table_with_its_specimens_and_no_tags(web: Testbed, get: Served) -> None:
    items = web.items_on(HERBARIUM)
    for item in items:
        page = _unescaped(page_of(get, HERBARIUM, item.path))
        assert not METADATA_TAGS.search(page) and item.date not in page and item.abstract in page
        assert f"<tr><th>Title</th><td>{item.title}</td></tr>" in page
        assert f"<tr><th>Authors</th><td>{semicolon_authors(item.authors)}</td></tr>" in page
        assert f"<tr><th>Date published</th><td>{date_published(item)}</td></tr>" in page
        assert f"https://doi.org/{item.doi}" in page and JOURNALS[journal_of(item.title)] in page
        assert links_of(page, r"/specimen/WHM\d{6}") == [s.path for s in specimens_of(item)]
        assert item.pdf_path in page
    assert semicolon_authors(("Aino Okafor", "Ana María Souza")) == "Okafor, Aino; Souza, Ana María"
    pdf = get[1].get(url_of(get, HERBARIUM, items[0].pdf_path))
    assert pdf.status_code == 200 and pdf.content.startswith(b"%PDF")


def test_the_taxonomic_tree_leads_to_species_specimens_and_their_literature(web: Testbed, get: Served) -> None:
    items = web.items_on(HERBARIUM)
    families = links_of(page_of(get, HERBARIUM, "/taxa/"), r"/taxa/[a-z]+/")
    assert sorted(families) == sorted({f"/taxa/{i.category.lower()}/" for i in items})
    reached: set[str] = set()
    for family in families:
        for species in links_of(page_of(get, HERBARIUM, family), r"/taxa/[a-z]+/[a-z-]+/"):
            page = page_of(get, HERBARIUM, species)
            reached |= set(links_of(page, REFERENCE))
            for specimen in links_of(page, r"/specimen/WHM\d{6}"):
                record = page_of(get, HERBARIUM, specimen)
                assert re.search(r"<td>\d{1,2} [ivx]+ \d{4}</td>", record) and "Cited in" in record
    assert reached == {i.path for i in items}
    specimen = specimens_of(items[0])[0]
    record = page_of(get, HERBARIUM, specimen.path)
    assert specimen.collected_text in record and items[0].path in links_of(record, REFERENCE)
    assert taxon_path(specimen.taxon, specimen.family) in record


# ---------------------------------------------------------------------------------------------- planet


def test_the_river_shows_the_newest_entries_and_scrolls_the_rest_in(web: Testbed, get: Served) -> None:
    items = web.items_on(PLANET)
    entries = entries_of(items)
    river = _unescaped(page_of(get, PLANET, "/"))
    content = river.split('<div id="river">', 1)[1].split('<div id="more"', 1)[0]
    shown = list(dict.fromkeys(re.findall(rf'href="({ENTRY})"', content)))
    assert shown == [e.path for e in entries[:RIVER_SHOWN]]
    for entry in entries[:RIVER_SHOWN]:
        assert f'<h2 class="date">{MONTHS[entry.day.month - 1]} {entry.day.day}, {entry.day.year}</h2>' in content
        if entry.item is not None:
            assert f"New preprint by {river_authors(entry.item.authors)}" in content
    assert 'href="/archives/"' in river.split("<noscript>", 1)[1] and "/static/river.js" in river
    before = re.search(r'data-before="([^"]+)"', river)
    assert before is not None
    walked, cursor = [], before.group(1)
    while cursor:
        data = get[1].get(url_of(get, PLANET, f"/river.json?before={cursor}")).json()
        walked += list(dict.fromkeys(re.findall(rf'href="({ENTRY})"', data["html"])))
        cursor = data["before"]
    assert walked == [e.path for e in entries[RIVER_SHOWN:]]
    assert river_authors(("A Okafor", "B Rossi", "C Vance")) == "Okafor et al."
    robots = robots_of(get, PLANET)
    assert not robots.can_fetch(url_of(get, PLANET, "/cache/x"), "*")
    assert not robots.can_fetch(url_of(get, PLANET, "/admin/"), "*")
    assert robots.can_fetch(url_of(get, PLANET, items[0].path), "*")
    feed = get[1].get(url_of(get, PLANET, "/rss20.xml"))
    assert feed.status_code == 200 and "<rss" in feed.text and url_of(get, PLANET, entries[0].path) in feed.text


def test_archives_list_every_entry_by_month_and_blogs_ten_a_page(web: Testbed, get: Served) -> None:
    entries = entries_of(web.items_on(PLANET))
    months = links_of(page_of(get, PLANET, "/archives/"), r"/archives/\d{4}/\d{2}/")
    assert sorted(months) == sorted({f"/archives/{e.day:%Y/%m}/" for e in entries})
    reached = []
    for month in months:
        page = page_of(get, PLANET, month)
        listed = links_of(page, ENTRY)
        mine = sorted((e for e in entries if f"/archives/{e.day:%Y/%m}/" == month), key=lambda e: e.order)
        assert listed == [e.path for e in mine]
        assert all(f"{e.day.day} {MONTHS[e.day.month - 1][:3]} {e.day.year}" in page for e in mine)
        reached += listed
    assert sorted(reached) == sorted(e.path for e in entries)
    blogs = {e.blog for e in entries}
    assert len(blogs) > 2
    for slug, _, _ in blogs:
        mine = [e.path for e in entries if e.blog[0] == slug]
        found, address = [], f"/blogs/{slug}/"
        page = page_of(get, PLANET, address)
        pages = links_of(page, rf"/blogs/{slug}/\?page=\d+")
        found += links_of(_main(page, '<div id="content">').split('<div id="sidebar">')[0], ENTRY)
        for other in pages:
            found += links_of(
                _main(page_of(get, PLANET, other), '<div id="content">').split('<div id="sidebar">')[0], ENTRY
            )
        assert found == mine and len(pages) == -(-len(mine) // BLOG_PAGE) - 1


def test_an_entry_keeps_the_post_with_its_reference_and_no_tags(web: Testbed, get: Served) -> None:
    entries = entries_of(web.items_on(PLANET))
    for entry in entries:
        page = _unescaped(page_of(get, PLANET, entry.path))
        assert not METADATA_TAGS.search(page)
        assert f'<p class="date">{posted_line(entry)}</p>' in page and f"Posted by {entry.blog[2]} on" in page
        assert f'href="https://{entry.blog[0]}.example.org{entry.path}"' in page
        if entry.item is not None:
            item = entry.item
            assert f"Reference: {vancouver(item.authors)}. {item.title}. Preprint, {item.year}." in _text(page)
            assert item.pdf_path in page and item.abstract in page and item.date not in page
    assert vancouver(("Aino Okafor", "Ana María Souza")) == "Okafor A, Souza AM"
    assert sum(e.item is None for e in entries) >= len(entries) // 3
    item = web.items_on(PLANET)[0]
    pdf = get[1].get(url_of(get, PLANET, item.pdf_path))
    assert pdf.status_code == 200 and pdf.content.startswith(b"%PDF")


def test_a_shared_work_links_the_post_and_the_herbariums_reference(web: Testbed, get: Served) -> None:
    shared = [i for i in web.items_on(PLANET) if i.work]
    assert len(shared) == 3
    for item in shared:
        copy = next(c for c in web.copies_of(item) if c.site == HERBARIUM)
        assert copy.date > item.date and copy.doi == item.doi and copy.title == item.title
        post = _unescaped(page_of(get, PLANET, item.path))
        assert f'href="{url_of(get, HERBARIUM, copy.path)}"' in post and str(copy.doi) in post
        reference = _unescaped(page_of(get, HERBARIUM, copy.path))
        assert f'href="{url_of(get, PLANET, item.path)}">Planet Field Botany</a>' in reference
    alone = next(i for i in web.items_on(PLANET) if not i.work)
    assert "Whinmoor" not in page_of(get, PLANET, alone.path).split('<div id="sidebar">')[0]


# ---------------------------------------------------------------------------------------------- reachability


@pytest.mark.parametrize("site", SITES)
def test_every_relevant_item_is_reachable_from_home_as_a_visitor_within_robots_txt(web: Testbed, site: str) -> None:
    check_reachable(web, site)
    check_reachable(web, site, scripted=True)


def _shut(site: str) -> str:
    """Each site's way to its items shut while the items themselves stay allowed: the aggregator's earlier days (its
    newest day still shows), the herbarium's bibliography pages and taxonomic tree, the planet's archives and blogs
    (its river still shows the newest entries)."""
    if site == DAILY:
        return "Disallow: /papers/date/\n"
    if site == HERBARIUM:
        return "Disallow: /bibliography/$\nDisallow: /bibliography/?\nDisallow: /taxa/\nDisallow: /specimen/\n"
    return "Disallow: /archives/\nDisallow: /blogs/\n"


@pytest.mark.parametrize("site", SITES)
def test_the_reachability_check_fails_when_robots_txt_shuts_the_way(web: Testbed, site: str) -> None:
    reached = visit(web, site, robots_txt=f"User-agent: *\n{_shut(site)}")
    assert missing(web, site, reached)
    if site != HERBARIUM:  # the newest day and the river still show some
        assert reached & {i.path for i in web.items_on(site)}
