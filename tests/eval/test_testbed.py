"""The testbed web: a deterministic corpus with sound ground truth, served as five differently built sites."""

from __future__ import annotations

import json
import os
import re
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from typing import Any
from urllib.parse import parse_qs, quote, unquote, urlsplit
from xml.etree import ElementTree

import httpx
import lxml.html
import networkx as nx
import pytest
from protego import Protego

from research_crawler.context.urls import canonicalize_url
from research_crawler.errors import ConfigError, StateError
from research_crawler.eval.testbed import (
    DEFAULT_SEED,
    EXTERNAL_HOST,
    Item,
    Testbed,
    TestbedServer,
    generate_testbed,
    link_graph,
)
from research_crawler.eval.testbed.full_text import search_terms
from research_crawler.eval.testbed.layouts import make_site_app, offline_links
from research_crawler.eval.testbed.site_app import Request

SLOW_SECONDS = 0.3
SITES = ("arxiv-like", "biorxiv-like", "journal-like", "js-site", "repo-like")


@pytest.fixture(scope="module")
def server(testbed: Testbed) -> Iterator[TestbedServer]:
    with TestbedServer(testbed, slow_seconds=SLOW_SECONDS) as running:
        yield running


@pytest.fixture(scope="module")
def client() -> Iterator[httpx.Client]:
    with httpx.Client(timeout=10) as http:
        yield http


def _get(client: httpx.Client, server: TestbedServer, site: str, path: str) -> httpx.Response:
    return client.get(server.base_url(site).rstrip("/") + path)


def _anchors(html: str) -> list[str]:
    return [a.get("href") for a in lxml.html.fromstring(html).iter("a") if a.get("href")]


def _metas(html: str) -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}
    for meta in lxml.html.fromstring(html).iter("meta"):
        name = meta.get("name") or meta.get("property")
        if name:
            found.setdefault(name, []).append(meta.get("content", ""))
    return found


def _item_text(item: Item) -> str:
    return f"{item.title} {item.abstract}".lower()


# ---------------------------------------------------------------------------------------------- corpus


def test_same_seed_same_testbed_and_pages_different_seed_different() -> None:
    first, again, other = generate_testbed(7), generate_testbed(7), generate_testbed(8)
    assert first.model_dump_json() == again.model_dump_json()
    assert {i.title for i in first.items} != {i.title for i in other.items}
    assert [q.relevant_item_ids for q in first.queries] != [q.relevant_item_ids for q in other.queries]
    render = [
        make_site_app(tb, "arxiv-like", offline_links(tb, "arxiv-like")).handle(Request("GET", "/list/cs/recent"))
        for tb in (first, again, other)
    ]
    assert render[0].body == render[1].body != render[2].body


def test_seed_must_be_an_integer() -> None:
    with pytest.raises(ConfigError, match="seed"):
        generate_testbed("7")  # type: ignore[arg-type]


@pytest.mark.parametrize("seed", [DEFAULT_SEED, 1, 77, 4096])
def test_five_distinct_sites_each_with_enough_items_and_topics(seed: int) -> None:
    testbed = generate_testbed(seed)
    assert tuple(testbed.site_names()) == SITES
    assert len({s.layout for s in testbed.sites}) == 5
    assert 8 <= len(testbed.topics) <= 10
    for site in SITES:
        items = testbed.items_on(site)
        assert len(items) >= 30, site
        assert len({i.topic for i in items}) >= 6, site
        assert set(testbed.site(site).topics) == {i.topic for i in items}


