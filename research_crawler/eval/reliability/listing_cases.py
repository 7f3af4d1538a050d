"""Catalogue cases of listings that could run away (crawler traps, bad content): a "Load more" that never runs out is
pressed only up to its bound, a sitemap of tens of thousands of pages is read from its first part in one request, and
a feed or sitemap that declares entities is never expanded."""

from __future__ import annotations

import json

from research_crawler.eval.reliability.catalogue import Outcome, case, no_chromium
from research_crawler.eval.reliability.fault_web import FaultServer, Hit, Reply
from research_crawler.eval.reliability.fetch_cases import fast_settings
from research_crawler.pages.page import Determination
from research_crawler.pages.sitemaps import MAX_LINKS
from research_crawler.web.fetcher import Fetcher

__all__: list[str] = []

_DEADLINE_S = 30.0
_ENDLESS = """<!doctype html><html><head><title>Preprints</title></head><body><main><h1>Preprints</h1>
<ul id="list"><li><a href="/p/0">Preprint number zero on graph learning</a></li></ul>
<button id="more">Load more</button>
<script>let n = 1; document.getElementById('more').addEventListener('click', async () => {
  const d = await (await fetch('/api/more?from=' + n)).json();
  for (const p of d.items) { const li = document.createElement('li');
    li.innerHTML = '<a href="' + p.url + '">' + p.title + '</a>'; document.getElementById('list').appendChild(li); }
  n += d.items.length; });</script></main></body></html>"""


def _more(hit: Hit) -> Reply:
    start = int((hit.form.get("from") or ["1"])[0])
    items = [{"url": f"/p/{n}", "title": f"Preprint number {n} on graph learning"} for n in range(start, start + 5)]
    return Reply(200, json.dumps({"items": items}), content_type="application/json")


@case("crawler traps", "a 'Load more' that never runs out is pressed only up to its bound")
async def _endless_load_more() -> Outcome:
    if (skipped := no_chromium()) is not None:
        return skipped
    with FaultServer() as server:
        server.page("/", _ENDLESS)
        server.handle("/api/more", _more)
        settings = fast_settings(server, page_deadline_s=_DEADLINE_S, browser_wait_s=0.2, load_more_presses=4)
        async with Fetcher(settings) as fetcher:
            page = await fetcher.fetch(server.url("/"))
        presses = len([hit for hit in server.hits if hit.path.startswith("/api/more")])
    links = sum(1 for link in page.links if "/p/" in link.url)
    held = page.ok and page.render == "browser" and presses == 4 and links == 21 and "bound of 4 presses" in page.reason
    detail = f"{presses} presses of 4 allowed, {links} entries read, {page.elapsed_s:.1f} s"
    return Outcome(held, detail, [page], _DEADLINE_S)


@case("bad content", "a sitemap of 60 000 pages is read from its first part, in one request, 300 pages listed")
async def _huge_sitemap() -> Outcome:
    entries = "".join(
        f"<url><loc>https://example.org/p/{n}</loc><lastmod>2024-{n % 12 + 1:02d}-01</lastmod></url>"
        for n in range(60_000)
    )
    body = f"<?xml version='1.0'?><urlset xmlns='http://www.sitemaps.org/schemas/sitemap/0.9'>{entries}</urlset>"
    with FaultServer() as server:
        server.route("/sitemap.xml", Reply(200, body, content_type="application/xml"))
        settings = fast_settings(server, max_page_bytes=1024 * 1024, page_deadline_s=15.0)
        async with Fetcher(settings) as fetcher:
            page = await fetcher.fetch(server.url("/sitemap.xml"))
        requests = len(server.hits_for("/sitemap.xml"))
    held = page.ok and len(page.links) == MAX_LINKS and requests == 1 and "only the first part" in page.markdown
    detail = f"{len(body) // 1024} KiB offered, 1024 KiB read; {len(page.links)} pages listed; {requests} request"
    return Outcome(held, detail, [page], 15.0)


@case("bad content", "a feed or a sitemap that declares entities is never expanded")
async def _entity_listings() -> Outcome:
    laughs = '<!ENTITY a "ha"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;"><!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;">'
    feed = f'<?xml version="1.0"?><!DOCTYPE feed [{laughs}]><feed xmlns="http://www.w3.org/2005/Atom"><title>&c;'
    feed += "</title><entry><title>&c;</title><link href='/p/1'/></entry></feed>"
    sitemap = f'<?xml version="1.0"?><!DOCTYPE urlset [{laughs}]><urlset><url><loc>https://x.org/&c;</loc></url>'
    sitemap += "</urlset>"
    with FaultServer() as server:
        server.route("/feed", Reply(200, feed, content_type="application/atom+xml"))
        server.route("/sitemap.xml", Reply(200, sitemap, content_type="application/xml"))
        async with Fetcher(fast_settings(server)) as fetcher:
            pages = [await fetcher.fetch(server.url(path)) for path in ("/feed", "/sitemap.xml")]
    held = all(page.determination is Determination.NON_HTML and not page.markdown for page in pages)
    held = held and all("haha" not in page.html for page in pages)
    return Outcome(held, ", ".join(f"{page.url}: {page.determination}" for page in pages), pages, 3.0)
