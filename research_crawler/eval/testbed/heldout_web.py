"""HELD OUT: the unfamiliar web's sites that the engineers building the crawler's capabilities do not read, so that
their figures are measured on structures they never saw. Do not tune anything to this module or to
`heldout_preprints.py`; read `unfamiliar_corpus.py` and the visible sites instead.

The society publisher here (consent by a form, journals → volumes → monthly issues, articles without metadata tags)
shares works with the preprint server of `heldout_preprints.py`.
"""

from __future__ import annotations

import re
from datetime import date
from typing import ClassVar
from urllib.parse import urlencode

from research_crawler.eval.testbed.decoys import DecoyKind
from research_crawler.eval.testbed.full_text import search_items
from research_crawler.eval.testbed.markup import MONTHS, attr, document, esc, url_slug
from research_crawler.eval.testbed.models import Item, SiteSpec
from research_crawler.eval.testbed.site_app import Request, Response, Route, SiteApp
from research_crawler.eval.testbed.vocabulary import DOI_PREFIX

__all__ = ["HELDOUT_PLANS", "HELDOUT_SHARED", "HELDOUT_SITE_SPECS", "HeldoutSocietySite", "heldout_identity"]

HELDOUT_SITE_SPECS: tuple[SiteSpec, ...] = (
    SiteSpec(
        name="heldout-society",
        title="The Halden Society",
        layout="heldout-society",
        tagline="Learned-society journals since 1887",
        categories={
            "antibiotics": "Halden Journal of Microbiology",
            "lowres-asr": "Halden Journal of Language Science",
            "bleaching": "Halden Journal of Marine Science",
            "antibiotic-stewardship": "Halden Journal of Microbiology",
        },
    ),
    SiteSpec(
        name="heldout-preprints",
        title="Open Science Preprints",
        layout="heldout-preprints",
        tagline="A community preprint server",
        categories={"antibiotics": "Microbiology", "lowres-asr": "Linguistics", "smoke": "Public Health"},
    ),
)
HELDOUT_PLANS: dict[str, tuple[str, ...]] = {
    "heldout-society": ("topic", "topic", "year", "author", "cross:heldout-preprints"),
    "heldout-preprints": ("topic", "recent", "recent"),
}
HELDOUT_SHARED: dict[tuple[str, str], tuple[str, ...]] = {
    ("heldout-preprints", "heldout-society"): ("antibiotics", "lowres-asr"),
}

_COOKIE = "hs_prefs"
_SEARCH_PAGE = 20


def heldout_identity(layout: str, day: date, serial: int, title: str) -> tuple[str, str, str, str | None, str | None]:
    """(key, path, PDF path, DOI, preprint id) of a held-out site's item."""
    if layout == "heldout-society":
        key = f"sael.{day.year}.{serial:04d}"
        doi = f"{DOI_PREFIX}/{key}"
        return key, f"/doi/{doi}", f"/doi/epdf/{doi}", doi, None
    number = f"{day:%y%m}.{serial:05d}"
    key = f"osp.{number}"
    return key, f"/preprint/{key}", f"/preprint/{key}/download", None, number


def _issue(item: Item) -> int:
    return int(item.date[5:7])