@pytest.mark.parametrize("seed", [DEFAULT_SEED, 1, 77, 4096])
def test_items_are_unique_well_formed_and_spread_over_2021_to_2026(seed: int) -> None:
    testbed = generate_testbed(seed)
    items = testbed.items
    assert len({i.id for i in items}) == len(items)
    assert len({i.title for i in items}) == len(items)
    assert len({(i.site, i.path) for i in items}) == len(items)
    assert {i.year for i in items} == set(range(2021, 2027))
    for item in items:
        topic = testbed.topic(item.topic)
        assert topic.name.lower() in item.abstract.lower(), item.id
        assert item.path.startswith("/") and item.pdf_path.startswith("/")
        assert 2 <= len(item.authors) <= 6
        assert item.category == testbed.site(item.site).categories[item.topic]
    by_layout = {s.name: s.layout for s in testbed.sites}
    assert all(i.doi for i in items if by_layout[i.site] in ("biorxiv", "journal"))
    assert not any(i.doi for i in items if by_layout[i.site] in ("arxiv", "js"))


@pytest.mark.parametrize("seed", [DEFAULT_SEED, 1, 77, 4096])
def test_aspect_phrases_mark_exactly_the_items_that_carry_them(seed: int) -> None:
    testbed = generate_testbed(seed)
    for topic in testbed.topics:
        for aspect in topic.aspects:
            for item in testbed.items:
                carries = item.topic == topic.slug and item.aspect == aspect.slug
                assert (aspect.phrase.lower() in _item_text(item)) == carries, (aspect.phrase, item.id)


@pytest.mark.parametrize("seed", [DEFAULT_SEED, 1, 77, 4096])
def test_every_site_has_general_and_six_specific_queries_with_sound_ground_truth(seed: int) -> None:
    testbed = generate_testbed(seed)
    assert len({q.id for q in testbed.queries}) == len(testbed.queries)
    for site in SITES:
        general = testbed.queries_for(site, kind="general")
        specific = testbed.queries_for(site, kind="specific")
        assert len(general) >= 6 and len(specific) == 6, site
        assert {q.topic for q in general} == set(testbed.site(site).topics)
        assert sum(q.year is not None for q in specific) == 3
        assert sum(q.aspect is not None for q in specific) == 3
        for query in general + specific:
            relevant = testbed.relevant_items(query.id)
            assert relevant, query.id
            expected = testbed.matching_items(topic=query.topic, site=site, year=query.year, aspect=query.aspect)
            assert {i.id for i in relevant} == {i.id for i in expected}
            assert all(i.site == site and i.topic == query.topic for i in relevant)
            assert testbed.topic(query.topic).name in query.text
        for query in specific:
            assert len(query.relevant_item_ids) < len(testbed.matching_items(topic=query.topic, site=site))
            assert (str(query.year) if query.year else testbed.topic(query.topic).name) in query.text


def test_unknown_names_are_config_errors(testbed: Testbed) -> None:
    with pytest.raises(ConfigError, match="unknown testbed query"):
        testbed.relevant_items("nope")
    with pytest.raises(ConfigError, match="the testbed has"):
        testbed.items_on("arxiv")


# ---------------------------------------------------------------------------------------------- serving


@pytest.mark.parametrize("site", SITES)
def test_every_page_kind_is_served_with_200_and_real_boilerplate(
    testbed: Testbed, server: TestbedServer, client: httpx.Client, site: str
) -> None:
    app = make_site_app(testbed, site, offline_links(testbed, site))
    kinds = app.sample_paths()
    decoys = {kind: path for path, kind in app.decoy_paths.items()}
    assert {"home", "about", "help", "pdf", "search"} <= set(kinds)
    for kind, path in kinds.items():
        response = _get(client, server, site, path)
        assert response.status_code == 200, (kind, path)
        content_type = response.headers["content-type"]
        if kind == "pdf":
            assert content_type == "application/pdf" and response.content.startswith(b"%PDF-")
        elif kind == "opensearch":
            assert content_type.startswith("application/opensearchdescription+xml")
        else:
            assert content_type == "text/html; charset=utf-8", kind
            html = response.content.decode("utf-8")
            assert html.startswith("<!DOCTYPE html>")
            assert 'id="cookie-consent"' in html and "<footer" in html and "<header" in html
            hrefs = set(_anchors(html))
            assert decoys["about"] in hrefs and decoys["help"] in hrefs  # navigation repeated on every page


