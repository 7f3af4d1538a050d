"""A research portal whose search is POST-only and whose listings load by script (OpenReach): a listing shows its 10
newest articles in the HTML and the rest behind a "Load more" button whose script fetches JSON from the portal's
API, 10 at a time. The search form posts; a GET of the search page shows the empty form. Articles carry Highwire
``citation_*`` tags (dates written 2025/03/12) and show their date as "Mar 12, 2025".
"""

from __future__ import annotations

import re
from typing import Any, ClassVar
from urllib.parse import urlencode

from research_crawler.eval.testbed.decoys import DecoyKind
from research_crawler.eval.testbed.full_text import search_items
from research_crawler.eval.testbed.markup import (
    MONTHS,
    asset,
    attr,
    document,
    esc,
    first_sentence,
    meta_name,
    tracker,
    url_slug,
)
from research_crawler.eval.testbed.models import Item
from research_crawler.eval.testbed.site_app import Request, Response, Route, SiteApp

__all__ = ["LoadMorePortalSite"]

_SHOWN = 10
_SORTS = {"relevance": "Relevance", "newest": "Newest first", "oldest": "Oldest first"}


def _short_date(day: str) -> str:
    return f"{MONTHS[int(day[5:7]) - 1][:3]} {int(day[8:10])}, {day[:4]}"


