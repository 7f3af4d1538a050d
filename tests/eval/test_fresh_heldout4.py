"""The fourth batch of fresh held-out sites (`eval/testbed/fresh_heldout4*.py`) as built, served on loopback: each
structure they claim, and every relevant item reachable from the home page as a visitor reaches it (the links a
person clicks, facet links included) within robots.txt, with a robots.txt that shuts the way showing the check can
fail. No crawler runs here: their first benchmark run is the measure, and it is the lead's."""

from __future__ import annotations

import json
import re
from datetime import date

import httpx
import pytest
from protego import Protego
from site_visitor import check_reachable, missing, page_of, url_of, visit

from research_crawler.eval.table import HELDOUT_SITES
from research_crawler.eval.testbed import Testbed, TestbedServer
from research_crawler.eval.testbed.fresh_heldout4 import (
    FRESH4_PLANS,
    FRESH4_SITE_SPECS,
    JOURNAL_PATH,
    RESULTS_PER_PAGE,
    embargoed,
    german_date,
    thesis_people,
)
from research_crawler.eval.testbed.fresh_heldout4_journal import (
    ISSUES_PER_ARCHIVE_PAGE,
    LOCALE_COOKIE,
    TAGGED_SINCE,
    issues_of,
)
from research_crawler.eval.testbed.fresh_heldout4_lab import group_members, short_date

SITES = [spec.name for spec in FRESH4_SITE_SPECS]
TAGS = re.compile(r'<meta (name|property)="(citation_|dc\.|DC\.|prism)|application/ld\+json', re.I)
SEARCH = "/solrsearch/index/search"


def test_twelve_requests_with_ground_truth_on_topics_no_other_site_holds(web: Testbed) -> None:
    queries = [q for q in web.queries if q.site in SITES]
    assert len(queries) == sum(len(plan) for plan in FRESH4_PLANS.values()) == 12
    assert {q.id.rsplit("/", 1)[1].split("-")[-1] for q in queries} >= {"topic", "recent", "year", "author", "cross"}
    for query in queries:
        assert query.site in HELDOUT_SITES and query.kind == "unfamiliar"
        sites = {web.item(i).site for i in query.relevant_item_ids}
        assert query.relevant_item_ids and sites == {query.site, *query.also_sites}, query.id
        assert len({web.item(i).work_id for i in query.relevant_item_ids}) <= 10, query.id
    ours = {slug for spec in FRESH4_SITE_SPECS for slug in spec.categories}
    assert not ours & {slug for spec in web.sites if spec.name not in SITES for slug in spec.categories}
    shared = [i for i in web.items if i.site in SITES and i.work]
    assert len(shared) == 6 and {i.site for i in shared} == {"fresh4-lab", "fresh4-journal"}
    assert all(len(i.authors) == 1 for i in web.items_on("fresh4-theses"))


# ---------------------------------------------------------------------------------------------- thesis server


def test_the_thesis_server_lists_only_by_search_narrowed_by_facet_links_and_paged(
    web: Testbed, get: tuple[TestbedServer, httpx.Client]
) -> None:
    items = web.items_on("fresh4-theses")
    home = page_of(get, "fresh4-theses", "/")
    assert f'action="{SEARCH}" method="get"' in home and f'href="{SEARCH}?fakultaet=' in home
    everything = page_of(get, "fresh4-theses", f"{SEARCH}?sort=neu")
    assert f"1 bis {RESULTS_PER_PAGE} von {len(items)} Treffern" in everything
    assert re.findall(r'<li><a href="(/frontdoor/[^"]+)"', everything) == [i.path for i in items[:RESULTS_PER_PAGE]]
    following = re.search(r'href="([^"]+)">Weiter »', everything)
    assert following is not None and "start=10" in following.group(1)
    second = page_of(get, "fresh4-theses", following.group(1).replace("&amp;", "&"))
    assert re.findall(r'<li><a href="(/frontdoor/[^"]+)"', second)[0] == items[RESULTS_PER_PAGE].path
    year = 2024
    facet = re.search(rf'<a href="([^"]*jahr={year}[^"]*)">{year} \((\d+)\)</a>', everything)
    assert facet is not None and int(facet.group(2)) == sum(i.year == year for i in items)
    narrowed = page_of(get, "fresh4-theses", facet.group(1).replace("&amp;", "&"))
    listed = re.findall(r'<li><a href="(/frontdoor/[^"]+)"', narrowed)
    assert listed and all(web.item(f"fresh4-theses:{p.rsplit('/', 1)[1]}").year == year for p in listed)
    assert "entfernen" in narrowed


