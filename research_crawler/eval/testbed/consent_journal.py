"""A journal behind a cookie-consent wall (Meridian Letters): until its "continue to site" link is followed, every
page answers with the consent notice; then a cookie opens the site. Its articles carry NO metadata tags: the title
is in an <h1>, the authors in a visible byline ("by A, B and C"), the date written out ("Published 12 March 2025"),
and the DOI and the preprint's identifier only in the text. Browse by section or by volume and issue; GET search.
"""

from __future__ import annotations

import re
from typing import ClassVar
from urllib.parse import quote, urlencode

from research_crawler.eval.testbed.decoys import DecoyKind
from research_crawler.eval.testbed.full_text import search_items
from research_crawler.eval.testbed.markup import attr, document, esc, first_sentence, long_date, tracker, url_slug
from research_crawler.eval.testbed.models import Item
from research_crawler.eval.testbed.site_app import Request, Response, Route, SiteApp, paged

__all__ = ["ConsentJournalSite", "byline"]

_COOKIE = "meridian_consent"
_SEARCH_PAGE = 10
_SECTION_PAGE = 20
_OPEN_PATHS = ("/robots.txt", "/consent/accept", "/consent/reject", "/consent/preferences")


def byline(authors: tuple[str, ...]) -> str:
    """Names as a person writes them: 'A', 'A and B', 'A, B and C'."""
    return authors[0] if len(authors) == 1 else ", ".join(authors[:-1]) + " and " + authors[-1]


def _issue_of(item: Item) -> tuple[int, int]:
    """(volume, issue): a volume a year since 2022, an issue a quarter."""
    return int(item.date[:4]) - 2021, (int(item.date[5:7]) - 1) // 3 + 1


