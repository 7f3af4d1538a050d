"""HELD OUT, fresh (seventeenth batch): Civic Data Review, built as PubPub builds a community's journal (see
`fresh_heldout17.py`; do not read or tune anything to it). The home page's layout shows the six latest pubs and
leads to the issues page and the topic collections; an issue (`/volume-5-issue-1`) lists its pubs in their order, a
topic collection (`/cities-and-mobility`) lists its pubs newest first; a pub (`/pub/k3x9q2mw`) gives its collection,
its contributors in the byline (an editor among them, by role), "Published on" and "Updated on" as PubPub writes them
("Mar 05, 2024"), its DOI, release, citation meta tags and the community's initial data, and its connections: a pub
first posted as a working paper links to it (one work, two sites). The search runs in the browser only; the
dashboard, login and user pages are forbidden.
"""

from __future__ import annotations

import json
import re
from datetime import date, timedelta
from typing import ClassVar

from research_crawler.eval.testbed.decoys import DecoyKind
from research_crawler.eval.testbed.markup import attr, document, esc, meta_name, meta_property, url_slug
from research_crawler.eval.testbed.models import Item
from research_crawler.eval.testbed.site_app import Request, Response, Route, SiteApp

__all__ = ["EDITORS", "Fresh17PubpubSite", "issue_of", "latest", "pubpub_date", "updated"]

#: The community's editors: a pub's byline names one of them by role, never as an author.
EDITORS = ("Marisol Renwick", "Bernd Achterberg")
_FIRST_YEAR = 2019


def _hash(text: str) -> int:
    return sum(ord(c) * (n + 11) for n, c in enumerate(text))


def pubpub_date(day: date) -> str:
    """A day as a pub's header writes it ('Mar 05, 2024')."""
    return f"{day:%b %d, %Y}"


def updated(item: Item) -> date | None:
    """The day of a pub's later release, for some pubs."""
    lag = _hash(item.title) % 300
    return date.fromisoformat(item.date) + timedelta(days=60 + lag) if lag % 3 == 0 else None


def issue_of(item: Item) -> tuple[str, str]:
    """(slug, name) of the issue collection a pub was published in: two issues a year."""
    day = date.fromisoformat(item.date)
    volume, number = day.year - _FIRST_YEAR, 1 if day.month <= 6 else 2
    return f"volume-{volume}-issue-{number}", f"Volume {volume}, Issue {number}"


def latest(items: list[Item]) -> list[Item]:
    return sorted(items, key=lambda i: (i.date, i.key), reverse=True)


def _byline(authors: tuple[str, ...]) -> str:
    if len(authors) == 1:
        return authors[0]
    return ", ".join(authors[:-1]) + ("," if len(authors) > 2 else "") + f" and {authors[-1]}"


