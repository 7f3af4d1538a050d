"""The journal-like (Springer/Nature-like) site: article metadata only as schema.org JSON-LD plus OpenGraph,
papers found mainly through the GET search form and a short "latest" list, and an endless month calendar.
"""

from __future__ import annotations

import re
from typing import ClassVar
from urllib.parse import urlencode

from research_crawler.eval.testbed.corpus import DOI_PREFIX
from research_crawler.eval.testbed.decoys import DecoyKind
from research_crawler.eval.testbed.full_text import search_items
from research_crawler.eval.testbed.markup import (
    MONTHS,
    attr,
    cookie_banner,
    document,
    esc,
    json_script,
    long_date,
    meta_property,
    template,
    tracker,
    url_slug,
)
from research_crawler.eval.testbed.models import Item, SiteSpec, Testbed
from research_crawler.eval.testbed.site_app import Request, Response, Route, SiteApp, SiteLinks

__all__ = ["JournalLikeSite"]

_PAGE_SIZE = 10
_LATEST = 10
_MAX_YEAR = 99_999
_PREFIX = re.escape(DOI_PREFIX)
_KEY = r"(?P<key>s\d{5}-\d{3}-\d{5}-\d)"


class JournalLikeSite(SiteApp):
    """LumenLink: a publisher platform with journals, JSON-LD articles and a calendar trap."""

    trap_prefix = "/archive/"
    decoy_paths: ClassVar[dict[str, DecoyKind]] = {
        "/about": "about",
        "/help": "help",
        "/contact": "contact",
        "/privacy": "privacy",
        "/accessibility": "accessibility",
        "/terms": "terms",
    }

    def __init__(self, *, testbed: Testbed, spec: SiteSpec, links: SiteLinks) -> None:
        self.journals = {url_slug(j): j for j in sorted(set(spec.categories.values()))}
        super().__init__(testbed=testbed, spec=spec, links=links)

    def routes(self) -> list[Route]:
        return [
            (re.compile(r"/"), self._home),
            (re.compile(r"/latest"), self._latest),
            (re.compile(r"/journals"), self._journals),
            (re.compile(r"/journal/(?P<slug>[a-z0-9-]+)"), self._journal),
            (re.compile(rf"/article/{_PREFIX}/{_KEY}"), self._article),
            (re.compile(rf"/content/pdf/{_PREFIX}/{_KEY}\.pdf"), self._pdf),
            (re.compile(r"/search"), self._search),
            (re.compile(r"/archive/(?P<year>\d{1,5})/(?P<month>\d{2})"), self._month),
        ]

    def sample_paths(self) -> dict[str, str]:
        first = self.items[0]
        return {
            "home": "/",
            "latest": "/latest",
            "journals": "/journals",
            "journal": f"/journal/{url_slug(first.category)}",
            "article": first.path,
            "pdf": first.pdf_path,
            "search": "/search?q=quantum",
            "search-form": "/search",
            "archive-month": f"/archive/{first.date[:4]}/{first.date[5:7]}",
            "about": "/about",
            "help": "/help",
        }

    # ------------------------------------------------------------------ chrome

    def _search_form(self, *, journal: str | None = None, element_id: str = "search-header") -> str:
        hidden = f'<input type="hidden" name="journal" value="{attr(journal)}" />' if journal else ""
        return (
            f'<form class="app-search" action="{attr(self.links.absolute("/search"))}" method="get" '
            'role="search" '
            f'id="{attr(element_id)}"><label for="{attr(element_id)}-q">Search</label> <input '
            f'id="{attr(element_id)}-q" '
            'name="q" type="text" placeholder="Search by keyword or author" autocomplete="off" />'
            f'{hidden}<button type="submit">Search</button></form>'
        )

    def page(self, *, title: str, content: str, kind: str, status: int = 200, head: str = "") -> Response:
        a = self.links.absolute
        body = template("journal_chrome.html").substitute(
            home=attr(a("/")),
            journals=attr(a("/journals")),
            site_title=esc(self.spec.title),
            search_form=self._search_form(),
            content=content,
            cookie_banner=cookie_banner(site_title=self.spec.title, privacy_href="/privacy", style="cc-banner"),
        )
        head_all = (
            '<link rel="stylesheet" href="/oscar-static/app-lumenlink/css/core-article.css" />\n'
            f"{meta_property('og:site_name', self.spec.title)}\n{tracker('GTM-LUMEN')}\n{head}"
        )
        return Response.html(
            document(title=f"{title} | {self.spec.title}", head=head_all, body=body), kind=kind, status=status
        )

    # ------------------------------------------------------------------ pages

    def _card(self, item: Item) -> str:
        return (
            f'<li class="app-card-open"><h3 class="app-card-open__heading"><a href="{attr(item.path)}" '
            f'data-track="click">{esc(item.title)}</a></h3>\n<div class="app-card-open__authors">'
            f'{esc(", ".join(item.authors))}</div>\n<div class="app-card-open__meta"><span>Article</span> '
            f'<span class="c-meta__item">Published: {long_date(item.date)}</span> '
            f"<span>{esc(item.category)}</span></div></li>"
        )

    def _home(self, request: Request) -> Response:
        newest = self.items[0]
        journals = "".join(f'<li><a href="/journal/{attr(s)}">{esc(j)}</a></li>' for s, j in self.journals.items())
        month = f"/archive/{newest.date[:4]}/{newest.date[5:7]}"
        content = (
            f'<section class="app-hero"><h1>{esc(self.spec.tagline)}</h1>'
            f"{self._search_form(element_id='search-home')}</section>\n"
            '<section><h2>Explore</h2><ul><li><a href="/latest">Latest articles</a></li>'
            f'<li><a href="{month}">Browse articles by month</a></li>'
            '<li><a href="/journals">All journals</a></li></ul></section>\n'
            f"<section><h2>Featured journals</h2><ul>{journals}</ul></section>\n"
            "<section><h2>Popular subjects</h2><p>Artificial intelligence · Biochemistry · "
            "Climate sciences · Microbiology · Quantum physics · Structural biology</p></section>"
        )
        return self.page(title="Home", content=content, kind="home")

    def _latest(self, request: Request) -> Response:
        cards = "\n".join(self._card(i) for i in self.items[:_LATEST])
        content = f'<h1>Latest articles</h1>\n<ol class="app-article-list">{cards}</ol>'
        return self.page(title="Latest articles", content=content, kind="latest")

    def _journals(self, request: Request) -> Response:
        rows = "".join(
            f'<li><a href="/journal/{attr(s)}">{esc(j)}</a> <span>ISSN '
            f"{1000 + n * 37:04d}-{2000 + n * 13:04d}</span></li>"
            for n, (s, j) in enumerate(self.journals.items())
        )
        content = f'<h1>Journals A-Z</h1>\n<ul class="c-atoz-list">{rows}</ul>'
        return self.page(title="Journals A-Z", content=content, kind="journals")

    def _journal(self, request: Request, slug: str) -> Response:
        journal = self.journals.get(slug)
        if journal is None:
            return self.not_found(f"No journal named {slug}.")
        latest = "\n".join(self._card(i) for i in [i for i in self.items if i.category == journal][:3])
        search = self._search_form(journal=slug, element_id="search-journal")
        content = (
            f'<h1 class="app-journal-masthead__title">{esc(journal)}</h1>\n'
            f"<section><h2>Aims and scope</h2><p>{esc(journal)} publishes original research, reviews and "
            "perspectives. Articles are peer reviewed by at least two independent experts; decisions are "
            "made by the editor-in-chief.</p></section>\n"
            f"<section><h2>Search within this journal</h2>{search}</section>\n"
            f'<section><h2>Latest articles</h2><ol class="app-article-list">{latest}</ol>'
            "<p>Use the search to find all articles of this journal.</p></section>"
        )
        return self.page(title=journal, content=content, kind="journal")

    def _article(self, request: Request, key: str) -> Response:
        item = self.item_at(f"/article/{DOI_PREFIX}/{key}")
        if item is None:
            return self.not_found(f"No article {DOI_PREFIX}/{key}.")
        a = self.links.absolute
        volume = str(item.year - 2012)
        json_ld = {
            "@context": "https://schema.org",
            "@type": "WebPage",
            "mainEntity": {
                "@type": "ScholarlyArticle",
                "headline": item.title,
                "description": item.abstract,
                "datePublished": f"{item.date}T00:00:00Z",
                "dateModified": f"{item.date}T00:00:00Z",
                "keywords": list(item.keywords),
                "sameAs": f"https://doi.org/{item.doi}",
                "identifier": {"@type": "PropertyValue", "propertyID": "DOI", "value": item.doi},
                "isPartOf": {
                    "@type": ["Periodical", "PublicationVolume"],
                    "name": item.category,
                    "volumeNumber": volume,
                },
                "publisher": {"@type": "Organization", "name": self.spec.title},
                "author": [
                    {
                        "@type": "Person",
                        "name": n,
                        "affiliation": [{"@type": "Organization", "name": f"Institute {1 + k} of Example University"}],
                    }
                    for k, n in enumerate(item.authors)
                ],
                "isAccessibleForFree": False,
            },
        }
        head = "\n".join(
            [
                f'<link rel="canonical" href="{attr(a(item.path))}" />',
                meta_property("og:url", a(item.path)),
                meta_property("og:type", "article"),
                meta_property("og:title", item.title),
                meta_property("og:description", item.abstract[:200]),
                json_script(json_ld, script_type="application/ld+json"),
            ]
        )
        similar = [i for i in self.items if i.topic == item.topic and i is not item]
        offset = self.items.index(item) % max(1, len(similar))
        picks = (similar[offset:] + similar[:offset])[:2]
        recommendations = "".join(self._card(i) for i in picks)
        content = template("journal_article.html").substitute(
            journal_slug=attr(url_slug(item.category)),
            journal=esc(item.category),
            title=esc(item.title),
            date=item.date,
            long_date=long_date(item.date),
            volume=volume,
            article_number=item.key[-7:-2],
            authors="".join(f"<li>{esc(n)}</li>" for n in item.authors),
            author_list=esc(", ".join(item.authors)),
            abstract=esc(item.abstract),
            pdf=attr(item.pdf_path),
            recommendations=recommendations,
            year=item.year,
            doi=esc(item.doi or ""),
        )
        return self.page(title=item.title, content=content, kind="article", head=head)

    def _pdf(self, request: Request, key: str) -> Response:
        item = self.item_at(f"/article/{DOI_PREFIX}/{key}")
        return self.pdf(item) if item else self.not_found(f"No PDF for {DOI_PREFIX}/{key}.")

    def _search(self, request: Request) -> Response:
        query = request.param("q").strip()
        if not query:
            content = (
                f"<h1>Search {esc(self.spec.title)}</h1>{self._search_form(element_id='search-page')}"
                "<p>Search across articles, journals and authors. Tip: use fewer, more specific words.</p>"
            )
            return self.page(title="Search", content=content, kind="search-form")
        results = search_items(self.items, query)
        journal_slug = request.param("journal")
        if journal_slug in self.journals:
            results = [i for i in results if i.category == self.journals[journal_slug]]
        year = request.int_param("year", 0, minimum=1900, maximum=2100)
        facets_source = results
        if year:
            results = [i for i in results if i.year == year]
        page = request.int_param("page", 1, minimum=1, maximum=10_000)
        shown = results[(page - 1) * _PAGE_SIZE : page * _PAGE_SIZE]
        params = {"q": query} | ({"journal": journal_slug} if journal_slug in self.journals else {})
        year_links = "".join(
            f'<li><a href="/search?{attr(urlencode(params | {"year": str(y)}))}">{y}</a> '
            f"({sum(1 for i in facets_source if i.year == y)})</li>"
            for y in sorted({i.year for i in facets_source}, reverse=True)
        )
        pages = -(-len(results) // _PAGE_SIZE)
        full = params | ({"year": str(year)} if year else {})
        pager = " ".join(
            f"<span>{n}</span>"
            if n == page
            else f'<a href="/search?{attr(urlencode(full | {"page": str(n)}))}">{n}</a>'
            for n in range(1, pages + 1)
        )
        cards = "\n".join(self._card(i) for i in shown)
        content = (
            '<div class="app-search-layout"><aside class="app-facets"><h2>Refine by '
            f"year</h2><ul>{year_links}</ul>"
            f"<h2>Content type</h2><ul><li>Article ({len(facets_source)})</li></ul></aside>\n<div "
            'class="app-results">'
            f'<h1>{len(results)} results for “{esc(query)}”</h1>\n<ol class="app-article-list">{cards}</ol>\n'
            f'<nav class="c-pagination">{pager}</nav></div></div>'
        )
        return self.page(title=f"Search results for {query}", content=content, kind="search")

    def _month(self, request: Request, year: str, month: str) -> Response:
        y, m = int(year), int(month)
        if not (1 <= y <= _MAX_YEAR and 1 <= m <= 12):
            return self.not_found("No such month.")
        prefix = f"{y:04d}-{m:02d}"
        items = [i for i in self.items if i.date.startswith(prefix)]
        prev_y, prev_m = (y, m - 1) if m > 1 else (y - 1, 12)
        next_y, next_m = (y, m + 1) if m < 12 else (y + 1, 1)
        prev_link = (
            f'<a href="/archive/{prev_y:04d}/{prev_m:02d}" rel="prev">‹ {MONTHS[prev_m - 1]} {prev_y}</a>'
            if prev_y >= 1
            else ""
        )
        next_link = (
            f'<a href="/archive/{next_y:04d}/{next_m:02d}" rel="next">{MONTHS[next_m - 1]} {next_y} ›</a>'
            if next_y <= _MAX_YEAR
            else ""
        )
        cards = "\n".join(self._card(i) for i in items)
        content = (
            f"<h1>Articles published in {MONTHS[m - 1]} {y}</h1>\n"
            f'<nav class="c-calendar-nav">{prev_link} | {next_link}</nav>\n'
            + (
                f'<ol class="app-article-list">{cards}</ol>'
                if items
                else "<p>No articles were published this month.</p>"
            )
        )
        return self.page(title=f"{MONTHS[m - 1]} {y}", content=content, kind="archive-month")