@pytest.mark.parametrize("site", SITES)
def test_every_item_page_is_served_with_its_title(
    testbed: Testbed, server: TestbedServer, client: httpx.Client, site: str
) -> None:
    for item in testbed.items_on(site):
        response = client.get(server.url_for(item))
        assert response.status_code == 200, item.id
        assert item.title in lxml.html.fromstring(response.text).text_content()


def test_robots_txt_allows_all_but_the_biorxiv_like_search_and_admin(
    server: TestbedServer, client: httpx.Client
) -> None:
    agent = "research-crawler/0.1"
    for site in SITES:
        response = _get(client, server, site, "/robots.txt")
        assert response.status_code == 200 and response.headers["content-type"].startswith("text/plain")
        robots = Protego.parse(response.text)
        base = server.base_url(site)
        assert robots.can_fetch(base + "about", agent)
        if site == "biorxiv-like":
            assert not robots.can_fetch(base + "search/protein%20numresults%3A10", agent)
            assert not robots.can_fetch(base + "admin/", agent)
            assert robots.can_fetch(base + "collection/genomics", agent)
        else:
            assert robots.can_fetch(base + "search?q=x", agent)


def test_repo_home_links_to_missing_failing_slow_pdf_and_offsite_pages(
    testbed: Testbed, server: TestbedServer, client: httpx.Client
) -> None:
    home = _get(client, server, "repo-like", "/")
    hrefs = _anchors(home.text)
    assert {"/collections/legacy", "/feeds/recent", "/stats"} <= set(hrefs)
    assert any(urlsplit(h).hostname == EXTERNAL_HOST for h in hrefs)
    for other in ("arxiv-like", "biorxiv-like", "journal-like", "js-site"):
        assert server.base_url(other) in hrefs
    missing = _get(client, server, "repo-like", "/collections/legacy")
    assert missing.status_code == 404 and "Page not found" in missing.text
    assert _get(client, server, "repo-like", "/feeds/recent").status_code == 500
    started = time.monotonic()
    slow = _get(client, server, "repo-like", "/stats")
    assert slow.status_code == 200 and time.monotonic() - started >= SLOW_SECONDS * 0.9
    record = testbed.items_on("repo-like")[0]
    assert record.pdf_path in _anchors(client.get(server.url_for(record)).text)
    assert client.get(server.base_url("repo-like").rstrip("/") + record.pdf_path).headers["content-type"] == (
        "application/pdf"
    )


def test_slow_page_does_not_block_other_pages_nor_stop(testbed: Testbed) -> None:
    with TestbedServer(testbed, slow_seconds=60) as slow_server:
        url = slow_server.base_url("repo-like")
        outcome: list[object] = []

        def fetch_slow() -> None:
            try:
                outcome.append(httpx.get(url + "stats", timeout=90).status_code)
            except httpx.HTTPError as exc:
                outcome.append(exc)

        waiting = threading.Thread(target=fetch_slow)
        waiting.start()
        deadline = time.monotonic() + 10
        while not any(h.path == "/stats" for h in slow_server.hits("repo-like")):
            assert time.monotonic() < deadline, "the slow request never arrived"
            time.sleep(0.01)
        assert httpx.get(url + "about", timeout=5).status_code == 200  # served while /stats sleeps
        started = time.monotonic()
        slow_server.stop()
        waiting.join(timeout=10)
    assert not waiting.is_alive() and time.monotonic() - started < 10
    assert outcome  # the sleeping request was released by stop(), answered or cut
    assert [h.path for h in slow_server.hits("repo-like")] == ["/stats", "/about"]  # kept after stop


