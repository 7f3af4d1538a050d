"""The institutional-repository (HAL/OSF-like) site: browse by year, Dublin Core only, search through an
OpenSearch description, and the hazards a crawler must survive: a slow page, a failing page, a dead link,
a PDF, and links to other sites and to a host that must never be fetched.
"""

from __future__ import annotations

import dataclasses
import re
from typing import ClassVar
from urllib.parse import urlencode
from xml.sax.saxutils import quoteattr

from research_crawler.eval.testbed.decoys import DecoyKind
from research_crawler.eval.testbed.full_text import search_items
from research_crawler.eval.testbed.markup import (
    attr,
    cookie_banner,
    document,
    esc,
    meta_name,
    template,
    tracker,
)
from research_crawler.eval.testbed.models import Item
from research_crawler.eval.testbed.site_app import Request, Response, Route, SiteApp

__all__ = ["EXTERNAL_HOST", "RepoLikeSite"]

#: A host no crawler may ever fetch (`.invalid` never resolves); the repo links to it on purpose.
EXTERNAL_HOST = "example.invalid"
_YEAR_PAGE = 5
_SEARCH_PAGE = 10


class RepoLikeSite(SiteApp):
    """HALo: an open archive with browse-by-year, Dublin Core and OpenSearch."""

    decoy_paths: ClassVar[dict[str, DecoyKind]] = {
        "/about": "about",
        "/help": "help",
        "/contact": "contact",
        "/privacy": "privacy",
        "/legal": "terms",
        "/submit": "submit",
    }

    def routes(self) -> list[Route]:
        return [
            (re.compile(r"/"), self._home),
            (re.compile(r"/browse"), self._browse),
            (re.compile(r"/browse/year"), self._years),
            (re.compile(r"/browse/year/(?P<year>\d{4})"), self._year),
            (re.compile(r"/(?P<key>hal-0\d{7})"), self._record),
            (re.compile(r"/(?P<key>hal-0\d{7})/document"), self._document),
            (re.compile(r"/opensearch\.xml"), self._opensearch),
            (re.compile(r"/find"), self._find),
            (re.compile(r"/stats"), self._stats),
            (re.compile(r"/feeds/recent"), self._broken_feed),
        ]

    def sample_paths(self) -> dict[str, str]:
        first = self.items[0]
        return {
            "home": "/",
            "browse": "/browse",
            "years": "/browse/year",
            "year-listing": f"/browse/year/{first.year}?page=1",
            "record": first.path,
            "pdf": first.pdf_path,
            "opensearch": "/opensearch.xml",
            "search": "/find?terms=quantum",
            "about": "/about",
            "help": "/help",
        }

    # ------------------------------------------------------------------ chrome

    def page(self, *, title: str, content: str, kind: str, status: int = 200, head: str = "") -> Response:
        a = self.links.absolute
        partners = "".join(
            f'<li><a href="{attr(self.links.on_site(name))}">{esc(self.testbed.site(name).title)}</a></li>'
            for name in self.links.site_bases
            if name != self.spec.name
        )
        years = "".join(f'<li><a href="/browse/year/{y}">{y}</a></li>' for y in self._years_held())
        body = template("repo_chrome.html").substitute(
            home=attr(a("/")),
            site_title=esc(self.spec.title),
            external_host=EXTERNAL_HOST,
            years=years,
            partners=partners,
            content=content,
            cookie_banner=cookie_banner(site_title=self.spec.title, privacy_href="/privacy", style="tarteaucitron"),
        )
        head_all = (
            '<link rel="search" type="application/opensearchdescription+xml" href="/opensearch.xml" '
            f'title="{attr(self.spec.title)}" />\n'
            '<link rel="stylesheet" href="/assets/css/halo.min.css" />\n'
            f"{tracker('MATOMO-HALO')}\n{head}"
        )
        return Response.html(
            document(title=f"{title} - {self.spec.title}", head=head_all, body=body, lang="en"),
            kind=kind,
            status=status,
        )

    def _count_in(self, year: int) -> int:
        return sum(1 for i in self.items if i.year == year)

    def _years_held(self) -> list[int]:
        return sorted({i.year for i in self.items}, reverse=True)

    def _entry(self, item: Item) -> str:
        return (
            f'<li class="result"><a class="ref-title" href="{attr(item.path)}">{esc(item.title)}</a>\n'
            f'<div class="ref-authors">{esc(", ".join(item.authors))}</div>\n'
            f'<div class="ref-meta">Preprint · {esc(item.date)} · {esc(item.category)} · '
            f"{esc(item.key)}</div></li>"
        )

    # ------------------------------------------------------------------ pages

    def _home(self, request: Request) -> Response:
        latest = "\n".join(self._entry(i) for i in self.items[:5])
        content = (
            f"<h1>Welcome to {esc(self.spec.title)}</h1><p>{esc(self.spec.tagline)}: theses, articles, "
            "preprints and reports deposited by researchers, free to read.</p>\n"
            f'<h2>Latest deposits</h2><ul class="results">{latest}</ul>\n'
            '<h2>Explore</h2><ul><li><a href="/browse">Browse the archive</a></li>'
            '<li><a href="/stats">Deposit statistics</a></li>'
            '<li><a href="/feeds/recent">Latest deposits as RSS</a></li></ul>'
        )
        return self.page(title="Home", content=content, kind="home")

    def _browse(self, request: Request) -> Response:
        content = (
            '<h1>Browse</h1><ul><li><a href="/browse/year">By publication year</a></li></ul>'
            "<p>Documents can also be found with the search box.</p>"
        )
        return self.page(title="Browse", content=content, kind="browse")

    def _years(self, request: Request) -> Response:
        rows = "".join(
            f'<li><a href="/browse/year/{y}">{y}</a> ({self._count_in(y)} documents)</li>' for y in self._years_held()
        )
        return self.page(title="Browse by year", content=f"<h1>Browse by year</h1><ul>{rows}</ul>", kind="years")

    def _year(self, request: Request, year: str) -> Response:
        items = [i for i in self.items if i.year == int(year)]
        if not items:
            return self.not_found(f"No documents from {year}.")
        pages = -(-len(items) // _YEAR_PAGE)
        page = request.int_param("page", 1, minimum=1, maximum=pages)
        shown = items[(page - 1) * _YEAR_PAGE : page * _YEAR_PAGE]
        pager = " ".join(
            f"<span>{n}</span>" if n == page else f'<a href="/browse/year/{year}?page={n}">{n}</a>'
            for n in range(1, pages + 1)
        )
        content = (
            f"<h1>Documents from {esc(year)}</h1><p>{len(items)} documents, page {page} of {pages}.</p>\n"
            f'<ul class="results">{"".join(self._entry(i) for i in shown)}</ul>\n<nav '
            f'class="pager">{pager}</nav>'
        )
        return self.page(title=f"Documents from {year}", content=content, kind="year-listing")

    def _record(self, request: Request, key: str) -> Response:
        item = self.item_at(f"/{key}")
        if item is None:
            return self.not_found(f"No document {key}.")
        a = self.links.absolute
        identifiers = [a(item.path), item.key, a(item.pdf_path)] + ([f"doi:{item.doi}"] if item.doi else [])
        head = "\n".join(
            [
                '<link rel="schema.DC" href="http://purl.org/dc/elements/1.1/" />',
                '<link rel="schema.DCTERMS" href="http://purl.org/dc/terms/" />',
                meta_name("DC.language", "en"),
                meta_name("DC.type", "preprint"),
                meta_name("DC.title", item.title),
                *(meta_name("DC.creator", n) for n in item.authors),
                meta_name("DC.description", item.abstract),
                *(meta_name("DC.identifier", v) for v in identifiers),
                meta_name("DC.subject", "; ".join([item.category, *item.keywords])),
                meta_name("DC.date", item.date),
                meta_name("DCTERMS.issued", item.date),
            ]
        )
        doi = (
            f'<li>DOI: <a href="https://doi.{EXTERNAL_HOST}/{attr(item.doi)}">{esc(item.doi)}</a></li>'
            if item.doi
            else ""
        )
        content = (
            '<article class="record"><p class="record-type">Preprints, Working Papers, '
            f"...</p>\n<h1>{esc(item.title)}</h1>\n"
            f'<p class="record-authors">{esc(", ".join(item.authors))}</p>\n'
            f'<section><h2>Abstract</h2><p class="abstract">{esc(item.abstract)}</p></section>\n'
            f"<section><h2>Keywords</h2><p>{esc(' ; '.join(item.keywords))}</p></section>\n"
            f'<section class="record-meta"><ul><li>Domain: {esc(item.category)}</li><li>Submitted on: '
            f"{esc(item.date)}</li>"
            f"<li>Identifier: {esc(item.key)}</li>{doi}</ul></section>\n"
            f'<p><a class="btn-download" href="{attr(item.pdf_path)}">Document (PDF)</a></p>\n'
            f"<section><h2>Cite</h2><p>{esc(', '.join(item.authors))}. {esc(item.title)}. {item.year}. "
            f"⟨{esc(item.key)}⟩</p></section></article>"
        )
        return self.page(title=item.title, content=content, kind="record", head=head)

    def _document(self, request: Request, key: str) -> Response:
        item = self.item_at(f"/{key}")
        return self.pdf(item) if item else self.not_found(f"No document {key}.")

    def _opensearch(self, request: Request) -> Response:
        template = self.links.absolute("/find?terms={searchTerms}")
        xml = (
            '<?xml version="1.0" encoding="UTF-8"?>\n'
            '<OpenSearchDescription xmlns="http://a9.com/-/spec/opensearch/1.1/">\n'
            f"  <ShortName>{esc(self.spec.title)}</ShortName>\n"
            f"  <Description>Search the documents of {esc(self.spec.title)}</Description>\n"
            "  <InputEncoding>UTF-8</InputEncoding>\n"
            f'  <Url type="text/html" method="get" template={quoteattr(template)}/>\n'
            "</OpenSearchDescription>\n"
        )
        return Response.text(
            xml, kind="opensearch", content_type="application/opensearchdescription+xml; charset=utf-8"
        )

    def _find(self, request: Request) -> Response:
        terms = request.param("terms").strip()
        results = search_items(self.items, terms) if terms else []
        pages = max(1, -(-len(results) // _SEARCH_PAGE))
        page = request.int_param("page", 1, minimum=1, maximum=pages)
        shown = results[(page - 1) * _SEARCH_PAGE : page * _SEARCH_PAGE]
        pager = " ".join(
            f"<span>{n}</span>"
            if n == page
            else f'<a href="/find?{attr(urlencode({"terms": terms, "page": str(n)}))}">{n}</a>'
            for n in range(1, pages + 1)
        )
        content = (
            f"<h1>{len(results)} results for “{esc(terms)}”</h1>\n"
            + (
                f'<ul class="results">{"".join(self._entry(i) for i in shown)}</ul>'
                if shown
                else "<p>No documents match.</p>"
            )
            + f'\n<nav class="pager">{pager}</nav>'
        )
        return self.page(title="Search", content=content, kind="search")

    def _stats(self, request: Request) -> Response:
        rows = "".join(f"<tr><td>{y}</td><td>{self._count_in(y)}</td></tr>" for y in self._years_held())
        content = (
            "<h1>Deposit statistics</h1><p>Statistics are computed on demand and can take a few seconds.</p>"
            f"<table><thead><tr><th>Year</th><th>Deposits</th></tr></thead><tbody>{rows}</tbody></table>"
        )
        return dataclasses.replace(self.page(title="Statistics", content=content, kind="slow"), slow=True)

    def _broken_feed(self, request: Request) -> Response:
        body = (
            "<!DOCTYPE html><html><head><title>500 Internal Server Error</title></head><body>"
            "<h1>Internal Server Error</h1><p>The server encountered an internal error and was unable to "
            "complete your request.</p></body></html>"
        )
        return Response.html(body, kind="error", status=500)
