"""HELD OUT, fresh (third batch): Ashbourne Research Repository, a university repository built as EPrints ones are
(see `fresh_heldout3.py`; do not read or tune anything to it). Browse by year (citations grouped by item type) and by
division (grouped by year); "Latest additions" in order of deposit, a table of truncated titles paged "Page 2 of 7"
with "Older entries »"; untagged item pages ("Authors: Surname, Given; …", "Publication date: 3rd March 2024", and a
later "Date deposited"); its search lives under /cgi/, which robots.txt forbids.
"""

from __future__ import annotations

import re
from datetime import date, timedelta
from typing import ClassVar

from research_crawler.eval.testbed.decoys import DecoyKind
from research_crawler.eval.testbed.full_text import search_items
from research_crawler.eval.testbed.markup import MONTHS, attr, document, esc, url_slug
from research_crawler.eval.testbed.models import Item
from research_crawler.eval.testbed.site_app import Request, Response, Route, SiteApp

__all__ = ["LATEST_PER_PAGE", "Fresh3RepositorySite", "deposited", "ordinal_date"]

#: Rows per page of "Latest additions".
LATEST_PER_PAGE = 8
_TITLE_CUT = 55
_JOURNALS = ("Journal of Northern Studies", "Ecology Letters Review", "Critical Care Practice", "Arctic Science",
             "Animal Movement Quarterly", "Clinical Infection Reports")  # fmt: skip


def ordinal_date(day: date) -> str:
    """3 March 2024 as the repository writes it: '3rd March 2024'."""
    suffix = "th" if 11 <= day.day <= 13 else {1: "st", 2: "nd", 3: "rd"}.get(day.day % 10, "th")
    return f"{day.day}{suffix} {MONTHS[day.month - 1]} {day.year}"


def deposited(item: Item) -> date:
    """When the item was deposited: weeks to months after it was published (the library catches up in batches)."""
    serial = int(item.key.split("-")[1])
    return date.fromisoformat(item.date) + timedelta(days=20 + serial * 37 % 280)


def _item_type(item: Item) -> str:
    serial = int(item.key.split("-")[1])
    return "Conference or Workshop Item" if serial % 5 == 0 else "Thesis (Doctoral)" if serial % 7 == 0 else "Article"


def _cut(title: str) -> str:
    """A title as the latest additions table shows it: cut after `_TITLE_CUT` characters."""
    return title if len(title) <= _TITLE_CUT else title[:_TITLE_CUT].rstrip() + "…"


def _surname_first(name: str) -> str:
    parts = name.split()
    return f"{parts[-1]}, {' '.join(parts[:-1])}"