def test_journal_article_metadata_is_json_ld_and_opengraph_only(
    testbed: Testbed, server: TestbedServer, client: httpx.Client
) -> None:
    item = testbed.items_on("journal-like")[5]
    html = client.get(server.url_for(item)).text
    scripts = lxml.html.fromstring(html).xpath('//script[@type="application/ld+json"]')
    assert len(scripts) == 1
    data = json.loads(scripts[0].text)
    assert data["@type"] == "WebPage"
    article = data["mainEntity"]
    assert article["@type"] == "ScholarlyArticle"
    assert article["headline"] == item.title and article["description"] == item.abstract
    assert [a["name"] for a in article["author"]] == list(item.authors)
    assert all(a["@type"] == "Person" for a in article["author"])
    assert article["datePublished"].startswith(item.date)
    assert article["identifier"] == {"@type": "PropertyValue", "propertyID": "DOI", "value": item.doi}
    metas = _metas(html)
    assert metas["og:title"] == [item.title]
    assert not any(name.startswith(("citation_", "DC.", "dc.")) for name in metas)


def test_arxiv_abstract_page_has_highwire_citation_tags(
    testbed: Testbed, server: TestbedServer, client: httpx.Client
) -> None:
    item = testbed.items_on("arxiv-like")[2]
    metas = _metas(client.get(server.url_for(item)).text)
    assert metas["citation_title"] == [item.title]
    assert len(metas["citation_author"]) == len(item.authors) >= 2
    assert metas["citation_date"] == [item.date.replace("-", "/")]
    assert metas["citation_abstract"] == [item.abstract]
    pdf = client.get(metas["citation_pdf_url"][0])
    assert pdf.status_code == 200 and pdf.headers["content-type"] == "application/pdf"


def test_biorxiv_article_has_citation_and_dublin_core_tags(
    testbed: Testbed, server: TestbedServer, client: httpx.Client
) -> None:
    item = testbed.items_on("biorxiv-like")[0]
    metas = _metas(client.get(server.url_for(item)).text)
    assert metas["citation_doi"] == [item.doi]
    assert metas["citation_publication_date"] == [item.date.replace("-", "/")]
    assert metas["DC.Title"] == [item.title] and metas["DC.Contributor"] == list(item.authors)
    assert metas["DC.Identifier"] == [item.doi]


def test_repo_record_has_dublin_core_only(testbed: Testbed, server: TestbedServer, client: httpx.Client) -> None:
    item = next(i for i in testbed.items_on("repo-like") if i.doi)
    html = client.get(server.url_for(item)).text
    metas = _metas(html)
    assert metas["DC.title"] == [item.title] and metas["DC.creator"] == list(item.authors)
    assert metas["DC.date"] == [item.date] and metas["DC.description"] == [item.abstract]
    assert f"doi:{item.doi}" in metas["DC.identifier"]
    assert not any(name.startswith(("citation_", "og:")) for name in metas)
    assert "application/ld+json" not in html


