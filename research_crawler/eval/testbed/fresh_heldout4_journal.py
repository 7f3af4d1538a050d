"""HELD OUT, fresh (fourth batch): the Journal of Coastal and Rural Environments, an Open Journal Systems journal
(see `fresh_heldout4.py`; do not read or tune anything to it). Archive of issues (paged) → issue table of contents by
section with "PDF" galleys → article abstract pages; ``citation_*`` tags only since 2024; Spanish chrome by a
language cookie; a "Recently published" box filled by script from the REST API that robots.txt forbids.
"""

from __future__ import annotations

import re
from datetime import date
from typing import ClassVar
from urllib.parse import quote

from research_crawler.eval.testbed.decoys import DecoyKind
from research_crawler.eval.testbed.fresh_heldout4 import JOURNAL_PATH
from research_crawler.eval.testbed.full_text import search_items
from research_crawler.eval.testbed.markup import attr, document, esc, meta_name
from research_crawler.eval.testbed.models import Item
from research_crawler.eval.testbed.site_app import Request, Response, Route, SiteApp

__all__ = ["ISSUES_PER_ARCHIVE_PAGE", "LOCALE_COOKIE", "TAGGED_SINCE", "Fresh4JournalSite", "Issue", "issues_of"]

J = JOURNAL_PATH
LOCALE_COOKIE = "OJSSID_locale"
ISSUES_PER_ARCHIVE_PAGE = 4
#: The year the journal turned on its Google Scholar indexing plugin: articles before it carry no citation_* tags.
TAGGED_SINCE = 2024
_FIRST_VOLUME = 2018
_WORDS = {
    "en_US": {"abstract": "Abstract", "published": "Published", "issue": "Issue", "section": "Section",
              "cite": "How to Cite", "current": "Current", "archives": "Archives", "about": "About",
              "articles": "Articles", "short": "Short Communications", "search": "Search", "keywords": "Keywords",
              "recent": "Recently published", "back": "Return to Article Details", "download": "Download"},
    "es_ES": {"abstract": "Resumen", "published": "Publicado", "issue": "Número", "section": "Sección",
              "cite": "Cómo citar", "current": "Actual", "archives": "Archivos", "about": "Acerca de",
              "articles": "Artículos", "short": "Comunicaciones breves", "search": "Buscar",
              "keywords": "Palabras clave", "recent": "Publicado recientemente", "back": "Volver a los detalles",
              "download": "Descargar"},
}  # fmt: skip


class Issue:
    """One issue: volume (a year), number (a third of the year), its articles, its id in the journal's URLs."""

    def __init__(self, issue_id: int, year: int, number: int, articles: list[Item]) -> None:
        self.id, self.year, self.number, self.articles = issue_id, year, number, articles

    @property
    def label(self) -> str:
        return f"Vol. {self.year - _FIRST_VOLUME} No. {self.number} ({self.year})"

    @property
    def published(self) -> str:
        return max(i.date for i in self.articles)


