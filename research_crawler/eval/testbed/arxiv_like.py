"""The arXiv-like site: archives → subject categories → paginated listings (`?skip=&show=`), abstract
pages with Highwire `citation_*` tags, and a GET search form in the header of every page.
"""

from __future__ import annotations

import re
from datetime import date
from typing import ClassVar
from urllib.parse import urlencode

from research_crawler.eval.testbed.decoys import DecoyKind
from research_crawler.eval.testbed.full_text import SearchField, search_items
from research_crawler.eval.testbed.markup import (
    attr,
    cookie_banner,
    document,
    esc,
    meta_name,
    meta_property,
    template,
    tracker,
)
from research_crawler.eval.testbed.models import Item
from research_crawler.eval.testbed.site_app import Request, Response, Route, SiteApp
from research_crawler.eval.testbed.site_specs import ARXIV_ARCHIVES

__all__ = ["ArxivLikeSite"]

CATEGORY_NAMES: dict[str, str] = {
    "cs.AI": "Artificial Intelligence",
    "cs.CL": "Computation and Language",
    "cs.CR": "Cryptography and Security",
    "cs.CV": "Computer Vision and Pattern Recognition",
    "cs.DS": "Data Structures and Algorithms",
    "cs.LG": "Machine Learning",
    "cs.RO": "Robotics",
    "physics.ao-ph": "Atmospheric and Oceanic Physics",
    "physics.flu-dyn": "Fluid Dynamics",
    "physics.optics": "Optics",
    "q-bio.BM": "Biomolecules",
    "q-bio.GN": "Genomics",
    "q-bio.NC": "Neurons and Cognition",
    "quant-ph": "Quantum Physics",
}
_SHOW_CHOICES = (5, 10, 25, 50, 2000)
_DEFAULT_SHOW = 10
_SEARCH_PAGE = 25
_CODE = r"(?P<code>[a-z-]+(?:\.[A-Za-z-]+)?)"


def _archive_of(code: str) -> str:
    return code.split(".", 1)[0]


def _short_date(day: str) -> str:
    parsed = date.fromisoformat(day)
    return f"{parsed.day} {parsed:%b %Y}"