def test_arxiv_categories_nest_and_listings_paginate_over_every_item(
    testbed: Testbed, server: TestbedServer, client: httpx.Client
) -> None:
    archive = _get(client, server, "arxiv-like", "/archive/cs")
    assert "/list/cs.LG/recent" in _anchors(archive.text)
    expected = {i.path for i in testbed.items_on("arxiv-like") if i.category == "cs.LG"}
    seen: list[str] = []
    pages = ["/list/cs.LG/recent?skip=0&show=5"]
    visited: set[str] = set()
    while pages:
        page = pages.pop()
        visited.add(page)
        hrefs = _anchors(_get(client, server, "arxiv-like", page).text)
        entries = [h for h in hrefs if h.startswith("/abs/")]
        assert len(entries) <= 5
        seen.extend(entries)
        pages.extend(h for h in hrefs if "show=5" in h and "skip=" in h and h not in visited and h not in pages)
    assert len(visited) == -(-len(expected) // 5)
    assert sorted(seen) == sorted(expected)


def test_each_site_search_finds_the_items_of_a_general_query(
    testbed: Testbed, server: TestbedServer, client: httpx.Client
) -> None:
    for query in testbed.queries:
        if query.kind != "general":
            continue
        site = query.site
        relevant = {i.path for i in testbed.relevant_items(query.id)}
        base = server.base_url(site)
        if site == "arxiv-like":
            found = _result_links(client, f"{base}search?query={quote(query.keywords)}&searchtype=all")
        elif site == "biorxiv-like":
            naive = client.get(base + "search", params={"keywords": query.keywords})
            assert not relevant & set(_anchors(naive.text))  # a GET submission of the POST form finds nothing
            posted = client.post(base + "search", data={"keywords": query.keywords})
            assert posted.status_code == 303
            location = posted.headers["location"]
            assert location.startswith("/search/" + quote(query.keywords, safe=""))
            found = _result_links(client, base.rstrip("/") + location)
        elif site == "journal-like":
            found = _result_links(client, f"{base}search?q={quote(query.keywords)}")
        elif site == "js-site":
            found = _js_result_links(client, f"{base}search?q={quote(query.keywords)}")
        else:
            description = ElementTree.fromstring(_get(client, server, site, "/opensearch.xml").content)
            url = description.find("{http://a9.com/-/spec/opensearch/1.1/}Url")
            assert url is not None
            template = url.get("template", "")
            assert template.startswith(base + "find?")
            found = _result_links(client, template.replace("{searchTerms}", quote(query.keywords)))
        assert relevant <= found, (site, query.id)


def _result_links(client: httpx.Client, first_page: str) -> set[str]:
    """Links on a search result page and on the pages its pager links to."""
    pending, seen, links = [first_page], set[str](), set[str]()
    while pending and len(seen) < 20:
        url = pending.pop()
        seen.add(url)
        response = client.get(url)
        assert response.status_code == 200, url
        for href in _anchors(response.text):
            absolute = str(httpx.URL(url).join(href))
            links.add(href)
            same_search = urlsplit(absolute).path == urlsplit(url).path
            if same_search and re.search(r"[?&](page|start)=", absolute) and absolute not in seen:
                pending.append(absolute)
    return links


def _js_result_links(client: httpx.Client, first_page: str) -> set[str]:
    """Item links a browser would build on a JavaScript search result page and its later pages."""
    links: set[str] = set()
    data = _stream_data(client.get(first_page).text)
    for page in range(1, data["pages"] + 1):
        data = _stream_data(client.get(f"{first_page}&page={page}").text)
        links |= {entry["url"] for entry in data["items"]}
    return links


def _stream_data(html: str) -> dict[str, Any]:
    script = lxml.html.fromstring(html).get_element_by_id("stream-data")
    data: dict[str, Any] = json.loads(script.text)
    return data


def test_search_results_contain_every_search_term(testbed: Testbed) -> None:
    query = next(q for q in testbed.queries_for("journal-like", kind="specific") if q.aspect)
    words = query.keywords
    app = make_site_app(testbed, "journal-like", offline_links(testbed, "journal-like"))
    html = app.handle(Request("GET", "/search", {"q": [words]})).body.decode()
    by_path = {i.path: i for i in testbed.items_on("journal-like")}
    hits = [by_path[h] for h in _anchors(html) if h in by_path]
    assert {i.path for i in testbed.relevant_items(query.id)} <= {i.path for i in hits}
    for item in hits:
        text = re.findall(r"\w+", f"{item.title} {item.abstract} {' '.join(item.keywords)}".lower())
        assert all(any(w.startswith(term) for w in text) for term in search_terms(words))


def test_js_site_lists_need_a_browser_the_json_holds_the_links(
    testbed: Testbed, server: TestbedServer, client: httpx.Client
) -> None:
    item_paths = {i.path for i in testbed.items_on("js-site")}
    category = testbed.items_on("js-site")[0].category
    slug = re.sub(r"[^a-z0-9]+", "-", category.lower()).strip("-")
    for path in (f"/topics/{slug}", "/browse", "/", "/search?q=quantum"):
        html = _get(client, server, "js-site", path).text
        assert not item_paths & set(_anchors(html)), path
        data = _stream_data(html)
        assert data["items"] and {e["url"] for e in data["items"]} <= item_paths
        assert 'id="paper-list" class="paper-list" aria-live="polite"></div>' in html
    topic_data = _stream_data(_get(client, server, "js-site", f"/topics/{slug}").text)
    assert {e["url"] for e in topic_data["items"]} == {
        i.path for i in testbed.items_on("js-site") if i.category == category
    }


@pytest.mark.browser
def test_js_site_list_appears_in_a_real_browser(testbed: Testbed, server: TestbedServer) -> None:
    from research_crawler.web.browser import find_chromium

    flags = ["--headless", "--disable-gpu", "--no-first-run", "--disable-background-networking"]
    if os.geteuid() == 0:
        flags.append("--no-sandbox")
    with tempfile.TemporaryDirectory() as profile:
        dumped = subprocess.run(
            [
                find_chromium(),
                *flags,
                f"--user-data-dir={profile}",
                "--dump-dom",
                server.base_url("js-site") + "browse",
            ],
            capture_output=True,
            text=True,
            timeout=120,
            check=True,
        )
    app = make_site_app(testbed, "js-site", offline_links(testbed, "js-site"))
    expected = app.handle(Request("GET", "/browse")).script_links
    assert set(expected) <= set(_anchors(dumped.stdout))
    assert any(link.startswith("/paper/") for link in expected)


def test_hits_are_recorded_exactly_per_site(server: TestbedServer, client: httpx.Client) -> None:
    server.reset_hits()
    assert server.total_hits == 0
    for path in ("/", "/about", "/list/cs/recent?skip=0&show=5"):
        _get(client, server, "arxiv-like", path)
    client.post(server.base_url("biorxiv-like") + "search", data={"keywords": "x"})
    arxiv_hits = server.hits("arxiv-like")
    assert [h.path for h in arxiv_hits] == ["/", "/about", "/list/cs/recent?skip=0&show=5"]
    assert [h.path for h in server.hits("biorxiv-like")] == ["/search"]
    assert server.hits("journal-like") == []
    assert server.total_hits == 4
    assert arxiv_hits[0].time <= arxiv_hits[1].time <= arxiv_hits[2].time


async def test_server_answers_async_clients(server: TestbedServer, testbed: Testbed) -> None:
    async with httpx.AsyncClient(timeout=10) as http:
        response = await http.get(server.relevant_urls(testbed.queries[0].id).pop())
    assert response.status_code == 200


def test_urls_resolve_to_items_and_ground_truth_on_the_running_server(testbed: Testbed, server: TestbedServer) -> None:
    ports = {urlsplit(server.base_url(site)).port for site in SITES}
    assert len(ports) == len(SITES)
    query = testbed.queries_for("biorxiv-like", kind="specific")[0]
    urls = server.relevant_urls(query.id)
    assert urls == {server.url_for(i) for i in testbed.relevant_items(query.id)}
    for url in urls:
        assert url == canonicalize_url(url) and url.startswith(server.base_url("biorxiv-like"))
        assert server.item_for_url(url + "#fragment").id in query.relevant_item_ids  # type: ignore[union-attr]
    assert server.item_for_url(server.base_url("biorxiv-like")) is None
    with pytest.raises(ConfigError):
        server.base_url("nowhere")
    with pytest.raises(StateError):
        TestbedServer(testbed).base_url("arxiv-like")


# ---------------------------------------------------------------------------------------------- link graphs


@pytest.mark.parametrize("site", SITES)
def test_link_graph_reaches_every_item_from_the_root(testbed: Testbed, site: str) -> None:
    graph = link_graph(testbed, site)
    root = graph.graph["root"]
    reachable = nx.descendants(graph, root) | {root}
    item_nodes = {n for n, data in graph.nodes(data=True) if data["item_id"]}
    assert {graph.nodes[n]["item_id"] for n in item_nodes} == {i.id for i in testbed.items_on(site)}
    assert item_nodes <= reachable
    assert not graph.graph["truncated"]
    assert all(urlsplit(n).netloc == urlsplit(root).netloc for n in graph.nodes)
    assert all(graph.nodes[n]["status"] == 200 for n in item_nodes)


def test_js_items_are_reachable_only_through_script_links(testbed: Testbed) -> None:
    graph = link_graph(testbed, "js-site")
    static = nx.DiGraph([(u, v) for u, v, d in graph.edges(data=True) if d["via"] == "html"])
    static.add_node(graph.graph["root"])
    items = {n for n, d in graph.nodes(data=True) if d["item_id"]}
    assert not items & (nx.descendants(static, graph.graph["root"]) if graph.graph["root"] in static else set())


def test_calendar_trap_is_capped_in_the_link_graph(testbed: Testbed) -> None:
    capped = link_graph(testbed, "journal-like", max_trap_pages=5)
    assert sum(1 for _, d in capped.nodes(data=True) if d["trap"]) == 5
    wider = link_graph(testbed, "journal-like", max_trap_pages=40)
    assert sum(1 for _, d in wider.nodes(data=True) if d["trap"]) == 40
    app = make_site_app(testbed, "journal-like", offline_links(testbed, "journal-like"))
    far = app.handle(Request("GET", "/archive/9021/07")).body.decode()
    assert "/archive/9021/06" in far and "/archive/9021/08" in far


def test_server_link_graph_uses_live_urls_and_marks_robots(testbed: Testbed, server: TestbedServer) -> None:
    graph = server.link_graph("biorxiv-like")
    query = testbed.queries_for("biorxiv-like")[0]
    assert server.relevant_urls(query.id) <= set(graph.nodes)
    admin = server.base_url("biorxiv-like") + "admin/"
    assert graph.nodes[admin]["robots_allowed"] is False and graph.nodes[admin]["status"] == 403


@pytest.mark.parametrize("site", SITES)
def test_pages_carry_no_answer_markers(testbed: Testbed, site: str) -> None:
    graph = link_graph(testbed, site, max_trap_pages=10)
    app = make_site_app(testbed, site, offline_links(testbed, site))
    query_ids = [q.id for q in testbed.queries]
    for url in graph.nodes:
        parts = urlsplit(url)
        request = Request("GET", unquote(parts.path), parse_qs(parts.query))
        body = app.handle(request).body.decode("utf-8", errors="replace").lower()
        assert "relevant" not in body and "ground truth" not in body, url
        assert not any(qid in body for qid in query_ids)
        assert "aspect" not in body, url


def _free_port_run(count: int) -> int:
    """A first port after which `count` consecutive ports are free now."""
    for _ in range(50):
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            first = probe.getsockname()[1]
        if first + count > 65535:
            continue
        try:
            held = []
            for port in range(first, first + count):
                sock = socket.socket()
                held.append(sock)
                sock.bind(("127.0.0.1", port))
        except OSError:
            continue
        finally:
            for sock in held:
                sock.close()
        return first
    raise AssertionError("no run of free ports")


def test_module_serves_on_fixed_ports_and_prints_the_urls_and_the_setting_to_use() -> None:
    first = _free_port_run(len(SITES))
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "research_crawler.eval.testbed",
            "--seed",
            "3",
            "--slow-seconds",
            "0",
            "--port",
            str(first),
        ],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert process.stdout is not None
        lines = []
        while not (line := process.stdout.readline()).startswith("Press Ctrl-C"):
            assert line, "the testbed stopped before it was ready"
            lines.append(line)
        text = "".join(lines)
        urls = dict(re.findall(r"^\s+(\S+)\s+(http://127\.0\.0\.1:\d+/)", text, re.MULTILINE))
        assert set(urls) == set(SITES)
        assert sorted(urls.values()) == [f"http://127.0.0.1:{first + n}/" for n in range(len(SITES))]
        hosts = ",".join(f"127.0.0.1:{first + n}" for n in range(len(SITES)))
        assert f"--set fetch.allowed_hosts={hosts}" in text
        assert httpx.get(urls["repo-like"] + "stats", timeout=5).status_code == 200
    finally:
        process.send_signal(signal.SIGINT)
        process.wait(timeout=10)
    assert process.returncode == 0
