"""HELD OUT, fresh (fifth batch): a professor's own homepage (see `fresh_heldout5.py`; do not read or tune anything
to it). Hand-written HTML: a short biography, then a plain ``<ul>`` of papers, each a citation string with the year
only inside it and "[Abstract] [PDF] [BibTeX] [Slides]" after it; the papers the professor did not write, by their
students, in a second list; abstract pages naming neither authors nor year; BibTeX served as plain text.
"""

from __future__ import annotations

import re
from collections import Counter
from typing import ClassVar

from research_crawler.eval.testbed.decoys import DecoyKind
from research_crawler.eval.testbed.markup import attr, document, esc
from research_crawler.eval.testbed.models import Item
from research_crawler.eval.testbed.site_app import Request, Response, Route, SiteApp

__all__ = ["HOME", "VENUES", "Fresh5HomepageSite", "bibtex", "owner", "venue_of"]

HOME = "/~hvk/"
#: Where the professor's papers appeared.
VENUES = (
    "Limnology and Oceanography",
    "Freshwater Biology",
    "Environmental Science & Technology",
    "Inland Waters",
    "Journal of Great Lakes Research",
)


def owner(items: list[Item]) -> str:
    """The homepage's owner: the name on most of its papers."""
    return Counter(a for i in items for a in i.authors).most_common(1)[0][0]


def venue_of(item: Item) -> str:
    return VENUES[sum(map(ord, item.key)) % len(VENUES)]


def _short(name: str) -> str:
    """'Hanna Berg' → 'Berg, H.', as the page writes authors."""
    parts = name.split()
    return f"{parts[-1]}, {parts[0][0]}."


def _citation(item: Item) -> str:
    names = [_short(a) for a in item.authors]
    authors = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
    volume = item.year - 1970
    pages = 100 + sum(map(ord, item.key)) % 800
    return f"{authors}. {item.title}. <i>{esc(venue_of(item))}</i>, {volume}:{pages}–{pages + 14}, {item.year}."


def bibtex(item: Item) -> str:
    """The paper's BibTeX entry, as the .bib link serves it."""
    surname = item.authors[0].split()[-1].lower()
    return (
        f"@article{{{surname}{item.year}{item.key.split('-')[0]},\n"
        f"  author  = {{{' and '.join(item.authors)}}},\n"
        f"  title   = {{{item.title}}},\n"
        f"  journal = {{{venue_of(item)}}},\n"
        f"  year    = {{{item.year}}},\n"
        f"  month   = {{{int(item.date[5:7])}}},\n"
        "}\n"
    )


class Fresh5HomepageSite(SiteApp):
    """A professor's homepage: plain lists of citations with [Abstract] [PDF] [BibTeX] [Slides] after each."""

    decoy_paths: ClassVar[dict[str, DecoyKind]] = {f"{HOME}teaching.html": "help", f"{HOME}contact.html": "contact"}

    def routes(self) -> list[Route]:
        return [
            (re.compile(r"/"), self._root),
            (re.compile(rf"{HOME}(index\.html)?"), self._home),
            (re.compile(rf"{HOME}publications\.html"), self._publications),
            (re.compile(rf"{HOME}papers/(?P<slug>[a-z0-9-]+)\.html"), self._abstract),
            (re.compile(rf"{HOME}papers/(?P<slug>[a-z0-9-]+)\.pdf"), self._file),
            (re.compile(rf"{HOME}papers/(?P<slug>[a-z0-9-]+)\.bib"), self._bib),
            (re.compile(rf"{HOME}slides/(?P<slug>[a-z0-9-]+)\.pdf"), self._file),
        ]

    def robots_txt(self) -> str:
        return "User-agent: *\nDisallow: /cgi-bin/\nDisallow: /~hvk/private/\n"

    def sample_paths(self) -> dict[str, str]:
        item = self.items[0]
        return {"root": "/", "home": HOME, "publications": f"{HOME}publications.html", "abstract": item.path}

    def page(self, *, title: str, content: str, kind: str, status: int = 200, head: str = "") -> Response:
        body = (
            f'{content}\n<hr><p><a href="{HOME}">Home</a> | <a href="{HOME}publications.html">Publications</a> | '
            f'<a href="{HOME}teaching.html">Teaching</a> | <a href="{HOME}contact.html">Contact</a></p>'
            "<address>Last modified: 2 October 2026</address>"
        )
        return Response.html(document(title=title, head=head, body=body), kind=kind, status=status)

    def _root(self, request: Request) -> Response:
        content = (
            f"<h1>{esc(self.spec.tagline)}</h1><p>Staff pages:</p>"
            f'<ul><li><a href="{HOME}">{esc(owner(self.items))}</a></li></ul>'
        )
        return self.page(title=self.spec.tagline, content=content, kind="department")

    def _home(self, request: Request) -> Response:
        name = owner(self.items)
        content = (
            f"<h1>{esc(name)}</h1><p>Professor of Aquatic Ecology<br>{esc(self.spec.tagline)}</p>"
            "<p>I work on the chemistry and ecology of lakes and streams, and on what people put into them. I teach "
            "limnology and environmental statistics, and I am always happy to hear from prospective students.</p>"
            f'<ul><li><a href="{HOME}publications.html">Publications</a></li>'
            f'<li><a href="{HOME}teaching.html">Teaching</a></li><li><a href="{HOME}cv.pdf">CV</a> (PDF)</li></ul>'
        )
        return self.page(title=name, content=content, kind="home")

    def _entry(self, item: Item) -> str:
        links = [("Abstract", item.path), ("PDF", item.pdf_path), ("BibTeX", item.path.replace(".html", ".bib"))]
        if sum(map(ord, item.key)) % 2 == 0:
            links.append(("Slides", f"{HOME}slides/{item.key}.pdf"))
        return f"<li>{_citation(item)} " + " ".join(f'[<a href="{attr(p)}">{t}</a>]' for t, p in links) + "</li>"

    def _publications(self, request: Request) -> Response:
        name = owner(self.items)
        mine = [i for i in self.items if name in i.authors]
        theirs = [i for i in self.items if name not in i.authors]
        content = (
            f"<h1>Publications</h1><p>{esc(name)}'s papers, newest first. Please e-mail me for anything you cannot "
            f"get.</p><ul>{''.join(self._entry(i) for i in mine)}</ul>"
            f"<h2>Papers by my students</h2><ul>{''.join(self._entry(i) for i in theirs)}</ul>"
        )
        return self.page(title=f"{name}: publications", content=content, kind="publications")

    def _item(self, slug: str) -> Item | None:
        return self.item_at(f"{HOME}papers/{slug}.html")

    def _abstract(self, request: Request, slug: str) -> Response:
        item = self._item(slug)
        if item is None:
            return self.not_found()
        content = (
            f"<h1>{esc(item.title)}</h1><h2>Abstract</h2><p>{esc(item.abstract)}</p>"
            f'<p>[<a href="{attr(item.pdf_path)}">PDF</a>] '
            f'[<a href="{attr(item.path.replace(".html", ".bib"))}">BibTeX</a>]</p>'
        )
        return self.page(title=item.title, content=content, kind="abstract")

    def _file(self, request: Request, slug: str) -> Response:
        item = self._item(slug)
        return self.not_found() if item is None else self.pdf(item)

    def _bib(self, request: Request, slug: str) -> Response:
        item = self._item(slug)
        return self.not_found() if item is None else Response.text(bibtex(item), kind="bibtex")
