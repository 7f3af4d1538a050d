"""A visitor's walk over a testbed site, in-process: the links a person clicks from the home page (paging and facet
links included, cookies kept), never typing a search and never fetching what robots.txt forbids; and which relevant
items such a walk missed; and a page of a site served on loopback, fetched as a visitor fetches it. The fresh
held-out batches' tests check with them that each site serves what it claims and every relevant item can be reached,
and with `check_batch` that a batch's requests and ground truth are sound."""

from __future__ import annotations

import re
from collections import deque
from urllib.parse import parse_qs, urljoin, urlsplit

import httpx
import lxml.html
from protego import Protego

from research_crawler.eval.table import HELDOUT_SITES
from research_crawler.eval.testbed import Testbed, TestbedServer
from research_crawler.eval.testbed.fresh_batches import FreshBatch
from research_crawler.eval.testbed.layouts import make_site_app
from research_crawler.eval.testbed.site_app import Request, SiteLinks

#: A served testbed and the client that visits it (the tests' `get` fixture).
Served = tuple[TestbedServer, httpx.Client]
#: Metadata a page can carry for its work: citation_*, Dublin Core, PRISM, Open Graph and article tags, JSON-LD.
METADATA_TAGS = re.compile(
    r'<meta (name|property)="(citation_|dc\.|DC\.|prism|og:|article:)|application/ld\+json', re.IGNORECASE
)


def links_of(page: str, pattern: str) -> list[str]:
    """The targets of `page`'s links that match `pattern` (a regular expression), ampersands unescaped."""
    return [h.replace("&amp;", "&") for h in re.findall(rf'href="({pattern})"', page)]


def url_of(get: Served, site: str, path: str) -> str:
    return get[0].base_url(site).rstrip("/") + path


def page_of(get: Served, site: str, path: str, cookies: dict[str, str] | None = None) -> str:
    """The page at `path` of `site` (sent with `cookies`), which must answer 200."""
    headers = {"Cookie": "; ".join(f"{k}={v}" for k, v in cookies.items())} if cookies else None
    response = get[1].get(url_of(get, site, path), headers=headers)
    assert response.status_code == 200, (site, path, response.status_code)
    return response.text


def robots_of(get: Served, site: str) -> Protego:
    """The site's robots.txt, parsed as a visitor's crawler reads it."""
    return Protego.parse(page_of(get, site, "/robots.txt"))


def visit(web: Testbed, site: str, robots_txt: str | None = None, *, scripted: bool = False) -> set[str]:
    """Paths a visitor reaches from the home page by the links a person clicks (facet and paging links included,
    cookies kept), never typing a search and never fetching what robots.txt (the site's, or `robots_txt`) forbids;
    `scripted`, with the links the page's script adds in a browser as well."""
    base = f"http://{site}.testbed.invalid"
    others = {name: f"http://{name}.invalid/" for name in web.site_names()}
    app = make_site_app(web, site, SiteLinks(own_base=base + "/", site_bases=others))
    robots = Protego.parse(robots_txt if robots_txt is not None else app.robots_txt())
    cookies: dict[str, str] = {}
    queue: deque[str] = deque(["/"])
    seen = {"/"}
    reached: set[str] = set()
    while queue:
        target = queue.popleft()
        parts = urlsplit(target)
        response = app.handle(Request("GET", parts.path, parse_qs(parts.query), {}, dict(cookies)))
        if response.status >= 400:
            continue
        reached.add(parts.path)
        for name, value in response.headers:
            if name.lower() == "set-cookie":
                key, _, rest = value.partition("=")
                cookies[key] = rest.split(";")[0]
        found: list[str] = []
        if 300 <= response.status < 400:
            found += [value for name, value in response.headers if name.lower() == "location"]
        elif response.content_type.startswith("text/html"):
            found += [a.get("href") for a in lxml.html.fromstring(response.body).iter("a") if a.get("href")]
            found += list(response.script_links) if scripted else []
        for href in found:
            absolute = urljoin(base + target, href).split("#")[0]
            if not absolute.startswith(base + "/") or not robots.can_fetch(absolute, "*"):
                continue
            path = absolute[len(base) :]
            if path not in seen:
                seen.add(path)
                queue.append(path)
    return reached


def missing(web: Testbed, site: str, reached: set[str]) -> list[str]:
    return [
        web.item(i).path
        for q in web.queries
        if site in (q.site, *q.also_sites)
        for i in q.relevant_item_ids
        if web.item(i).site == site and web.item(i).path not in reached
    ]


def check_reachable(web: Testbed, site: str, *, scripted: bool = False) -> None:
    """Every relevant item of `site` is reached from its home page by a visitor within its robots.txt (with the links
    a page's script adds when `scripted`), and the visit finds no link that leads nowhere."""
    reached = visit(web, site, scripted=scripted)
    assert not missing(web, site, reached)
    assert {i.path for i in web.items_on(site)} <= reached


def check_batch(web: Testbed, batch: FreshBatch) -> None:
    """A fresh batch's requests: one per plan entry, every kind asked, no two with the same answer, held out, each
    answered by works of the sites it names (at most 10, no near miss), on topics no other site holds; its works on
    two sites are six, on the two sites it says share works."""
    specs, plans = batch.specs, batch.plans
    shared = {site for pair in batch.shared for site in pair}
    sites = {spec.name for spec in specs}
    queries = [q for q in web.queries if q.site in sites]
    assert len(queries) == sum(len(plan) for plan in plans.values())
    assert {q.id.rsplit("/", 1)[1].split("-")[-1] for q in queries} >= {"topic", "recent", "year", "author", "cross"}
    assert len({frozenset(q.relevant_item_ids) for q in queries}) == len(queries)
    for query in queries:
        assert query.site in HELDOUT_SITES and query.kind == "unfamiliar"
        answering = {web.item(i).site for i in query.relevant_item_ids}
        assert query.relevant_item_ids and answering == {query.site, *query.also_sites}, query.id
        assert len({web.item(i).work_id for i in query.relevant_item_ids}) <= 10, query.id
        assert not any(web.item(i).topic.endswith("-other") for i in query.relevant_item_ids)
    ours = {slug for spec in specs for slug in spec.categories}
    assert not ours & {slug for spec in web.sites if spec.name not in sites for slug in spec.categories}
    on_two = [i for i in web.items if i.site in sites and i.work]
    assert len(on_two) == 6 and {i.site for i in on_two} == shared
