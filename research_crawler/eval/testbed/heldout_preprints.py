"""HELD OUT (see `heldout_web.py`): a community preprint server. An RSS 2.0 feed, a sitemap index in robots.txt,
listings of 10 with a "Show more" button whose script fetches the next cards as HTML inside JSON, a search form
that only posts, and preprints with Highwire tags; those published since name their journal DOI.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime, time
from typing import ClassVar
from urllib.parse import urlencode

from lxml import etree

from research_crawler.eval.testbed.decoys import DecoyKind
from research_crawler.eval.testbed.full_text import search_items
from research_crawler.eval.testbed.markup import MONTHS, attr, document, esc, meta_name, url_slug
from research_crawler.eval.testbed.models import Item
from research_crawler.eval.testbed.site_app import Request, Response, Route, SiteApp

__all__ = ["HeldoutPreprintsSite"]

_SHOWN = 10
_SITEMAP = "http://www.sitemaps.org/schemas/sitemap/0.9"
_DC = "http://purl.org/dc/elements/1.1/"
_SCRIPT = """
document.querySelectorAll('[data-more]').forEach(function (button) {
  button.addEventListener('click', function () {
    fetch(button.dataset.more).then(function (r) { return r.json(); }).then(function (page) {
      document.getElementById('cards').insertAdjacentHTML('beforeend', page.html);
      if (page.next) { button.dataset.more = page.next; } else { button.remove(); }
    });
  });
});
"""


def _posted(day: str) -> str:
    return f"{MONTHS[int(day[5:7]) - 1]} {int(day[8:10])}, {day[:4]}"


class HeldoutPreprintsSite(SiteApp):
    """Open Science Preprints: RSS, a sitemap index, "Show more" (HTML in JSON), POST-only discovery."""

    decoy_paths: ClassVar[dict[str, DecoyKind]] = {"/about": "about", "/help": "help", "/privacy": "privacy"}

    def routes(self) -> list[Route]:
        return [
            (re.compile(r"/"), self._home),
            (re.compile(r"/preprints"), self._all),
            (re.compile(r"/subjects/(?P<slug>[a-z0-9-]+)"), self._subject),
            (re.compile(r"/cards"), self._more),
            (re.compile(r"/discover"), self._discover),
            (re.compile(r"/preprint/(?P<key>osp\.\d{4}\.\d{5})"), self._preprint),
            (re.compile(r"/preprint/(?P<key>osp\.\d{4}\.\d{5})/download"), self._download),
            (re.compile(r"/rss"), self._rss),
            (re.compile(r"/sitemap_index\.xml"), self._sitemap_index),
            (re.compile(r"/sitemap-(?P<year>\d{4})\.xml"), self._sitemap),
            (re.compile(r"/export/.*"), self._export),
        ]

    def sample_paths(self) -> dict[str, str]:
        first = self.items[0]
        return {"home": "/", "preprints": "/preprints", "preprint": first.path, "rss": "/rss",
                "sitemap": "/sitemap_index.xml", "more": "/cards?page=2"}  # fmt: skip

    def robots_txt(self) -> str:
        return f"User-agent: *\nDisallow: /export/\n\nSitemap: {self.links.absolute('/sitemap_index.xml')}\n"

    def page(self, *, title: str, content: str, kind: str, status: int = 200, head: str = "") -> Response:
        subjects = " ".join(f'<a href="/subjects/{url_slug(s)}">{esc(s)}</a>' for s in self._subjects())
        rss = f'<link rel="alternate" type="application/rss+xml" title="{attr(self.spec.title)}" href="/rss" />'
        body = (
            f'<nav class="top"><a href="/">{esc(self.spec.title)}</a> <a href="/preprints">Preprints</a> '
            f'<a href="/discover">Discover</a> {subjects} <a href="/about">About</a></nav>\n<div class="page">'
            f'{content}</div>\n<footer><a href="/help">Help</a> · <a href="/privacy">Privacy</a> · '
            '<a href="/export/all.csv">Export all metadata</a></footer>'
        )
        return Response.html(document(title=f"{self.spec.title} | {title}", head=f"{rss}\n{head}", body=body),
                             kind=kind, status=status)  # fmt: skip

    def _subjects(self) -> list[str]:
        return sorted(set(self.spec.categories.values()))

    def _card(self, item: Item) -> str:
        return (
            f'<article class="card"><h3><a href="{attr(item.path)}">{esc(item.title)}</a></h3><p>'
            f'{esc(" · ".join(item.authors))}</p><p class="posted">Posted {esc(_posted(item.date))}</p></article>'
        )

    def _cards(self, items: list[Item], params: dict[str, str], *, kind: str, title: str, before: str = "") -> Response:
        more = ""
        if len(items) > _SHOWN:
            source = f"/cards?{urlencode({**params, 'page': 2})}"
            more = f'<button data-more="{attr(source)}">Show more</button><script>{_SCRIPT}</script>'
        content = f'{before}<h1>{esc(title)}</h1><div id="cards">{"".join(map(self._card, items[:_SHOWN]))}</div>{more}'
        page = self.page(title=title, content=content, kind=kind)
        return Response(
            page.status, page.body, page.content_type, kind, script_links=tuple(i.path for i in items[_SHOWN:])
        )

    def _selected(self, params: dict[str, str]) -> list[Item]:
        if "q" in params:
            found = search_items(self.items, params["q"])
            return sorted(found, key=lambda i: i.date, reverse=True) if params.get("order") == "newest" else found
        slug = params.get("subject")
        return [i for i in self.items if not slug or url_slug(i.category) == slug]

    def _home(self, request: Request) -> Response:
        content = (
            f"<h1>{esc(self.spec.title)}</h1><p>{esc(self.spec.tagline)}. Subscribe to new preprints with "
            'our <a href="/rss">RSS feed</a>.</p><p><a href="/preprints">All preprints</a></p>'
        )
        return self.page(title="Home", content=content, kind="home")

    def _all(self, request: Request) -> Response:
        return self._cards(self.items, {}, kind="listing", title="All preprints")

    def _subject(self, request: Request, slug: str) -> Response:
        name = next((s for s in self._subjects() if url_slug(s) == slug), None)
        if name is None:
            return self.not_found()
        return self._cards(self._selected({"subject": slug}), {"subject": slug}, kind="subject", title=name)

    def _more(self, request: Request) -> Response:
        params = {k: request.param(k) for k in ("q", "order", "subject") if request.param(k)}
        items = self._selected(params)
        page = request.int_param("page", 2, minimum=2)
        shown = items[(page - 1) * _SHOWN : page * _SHOWN]
        more = page * _SHOWN < len(items)
        return Response.json(
            {
                "html": "".join(map(self._card, shown)),
                "next": f"/cards?{urlencode({**params, 'page': page + 1})}" if more else None,
            },
            kind="cards",
        )

    def _discover(self, request: Request) -> Response:
        form = (
            '<form method="post" action="/discover"><input name="q" aria-label="Keywords" /><select name="order">'
            '<option value="relevance">Best match</option><option value="newest">Newest</option></select>'
            "<button>Discover</button></form>"
        )
        if request.method != "POST" or not request.param("q").strip():
            return self.page(title="Discover", content=f"<h1>Discover preprints</h1>{form}", kind="discover")
        params = {"q": request.param("q").strip(), "order": request.param("order", "relevance")}
        return self._cards(self._selected(params), params, kind="results", title=f"Preprints matching {params['q']}",
                           before=form)  # fmt: skip

    def _preprint(self, request: Request, key: str) -> Response:
        item = self.item_at(f"/preprint/{key}")
        if item is None:
            return self.not_found()
        head = "\n".join(
            [
                meta_name("citation_title", item.title),
                *(meta_name("citation_author", name) for name in item.authors),
                meta_name("citation_online_date", item.date.replace("-", "/")),
                *([meta_name("citation_doi", item.doi)] if item.doi else []),
                meta_name("citation_pdf_url", self.links.absolute(item.pdf_path)),
            ]
        )
        published = f"<p>Now published with DOI {esc(item.doi)}</p>" if item.doi else ""
        content = (
            f"<h1>{esc(item.title)}</h1><p>{esc(', '.join(item.authors))}</p><p>Posted: {esc(_posted(item.date))}"
            f" · {esc(item.category)}</p><h2>Abstract</h2><p>{esc(item.abstract)}</p>{published}"
            f'<a href="{attr(item.pdf_path)}">Download preprint</a>'
        )
        return self.page(title=item.title, content=content, kind="preprint", head=head)

    def _download(self, request: Request, key: str) -> Response:
        item = self.item_at(f"/preprint/{key}")
        return self.pdf(item) if item else self.not_found()

    def _export(self, request: Request) -> Response:
        rows = "\n".join(f'"{i.title}",{i.date},{self.links.absolute(i.path)}' for i in self.items)
        return Response.text(f"title,date,url\n{rows}\n", kind="export", content_type="text/csv; charset=utf-8")

    def _rss(self, request: Request) -> Response:
        rss = etree.Element("rss", version="2.0", nsmap={"dc": _DC})
        channel = etree.SubElement(rss, "channel")
        etree.SubElement(channel, "title").text = self.spec.title
        etree.SubElement(channel, "link").text = self.links.absolute("/")
        etree.SubElement(channel, "description").text = "The newest preprints"
        for item in self.items[:15]:
            entry = etree.SubElement(channel, "item")
            etree.SubElement(entry, "title").text = item.title
            etree.SubElement(entry, "link").text = self.links.absolute(item.path)
            stamp = datetime.combine(datetime.fromisoformat(item.date).date(), time(12), UTC)
            etree.SubElement(entry, "pubDate").text = stamp.strftime("%a, %d %b %Y %H:%M:%S +0000")
            for name in item.authors:
                etree.SubElement(entry, f"{{{_DC}}}creator").text = name
            etree.SubElement(entry, "description").text = item.abstract
        return Response.xml(rss, content_type="application/rss+xml; charset=utf-8", kind="rss")

    def _sitemap_index(self, request: Request) -> Response:
        index = etree.Element(f"{{{_SITEMAP}}}sitemapindex", nsmap={None: _SITEMAP})
        for year in sorted({i.year for i in self.items}):
            entry = etree.SubElement(index, f"{{{_SITEMAP}}}sitemap")
            etree.SubElement(entry, f"{{{_SITEMAP}}}loc").text = self.links.absolute(f"/sitemap-{year}.xml")
        return Response.xml(index, content_type="application/xml", kind="sitemap-index")

    def _sitemap(self, request: Request, year: str) -> Response:
        urlset = etree.Element(f"{{{_SITEMAP}}}urlset", nsmap={None: _SITEMAP})
        for item in (i for i in self.items if i.year == int(year)):
            etree.SubElement(
                etree.SubElement(urlset, f"{{{_SITEMAP}}}url"), f"{{{_SITEMAP}}}loc"
            ).text = self.links.absolute(item.path)
        return Response.xml(urlset, content_type="application/xml", kind="sitemap")
