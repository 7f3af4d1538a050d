"""HELD OUT, fresh (seventeenth batch): Tidewater ScholarWorks, built as bepress Digital Commons builds a university's
institutional repository (see `fresh_heldout17.py`; do not read or tune anything to it). The home page shows the
most downloaded papers and leads to the collections (`/communities.html`), disciplines and authors; a community
(`/csm/`) lists its series; a series (`/biology_facpubs/`) lists its papers newest first under year headings, five a
page (`/biology_facpubs/index.2.html`), in absolute links as Digital Commons writes them; a paper
(`/biology_facpubs/123`) gives its authors with affiliations, the publication date as Digital Commons shows it
("3-15-2024"), the document type, the source, the DOI, the disciplines, the recommended citation, the downloads
since it was posted and bepress meta tags whose date is the year alone. A paper sits in its department's series,
not its topic's. Search (`/do/`), account, submission and follow pages are forbidden.
"""

from __future__ import annotations

import re
from datetime import date, timedelta
from typing import ClassVar
from urllib.parse import quote_plus

from research_crawler.eval.testbed.decoys import DecoyKind
from research_crawler.eval.testbed.fresh_heldout17 import SERIES
from research_crawler.eval.testbed.markup import MONTHS, attr, document, esc, meta_name
from research_crawler.eval.testbed.models import Item
from research_crawler.eval.testbed.site_app import Request, Response, Route, SiteApp

__all__ = ["COMMUNITIES", "PER_PAGE", "Fresh17CommonsSite", "dc_date", "doc_type", "downloads", "series_order"]

PER_PAGE = 5
UNIVERSITY = "Tidewater State University"
#: Communities (path → name, their series): the empty theses series is there as on real repositories.
COMMUNITIES = {
    "csm": ("College of Science and Mathematics", ("biology_facpubs", "envsci_facpubs", "biology_etds")),
    "fieldstation": ("Coastal Field Station", ("fieldstation_reports",)),
}
_ALL_SERIES = {**SERIES, "biology_etds": "Biology Theses and Dissertations"}
_JOURNALS = ("Estuaries and Coasts", "Restoration Ecology", "Herpetological Conservation and Biology", "PeerJ")
_AFFILIATIONS = (UNIVERSITY, UNIVERSITY, "Virginia Institute of Marine Science", "University of Vermont")


def _hash(text: str) -> int:
    return sum(ord(c) * (n + 3) for n, c in enumerate(text))


def dc_date(day: date) -> str:
    """A publication date as Digital Commons shows it ('3-15-2024')."""
    return f"{day.month}-{day.day}-{day.year}"


def doc_type(item: Item) -> str:
    if item.key.startswith("fieldstation_reports"):
        return "Report"
    return "Poster" if _hash(item.title) % 5 == 0 else "Article"


def downloads(item: Item) -> int:
    return 12 + _hash(item.key + item.title) % 900


def posted(item: Item) -> date:
    """When the paper was posted to the repository: after it was published."""
    return date.fromisoformat(item.date) + timedelta(days=5 + _hash(item.title) % 80)


def series_order(items: list[Item]) -> list[Item]:
    """A series' order: the newest publication first."""
    return sorted(items, key=lambda i: (i.date, i.key), reverse=True)


def _inverted(name: str) -> str:
    given, _, surname = name.rpartition(" ")
    return f"{surname}, {given}"


def _names(authors: tuple[str, ...]) -> str:
    return authors[0] if len(authors) == 1 else ", ".join(authors[:-1]) + f", and {authors[-1]}"


