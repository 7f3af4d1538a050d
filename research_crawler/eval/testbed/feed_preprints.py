"""A preprint server with feeds and a sitemap (Preprint Commons): every page names an Atom feed of new submissions
(``<link rel="alternate">``) and each category an RSS feed; robots.txt names the sitemap and forbids the search and
the moderation pages. Category pages show a few highlights and years; a year lists its preprints newest first.
Preprints carry schema.org JSON-LD only, and those published since name their journal version and its DOI.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime, time
from typing import ClassVar

from lxml import etree

from research_crawler.eval.testbed.decoys import DecoyKind
from research_crawler.eval.testbed.full_text import search_items
from research_crawler.eval.testbed.markup import attr, document, esc, first_sentence, json_script, long_date, tracker
from research_crawler.eval.testbed.models import Item
from research_crawler.eval.testbed.site_app import Request, Response, Route, SiteApp

__all__ = ["FeedPreprintsSite"]

_ATOM = "http://www.w3.org/2005/Atom"
_SITEMAP = "http://www.sitemaps.org/schemas/sitemap/0.9"
_FEED_ENTRIES = 20
_HIGHLIGHTS = 3
_XML = "application/xml; charset=utf-8"


def _stamp(day: str) -> str:
    return datetime.combine(datetime.fromisoformat(day).date(), time(9), UTC).isoformat()


class FeedPreprintsSite(SiteApp):
    """Preprint Commons: Atom and RSS feeds, a sitemap in robots.txt, categories by year, JSON-LD preprints."""

    decoy_paths: ClassVar[dict[str, DecoyKind]] = {
        "/about": "about",
        "/help": "help",
        "/submit": "submit",
        "/privacy": "privacy",
    }

    def routes(self) -> list[Route]:
        return [
            (re.compile(r"/"), self._home),
            (re.compile(r"/list/(?P<category>[A-Za-z.-]+)"), self._category),
            (re.compile(r"/list/(?P<category>[A-Za-z.-]+)/(?P<year>\d{4})"), self._year),
            (re.compile(r"/abs/(?P<key>\d{4}\.\d{5})"), self._abstract),
            (re.compile(r"/pdf/(?P<key>\d{4}\.\d{5})v1"), self._pdf),
            (re.compile(r"/feeds/new\.atom"), self._atom),
            (re.compile(r"/feeds/(?P<category>[A-Za-z.-]+)\.rss"), self._rss),
            (re.compile(r"/sitemap\.xml"), self._sitemap_index),
            (re.compile(r"/sitemaps/preprints-(?P<year>\d{4})\.xml"), self._sitemap),
            (re.compile(r"/search"), self._search),
            (re.compile(r"/admin/.*"), self._admin),
        ]

    def sample_paths(self) -> dict[str, str]:
        first = self.items[0]
        return {
            "home": "/",
            "category": f"/list/{first.category}",
            "year": f"/list/{first.category}/{first.year}",
            "abstract": first.path,
            "atom": "/feeds/new.atom",
            "rss": f"/feeds/{first.category}.rss",
            "sitemap": "/sitemap.xml",
        }

    def robots_txt(self) -> str:
        return (
            f"# robots.txt for {self.spec.title}\nUser-agent: *\nDisallow: /search\nDisallow: /admin/\n"
            f"Allow: /\n\nSitemap: {self.links.absolute('/sitemap.xml')}\n"
        )

    # ------------------------------------------------------------------ chrome

    def page(self, *, title: str, content: str, kind: str, status: int = 200, head: str = "") -> Response:
        categories = "".join(f'<li><a href="/list/{c}">{esc(c)}</a></li>' for c in self._categories())
        feed = (
            '<link rel="alternate" type="application/atom+xml" title="New submissions to '
            f'{attr(self.spec.title)}" href="/feeds/new.atom" />'
        )
        body = (
            f'<header><a class="home" href="/">{esc(self.spec.title)}</a> <span>{esc(self.spec.tagline)}</span>'
            '<form action="/search" method="get"><input name="query" aria-label="Search" />'
            "<button>Search</button></form></header>\n"
            f'<div class="layout"><nav><h2>Categories</h2><ul>{categories}</ul><p><a href="/feeds/new.atom">'
            f"New submissions (Atom)</a></p></nav><main>{content}</main></div>\n"
            '<footer><a href="/about">About</a> · <a href="/help">Help</a> · <a href="/submit">Submit</a> · '
            '<a href="/privacy">Privacy</a> · <a href="/admin/queue">Moderators</a></footer>'
        )
        return Response.html(
            document(title=f"{title} | {self.spec.title}", head=f"{feed}\n{tracker('PC-3')}\n{head}", body=body),
            kind=kind,
            status=status,
        )

    def _categories(self) -> list[str]:
        return sorted(set(self.spec.categories.values()))

    def _entry(self, item: Item) -> str:
        return (
            f'<dt><a href="{attr(item.path)}">{esc(item.key)}</a> [<a href="{attr(item.pdf_path)}">pdf</a>]</dt>'
            f'<dd><div class="title">{esc(item.title)}</div><div class="authors">{esc(", ".join(item.authors))}'
            f'</div><div class="submitted">Submitted {esc(long_date(item.date))}</div>'
            f'<p class="snippet">{esc(first_sentence(item.abstract))}</p></dd>'
        )

    # ------------------------------------------------------------------ pages

    def _home(self, request: Request) -> Response:
        featured = sorted(self.items, key=lambda i: i.id)[:5]
        content = (
            f"<h1>{esc(self.spec.title)}</h1><p>Preprints appear the day after submission. Follow new submissions "
            'with the <a href="/feeds/new.atom">Atom feed</a> or a category\'s RSS feed.</p>\n'
            f"<h2>Featured preprints</h2><dl>{''.join(self._entry(i) for i in featured)}</dl>"
        )
        return self.page(title="Home", content=content, kind="home")

    def _category(self, request: Request, category: str) -> Response:
        items = [i for i in self.items if i.category == category]
        if not items:
            return self.not_found()
        highlights = sorted(items, key=lambda i: i.title)[:_HIGHLIGHTS]
        years = "".join(
            f'<li><a href="/list/{category}/{y}">{y}</a> ({sum(i.year == y for i in items)})</li>'
            for y in sorted({i.year for i in items}, reverse=True)
        )
        head = (
            f'<link rel="alternate" type="application/rss+xml" title="{attr(category)} on '
            f'{attr(self.spec.title)}" href="/feeds/{category}.rss" />'
        )
        content = (
            f"<h1>{esc(category)}</h1><h2>Highlights</h2><dl>{''.join(self._entry(i) for i in highlights)}</dl>"
            f"<h2>By year</h2><ul>{years}</ul>"
        )
        return self.page(title=category, content=content, kind="category", head=head)

    def _year(self, request: Request, category: str, year: str) -> Response:
        items = [i for i in self.items if i.category == category and i.year == int(year)]
        if not items:
            return self.not_found()
        content = f"<h1>{esc(category)}: {year}</h1><dl>{''.join(self._entry(i) for i in items)}</dl>"
        return self.page(title=f"{category} {year}", content=content, kind="year")

    def _abstract(self, request: Request, key: str) -> Response:
        item = self.item_at(f"/abs/{key}")
        if item is None:
            return self.not_found()
        data = {
            "@context": "https://schema.org",
            "@type": "ScholarlyArticle",
            "name": item.title,
            "author": [{"@type": "Person", "name": name} for name in item.authors],
            "datePublished": item.date,
            "abstract": item.abstract,
            "identifier": f"arXiv:{item.key}",
            "url": self.links.absolute(item.path),
            **({"sameAs": f"https://doi.org/{item.doi}"} if item.doi else {}),
        }
        published = ""
        if item.doi:
            copy = next((c for c in self.testbed.copies_of(item) if c.site != self.spec.name), None)
            if copy is not None:
                journal = self.testbed.site(copy.site).title
                href = self.links.on_site(copy.site, copy.path)
                published = (
                    f'<p class="journal-ref">Published in <a href="{attr(href)}">{esc(journal)}</a>, '
                    f"DOI {esc(item.doi)}</p>"
                )
        content = (
            f'<div class="abs"><p class="crumbs"><a href="/list/{item.category}">{esc(item.category)}</a> › '
            f'arXiv:{esc(item.key)}</p><h1>{esc(item.title)}</h1><p class="authors">{esc(", ".join(item.authors))}'
            f'</p><p class="dateline">[Submitted on {esc(long_date(item.date))}]</p><blockquote>{esc(item.abstract)}'
            f'</blockquote>{published}<p><a href="{attr(item.pdf_path)}">Download PDF</a></p></div>'
        )
        head = json_script(data, script_type="application/ld+json")
        return self.page(title=item.title, content=content, kind="abstract", head=head)

    def _pdf(self, request: Request, key: str) -> Response:
        item = self.item_at(f"/abs/{key}")
        return self.pdf(item) if item else self.not_found()

    def _search(self, request: Request) -> Response:
        terms = request.param("query").strip()
        results = search_items(self.items, terms)[:20] if terms else []
        content = f"<h1>Search</h1><dl>{''.join(self._entry(i) for i in results)}</dl>"
        return self.page(title="Search", content=content, kind="search")

    def _admin(self, request: Request) -> Response:
        return self.page(title="Moderators", content="<h1>Moderation queue</h1><p>Sign in.</p>", kind="admin")

    # ------------------------------------------------------------------ feeds and sitemaps

    def _atom(self, request: Request) -> Response:
        feed = etree.Element(f"{{{_ATOM}}}feed", nsmap={None: _ATOM})
        etree.SubElement(feed, f"{{{_ATOM}}}title").text = f"{self.spec.title}: new submissions"
        etree.SubElement(feed, f"{{{_ATOM}}}id").text = self.links.absolute("/feeds/new.atom")
        etree.SubElement(feed, f"{{{_ATOM}}}updated").text = _stamp(self.items[0].date)
        etree.SubElement(feed, f"{{{_ATOM}}}link", href=self.links.absolute("/"), rel="alternate")
        for item in self.items[:_FEED_ENTRIES]:
            entry = etree.SubElement(feed, f"{{{_ATOM}}}entry")
            etree.SubElement(entry, f"{{{_ATOM}}}title").text = item.title
            etree.SubElement(entry, f"{{{_ATOM}}}id").text = self.links.absolute(item.path)
            etree.SubElement(entry, f"{{{_ATOM}}}link", href=self.links.absolute(item.path), rel="alternate")
            etree.SubElement(entry, f"{{{_ATOM}}}published").text = _stamp(item.date)
            etree.SubElement(entry, f"{{{_ATOM}}}updated").text = _stamp(item.date)
            for name in item.authors:
                etree.SubElement(etree.SubElement(entry, f"{{{_ATOM}}}author"), f"{{{_ATOM}}}name").text = name
            etree.SubElement(entry, f"{{{_ATOM}}}summary").text = item.abstract
        return Response.xml(feed, content_type="application/atom+xml; charset=utf-8", kind="atom")

    def _rss(self, request: Request, category: str) -> Response:
        items = [i for i in self.items if i.category == category][:_FEED_ENTRIES]
        if not items:
            return self.not_found()
        rss = etree.Element("rss", version="2.0")
        channel = etree.SubElement(rss, "channel")
        etree.SubElement(channel, "title").text = f"{category} on {self.spec.title}"
        etree.SubElement(channel, "link").text = self.links.absolute(f"/list/{category}")
        etree.SubElement(channel, "description").text = f"New preprints in {category}"
        for item in items:
            entry = etree.SubElement(channel, "item")
            etree.SubElement(entry, "title").text = item.title
            etree.SubElement(entry, "link").text = self.links.absolute(item.path)
            etree.SubElement(entry, "guid").text = self.links.absolute(item.path)
            stamp = datetime.fromisoformat(_stamp(item.date))
            etree.SubElement(entry, "pubDate").text = stamp.strftime("%a, %d %b %Y %H:%M:%S +0000")
            etree.SubElement(entry, "description").text = item.abstract
        return Response.xml(rss, content_type="application/rss+xml; charset=utf-8", kind="rss")

    def _sitemap_index(self, request: Request) -> Response:
        index = etree.Element(f"{{{_SITEMAP}}}sitemapindex", nsmap={None: _SITEMAP})
        for year in sorted({i.year for i in self.items}, reverse=True):
            sitemap = etree.SubElement(index, f"{{{_SITEMAP}}}sitemap")
            etree.SubElement(sitemap, f"{{{_SITEMAP}}}loc").text = self.links.absolute(
                f"/sitemaps/preprints-{year}.xml"
            )
        return Response.xml(index, content_type=_XML, kind="sitemap-index")

    def _sitemap(self, request: Request, year: str) -> Response:
        items = [i for i in self.items if i.year == int(year)]
        if not items:
            return self.not_found()
        urlset = etree.Element(f"{{{_SITEMAP}}}urlset", nsmap={None: _SITEMAP})
        for item in items:
            url = etree.SubElement(urlset, f"{{{_SITEMAP}}}url")
            etree.SubElement(url, f"{{{_SITEMAP}}}loc").text = self.links.absolute(item.path)
            etree.SubElement(url, f"{{{_SITEMAP}}}lastmod").text = item.date
        return Response.xml(urlset, content_type=_XML, kind="sitemap")
