"""HELD OUT, fresh (twentieth batch): PhilIndex, built as PhilPapers shows its categorised bibliography of philosophy
(see `fresh_heldout20.py`; do not read or tune anything to it). The home page lists the areas; an area and each of
its categories (`/browse/value-theory`, `/browse/moral-responsibility`, `/browse/moral-luck`) name their editor and
sub-categories with counts and list the entries of the category and its sub-categories, ten at a time ordered by
first author, with "next ›" and "‹ previous" links by offset (`?start=10`) and a link to order them by publication
year instead (`?sort=pubYear`). An entry is written "Lima, Ana & Souza, Bruno (2024). Title. Ethics 134 (2):45-67."
(three authors at most, then "et al."). A record (`/rec/RESFAB-37`) gives the title, every author (linked to their
profile, `/profile/12345`), the journal with the year only, the abstract, keywords, its categories, a PhilArchive copy,
similar works and "Added to PhilIndex" with the date it was indexed; no meta tags. The search, exports and bookmarks
are forbidden.
"""

from __future__ import annotations

import re
from datetime import date, timedelta
from typing import ClassVar
from urllib.parse import urlencode

from research_crawler.eval.testbed.decoys import DecoyKind
from research_crawler.eval.testbed.markup import attr, document, esc
from research_crawler.eval.testbed.models import Item
from research_crawler.eval.testbed.site_app import Request, Response, Route, SiteApp

__all__ = [
    "PER_PAGE",
    "TREE",
    "Fresh20PhilbibSite",
    "added_on",
    "by_first_author",
    "by_year",
    "entry_citation",
    "profile_of",
]

PER_PAGE = 10
#: The category tree: slug → (name, parent slug, editor); leaves are the site's categories.
TREE: dict[str, tuple[str, str | None, str]] = {
    "value-theory": ("Value Theory", None, "Editorial board"),
    "normative-ethics": ("Normative Ethics", "value-theory", "Jonas Ahlberg"),
    "moral-responsibility": ("Moral Responsibility", "normative-ethics", "Marta Ilves"),
    "moral-luck": ("Moral Luck", "moral-responsibility", "Dana Kelleher"),
    "social-political": ("Social and Political Philosophy", "value-theory", "Editorial board"),
    "feminist-philosophy": ("Feminist Philosophy", "social-political", "Ruth Okonjo"),
    "epistemic-injustice": ("Epistemic Injustice", "feminist-philosophy", "Priya Raman"),
    "philosophy-of-mind": ("Philosophy of Mind", None, "Editorial board"),
    "science-logic-math": ("Science, Logic, and Mathematics", None, "Editorial board"),
}
_JOURNALS = {
    "Epistemic Injustice": ("Journal of Medical Ethics", "Hypatia", "Social Epistemology", "Bioethics"),
    "Moral Luck": ("Ethics", "Philosophical Studies", "The Journal of Ethics", "Ratio"),
}


def _hash(text: str) -> int:
    return sum(ord(c) * (n + 43) for n, c in enumerate(text))


def _surname(name: str) -> str:
    return name.rpartition(" ")[2]


def by_first_author(items: list[Item]) -> list[Item]:
    """A category's default order: by the first author's surname, then the title."""
    return sorted(items, key=lambda i: (_surname(i.authors[0]), i.authors[0], i.title))


def by_year(items: list[Item]) -> list[Item]:
    """Ordered by publication year, newest first; within a year by first author."""
    return sorted(by_first_author(items), key=lambda i: -i.year)


def added_on(item: Item) -> date:
    """When the entry was added to the index (after it appeared)."""
    return date.fromisoformat(item.date) + timedelta(days=9 + _hash(item.title) % 80)


def profile_of(name: str) -> str:
    return f"/profile/{10_000 + _hash(name) * 13 % 890_000}"


def _journal(item: Item) -> str:
    names = _JOURNALS[item.category]
    volume = item.year - 1900 + _hash(item.category) % 30
    first = 1 + _hash(item.title) % 400
    return f"{names[_hash(item.key) % len(names)]} {volume} ({1 + _hash(item.title) % 4}):{first}-{first + 18}"


def entry_citation(item: Item) -> str:
    """An entry as listings write it (text): 'Lima, Ana & Souza, Bruno (2024). Title. Ethics 134 (2):45-67.'."""
    names = [f"{_surname(a)}, {a.rpartition(' ')[0]}" for a in item.authors[:3]]
    joined = " & ".join(names) + (" et al." if len(item.authors) > 3 else "")
    return f"{joined} ({item.year}). {item.title}. {_journal(item)}."


