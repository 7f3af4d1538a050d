"""The twenty-first batch of fresh held-out sites (`eval/testbed/fresh_heldout21*.py`) as built, served on loopback:
each structure they claim, and every relevant item reachable from the home page as a visitor reaches it (the links a
person clicks, paging included) within robots.txt, with a robots.txt that shuts the way showing the check can fail.
No crawler runs here: their first benchmark run is the measure, and it is the lead's."""

from __future__ import annotations

import json
import re
from datetime import date

import pytest
from site_visitor import METADATA_TAGS, Served, check_reachable, links_of, missing, page_of, robots_of, url_of, visit

from research_crawler.eval.testbed import Testbed
from research_crawler.eval.testbed.fresh_heldout21 import (
    FRESH21_SITE_SPECS,
    NAMESPACES,
    namespace_of,
    preprint_doi,
    project_name,
    title_words,
)
from research_crawler.eval.testbed.fresh_heldout21_forge import (
    CHORES,
    GROUP_PAGE,
    PER_PAGE,
    bibtex,
    front_matter_date,
    projects_of,
    releases,
)
from research_crawler.eval.testbed.fresh_heldout21_reviews import (
    GROUPS,
    SEARCH_PAGE,
    card_authors,
    evaluations,
    list_id,
    list_order,
    sciety_date,
)
from research_crawler.eval.testbed.fresh_heldout21_reviews import PER_PAGE as LIST_PAGE
from research_crawler.eval.testbed.fresh_heldout21_social import (
    DEPARTMENTS,
    INSTITUTION,
    SHOWN,
    byline,
    journal_line,
    newest_first,
    profile_of,
)
from research_crawler.eval.testbed.fresh_heldout21_social import PER_PAGE as RESEARCH_PAGE
from research_crawler.eval.testbed.markup import MONTHS

SITES = [spec.name for spec in FRESH21_SITE_SPECS]
FORGE, REVIEWS, SOCIAL = "fresh21-forge", "fresh21-reviews", "fresh21-social"
PROJECT = r"/(?:ecology-lab|cryosphere|rse)/[a-z0-9-]+"
PAPER = PROJECT + r"/-/blob/main/paper/paper\.md"
ARTICLE = r"/articles/activity/10\.1101/\d{4}\.\d{2}\.\d{2}\.\d{6}"
PUBLICATION = r"/publication/\d{9}_[A-Za-z0-9_]+"


def _unescaped(page: str) -> str:
    return page.replace("&amp;", "&").replace("&quot;", '"').replace("&#x27;", "'")


# ---------------------------------------------------------------------------------------------- forge