class Fresh3RepositorySite(SiteApp):
    """An EPrints-like repository: views by year and division, latest additions by deposit, untagged items."""

    decoy_paths: ClassVar[dict[str, DecoyKind]] = {"/policies": "about", "/contact": "contact", "/deposit": "submit"}

    def routes(self) -> list[Route]:
        return [
            (re.compile(r"/"), self._home),
            (re.compile(r"/view/year/"), self._years),
            (re.compile(r"/view/year/(?P<year>\d{4})\.html"), self._year),
            (re.compile(r"/view/divisions/"), self._divisions),
            (re.compile(r"/view/divisions/(?P<slug>[a-z0-9-]+)/"), self._division),
            (re.compile(r"/latest/"), self._latest),
            (re.compile(r"/id/eprint/(?P<serial>\d+)/"), self._eprint),
            (re.compile(r"/id/eprint/(?P<serial>\d+)/1/(?P<name>[a-z0-9-]+)\.pdf"), self._file),
            (re.compile(r"/cgi/search/simple"), self._search),
        ]

    def robots_txt(self) -> str:
        return "User-agent: *\nDisallow: /cgi/\nDisallow: /id/eprint/*/stats/\n"

    def sample_paths(self) -> dict[str, str]:
        item = self.items[0]
        return {"home": "/", "years": "/view/year/", "year": f"/view/year/{item.year}.html",
                "divisions": "/view/divisions/", "division": f"/view/divisions/{url_slug(item.category)}/",
                "latest": "/latest/?page=2", "eprint": item.path, "search": "/cgi/search/simple?q=godwits"}  # fmt: skip

    def page(self, *, title: str, content: str, kind: str, status: int = 200, head: str = "") -> Response:
        body = (
            f'<div class="ep_tm_header"><a href="/">{esc(self.spec.title)}</a><ul class="ep_tm_menu">'
            '<li><a href="/">Home</a></li><li><a href="/view/year/">Browse by Year</a></li><li><a href="/view/'
            'divisions/">Browse by Division</a></li><li><a href="/latest/">Latest Additions</a></li><li><a href="'
            '/policies">Policies</a></li><li><a href="/deposit">Deposit an item</a></li></ul>'
            '<form method="get" action="/cgi/search/simple"><input name="q" aria-label="Search the repository">'
            '<input type="submit" value="Search"></form></div>\n'
            f'<div class="ep_tm_page_content">{content}</div>\n<div class="ep_tm_footer">{esc(self.spec.tagline)} · '
            '<a href="/contact">Contact</a> · Powered by EPrints 3</div>'
        )
        return Response.html(document(title=f"{title} - {self.spec.title}", head=head, body=body), kind=kind,
                             status=status)  # fmt: skip

    # ------------------------------------------------------------------ listings

    def _citation(self, item: Item) -> str:
        serial = int(item.key.split("-")[1])
        names = " and ".join(_surname_first(a) for a in item.authors)
        kind = _item_type(item)
        first = serial % 300 + 1
        where = (
            f"In: Annual Meeting of the {item.category}, {item.year}." if kind.startswith("Conference")
            else "Doctoral thesis, Ashbourne University." if kind.startswith("Thesis")
            else f"{_JOURNALS[serial % len(_JOURNALS)]}, {serial % 40 + 1} ({serial % 4 + 1}) {first}-{first + 13}."
        )  # fmt: skip
        link = f'<a href="{attr(item.path)}"><em>{esc(item.title)}</em></a>'
        return f'<p class="citation">{esc(names)} ({item.year}) {link}. {esc(where)}</p>'

    def _home(self, request: Request) -> Response:
        content = (
            f"<h1>Welcome to {esc(self.spec.title)}</h1><p>{esc(self.spec.tagline)}: articles, conference papers and "
            f"theses by its staff and students, {len(self.items)} items so far.</p><ul>"
            '<li><a href="/view/year/">Browse by Year</a></li><li><a href="/view/divisions/">Browse by Division</a>'
            '</li><li><a href="/latest/">Latest Additions</a></li></ul>'
        )
        return self.page(title="Home", content=content, kind="home")

    def _years(self, request: Request) -> Response:
        years = sorted({i.year for i in self.items}, reverse=True)
        rows = "".join(
            f'<li><a href="/view/year/{y}.html">{y}</a> ({sum(i.year == y for i in self.items)})</li>' for y in years
        )
        return self.page(title="Browse by Year", content=f"<h1>Browse by Year</h1><ul>{rows}</ul>", kind="years")

    def _year(self, request: Request, year: str) -> Response:
        items = [i for i in self.items if i.year == int(year)]
        if not items:
            return self.not_found()
        groups = []
        for kind in ("Article", "Conference or Workshop Item", "Thesis (Doctoral)"):
            cited = [
                self._citation(i)
                for i in sorted(items, key=lambda i: i.authors[0].split()[-1])
                if _item_type(i) == kind
            ]
            if cited:
                groups.append(f"<h2>{esc(kind)}</h2>{''.join(cited)}")
        content = (
            f'<p><a href="/view/year/">Up a level</a></p><h1>Items where Year is {year}</h1><p>Number of items: '
            f"{len(items)}.</p>{''.join(groups)}"
        )
        return self.page(title=f"Items where Year is {year}", content=content, kind="year")

    def _divisions(self, request: Request) -> Response:
        rows = "".join(
            f'<li><a href="/view/divisions/{url_slug(name)}/">{esc(name)}</a> '
            f"({sum(i.category == name for i in self.items)})</li>"
            for name in sorted(set(self.spec.categories.values()))
        )
        content = f"<h1>Browse by Division</h1><p>Faculty of Science and Medicine</p><ul>{rows}</ul>"
        return self.page(title="Browse by Division", content=content, kind="divisions")

    def _division(self, request: Request, slug: str) -> Response:
        items = [i for i in self.items if url_slug(i.category) == slug]
        if not items:
            return self.not_found()
        years = sorted({i.year for i in items}, reverse=True)
        jump = " | ".join(f'<a href="#group_{y}">{y}</a>' for y in years)
        groups = "".join(
            f'<h2 id="group_{y}">{y}</h2>' + "".join(self._citation(i) for i in items if i.year == y) for y in years
        )
        content = (
            f'<p><a href="/view/divisions/">Up a level</a></p><h1>Items where Division is "{esc(items[0].category)}"'
            f"</h1><p>Jump to: {jump}</p><p>Number of items: {len(items)}.</p>{groups}"
        )
        return self.page(title=items[0].category, content=content, kind="division")

    def _latest(self, request: Request) -> Response:
        ordered = sorted(self.items, key=lambda i: (deposited(i), i.id), reverse=True)
        pages = -(-len(ordered) // LATEST_PER_PAGE)
        page = request.int_param("page", 1, minimum=1, maximum=pages)
        rows = "".join(
            f'<tr><td><a href="{attr(i.path)}">{esc(_cut(i.title))}</a></td>'
            f"<td>{esc(_surname_first(i.authors[0]))}{' et al.' if len(i.authors) > 1 else ''}</td>"
            f"<td>{ordinal_date(deposited(i))}</td></tr>"
            for i in ordered[(page - 1) * LATEST_PER_PAGE : page * LATEST_PER_PAGE]
        )
        newer = f'<a href="/latest/?page={page - 1}">« Newer entries</a>' if page > 1 else ""
        older = f'<a href="/latest/?page={page + 1}">Older entries »</a>' if page < pages else ""
        content = (
            "<h1>Latest Additions</h1><p>Items deposited most recently first.</p><table><tr><th>Title</th>"
            f"<th>Author</th><th>Deposited</th></tr>{rows}</table>"
            f'<p class="pager">{newer} Page {page} of {pages} {older}</p>'
        )
        return self.page(title="Latest Additions", content=content, kind="latest")

    # ------------------------------------------------------------------ items

    def _eprint(self, request: Request, serial: str) -> Response:
        item = self.item_at(f"/id/eprint/{serial}/")
        if item is None:
            return self.not_found()
        published = date.fromisoformat(item.date)
        rows = [
            ("Item Type", _item_type(item)),
            ("Divisions", f"Faculty of Science and Medicine > {item.category}"),
            ("Keywords", "; ".join(item.keywords)),
            ("Publication date", ordinal_date(published)),
            ("Date deposited", ordinal_date(deposited(item))),
            ("Last modified", ordinal_date(deposited(item) + timedelta(days=3 + int(serial) % 90))),
            ("Depositing user", "Repository Administrator"),
            ("URI", self.links.absolute(item.path)),
        ]
        table = "".join(f'<tr><th align="right">{esc(name)}:</th><td>{esc(value)}</td></tr>' for name, value in rows)
        content = (
            f"<h1>{esc(item.title)}</h1><p>Authors: {esc('; '.join(_surname_first(a) for a in item.authors))}</p>"
            f'<h2>Abstract</h2><p>{esc(item.abstract)}</p><p><a href="{attr(item.pdf_path)}">Download (PDF) - Accepted '
            f"Version</a></p><table>{table}</table>"
        )
        return self.page(title=item.title, content=content, kind="eprint")

    def _file(self, request: Request, serial: str, name: str) -> Response:
        item = self.item_at(f"/id/eprint/{serial}/")
        return self.pdf(item) if item and item.pdf_path.endswith(f"/{name}.pdf") else self.not_found()

    def _search(self, request: Request) -> Response:
        text = request.param("q")
        found = search_items(self.items, text) if text.strip() else []
        listed = "".join(self._citation(i) for i in found[:20]) or "<p>Search has no matches.</p>"
        return self.page(
            title="Search", content=f"<h1>Simple search</h1><p>{len(found)} results.</p>{listed}", kind="search"
        )