class LoadMorePortalSite(SiteApp):
    """OpenReach: subjects and all articles as 10 + "Load more" (JSON), POST-only search."""

    decoy_paths: ClassVar[dict[str, DecoyKind]] = {
        "/about": "about",
        "/help": "help",
        "/privacy": "privacy",
        "/accessibility": "accessibility",
    }

    def routes(self) -> list[Route]:
        return [
            (re.compile(r"/"), self._home),
            (re.compile(r"/articles"), self._all),
            (re.compile(r"/subjects/(?P<slug>[a-z0-9-]+)"), self._subject),
            (re.compile(r"/search"), self._search),
            (re.compile(r"/api/articles"), self._api_articles),
            (re.compile(r"/api/search"), self._api_search),
            (re.compile(r"/static/listing\.js"), self._script),
            (re.compile(r"/article/(?P<key>\d+)/download"), self._download),
            (re.compile(r"/article/(?P<key>\d+)/(?P<slug>[a-z0-9-]+)"), self._article),
        ]

    def sample_paths(self) -> dict[str, str]:
        first = self.items[0]
        return {
            "home": "/",
            "articles": "/articles",
            "subject": f"/subjects/{url_slug(first.category)}",
            "api": "/api/articles?offset=10&limit=10",
            "article": first.path,
            "search-form": "/search",
        }

    # ------------------------------------------------------------------ chrome

    def page(self, *, title: str, content: str, kind: str, status: int = 200, head: str = "") -> Response:
        subjects = "".join(
            f'<li><a href="/subjects/{url_slug(name)}">{esc(name)}</a></li>' for name in self._subjects()
        )
        body = (
            f'<header class="or-top"><a class="brand" href="/">{esc(self.spec.title)}</a>'
            '<nav><a href="/articles">All articles</a> <a href="/search">Search</a> <a href="/about">About</a> '
            f'<a href="/help">Help</a></nav></header>\n<div class="or-body"><aside><h2>Subjects</h2><ul>{subjects}'
            f"</ul></aside><main>{content}</main></div>\n"
            '<footer><a href="/privacy">Privacy</a> · <a href="/accessibility">Accessibility</a></footer>'
        )
        return Response.html(
            document(title=f"{title} — {self.spec.title}", head=f"{tracker('OR-1')}\n{head}", body=body),
            kind=kind,
            status=status,
        )

    def _subjects(self) -> list[str]:
        return sorted(set(self.spec.categories.values()))

    def _entry(self, item: Item) -> str:
        summary = first_sentence(item.abstract)
        return (
            f'<li class="card"><a class="card-title" href="{attr(item.path)}">{esc(item.title)}</a>'
            f'<div class="card-meta">{esc(", ".join(item.authors))} · {esc(_short_date(item.date))} · '
            f'{esc(item.category)}</div><p class="card-summary">{esc(summary)}</p></li>'
        )

    def _record(self, item: Item) -> dict[str, Any]:
        """An article as the API gives it."""
        return {
            "title": item.title,
            "url": item.path,
            "authors": list(item.authors),
            "published": item.date,
            "subject": item.category,
            "summary": first_sentence(item.abstract),
        }

    def _listing(self, *, title: str, intro: str, items: list[Item], api: dict[str, str], kind: str) -> Response:
        """The first 10 in the HTML; a "Load more" button whose script asks the API for the next 10."""
        more = ""
        if len(items) > _SHOWN:
            source = f"/api/{api.pop('endpoint')}?{urlencode({**api, 'offset': _SHOWN, 'limit': _SHOWN})}"
            more = (
                f'<button type="button" id="load-more" class="btn" data-source="{attr(source)}">Load more</button>'
                '<script src="/static/listing.js" defer></script>'
            )
        content = (
            f"<h1>{esc(title)}</h1><p>{esc(intro)} Showing {min(len(items), _SHOWN)} of {len(items)}.</p>"
            f'<ul id="results" class="cards">{"".join(self._entry(i) for i in items[:_SHOWN])}</ul>{more}'
        )
        response = self.page(title=title, content=content, kind=kind)
        return Response(
            response.status,
            response.body,
            response.content_type,
            kind,
            script_links=tuple(i.path for i in items[_SHOWN:]),
        )

    # ------------------------------------------------------------------ pages

    def _home(self, request: Request) -> Response:
        content = (
            f"<h1>{esc(self.spec.title)}</h1><p>{esc(self.spec.tagline)}.</p>\n"
            '<p><a href="/articles">Browse all articles</a> or choose a subject.</p>\n'
            + self._search_form("", "relevance")
        )
        return self.page(title="Home", content=content, kind="home")

    def _all(self, request: Request) -> Response:
        return self._listing(
            title="All articles", intro="Every article, newest first.", items=self.items,
            api={"endpoint": "articles"}, kind="listing",
        )  # fmt: skip

    def _subject(self, request: Request, slug: str) -> Response:
        name = next((n for n in self._subjects() if url_slug(n) == slug), None)
        if name is None:
            return self.not_found()
        items = [i for i in self.items if i.category == name]
        return self._listing(
            title=name, intro=f"Articles in {name}, newest first.", items=items,
            api={"endpoint": "articles", "subject": slug}, kind="subject",
        )  # fmt: skip

    def _search_form(self, query: str, sort: str) -> str:
        options = "".join(
            f'<option value="{key}"{" selected" if key == sort else ""}>{label}</option>'
            for key, label in _SORTS.items()
        )
        return (
            '<form class="or-search" method="post" action="/search"><label for="query">Search articles</label>'
            f'<input id="query" name="query" type="search" value="{attr(query)}" />'
            f'<label for="sort">Sort by</label><select id="sort" name="sort">{options}</select>'
            '<button type="submit">Search</button></form>'
        )

    def _search(self, request: Request) -> Response:
        if request.method != "POST":
            content = "<h1>Search</h1><p>Type your words and press Search.</p>" + self._search_form("", "relevance")
            return self.page(title="Search", content=content, kind="search-form")
        query = request.param("query").strip()
        sort = request.param("sort", "relevance")
        results = self._results(query, sort)
        form = self._search_form(query, sort)
        response = self._listing(
            title=f"Results for “{query}”", intro=f"{len(results)} articles match.", items=results,
            api={"endpoint": "search", "query": query, "sort": sort}, kind="search",
        )  # fmt: skip
        body = response.body.replace(b"<main>", b"<main>" + form.encode(), 1)
        return Response(response.status, body, response.content_type, "search", script_links=response.script_links)

    def _results(self, query: str, sort: str) -> list[Item]:
        results = search_items(self.items, query) if query else []
        if sort == "newest":
            results.sort(key=lambda i: i.date, reverse=True)
        elif sort == "oldest":
            results.sort(key=lambda i: i.date)
        return results

    def _api(self, request: Request, items: list[Item], params: dict[str, str]) -> Response:
        offset = request.int_param("offset", 0)
        limit = request.int_param("limit", _SHOWN, minimum=1, maximum=50)
        page = items[offset : offset + limit]
        end = offset + limit
        return Response.json(
            {
                "total": len(items),
                "offset": offset,
                "items": [self._record(i) for i in page],
                "next": f"{request.path}?{urlencode({**params, 'offset': end, 'limit': limit})}"
                if end < len(items)
                else None,
            },
            kind="api",
        )

    def _api_articles(self, request: Request) -> Response:
        slug = request.param("subject")
        items = [i for i in self.items if not slug or url_slug(i.category) == slug]
        return self._api(request, items, {"subject": slug} if slug else {})

    def _api_search(self, request: Request) -> Response:
        query, sort = request.param("query").strip(), request.param("sort", "relevance")
        return self._api(request, self._results(query, sort), {"query": query, "sort": sort})

    def _script(self, request: Request) -> Response:
        return Response.text(asset("loadmore_listing.js"), kind="script", content_type="text/javascript")

    def _article(self, request: Request, key: str, slug: str) -> Response:
        item = next((i for i in self.items if i.key == key), None)
        if item is None:
            return self.not_found()
        if slug != item.path.rsplit("/", 1)[-1]:
            return Response.redirect(item.path, status=301)
        head = "\n".join(
            [
                meta_name("citation_title", item.title),
                *(meta_name("citation_author", name) for name in item.authors),
                meta_name("citation_publication_date", item.date.replace("-", "/")),
                meta_name("citation_journal_title", self.spec.title),
                meta_name("citation_pdf_url", self.links.absolute(item.pdf_path)),
                meta_name("citation_abstract", item.abstract),
            ]
        )
        content = (
            f'<article><p class="kicker">{esc(item.category)}</p><h1>{esc(item.title)}</h1>'
            f'<p class="authors">{esc(", ".join(item.authors))}</p><p class="date">Published '
            f"{esc(_short_date(item.date))}</p><h2>Summary</h2><p>{esc(item.abstract)}</p>"
            f'<p><a href="{attr(item.pdf_path)}">Download the full text (PDF)</a></p></article>'
        )
        return self.page(title=item.title, content=content, kind="article", head=head)

    def _download(self, request: Request, key: str) -> Response:
        item = next((i for i in self.items if i.key == key), None)
        return self.pdf(item) if item else self.not_found()