class ConsentJournalSite(SiteApp):
    """Meridian Letters: consent wall, sections, volumes and issues, articles without metadata tags."""

    decoy_paths: ClassVar[dict[str, DecoyKind]] = {
        "/about": "about",
        "/privacy": "privacy",
        "/contact": "contact",
        "/submit": "submit",
    }

    def routes(self) -> list[Route]:
        return [
            (re.compile(r"/"), self._home),
            (re.compile(r"/consent/(?P<choice>accept|reject)"), self._consent),
            (re.compile(r"/consent/preferences"), self._preferences),
            (re.compile(r"/section/(?P<slug>[a-z0-9-]+)"), self._section),
            (re.compile(r"/issues"), self._issues),
            (re.compile(r"/issue/(?P<volume>\d+)/(?P<number>\d)"), self._issue),
            (re.compile(r"/doi/(?P<doi>10\.\d+/mer\.\d{4}\.\d{4})"), self._article),
            (re.compile(r"/doi/pdf/(?P<doi>10\.\d+/mer\.\d{4}\.\d{4})"), self._pdf),
            (re.compile(r"/search"), self._search),
        ]

    def sample_paths(self) -> dict[str, str]:
        first = self.items[0]
        volume, number = _issue_of(first)
        return {
            "home": "/",
            "section": f"/section/{url_slug(first.category)}",
            "issues": "/issues",
            "issue": f"/issue/{volume}/{number}",
            "article": first.path,
            "search": "/search?q=lithium",
            "preferences": "/consent/preferences",
        }

    def visitor_cookies(self) -> dict[str, str]:
        return {_COOKIE: "all"}

    # ------------------------------------------------------------------ the wall

    def handle(self, request: Request) -> Response:
        if request.path not in _OPEN_PATHS and _COOKIE not in request.cookies:
            return self._wall(request)
        return super().handle(request)

    def _wall(self, request: Request) -> Response:
        here = request.path + (f"?{urlencode(request.query, doseq=True)}" if request.query else "")
        back = quote(here, safe="")
        content = (
            '<div class="consent-notice" role="dialog" aria-labelledby="consent-title">'
            f'<h1 id="consent-title">Cookie settings</h1>\n<p>{esc(self.spec.title)} and its partners use cookies '
            "and similar technologies to run this website, to remember your choices and, with your consent, to "
            "measure audiences and show relevant content. You can change your mind at any time under Cookie "
            "settings at the bottom of every page.</p>\n<p>Please make a choice to continue to the site.</p>\n"
            f'<p class="consent-actions"><a class="btn btn-primary" href="/consent/accept?return={back}">Accept all '
            f'cookies and continue to site</a> <a class="btn" href="/consent/reject?return={back}">Reject optional '
            'cookies</a> <a class="btn-link" href="/consent/preferences">Manage preferences</a></p></div>'
        )
        return self.page(title="Cookie settings", content=content, kind="consent", chrome=False)

    def _consent(self, request: Request, choice: str) -> Response:
        target = request.param("return", "/")
        if not target.startswith("/") or target.startswith("//"):
            target = "/"
        value = "all" if choice == "accept" else "essential"
        cookie = f"{_COOKIE}={value}; Path=/; Max-Age=15552000; SameSite=Lax"
        return Response.redirect(target, headers=(("Set-Cookie", cookie),))

    def _preferences(self, request: Request) -> Response:
        content = (
            "<h1>Cookie preferences</h1><p>Strictly necessary cookies keep the site working and cannot be turned "
            "off. Analytics and personalisation cookies are optional.</p>"
            '<form method="get" action="/consent/reject"><input type="hidden" name="return" value="/" />'
            '<label><input type="checkbox" name="analytics" /> Analytics</label> '
            '<label><input type="checkbox" name="personalisation" /> Personalisation</label> '
            "<button>Save my choices and continue</button></form>"
        )
        return self.page(title="Cookie preferences", content=content, kind="consent", chrome=False)

    # ------------------------------------------------------------------ chrome

    def page(
        self, *, title: str, content: str, kind: str, status: int = 200, head: str = "", chrome: bool = True
    ) -> Response:
        sections = "".join(f'<li><a href="/section/{url_slug(name)}">{esc(name)}</a></li>' for name in self._sections())
        header = (
            f'<header class="mer-header"><a class="logo" href="/">{esc(self.spec.title)}</a>'
            '<form class="mer-search" action="/search" method="get" role="search"><label for="q">Search</label>'
            '<input id="q" name="q" type="search" /><button>Go</button></form></header>\n'
            f'<nav class="mer-nav"><ul><li><a href="/issues">All issues</a></li>{sections}'
            '<li><a href="/submit">Submit a letter</a></li><li><a href="/about">About</a></li></ul></nav>'
        )
        footer = (
            '<footer class="mer-footer"><a href="/privacy">Privacy</a> · <a href="/consent/preferences">Cookie '
            f'settings</a> · <a href="/contact">Contact</a><p>© {esc(self.spec.title)}</p></footer>'
        )
        body = f"{header if chrome else ''}\n<main>{content}</main>\n{footer}"
        head_all = f"{tracker('MER-9')}\n{head}"
        return Response.html(
            document(title=f"{title} | {self.spec.title}", head=head_all, body=body), kind=kind, status=status
        )

    def _sections(self) -> list[str]:
        return sorted(set(self.spec.categories.values()))

    def _entry(self, item: Item) -> str:
        return (
            f'<li class="toc-entry"><h3><a href="{attr(item.path)}">{esc(item.title)}</a></h3>'
            f'<p class="authors">{esc(byline(item.authors))}</p>'
            f'<p class="meta">Published {esc(long_date(item.date))} · {esc(item.category)}</p>'
            f'<p class="teaser">{esc(first_sentence(item.abstract))}</p></li>'
        )

    # ------------------------------------------------------------------ pages

    def _home(self, request: Request) -> Response:
        volume, number = _issue_of(self.items[0])
        content = (
            f"<h1>{esc(self.spec.title)}</h1><p>{esc(self.spec.tagline)}. Letters are short, fast and open to read."
            f'</p>\n<h2>Current issue</h2><p><a href="/issue/{volume}/{number}">Volume {volume}, Issue {number}</a>'
            "</p>\n<h2>Sections</h2><ul>"
            + "".join(f'<li><a href="/section/{url_slug(n)}">{esc(n)}</a></li>' for n in self._sections())
            + '</ul>\n<p><a href="/issues">Browse all issues</a></p>'
        )
        return self.page(title="Home", content=content, kind="home")

    def _section(self, request: Request, slug: str) -> Response:
        name = next((n for n in self._sections() if url_slug(n) == slug), None)
        if name is None:
            return self.not_found()
        letters = [i for i in self.items if i.category == name]
        shown, pager = paged(request, letters, _SECTION_PAGE, lambda n: f"/section/{slug}?page={n}")
        content = (
            f"<h1>{esc(name)}</h1><p>Letters in {esc(name)}, newest first. They are also in the "
            f'<a href="/issues">issues</a>.</p><ol class="toc">{"".join(self._entry(i) for i in shown)}</ol>{pager}'
        )
        return self.page(title=name, content=content, kind="section")

    def _issues(self, request: Request) -> Response:
        held = sorted({_issue_of(i) for i in self.items}, reverse=True)
        rows = "".join(f'<li><a href="/issue/{v}/{n}">Volume {v} ({2021 + v}), Issue {n}</a></li>' for v, n in held)
        return self.page(title="All issues", content=f"<h1>All issues</h1><ul>{rows}</ul>", kind="issues")

    def _issue(self, request: Request, volume: str, number: str) -> Response:
        wanted = (int(volume), int(number))
        items = [i for i in self.items if _issue_of(i) == wanted]
        if not items:
            return self.not_found(f"No issue {volume}/{number}.")
        groups = "".join(
            f'<h2>{esc(name)}</h2><ol class="toc">{"".join(self._entry(i) for i in items if i.category == name)}</ol>'
            for name in self._sections()
            if any(i.category == name for i in items)
        )
        content = f"<h1>Volume {volume}, Issue {number}</h1>\n{groups}"
        return self.page(title=f"Volume {volume}, Issue {number}", content=content, kind="issue")

    def _article(self, request: Request, doi: str) -> Response:
        item = self.item_at(f"/doi/{doi}")
        if item is None:
            return self.not_found(f"No letter {doi}.")
        volume, number = _issue_of(item)
        preprint = ""
        if item.arxiv_id:
            copy = next((c for c in self.testbed.copies_of(item) if c.site != self.spec.name), None)
            href = self.links.on_site(copy.site, copy.path) if copy else "#"
            preprint = f'<p class="preprint">Preprint: <a href="{attr(href)}">arXiv:{esc(item.arxiv_id)}</a></p>'
        content = (
            f'<nav class="breadcrumbs"><a href="/">Home</a> › <a href="/issue/{volume}/{number}">Volume {volume}, '
            f'Issue {number}</a> › Letter</nav>\n<article class="letter"><p class="section">{esc(item.category)}'
            f'</p>\n<h1>{esc(item.title)}</h1>\n<p class="byline">by {esc(byline(item.authors))}</p>\n'
            f'<p class="dates">Published {esc(long_date(item.date))}</p>\n'
            f"<section><h2>Abstract</h2><p>{esc(item.abstract)}</p></section>\n"
            f'<p class="doi">DOI: {esc(item.doi)}</p>{preprint}\n'
            f'<p><a class="pdf" href="{attr(item.pdf_path)}">Download PDF</a></p></article>'
        )
        return self.page(title=item.title, content=content, kind="article")

    def _pdf(self, request: Request, doi: str) -> Response:
        item = self.item_at(f"/doi/{doi}")
        return self.pdf(item) if item else self.not_found()

    def _search(self, request: Request) -> Response:
        terms = request.param("q").strip()
        results = search_items(self.items, terms) if terms else []
        shown, pager = paged(request, results, _SEARCH_PAGE, lambda n: f"/search?{urlencode({'q': terms, 'page': n})}")
        content = (
            f"<h1>Search results for “{esc(terms)}”</h1><p>{len(results)} letters</p>"
            f'<ol class="toc">{"".join(self._entry(i) for i in shown)}</ol>{pager}'
        )
        return self.page(title="Search", content=content, kind="search")