class HeldoutSocietySite(SiteApp):
    """The Halden Society: consent by a posted form, journals → volumes → monthly issues, untagged articles."""

    decoy_paths: ClassVar[dict[str, DecoyKind]] = {"/membership": "members", "/about": "about", "/terms": "terms"}

    def routes(self) -> list[Route]:
        return [
            (re.compile(r"/"), self._home),
            (re.compile(r"/privacy/consent"), self._consent),
            (re.compile(r"/journal/(?P<slug>[a-z0-9-]+)"), self._journal),
            (re.compile(r"/journal/(?P<slug>[a-z0-9-]+)/volume/(?P<year>\d{4})"), self._volume),
            (re.compile(r"/journal/(?P<slug>[a-z0-9-]+)/volume/(?P<year>\d{4})/issue/(?P<issue>\d+)"), self._toc),
            (re.compile(r"/doi/(?P<doi>10\.\d+/sael\.\d{4}\.\d{4})"), self._article),
            (re.compile(r"/doi/epdf/(?P<doi>10\.\d+/sael\.\d{4}\.\d{4})"), self._pdf),
            (re.compile(r"/action/doSearch"), self._search),
        ]

    def sample_paths(self) -> dict[str, str]:
        first = self.items[0]
        slug = url_slug(first.category)
        return {
            "home": "/",
            "journal": f"/journal/{slug}",
            "volume": f"/journal/{slug}/volume/{first.year}",
            "issue": f"/journal/{slug}/volume/{first.year}/issue/{_issue(first)}",
            "article": first.path,
            "search": "/action/doSearch?AllField=coral",
        }

    def visitor_cookies(self) -> dict[str, str]:
        return {_COOKIE: "all"}

    def handle(self, request: Request) -> Response:
        if _COOKIE not in request.cookies and request.path not in ("/robots.txt", "/privacy/consent"):
            return self._notice(request)
        return super().handle(request)

    def _notice(self, request: Request) -> Response:
        here = request.path + (f"?{urlencode(request.query, doseq=True)}" if request.query else "")
        content = (
            '<section class="privacy-overlay"><h1>Your privacy</h1><p>We and our 47 partners store and access '
            "information on your device, such as cookies, to run the site, to analyse traffic and to personalise "
            "content. Choose which purposes you allow; you can change your choice at any time.</p>"
            '<form method="post" action="/privacy/consent">'
            f'<input type="hidden" name="return" value="{attr(here)}" />'
            '<button type="submit" name="choice" value="all">Accept all</button> '
            '<button type="submit" name="choice" value="necessary">Necessary only</button></form></section>'
        )
        return self.page(title="Your privacy", content=content, kind="consent")

    def _consent(self, request: Request) -> Response:
        if request.method != "POST":
            return self._notice(request)
        target = request.param("return", "/")
        target = target if target.startswith("/") and not target.startswith("//") else "/"
        choice = "all" if request.param("choice") == "all" else "necessary"
        return Response.redirect(target, headers=(("Set-Cookie", f"{_COOKIE}={choice}; Path=/; HttpOnly"),))

    def page(self, *, title: str, content: str, kind: str, status: int = 200, head: str = "") -> Response:
        journals = "".join(f'<li><a href="/journal/{url_slug(j)}">{esc(j)}</a></li>' for j in self._journals())
        body = (
            f'<div class="masthead"><a href="/">{esc(self.spec.title)}</a><form action="/action/doSearch">'
            '<input name="AllField" placeholder="Search" /><button>Search</button></form></div>\n'
            f'<ul class="journal-menu">{journals}<li><a href="/membership">Membership</a></li></ul>\n'
            f'<div class="main">{content}</div>\n<div class="foot"><a href="/about">About the Society</a> · '
            '<a href="/terms">Terms</a></div>'
        )
        return Response.html(document(title=f"{title} - {self.spec.title}", head=head, body=body), kind=kind,
                             status=status)  # fmt: skip

    def _journals(self) -> list[str]:
        return sorted(set(self.spec.categories.values()))

    def _journal_of(self, slug: str) -> str | None:
        return next((j for j in self._journals() if url_slug(j) == slug), None)

    def _authors(self, item: Item) -> str:
        names = list(item.authors)
        return esc(names[0] if len(names) == 1 else ", ".join(names[:-1]) + " & " + names[-1])

    def _home(self, request: Request) -> Response:
        journals = "".join(f'<li><a href="/journal/{url_slug(j)}">{esc(j)}</a></li>' for j in self._journals())
        content = f"<h1>{esc(self.spec.title)}</h1><p>{esc(self.spec.tagline)}.</p><h2>Journals</h2><ul>{journals}</ul>"
        return self.page(title="Home", content=content, kind="home")

    def _journal(self, request: Request, slug: str) -> Response:
        journal = self._journal_of(slug)
        if journal is None:
            return self.not_found()
        years = sorted({i.year for i in self.items if i.category == journal}, reverse=True)
        rows = "".join(f'<li><a href="/journal/{slug}/volume/{y}">Volume {y - 1886} ({y})</a></li>' for y in years)
        content = f"<h1>{esc(journal)}</h1><h2>All volumes</h2><ul>{rows}</ul>"
        return self.page(title=journal, content=content, kind="journal")

    def _volume(self, request: Request, slug: str, year: str) -> Response:
        journal = self._journal_of(slug)
        items = [i for i in self.items if i.category == journal and i.year == int(year)]
        if journal is None or not items:
            return self.not_found()
        issues = sorted({_issue(i) for i in items})
        rows = "".join(
            f'<li><a href="/journal/{slug}/volume/{year}/issue/{n}">Issue {n} ({MONTHS[n - 1]} {year})</a></li>'
            for n in issues
        )
        content = (
            f'<p class="trail"><a href="/journal/{slug}">{esc(journal)}</a> / Volume {int(year) - 1886}</p>'
            f"<h1>Volume {int(year) - 1886}, {year}</h1><ul>{rows}</ul>"
        )
        return self.page(title=f"Volume {year}", content=content, kind="volume")

    def _toc(self, request: Request, slug: str, year: str, issue: str) -> Response:
        journal = self._journal_of(slug)
        items = [i for i in self.items if i.category == journal and i.year == int(year) and _issue(i) == int(issue)]
        if journal is None or not items:
            return self.not_found()
        rows = "".join(
            f'<div class="issue-item"><a class="issue-item__title" href="{attr(i.path)}">{esc(i.title)}</a>'
            f'<div class="loa">{self._authors(i)}</div><div class="epub">First published: '
            f"{int(i.date[8:10]):02d} {MONTHS[int(i.date[5:7]) - 1]} {i.date[:4]}</div></div>"
            for i in items
        )
        content = (
            f'<p class="trail"><a href="/journal/{slug}">{esc(journal)}</a> / <a href="/journal/{slug}/volume/'
            f'{year}">Volume {int(year) - 1886}</a> / Issue {issue}</p><h1>Issue {issue}, {MONTHS[int(issue) - 1]} '
            f"{year}</h1>{rows}"
        )
        return self.page(title=f"Issue {issue}", content=content, kind="issue")

    def _article(self, request: Request, doi: str) -> Response:
        item = self.item_at(f"/doi/{doi}")
        if item is None:
            return self.not_found()
        slug = url_slug(item.category)
        preprint = ""
        copy = next((c for c in self.testbed.copies_of(item) if c.site != self.spec.name), None)
        if copy is not None:
            preprint = (
                f'<p class="related">An earlier version was posted as a preprint: <a href="'
                f'{attr(self.links.on_site(copy.site, copy.path))}">{esc(copy.key)}</a></p>'
            )
        content = (
            f'<p class="trail"><a href="/journal/{slug}">{esc(item.category)}</a> / <a href="/journal/{slug}/volume/'
            f'{item.year}/issue/{_issue(item)}">Issue {_issue(item)}</a></p><div class="article-header">'
            f'<span class="type">Research Article</span><h1 class="citation__title">{esc(item.title)}</h1>'
            f'<div class="loa">{self._authors(item)}</div><div class="epub">First published: '
            f"{int(item.date[8:10]):02d} {MONTHS[int(item.date[5:7]) - 1]} {item.date[:4]}</div>"
            f'<div class="doi">https://doi.org/{esc(item.doi)}</div></div><section class="abstract"><h2>Abstract</h2>'
            f'<p>{esc(item.abstract)}</p></section>{preprint}<p><a href="{attr(item.pdf_path)}">PDF</a></p>'
        )
        return self.page(title=item.title, content=content, kind="article")

    def _pdf(self, request: Request, doi: str) -> Response:
        item = self.item_at(f"/doi/{doi}")
        return self.pdf(item) if item else self.not_found()

    def _search(self, request: Request) -> Response:
        terms = request.param("AllField").strip()
        results = search_items(self.items, terms)[:_SEARCH_PAGE] if terms else []
        rows = "".join(
            f'<div class="issue-item"><a href="{attr(i.path)}">{esc(i.title)}</a><div class="loa">{self._authors(i)}'
            f"</div></div>"
            for i in results
        )
        return self.page(title="Search", content=f"<h1>{len(results)} results</h1>{rows}", kind="search")
