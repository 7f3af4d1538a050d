"""HELD OUT, fresh (twenty-second batch): Calder University Press, a university press's catalogue of books built as
presses' own sites are (see `fresh_heldout22.py`; do not read or tune anything to it). The home page shows "New &
Noteworthy" (the six newest books) and leads to the subjects, the seasonal catalogues and the series. A subject
(`/subjects/history`) lists its books six a page with numbered pages, sorted by title unless the visitor picks
"Newest first" (`?sort=pubdate`); each entry gives the title, the authors (two named, then "et al.") and "Hardcover ·
Mar 2024". A catalogue (`/catalogs/spring-2024`: January to June; fall: July to December) lists the season's books
under month headings ("March 2024"). A series (`/series/studies-in-medieval-devotion`) lists its volumes by number,
highest first. A book (`/9781399012345/holy-miles/`) has its title and subtitle, "By A and B" or "By A, B,
C, and D" with each author linked to their page, the formats, each with its ISBN and its own "Pub date" (the
hardcover's and the e-book's the book's day, written 03/12/2024; the paperback's, once out, a year or more later),
the description, praise from other scholars, the contents and notes on the authors, and carries schema.org Book
JSON-LD (datePublished the hardcover's day). An author's page (`/authors/oskar-lindqvist`) lists their books newest
first. The search is a form that posts; robots.txt forbids it, the cart, desk and exam copies and the account pages.
"""

from __future__ import annotations

import hashlib
import re
from datetime import date, timedelta
from typing import ClassVar
from urllib.parse import urlencode

from research_crawler.eval.testbed.decoys import DecoyKind
from research_crawler.eval.testbed.markup import MONTHS, attr, document, esc, json_script, url_slug
from research_crawler.eval.testbed.models import Item
from research_crawler.eval.testbed.site_app import Request, Response, Route, SiteApp

__all__ = [
    "NEW_SHOWN",
    "PER_PAGE",
    "PRAISE",
    "SERIES",
    "TODAY",
    "Fresh22PressSite",
    "author_path",
    "byline",
    "card_authors",
    "paperback",
    "pub_date",
    "season_of",
    "series_of",
    "subject_slug",
]

PER_PAGE = 6
NEW_SHOWN = 6
#: Series (slug → (name, the subject whose books it may hold)).
SERIES: dict[str, tuple[str, str]] = {
    "studies-in-medieval-devotion": ("Studies in Medieval Devotion", "History"),
    "screen-histories": ("Screen Histories", "Film & Media Studies"),
}
#: Scholars who write the praise on the books' pages (never the books' authors).
PRAISE = (
    ("Helena Marsh", "author of The Long Road North"),
    ("Idris Whitcombe", "University of Aberglas"),
    ("Margarethe Solberg", "editor of Journal of Travel and Devotion"),
    ("Paulo Rezende", "author of Screens of the South"),
)
_VERDICTS = (
    "Nobody who writes on the subject from now on can ignore it.",
    "Deeply researched and a pleasure to read.",
    "It changes how we should read the sources.",
)
_CHAPTERS = (
    ("Introduction", "Setting Out", "Rules of the Road", "Money and Buildings", "Voices", "Conclusion"),
    ("Introduction", "Places", "People", "Things", "Afterlives"),
    ("Prologue", "The Sources", "Crowds and Keepers", "Counting", "Memory", "Epilogue"),
)
#: The day this copy of the site was made: a paperback due later is not listed yet.
TODAY = date(2026, 11, 20)
_ADJECTIVES = ("A vivid", "An original", "A meticulous", "A landmark", "A humane")


def _digest(text: str) -> int:
    return int(hashlib.sha1(text.encode()).hexdigest()[:12], 16)


def subject_slug(category: str) -> str:
    return url_slug(category.replace("&", "and"))


def author_path(name: str) -> str:
    return f"/authors/{url_slug(name)}"


def pub_date(day: date) -> str:
    """'03/12/2024', as the press writes a format's date."""
    return f"{day:%m/%d/%Y}"


def paperback(item: Item) -> tuple[str, date]:
    """The paperback's ISBN and date (a year to two after the hardcover)."""
    day = date.fromisoformat(item.date) + timedelta(days=370 + _digest(item.key) % 300)
    return f"{item.key[:-1]}{(int(item.key[-1]) + 5) % 10}", day


