"""HELD OUT, fresh (fifth batch): the National Water and Health Agency's report series (see `fresh_heldout5.py`; do
not read or tune anything to it). Numbered reports ("Report 2024/17"); a publications page filtered by select boxes
(a GET form by year and topic, "Apply filters") and paged "Next page ›"; a landing page per report with its number,
"Published 17/05/2024", who prepared it, a summary and a PDF download; robots.txt forbids the site search and the
drafts of consultations.
"""

from __future__ import annotations

import re
from typing import ClassVar
from urllib.parse import urlencode

from research_crawler.eval.testbed.decoys import DecoyKind
from research_crawler.eval.testbed.full_text import search_items
from research_crawler.eval.testbed.markup import attr, document, esc, url_slug
from research_crawler.eval.testbed.models import Item
from research_crawler.eval.testbed.site_app import Request, Response, Route, SiteApp

__all__ = ["PER_PAGE", "PUBLICATIONS", "Fresh5ReportsSite", "report_number", "uk_date"]

PUBLICATIONS = "/publications"
PER_PAGE = 8


def report_number(item: Item) -> str:
    """'2024-17' → 'Report 2024/17'."""
    year, serial = item.key.split("-")
    return f"Report {year}/{serial}"


def uk_date(day: str) -> str:
    """'2024-05-17' → '17/05/2024'."""
    return f"{day[8:10]}/{day[5:7]}/{day[:4]}"


def _page_link(params: dict[str, str], number: int) -> str:
    return f"{PUBLICATIONS}?{urlencode(params | {'page': str(number)})}"


