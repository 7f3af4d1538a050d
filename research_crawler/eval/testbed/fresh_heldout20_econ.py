"""HELD OUT, fresh (twentieth batch): EconLit Index, built as IDEAS shows the RePEc index of economics working papers
(see `fresh_heldout20.py`; do not read or tune anything to it). The home page shows the latest additions and leads
to the working-paper series of each institution (`/s/`, then `/s/cor/wpaper.html`: every paper of the series on one
page under year headings, numbers descending, each a title and its authors joined by "&") and to the NEP reports
(`/n/`, then `/n/nep-mig/`: the report's weekly issues by date, each issue `/n/nep-mig/2024-03-17.html` listing the
papers it announced). A record (`/p/cor/wpaper/2024-37.html`) gives the title, the listed authors and, linked, the
registered ones, the abstract, the suggested citation ("Ana Lima & Bruno Souza, 2024. "Title," Documentos de Trabajo
2024-37, Instituto de Economía, Universidad de Coromandel."), "Date: 2024-03-12", the handle, the file, the JEL codes,
keywords, the NEP issues that announced it, the published version in a journal where there is one (one work, two
sites) and citation meta tags with the year alone. Registered authors have pages (`/e/pli123.html`) listing their
working papers. The search, the reference lists and the correction forms under /cgi-bin/ are forbidden.
"""

from __future__ import annotations

import re
import unicodedata
from datetime import date, timedelta
from typing import ClassVar

from research_crawler.eval.testbed.decoys import DecoyKind
from research_crawler.eval.testbed.fresh_heldout20 import ARCHIVES, archive_of
from research_crawler.eval.testbed.markup import attr, document, esc, meta_name
from research_crawler.eval.testbed.models import Item
from research_crawler.eval.testbed.site_app import Request, Response, Route, SiteApp

__all__ = [
    "REPORTS",
    "Fresh20EconSite",
    "author_page",
    "by_number",
    "citation",
    "issue_day",
    "newest_first",
    "registered",
]

#: NEP reports (code → the field it announces, its editor); a paper's report is its site category.
REPORTS: dict[str, tuple[str, str]] = {
    "nep-mig": ("Economics of Human Migration", "Yvonne Giesing"),
    "nep-mfd": ("Microfinance", "Aastha Pudasainee"),
}
_JEL = {
    "Economics of Human Migration": (
        "F22 - International Migration",
        "F24 - Remittances",
        "I25 - Education and Economic Development",
        "J13 - Fertility; Family Planning; Child Care; Children; Youth",
        "O15 - Human Resources; Human Development; Income Distribution; Migration",
    ),
    "Microfinance": (
        "G21 - Banks; Depository Institutions; Micro Finance Institutions; Mortgages",
        "D14 - Household Saving; Personal Finance",
        "O16 - Financial Markets; Saving and Capital Investment; Corporate Finance and Governance",
        "O17 - Formal and Informal Sectors; Shadow Economy; Institutional Arrangements",
        "Z13 - Economic Sociology; Economic Anthropology; Social and Economic Stratification",
    ),
}


def _hash(text: str) -> int:
    return sum(ord(c) * (n + 37) for n, c in enumerate(text))


def newest_first(items: list[Item]) -> list[Item]:
    return sorted(items, key=lambda i: (i.date, i.key), reverse=True)


def by_number(items: list[Item]) -> list[Item]:
    """A series page's order: years newest first, and within a year the highest number first."""
    return sorted(items, key=lambda i: (int(i.key.rsplit(":", 1)[1][:4]), int(i.key.rsplit("-", 1)[1])), reverse=True)


def issue_day(item: Item) -> date:
    """The NEP issue that announced the paper: the Sunday after it appeared (the same day when that is a Sunday)."""
    day = date.fromisoformat(item.date)
    return day + timedelta(days=(6 - day.weekday()) % 7)


def _ascii(text: str) -> str:
    """Lower-case ASCII letters of `text` ('Müller' → 'muller'), as short-IDs are written."""
    folded = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    return re.sub(r"[^a-z]", "", folded.lower()) or "x"


def registered(name: str) -> bool:
    """Whether the author has registered with RePEc (then the record links a page of theirs)."""
    return _hash(name) % 4 != 0


def author_page(name: str) -> str:
    """A registered author's page ('/e/pli123.html': 'p', initials of the surname, a number)."""
    given, _, surname = (_ascii(part) for part in name.rpartition(" "))
    return f"/e/p{surname[:2]}{given[:1]}{_hash(name) % 900 + 100}.html"


