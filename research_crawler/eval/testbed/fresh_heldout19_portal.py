"""HELD OUT, fresh (nineteenth batch): Thornbury University Figshare, built as Figshare's institutional portals are
(see `fresh_heldout19.py`; do not read or tune anything to it). The home page shows the four newest items and leads
to the browse page (`/browse`) and to one page per category (`/categories/Environmental_biotechnology`); each shows
its first six items newest first as cards ("Journal contribution", "posted on 2024-03-15") and adds the rest by a
script that asks the portal's API (`/api/items?category=…&offset=6&limit=6`) as the visitor scrolls: no pager. An
item page (`/articles/journal_contribution/Title_As_Words/21345678`) gives the title, "Posted on 2024-03-15 -
09:12", "authored by" with the authors linked to their portal pages (which scroll too), the item type, categories,
keywords, licence, the publisher's DOI for accepted manuscripts, a file to download and citation meta tags.
Preprints and conference contributions sit among the journal contributions. Search, the account and the
downloader's files are forbidden.
"""

from __future__ import annotations

import re
from datetime import date
from typing import ClassVar
from urllib.parse import quote

from research_crawler.eval.testbed.decoys import DecoyKind
from research_crawler.eval.testbed.fresh_heldout19 import figshare_slug, item_type
from research_crawler.eval.testbed.markup import attr, document, esc, json_script, meta_name
from research_crawler.eval.testbed.models import Item
from research_crawler.eval.testbed.site_app import Request, Response, Route, SiteApp

__all__ = ["SHOWN", "Fresh19PortalSite", "author_path", "newest_first", "posted_time"]

#: Cards a listing shows before the visitor scrolls.
SHOWN = 6
_LICENCES = ("CC BY 4.0", "CC BY 4.0", "CC BY-NC 4.0", "CC0")


def _hash(text: str) -> int:
    return sum(ord(c) * (n + 23) for n, c in enumerate(text))


def newest_first(items: list[Item]) -> list[Item]:
    return sorted(items, key=lambda i: (i.date, i.key), reverse=True)


def posted_time(item: Item) -> str:
    """When the item was posted, as its page writes it ('2024-03-15 - 09:12')."""
    return f"{item.date} - {8 + _hash(item.title) % 10:02d}:{_hash(item.key) % 60:02d}"


def author_path(name: str) -> str:
    """An author's portal page ('/authors/Ada_Okafor/14523')."""
    return f"/authors/{figshare_slug(name)}/{10_000 + _hash(name) % 89_000}"