def issues_of(items: list[Item]) -> list[Issue]:
    """The journal's issues, newest first: articles grouped by year and third of the year (Jan–Apr, May–Aug, …)."""
    groups: dict[tuple[int, int], list[Item]] = {}
    for item in sorted(items, key=lambda i: (i.date, i.id)):
        groups.setdefault((item.year, (int(item.date[5:7]) - 1) // 4 + 1), []).append(item)
    issues = [Issue(40 + n, y, k, arts) for n, ((y, k), arts) in enumerate(sorted(groups.items()))]
    return issues[::-1]


def _galley(item: Item) -> str:
    return item.pdf_path.rsplit("/", 1)[1]


class Fresh4JournalSite(SiteApp):
    """An OJS journal: archive → issue → article, galleys, tags since 2024, a locale cookie, an API box."""

    decoy_paths: ClassVar[dict[str, DecoyKind]] = {f"{J}/about": "about", f"{J}/about/submissions": "submit",
                                                   f"{J}/about/privacy": "privacy"}  # fmt: skip

    def routes(self) -> list[Route]:
        return [
            (re.compile(r"/"), self._site_index),
            (re.compile(rf"{J}(?:/index)?"), self._journal_home),
            (re.compile(rf"{J}/issue/current"), self._current),
            (re.compile(rf"{J}/issue/archive(?:/(?P<page>\d+))?"), self._archive),
            (re.compile(rf"{J}/issue/view/(?P<issue>\d+)"), self._issue),
            (re.compile(rf"{J}/article/view/(?P<article>\d+)"), self._article),
            (re.compile(rf"{J}/article/view/(?P<article>\d+)/(?P<galley>\d+)"), self._viewer),
            (re.compile(rf"{J}/article/download/(?P<article>\d+)/(?P<galley>\d+)"), self._download),
            (re.compile(rf"{J}/search/search"), self._search),
            (re.compile(rf"{J}/user/setLocale/(?P<locale>[a-z]{{2}}_[A-Z]{{2}})"), self._set_locale),
            (re.compile(rf"{J}/api/v1/submissions"), self._api),
        ]

    def robots_txt(self) -> str:
        return f"User-agent: *\nDisallow: {J}/api/\nDisallow: {J}/login\nDisallow: {J}/management/\n"

    def sample_paths(self) -> dict[str, str]:
        issue = issues_of(self.items)[0]
        item = issue.articles[0]
        return {"home": "/", "journal": f"{J}/index", "archive": f"{J}/issue/archive", "issue": f"{J}/issue/view/"
                f"{issue.id}", "article": item.path, "viewer": f"{item.path}/{_galley(item)}",
                "search": f"{J}/search/search?query=dune"}  # fmt: skip

    def _words(self, request: Request) -> dict[str, str]:
        return _WORDS.get(request.cookies.get(LOCALE_COOKIE, ""), _WORDS["en_US"])

    def page(self, *, title: str, content: str, kind: str, status: int = 200, head: str = "") -> Response:
        return self._page(Request("GET", "/"), title=title, content=content, kind=kind, status=status, head=head)

    def _page(self, request: Request, *, title: str, content: str, kind: str, status: int = 200,
              head: str = "") -> Response:  # fmt: skip
        w = self._words(request)
        source = quote(request.path)
        body = (
            f'<header class="pkp_structure_head"><a class="is_text" href="{J}/index">{esc(self.spec.title)}</a>'
            f'<nav class="pkp_navigation_primary"><a href="{J}/issue/current">{w["current"]}</a> '
            f'<a href="{J}/issue/archive">{w["archives"]}</a> <a href="{J}/about">{w["about"]}</a> '
            f'<a href="{J}/about/submissions">Submissions</a></nav>'
            f'<form class="pkp_search" action="{J}/search/search" method="get"><input name="query" '
            f'aria-label="{w["search"]}"><button>{w["search"]}</button></form></header>\n'
            f'<div class="pkp_structure_content"><main class="pkp_structure_main">{content}</main>'
            f'<aside class="pkp_structure_sidebar"><div class="pkp_block block_language"><h2>Language</h2><ul>'
            f'<li><a href="{J}/user/setLocale/en_US?source={source}">English</a></li>'
            f'<li><a href="{J}/user/setLocale/es_ES?source={source}">Español (España)</a></li></ul></div>'
            f'<div class="pkp_block"><a href="{J}/login">Login</a></div></aside></div>\n'
            f'<footer class="pkp_structure_footer">ISSN 2750-1187 · Ferrand University Press · '
            f'<a href="{J}/about/privacy">Privacy</a> · Platform &amp; workflow by OJS / PKP</footer>'
        )
        html = document(title=f"{title} | {self.spec.title}", head=head, body=body,
                        lang=request.cookies.get(LOCALE_COOKIE, "en_US")[:2])  # fmt: skip
        return Response.html(html, kind=kind, status=status)

    # ------------------------------------------------------------------ navigation

    def _site_index(self, request: Request) -> Response:
        content = (
            '<h1>Ferrand University Press: Journals</h1><ul class="journals"><li><h2><a href="'
            f'{J}/index">{esc(self.spec.title)}</a></h2><p>{esc(self.spec.tagline)}.</p><p>'
            f'<a href="{J}/index">View Journal</a> · <a href="{J}/issue/current">Current Issue</a></p></li>'
            "<li><h2>Ferrand Papers in Rural History</h2><p>This journal has not published any issues yet.</p>"
            "</li></ul>"
        )
        return self._page(request, title="Journals", content=content, kind="site-index")

    def _toc(self, request: Request, issue: Issue) -> str:
        w = self._words(request)
        html = []
        for section, short in ((w["articles"], False), (w["short"], True)):
            arts = [i for i in issue.articles if (int(i.key) % 3 == 2) == short]
            if not arts:
                continue
            rows = "".join(
                f'<li class="obj_article_summary"><h3 class="title"><a href="{attr(i.path)}">{esc(i.title)}</a></h3>'
                f'<div class="authors">{esc(", ".join(i.authors))}</div><div class="pages">{self._pages(i)}</div>'
                f'<a class="obj_galley_link pdf" href="{attr(i.path)}/{_galley(i)}">PDF</a></li>'
                for i in arts
            )
            html.append(f'<h2 class="section">{esc(section)}</h2><ul class="cmp_article_list">{rows}</ul>')
        return "".join(html)

    @staticmethod
    def _pages(item: Item) -> str:
        first = 1 + int(item.key) % 97
        return f"{first}-{first + 9 + len(item.title) % 11}"

    def _journal_home(self, request: Request) -> Response:
        w = self._words(request)
        current = issues_of(self.items)[0]
        recent = (
            f'<div class="pkp_block" id="recent"><h2>{w["recent"]}</h2><ul id="recent-list"></ul></div>'
            f"<script>fetch('{J}/api/v1/submissions?status=3&orderBy=datePublished&count=5')"
            ".then(function (r) { return r.json(); }).then(function (data) { data.items.forEach(function (s) {"
            " var li = document.createElement('li'); var a = document.createElement('a'); a.href = s.urlPublished;"
            " a.textContent = s.title; li.appendChild(a); document.getElementById('recent-list').appendChild(li);"
            " }); });</script>"
        )
        content = (
            f'<section class="homepage_about"><h1>{esc(self.spec.title)}</h1><p>{esc(self.spec.tagline)}. It '
            "publishes research on the coasts, farmland and rural ecosystems, three issues a year.</p></section>"
            f'{recent}<section class="current_issue"><h2>{w["current"]}: <a href="{J}/issue/view/{current.id}">'
            f"{esc(current.label)}</a></h2><p>{w['published']}: {current.published}</p>{self._toc(request, current)}"
            f'<a class="read_more" href="{J}/issue/archive">View All Issues</a></section>'
        )
        return self._page(request, title="Home", content=content, kind="journal-home")

    def _current(self, request: Request) -> Response:
        return self._issue(request, str(issues_of(self.items)[0].id))

    def _archive(self, request: Request, page: str | None) -> Response:
        w = self._words(request)
        issues = issues_of(self.items)
        pages = -(-len(issues) // ISSUES_PER_ARCHIVE_PAGE)
        number = int(page or 1)
        if not 1 <= number <= pages:
            return self.not_found()
        shown = issues[(number - 1) * ISSUES_PER_ARCHIVE_PAGE : number * ISSUES_PER_ARCHIVE_PAGE]
        rows = "".join(
            f'<li class="obj_issue_summary"><h2><a class="title" href="{J}/issue/view/{i.id}">{esc(i.label)}</a>'
            "</h2></li>"
            for i in shown
        )
        nav = ""
        if number > 1:
            nav += f'<a class="prev" href="{J}/issue/archive/{number - 1}">Previous</a> '
        if number < pages:
            nav += f'<a class="next" href="{J}/issue/archive/{number + 1}">Next</a>'
        content = (
            f'<h1>{w["archives"]}</h1><ul class="issues_archive">{rows}</ul><div class="cmp_pagination">'
            f"{(number - 1) * ISSUES_PER_ARCHIVE_PAGE + 1}-{(number - 1) * ISSUES_PER_ARCHIVE_PAGE + len(shown)} of "
            f"{len(issues)} {nav}</div>"
        )
        return self._page(request, title=w["archives"], content=content, kind="archive")

    def _issue(self, request: Request, issue: str) -> Response:
        found = next((i for i in issues_of(self.items) if i.id == int(issue)), None)
        if found is None:
            return self.not_found()
        w = self._words(request)
        content = (
            f'<nav class="cmp_breadcrumbs"><a href="{J}/index">Home</a> / <a href="{J}/issue/archive">'
            f"{w['archives']}</a> / {esc(found.label)}</nav><h1>{esc(found.label)}</h1>"
            f'<p class="published">{w["published"]}: {found.published}</p>{self._toc(request, found)}'
        )
        return self._page(request, title=found.label, content=content, kind="issue")

    # ------------------------------------------------------------------ articles

    def _issue_of(self, item: Item) -> Issue:
        return next(i for i in issues_of(self.items) if item in i.articles)

    def _article(self, request: Request, article: str) -> Response:
        item = self.item_at(f"{J}/article/view/{article}")
        if item is None:
            return self.not_found()
        w = self._words(request)
        issue = self._issue_of(item)
        section = w["short"] if int(item.key) % 3 == 2 else w["articles"]
        authors = "".join(
            f'<li><span class="name">{esc(a)}</span><span class="affiliation">{esc(self._affiliation(n))}</span></li>'
            for n, a in enumerate(item.authors)
        )
        surnames = [a.split()[-1] + ", " + "".join(p[0] + "." for p in a.split()[:-1]) for a in item.authors]
        cite = (
            f"{', '.join(surnames[:-1]) + ', &amp; ' if len(surnames) > 1 else ''}{esc(surnames[-1])} ({item.year}). "
            f"{esc(item.title)}. <em>{esc(self.spec.title)}</em>, <em>{item.year - _FIRST_VOLUME}</em>"
            f"({issue.number}), {self._pages(item)}. https://doi.org/{esc(item.doi)}"
        )
        content = (
            f'<nav class="cmp_breadcrumbs"><a href="{J}/index">Home</a> / <a href="{J}/issue/archive">'
            f'{w["archives"]}</a> / <a href="{J}/issue/view/{issue.id}">{esc(issue.label)}</a> / {esc(section)}</nav>'
            f'<article class="obj_article_details"><h1 class="page_title">{esc(item.title)}</h1>'
            f'<ul class="authors">{authors}</ul><div class="item doi">DOI: <a href="https://doi.org/{attr(item.doi)}">'
            f'https://doi.org/{esc(item.doi)}</a></div><div class="item keywords">{w["keywords"]}: '
            f'{esc(", ".join(item.keywords))}</div><section class="item abstract"><h2>{w["abstract"]}</h2>'
            f'<p>{esc(item.abstract)}</p></section><div class="item galleys"><a class="obj_galley_link pdf" '
            f'href="{attr(item.path)}/{_galley(item)}">PDF</a></div><div class="item published">'
            f'{w["published"]}: {item.date}</div><div class="item issue">{w["issue"]}: <a href="{J}/issue/view/'
            f'{issue.id}">{esc(issue.label)}</a></div><div class="item section">{w["section"]}: {esc(section)}</div>'
            f'<div class="item citation"><h2>{w["cite"]}</h2><div class="csl-entry">{cite}</div></div></article>'
        )
        head = "\n".join(self._tags(item, issue)) if item.year >= TAGGED_SINCE else ""
        return self._page(request, title=item.title, content=content, kind="article", head=head)

    @staticmethod
    def _affiliation(n: int) -> str:
        return ("University of Ardmore", "Ferrand University", "Institute for Rural Research", "Coastal Survey Office")[
            n % 4
        ]

    def _tags(self, item: Item, issue: Issue) -> list[str]:
        day = date.fromisoformat(item.date)
        return [
            meta_name("citation_journal_title", self.spec.title),
            meta_name("citation_issn", "2750-1187"),
            *(meta_name("citation_author", a) for a in item.authors),
            meta_name("citation_title", item.title),
            meta_name("citation_date", f"{day:%Y/%m/%d}"),
            meta_name("citation_volume", str(item.year - _FIRST_VOLUME)),
            meta_name("citation_issue", str(issue.number)),
            meta_name("citation_doi", item.doi or ""),
            meta_name("citation_abstract_html_url", self.links.absolute(item.path)),
            meta_name("citation_pdf_url", self.links.absolute(item.pdf_path)),
        ]

    def _viewer(self, request: Request, article: str, galley: str) -> Response:
        item = self.item_at(f"{J}/article/view/{article}")
        if item is None or _galley(item) != galley:
            return self.not_found()
        w = self._words(request)
        content = (
            f'<header class="header_view"><a href="{attr(item.path)}" class="return">{w["back"]}</a> '
            f'<a href="{attr(item.path)}" class="title">{esc(item.title)}</a> '
            f'<a href="{attr(item.pdf_path)}" class="download">{w["download"]}</a></header>'
            f'<div id="pdfCanvasContainer"><iframe src="{attr(item.pdf_path)}" width="100%" height="100%"></iframe>'
            "</div>"
        )
        return self._page(request, title=f"{item.title} (PDF)", content=content, kind="galley")

    def _download(self, request: Request, article: str, galley: str) -> Response:
        item = self.item_at(f"{J}/article/view/{article}")
        return self.pdf(item) if item and _galley(item) == galley else self.not_found()

    def _search(self, request: Request) -> Response:
        text = request.param("query")
        found = search_items(self.items, text) if text.strip() else []
        since, until = request.param("dateFromYear"), request.param("dateToYear")
        found = [i for i in found if (not since or str(i.year) >= since) and (not until or str(i.year) <= until)]
        rows = "".join(
            f'<li class="obj_article_summary"><h3><a href="{attr(i.path)}">{esc(i.title)}</a></h3>'
            f'<div class="authors">{esc(", ".join(i.authors))}</div></li>'
            for i in found[:20]
        )
        listed = f"<p>{len(found)} items</p><ul>{rows}</ul>" if text.strip() else "<p>Enter a search term.</p>"
        content = (
            f'<h1>{self._words(request)["search"]}</h1><form action="{J}/search/search" method="get">'
            f'<input name="query" value="{attr(text)}"><label>From <input name="dateFromYear" value="{attr(since)}">'
            f'</label><label>To <input name="dateToYear" value="{attr(until)}"></label><button>Search</button></form>'
            f"{listed}"
        )
        return self._page(request, title="Search", content=content, kind="search")

    def _set_locale(self, request: Request, locale: str) -> Response:
        source = request.param("source", f"{J}/index")
        target = source if source.startswith("/") and not source.startswith("//") else f"{J}/index"
        if locale not in _WORDS:
            return Response.redirect(target)
        cookie = f"{LOCALE_COOKIE}={locale}; Path=/; SameSite=Lax"
        return Response.redirect(target, status=302, headers=(("Set-Cookie", cookie),))

    def _api(self, request: Request) -> Response:
        count = request.int_param("count", 5, minimum=1, maximum=20)
        data = [{"id": int(i.key), "title": i.title, "urlPublished": self.links.absolute(i.path),
                 "datePublished": i.date} for i in self.items[:count]]  # fmt: skip
        return Response.json({"itemsMax": len(self.items), "items": data}, kind="api")
