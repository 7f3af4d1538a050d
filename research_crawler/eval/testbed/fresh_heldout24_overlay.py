"""HELD OUT, fresh (twenty-fourth batch): Annals of Quantitative Biology, an overlay journal built as Episciences
builds one (see `fresh_heldout24.py`; do not read or tune anything to it). Authors submit preprints already posted
on an open archive; the journal peer-reviews them and publishes the accepted version with its DOI. The home page shows
the five latest articles and the browse menu: "Latest articles" (`/browse/latest`, ten a page, numbered pages
`?page=2`), volumes (`/browse/volumes`, one a year, each volume's page listing its editorial and its articles in the
order they appeared), sections (`/browse/sections`, each section newest first) and authors by letter
(`/browse/authors?letter=O`, whose names lead into the search, which robots.txt forbids). An article (`/10123`)
gives its authors as "Aino Okafor ; Chiara Rossi", its abstract, "Submitted on", "Accepted on" and "Published on:
March 12, 2024", its volume and section, its keywords, its DOI, its source (an arXiv identifier, or for a preprint
first posted on a server the literature database indexes, a link to that database's record) and `citation_*` tags
with "Okafor, Aino" and "2024/03/12".
"""

from __future__ import annotations

import hashlib
import re
from datetime import date, timedelta
from typing import ClassVar
from urllib.parse import quote

from research_crawler.eval.testbed.decoys import DecoyKind
from research_crawler.eval.testbed.markup import MONTHS, attr, document, esc, meta_name
from research_crawler.eval.testbed.models import Item
from research_crawler.eval.testbed.site_app import Request, Response, Route, SiteApp

__all__ = [
    "HOME_LATEST",
    "LATEST_PAGE",
    "Fresh24OverlaySite",
    "accepted_on",
    "long_us_day",
    "semicolon_names",
    "submitted_on",
    "volume_of",
]

LATEST_PAGE = 10
HOME_LATEST = 5
_FIRST_YEAR = 2021


def _digest(text: str) -> int:
    return int(hashlib.sha1(text.encode()).hexdigest()[:12], 16)


def long_us_day(day: date) -> str:
    """'March 12, 2024'."""
    return f"{MONTHS[day.month - 1]} {day.day}, {day.year}"


def semicolon_names(authors: tuple[str, ...]) -> str:
    """'Aino Okafor ; Chiara Rossi', as the journal lists authors."""
    return " ; ".join(authors)


def submitted_on(item: Item) -> date:
    return date.fromisoformat(item.date) - timedelta(days=90 + _digest(item.key) % 200)


def accepted_on(item: Item) -> date:
    return date.fromisoformat(item.date) - timedelta(days=10 + _digest(item.key + "a") % 40)


def volume_of(year: int) -> int:
    """The volume of a year (one a year since the journal began)."""
    return year - _FIRST_YEAR


def _volume_id(year: int) -> int:
    return 380 + 17 * volume_of(year)


def _section_id(section: str) -> int:
    return 100 + _digest(section) % 900


