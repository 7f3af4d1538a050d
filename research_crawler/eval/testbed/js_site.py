"""The JavaScript-rendered site: every list of papers is an empty container filled by an inline script from
embedded JSON, so only a browser sees the links; the paper pages themselves are static with `citation_*` tags.
"""

from __future__ import annotations

import re
from typing import ClassVar
from urllib.parse import urlencode

from research_crawler.eval.testbed.decoys import DecoyKind
from research_crawler.eval.testbed.full_text import search_items
from research_crawler.eval.testbed.markup import (
    asset,
    attr,
    cookie_banner,
    document,
    esc,
    json_script,
    meta_name,
    template,
    tracker,
)
from research_crawler.eval.testbed.models import Item
from research_crawler.eval.testbed.site_app import Request, Response, Route, SiteApp

__all__ = ["JsSite"]

_PAGE_SIZE = 12


def _slug(category: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", category.lower()).strip("-")


def _pager_link(base: str, page: int) -> str:
    return f"{base}{'&' if '?' in base else '?'}page={page}"


class JsSite(SiteApp):
    """PaperStream: a single-page-app style site whose listings need JavaScript."""

    decoy_paths: ClassVar[dict[str, DecoyKind]] = {
        "/about": "about",
        "/help": "help",
        "/privacy": "privacy",
        "/terms": "terms",
    }

    def routes(self) -> list[Route]:
        return [
            (re.compile(r"/"), self._home),
            (re.compile(r"/topics"), self._topics),
            (re.compile(r"/topics/(?P<slug>[a-z0-9-]+)"), self._topic),
            (re.compile(r"/browse"), self._browse),
            (re.compile(r"/paper/(?P<key>PS-\d{4}-\d{4})"), self._paper),
            (re.compile(r"/paper/(?P<key>PS-\d{4}-\d{4})\.pdf"), self._pdf),
            (re.compile(r"/search"), self._search),
        ]

    def sample_paths(self) -> dict[str, str]:
        first = self.items[0]
        return {
            "home": "/",
            "topics": "/topics",
            "listing": f"/topics/{_slug(first.category)}",
            "browse": "/browse?page=2",
            "paper": first.path,
            "pdf": first.pdf_path,
            "search": "/search?q=quantum",
            "about": "/about",
            "help": "/help",
        }

    # ------------------------------------------------------------------ chrome

    def page(
        self,
        *,
        title: str,
        content: str,
        kind: str,
        status: int = 200,
        head: str = "",
        script_links: tuple[str, ...] = (),
    ) -> Response:
        a = self.links.absolute
        topics = "".join(
            f'<li><a href="/topics/{attr(_slug(c))}">{esc(c)}</a></li>'
            for c in sorted(set(self.spec.categories.values()))
        )
        body = template("js_chrome.html").substitute(
            home=attr(a("/")),
            site_title=esc(self.spec.title),
            tagline=esc(self.spec.tagline),
            topics=topics,
            content=content,
            cookie_banner=cookie_banner(site_title=self.spec.title, privacy_href="/privacy", style="toast"),
        )
        head_all = f'<link rel="stylesheet" href="/assets/app.3f9c2e.css" />\n{tracker("G-PAPERSTREAM")}\n{head}'
        return Response(
            status,
            document(title=f"{title} · {self.spec.title}", head=head_all, body=body).encode("utf-8"),
            "text/html; charset=utf-8",
            kind,
            script_links=script_links,
        )

    def _script_list(
        self, items: list[Item], *, page: int = 1, pages: int = 0, base: str = ""
    ) -> tuple[str, tuple[str, ...]]:
        """(HTML of an empty list filled by script, the links that script will create)."""
        data = {
            "items": [
                {
                    "id": i.key,
                    "url": i.path,
                    "title": i.title,
                    "authors": list(i.authors),
                    "date": i.date,
                    "topic": i.category,
                }
                for i in items
            ],
            "page": page,
            "pages": pages,
            "base": base,
        }
        html = (
            '<div id="paper-list" class="paper-list" aria-live="polite"></div>\n'
            '<nav id="pager" class="pager"></nav>\n'
            '<noscript><p class="noscript">PaperStream needs JavaScript to show the list of papers.</p>'
            "</noscript>\n"
            f"{json_script(data, script_type='application/json', element_id='stream-data')}\n"
            f"<script>\n{asset('js_listing.js')}</script>"
        )
        links = tuple(i.path for i in items) + tuple(_pager_link(base, n) for n in range(1, pages + 1) if n != page)
        return html, links

    # ------------------------------------------------------------------ pages

    def _home(self, request: Request) -> Response:
        listing, links = self._script_list(self.items[:5])
        tiles = "".join(
            f'<a class="ps-tile" href="/topics/{attr(_slug(c))}">{esc(c)}</a>'
            for c in sorted(set(self.spec.categories.values()))
        )
        content = (
            f'<section class="ps-hero"><h1>{esc(self.spec.title)}</h1><p>{esc(self.spec.tagline)}.</p>'
            "</section>\n"
            f'<section><h2>Trending topics</h2><div class="ps-tiles">{tiles}</div></section>\n'
            f"<section><h2>Latest papers</h2>{listing}"
            '<a href="/browse" class="ps-more">Browse all papers</a></section>'
        )
        return self.page(title="Home", content=content, kind="home", script_links=links)

    def _topics(self, request: Request) -> Response:
        rows = "".join(
            f'<li><a href="/topics/{attr(_slug(c))}">{esc(c)}</a> '
            f"({sum(1 for i in self.items if i.category == c)} papers)</li>"
            for c in sorted(set(self.spec.categories.values()))
        )
        return self.page(title="Topics", content=f'<h1>Topics</h1><ul class="ps-topics">{rows}</ul>', kind="topics")

    def _topic(self, request: Request, slug: str) -> Response:
        category = next((c for c in self.spec.categories.values() if _slug(c) == slug), None)
        if category is None:
            return self.not_found(f"No topic named {slug}.")
        listing, links = self._script_list([i for i in self.items if i.category == category])
        content = f"<h1>{esc(category)}</h1><p>The newest papers in {esc(category)}.</p>\n{listing}"
        return self.page(title=category, content=content, kind="listing", script_links=links)

    def _browse(self, request: Request) -> Response:
        pages = max(1, -(-len(self.items) // _PAGE_SIZE))
        page = request.int_param("page", 1, minimum=1, maximum=pages)
        shown = self.items[(page - 1) * _PAGE_SIZE : page * _PAGE_SIZE]
        listing, links = self._script_list(shown, page=page, pages=pages, base="/browse")
        content = f"<h1>All papers</h1><p>Page {page} of {pages}.</p>\n{listing}"
        return self.page(title="Browse", content=content, kind="browse", script_links=links)

    def _paper(self, request: Request, key: str) -> Response:
        item = self.item_at(f"/paper/{key}")
        if item is None:
            return self.not_found(f"No paper {key}.")
        a = self.links.absolute
        head = "\n".join(
            [
                f'<link rel="canonical" href="{attr(a(item.path))}" />',
                meta_name("citation_title", item.title),
                *(meta_name("citation_author", n) for n in item.authors),
                meta_name("citation_publication_date", item.date.replace("-", "/")),
                meta_name("citation_pdf_url", a(item.pdf_path)),
                meta_name("citation_abstract", item.abstract),
                meta_name("citation_keywords", "; ".join(item.keywords)),
            ]
        )
        related = [i for i in self.items if i.category == item.category and i is not item][:3]
        listing, links = self._script_list(related)
        content = (
            f'<article class="ps-paper"><p class="ps-kicker"><a href="/topics/{attr(_slug(item.category))}">'
            f"{esc(item.category)}</a></p>\n<h1>{esc(item.title)}</h1>\n"
            f'<p class="ps-authors">{esc(", ".join(item.authors))}</p>\n<p class="ps-date">Published '
            f"{esc(item.date)}</p>\n"
            f'<section class="ps-abstract"><h2>Abstract</h2><p>{esc(item.abstract)}</p></section>\n'
            f'<p><a href="{attr(item.pdf_path)}" class="ps-pdf">Download PDF</a></p></article>\n'
            f"<section><h2>More in {esc(item.category)}</h2>{listing}</section>"
        )
        return self.page(title=item.title, content=content, kind="paper", head=head, script_links=links)

    def _pdf(self, request: Request, key: str) -> Response:
        item = self.item_at(f"/paper/{key}")
        return self.pdf(item) if item else self.not_found(f"No paper {key}.")

    def _search(self, request: Request) -> Response:
        query = request.param("q").strip()
        results = search_items(self.items, query) if query else []
        pages = -(-len(results) // _PAGE_SIZE)
        page = request.int_param("page", 1, minimum=1, maximum=max(1, pages))
        base = "/search?" + urlencode({"q": query})
        listing, links = self._script_list(
            results[(page - 1) * _PAGE_SIZE : page * _PAGE_SIZE], page=page, pages=pages, base=base
        )
        heading = f"{len(results)} results for “{esc(query)}”" if query else "Search papers"
        return self.page(title="Search", content=f"<h1>{heading}</h1>\n{listing}", kind="search", script_links=links)
