"""An institutional archive browsed through a deep hierarchy (Cascadia Research Archive): subject → year → month →
records, with breadcrumbs on every page and counts at each level; no search box and no list of recent records, so
every record is four links from the home page (its subjects are listed there). Records carry Highwire tags with
authors as "Surname, Given" and dates as 2024/03/12, and show the date as "March 12, 2024".
"""

from __future__ import annotations

import re
from typing import ClassVar

from research_crawler.eval.testbed.decoys import DecoyKind
from research_crawler.eval.testbed.markup import MONTHS, attr, document, esc, meta_name, tracker, url_slug
from research_crawler.eval.testbed.site_app import Request, Response, Route, SiteApp

__all__ = ["DeepArchiveSite"]


def _us_date(day: str) -> str:
    return f"{MONTHS[int(day[5:7]) - 1]} {int(day[8:10])}, {day[:4]}"


def _inverted(name: str) -> str:
    given, _, surname = name.rpartition(" ")
    return f"{surname}, {given}" if given else name


class DeepArchiveSite(SiteApp):
    """Cascadia: browse subject → year → month → records; breadcrumbs; Highwire tags."""

    decoy_paths: ClassVar[dict[str, DecoyKind]] = {
        "/about": "about",
        "/policies": "terms",
        "/deposit": "submit",
        "/contact": "contact",
    }

    def routes(self) -> list[Route]:
        return [
            (re.compile(r"/"), self._home),
            (re.compile(r"/browse"), self._subjects),
            (re.compile(r"/browse/(?P<subject>[a-z0-9-]+)"), self._years),
            (re.compile(r"/browse/(?P<subject>[a-z0-9-]+)/(?P<year>\d{4})"), self._months),
            (re.compile(r"/browse/(?P<subject>[a-z0-9-]+)/(?P<year>\d{4})/(?P<month>\d{2})"), self._records),
            (re.compile(r"/record/(?P<number>\d+)"), self._record),
            (re.compile(r"/record/(?P<number>\d+)/files/paper\.pdf"), self._file),
        ]

    def sample_paths(self) -> dict[str, str]:
        first = self.items[0]
        subject = url_slug(first.category)
        return {
            "home": "/",
            "subjects": "/browse",
            "years": f"/browse/{subject}",
            "months": f"/browse/{subject}/{first.year}",
            "records": f"/browse/{subject}/{first.year}/{first.date[5:7]}",
            "record": first.path,
        }

    # ------------------------------------------------------------------ chrome

    def page(self, *, title: str, content: str, kind: str, status: int = 200, head: str = "") -> Response:
        body = (
            f'<div id="banner"><a href="/">{esc(self.spec.title)}</a></div>\n<ul id="menu"><li><a href="/">Home</a>'
            '</li><li><a href="/browse">Browse</a></li><li><a href="/deposit">Deposit</a></li><li><a href="/about">'
            f'About</a></li><li><a href="/policies">Policies</a></li></ul>\n<div id="content">{content}</div>\n'
            f'<div id="footer"><a href="/contact">Contact</a> · {esc(self.spec.tagline)}</div>'
        )
        return Response.html(
            document(title=f"{title} - {self.spec.title}", head=f"{tracker('CRA-2')}\n{head}", body=body),
            kind=kind,
            status=status,
        )

    def _subject(self, slug: str) -> str | None:
        return next((c for c in sorted(set(self.spec.categories.values())) if url_slug(c) == slug), None)

    @staticmethod
    def _crumbs(*steps: tuple[str, str | None]) -> str:
        parts = [f'<a href="{attr(href)}">{esc(label)}</a>' if href else esc(label) for label, href in steps]
        return '<p class="breadcrumbs">' + " › ".join(parts) + "</p>"

    # ------------------------------------------------------------------ pages

    def _subject_list(self) -> str:
        return (
            "<ul>"
            + "".join(
                f'<li><a href="/browse/{url_slug(c)}">{esc(c)}</a> ({sum(i.category == c for i in self.items)})</li>'
                for c in sorted(set(self.spec.categories.values()))
            )
            + "</ul>"
        )

    def _home(self, request: Request) -> Response:
        content = (
            f"<h1>{esc(self.spec.title)}</h1><p>{esc(self.spec.tagline)}: theses, articles and reports by our "
            f"researchers.</p><h2>Browse by subject</h2>{self._subject_list()}"
        )
        return self.page(title="Home", content=content, kind="home")

    def _subjects(self, request: Request) -> Response:
        crumbs = self._crumbs(("Home", "/"), ("Browse", None))
        content = f"{crumbs}<h1>Browse by subject</h1>{self._subject_list()}"
        return self.page(title="Browse", content=content, kind="subjects")

    def _years(self, request: Request, subject: str) -> Response:
        name = self._subject(subject)
        if name is None:
            return self.not_found()
        items = [i for i in self.items if i.category == name]
        rows = "".join(
            f'<li><a href="/browse/{subject}/{y}">{y}</a> ({sum(i.year == y for i in items)})</li>'
            for y in sorted({i.year for i in items}, reverse=True)
        )
        crumbs = self._crumbs(("Home", "/"), ("Browse", "/browse"), (name, None))
        return self.page(title=name, content=f"{crumbs}<h1>{esc(name)}</h1><ul>{rows}</ul>", kind="years")

    def _months(self, request: Request, subject: str, year: str) -> Response:
        name = self._subject(subject)
        items = [i for i in self.items if i.category == name and i.year == int(year)]
        if name is None or not items:
            return self.not_found()
        months = sorted({i.date[5:7] for i in items}, reverse=True)
        rows = "".join(
            f'<li><a href="/browse/{subject}/{year}/{m}">{MONTHS[int(m) - 1]}</a> '
            f"({sum(i.date[5:7] == m for i in items)})</li>"
            for m in months
        )
        crumbs = self._crumbs(("Home", "/"), ("Browse", "/browse"), (name, f"/browse/{subject}"), (year, None))
        return self.page(title=f"{name}, {year}", content=f"{crumbs}<h1>{esc(name)}, {year}</h1><ul>{rows}</ul>",
                         kind="months")  # fmt: skip

    def _records(self, request: Request, subject: str, year: str, month: str) -> Response:
        name = self._subject(subject)
        items = [i for i in self.items if i.category == name and i.date[:7] == f"{year}-{month}"]
        if name is None or not items:
            return self.not_found()
        label = f"{MONTHS[int(month) - 1]} {year}"
        rows = "".join(
            f'<li><a href="{attr(i.path)}">{esc(i.title)}</a><br />{esc("; ".join(map(_inverted, i.authors)))}'
            f" ({esc(_us_date(i.date))})</li>"
            for i in items
        )
        crumbs = self._crumbs(
            ("Home", "/"), ("Browse", "/browse"), (name, f"/browse/{subject}"), (year, f"/browse/{subject}/{year}"),
            (MONTHS[int(month) - 1], None),
        )  # fmt: skip
        content = f"{crumbs}<h1>{esc(name)}: {label}</h1><ol>{rows}</ol>"
        return self.page(title=f"{name}, {label}", content=content, kind="records")

    def _record(self, request: Request, number: str) -> Response:
        item = self.item_at(f"/record/{number}")
        if item is None:
            return self.not_found()
        subject = url_slug(item.category)
        head = "\n".join(
            [
                meta_name("citation_title", item.title),
                *(meta_name("citation_author", _inverted(name)) for name in item.authors),
                meta_name("citation_date", item.date.replace("-", "/")),
                meta_name("citation_pdf_url", self.links.absolute(item.pdf_path)),
            ]
        )
        crumbs = self._crumbs(
            ("Home", "/"), ("Browse", "/browse"), (item.category, f"/browse/{subject}"),
            (str(item.year), f"/browse/{subject}/{item.year}"),
            (MONTHS[int(item.date[5:7]) - 1], f"/browse/{subject}/{item.date[:4]}/{item.date[5:7]}"), ("Record", None),
        )  # fmt: skip
        content = (
            f'{crumbs}<h1>{esc(item.title)}</h1><table class="record"><tr><th>Authors</th><td>'
            f"{esc('; '.join(map(_inverted, item.authors)))}</td></tr><tr><th>Date</th><td>{esc(_us_date(item.date))}"
            f"</td></tr><tr><th>Subject</th><td>{esc(item.category)}</td></tr><tr><th>Abstract</th><td>"
            f'{esc(item.abstract)}</td></tr></table><p><a href="{attr(item.pdf_path)}">paper.pdf</a></p>'
        )
        return self.page(title=item.title, content=content, kind="record", head=head)

    def _file(self, request: Request, number: str) -> Response:
        item = self.item_at(f"/record/{number}")
        return self.pdf(item) if item else self.not_found()