def byline(authors: tuple[str, ...]) -> str:
    """'A and B', 'A, B, and C' (the serial comma, as the press's style has it)."""
    if len(authors) <= 2:
        return " and ".join(authors)
    return ", ".join(authors[:-1]) + ", and " + authors[-1]


def card_authors(authors: tuple[str, ...]) -> str:
    """A listing's authors: two named, then 'et al.' for more than three."""
    return byline(authors) if len(authors) <= 3 else f"{authors[0]}, {authors[1]}, et al."


def season_of(day: date) -> str:
    """The seasonal catalogue a book is announced in ('spring-2024': January to June, 'fall-2024')."""
    return f"{'spring' if day.month <= 6 else 'fall'}-{day.year}"


def series_of(item: Item) -> str | None:
    """The series a book belongs to, if any: two books in three of a series' subject, near misses never."""
    if item.topic.endswith("-other") or _digest(item.key + "series") % 3 == 0:
        return None
    return next((slug for slug, (_, subject) in SERIES.items() if subject == item.category), None)


def _subtitle(subtitle: str) -> str:
    return f'<p class="subtitle">{esc(subtitle)}</p>' if subtitle else ""


def _split(title: str) -> tuple[str, str]:
    main, _, subtitle = title.partition(": ")
    return main, subtitle


