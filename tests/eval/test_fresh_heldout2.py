"""The second batch of fresh held-out sites (`eval/testbed/fresh_heldout2.py`, `fresh_heldout2_repository.py`) as
built, served on loopback: each structure they claim, and requests whose ground truth lies on them. No crawler runs
here: their first benchmark run is the measure (benchmarks/unfamiliar_sites.py)."""

from __future__ import annotations

import json
import re

import httpx
import lxml.html
from protego import Protego

from research_crawler.eval.table import HELDOUT_SITES
from research_crawler.eval.testbed import Testbed, TestbedServer
from research_crawler.eval.testbed.fresh_heldout2 import FRESH2_PLANS, FRESH2_SITE_SPECS
from research_crawler.eval.testbed.models import Item
from research_crawler.eval.testbed.unfamiliar_corpus import generate_unfamiliar_web
from research_crawler.eval.testbed.vocabulary import sentence_case


def _page(get: tuple[TestbedServer, httpx.Client], site: str, path: str, status: int = 200) -> str:
    server, client = get
    response = client.get(server.base_url(site).rstrip("/") + path)
    assert response.status_code == status, (site, path, response.status_code)
    return response.text


def _newest(web: Testbed, site: str) -> list[Item]:
    return sorted(web.items_on(site), key=lambda item: item.date, reverse=True)


def test_each_site_has_its_requests_with_ground_truth_on_it_and_is_held_out() -> None:
    web = generate_unfamiliar_web(2024)
    for spec in FRESH2_SITE_SPECS:
        queries = [q for q in web.queries if q.site == spec.name]
        assert len(queries) == len(FRESH2_PLANS[spec.name]) and spec.name in HELDOUT_SITES
        for query in queries:
            sites = {web.item(i).site for i in query.relevant_item_ids}
            assert query.relevant_item_ids and sites == {spec.name, *query.also_sites}, query.id


def test_the_journals_newest_quarter_is_only_in_early_view_and_articles_carry_only_json_ld(
    web: Testbed, get: tuple[TestbedServer, httpx.Client]
) -> None:
    newest = _newest(web, "fresh2-journal")
    early = _page(get, "fresh2-journal", "/toc/early")
    assert newest[0].path in early and "First published" in early
    issues = _page(get, "fresh2-journal", "/loi")
    contents = [_page(get, "fresh2-journal", href) for href in re.findall(r'href="(/toc/\d+/\d)"', issues)]
    assert len(contents) >= 8 and not any(newest[0].path in page for page in contents)
    in_issues = {item.path for item in web.items_on("fresh2-journal") if any(item.path in page for page in contents)}
    assert in_issues | set(re.findall(r'href="(/article/[^"]+)"', early)) == {i.path for i in newest}
    assert "Pages:" in contents[-1] and not re.search(r"20\d\d-\d\d-\d\d", contents[-1])
    article = _page(get, "fresh2-journal", newest[3].path)
    assert "<meta" not in article.replace('<meta charset="utf-8" />', "").replace('<meta name="viewport"', "")
    data = json.loads(lxml.html.fromstring(article).xpath("//script[@type='application/ld+json']/text()")[0])
    assert data["headline"] == newest[3].title and [a["name"] for a in data["author"]] == list(newest[3].authors)
    assert data["datePublished"] == newest[3].date and "Received" in article and "Published online" in article
    rules = Protego.parse(_page(get, "fresh2-journal", "/robots.txt"))
    assert not rules.can_fetch("/action/doSearch?AllField=coral", "*") and rules.can_fetch(newest[0].path, "*")


def test_the_repository_pages_its_search_by_next_sorts_by_date_and_shows_titles_cut_in_sentence_case(
    web: Testbed, get: tuple[TestbedServer, httpx.Client]
) -> None:
    newest = _newest(web, "fresh2-repository")
    first = _page(get, "fresh2-repository", "/discover?query=&sort=date_desc")
    assert 'rel="next"' in first and "Next ›" in first and '<select name="sort">' in first
    assert first.index(newest[0].path) < first.index(newest[1].path) and newest[10].path not in first
    second = _page(get, "fresh2-repository", "/discover?query=&sort=date_desc&page=2")
    assert newest[10].path in second and 'rel="prev"' in second
    long_title = next(i for i in newest if len(i.title) > 75)
    listed = _page(get, "fresh2-repository", f"/community/{re.sub('[^a-z]+', '-', long_title.category.lower())}")
    listed += _page(
        get, "fresh2-repository", f"/community/{re.sub('[^a-z]+', '-', long_title.category.lower())}?page=2"
    )
    shown = sentence_case(long_title.title)
    assert long_title.title not in listed and (shown[:1].upper() + shown[1:40]) in listed and "…" in listed
    item = _page(get, "fresh2-repository", newest[0].path)
    assert "<table" in item and "Date accessioned" in item and "citation_" not in item and "DC." not in item
    rules = Protego.parse(_page(get, "fresh2-repository", "/robots.txt"))
    assert not rules.can_fetch(f"{newest[0].path}/statistics", "*") and rules.can_fetch(newest[0].path, "*")
    assert rules.crawl_delay("*") == 1.0
    surname = newest[0].authors[0].split()[-1]
    index = _page(get, "fresh2-repository", f"/browse/author?starts_with={surname[0]}")
    assert f"{surname}, " in index and "/discover?author=" in index


def test_the_repository_search_matches_half_the_words_best_first(
    web: Testbed, get: tuple[TestbedServer, httpx.Client]
) -> None:
    results = _page(get, "fresh2-repository", "/discover?query=optical+tweezer+arrays+zebra")
    found = re.findall(r'href="(/handle/[^"]+)"', results)
    tweezers = [
        i.path for i in web.items_on("fresh2-repository") if "tweezer arrays" in f"{i.title} {i.abstract}".lower()
    ]
    assert tweezers and set(tweezers) <= set(found)
    none = _page(get, "fresh2-repository", "/discover?query=zebra+giraffe+okapi")
    assert "No items" in none


def test_the_proceedings_list_every_paper_in_sessions_with_tags_in_the_shown_order(
    web: Testbed, get: tuple[TestbedServer, httpx.Client]
) -> None:
    papers = web.items_on("fresh2-proceedings")
    for year in {item.year for item in papers}:
        contents = _page(get, "fresh2-proceedings", f"/{year}/")
        assert "Session 1:" in contents and "Keynote 1" in contents
        assert {i.path for i in papers if i.year == year} == set(re.findall(r'href="(/\d{4}/papers/[^"]+)"', contents))
    paper = papers[0]
    tags = lxml.html.fromstring(_page(get, "fresh2-proceedings", paper.path)).xpath(
        "//meta[@name='citation_author']/@content"
    )
    assert tags == list(paper.authors)
    assert not Protego.parse(_page(get, "fresh2-proceedings", "/robots.txt")).can_fetch("/review/login", "*")


def test_a_conference_paper_deposited_in_the_repository_links_its_published_version(
    web: Testbed, get: tuple[TestbedServer, httpx.Client]
) -> None:
    deposited = [i for i in web.items_on("fresh2-repository") if i.work]
    assert deposited
    for item in deposited:
        original = next(c for c in web.copies_of(item) if c.site == "fresh2-proceedings")
        assert original.title == item.title and original.authors == item.authors and original.date < item.date
        page = _page(get, "fresh2-repository", item.path)
        assert "Published version" in page and original.path in page
