"""The third batch of fresh held-out sites (`eval/testbed/fresh_heldout3*.py`) as built, served on loopback: each
structure they claim, and every relevant item reachable from the home page as a visitor reaches it (links, the forms
a person submits, a "Show more" button) within robots.txt. No crawler runs here: their first benchmark run is the
measure, and it is the lead's."""

from __future__ import annotations

import json
import re
from collections import deque
from datetime import date
from urllib.parse import parse_qs, urljoin, urlsplit

import httpx
import lxml.etree
import lxml.html
import pytest
from protego import Protego
from site_visitor import METADATA_TAGS, page_of, url_of

from research_crawler.eval.table import HELDOUT_SITES
from research_crawler.eval.testbed import Testbed, TestbedServer
from research_crawler.eval.testbed.fresh_heldout3 import FRESH3_PLANS, FRESH3_SITE_SPECS, preprint_versions
from research_crawler.eval.testbed.fresh_heldout3_repository import LATEST_PER_PAGE, deposited, ordinal_date
from research_crawler.eval.testbed.fresh_heldout3_society import AUDIENCE_COOKIE, SHOWN, cursor
from research_crawler.eval.testbed.layouts import make_site_app
from research_crawler.eval.testbed.site_app import Request, SiteLinks

SITES = [spec.name for spec in FRESH3_SITE_SPECS]
ATOM = "{http://www.w3.org/2005/Atom}"
SITEMAP = "{http://www.sitemaps.org/schemas/sitemap/0.9}"


def test_eleven_requests_with_ground_truth_on_topics_no_other_site_holds(web: Testbed) -> None:
    queries = [q for q in web.queries if q.site in SITES]
    assert len(queries) == sum(len(plan) for plan in FRESH3_PLANS.values()) == 11
    assert {q.id.rsplit("-", 1)[1] for q in queries} == {"topic", "recent", "year", "author", "cross"}
    for query in queries:
        assert query.site in HELDOUT_SITES and query.kind == "unfamiliar"
        sites = {web.item(i).site for i in query.relevant_item_ids}
        assert query.relevant_item_ids and sites == {query.site, *query.also_sites}, query.id
    ours = {slug for spec in FRESH3_SITE_SPECS for slug in spec.categories}
    assert not ours & {slug for spec in web.sites if spec.name not in SITES for slug in spec.categories}
    shared = [i for i in web.items if i.site in SITES and i.work]
    assert len(shared) == 6 and {i.site for i in shared} == {"fresh3-preprints", "fresh3-society"}


# ---------------------------------------------------------------------------------------------- preprint server


def test_the_preprint_server_is_browsed_subject_year_month_and_searched_only_by_script(
    web: Testbed, get: tuple[TestbedServer, httpx.Client]
) -> None:
    item = web.items_on("fresh3-preprints")[0]
    home = page_of(get, "fresh3-preprints", "/")
    assert "<form" not in home and "'/find?text=' + encodeURIComponent(q)" in home
    subject = re.search(r'href="(/subject/[a-z-]+)"', home)
    assert subject is not None
    year = page_of(get, "fresh3-preprints", subject.group(1))
    month_links = re.findall(
        r'href="(/subject/[a-z-]+/\d{4}/\d\d)"', page_of(get, "fresh3-preprints", f"{subject.group(1)}/2024")
    )
    assert 'rel="alternate" type="application/atom+xml"' in year and month_links
    listing = page_of(get, "fresh3-preprints", month_links[0])
    assert "v1 posted" in listing and re.search(r'href="/preprint/\d{4}\.\d{5}"', listing)
    found = page_of(get, "fresh3-preprints", "/find?text=" + item.title.split()[0] + "&sort=relevance")
    assert item.path in found or "results for" in found