def test_thesis_records_are_german_field_tables_naming_advisors_and_some_full_texts_are_embargoed(
    web: Testbed, get: tuple[TestbedServer, httpx.Client]
) -> None:
    items = web.items_on("fresh4-theses")
    item = items[0]
    page = page_of(get, "fresh4-theses", item.path)
    surname, given = item.authors[0].split()[-1], " ".join(item.authors[0].split()[:-1])
    advisor = thesis_people(item)[0]
    assert not TAGS.search(page) and f"<th>Verfasser:</th><td>{surname}, {given}</td>" in page
    assert f"<th>Betreuer:</th><td>Prof. Dr. {advisor.split()[-1]}" in page and advisor not in item.authors
    assert f"<th>Datum der Freischaltung:</th><td>{german_date(date.fromisoformat(item.date))}</td>" in page
    locked = next(i for i in items if embargoed(i))
    free = next(i for i in items if not embargoed(i))
    assert "gesperrt bis" in page_of(get, "fresh4-theses", locked.path)
    assert get[1].get(url_of(get, "fresh4-theses", locked.pdf_path)).status_code == 403
    pdf = get[1].get(url_of(get, "fresh4-theses", free.pdf_path))
    assert pdf.status_code == 200 and pdf.content.startswith(b"%PDF")
    robots = Protego.parse(page_of(get, "fresh4-theses", "/robots.txt"))
    assert not robots.can_fetch(url_of(get, "fresh4-theses", f"/export/bibtex/docId/{item.key}"), "*")
    assert f'href="/export/bibtex/docId/{item.key}"' in page


# ---------------------------------------------------------------------------------------------- group website


def test_the_group_lists_citation_strings_by_year_on_one_page_with_dois_on_another_host(
    web: Testbed, get: tuple[TestbedServer, httpx.Client]
) -> None:
    items = web.items_on("fresh4-lab")
    page = page_of(get, "fresh4-lab", "/publications/")
    for year in {i.year for i in items}:
        assert f'<h2 id="y{year}">{year}</h2>' in page and f'href="#y{year}"' in page
    assert re.findall(r'\[<a href="(/publications/[^"]+)">Details', page) == [i.path for i in items]
    item = items[0]
    surname, initial = item.authors[0].split()[-1], item.authors[0].split()[0][0]
    assert f"{surname}, {initial}.," in page and f"({item.year}). {item.title}." in page
    assert f'href="https://doi.org/{item.doi}"' in page and not TAGS.search(page)


def test_the_groups_details_pages_answer_with_and_without_the_slash_and_carry_bibtex_only(
    web: Testbed, get: tuple[TestbedServer, httpx.Client]
) -> None:
    items = web.items_on("fresh4-lab")
    item = items[0]
    slashed = page_of(get, "fresh4-lab", item.path)
    assert item.path.endswith("/") and page_of(get, "fresh4-lab", item.path.rstrip("/")) == slashed
    assert not TAGS.search(slashed) and "article:published_time" not in slashed
    assert short_date(item.date) in slashed and f"year    = {{{item.year}}}" in slashed
    leader = group_members(items)[0][0]
    member = page_of(get, "fresh4-lab", f"/people/{re.sub(r'[^a-z0-9]+', '-', leader.lower()).strip('-')}/")
    theirs = next(i for i in items if leader in i.authors)
    assert f'href="{theirs.path.rstrip("/")}"' in member and f'href="{theirs.path}"' not in member
    shared = next(i for i in items if i.work)
    copy = next(c for c in web.copies_of(shared) if c.site == "fresh4-journal")
    assert copy.doi == shared.doi and get[0].base_url("fresh4-journal").rstrip("/") + copy.path in page_of(
        get, "fresh4-lab", shared.path
    )