class Fresh17CommonsSite(SiteApp):
    """A Digital Commons repository: home, communities, series with year headings and pages, papers, downloads."""

    decoy_paths: ClassVar[dict[str, DecoyKind]] = {
        "/about.html": "about",
        "/faq.html": "help",
        "/accessibility.html": "accessibility",
    }

    def routes(self) -> list[Route]:
        self.in_series = {c: [i for i in self.items if i.key.split("/")[0] == c] for c in _ALL_SERIES}
        return [
            (re.compile(r"/"), self._home),
            (re.compile(r"/communities\.html"), self._communities),
            (re.compile(r"/disciplines\.html"), self._disciplines),
            (re.compile(r"/authors\.html"), self._authors),
            (re.compile(r"/(?P<code>[a-z]+)/"), self._community),
            (re.compile(r"/(?P<context>[a-z_]+)/(index(?P<number>\.\d+)?\.html)?"), self._series),
            (re.compile(r"/(?P<context>[a-z_]+)/(?P<number>\d+)/?"), self._paper),
            (re.compile(r"/cgi/viewcontent\.cgi"), self._download),
        ]

    def robots_txt(self) -> str:
        return (
            "User-agent: *\nDisallow: /do/\nDisallow: /cgi/myaccount.cgi\nDisallow: /cgi/submit.cgi\n"
            "Disallow: /cgi/follow.cgi\nDisallow: /cgi/preview.cgi\n"
        )

    def sample_paths(self) -> dict[str, str]:
        item = self.items[0]
        context = item.key.split("/")[0]
        return {
            "home": "/",
            "communities": "/communities.html",
            "community": "/csm/",
            "series": f"/{context}/",
            "paper": item.path,
            "pdf": item.pdf_path,
        }

    def page(self, *, title: str, content: str, kind: str, status: int = 200, head: str = "") -> Response:
        site = self.spec.title
        body = (
            f'<div id="container"><div id="header"><a href="{attr(self.links.absolute("/"))}" id="banner_link" title='
            f'"{attr(site)}"><img alt="{attr(site)}" src="/assets/md5images/banner.gif"></a></div><div id="navigation">'
            f'<ul id="tabs"><li><a href="{attr(self.links.absolute("/"))}">Home</a></li><li><a href="/about.html">'
            'About</a></li><li><a href="/faq.html">FAQ</a></li><li><a href="/cgi/myaccount.cgi?context=">My Account'
            f'</a></li></ul></div><div id="wrapper"><div id="content"><div id="main" class="text">{content}</div>'
            '</div><div id="sidebar"><h2>Browse</h2><ul id="navlist"><li><a href="/communities.html">Collections</a>'
            '</li><li><a href="/disciplines.html">Disciplines</a></li><li><a href="/authors.html">Authors</a></li>'
            '</ul><h2>Author Corner</h2><ul><li><a href="/cgi/submit.cgi?context=biology_facpubs">Submit Research</a>'
            '</li></ul><div id="search"><form method="get" action="/do/search/"><label for="search">Enter search '
            'terms:</label><input type="text" name="q" id="search"><input type="submit" value="Search"></form></div>'
            f'</div></div><div id="footer"><p><a href="{attr(self.links.absolute("/"))}">Home</a> | <a href="/about.'
            'html">About</a> | <a href="/faq.html">FAQ</a> | <a href="/cgi/myaccount.cgi?context=">My Account</a> | '
            '<a href="/accessibility.html">Accessibility Statement</a></p><p>Privacy Copyright</p></div></div>'
        )
        html = document(title=f"{site} - {title}" if title != site else site, head=head, body=body)
        return Response.html(html, kind=kind, status=status)

    # ------------------------------------------------------------------ browsing

    def _listing(self, item: Item) -> str:
        return (
            f'<p class="pdf"><a href="{attr(self.links.absolute(item.pdf_path))}" title="{attr(item.title)}">PDF</a>'
            f'</p><p class="article-listing"><a href="{attr(self.links.absolute(item.path))}">{esc(item.title)}</a>'
            f"<br>{esc(_names(item.authors))}</p>"
        )

    def _home(self, request: Request) -> Response:
        popular = sorted(self.items, key=downloads, reverse=True)[:5]
        rows = "".join(
            f'<li><a href="{attr(self.links.absolute(i.path))}">{esc(i.title)}</a> <span class="count">'
            f"{downloads(i)} downloads</span></li>"
            for i in popular
        )
        content = (
            f'<div id="home"><h2>Welcome to {esc(self.spec.title)}</h2><p>{esc(self.spec.title)} is the '
            f"institutional repository of {UNIVERSITY}: the research and scholarship of its faculty, staff and "
            f'students, free to read.</p><h3>Popular Papers</h3><ul class="popular">{rows}</ul><p>'
            f"{len(self.items)} full-text papers, {sum(downloads(i) for i in self.items)} downloads</p></div>"
        )
        return self.page(title=self.spec.title, content=content, kind="home")

    def _communities(self, request: Request) -> Response:
        rows = "".join(
            f'<li><a href="/{code}/">{esc(name)}</a><ul>'
            + "".join(f'<li><a href="/{c}/">{esc(_ALL_SERIES[c])}</a></li>' for c in series)
            + "</ul></li>"
            for code, (name, series) in COMMUNITIES.items()
        )
        content = f'<h1>Browse Collections</h1><ul class="communities">{rows}</ul>'
        return self.page(title="Collections", content=content, kind="listing")

    def _disciplines(self, request: Request) -> Response:
        names = sorted(set(self.spec.categories.values()))
        rows = "".join(
            f'<li><a href="/do/discipline_browser/articles?discipline_key={_hash(n) % 1400}">{esc(n)}</a> '
            f"({sum(1 for i in self.items if i.category == n)})</li>"
            for n in names
        )
        content = f'<h1>Browse by Discipline</h1><ul class="disciplines">{rows}</ul>'
        return self.page(title="Disciplines", content=content, kind="listing")

    def _authors(self, request: Request) -> Response:
        names = sorted({a for i in self.items for a in i.authors}, key=lambda a: a.split()[-1])
        rows = "".join(
            f'<li><a href="/do/search/?q=author_lname%3A%22{quote_plus(a.split()[-1])}%22&amp;start=0">'
            f"{esc(_inverted(a))}</a></li>"
            for a in names
        )
        content = f'<h1>Browse by Author</h1><ul class="authors">{rows}</ul>'
        return self.page(title="Authors", content=content, kind="listing")

    def _community(self, request: Request, code: str) -> Response:
        if code not in COMMUNITIES:
            return self._series(request, code)
        name, series = COMMUNITIES[code]
        rows = "".join(f'<li><a href="/{c}/">{esc(_ALL_SERIES[c])}</a> ({len(self.in_series[c])})</li>' for c in series)
        content = f'<h1>{esc(name)}</h1><h3>Collections</h3><ul class="series">{rows}</ul>'
        return self.page(title=name, content=content, kind="collection")

    def _series(self, request: Request, context: str, number: str | None = None) -> Response:
        if context not in _ALL_SERIES:
            return self.not_found()
        mine = series_order(self.in_series[context])
        pages = max(1, -(-len(mine) // PER_PAGE))
        page = int(number[1:]) if number else 1
        if not 1 <= page <= pages or number == ".1":
            return self.not_found()
        shown = mine[(page - 1) * PER_PAGE : page * PER_PAGE]
        rows, year = "", 0
        for item in shown:
            if item.year != year:
                year = item.year
                rows += f'<h4 id="year_{year}">{year}</h4>'
            rows += self._listing(item)

        def href(n: int) -> str:
            return self.links.absolute(f"/{context}/" if n == 1 else f"/{context}/index.{n}.html")

        pager = " ".join(str(n) if n == page else f'<a href="{attr(href(n))}">{n}</a>' for n in range(1, pages + 1))
        if page < pages:
            pager += f' <a href="{attr(href(page + 1))}" class="next">Next &raquo;</a>'
        empty = "<p>There are no items in this series.</p>" if not mine else ""
        content = (
            f'<div id="series-home"><h1>{esc(_ALL_SERIES[context])}</h1><p><a href="/cgi/follow.cgi?context='
            f'{context}" class="follow">Follow</a></p><div class="article-list">{rows}{empty}</div><div '
            f'class="adjacent-pagination">{pager}</div></div>'
        )
        return self.page(title=_ALL_SERIES[context], content=content, kind="listing" if page > 1 else "collection")

    # ------------------------------------------------------------------ one paper

    def _paper(self, request: Request, context: str, number: str) -> Response:
        item = self.by_path.get(f"/{context}/{number}")
        if item is None:
            return self.not_found()
        kind = doc_type(item)
        day = date.fromisoformat(item.date)
        online = posted(item)
        journal = _JOURNALS[_hash(item.key) % len(_JOURNALS)] if kind == "Article" else ""
        authors = "".join(
            f'<p class="author"><a href="/do/search/?q=author_lname%3A%22{quote_plus(a.split()[-1])}%22%20author_fname'
            f'%3A%22{quote_plus(a.split()[0])}%22&amp;start=0"><strong>{esc(a)}</strong></a>, <em>'
            f"{esc(_AFFILIATIONS[_hash(a) % len(_AFFILIATIONS)])}</em></p>"
            for a in item.authors
        )
        fields = [
            ("publication_date", "Publication Date", esc(dc_date(day))),
            ("document_type", "Document Type", esc(kind)),
        ]
        if journal:
            fields.append(("source_publication", "Journal Title", f"<em>{esc(journal)}</em>"))
        if item.doi and kind == "Article":
            fields.append(("doi", "DOI", f'<a href="https://doi.org/{attr(item.doi)}">{esc(item.doi)}</a>'))
        fields += [
            ("abstract", "Abstract", esc(item.abstract)),
            ("keywords", "Keywords", esc(", ".join(item.keywords))),
            ("bp_categories", "Disciplines", esc(item.category)),
        ]
        cited = " and ".join(_inverted(a) for a in item.authors)
        series = _ALL_SERIES[context]
        citation = f'{esc(cited)}, "{esc(item.title)}" ({item.year}). <em>{esc(series)}</em>. {esc(number)}.'
        fields.append(("recommended_citation", "Recommended Citation", citation))
        blocks = "".join(
            f'<div id="{key}" class="element"><h4>{label}</h4><p>{value}</p></div>' for key, label, value in fields
        )
        absolute = self.links.absolute(item.path)
        head = (
            "".join(meta_name("bepress_citation_author", _inverted(a)) for a in item.authors)
            + meta_name("bepress_citation_title", item.title)
            + meta_name("bepress_citation_date", str(item.year))
            + (meta_name("bepress_citation_journal_title", journal) if journal else "")
            + (meta_name("bepress_citation_doi", item.doi) if item.doi and kind == "Article" else "")
            + meta_name("bepress_citation_pdf_url", self.links.absolute(item.pdf_path))
            + meta_name("bepress_citation_abstract_html_url", absolute)
            + meta_name("bepress_citation_online_date", f"{online.year}/{online.month}/{online.day}")
            + meta_name("description", item.abstract)
            + f'<link rel="canonical" href="{attr(absolute)}" />'
        )
        since = f"{MONTHS[online.month - 1]} {online.day}, {online.year}"
        content = (
            f'<div id="alpha"><div id="title" class="element"><h1><a href="{attr(absolute)}">{esc(item.title)}</a>'
            f'</h1></div><div id="authors" class="element"><h4>Authors</h4>{authors}</div>{blocks}</div><div id='
            f'"beta_7-3"><div id="beta-pdf"><a id="pdf" class="btn" href="{attr(self.links.absolute(item.pdf_path))}"'
            f' title="PDF ({_hash(item.title) % 900 + 100} KB)">Download</a></div><div id="downloads"><h4>Downloads'
            f'</h4><p>Since {since}</p><p class="count">{downloads(item)}</p></div><div id="series-link"><p>Part of '
            f'<a href="{attr(self.links.absolute(f"/{context}/"))}">{esc(series)}</a></p><p><a href="/cgi/follow.cgi?'
            f'context={context}">Follow</a></p></div><div id="included-in"><h4>Included in</h4><p><a href="https://'
            f'network.bepress.com/life-sciences/">{esc(item.category)} Commons</a></p></div></div>'
        )
        return self.page(title=item.title, content=content, kind="article", head=head)

    def _download(self, request: Request) -> Response:
        path = f"/cgi/viewcontent.cgi?article={request.param('article')}&context={request.param('context')}"
        item = next((i for i in self.items if i.pdf_path == path), None)
        return self.pdf(item) if item is not None else self.not_found()