class Fresh24OverlaySite(SiteApp):
    """An overlay journal: latest articles, volumes, sections, authors by letter, article pages."""

    decoy_paths: ClassVar[dict[str, DecoyKind]] = {
        "/page/about": "about",
        "/page/editorial-board": "members",
        "/page/for-authors": "help",
        "/page/ethics": "terms",
        "/page/contact": "contact",
    }

    def routes(self) -> list[Route]:
        self.newest = sorted(self.items, key=lambda i: (i.date, i.key), reverse=True)
        self.by_doc = {i.key: i for i in self.items}
        self.sections = sorted({i.category for i in self.items})
        return [
            (re.compile(r"/"), self._home),
            (re.compile(r"/browse/latest"), self._latest),
            (re.compile(r"/browse/volumes"), self._volumes),
            (re.compile(r"/browse/sections"), self._sections),
            (re.compile(r"/browse/authors"), self._authors),
            (re.compile(r"/volume/view/id/(?P<vid>\d+)"), self._volume),
            (re.compile(r"/volume/view/id/(?P<vid>\d+)/editorial"), self._editorial),
            (re.compile(r"/section/view/id/(?P<sid>\d+)"), self._section),
            (re.compile(r"/(?P<doc>\d{5})"), self._article),
            (re.compile(r"/(?P<doc>\d{5})/pdf"), self._pdf),
            (re.compile(r"/search/"), self._search),
        ]

    def robots_txt(self) -> str:
        return "User-agent: *\nDisallow: /search/\nDisallow: /user/\nDisallow: /submit/\nDisallow: /administratemail/\n"

    def sample_paths(self) -> dict[str, str]:
        item = self.items[0]
        year = int(item.date[:4])
        return {
            "home": "/",
            "latest": "/browse/latest",
            "volumes": "/browse/volumes",
            "volume": f"/volume/view/id/{_volume_id(year)}",
            "editorial": f"/volume/view/id/{_volume_id(year)}/editorial",
            "sections": "/browse/sections",
            "section": f"/section/view/id/{_section_id(item.category)}",
            "authors": "/browse/authors?letter=A",
            "article": item.path,
        }

    def page(self, *, title: str, content: str, kind: str, status: int = 200, head: str = "") -> Response:
        body = (
            '<div id="header"><div class="journal-name"><a href="/">Annals of Quantitative Biology</a></div><div '
            'class="issn">eISSN 2968-4410 · an overlay journal on Epi-platform</div><form class="search" action='
            '"/search/" method="get"><input name="q" placeholder="Search"><button>OK</button></form></div><ul '
            'class="menu"><li><a href="/">Home</a></li><li>Browse<ul><li><a href="/browse/latest">Latest articles'
            '</a></li><li><a href="/browse/volumes">By volume</a></li><li><a href="/browse/sections">By section</a>'
            '</li><li><a href="/browse/authors?letter=A">By author</a></li></ul></li><li><a href="/page/about">About'
            '</a></li><li><a href="/page/editorial-board">Editorial board</a></li><li><a href="/page/for-authors">For '
            'authors</a></li><li><a href="/submit/">Submit an article</a></li><li><a href="/user/login">Sign in</a>'
            f'</li></ul><div id="content">{content}</div><div id="footer"><p><a href="/page/ethics">Publication '
            'ethics</a> · <a href="/page/contact">Contact</a> · Articles are published under CC BY 4.0.</p><p>Hosted '
            "by a diamond open-access overlay platform. No fees for authors or readers.</p></div>"
        )
        return Response.html(
            document(title=f"{title} - Annals of Quantitative Biology", head=head, body=body), kind=kind, status=status
        )

    def _entry(self, item: Item) -> str:
        day = date.fromisoformat(item.date)
        return (
            f'<div class="paper"><div class="title"><a href="{attr(item.path)}">{esc(item.title)}</a></div><div '
            f'class="authors">{esc(semicolon_names(item.authors))}</div><div class="small">Published on '
            f"{long_us_day(day)}"
            f" · Volume {volume_of(day.year)} · {esc(item.category)}</div></div>"
        )

    def _home(self, request: Request) -> Response:
        latest = "".join(self._entry(i) for i in self.newest[:HOME_LATEST])
        content = (
            "<h1>Annals of Quantitative Biology</h1><p>The Annals publish mathematical and statistical work on "
            "living systems, from molecules to ecosystems. Submissions are preprints deposited in an open archive; "
            "accepted papers are published here, free to read and free to publish.</p><h2>Latest articles</h2>"
            f'{latest}<p><a href="/browse/latest">All articles</a></p>'
        )
        return self.page(title="Home", content=content, kind="home")

    def _latest(self, request: Request) -> Response:
        pages = max(1, -(-len(self.newest) // LATEST_PAGE))
        page = request.int_param("page", 1, minimum=1, maximum=pages)
        shown = self.newest[(page - 1) * LATEST_PAGE : page * LATEST_PAGE]
        pager = " ".join(
            f'<li class="active"><span>{n}</span></li>'
            if n == page
            else f'<li><a href="/browse/latest?page={n}">{n}</a></li>'
            for n in range(1, pages + 1)
        )
        start = (page - 1) * LATEST_PAGE
        content = (
            f"<h1>Latest articles</h1><p>{len(self.newest)} articles · {start + 1}-{start + len(shown)}</p>"
            f'{"".join(self._entry(i) for i in shown)}<ul class="pagination">{pager}</ul>'
        )
        return self.page(title="Latest articles", content=content, kind="listing")

    def _volumes(self, request: Request) -> Response:
        years = sorted({int(i.date[:4]) for i in self.items}, reverse=True)
        rows = "".join(
            f'<li><a href="/volume/view/id/{_volume_id(y)}">Volume {volume_of(y)} - {y}</a> '
            f"({sum(i.date[:4] == str(y) for i in self.items)} articles)</li>"
            for y in years
        )
        return self.page(title="Volumes", content=f"<h1>Volumes</h1><ul>{rows}</ul>", kind="collection")

    def _year_of(self, vid: str) -> int | None:
        return next((y for y in range(2022, 2031) if str(_volume_id(y)) == vid), None)

    def _volume(self, request: Request, vid: str) -> Response:
        year = self._year_of(vid)
        mine = sorted((i for i in self.items if year and i.date[:4] == str(year)), key=lambda i: (i.date, i.key))
        if year is None or not mine:
            return self.not_found()
        content = (
            f"<h1>Volume {volume_of(year)} - {year}</h1><p>The volume collects the articles published in {year}; "
            'articles are added as they are accepted.</p><h2>Editorial</h2><div class="paper"><a href="'
            f'/volume/view/id/{vid}/editorial">Editorial: the year {year} in the Annals</a></div><h2>Articles</h2>'
            f"{''.join(self._entry(i) for i in mine)}"
        )
        return self.page(title=f"Volume {volume_of(year)}", content=content, kind="listing")

    def _editorial(self, request: Request, vid: str) -> Response:
        year = self._year_of(vid)
        if year is None:
            return self.not_found()
        content = (
            f'<h1>Editorial: the year {year} in the Annals</h1><p class="authors">The Editors</p><p>We thank our '
            "reviewers, who returned their reports in a median of five weeks, and welcome three new section editors. "
            "Submissions grew again this year, most of them in infectious disease dynamics and movement ecology. We "
            "remind authors that only preprints deposited in an open archive can be submitted.</p>"
        )
        return self.page(title="Editorial", content=content, kind="about")

    def _sections(self, request: Request) -> Response:
        rows = "".join(
            f'<li><a href="/section/view/id/{_section_id(s)}">{esc(s)}</a> '
            f"({sum(i.category == s for i in self.items)} articles)</li>"
            for s in self.sections
        )
        return self.page(title="Sections", content=f"<h1>Sections</h1><ul>{rows}</ul>", kind="collection")

    def _section(self, request: Request, sid: str) -> Response:
        name = next((s for s in self.sections if str(_section_id(s)) == sid), None)
        if name is None:
            return self.not_found()
        mine = [i for i in self.newest if i.category == name]
        content = (
            f'<h1>{esc(name)}</h1><p>Section editors: see the <a href="/page/editorial-board">editorial board</a>.'
            f"</p>{''.join(self._entry(i) for i in mine)}"
        )
        return self.page(title=name, content=content, kind="listing")

    def _authors(self, request: Request) -> Response:
        letter = request.param("letter", "A")[:1].upper() or "A"
        names: dict[str, int] = {}
        for item in self.items:
            for author in item.authors:
                names[author] = names.get(author, 0) + 1
        mine = sorted(
            (n for n in names if n.rsplit(" ", 1)[1][:1].upper() == letter), key=lambda n: n.rsplit(" ", 1)[1]
        )
        letters = " ".join(
            f"<b>{c}</b>" if c == letter else f'<a href="/browse/authors?letter={c}">{c}</a>'
            for c in "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
        )
        rows = "".join(
            f'<li><a href="/search/?authorFullname_s={quote(n)}">{esc(n.rsplit(" ", 1)[1])}, '
            f"{esc(n.rsplit(' ', 1)[0])}</a> ({names[n]})</li>"
            for n in mine
        )
        content = f'<h1>Authors</h1><p class="letters">{letters}</p><ul>{rows or "<li>No author.</li>"}</ul>'
        return self.page(title="Authors", content=content, kind="listing")

    def _search(self, request: Request) -> Response:
        words = request.param("q").lower().split()
        who = request.param("authorFullname_s")
        found = [
            i
            for i in self.newest
            if (not who or who in i.authors) and all(w in f"{i.title} {i.abstract}".lower() for w in words)
        ]
        content = f"<h1>Search</h1><p>{len(found)} results</p>{''.join(self._entry(i) for i in found)}"
        return self.page(title="Search", content=content, kind="search")

    def _source(self, item: Item) -> str:
        for copy in self.testbed.copies_of(item):
            if copy.site != item.site:
                where = self.links.on_site(copy.site, copy.path)
                site = self.testbed.site(copy.site).title
                return (
                    f'<dt>Source</dt><dd>Preprint {esc(copy.key)}, <a href="{attr(where)}">record in {esc(site)}</a> '
                    "(version 2)</dd>"
                )
        return (
            f'<dt>Source</dt><dd><a href="https://arxiv.org/abs/{attr(item.arxiv_id)}">arXiv:{esc(item.arxiv_id)}</a> '
            f"(version {2 + _digest(item.key) % 2})</dd>"
        )

    def _article(self, request: Request, doc: str) -> Response:
        item = self.by_doc.get(doc)
        if item is None:
            return self.not_found()
        day = date.fromisoformat(item.date)
        vid = _volume_id(day.year)
        tags = "\n".join(
            [
                meta_name("citation_title", item.title),
                *(meta_name("citation_author", f"{a.rsplit(' ', 1)[1]}, {a.rsplit(' ', 1)[0]}") for a in item.authors),
                meta_name("citation_online_date", f"{day:%Y/%m/%d}"),
                meta_name("citation_publication_date", f"{day:%Y/%m/%d}"),
                meta_name("citation_journal_title", "Annals of Quantitative Biology"),
                meta_name("citation_volume", str(volume_of(day.year))),
                meta_name("citation_doi", str(item.doi)),
                meta_name("citation_pdf_url", self.links.absolute(item.pdf_path)),
            ]
        )
        keywords = ", ".join(item.keywords)
        content = (
            f'<h1 class="article-title">{esc(item.title)}</h1><p class="authors">{esc(semicolon_names(item.authors))}'
            f'</p><div class="abstract"><h3>Abstract</h3><p>{esc(item.abstract)}</p></div><dl class="metadata"><dt>'
            f'Volume</dt><dd><a href="/volume/view/id/{vid}">Volume {volume_of(day.year)} - {day.year}</a></dd><dt>'
            f'Section</dt><dd><a href="/section/view/id/{_section_id(item.category)}">{esc(item.category)}</a></dd>'
            f"<dt>Published on</dt><dd>{long_us_day(day)}</dd><dt>Accepted on</dt><dd>"
            f"{long_us_day(accepted_on(item))}</dd><dt>Submitted on</dt><dd>{long_us_day(submitted_on(item))}</dd>"
            f'<dt>Keywords</dt><dd>{esc(keywords)}</dd><dt>DOI</dt><dd><a href="https://doi.org/{attr(item.doi)}">'
            f'{esc(item.doi)}</a></dd>{self._source(item)}</dl><p><a class="btn" href="{attr(item.pdf_path)}">'
            "Download the PDF</a></p><h3>Statistics</h3><p>Consultations of the page and downloads of the PDF are "
            "counted monthly.</p>"
        )
        return self.page(title=item.title, content=content, kind="article", head=tags)

    def _pdf(self, request: Request, doc: str) -> Response:
        item = self.by_doc.get(doc)
        return self.pdf(item) if item is not None else self.not_found()