# ---------------------------------------------------------------------------------------------- OJS journal


def test_the_journal_is_an_archive_of_issues_with_galleys_and_tags_only_since_2024(
    web: Testbed, get: tuple[TestbedServer, httpx.Client]
) -> None:
    items = web.items_on("fresh4-journal")
    issues = issues_of(items)
    archive = page_of(get, "fresh4-journal", f"{JOURNAL_PATH}/issue/archive")
    assert re.findall(r"/issue/view/(\d+)", archive) == [str(i.id) for i in issues[:ISSUES_PER_ARCHIVE_PAGE]]
    assert f'href="{JOURNAL_PATH}/issue/archive/2">Next' in archive
    issue = issues[-1]
    toc = page_of(get, "fresh4-journal", f"{JOURNAL_PATH}/issue/view/{issue.id}")
    assert all(i.path in toc for i in issue.articles) and ">PDF</a>" in toc and issue.label in toc
    old = next(i for i in items if i.year < TAGGED_SINCE)
    new = next(i for i in items if i.year >= TAGGED_SINCE)
    old_page, new_page = page_of(get, "fresh4-journal", old.path), page_of(get, "fresh4-journal", new.path)
    assert not TAGS.search(old_page) and f"Published: {old.date}" in old_page
    assert f'<meta name="citation_date" content="{new.date.replace("-", "/")}"' in new_page
    galley = re.search(r'href="([^"]+/article/view/\d+/\d+)">PDF', new_page)
    assert galley is not None and f'src="{new.pdf_path}"' in page_of(get, "fresh4-journal", galley.group(1))
    assert get[1].get(url_of(get, "fresh4-journal", new.pdf_path)).content.startswith(b"%PDF")


def test_the_journal_switches_language_by_a_cookie_and_forbids_the_api_its_home_page_reads(
    web: Testbed, get: tuple[TestbedServer, httpx.Client]
) -> None:
    item = web.items_on("fresh4-journal")[0]
    switch = f"{JOURNAL_PATH}/user/setLocale/es_ES?source={item.path}"
    with httpx.Client(timeout=10) as fresh:  # its own cookie jar
        moved = fresh.get(url_of(get, "fresh4-journal", switch), follow_redirects=False)
        assert moved.status_code == 302 and moved.headers["location"] == item.path
        assert moved.cookies.get(LOCALE_COOKIE) == "es_ES"
        spanish = fresh.get(url_of(get, "fresh4-journal", item.path)).text
    assert "Resumen" in spanish and item.title in spanish and "Resumen" not in page_of(get, "fresh4-journal", item.path)
    home = page_of(get, "fresh4-journal", f"{JOURNAL_PATH}/index")
    api = f"{JOURNAL_PATH}/api/v1/submissions"
    assert f"fetch('{api}" in home and item.title not in home.split('id="recent"')[1].split("</div>")[0]
    robots = Protego.parse(page_of(get, "fresh4-journal", "/robots.txt"))
    assert not robots.can_fetch(url_of(get, "fresh4-journal", api), "*")
    assert json.loads(page_of(get, "fresh4-journal", api))["items"][0]["title"] == item.title


# ---------------------------------------------------------------------------------------------- reachability


@pytest.mark.parametrize("site", SITES)
def test_every_relevant_item_is_reachable_from_home_as_a_visitor_within_robots_txt(web: Testbed, site: str) -> None:
    check_reachable(web, site)


@pytest.mark.parametrize(
    ("site", "shut"),
    [("fresh4-theses", SEARCH), ("fresh4-lab", "/publications/"), ("fresh4-journal", "/index.php/jcre/issue/")],
)
def test_the_reachability_check_fails_when_robots_txt_shuts_the_way(web: Testbed, site: str, shut: str) -> None:
    reached = visit(web, site, robots_txt=f"User-agent: *\nDisallow: {shut}\n")
    assert missing(web, site, reached)