def _number(item: Item) -> str:
    return item.key.rsplit(":", 1)[1]


def citation(item: Item) -> str:
    """The suggested citation as IDEAS writes it (text, the title in quotes)."""
    series, institution = ARCHIVES[archive_of(item.title)]
    return f'{" & ".join(item.authors)}, {item.year}. "{item.title}," {series} {_number(item)}, {institution}.'


class Fresh20EconSite(SiteApp):
    """An IDEAS-like index: home, series by institution, NEP reports and issues, records, author pages."""

    decoy_paths: ClassVar[dict[str, DecoyKind]] = {"/about": "about", "/help": "help", "/privacy": "privacy"}

    def routes(self) -> list[Route]:
        self.by_path_number = {(archive_of(i.title), _number(i)): i for i in self.items}
        self.authors = {author_page(a): a for i in self.items for a in i.authors if registered(a)}
        return [
            (re.compile(r"/"), self._home),
            (re.compile(r"/s/"), self._archives),
            (re.compile(r"/s/(?P<code>[a-z]{3})/wpaper\.html"), self._series),
            (re.compile(r"/n/"), self._reports),
            (re.compile(r"/n/(?P<code>nep-[a-z]{3})/"), self._report),
            (re.compile(r"/n/(?P<code>nep-[a-z]{3})/(?P<day>\d{4}-\d{2}-\d{2})\.html"), self._issue),
            (re.compile(r"/p/(?P<code>[a-z]{3})/wpaper/(?P<number>\d{4}-\d{2,3})\.html"), self._record),
            (re.compile(r"/e/(?P<page>p[a-z]+\d{3})\.html"), self._author),
            (re.compile(r"/files/(?P<code>[a-z]{3})/wp(?P<number>\d{6,7})\.pdf"), self._file),
        ]

    def robots_txt(self) -> str:
        return "User-agent: *\nDisallow: /cgi-bin/\nDisallow: /login/\nDisallow: /r/\nDisallow: /stats/\n"

    def sample_paths(self) -> dict[str, str]:
        item = self.items[0]
        return {
            "home": "/",
            "archives": "/s/",
            "series": f"/s/{archive_of(item.title)}/wpaper.html",
            "reports": "/n/",
            "report": "/n/nep-mig/",
            "issue": f"/n/{self._report_of(item)}/{issue_day(item)}.html",
            "record": item.path,
        }

    def page(self, *, title: str, content: str, kind: str, status: int = 200, head: str = "") -> Response:
        site = self.spec.title
        body = (
            f'<div id="header"><a id="logo" href="/">{esc(site)}</a><form action="/cgi-bin/htsearch" method="get" '
            'id="searchform"><input type="text" name="q" placeholder="Search econ literature"><input type="submit" '
            'value="Search"></form><ul class="nav"><li><a href="/s/">Working paper series</a></li><li><a href="/n/">'
            'NEP reports</a></li><li><a href="/about">About</a></li><li><a href="/login/">My account</a></li></ul>'
            f'</div><div id="content-block">{content}</div><div id="footer"><a href="/help">Help</a> | <a href='
            f'"/privacy">Privacy</a> | {esc(site)} uses data from RePEc archives maintained by their institutions.'
            "</div>"
        )
        title = f"{title} | {site}" if title != site else site
        return Response.html(document(title=title, head=head, body=body), kind=kind, status=status)

    def _report_of(self, item: Item) -> str:
        return next(code for code, (field, _) in REPORTS.items() if field == item.category)

    def _line(self, item: Item) -> str:
        return (
            f'<li class="list-group-item"><a href="{attr(item.path)}">{esc(item.title)}</a><br><i>'
            f"{esc(' & '.join(item.authors))}</i></li>"
        )

    def _home(self, request: Request) -> Response:
        latest = "".join(self._line(i) for i in newest_first(self.items)[:5])
        content = (
            f"<h1>{esc(self.spec.title)}</h1><p>{esc(self.spec.tagline)}, as their institutions deposit them in "
            'RePEc.</p><h2>Browse</h2><ul><li><a href="/s/">Working paper series by institution</a></li><li><a '
            'href="/n/">NEP: New Economics Papers, weekly reports by field</a></li></ul><h2>Latest additions</h2>'
            f'<ul class="list-group">{latest}</ul>'
        )
        return self.page(title=self.spec.title, content=content, kind="home")

    def _archives(self, request: Request) -> Response:
        rows = "".join(
            f'<li><a href="/s/{code}/wpaper.html">{esc(series)}</a>, {esc(institution)} '
            f"({sum(archive_of(i.title) == code for i in self.items)} papers)</li>"
            for code, (series, institution) in sorted(ARCHIVES.items(), key=lambda kv: kv[1][1])
        )
        return self.page(
            title="Working paper series", content=f"<h1>Working paper series</h1><ul>{rows}</ul>", kind="collection"
        )

    def _series(self, request: Request, code: str) -> Response:
        if code not in ARCHIVES:
            return self.not_found()
        series, institution = ARCHIVES[code]
        papers = by_number([i for i in self.items if archive_of(i.title) == code])
        years: dict[int, list[Item]] = {}
        for item in papers:
            years.setdefault(int(_number(item)[:4]), []).append(item)
        blocks = "".join(
            f'<h3 id="{year}">{year}</h3><ol class="list-group">'
            + "".join(
                f'<li class="list-group-item">{esc(_number(i))} <a href="{attr(i.path)}">{esc(i.title)}</a><br><i>'
                f"{esc(' & '.join(i.authors))}</i></li>"
                for i in chosen
            )
            + "</ol>"
            for year, chosen in years.items()
        )
        jumps = " ".join(f'<a href="#{year}">{year}</a>' for year in years)
        content = (
            f"<h1>{esc(series)}</h1><p>From {esc(institution)}</p><p>Series handle: RePEc:{code}:wpaper</p>"
            f'<p class="years">{jumps}</p>{blocks}'
        )
        return self.page(title=f"{series}, {institution}", content=content, kind="listing")

    def _reports(self, request: Request) -> Response:
        rows = "".join(
            f'<li><a href="/n/{code}/">{code.upper()}</a>: {esc(field)}, edited by {esc(editor)}</li>'
            for code, (field, editor) in REPORTS.items()
        )
        content = (
            "<h1>NEP: New Economics Papers</h1><p>Each week the editors of NEP choose the new working papers of "
            f"their field and announce them in an issue of their report.</p><ul>{rows}</ul>"
        )
        return self.page(title="NEP reports", content=content, kind="collection")

    def _announced(self, code: str) -> dict[date, list[Item]]:
        field = REPORTS[code][0]
        issues: dict[date, list[Item]] = {}
        for item in newest_first([i for i in self.items if i.category == field]):
            issues.setdefault(issue_day(item), []).append(item)
        return dict(sorted(issues.items(), reverse=True))

    def _report(self, request: Request, code: str) -> Response:
        if code not in REPORTS:
            return self.not_found()
        field, editor = REPORTS[code]
        rows = "".join(
            f'<li><a href="/n/{code}/{day}.html">{day}</a> ({len(papers)} paper{"s" if len(papers) > 1 else ""})</li>'
            for day, papers in self._announced(code).items()
        )
        content = f"<h1>{code.upper()}: {esc(field)}</h1><p>Edited by {esc(editor)}</p><h2>Issues</h2><ul>{rows}</ul>"
        return self.page(title=f"{code.upper()}: {field}", content=content, kind="listing")

    def _issue(self, request: Request, code: str, day: str) -> Response:
        papers = self._announced(code).get(date.fromisoformat(day), []) if code in REPORTS else []
        if not papers:
            return self.not_found()
        field, editor = REPORTS[code]
        rows = "".join(
            f'<li><a href="{attr(i.path)}">{esc(i.title)}</a><br>By: {esc("; ".join(i.authors))}<br>'
            f"Abstract: {esc(i.abstract)}</li>"
            for i in papers
        )
        content = (
            f"<h1>New Economics Papers on {esc(field)}</h1><p>Issue of {day}, {len(papers)} papers chosen by "
            f"{esc(editor)}</p><ol>{rows}</ol>"
        )
        return self.page(title=f"{code.upper()} {day}", content=content, kind="listing")

    def _record(self, request: Request, code: str, number: str) -> Response:
        item = self.by_path_number.get((code, number))
        if item is None:
            return self.not_found()
        series, institution = ARCHIVES[code]
        listed = "".join(f"<li>{esc(a)}</li>" for a in item.authors)
        linked = "".join(f'<li><a href="{author_page(a)}">{esc(a)}</a></li>' for a in item.authors if registered(a))
        jel = _JEL[item.category]
        codes = "; ".join(jel[(_hash(item.title) + n) % len(jel)] for n in range(3))
        report = self._report_of(item)
        copies = [c for c in self.testbed.copies_of(item) if c.site != item.site]
        versions = "".join(
            f'<h3>Other versions of this item:</h3><ul><li>{esc(" & ".join(c.authors))}, {c.year}. "{esc(c.title)},"'
            f' <a href="{attr(self.links.on_site(c.site, c.path))}">{esc(self.testbed.site(c.site).title)}</a>, '
            f"DOI: {esc(c.doi)}.</li></ul>"
            for c in copies
        )
        head = (
            meta_name("citation_title", item.title)
            + "".join(meta_name("citation_author", " ".join(reversed(a.rsplit(" ", 1)))) for a in item.authors)
            + meta_name("citation_publication_date", str(item.year))
            + meta_name("citation_technical_report_institution", institution)
            + meta_name("citation_technical_report_number", number)
            + meta_name("citation_pdf_url", self.links.absolute(item.pdf_path))
        )
        content = (
            f'<div id="title"><h1>{esc(item.title)}</h1></div><div id="author-body"><h3>Author</h3><ul><li>Listed:'
            f"<ul>{listed}</ul></li>" + (f"<li>Registered:<ul>{linked}</ul></li>" if linked else "") + "</ul></div>"
            f'<div id="abstract-body"><h3>Abstract</h3><p>{esc(item.abstract)}</p></div><h3>Suggested Citation</h3>'
            f'<p class="citation">{esc(citation(item))}</p><h3>Handle</h3><p>{esc(item.key)}</p>'
            f'<h3>Download full text from publisher</h3><p>File URL: <a href="{attr(item.pdf_path)}">'
            f"{esc(self.links.absolute(item.pdf_path))}</a><br>File Function: First version<br>Download "
            f"Restriction: no</p>{versions}<h3>Bibliographic Info</h3><p>Paper provided by <a href="
            f'"/s/{code}/wpaper.html">{esc(institution)}</a> in its series {esc(series)} with number {esc(number)}.'
            f"</p><p>Date: {item.date}</p><h3>More about this item</h3><p>Keywords: "
            f"{esc('; '.join(item.keywords))}</p><p>JEL classification: {esc(codes)}</p><h3>NEP fields</h3><p>This "
            f'paper has been announced in the following NEP Reports: <a href="/n/{report}/{issue_day(item)}.html">'
            f"{report.upper()}-{issue_day(item)} ({esc(item.category)})</a></p><h3>Corrections</h3><p>All material "
            f'on this site has been provided by the respective publishers and authors. <a href="/cgi-bin/'
            f'authorref.cgi?handle={attr(item.key)}">Correct this item</a> · <a href="/r/{code}/wpaper/{number}">'
            "References</a></p>"
        )
        return self.page(title=item.title, content=content, kind="article", head=head)

    def _author(self, request: Request, page: str) -> Response:
        name = self.authors.get(f"/e/{page}.html")
        if name is None:
            return self.not_found()
        given, _, surname = name.rpartition(" ")
        papers = newest_first([i for i in self.items if name in i.authors])
        rows = "".join(
            f'<li>{esc(" & ".join(i.authors))}, {i.year}. "<a href="{attr(i.path)}">{esc(i.title)}</a>," '
            f"{esc(ARCHIVES[archive_of(i.title)][0])} {esc(_number(i))}, {esc(ARCHIVES[archive_of(i.title)][1])}.</li>"
            for i in papers
        )
        content = (
            f"<h1>{esc(name)}</h1><h2>Personal Details</h2><table><tr><td>First Name:</td><td>{esc(given)}</td></tr>"
            f"<tr><td>Last Name:</td><td>{esc(surname)}</td></tr><tr><td>RePEc Short-ID:</td><td>{page}</td></tr>"
            f"</table><h2>Research output</h2><h3>Working papers</h3><ol>{rows}</ol>"
        )
        return self.page(title=name, content=content, kind="listing")

    def _file(self, request: Request, code: str, number: str) -> Response:
        item = next((i for i in self.items if i.pdf_path == f"/files/{code}/wp{number}.pdf"), None)
        return self.pdf(item) if item is not None else self.not_found()