class Fresh22PressSite(SiteApp):
    """A university press: subjects, seasonal catalogues, series, book pages with formats, authors' pages."""

    decoy_paths: ClassVar[dict[str, DecoyKind]] = {
        "/about": "about",
        "/rights-and-permissions": "terms",
        "/contact": "contact",
        "/accessibility": "accessibility",
        "/authors-guide": "submit",
    }

    def routes(self) -> list[Route]:
        self.by_isbn = {i.key: i for i in self.items}
        self.subjects = {subject_slug(c): c for c in sorted({i.category for i in self.items})}
        self.authors = {author_path(a): a for i in self.items for a in i.authors}
        return [
            (re.compile(r"/"), self._home),
            (re.compile(r"/subjects"), self._subjects),
            (re.compile(r"/subjects/(?P<slug>[a-z-]+)"), self._subject),
            (re.compile(r"/catalogs"), self._catalogs),
            (re.compile(r"/catalogs/(?P<season>(?:spring|fall)-\d{4})"), self._catalog),
            (re.compile(r"/series"), self._all_series),
            (re.compile(r"/series/(?P<slug>[a-z-]+)"), self._series),
            (re.compile(r"/authors/(?P<slug>[a-z0-9-]+)"), self._author),
            (re.compile(r"/(?P<isbn>97813990\d{5})/[a-z0-9-]+/"), self._book),
            (re.compile(r"/media/samples/(?P<isbn>97813990\d{5})-sample\.pdf"), self._sample),
            (re.compile(r"/search"), self._search),
        ]

    def robots_txt(self) -> str:
        return (
            "User-agent: *\nDisallow: /search\nDisallow: /cart\nDisallow: /desk-copy\nDisallow: /exam-copy\n"
            "Disallow: /account/\nDisallow: /*?add-to-cart=\n"
        )

    def sample_paths(self) -> dict[str, str]:
        item = self._newest()[0]
        return {
            "home": "/",
            "subjects": "/subjects",
            "subject": f"/subjects/{subject_slug(item.category)}",
            "newest": f"/subjects/{subject_slug(item.category)}?sort=pubdate",
            "catalogs": "/catalogs",
            "catalog": f"/catalogs/{season_of(date.fromisoformat(item.date))}",
            "series": f"/series/{next(iter(SERIES))}",
            "book": item.path,
            "author": author_path(item.authors[0]),
        }

    def _newest(self, items: list[Item] | None = None) -> list[Item]:
        return sorted(self.items if items is None else items, key=lambda i: (i.date, i.key), reverse=True)

    def page(self, *, title: str, content: str, kind: str, status: int = 200, head: str = "") -> Response:
        body = (
            '<div class="utility-bar"><a href="/account/login">Sign in</a> · <a href="/cart">Cart (0)</a> · <a href='
            '"/exam-copy">Exam &amp; desk copies</a></div><header class="site-header"><a class="brand" href="/">'
            'Calder University Press</a><form class="site-search" action="/search" method="post"><label>Search books'
            ' <input name="keywords" type="search"></label><button>Go</button></form><nav class="primary"><a href="/'
            'subjects">Subjects</a> <a href="/catalogs">Catalogs</a> <a href="/series">Series</a> <a href="/about">'
            'About the Press</a> <a href="/authors-guide">For Authors</a></nav></header>'
            f'<main class="content">{content}</main><footer class="site-footer"><p>Calder University Press · 14 '
            'Quarry Lane, Calder · <a href="/contact">Contact us</a> · <a href="/rights-and-permissions">Rights '
            '&amp; permissions</a> · <a href="/accessibility">Accessibility</a></p><p>Sign up for our newsletter '
            "to hear about new books, events and sales.</p></footer>"
        )
        title = title if title == "Calder University Press" else f"{title} | Calder University Press"
        return Response.html(document(title=title, head=head, body=body), kind=kind, status=status)

    def _card(self, item: Item) -> str:
        main, subtitle = _split(item.title)
        day = date.fromisoformat(item.date)
        return (
            f'<li class="book-card"><a class="book-card__cover" href="{attr(item.path)}"><img src="/media/covers/'
            f'{item.key}.jpg" alt=""></a><div class="book-card__body"><h3><a href="{attr(item.path)}">{esc(main)}'
            f'</a></h3>{_subtitle(subtitle)}<p class="authors">'
            f'{esc(card_authors(item.authors))}</p><p class="format">Hardcover · {MONTHS[day.month - 1][:3]} '
            f"{day.year}</p></div></li>"
        )

    def _home(self, request: Request) -> Response:
        new = "".join(self._card(i) for i in self._newest()[:NEW_SHOWN])
        subjects = "".join(
            f'<li><a href="/subjects/{slug}">{esc(name)}</a></li>' for slug, name in self.subjects.items()
        )
        content = (
            '<section class="hero"><h1>Ideas worth the long read</h1><p>Calder University Press publishes scholarship '
            "in the humanities and social sciences for readers inside and outside the academy.</p></section>"
            f'<section class="new"><h2>New &amp; Noteworthy</h2><ul class="book-grid">{new}</ul></section><section '
            f'class="browse"><h2>Browse by subject</h2><ul>{subjects}</ul><p><a href="/catalogs">Seasonal catalogs</a>'
            ' · <a href="/series">Book series</a></p></section><section class="events"><h2>Events</h2><p>Join us for '
            "book launches and conversations with our authors throughout the year.</p></section>"
        )
        return self.page(title="Calder University Press", content=content, kind="home")

    def _subjects(self, request: Request) -> Response:
        rows = "".join(
            f'<li><a href="/subjects/{slug}">{esc(name)}</a> ({sum(i.category == name for i in self.items)})</li>'
            for slug, name in self.subjects.items()
        )
        return self.page(title="Subjects", content=f"<h1>Browse by subject</h1><ul>{rows}</ul>", kind="collection")

    def _subject(self, request: Request, slug: str) -> Response:
        name = self.subjects.get(slug)
        if name is None:
            return self.not_found()
        newest = request.param("sort") == "pubdate"
        mine = [i for i in self.items if i.category == name]
        ordered = self._newest(mine) if newest else sorted(mine, key=lambda i: (i.title.lower(), i.key))
        pages = max(1, -(-len(ordered) // PER_PAGE))
        page = request.int_param("page", 1, minimum=1, maximum=pages)
        shown = ordered[(page - 1) * PER_PAGE : page * PER_PAGE]

        def link(n: int, sort: str | None) -> str:
            query = {"sort": sort} if sort else {}
            return f"/subjects/{slug}?" + urlencode(query | {"page": str(n)}) if n > 1 or sort else f"/subjects/{slug}"

        sort = "pubdate" if newest else None
        pager = " ".join(
            f'<span class="current">{n}</span>' if n == page else f'<a href="{attr(link(n, sort))}">{n}</a>'
            for n in range(1, pages + 1)
        )
        if page < pages:
            pager += f' <a class="next" href="{attr(link(page + 1, sort))}">Next ›</a>'
        sorter = (
            '<p class="sort">Sort by: <a href="/subjects/' + slug + '">Title A–Z</a> | <span>Newest first</span></p>'
            if newest
            else f'<p class="sort">Sort by: <span>Title A–Z</span> | <a href="/subjects/{slug}?sort=pubdate">Newest '
            "first</a></p>"
        )
        content = (
            f'<h1>{esc(name)}</h1><p class="count">{len(ordered)} books · page {page} of {pages}</p>{sorter}<ul '
            f'class="book-list">{"".join(self._card(i) for i in shown)}</ul><nav class="pagination">{pager}</nav>'
        )
        return self.page(title=name, content=content, kind="listing")

    def _seasons(self) -> list[str]:
        seasons = {season_of(date.fromisoformat(i.date)) for i in self.items}
        return sorted(seasons, key=lambda s: (s.split("-")[1], s.startswith("fall")), reverse=True)

    def _catalogs(self, request: Request) -> Response:
        rows = "".join(
            f'<li><a href="/catalogs/{season}">{season.split("-")[0].title()} {season.split("-")[1]} catalog</a></li>'
            for season in self._seasons()
        )
        content = (
            "<h1>Seasonal catalogs</h1><p>Our catalogs announce each season's new books. Download the PDF for "
            f'booksellers or browse online.</p><ul class="catalogs">{rows}</ul>'
        )
        return self.page(title="Catalogs", content=content, kind="collection")

    def _catalog(self, request: Request, season: str) -> Response:
        mine = [i for i in self.items if season_of(date.fromisoformat(i.date)) == season]
        if not mine:
            return self.not_found()
        by_month: dict[str, list[Item]] = {}
        for item in sorted(mine, key=lambda i: (i.date, i.key)):
            day = date.fromisoformat(item.date)
            by_month.setdefault(f"{MONTHS[day.month - 1]} {day.year}", []).append(item)
        sections = "".join(
            f'<section class="month"><h2>{month}</h2><ul class="book-list">'
            f"{''.join(self._card(i) for i in books)}</ul></section>"
            for month, books in by_month.items()
        )
        name = f"{season.split('-')[0].title()} {season.split('-')[1]}"
        content = f"<h1>{name} catalog</h1><p>{len(mine)} new books this season.</p>{sections}"
        return self.page(title=f"{name} catalog", content=content, kind="listing")

    def _volumes(self, slug: str) -> list[tuple[int, Item]]:
        mine = sorted((i for i in self.items if series_of(i) == slug), key=lambda i: (i.date, i.key))
        return [(n + 11, item) for n, item in enumerate(mine)]

    def _all_series(self, request: Request) -> Response:
        rows = "".join(
            f'<li><a href="/series/{slug}">{esc(name)}</a> ({len(self._volumes(slug))} volumes)</li>'
            for slug, (name, _) in SERIES.items()
        )
        return self.page(title="Series", content=f"<h1>Book series</h1><ul>{rows}</ul>", kind="collection")

    def _series(self, request: Request, slug: str) -> Response:
        if slug not in SERIES:
            return self.not_found()
        rows = "".join(
            f'<li class="volume"><span class="number">Volume {n}</span> <a href="{attr(i.path)}">{esc(i.title)}</a>'
            f" — {esc(card_authors(i.authors))}</li>"
            for n, i in reversed(self._volumes(slug))
        )
        content = (
            f"<h1>{esc(SERIES[slug][0])}</h1><p>Series editors: Margarethe Solberg and Idris Whitcombe</p>"
            f'<ol class="volumes">{rows}</ol>'
        )
        return self.page(title=SERIES[slug][0], content=content, kind="listing")

    def _author(self, request: Request, slug: str) -> Response:
        name = self.authors.get(f"/authors/{slug}")
        if name is None:
            return self.not_found()
        books = self._newest([i for i in self.items if name in i.authors])
        content = (
            f'<h1>{esc(name)}</h1><p class="bio">{esc(name)} {self._bio(name)}</p><h2>Books</h2><ul class="book-list">'
            f"{''.join(self._card(i) for i in books)}</ul>"
        )
        return self.page(title=name, content=content, kind="author")

    @staticmethod
    def _bio(name: str) -> str:
        places = ("Calder", "Aberglas", "Northmere", "Wexby", "Stannard")
        roles = ("professor of history", "senior lecturer in film studies", "reader in medieval studies",
                 "associate professor of cultural history", "research fellow")  # fmt: skip
        seed = _digest(name)
        return f"is {roles[seed % len(roles)]} at the University of {places[seed // 7 % len(places)]}."

    def _book(self, request: Request, isbn: str) -> Response:
        item = self.by_isbn.get(isbn)
        if item is None or request.path != item.path:
            return self.not_found()
        main, subtitle = _split(item.title)
        day = date.fromisoformat(item.date)
        soft_isbn, soft_day = paperback(item)
        authors = ", ".join(f'<a href="{author_path(a)}">{esc(a)}</a>' for a in item.authors)
        if len(item.authors) == 2:
            authors = " and ".join(f'<a href="{author_path(a)}">{esc(a)}</a>' for a in item.authors)
        elif len(item.authors) > 2:
            linked = [f'<a href="{author_path(a)}">{esc(a)}</a>' for a in item.authors]
            authors = ", ".join(linked[:-1]) + ", and " + linked[-1]
        series = series_of(item)
        in_series = ""
        if series is not None:
            number = next(n for n, i in self._volumes(series) if i.key == item.key)
            in_series = (
                f'<p class="series"><a href="/series/{series}">{esc(SERIES[series][0])}</a>, volume {number}</p>'
            )
        seed = _digest(item.key)
        praise = "".join(
            f"<blockquote><p>“{_ADJECTIVES[(seed + n) % len(_ADJECTIVES)]} book. {esc(self._praise(item))}”</p>"
            f"<footer>— {esc(who)}, {esc(what)}</footer></blockquote>"
            for n, (who, what) in enumerate((PRAISE[seed % 4], PRAISE[(seed + 1) % 4]))
        )
        chapters = "".join(f"<li>{n}. {esc(title)}</li>" for n, title in enumerate(_CHAPTERS[seed % 3], 1))
        notes = "".join(f"<p><strong>{esc(a)}</strong> {self._bio(a)}</p>" for a in item.authors)
        ld = {
            "@context": "https://schema.org",
            "@type": "Book",
            "name": item.title,
            "author": [{"@type": "Person", "name": a} for a in item.authors],
            "datePublished": item.date,
            "isbn": item.key,
            "bookFormat": "https://schema.org/Hardcover",
            "numberOfPages": 220 + seed % 180,
            "publisher": {"@type": "Organization", "name": "Calder University Press"},
            "description": item.abstract,
        }
        head = json_script(ld, script_type="application/ld+json")
        soft = (
            f"<tr><td>Paperback</td><td>{soft_isbn}</td><td>{pub_date(soft_day)}</td><td>$24.95</td></tr>"
            if soft_day <= TODAY
            else ""
        )
        formats = (
            '<table class="formats"><tr><th>Format</th><th>ISBN</th><th>Pub date</th><th>Price</th></tr>'
            f'<tr><td>Hardcover</td><td>{item.key}</td><td>{pub_date(day)}</td><td>$45.00 <a href="{attr(item.path)}'
            f'?add-to-cart={item.key}">Add to cart</a></td></tr>{soft}<tr><td>E-book</td><td>{item.key[:-3]}'
            f"{item.key[-3:][::-1]}</td><td>{pub_date(day)}</td><td>$24.95</td></tr></table>"
        )
        content = (
            f'<article class="book"><div class="book__cover"><img src="/media/covers/{item.key}.jpg" alt="Cover of '
            f'{attr(main)}"><a class="look-inside" href="{attr(item.pdf_path)}">Look inside (PDF)</a></div><div class='
            f'"book__main"><h1>{esc(main)}</h1>{_subtitle(subtitle)}<p '
            f'class="byline">By {authors}</p>{in_series}{formats}<p><a href="/exam-copy?isbn={item.key}">Request an '
            f'exam or desk copy</a></p><section class="description"><h2>Description</h2><p>{esc(item.abstract)}</p>'
            f'</section><section class="praise"><h2>Praise</h2>{praise}</section><section class="toc"><h2>Table of '
            f'Contents</h2><ol>{chapters}</ol><p>Notes · Bibliography · Index</p></section><section class="authors'
            f'"><h2>About the Authors</h2>{notes}</section></div></article>'
        )
        return self.page(title=main, content=content, kind="article", head=head)

    @staticmethod
    def _praise(item: Item) -> str:
        return _VERDICTS[_digest(item.title) % len(_VERDICTS)]

    def _sample(self, request: Request, isbn: str) -> Response:
        item = self.by_isbn.get(isbn)
        return self.pdf(item) if item is not None else self.not_found()

    def _search(self, request: Request) -> Response:
        content = (
            '<h1>Search</h1><form action="/search" method="post"><input name="keywords" type="search"><button>Search'
            "</button></form>"
        )
        if request.method == "POST" and request.param("keywords").strip():
            words = request.param("keywords").lower().split()
            text = {i.key: (i.title + " " + " ".join(i.authors)).lower() for i in self.items}
            found = [i for i in self._newest() if all(w in text[i.key] for w in words)]
            content += f'<p>{len(found)} results</p><ul class="book-list">{"".join(self._card(i) for i in found)}</ul>'
        return self.page(title="Search", content=content, kind="search")
