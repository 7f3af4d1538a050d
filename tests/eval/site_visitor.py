"""A visitor's walk over a testbed site, in-process: the links a person clicks from the home page (paging and facet
links included, cookies kept), never typing a search and never fetching what robots.txt forbids; and which relevant
items such a walk missed; and a page of a site served on loopback, fetched as a visitor fetches it. The fresh
held-out batches' tests check with them that each site serves what it claims and every relevant item can be reached."""

from __future__ import annotations

from collections import deque
from urllib.parse import parse_qs, urljoin, urlsplit

import httpx
import lxml.html
from protego import Protego

from research_crawler.eval.testbed import Testbed, TestbedServer
from research_crawler.eval.testbed.layouts import make_site_app
from research_crawler.eval.testbed.site_app import Request, SiteLinks

#: A served testbed and the client that visits it (the tests' `get` fixture).
Served = tuple[TestbedServer, httpx.Client]


def url_of(get: Served, site: str, path: str) -> str:
    return get[0].base_url(site).rstrip("/") + path


def page_of(get: Served, site: str, path: str, cookies: dict[str, str] | None = None) -> str:
    """The page at `path` of `site` (sent with `cookies`), which must answer 200."""
    headers = {"Cookie": "; ".join(f"{k}={v}" for k, v in cookies.items())} if cookies else None
    response = get[1].get(url_of(get, site, path), headers=headers)
    assert response.status_code == 200, (site, path, response.status_code)
    return response.text


def visit(web: Testbed, site: str, robots_txt: str | None = None) -> set[str]:
    """Paths a visitor reaches from the home page by the links a person clicks (facet and paging links included,
    cookies kept), never typing a search and never fetching what robots.txt (the site's, or `robots_txt`) forbids."""
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