def test_the_forge_sends_a_visitor_to_explore_where_every_project_is_listed_by_last_activity(
    web: Testbed, get: Served
) -> None:
    items = web.items_on(FORGE)
    home = get[1].get(url_of(get, FORGE, "/"), follow_redirects=False)
    assert home.status_code == 302 and home.headers["location"] == "/explore/projects"
    projects = projects_of(items)
    assert len(projects) == len(items) + len(CHORES) > PER_PAGE
    listed: list[str] = []
    for n in range(1, -(-len(projects) // PER_PAGE) + 1):
        page = page_of(get, FORGE, f"/explore/projects?page={n}")
        listed += list(dict.fromkeys(p for p in links_of(page, PROJECT) if "/-/" not in p))
        assert "Sort by: Updated date" in page and (f'href="/explore/projects?page={n + 1}"' in page) == (
            n * PER_PAGE < len(projects)
        )
    assert listed == [p.path for p in projects]
    assert [p.updated for p in projects] == sorted((p.updated for p in projects), reverse=True)
    starred = page_of(get, FORGE, "/explore/projects?sort=stars_desc")
    assert links_of(starred, PROJECT)[0] == max(projects, key=lambda p: (p.stars, [-ord(c) for c in p.name])).path
    glaciology = sorted(p.path for p in projects if p.topic == "glaciology")
    topic = "".join(page_of(get, FORGE, f"/explore/projects/topics/glaciology?page={n}") for n in (1, 2))
    assert sorted(set(links_of(topic, PROJECT))) == glaciology and len(glaciology) > PER_PAGE // 2
    assert {i.path.split("/-/")[0] for i in items if i.category == "glaciology"} < set(glaciology)
    robots = robots_of(get, FORGE)
    assert not robots.can_fetch(url_of(get, FORGE, "/search?search=bat"), "*")
    assert not robots.can_fetch(url_of(get, FORGE, f"/{items[0].key}/-/blame/main/paper/paper.md"), "*")
    assert robots.can_fetch(url_of(get, FORGE, items[0].path), "*")


def test_a_group_lists_its_projects_by_name_six_at_a_time_with_keyset_cursors(web: Testbed, get: Served) -> None:
    items = web.items_on(FORGE)
    groups = links_of(page_of(get, FORGE, "/explore/groups"), r"/[a-z-]+")
    assert [g for g in groups if g.lstrip("/") in NAMESPACES] == [f"/{ns}" for ns in NAMESPACES]
    for namespace in NAMESPACES:
        mine = sorted(p.name for p in projects_of(items) if p.namespace == namespace)
        shown, pages, address = [], 0, f"/{namespace}"
        while True:
            page = page_of(get, FORGE, address)
            pages += 1
            shown += [p.rsplit("/", 1)[1] for p in links_of(page, rf"/{namespace}/[a-z0-9-]+")]
            step = re.search(r'rel="next" href="([^"]+)"', page)
            if step is None:
                break
            address = step.group(1)
            assert "?cursor=" in address and "page=" not in address
        assert shown == mine and pages == max(1, -(-len(mine) // GROUP_PAGE))
    assert any(len([p for p in projects_of(items) if p.namespace == ns]) > GROUP_PAGE for ns in NAMESPACES)
    assert all(i.key == f"{namespace_of(i.title)}/{i.key.split('/')[1]}" for i in items)
    assert project_name(0, "x") != project_name(16, "x")


def test_a_project_renders_its_readme_with_bibtex_and_its_paper_with_front_matter(web: Testbed, get: Served) -> None:
    items = web.items_on(FORGE)
    for item in items:
        project = page_of(get, FORGE, "/" + item.key)
        assert _unescaped(bibtex(item)) in _unescaped(project) and f"year = {{{item.year}}}" in bibtex(item)
        assert f"{item.authors[0].rsplit(' ', 1)[1]}, {item.authors[0].rsplit(' ', 1)[0]}" in bibtex(item)
        assert item.path in links_of(project, PAPER) and f"/{item.key}/-/releases" in project
        days = [day for _, day in releases(item)]
        assert days == sorted(days, reverse=True) and max(days) > date.fromisoformat(item.date)
        listed = page_of(get, FORGE, f"/{item.key}/-/releases")
        assert all(f'datetime="{day}"' in listed for day in days)
        paper = _unescaped(page_of(get, FORGE, item.path))
        assert f"date: {front_matter_date(date.fromisoformat(item.date))}" in paper
        assert all(f"  - name: {a}" in paper for a in item.authors) and f"title: '{item.title}'" in paper
        assert not METADATA_TAGS.search(paper) and item.date not in paper and item.abstract in paper
    assert front_matter_date(date(2024, 3, 12)) == "12 March 2024"
    chore = page_of(get, FORGE, f"/{CHORES[0][0]}/{CHORES[0][1]}")
    assert not links_of(chore, PAPER)
    pdf = get[1].get(url_of(get, FORGE, items[0].pdf_path))
    assert pdf.status_code == 200 and pdf.content.startswith(b"%PDF")


# ---------------------------------------------------------------------------------------------- aggregator


def _walk_list(get: Served, uuid: str) -> tuple[list[str], int]:
    found, pages, address = [], 0, f"/lists/{uuid}"
    while True:
        page = page_of(get, REVIEWS, address)
        pages += 1
        found += links_of(page, ARTICLE)
        step = re.search(r'class="pagination-controls__next" href="([^"]+)"', page)
        if step is None:
            return found, pages
        address = step.group(1)


def test_groups_list_their_evaluated_articles_by_latest_evaluation_five_a_page(web: Testbed, get: Served) -> None:
    items = web.items_on(REVIEWS)
    groups = links_of(page_of(get, REVIEWS, "/groups"), r"/groups/[a-z-]+")
    assert groups == [f"/groups/{slug}" for slug in GROUPS]
    reached: set[str] = set()
    for slug in GROUPS:
        assert f"/lists/{list_id(slug)}" in links_of(page_of(get, REVIEWS, f"/groups/{slug}"), r"/lists/[0-9a-f-]+")
        expected = list_order(items, slug)
        shown, pages = _walk_list(get, list_id(slug))
        assert shown == [i.path for i, _ in expected] and pages == max(1, -(-len(expected) // LIST_PAGE))
        days = [d for _, d in expected]
        assert days == sorted(days, reverse=True)
        reached |= set(shown)
    assert reached == {i.path for i in items}
    first = page_of(get, REVIEWS, f"/lists/{list_id('gut-brain-club')}")
    top = list_order(items, "gut-brain-club")[0]
    assert f"Latest activity {sciety_date(top[1])}" in first and card_authors(top[0]) in _unescaped(first)
    assert any(len(i.authors) > 3 for i in items) and card_authors(items[0]).count(",") <= 2
    found = page_of(get, REVIEWS, "/search?query=blastema&category=articles")
    assert links_of(found, ARTICLE) and len(links_of(found, ARTICLE)) <= SEARCH_PAGE
    robots = robots_of(get, REVIEWS)
    assert robots.can_fetch(url_of(get, REVIEWS, "/search?query=sleep"), "*")
    assert not robots.can_fetch(url_of(get, REVIEWS, "/log-in"), "*")


def test_an_article_gives_its_posting_day_every_author_and_dated_evaluations(web: Testbed, get: Served) -> None:
    items = web.items_on(REVIEWS)
    for item in items:
        page = _unescaped(page_of(get, REVIEWS, item.path))
        posted = date.fromisoformat(item.date)
        assert f">{sciety_date(posted)}</time> on bioRxiv" in page and item.key.startswith(
            f"10.1101/{posted:%Y.%m.%d}."
        )
        assert all(f"<li>{a}</li>" in page for a in item.authors)
        for evaluation in evaluations(item):
            assert evaluation.day > posted and f'<time datetime="{evaluation.day}">' in page
        tags = re.findall(r'<meta (?:name|property)="([^"]+)"', page)
        assert [t for t in tags if t != "viewport"] == ["og:title", "og:description", "og:type"]
    assert sciety_date(date(2024, 3, 12)) == "Mar 12, 2024" and preprint_doi(date(2024, 3, 12), 1).startswith(
        "10.1101/2024.03.12."
    )
    shared = [i for i in items if i.work]
    assert len(shared) == 3
    for item in shared:
        article = next(c for c in web.copies_of(item) if c.site == SOCIAL)
        assert article.date > item.date and item.doi == article.doi
        assert f'href="{url_of(get, SOCIAL, article.path)}"' in page_of(get, REVIEWS, item.path)


# ---------------------------------------------------------------------------------------------- network


def test_the_network_leads_from_its_directory_to_departments_and_their_research_five_a_page(
    web: Testbed, get: Served
) -> None:
    items = web.items_on(SOCIAL)
    landing = page_of(get, SOCIAL, "/")
    assert "/directory/institutions" in links_of(landing, r"/directory/institutions")
    assert not links_of(landing, PUBLICATION)
    base = f"/institution/{INSTITUTION[0]}"
    assert base in links_of(page_of(get, SOCIAL, "/directory/institutions"), r"/institution/[A-Za-z_]+")
    departments = links_of(page_of(get, SOCIAL, base), base + r"/department/[A-Za-z_]+")
    assert departments == [f"{base}/department/{key}" for key in DEPARTMENTS]
    reached: list[str] = []
    for key, name in DEPARTMENTS.items():
        mine = newest_first([i for i in items if i.category == name])
        assert f"{base}/department/{key}/research" in page_of(get, SOCIAL, f"{base}/department/{key}")
        shown: list[str] = []
        for n in range(1, max(1, -(-len(mine) // RESEARCH_PAGE)) + 1):
            page = _unescaped(page_of(get, SOCIAL, f"{base}/department/{key}/research?page={n}"))
            shown += links_of(page, PUBLICATION)
            for item in mine[(n - 1) * RESEARCH_PAGE : n * RESEARCH_PAGE]:
                assert " · ".join(byline(item.authors)) in page and journal_line(item) in page
        assert shown == [i.path for i in mine]
        reached += shown
    assert sorted(reached) == sorted(i.path for i in items) and len(items) > RESEARCH_PAGE
    assert byline(("A B", "C D", "E F", "G H", "I J", "K L")) == ["A B", "C D", "E F", "G H", "[...]", "K L"]
    robots = robots_of(get, SOCIAL)
    assert not robots.can_fetch(url_of(get, SOCIAL, "/search/publication?q=heat"), "*")
    assert not robots.can_fetch(url_of(get, SOCIAL, f"/publication/{items[0].key}/citation/download"), "*")
    assert robots.can_fetch(url_of(get, SOCIAL, items[0].path), "*")


def test_a_publication_gives_month_and_year_every_author_and_tags_with_the_month(web: Testbed, get: Served) -> None:
    items = web.items_on(SOCIAL)
    for item in items:
        assert item.path.endswith("_" + title_words(item.title))
        page = _unescaped(page_of(get, SOCIAL, item.path))
        day = date.fromisoformat(item.date)
        assert f"Article · {MONTHS[day.month - 1]} {day.year} · {journal_line(item)}" in page
        assert f'<meta name="citation_publication_date" content="{day.year}/{day.month:02d}" />' in page
        assert item.date not in page and f"DOI: {item.doi}" in page
        box = page.split('<div class="authors-box">', 1)[1]
        assert links_of(box, r"/profile/[A-Za-z-]+-\d") == [profile_of(a) for a in item.authors]
    shared = [i for i in items if i.work]
    assert len(shared) == 3
    for item in shared:
        preprint = next(c for c in web.copies_of(item) if c.site == REVIEWS)
        assert f'href="{url_of(get, REVIEWS, preprint.path)}"' in page_of(get, SOCIAL, item.path)


def test_a_profile_shows_two_items_and_loads_the_rest_by_script_with_a_cursor(web: Testbed, get: Served) -> None:
    items = web.items_on(SOCIAL)
    names = {a for i in items for a in i.authors}
    busy = [n for n in names if sum(n in i.authors for i in items) > SHOWN]
    assert busy
    for name in busy:
        works = newest_first([i for i in items if name in i.authors])
        page = page_of(get, SOCIAL, profile_of(name))
        shown = links_of(page.split("<script", 1)[0], PUBLICATION)
        assert shown == [i.path for i in works[:SHOWN]]
        more = re.search(r'data-url="([^"]+)"', page)
        assert more is not None
        loaded, address = [], more.group(1)
        while address:
            data = json.loads(get[1].get(url_of(get, SOCIAL, address)).text)
            loaded += [entry["url"] for entry in data["items"]]
            address = f"{profile_of(name)}/research.json?cursor={data['nextCursor']}" if data["nextCursor"] else ""
        assert loaded == [i.path for i in works[SHOWN:]]
    quiet = next(n for n in names if sum(n in i.authors for i in items) <= SHOWN)
    assert "show-more" not in page_of(get, SOCIAL, profile_of(quiet))


# ---------------------------------------------------------------------------------------------- reachability


@pytest.mark.parametrize("site", SITES)
def test_every_relevant_item_is_reachable_from_home_as_a_visitor_within_robots_txt(web: Testbed, site: str) -> None:
    check_reachable(web, site)


def _shut(site: str) -> str:
    """Each site's way to its items shut while the items themselves stay allowed: the forge's explore pages (where
    `/` sends a visitor), the aggregator's lists (its home still shows the articles evaluated last), the network's
    institution pages."""
    if site == FORGE:
        return "Disallow: /explore\n"
    if site == REVIEWS:
        return "Disallow: /lists/\n"
    return "Disallow: /institution/\n"


@pytest.mark.parametrize("site", SITES)
def test_the_reachability_check_fails_when_robots_txt_shuts_the_way(web: Testbed, site: str) -> None:
    reached = visit(web, site, robots_txt=f"User-agent: *\n{_shut(site)}")
    assert missing(web, site, reached)
    if site == REVIEWS:  # the home page still shows the articles evaluated last
        assert reached & {i.path for i in web.items_on(site)}