def test_the_preprint_servers_feeds_sitemaps_versions_and_opengraph_only_pages(
    web: Testbed, get: tuple[TestbedServer, httpx.Client]
) -> None:
    robots = Protego.parse(page_of(get, "fresh3-preprints", "/robots.txt"))
    sitemaps = list(robots.sitemaps)
    assert len(sitemaps) == 2 and not robots.can_fetch(url_of(get, "fresh3-preprints", "/submit/new"), "*")
    locs = [
        loc.text for url in sitemaps for loc in lxml.etree.fromstring(get[1].get(url).content).iter(f"{SITEMAP}loc")
    ]
    items = web.items_on("fresh3-preprints")
    assert all(url_of(get, "fresh3-preprints", i.path) in locs for i in items)
    assert any(re.search(r"/subject/[a-z-]+/\d{4}/\d\d$", loc) for loc in locs)
    feed = lxml.etree.fromstring(get[1].get(url_of(get, "fresh3-preprints", "/subject/soil-science/feed.atom")).content)
    entries = [e.findtext(f"{ATOM}published")[:10] for e in feed.iter(f"{ATOM}entry")]
    soil = [i.date for i in items if i.category == "Soil Science"]
    assert entries == soil[:10] and len(entries) >= 4
    revised = next(i for i in items if len(preprint_versions(i)) == 2)
    latest = page_of(get, "fresh3-preprints", revised.path)
    first = page_of(get, "fresh3-preprints", revised.path + "v1")
    assert "A newer version" in first and "A newer version" not in latest and "revised" in latest
    assert f'property="article:published_time" content="{revised.date}T' in latest
    assert not re.search(r'<meta name="(citation_|dc\.|DC\.)', latest) and "ld+json" not in latest
    published = next(i for i in items if i.work)
    assert "Now published in" in page_of(get, "fresh3-preprints", published.path)
    assert get[1].get(url_of(get, "fresh3-preprints", revised.path + "v3")).status_code == 404


# ---------------------------------------------------------------------------------------------- society journal


def test_the_society_asks_who_you_are_by_a_posted_form_that_sets_a_cookie(
    web: Testbed, get: tuple[TestbedServer, httpx.Client]
) -> None:
    article = web.items_on("fresh3-society")[0]
    wall = page_of(get, "fresh3-society", article.path)
    assert article.title not in wall and 'method="post" action="/declaration"' in wall
    form = next(f for f in lxml.html.fromstring(wall).forms if f.action == "/declaration")
    fields = {"return": form.inputs["return"].value, "audience": "professional"}
    declaration = url_of(get, "fresh3-society", "/declaration")
    with httpx.Client(timeout=10) as fresh:  # its own cookie jar: the others' visitors never answered
        posted = fresh.post(declaration, data=fields, follow_redirects=False)
        assert posted.status_code == 303 and posted.headers["location"] == article.path
        assert posted.cookies.get(AUDIENCE_COOKIE) == "professional"
        assert article.title in fresh.get(url_of(get, "fresh3-society", article.path)).text
        public = fresh.post(declaration, data={"audience": "public"}, follow_redirects=False)
        assert public.headers["location"] == "/for-patients"
    assert Protego.parse(page_of(get, "fresh3-society", "/robots.txt")).can_fetch(declaration, "*")


def test_the_societys_listings_show_more_by_a_json_cursor_and_its_articles_carry_no_tags(
    web: Testbed, get: tuple[TestbedServer, httpx.Client]
) -> None:
    cookies = {AUDIENCE_COOKIE: "researcher"}
    items = web.items_on("fresh3-society")
    latest = page_of(get, "fresh3-society", "/latest", cookies)
    shown = re.findall(r'<h3><a href="([^"]+)"', latest)
    assert shown == [i.path for i in items[:SHOWN]] and 'id="show-more"' in latest and "fetch(url)" in latest
    after, loaded = cursor(SHOWN), list(shown)
    while after:
        data = json.loads(page_of(get, "fresh3-society", f"/api/articles?after={after}", cookies))["data"]["articles"]
        loaded += [urlsplit(edge["node"]["url"]).path for edge in data["edges"]]
        after = data["pageInfo"]["endCursor"] if data["pageInfo"]["hasNextPage"] else ""
    assert loaded == [i.path for i in items]
    page = page_of(get, "fresh3-society", items[0].path, cookies)
    assert not METADATA_TAGS.search(page) and 'id="__NEXT_DATA__"' in page and "Version of record online: " in page
    shared = next(i for i in items if i.work)
    assert "posted as a preprint" in page_of(get, "fresh3-society", shared.path, cookies)


# ---------------------------------------------------------------------------------------------- repository