def _children(slug: str) -> list[str]:
    return [child for child, (_, parent, _) in TREE.items() if parent == slug]


def _leaves(slug: str) -> set[str]:
    below = _children(slug)
    return {TREE[slug][0]} if not below else {name for child in below for name in _leaves(child)}


class Fresh20PhilbibSite(SiteApp):
    """A PhilPapers-like bibliography: areas and categories with their entries, records, profiles."""

    decoy_paths: ClassVar[dict[str, DecoyKind]] = {"/help/about.html": "about", "/help/terms.html": "terms"}

    def routes(self) -> list[Route]:
        self.by_key = {i.key: i for i in self.items}
        self.profiles = {profile_of(a): a for i in self.items for a in i.authors}
        return [
            (re.compile(r"/"), self._home),
            (re.compile(r"/browse/(?P<slug>[a-z-]+)"), self._category),
            (re.compile(r"/rec/(?P<key>[A-Z]+-\d+)"), self._record),
            (re.compile(r"/profile/(?P<number>\d+)"), self._profile),
            (re.compile(r"/archive/(?P<key>[A-Z]+-\d+)\.pdf"), self._file),
        ]

    def robots_txt(self) -> str:
        return (
            "User-agent: *\nCrawl-delay: 5\nDisallow: /s/\nDisallow: /asearch.pl\nDisallow: /export/\n"
            "Disallow: /bookmark/\nDisallow: /utils/\n"
        )

    def sample_paths(self) -> dict[str, str]:
        item = self.items[0]
        return {
            "home": "/",
            "area": "/browse/value-theory",
            "category": "/browse/moral-luck",
            "next": "/browse/value-theory?start=10",
            "record": item.path,
            "profile": profile_of(item.authors[0]),
        }

    def page(self, *, title: str, content: str, kind: str, status: int = 200, head: str = "") -> Response:
        site = self.spec.title
        body = (
            f'<div id="header"><a class="logo" href="/">{esc(site)}</a><form action="/s/" method="get" id="search">'
            '<input type="text" name="searchStr" placeholder="Search PhilIndex"><button>Go</button></form><a href='
            '"/asearch.pl">Advanced search</a> <a href="/browse/value-theory">Browse</a> <a href="/help/about.html">'
            f'About</a></div><div id="content">{content}</div><div id="footer"><a href="/help/terms.html">Terms</a>'
            f" · {esc(site)}, {esc(self.spec.tagline)}</div>"
        )
        title = f"{title} - {site}" if title != site else site
        return Response.html(document(title=title, head=head, body=body), kind=kind, status=status)

    def _home(self, request: Request) -> Response:
        areas = "".join(
            f'<li><a href="/browse/{slug}">{esc(name)}</a> ({self._count(slug)})</li>'
            for slug, (name, parent, _) in TREE.items()
            if parent is None
        )
        content = (
            f"<h1>{esc(self.spec.title)}</h1><p>{esc(self.spec.tagline)}, indexed by volunteer editors.</p><h2>"
            f'Browse by topic</h2><ul class="areas">{areas}</ul>'
        )
        return self.page(title=self.spec.title, content=content, kind="home")

    def _entries(self, slug: str) -> list[Item]:
        names = _leaves(slug)
        return [i for i in self.items if i.category in names]

    def _count(self, slug: str) -> int:
        return len(self._entries(slug))

    @staticmethod
    def _address(slug: str, sort: str, start: int) -> str:
        query = ({"sort": sort} if sort == "pubYear" else {}) | ({"start": str(start)} if start else {})
        return f"/browse/{slug}" + (f"?{urlencode(query)}" if query else "")

    def _entry(self, item: Item) -> str:
        text = entry_citation(item)
        head, _, tail = text.partition(f" ({item.year}). {item.title}. ")
        return (
            f'<li class="entry"><span class="citation"><span class="name">{esc(head)}</span> ({item.year}). <a '
            f'class="articleTitle" href="{attr(item.path)}">{esc(item.title)}</a>. <em class="pubName">{esc(tail)}'
            f'</em></span><div class="abstract">{esc(item.abstract[:180])}…</div><div class="options"><a href="'
            f'/export/{attr(item.key)}">Export citation</a> <a href="/bookmark/{attr(item.key)}">Bookmark</a></div>'
            "</li>"
        )

    def _category(self, request: Request, slug: str) -> Response:
        if slug not in TREE:
            return self.not_found()
        name, parent, editor = TREE[slug]
        sort = "pubYear" if request.param("sort") == "pubYear" else "firstAuthor"
        entries = (by_year if sort == "pubYear" else by_first_author)(self._entries(slug))
        start = request.int_param("start", 0, maximum=max(0, len(entries) - 1))
        shown = entries[start : start + PER_PAGE]
        steps = []
        if start:
            steps.append(
                f'<a class="prev" href="{attr(self._address(slug, sort, max(0, start - PER_PAGE)))}">‹ previous</a>'
            )
        if start + PER_PAGE < len(entries):
            steps.append(f'<a class="next" href="{attr(self._address(slug, sort, start + PER_PAGE))}">next ›</a>')
        children = "".join(
            f'<li><a href="/browse/{child}">{esc(TREE[child][0])}</a> ({self._count(child)})</li>'
            for child in _children(slug)
        )
        up = f'<p class="parent">Part of <a href="/browse/{parent}">{esc(TREE[parent][0])}</a></p>' if parent else ""
        other = "pubYear" if sort == "firstAuthor" else "firstAuthor"
        content = (
            f'<h1>{esc(name)}</h1>{up}<p class="editor">Edited by {esc(editor)}</p>'
            + (f'<h2>Sub-categories</h2><ul class="subcats">{children}</ul>' if children else "")
            + f'<div class="listing-head">Contents: {start + 1 if entries else 0}–{start + len(shown)} of '
            f"{len(entries)}{' (with sub-categories)' if children else ''} · Order: "
            f'{"first author" if sort == "firstAuthor" else "publication year (descending)"} · <a href="'
            f'{attr(self._address(slug, other, 0))}">order by '
            f'{"publication year" if other == "pubYear" else "first author"}</a></div><ol class="entryList" start='
            f'"{start + 1}">{"".join(self._entry(i) for i in shown)}</ol><div class="pager">{" ".join(steps)}</div>'
        )
        return self.page(title=name, content=content, kind="listing")

    def _record(self, request: Request, key: str) -> Response:
        item = self.by_key.get(key)
        if item is None:
            return self.not_found()
        authors = ", ".join(f'<a href="{profile_of(a)}">{esc(a)}</a>' for a in item.authors)
        leaf = next(slug for slug, (name, _, _) in TREE.items() if name == item.category)
        path = [leaf]
        while TREE[path[-1]][1] is not None:
            path.append(TREE[path[-1]][1] or "")
        categories = " › ".join(f'<a href="/browse/{s}">{esc(TREE[s][0])}</a>' for s in reversed(path))
        others = [i for i in self.items if i.category == item.category and i.key != item.key]
        similar = "".join(
            f'<li><a href="{attr(i.path)}">{esc(i.title)}</a></li>'
            for i in sorted(others, key=lambda i: _hash(i.title + item.title))[:3]
        )
        content = (
            f'<div class="recHeader"><h1 class="recTitle">{esc(item.title)}</h1><div class="recAuthors">{authors}'
            f'</div><div class="recPub"><em>{esc(_journal(item))}</em> ({item.year})</div></div><div class='
            f'"abstract"><h3>Abstract</h3><p>{esc(item.abstract)}</p></div><div class="keywords"><b>Keywords</b> '
            f'{esc(", ".join(item.keywords))}</div><div class="categories"><b>Categories</b> {categories}</div>'
            f'<div class="links"><b>Download options</b> <a href="{attr(item.pdf_path)}">PhilArchive copy</a> · <a '
            f'href="/export/{attr(item.key)}">Export citation</a> · <a href="/bookmark/{attr(item.key)}">Bookmark'
            f'</a></div><div class="similar"><h3>Similar books and articles</h3><ul>{similar}</ul></div><div class='
            f'"analytics"><h3>Analytics</h3><p>Added to PhilIndex: {added_on(item):%Y-%m-%d}</p><p>Downloads: '
            f"{3 + _hash(item.key) % 200}</p></div>"
        )
        return self.page(title=item.title, content=content, kind="article")

    def _profile(self, request: Request, number: str) -> Response:
        name = self.profiles.get(f"/profile/{number}")
        if name is None:
            return self.not_found()
        works = by_year([i for i in self.items if name in i.authors])
        rows = "".join(self._entry(i) for i in works)
        content = f'<h1>{esc(name)}</h1><h2>Works ({len(works)})</h2><ol class="entryList">{rows}</ol>'
        return self.page(title=name, content=content, kind="listing")

    def _file(self, request: Request, key: str) -> Response:
        item = self.by_key.get(key)
        return self.pdf(item) if item is not None else self.not_found()