class Fresh5ReportsSite(SiteApp):
    """An agency's report series: a publications page narrowed by a GET form of select boxes, landing pages."""

    decoy_paths: ClassVar[dict[str, DecoyKind]] = {
        "/about-us": "about",
        "/contact-us": "contact",
        "/accessibility": "accessibility",
        "/privacy": "privacy",
    }

    def routes(self) -> list[Route]:
        return [
            (re.compile(r"/"), self._home),
            (re.compile(PUBLICATIONS), self._publications),
            (re.compile(rf"{PUBLICATIONS}/reports/(?P<key>\d{{4}}-\d+)"), self._landing),
            (re.compile(r"/media/reports/NWHA-report-(?P<key>\d{4}-\d+)\.pdf"), self._file),
            (re.compile(r"/search"), self._search),
        ]

    def robots_txt(self) -> str:
        return "User-agent: *\nDisallow: /search\nDisallow: /consultations/drafts/\n"

    def sample_paths(self) -> dict[str, str]:
        item = self.items[0]
        return {"home": "/", "publications": PUBLICATIONS, "filtered": f"{PUBLICATIONS}?year={item.year}",
                "landing": item.path}  # fmt: skip

    def page(self, *, title: str, content: str, kind: str, status: int = 200, head: str = "") -> Response:
        body = (
            '<a class="skip" href="#main">Skip to main content</a>'
            f'<header class="govuk-header"><a href="/">{esc(self.spec.title)}</a>'
            '<nav><a href="/">Home</a> <a href="/publications">Publications</a> <a href="/consultations/">'
            'Consultations</a> <a href="/about-us">About us</a></nav>'
            '<form action="/search" method="get"><input name="q" aria-label="Search this site">'
            "<button>Search</button></form></header>\n"
            f'<main id="main">{content}</main>\n'
            '<footer><a href="/accessibility">Accessibility</a> · <a href="/privacy">Privacy</a> · '
            '<a href="/contact-us">Contact us</a> · © Crown copyright</footer>'
        )
        html = document(title=f"{title} - {self.spec.title}", head=head, body=body, lang="en-GB")
        return Response.html(html, kind=kind, status=status)

    def _topics(self) -> list[str]:
        return list(dict.fromkeys(self.spec.categories.values()))

    def _home(self, request: Request) -> Response:
        latest = "".join(
            f'<li><a href="{attr(i.path)}">{esc(report_number(i))}: {esc(i.title)}</a></li>' for i in self.items[:2]
        )
        content = (
            f"<h1>{esc(self.spec.title)}</h1><p>{esc(self.spec.tagline)}. We publish the evidence behind our advice "
            "as numbered reports, free to read.</p>"
            f'<h2>Latest reports</h2><ul>{latest}</ul><p><a href="{PUBLICATIONS}">All publications</a></p>'
            '<h2>Have your say</h2><p>Our <a href="/consultations/">open consultations</a> close on 31 December.</p>'
        )
        return self.page(title="Home", content=content, kind="home")

    def _publications(self, request: Request) -> Response:
        year, topic = request.param("year"), request.param("topic")
        chosen = [
            i for i in self.items if (not year or str(i.year) == year) and (not topic or url_slug(i.category) == topic)
        ]
        pages = max(1, -(-len(chosen) // PER_PAGE))
        number = request.int_param("page", 1, minimum=1, maximum=pages)
        shown = chosen[(number - 1) * PER_PAGE : number * PER_PAGE]
        rows = "".join(
            f'<li class="document"><a href="{attr(i.path)}">{esc(i.title)}</a><p>{esc(report_number(i))} · '
            f"{esc(i.category)}</p></li>"
            for i in shown
        )
        years = "".join(
            f'<option value="{y}"{" selected" if str(y) == year else ""}>{y}</option>'
            for y in sorted({i.year for i in self.items}, reverse=True)
        )
        topics = "".join(
            f'<option value="{url_slug(t)}"{" selected" if url_slug(t) == topic else ""}>{esc(t)}</option>'
            for t in self._topics()
        )
        form = (
            f'<form action="{PUBLICATIONS}" method="get"><label>Year <select name="year"><option value="">All years'
            f'</option>{years}</select></label> <label>Topic <select name="topic"><option value="">All topics'
            f"</option>{topics}</select></label> <button>Apply filters</button></form>"
        )
        params = {k: v for k, v in (("year", year), ("topic", topic)) if v}
        pager = ""
        if number > 1:
            pager += f'<a href="{attr(_page_link(params, number - 1))}">‹ Previous page</a> '
        if number < pages:
            pager += f'<a href="{attr(_page_link(params, number + 1))}">Next page ›</a>'
        content = (
            f"<h1>Publications</h1>{form}<p>{len(chosen)} publications · page {number} of {pages}</p>"
            f'<ul class="documents">{rows}</ul><nav class="pagination">{pager}</nav>'
        )
        return self.page(title="Publications", content=content, kind="publications")

    def _landing(self, request: Request, key: str) -> Response:
        item = self.item_at(f"{PUBLICATIONS}/reports/{key}")
        if item is None:
            return self.not_found()
        prepared = ", ".join(item.authors[:-1]) + " and " + item.authors[-1] if item.authors[1:] else item.authors[0]
        content = (
            f'<p class="caption">{esc(report_number(item))}</p><h1>{esc(item.title)}</h1>'
            f"<dl><dt>Published</dt><dd>{uk_date(item.date)}</dd><dt>Topic</dt><dd>{esc(item.category)}</dd>"
            f"<dt>Prepared by</dt><dd>{esc(prepared)}</dd></dl><h2>Summary</h2><p>{esc(item.abstract)}</p>"
            f'<p><a href="{attr(item.pdf_path)}">Download {esc(report_number(item))} (PDF, 1.2 MB)</a></p>'
            f"<h2>How to cite</h2><p>{esc(self.spec.title)} ({item.year}). {esc(item.title)}. "
            f"{esc(report_number(item))}.</p>"
        )
        return self.page(title=f"{report_number(item)}: {item.title}", content=content, kind="landing")

    def _file(self, request: Request, key: str) -> Response:
        item = self.item_at(f"{PUBLICATIONS}/reports/{key}")
        return self.not_found() if item is None else self.pdf(item)

    def _search(self, request: Request) -> Response:
        found = search_items(self.items, request.param("q")) if request.param("q").strip() else []
        rows = "".join(f'<li><a href="{attr(i.path)}">{esc(i.title)}</a></li>' for i in found)
        return self.page(title="Search", content=f"<h1>Search results</h1><ul>{rows}</ul>", kind="search")