def test_the_repository_lists_by_deposit_in_pages_and_its_items_are_untagged(
    web: Testbed, get: tuple[TestbedServer, httpx.Client]
) -> None:
    items = web.items_on("fresh3-repository")
    by_deposit = sorted(items, key=lambda i: (deposited(i), i.id), reverse=True)
    pages = -(-len(items) // LATEST_PER_PAGE)
    first = page_of(get, "fresh3-repository", "/latest/")
    assert f"Page 1 of {pages}" in first and 'href="/latest/?page=2">Older entries »' in first
    rows = re.findall(r'<tr><td><a href="([^"]+)">([^<]+)</a>', first)
    assert [path for path, _ in rows] == [i.path for i in by_deposit[:LATEST_PER_PAGE]]
    assert any(title.endswith("…") for _, title in rows) and by_deposit != sorted(items, key=lambda i: i.date)[::-1]
    item = items[0]
    page = page_of(get, "fresh3-repository", item.path)
    surname, given = item.authors[0].split()[-1], " ".join(item.authors[0].split()[:-1])
    assert not METADATA_TAGS.search(page) and f"Authors: {surname}, {given}" in page
    published = ordinal_date(date.fromisoformat(item.date))
    assert f"Publication date:</th><td>{published}" in page and deposited(item).isoformat() > item.date
    year = page_of(get, "fresh3-repository", f"/view/year/{item.year}.html")
    assert f"Items where Year is {item.year}" in year and item.path in year
    robots = Protego.parse(page_of(get, "fresh3-repository", "/robots.txt"))
    assert not robots.can_fetch(url_of(get, "fresh3-repository", "/cgi/search/simple?q=x"), "*")
    assert 'action="/cgi/search/simple"' in first


# ---------------------------------------------------------------------------------------------- reachability


def _visit(web: Testbed, site: str) -> set[str]:
    """Paths a visitor reaches from the home page with no cookies: links, redirects, the posted forms a person answers
    (the first choice), a "Show more" button's items; never a page robots.txt forbids, never a GET search."""
    base = f"http://{site}.testbed.invalid"
    others = {name: f"http://{name}.invalid/" for name in web.site_names()}
    app = make_site_app(web, site, SiteLinks(own_base=base + "/", site_bases=others))
    robots = Protego.parse(app.robots_txt())
    cookies: dict[str, str] = {}
    queue: deque[tuple[str, str, dict[str, list[str]]]] = deque([("GET", "/", {})])
    seen = {("GET", "/")}
    reached: set[str] = set()
    while queue:
        method, target, form = queue.popleft()
        parts = urlsplit(target)
        response = app.handle(Request(method, parts.path, parse_qs(parts.query), form, dict(cookies)))
        reached.add(parts.path)
        held = dict(cookies)
        for name, value in response.headers:
            if name.lower() == "set-cookie":
                key, _, rest = value.partition("=")
                cookies[key] = rest.split(";")[0]
        found: list[tuple[str, str, dict[str, list[str]]]] = []
        if 300 <= response.status < 400:
            found += [("GET", value, {}) for name, value in response.headers if name.lower() == "location"]
        elif response.content_type.startswith("text/html"):
            tree = lxml.html.fromstring(response.body)
            found += [("GET", a.get("href"), {}) for a in tree.iter("a") if a.get("href")]
            for posted in (f for f in tree.forms if (f.method or "").upper() == "POST"):
                button = posted.xpath(".//button[@name]")[0]
                fields = {i.name: [i.value or ""] for i in posted.inputs if i.name and i.get("type") == "hidden"}
                found.append(("POST", posted.action, fields | {button.get("name"): [button.get("value")]}))
            found += [("GET", link, {}) for link in response.script_links]
        if cookies != held:
            seen.clear()  # a new cookie opens pages that answered with the wall before
        for how, href, fields in found:
            absolute = urljoin(base + target, href)
            if not absolute.startswith(base + "/") or not robots.can_fetch(absolute, "*"):
                continue
            path = absolute[len(base) :].split("#")[0]
            if (how, path) not in seen and not (how == "GET" and ("/find" in path or "/search" in path)):
                seen.add((how, path))
                queue.append((how, path, fields))
    return reached


@pytest.mark.parametrize("site", SITES)
def test_every_relevant_item_is_reachable_from_home_as_a_visitor_within_robots_txt(web: Testbed, site: str) -> None:
    reached = _visit(web, site)
    for query in (q for q in web.queries if site in (q.site, *q.also_sites)):
        relevant = [web.item(i) for i in query.relevant_item_ids]
        missing = [i.path for i in relevant if i.site == site and i.path not in reached]
        assert not missing, (query.id, missing)
    assert {i.path for i in web.items_on(site)} <= reached