class Fresh19PortalSite(SiteApp):
    """A Figshare portal: home, browse and category pages that scroll, author pages, item pages, an API."""

    decoy_paths: ClassVar[dict[str, DecoyKind]] = {"/about": "about", "/help": "help", "/privacy": "privacy"}

    def routes(self) -> list[Route]:
        self.by_key = {i.key: i for i in self.items}
        self.categories = {figshare_slug(c): c for c in dict.fromkeys(i.category for i in self.items)}
        self.authors = {author_path(a): a for i in self.items for a in i.authors}
        return [
            (re.compile(r"/"), self._home),
            (re.compile(r"/browse"), self._browse),
            (re.compile(r"/categories/(?P<slug>[A-Za-z_]+)"), self._category),
            (re.compile(r"/authors/(?P<slug>[A-Za-z_]+)/(?P<number>\d+)"), self._author),
            (re.compile(r"/articles/(?P<kind>[a-z_]+)/(?P<slug>[A-Za-z0-9_]+)/(?P<key>\d{8})"), self._article),
            (re.compile(r"/articles/(?P<kind>[a-z_]+)/(?P<slug>[A-Za-z0-9_]+)/(?P<key>\d{8})/1"), self._article),
            (re.compile(r"/api/items"), self._api),
            (re.compile(r"/ndownloader/files/(?P<number>\d+)"), self._file),
        ]

    def robots_txt(self) -> str:
        return "User-agent: *\nDisallow: /search\nDisallow: /account/\nDisallow: /ndownloader/\nDisallow: /embed/\n"

    def sample_paths(self) -> dict[str, str]:
        item = self.items[0]
        return {
            "home": "/",
            "browse": "/browse",
            "category": f"/categories/{figshare_slug(item.category)}",
            "author": author_path(item.authors[0]),
            "article": item.path,
            "api": "/api/items?offset=6&limit=6",
        }

    def page(self, *, title: str, content: str, kind: str, status: int = 200, head: str = "") -> Response:
        return self._page(title=title, content=content, kind=kind, status=status, head=head)

    def _page(
        self, *, title: str, content: str, kind: str, status: int = 200, head: str = "", script: tuple[str, ...] = ()
    ) -> Response:
        site = self.spec.title
        body = (
            f'<header class="portal-header"><a class="portal-logo" href="/">{esc(site)}</a><form action="/search" '
            'method="get" role="search"><input type="text" name="q" placeholder="Search on Thornbury University '
            'Figshare"><button type="submit">Search</button></form><nav><a href="/browse">Browse</a> <a href="/about'
            '">About</a> <a href="/account/home">Log in</a></nav></header>'
            f'<div role="main" class="portal-main">{content}</div><footer class="portal-footer"><a href="/help">Help'
            f'</a> · <a href="/privacy">Privacy policy</a> · <span>{esc(site)} is powered by figshare</span></footer>'
        )
        html = document(title=f"{title} - {site}" if title != site else site, head=head, body=body)
        return Response.html(html, kind=kind, status=status, script_links=script)

    def _card(self, item: Item) -> str:
        label = item_type(item.title)[1]
        return (
            f'<div class="item-card" role="article"><div class="item-type">{esc(label)}</div><a class="item-title" '
            f'href="{attr(item.path)}">{esc(item.title)}</a><div class="item-meta">posted on <time datetime='
            f'"{item.date}T00:00:00Z">{item.date}</time></div></div>'
        )

    def _scrolled(self, chosen: list[Item], heading: str, query: str) -> tuple[str, tuple[str, ...]]:
        """The first cards, and the script that fetches the rest from the API as the visitor scrolls."""
        cards = "".join(self._card(i) for i in chosen[:SHOWN])
        api = f"/api/items?{query}offset={SHOWN}&limit={SHOWN}"
        content = (
            f'<h1>{esc(heading)}</h1><div class="item-count">{len(chosen)} items</div><div class="item-grid">{cards}'
            f'</div><div class="infinite-scroll-sentinel" aria-hidden="true"></div>'
            + json_script(
                {"api": api, "offset": SHOWN, "limit": SHOWN}, script_type="application/json", element_id="scroll-state"
            )
            + "<script>new IntersectionObserver(fetchNextPage).observe(document.querySelector("
            "'.infinite-scroll-sentinel'));</script>"
        )
        return content, tuple(i.path for i in chosen[SHOWN:])

    def _home(self, request: Request) -> Response:
        categories = "".join(
            f'<li><a href="/categories/{slug}">{esc(name)}</a> ({sum(i.category == name for i in self.items)})</li>'
            for slug, name in self.categories.items()
        )
        recent = "".join(self._card(i) for i in newest_first(self.items)[:4])
        content = (
            f'<section class="hero"><h1>{esc(self.spec.title)}</h1><p>{esc(self.spec.tagline)}: papers, data, '
            'posters and presentations, citable and openly available.</p></section><section class="categories">'
            f'<h2>Explore categories</h2><ul>{categories}</ul></section><p><a class="browse-all" href="/browse">'
            'Browse all items</a></p><section class="recent"><h2>Recently published</h2><div class="item-grid">'
            f"{recent}</div></section>"
        )
        return self.page(title=self.spec.title, content=content, kind="home")

    def _browse(self, request: Request) -> Response:
        content, script = self._scrolled(newest_first(self.items), "Browse", "")
        return self._page(title="Browse", content=content, kind="listing", script=script)

    def _category(self, request: Request, slug: str) -> Response:
        name = self.categories.get(slug)
        if name is None:
            return self.not_found()
        chosen = newest_first([i for i in self.items if i.category == name])
        content, script = self._scrolled(chosen, name, f"category={quote(slug)}&")
        return self._page(title=name, content=content, kind="listing", script=script)

    def _author(self, request: Request, slug: str, number: str) -> Response:
        name = self.authors.get(f"/authors/{slug}/{number}")
        if name is None:
            return self.not_found()
        chosen = newest_first([i for i in self.items if name in i.authors])
        content, script = self._scrolled(chosen, name, f"author={number}&")
        return self._page(title=name, content=content, kind="listing", script=script)

    def _api(self, request: Request) -> Response:
        chosen = newest_first(self.items)
        if request.param("category"):
            chosen = [i for i in chosen if figshare_slug(i.category) == request.param("category")]
        if request.param("author"):
            chosen = [
                i for i in chosen if any(author_path(a).endswith("/" + request.param("author")) for a in i.authors)
            ]
        offset = request.int_param("offset", 0)
        limit = request.int_param("limit", SHOWN, minimum=1, maximum=100)
        rows = [
            {
                "id": int(i.key),
                "title": i.title,
                "defined_type_name": item_type(i.title)[1].lower(),
                "published_date": f"{i.date}T00:00:00Z",
                "url_public_html": self.links.absolute(i.path),
            }
            for i in chosen[offset : offset + limit]
        ]
        return Response.json(rows, kind="api")

    def _article(self, request: Request, kind: str, slug: str, key: str) -> Response:
        item = self.by_key.get(key)
        if item is None or item.path != f"/articles/{kind}/{slug}/{key}":
            return self.not_found()
        url_word, label = item_type(item.title)
        day = date.fromisoformat(item.date)
        authors = ", ".join(f'<a class="author" href="{attr(author_path(a))}">{esc(a)}</a>' for a in item.authors)
        keywords = "".join(
            f'<a class="tag" href="/search?q=:keyword:%20%22{attr(quote(k))}%22">{esc(k)}</a>' for k in item.keywords
        )
        size = f"{0.4 + _hash(item.title) % 40 / 10:.2f} MB"
        published = (
            f'<h3>Publisher DOI</h3><p><a href="https://doi.org/{attr(item.doi)}">https://doi.org/{esc(item.doi)}'
            "</a></p><h3>Version</h3><p>Accepted manuscript</p>"
            if item.work and item.doi
            else ""
        )
        head = (
            meta_name("citation_title", item.title)
            + "".join(meta_name("citation_author", a) for a in item.authors)
            + meta_name("citation_publication_date", f"{day:%Y/%m/%d}")
            + meta_name("citation_pdf_url", self.links.absolute(item.pdf_path))
            + meta_name("description", item.abstract[:200])
        )
        licence = _LICENCES[_hash(item.key) % len(_LICENCES)]
        content = (
            f'<article class="item-page" data-type="{attr(url_word)}"><h2 class="item-title">{esc(item.title)}</h2>'
            f'<div class="item-actions"><a class="download" href="{attr(item.pdf_path)}">Download ({size})</a> '
            f'<a href="/search?q=cite:{item.key}">Cite</a> <a href="/embed/{item.key}">Embed</a></div><div class='
            f'"item-description"><p>{esc(item.abstract)}</p></div>{published}<h3>Item type</h3><p>{esc(label)}</p>'
            f'<h3>Categories</h3><p><a href="/categories/{figshare_slug(item.category)}">{esc(item.category)}</a></p>'
            f"<h3>Keywords</h3><p>{keywords}</p><h3>Licence</h3><p>{esc(licence)}</p><h3>Exports</h3><p>Select an "
            f'option</p><div class="item-meta-footer"><p>Posted on {posted_time(item)}</p><p>authored by {authors}'
            "</p></div></article>"
        )
        return self.page(title=item.title, content=content, kind="article", head=head)

    def _file(self, request: Request, number: str) -> Response:
        item = next((i for i in self.items if i.pdf_path == f"/ndownloader/files/{number}"), None)
        return self.pdf(item) if item is not None else self.not_found()