class ArxivLikeSite(SiteApp):
    """preXiv: the arXiv look, structure and metadata conventions."""

    decoy_paths: ClassVar[dict[str, DecoyKind]] = {
        "/about": "about",
        "/help": "help",
        "/help/contact": "contact",
        "/help/policies/privacy": "privacy",
        "/help/web_accessibility": "accessibility",
        "/about/ourmembers": "members",
        "/user/create": "submit",
    }

    def routes(self) -> list[Route]:
        return [
            (re.compile(r"/"), self._home),
            (re.compile(r"/archive/(?P<archive>[a-z-]+)"), self._archive),
            (re.compile(rf"/list/{_CODE}(?:/(?P<span>recent|\d{{4}}))?"), self._listing),
            (re.compile(r"/abs/(?P<key>\d{4}\.\d{5})"), self._abstract),
            (re.compile(r"/pdf/(?P<key>\d{4}\.\d{5})"), self._pdf),
            (re.compile(r"/format/(?P<key>\d{4}\.\d{5})"), self._formats),
            (re.compile(r"/search/?"), self._search),
            (re.compile(r"/search/advanced"), self._advanced_search),
        ]

    def sample_paths(self) -> dict[str, str]:
        first = self.items[0]
        return {
            "home": "/",
            "archive": "/archive/cs",
            "listing": f"/list/{first.category}/recent?skip=0&show=10",
            "year-listing": f"/list/{_archive_of(first.category)}/{first.year}",
            "abstract": first.path,
            "pdf": first.pdf_path,
            "formats": f"/format/{first.key}",
            "search": "/search?query=neural&searchtype=all",
            "search-form": "/search/advanced",
            "about": "/about",
            "help": "/help",
        }

    # ------------------------------------------------------------------ chrome

    def page(self, *, title: str, content: str, kind: str, status: int = 200, head: str = "") -> Response:
        a = self.links.absolute
        archives = " ".join(
            f'<li><a href="{attr(a(f"/archive/{code}"))}">{esc(name)}</a></li>' for code, name in ARXIV_ARCHIVES.items()
        )
        body = template("arxiv_chrome.html").substitute(
            home=attr(a("/")),
            site_title=esc(self.spec.title),
            search_action=attr(a("/search")),
            advanced_search=attr(a("/search/advanced")),
            archives=archives,
            content=content,
            cookie_banner=cookie_banner(site_title=self.spec.title, privacy_href="/help/policies/privacy"),
        )
        head_all = (
            '<link rel="stylesheet" type="text/css" href="/static/browse/0.3.4/css/prexiv.css" />\n'
            '<link rel="icon" type="image/png" href="/static/browse/0.3.4/images/favicon-32x32.png" />\n'
            f"{tracker('G-PREXIV')}\n{head}"
        )
        full_title = f"{title} | {self.spec.title}" if kind != "abstract" else title
        return Response.html(document(title=full_title, head=head_all, body=body), kind=kind, status=status)

    # ------------------------------------------------------------------ pages

    def _home(self, request: Request) -> Response:
        blocks = []
        for archive, name in ARXIV_ARCHIVES.items():
            cats = [c for c in CATEGORY_NAMES if _archive_of(c) == archive and c != archive]
            includes = "; ".join(f'<a href="/list/{attr(c)}/recent">{esc(CATEGORY_NAMES[c])}</a>' for c in cats)
            blocks.append(
                f'<h2>{esc(name)}</h2>\n<ul><li><a href="/archive/{attr(archive)}" id="main-{attr(archive)}">'
                f"{esc(name)}</a> (<strong>{esc(archive)}</strong> <a "
                f'href="/list/{attr(archive)}/recent">recent</a>)'
                + (f"<br />includes: {includes}" if includes else "")
                + "</li></ul>"
            )
        content = (
            f'<div id="about-{attr(self.spec.name)}"><p>{esc(self.spec.title)} is a free distribution '
            f"service and an open-access archive for scholarly articles. {esc(self.spec.tagline)}. "
            "Materials on this site are not peer-reviewed.</p></div>\n"
            "<h1>Subject search and browse</h1>\n" + "\n".join(blocks)
        )
        return self.page(title=self.spec.title, content=content, kind="home")

    def _archive(self, request: Request, archive: str) -> Response:
        if archive not in ARXIV_ARCHIVES:
            return self.not_found(f"No archive named {archive}.")
        cats = [c for c in CATEGORY_NAMES if _archive_of(c) == archive]
        entries = "\n".join(
            f'<li><a href="/list/{attr(c)}/recent">{esc(CATEGORY_NAMES[c])}</a> (<b>{esc(c)}</b> '
            f'<a href="/list/{attr(c)}/recent">recent</a>)</li>'
            for c in cats
        )
        years = sorted({i.year for i in self.items}, reverse=True)
        year_links = " ".join(f'<a href="/list/{attr(archive)}/{y}">{y}</a>' for y in years)
        content = (
            f"<h1>{esc(ARXIV_ARCHIVES[archive])} <span>({esc(archive)})</span></h1>\n"
            f'<h2>Browse</h2>\n<ul><li><a href="/list/{attr(archive)}/recent">Recent submissions</a></li>'
            f"<li>Article listings by year: {year_links}</li></ul>\n<h2>Categories within "
            f"{esc(ARXIV_ARCHIVES[archive])}</h2>\n<ul>{entries}</ul>"
        )
        return self.page(title=ARXIV_ARCHIVES[archive], content=content, kind="archive")

    def _in_code(self, code: str) -> list[Item] | None:
        if code in ARXIV_ARCHIVES:
            return [i for i in self.items if _archive_of(i.category) == code]
        if code in CATEGORY_NAMES:
            return [i for i in self.items if i.category == code]
        return None

    def _listing(self, request: Request, code: str, span: str | None) -> Response:
        items = self._in_code(code)
        if items is None:
            return self.not_found(f"No category named {code}.")
        label = "recent"
        if span and span != "recent":
            items = [i for i in items if i.year == int(span)]
            label = span
        show = request.int_param("show", _DEFAULT_SHOW, minimum=1, maximum=2000)
        show = show if show in _SHOW_CHOICES else _DEFAULT_SHOW
        skip = request.int_param("skip", 0, maximum=100_000)
        base = f"/list/{code}/{label}"
        shown = items[skip : skip + show]
        pages = []
        for start in range(0, len(items), show):
            span_text = f"{start + 1}-{min(start + show, len(items))}"
            pages.append(
                f"<span>{span_text}</span>"
                if start == skip
                else f'<a href="{attr(base)}?skip={start}&amp;show={show}">{span_text}</a>'
            )
        name = ARXIV_ARCHIVES.get(code) or CATEGORY_NAMES[code]
        heading = "Recent submissions" if label == "recent" else f"Submissions from {label}"
        more = " | ".join(
            f'<a href="{attr(base)}?skip=0&amp;show={n}">{w}</a>'
            for w, n in (("fewer", 5), ("more", 25), ("all", 2000))
        )
        entries = "\n".join(self._listing_entry(n, item) for n, item in enumerate(shown, start=skip + 1))
        content = (
            f'<div id="dlpage"><h1>{esc(name)}</h1>\n<h2>{heading}</h2>\n'
            f'<div class="paging">Total of {len(items)} entries : {" ".join(pages)}</div>\n'
            f'<div class="morefewer">Showing up to {show} entries per page: {more}</div>\n'
            + (f'<dl id="articles">\n{entries}\n</dl>' if shown else "<p>No entries in this listing.</p>")
            + "</div>"
        )
        head = f'<link rel="canonical" href="{attr(self.links.absolute(base))}" />'
        return self.page(title=f"{name} {heading.lower()}", content=content, kind="listing", head=head)

    def _author_link(self, author: str) -> str:
        given, _, surname = author.rpartition(" ")
        query = urlencode({"searchtype": "author", "query": f"{surname}, {given}"})
        return f'<a href="/search?{attr(query)}">{esc(author)}</a>'

    def _listing_entry(self, number: int, item: Item) -> str:
        authors = ", ".join(self._author_link(a) for a in item.authors)
        return (
            f'<dt><a name="item{number}">[{number}]</a> <a href="/abs/{attr(item.key)}" title="Abstract" '
            f'id="{attr(item.key)}">arXiv:{esc(item.key)}</a> '
            f'[<a href="/pdf/{attr(item.key)}" title="Download PDF">pdf</a>, '
            f'<a href="/format/{attr(item.key)}" title="Other formats">other</a>]</dt>\n'
            f'<dd><div class="meta"><div class="list-title mathjax"><span class="descriptor">Title:</span> '
            f'{esc(item.title)}</div>\n<div class="list-authors">{authors}</div>\n'
            f'<div class="list-comments mathjax"><span class="descriptor">Comments:</span> '
            f"{8 + len(item.title) % 17} pages, {2 + len(item.abstract) % 9} figures</div>\n"
            '<div class="list-subjects"><span class="descriptor">Subjects:</span> '
            '<span class="primary-subject">'
            f"{esc(CATEGORY_NAMES[item.category])} ({esc(item.category)})</span></div></div></dd>"
        )

    def _abstract(self, request: Request, key: str) -> Response:
        item = self.item_at(f"/abs/{key}")
        if item is None:
            return self.not_found(f"Article identifier '{key}' not recognized.")
        a = self.links.absolute
        siblings = [i for i in self.items if i.category == item.category]
        index = siblings.index(item)
        newer = siblings[index - 1] if index > 0 else None
        older = siblings[index + 1] if index + 1 < len(siblings) else None
        head = "\n".join(
            [
                f'<link rel="canonical" href="{attr(a(item.path))}" />',
                meta_name("description", f"Abstract page for {self.spec.title} paper {item.key}: {item.title}"),
                meta_property("og:type", "website"),
                meta_property("og:site_name", f"{self.spec.title}.org"),
                meta_property("og:title", item.title),
                meta_property("og:url", a(item.path)),
                meta_property("og:description", item.abstract),
                meta_name("citation_title", item.title),
                *(meta_name("citation_author", _surname_first(n)) for n in item.authors),
                meta_name("citation_date", item.date.replace("-", "/")),
                meta_name("citation_online_date", item.date.replace("-", "/")),
                meta_name("citation_pdf_url", a(item.pdf_path)),
                meta_name("citation_arxiv_id", item.key),
                meta_name("citation_abstract", item.abstract),
            ]
        )
        prev_link = f'<a href="/abs/{attr(newer.key)}" class="abs-button prev-url">&lt;&nbsp;prev</a>' if newer else ""
        next_link = f'<a href="/abs/{attr(older.key)}" class="abs-button next-url">next&nbsp;&gt;</a>' if older else ""
        archive = _archive_of(item.category)
        content = template("arxiv_abstract.html").substitute(
            archive=esc(archive),
            archive_name=esc(ARXIV_ARCHIVES[archive]),
            category=esc(item.category),
            category_name=esc(CATEGORY_NAMES[item.category]),
            key=esc(item.key),
            title=esc(item.title),
            authors=", ".join(self._author_link(n) for n in item.authors),
            abstract=esc(item.abstract),
            submitted=_short_date(item.date),
            submitter=esc(item.authors[0]),
            size_kb=180 + len(item.abstract),
            prev_link=prev_link,
            next_link=next_link,
            year=item.year,
            page_url=attr(a(item.path)),
        )
        return self.page(title=f"[{item.key}] {item.title}", content=content, kind="abstract", head=head)

    def _pdf(self, request: Request, key: str) -> Response:
        item = self.item_at(f"/abs/{key}")
        return self.pdf(item) if item else self.not_found(f"No PDF for '{key}'.")

    def _formats(self, request: Request, key: str) -> Response:
        item = self.item_at(f"/abs/{key}")
        if item is None:
            return self.not_found(f"Article identifier '{key}' not recognized.")
        content = (
            f"<h1>Format selector for {esc(item.key)}</h1><p>Source files are not available for this "
            f'article. You can download the <a href="/pdf/{attr(item.key)}">PDF</a> or return to the '
            f'<a href="/abs/{attr(item.key)}">abstract page</a>.</p>'
        )
        return self.page(title=f"Formats for {item.key}", content=content, kind="formats")

    def _search(self, request: Request) -> Response:
        query = request.param("query").strip()
        if not query:
            return self._advanced_search(request)
        field_raw = request.param("searchtype", "all")
        field: SearchField = field_raw if field_raw in ("all", "title", "author", "abstract") else "all"  # type: ignore[assignment]
        results = search_items(self.items, query, field=field)
        year = request.int_param("year", 0, minimum=1900, maximum=2100)
        if year:
            results = [i for i in results if i.year == year]
        size = 50 if request.param("size") == "50" else _SEARCH_PAGE
        start = request.int_param("start", 0, maximum=100_000)
        shown = results[start : start + size]
        params = {"query": query, "searchtype": field, "size": str(size)} | ({"year": str(year)} if year else {})
        pager = " ".join(
            f"<span>{n // size + 1}</span>"
            if n == start
            else f'<a href="/search?{attr(urlencode(params | {"start": str(n)}))}" class="pagination-link">'
            f"{n // size + 1}</a>"
            for n in range(0, len(results), size)
        )
        entries = "\n".join(
            '<li class="arxiv-result"><p class="list-title">'
            f'<a href="/abs/{attr(i.key)}">arXiv:{esc(i.key)}</a> '
            f'[<a href="/pdf/{attr(i.key)}">pdf</a>] <span class="tag">{esc(i.category)}</span></p>\n'
            f'<p class="title is-5 mathjax">{esc(i.title)}</p>\n<p class="authors"><span>Authors:</span> '
            f'{", ".join(self._author_link(n) for n in i.authors)}</p>\n<p class="abstract mathjax">'
            f'<span class="abstract-short">{esc(i.abstract[:220])}… '
            '<a class="is-size-7">▽ More</a></span></p>\n'
            f'<p class="is-size-7"><span>Submitted</span> {_short_date(i.date)}</p></li>'
            for i in shown
        )
        summary = (
            f"Showing {start + 1}–{start + len(shown)} of {len(results)} results for {esc(field)}: {esc(query)}"
            if shown
            else f"Sorry, your query for {esc(field)}: {esc(query)} produced no results."
        )
        content = (
            f'<h1 class="title is-clearfix">{summary}</h1>\n<nav class="pagination">{pager}</nav>\n'
            f'<ol class="breathe-horizontal">\n{entries}\n</ol>'
        )
        return self.page(title="Search", content=content, kind="search")

    def _advanced_search(self, request: Request) -> Response:
        years = "".join(f'<option value="{y}">{y}</option>' for y in range(2026, 2020, -1))
        content = f"""<h1>Advanced Search</h1>
<form method="GET" action="/search" class="advanced-search">
<fieldset><legend>Search term(s)</legend><input type="text" name="query" aria-label="Search term" />
<select name="searchtype"><option value="all">All fields</option><option value="title">Title</option>
<option value="author">Author(s)</option><option value="abstract">Abstract</option></select></fieldset>
<fieldset><legend>Date</legend><select name="year"><option value="">All
dates</option>{years}</select></fieldset>
<fieldset><legend>Results per page</legend><select name="size"><option value="25">25</option><option
value="50">50</option></select></fieldset>
<button type="submit" class="button">Search</button></form>
<p>Searching by author: use the form "Surname, Given". Terms are matched in the chosen field.</p>"""
        return self.page(title="Advanced Search", content=content, kind="search-form")


def _surname_first(name: str) -> str:
    given, _, surname = name.rpartition(" ")
    return f"{surname}, {given}"