class Fresh17PubpubSite(SiteApp):
    """A PubPub community: layout home, issues page, issue and topic collections, pubs with connections."""

    decoy_paths: ClassVar[dict[str, DecoyKind]] = {"/about": "about", "/submissions": "submit"}

    def routes(self) -> list[Route]:
        self.by_key = {i.key: i for i in self.items}
        self.issues: dict[str, tuple[str, list[Item]]] = {}
        for item in sorted(self.items, key=lambda i: (i.date, i.key)):
            slug, name = issue_of(item)
            self.issues.setdefault(slug, (name, []))[1].append(item)
        self.topics = {url_slug(c): c for c in sorted(set(self.spec.categories.values()))}
        return [
            (re.compile(r"/"), self._home),
            (re.compile(r"/issues"), self._issue_list),
            (re.compile(r"/search"), self._search),
            (re.compile(r"/pub/(?P<key>[0-9a-z]{8})(/release/(?P<release>\d+))?"), self._pub),
            (re.compile(r"/pub/(?P<key>[0-9a-z]{8})/download/pdf"), self._download),
            (re.compile(r"/(?P<slug>[a-z0-9-]+)"), self._collection),
        ]

    def robots_txt(self) -> str:
        return "User-agent: *\nDisallow: /dash\nDisallow: /login\nDisallow: /signup\nDisallow: /user/\n"

    def sample_paths(self) -> dict[str, str]:
        item = self.items[0]
        return {
            "home": "/",
            "issues": "/issues",
            "issue": f"/{issue_of(item)[0]}",
            "collection": f"/{url_slug(item.category)}",
            "pub": item.path,
            "pdf": item.pdf_path,
        }

    def page(self, *, title: str, content: str, kind: str, status: int = 200, head: str = "") -> Response:
        site = self.spec.title
        topics = "".join(f'<li><a href="/{slug}">{esc(name)}</a></li>' for slug, name in self.topics.items())
        body = (
            '<div id="root"><div class="header-component"><div class="container"><a class="title-link" href="/">'
            f'<h1 class="community-title">{esc(site)}</h1></a><div class="header-buttons"><a href="/search" '
            'aria-label="Search">Search</a> <a href="/login">Login or Signup</a></div></div></div><nav class="nav-bar-'
            f'component"><ul><li><a href="/">Home</a></li><li><a href="/issues">Issues</a></li>{topics}<li><a '
            'href="/about">About</a></li><li><a href="/submissions">Submissions</a></li></ul></nav>'
            f'<div class="page-container">{content}</div><footer class="footer-component"><p>{esc(site)} · '
            'Published with PubPub</p><a href="/dash">Dashboard</a> <a href="/rss.xml">RSS</a></footer></div>'
        )
        return Response.html(document(title=f"{title} · {site}", head=head, body=body), kind=kind, status=status)

    def _preview(self, item: Item) -> str:
        return (
            f'<div class="pub-preview-component"><a class="title-text" href="{attr(item.path)}">{esc(item.title)}</a>'
            f'<div class="byline-component">by {esc(_byline(item.authors))}</div><div class="published-date">'
            f"{pubpub_date(date.fromisoformat(item.date))}</div></div>"
        )

    def _home(self, request: Request) -> Response:
        newest = "".join(self._preview(i) for i in latest(self.items)[:6])
        content = (
            f'<div class="layout-banner"><h2>{esc(self.spec.tagline)}</h2><a class="bp3-button" href="/issues">Read '
            f'the issues</a></div><div class="layout-pubs"><h2>Latest</h2>{newest}</div>'
        )
        return self.page(title="Home", content=content, kind="home")

    def _issue_list(self, request: Request) -> Response:
        rows = "".join(
            f'<li><a href="/{slug}">{esc(name)}</a> <span>{len(pubs)} pubs</span></li>'
            for slug, (name, pubs) in reversed(self.issues.items())
        )
        content = f'<div class="layout-collections"><h1>Issues</h1><ul>{rows}</ul></div>'
        return self.page(title="Issues", content=content, kind="listing")

    def _collection(self, request: Request, slug: str) -> Response:
        if slug in self.issues:
            name, pubs = self.issues[slug]
            kind = "issue"
        elif slug in self.topics:
            name, kind = self.topics[slug], "tag"
            pubs = latest([i for i in self.items if i.category == name])
        else:
            return self.not_found()
        rows = "".join(self._preview(i) for i in pubs)
        content = (
            f'<div class="collection-header"><span class="collection-kind">{kind.title()}</span><h1>{esc(name)}</h1>'
            f'</div><div class="layout-pubs">{rows}</div>'
        )
        return self.page(title=name, content=content, kind="collection")

    def _search(self, request: Request) -> Response:
        content = (
            '<div id="search-container"><input type="text" id="search-input" placeholder="Search pubs"><div id='
            '"search-results"></div></div><script src="https://cdn.jsdelivr.net/algoliasearch/3/algoliasearch.min.js">'
            "</script><script>/* the results come from the search service, in the browser */</script>"
        )
        return self.page(title="Search", content=content, kind="search")

    def _pub(self, request: Request, key: str, release: str | None = None) -> Response:
        item = self.by_key.get(key)
        later = updated(item) if item is not None else None
        if item is None or (release not in (None, "1") and not (release == "2" and later)):
            return self.not_found()
        day = date.fromisoformat(item.date)
        issue_slug, issue_name = issue_of(item)
        editor = EDITORS[_hash(item.key) % len(EDITORS)]
        dates = f'<div class="published-date"><span class="label">Published on</span> {pubpub_date(day)}</div>'
        if later:
            dates += f'<div class="updated-date"><span class="label">Updated on</span> {pubpub_date(later)}</div>'
        connections = ""
        for copy in self.testbed.copies_of(item):
            if copy.site != item.site:
                where = self.links.on_site(copy.site, copy.path)
                connections = (
                    '<div class="connections-component"><h3>Connections</h3><p>This Pub is a version of</p><a '
                    f'href="{attr(where)}">{esc(copy.title)}</a> <span>{esc(self.testbed.site(copy.site).title)}'
                    "</span></div>"
                )
        releases = '<a href="' + attr(f"{item.path}/release/1") + '">Release #1</a>'
        if later:
            releases += ' <a href="' + attr(f"{item.path}/release/2") + '">Release #2</a>'
        data = {
            "communityData": {"title": self.spec.title, "citeAs": self.spec.title},
            "pubData": {
                "title": item.title,
                "slug": item.key,
                "doi": item.doi,
                "attributions": [{"name": a, "roles": ["Author"]} for a in item.authors]
                + [{"name": editor, "roles": ["Editor"]}],
                "releases": [{"createdAt": f"{item.date}T14:00:00.000Z"}],
            },
        }
        head = (
            meta_name("citation_title", item.title)
            + "".join(meta_name("citation_author", a) for a in item.authors)
            + meta_name("citation_publication_date", f"{day:%Y/%m/%d}")
            + meta_name("citation_journal_title", self.spec.title)
            + (meta_name("citation_doi", item.doi) if item.doi else "")
            + meta_property("og:title", item.title)
            + meta_property("og:type", "article")
            + meta_name("description", item.abstract)
        )
        content = (
            f'<div class="pub-header-component"><div class="collections-bar"><a href="/{issue_slug}">{esc(issue_name)}'
            f'</a> · <a href="/{url_slug(item.category)}">{esc(item.category)}</a></div><h1 class="title">'
            f'{esc(item.title)}</h1><div class="byline-component">by {esc(_byline(item.authors))}</div><div class='
            f'"attributions"><span class="role">Editor:</span> {esc(editor)}</div><div class="details">{dates}<div '
            f'class="doi">DOI: <a href="https://doi.org/{attr(item.doi)}">{esc(item.doi)}</a></div><div class='
            f'"releases">{releases}</div><a class="download" href="{attr(item.pdf_path)}">Download PDF</a></div></div>'
            f'<div class="pub-body-component"><h2>Abstract</h2><p>{esc(item.abstract)}</p><h2>Keywords</h2><p>'
            f'{esc(", ".join(item.keywords))}</p></div>{connections}<div class="license">This Pub is licensed under a'
            " Creative Commons Attribution 4.0 International License (CC-BY 4.0).</div>"
            f'<script id="initial-data" type="text/plain" data-json="{attr(json.dumps(data))}"></script>'
        )
        return self.page(title=item.title, content=content, kind="article", head=head)

    def _download(self, request: Request, key: str) -> Response:
        item = self.by_key.get(key)
        return self.pdf(item) if item is not None else self.not_found()
