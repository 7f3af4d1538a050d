"""HELD OUT, fresh (seventh batch): Harlan & Voss, a publisher's site built as book-series platforms are (see
`fresh_heldout7.py`; do not read or tune anything to it). Each series lists its volumes newest first, three a page;
a volume's page is its table of contents: front matter and a preface, the chapters (the items: "First Online"
dates, authors as a list, the series and volume named), back matter with the index; volumes from 2024 on carry
citation_* tags on chapter pages, older ones only text. Every chapter has an online-reader copy that robots.txt
forbids, as it forbids the search and the checkout; some chapters extend papers given at the Nordwyn meetings.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import ClassVar

from research_crawler.eval.testbed.decoys import DecoyKind
from research_crawler.eval.testbed.markup import attr, document, esc, long_date, meta_name, url_slug
from research_crawler.eval.testbed.models import Item
from research_crawler.eval.testbed.site_app import Request, Response, Route, SiteApp, paged
from research_crawler.eval.testbed.vocabulary import DOI_PREFIX

__all__ = ["MATTER", "PER_PAGE", "Fresh7BooksSite", "Volume", "volumes"]

PER_PAGE = 3
_EDITORS = {"Marine Bioacoustics": "Halvard Moen and Beatriz Quintana",
            "Environmental Archives": "Tomasz Wierzbicki and Annika Lahtinen"}  # fmt: skip
#: The parts of a volume that are not chapters: (path suffix, title, pages).
MATTER = (("front-matter", "Front Matter", "i–xiv"), ("preface", "Preface", "v–vii"),
          ("back-matter", "Back Matter", "Index"))  # fmt: skip


@dataclass(frozen=True)
class Volume:
    """One book of a series: the chapters of one year."""

    series: str
    year: int
    chapters: tuple[Item, ...]

    @property
    def number(self) -> int:
        return self.year - 2011

    @property
    def doi(self) -> str:
        return f"{DOI_PREFIX}/hv-{url_slug(self.series)}-{self.year}"

    @property
    def path(self) -> str:
        return f"/book/{self.doi}"

    @property
    def title(self) -> str:
        return f"Advances in {self.series}, Volume {self.number}"


def volumes(items: list[Item]) -> list[Volume]:
    """Every volume, newest first; chapters in the order they went online."""
    keys = sorted({(i.category, i.year) for i in items}, key=lambda k: (k[1], k[0]), reverse=True)
    return [
        Volume(series, year, tuple(sorted((i for i in items if (i.category, i.year) == (series, year)),
                                          key=lambda i: i.date)))
        for series, year in keys
    ]  # fmt: skip


def _pages(volume: Volume, chapter: Item) -> str:
    start = 1 + 22 * volume.chapters.index(chapter)
    return f"{start}–{start + 20}"


class Fresh7BooksSite(SiteApp):
    """A publisher's book series: series pages, volumes' tables of contents, chapter pages."""

    decoy_paths: ClassVar[dict[str, DecoyKind]] = {"/about-us": "about", "/contact": "contact",
                                                   "/privacy-statement": "privacy"}  # fmt: skip

    def routes(self) -> list[Route]:
        book = rf"(?P<doi>{re.escape(DOI_PREFIX)}/hv-[a-z0-9-]+)"
        return [
            (re.compile(r"/"), self._home),
            (re.compile(r"/series/(?P<slug>[a-z0-9-]+)"), self._series),
            (re.compile(rf"/book/{book}"), self._book),
            (re.compile(rf"/book/{book}/(?P<part>[a-z-]+)"), self._matter),
            (re.compile(r"/chapter/.+"), self._chapter),
            (re.compile(r"/content/pdf/(?P<doi>.+)\.pdf"), self._file),
        ]

    def robots_txt(self) -> str:
        return "User-agent: *\nDisallow: /reader/\nDisallow: /search\nDisallow: /checkout/\nDisallow: /cart\n"

    def sample_paths(self) -> dict[str, str]:
        volume = self._volumes()[0]
        return {"home": "/", "series": f"/series/{url_slug(volume.series)}", "book": volume.path,
                "preface": f"{volume.path}/preface", "chapter": volume.chapters[0].path}  # fmt: skip

    def page(self, *, title: str, content: str, kind: str, status: int = 200, head: str = "") -> Response:
        body = (
            f'<header class="c-header"><a href="/" class="c-logo">{esc(self.spec.title)}</a><nav>'
            '<a href="/about-us">About us</a> <a href="/contact">Contact</a> <a href="/cart">Cart</a></nav>'
            '<form action="/search" method="get"><input name="query" placeholder="Search books and chapters">'
            "<button>Search</button></form></header>\n"
            f'<main class="c-main">{content}</main>\n'
            f'<footer>© {esc(self.spec.title)} GmbH · <a href="/privacy-statement">Privacy statement</a></footer>'
        )
        return Response.html(document(title=f"{title} | {self.spec.title}", head=head, body=body), kind=kind,
                             status=status)  # fmt: skip

    def _volumes(self) -> list[Volume]:
        return volumes(self.items)

    def _volume(self, doi: str) -> Volume | None:
        return next((v for v in self._volumes() if v.doi == doi), None)

    def _home(self, request: Request) -> Response:
        series = "".join(
            f'<li><a href="/series/{url_slug(s)}">Advances in {esc(s)}</a> — edited by {esc(_EDITORS[s])}</li>'
            for s in dict.fromkeys(self.spec.categories.values())
        )
        latest = "".join(
            f'<li><a href="{attr(v.path)}">{esc(v.title)}</a> ({v.year})</li>' for v in self._volumes()[:3]
        )
        content = (
            f"<h1>{esc(self.spec.title)}</h1><p>{esc(self.spec.tagline)}.</p><h2>Book series</h2><ul>{series}</ul>"
            f"<h2>Latest books</h2><ul>{latest}</ul>"
        )
        return self.page(title="Home", content=content, kind="home")

    def _series(self, request: Request, slug: str) -> Response:
        chosen = [v for v in self._volumes() if url_slug(v.series) == slug]
        if not chosen:
            return self.not_found("No such book series.")
        shown, pager = paged(request, chosen, PER_PAGE, lambda n: f"/series/{slug}?page={n}")
        rows = "".join(
            f'<li class="c-book"><a href="{attr(v.path)}">{esc(v.title)}</a><br>Editors: {esc(_EDITORS[v.series])}'
            f"<br>{v.year} · {len(v.chapters)} chapters</li>"
            for v in shown
        )
        content = (
            f"<h1>Advances in {esc(chosen[0].series)}</h1><p>Book series · ISSN 2199-{4400 + len(slug)}</p>"
            f"<p>{len(chosen)} volumes in this series</p><ol>{rows}</ol>{pager}"
        )
        return self.page(title=f"Advances in {chosen[0].series}", content=content, kind="series")

    def _book(self, request: Request, doi: str) -> Response:
        volume = self._volume(doi)
        if volume is None:
            return self.not_found("No such book.")
        front, preface, back = (
            f'<li class="c-matter"><a href="{attr(volume.path)}/{part}">{title}</a> <span>Pages {pages}</span></li>'
            for part, title, pages in MATTER
        )
        chapters = "".join(
            f'<li class="c-chapter"><a href="{attr(c.path)}">{esc(c.title)}</a><ul class="c-authors">'
            + "".join(f"<li>{esc(a)}</li>" for a in c.authors)
            + f'</ul><span>Pages {_pages(volume, c)}</span> <a href="{attr(c.pdf_path)}">Download chapter PDF</a></li>'
            for c in volume.chapters
        )
        content = (
            f'<nav class="crumbs"><a href="/">Home</a> › <a href="/series/{url_slug(volume.series)}">Advances in '
            f"{esc(volume.series)}</a></nav><p>Book · {volume.year}</p><h1>{esc(volume.title)}</h1>"
            f"<p>Editors: {esc(_EDITORS[volume.series])}</p><p>Part of the book series: Advances in "
            f"{esc(volume.series)} (volume {volume.number})</p><h2>Table of contents ({len(volume.chapters)} "
            f'chapters)</h2><ol class="c-toc">{front}{preface}{chapters}{back}</ol>'
        )
        return self.page(title=volume.title, content=content, kind="book")

    def _matter(self, request: Request, doi: str, part: str) -> Response:
        volume = self._volume(doi)
        entry = next((m for m in MATTER if m[0] == part), None)
        if volume is None or entry is None:
            return self.not_found()
        text = {"front-matter": "Title pages, copyright, contents.",
                "preface": f"This volume collects {len(volume.chapters)} chapters written in {volume.year}. "
                           f"We thank the authors and reviewers. {_EDITORS[volume.series]}",
                "back-matter": "Index of subjects and places."}[part]  # fmt: skip
        head = "\n".join([meta_name("citation_title", entry[1]), meta_name("citation_inbook_title", volume.title)])
        content = (
            f'<p><a href="{attr(volume.path)}">{esc(volume.title)}</a></p><h1>{entry[1]}</h1>'
            f"<p>Pages {entry[2]}</p><p>{esc(text)}</p>"
        )
        return self.page(title=entry[1], content=content, kind="matter", head=head)

    def _chapter(self, request: Request) -> Response:
        item = self.item_at(request.path)
        if item is None:
            return self.not_found("No such chapter.")
        volume = next(v for v in self._volumes() if item in v.chapters)
        head = ""
        if volume.year >= 2024:
            head = "\n".join(
                [meta_name("citation_title", item.title)]
                + [meta_name("citation_author", a) for a in item.authors]
                + [meta_name("citation_inbook_title", volume.title), meta_name("citation_publisher", self.spec.title),
                   meta_name("citation_publication_date", item.date.replace("-", "/")),
                   meta_name("citation_doi", item.doi or ""),
                   meta_name("citation_pdf_url", self.links.absolute(item.pdf_path))]
            )  # fmt: skip
        earlier = ""
        if item.work:
            earlier = "<p><em>This chapter extends a paper presented at a meeting of the Nordwyn Society.</em></p>"
        content = (
            f'<nav class="crumbs"><a href="/">Home</a> › <a href="/series/{url_slug(volume.series)}">Advances in '
            f'{esc(volume.series)}</a> › <a href="{attr(volume.path)}">{esc(volume.title)}</a></nav>'
            f'<p class="c-type">Chapter</p><h1>{esc(item.title)}</h1><ul class="c-article-author-list">'
            + "".join(f"<li>{esc(a)}</li>" for a in item.authors)
            + f'</ul><p>Part of the book: <a href="{attr(volume.path)}">{esc(volume.title)}</a>, pp '
            f"{_pages(volume, item)}</p><dl><dt>First Online</dt><dd>{long_date(item.date)}</dd><dt>Publisher Name"
            f"</dt><dd>{esc(self.spec.title)}</dd><dt>DOI</dt><dd>https://doi.org/{esc(item.doi)}</dd></dl>"
            f"<h2>Abstract</h2><p>{esc(item.abstract)}</p>{earlier}"
            f'<p><a href="{attr(item.pdf_path)}">Download chapter PDF</a> · '
            f'<a href="/reader{attr(item.path)}">Read online</a> · <a href="/checkout/chapter?doi={attr(item.doi)}">'
            "Buy chapter</a></p>"
        )
        return self.page(title=item.title, content=content, kind="chapter", head=head)

    def _file(self, request: Request, doi: str) -> Response:
        item = self.item_at(f"/chapter/{doi}")
        return self.not_found() if item is None else self.pdf(item)
