"""HELD OUT, fresh (fifteenth batch): the Journal of Quantitative Ecology, built as PKP's Open Journal Systems 3
builds a journal with its default theme (see `fresh_heldout15.py`; do not read or tune anything to it). The root
redirects to the journal's home, which shows the current issue's table of contents; the archive lists issues newest
first, eight a page (`/issue/archive/2`); an issue's table of contents groups its articles by section (an editorial
and a software review in every issue beside the research sections), each with its authors, pages and PDF galley.
An article's landing page gives its authors with affiliations, DOI, keywords, abstract, the galley, "Published"
with the day as OJS writes it (2024-03-15), "How to Cite", the issue and the section, and the Google Scholar and
Dublin Core meta tags. A galley link opens a viewer page framing the download. Links are absolute, as OJS writes
them. Packages of the registry described in an article link to it (one work, two sites). The search, citation
style downloads and user pages are forbidden.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date
from typing import ClassVar

from research_crawler.eval.testbed.decoys import DecoyKind
from research_crawler.eval.testbed.full_text import search_items
from research_crawler.eval.testbed.markup import attr, document, esc, meta_name
from research_crawler.eval.testbed.models import Item
from research_crawler.eval.testbed.site_app import Request, Response, Route, SiteApp

__all__ = ["ISSUES_PER_PAGE", "JOURNAL", "Fresh15OjsSite", "Issue", "galley_id", "issue_of", "issues"]

JOURNAL = "/index.php/jqe"
ISSUES_PER_PAGE = 8
#: The sections of every issue, in the journal's order; the research ones are the spec's categories.
SECTIONS = ("Editorial", "Methods", "Applications", "Software Reviews")
_AFFILIATIONS = (
    "University of St Andrews",
    "Norwegian Institute for Nature Research",
    "University of Cape Town",
    "Swiss Federal Institute of Aquatic Science and Technology",
    "University of Wisconsin-Madison",
    "CSIRO Land and Water",
    "Universidade Federal do Paraná",
)
_EDITOR = "Marguerite Olander"
#: The links of every page's chrome.
_CHROME = {
    "home": "/index",
    "current": "/issue/current",
    "archives": "/issue/archive",
    "about": "/about",
    "register": "/user/register",
    "login": "/login",
    "search": "/search/search",
    "privacy": "/about/privacy",
    "contact": "/about/contact",
}
_REVIEWED = ("the unmarked package", "the secr package", "the Distance software", "the brms package")


def _hash(text: str) -> int:
    return sum(ord(c) * (n + 3) for n, c in enumerate(text))


def galley_id(item: Item) -> int:
    """The PDF galley's id, the last segment of the item's download path."""
    return int(item.pdf_path.rsplit("/", 1)[1])


@dataclass(frozen=True)
class Issue:
    """An issue: one every two months, volume one in 2022."""

    year: int
    number: int
    articles: tuple[Item, ...]

    @property
    def id(self) -> int:
        return 7 + (self.year - 2022) * 6 + self.number

    @property
    def path(self) -> str:
        return f"{JOURNAL}/issue/view/{self.id}"

    @property
    def label(self) -> str:
        return f"Vol. {self.year - 2021} No. {self.number} ({self.year})"

    @property
    def published(self) -> date:
        """The day the issue was closed: its last article's."""
        return max(date.fromisoformat(i.date) for i in self.articles)


def issue_of(item: Item) -> tuple[int, int]:
    day = date.fromisoformat(item.date)
    return day.year, (day.month - 1) // 2 + 1


def issues(items: list[Item]) -> list[Issue]:
    """The journal's issues, newest first, each with its articles in the order they were published."""
    keys = sorted({issue_of(i) for i in items}, reverse=True)
    return [
        Issue(year, number, tuple(sorted((i for i in items if issue_of(i) == (year, number)), key=lambda i: i.date)))
        for year, number in keys
    ]


class Fresh15OjsSite(SiteApp):
    """An OJS 3 journal: home with the current issue, issue archive, tables of contents, articles, galleys."""

    decoy_paths: ClassVar[dict[str, DecoyKind]] = {
        f"{JOURNAL}/about": "about",
        f"{JOURNAL}/about/privacy": "privacy",
        f"{JOURNAL}/about/contact": "contact",
    }

    def routes(self) -> list[Route]:
        self.issues = issues(self.items)
        self.by_id = {i.key: i for i in self.items}
        self.issue_by_id = {issue.id: issue for issue in self.issues}
        return [
            (re.compile(r"/"), lambda request: Response.redirect(f"{JOURNAL}/index", status=302)),
            (re.compile(r"/index\.php(/index)?"), lambda request: Response.redirect(f"{JOURNAL}/index", status=302)),
            (re.compile(rf"{JOURNAL}(/index)?"), self._home),
            (re.compile(rf"{JOURNAL}/issue/current"), self._current),
            (re.compile(rf"{JOURNAL}/issue/archive(/(?P<page>\d+))?"), self._archive),
            (re.compile(rf"{JOURNAL}/issue/view/(?P<number>\d+)"), self._issue),
            (re.compile(rf"{JOURNAL}/article/view/(?P<key>\d+)"), self._article),
            (re.compile(rf"{JOURNAL}/article/view/(?P<key>\d+)/(?P<galley>\d+)"), self._galley),
            (re.compile(rf"{JOURNAL}/article/download/(?P<key>\d+)/(?P<galley>\d+)"), self._download),
            (re.compile(rf"{JOURNAL}/search(/search)?"), self._search),
        ]

    def robots_txt(self) -> str:
        return (
            "User-agent: *\nDisallow: /index.php/*/search\nDisallow: /index.php/*/citationstylelanguage/\n"
            "Disallow: /index.php/*/user/\nDisallow: /index.php/*/login\nDisallow: /cache/\n"
        )

    def sample_paths(self) -> dict[str, str]:
        item = self.items[0]
        return {
            "home": f"{JOURNAL}/index",
            "current": f"{JOURNAL}/issue/current",
            "archive": f"{JOURNAL}/issue/archive",
            "issue": self.issues[-1].path,
            "article": item.path,
            "galley": f"{item.path}/{galley_id(item)}",
            "download": item.pdf_path,
        }

    def _url(self, path: str) -> str:
        return self.links.absolute(path)

    def page(self, *, title: str, content: str, kind: str, status: int = 200, head: str = "") -> Response:
        url = {name: attr(self._url(JOURNAL + path)) for name, path in _CHROME.items()}
        nav = "".join(f'<li><a href="{url[name]}">{name.title()}</a></li>' for name in ("current", "archives", "about"))
        body = (
            '<div class="pkp_structure_page"><header class="pkp_structure_head" id="headerNavigationContainer">'
            f'<div class="pkp_site_name"><a href="{url["home"]}" class="is_text">Journal of Quantitative Ecology</a>'
            f'</div><nav class="pkp_site_nav_menu"><ul id="navigationPrimary" class="pkp_navigation_primary pkp_nav_'
            f'list">{nav}</ul><ul id="navigationUser"><li><a href="{url["register"]}">Register</a></li><li><a href="'
            f'{url["login"]}">Login</a></li></ul><div class="pkp_navigation_search_wrapper"><a href="{url["search"]}" '
            'class="pkp_search pkp_search_desktop">Search</a></div></nav></header>\n'
            f'<div class="pkp_structure_content"><div class="pkp_structure_main" role="main">{content}</div>'
            '<div class="pkp_structure_sidebar"><div class="pkp_block block_information"><h2 class="title">Information'
            f'</h2><ul><li><a href="{url["privacy"]}">Privacy Statement</a></li><li><a href="{url["contact"]}">Contact'
            '</a></li></ul></div></div></div>\n<div class="pkp_structure_footer_wrapper"><p>ISSN 2791-4410</p><a '
            'href="https://pkp.sfu.ca/ojs/">Open Journal Systems</a></div></div>'
        )
        html = document(title=f"{title} | Journal of Quantitative Ecology", head=head, body=body)
        return Response.html(html, kind=kind, status=status)

    # ------------------------------------------------------------------ issues

    def _summary(self, item: Item, pages: str) -> str:
        galley = self._url(f"{item.path}/{galley_id(item)}")
        return (
            f'<div class="obj_article_summary"><h3 class="title"><a id="article-{item.key}" href="'
            f'{attr(self._url(item.path))}">{esc(item.title)}</a></h3><div class="meta"><div class="authors">'
            f'{esc(", ".join(item.authors))}</div><div class="pages">{pages}</div></div><ul class="galleys_links">'
            f'<li><a class="obj_galley_link pdf" href="{attr(galley)}" aria-labelledby="article-{item.key}">PDF</a>'
            "</li></ul></div>"
        )

    def _toc(self, issue: Issue) -> str:
        first = 1
        sections = []
        for section in SECTIONS:
            if section == "Editorial":
                rows = [
                    f'<div class="obj_article_summary"><h3 class="title">Editorial: {esc(issue.label)}</h3><div '
                    f'class="meta"><div class="authors">{_EDITOR}</div><div class="pages">i-ii</div></div></div>'
                ]
            elif section == "Software Reviews":
                reviewed = _REVIEWED[issue.id % len(_REVIEWED)]
                rows = [
                    f'<div class="obj_article_summary"><h3 class="title">Software review: {esc(reviewed)}</h3><div '
                    f'class="meta"><div class="authors">Tobias Greenhalgh</div></div></div>'
                ]
            else:
                rows = []
                for item in (i for i in issue.articles if i.category == section):
                    length = 9 + _hash(item.key) % 14
                    rows.append(self._summary(item, f"{first}-{first + length - 1}"))
                    first += length
            if rows:
                sections.append(
                    f'<div class="section"><h2>{esc(section)}</h2><ul class="cmp_article_list articles">'
                    + "".join(f"<li>{row}</li>" for row in rows)
                    + "</ul></div>"
                )
        return (
            f'<div class="obj_issue_toc"><div class="heading"><div class="published"><span class="label">Published:'
            f'</span> <span class="value">{issue.published.isoformat()}</span></div></div>{"".join(sections)}</div>'
        )

    def _home(self, request: Request) -> Response:
        current = self.issues[0]
        content = (
            '<div class="page_index_journal"><section class="homepage_about"><h2>About the Journal</h2><p>The Journal '
            "of Quantitative Ecology publishes statistical methods for ecology and the environment, with the software "
            f'that implements them.</p></section><section class="current_issue"><h2>Current Issue</h2><div '
            f'class="current_issue_title">{esc(current.label)}</div>{self._toc(current)}<a href="'
            f'{attr(self._url(JOURNAL + "/issue/archive"))}" class="read_more">View All Issues</a></section></div>'
        )
        return self.page(title="Journal of Quantitative Ecology", content=content, kind="home")

    def _current(self, request: Request) -> Response:
        return self._issue(request, str(self.issues[0].id))

    def _archive(self, request: Request, page: str | None = None) -> Response:
        pages = max(1, -(-len(self.issues) // ISSUES_PER_PAGE))
        number = int(page) if page else 1
        if not 1 <= number <= pages:
            return self.not_found()
        shown = self.issues[(number - 1) * ISSUES_PER_PAGE : number * ISSUES_PER_PAGE]
        rows = "".join(
            f'<li><div class="obj_issue_summary"><h2><a class="title" href="{attr(self._url(issue.path))}">'
            f'{esc(issue.label)}</a></h2><div class="description"><p>{len(issue.articles)} research articles</p></div>'
            "</div></li>"
            for issue in shown
        )
        links = []
        if number > 1:
            links.append(f'<a class="prev" href="{attr(self._archive_url(number - 1))}">Previous</a>')
        if number < pages:
            links.append(f'<a class="next" href="{attr(self._archive_url(number + 1))}">Next</a>')
        start = (number - 1) * ISSUES_PER_PAGE + 1
        content = (
            f'<div class="page page_issue_archive"><h1>Archives</h1><ul class="issues_archive">{rows}</ul><div '
            f'class="cmp_pagination" aria-label="View additional issues">{" ".join(links)}<span class="current">'
            f"{start}-{start + len(shown) - 1} of {len(self.issues)}</span></div></div>"
        )
        return self.page(title="Archives", content=content, kind="archive")

    def _archive_url(self, number: int) -> str:
        return self._url(f"{JOURNAL}/issue/archive" + (f"/{number}" if number > 1 else ""))

    def _issue(self, request: Request, number: str) -> Response:
        issue = self.issue_by_id.get(int(number))
        if issue is None:
            return self.not_found()
        content = (
            f'<div class="page page_issue"><nav class="cmp_breadcrumbs"><a href="{attr(self._url(JOURNAL + "/index"))}'
            f'">Home</a> / <a href="{attr(self._url(JOURNAL + "/issue/archive"))}">Archives</a> / <span class="'
            'current">'
            f"{esc(issue.label)}</span></nav><h1>{esc(issue.label)}</h1>{self._toc(issue)}</div>"
        )
        return self.page(title=issue.label, content=content, kind="issue")

    # ------------------------------------------------------------------ one article

    def _affiliation(self, name: str) -> str:
        return _AFFILIATIONS[_hash(name) % len(_AFFILIATIONS)]

    def _article(self, request: Request, key: str) -> Response:
        item = self.by_id.get(key)
        if item is None:
            return self.not_found()
        issue = next(i for i in self.issues if item in i.articles)
        day = date.fromisoformat(item.date)
        galley = self._url(f"{item.path}/{galley_id(item)}")
        head = (
            meta_name("citation_journal_title", "Journal of Quantitative Ecology")
            + meta_name("citation_issn", "2791-4410")
            + "".join(
                meta_name("citation_author", a) + meta_name("citation_author_institution", self._affiliation(a))
                for a in item.authors
            )
            + meta_name("citation_title", item.title)
            + meta_name("citation_date", day.strftime("%Y/%m/%d"))
            + meta_name("citation_volume", str(issue.year - 2021))
            + meta_name("citation_issue", str(issue.number))
            + meta_name("citation_doi", item.doi or "")
            + meta_name("citation_pdf_url", self._url(item.pdf_path))
            + meta_name("DC.Date.issued", item.date)
            + "".join(meta_name("DC.Creator.PersonalName", a) for a in item.authors)
        )
        authors = "".join(
            f'<li><span class="name">{esc(a)}</span><span class="affiliation">{esc(self._affiliation(a))}</span></li>'
            for a in item.authors
        )
        surnames = [a.rsplit(" ", 1) for a in item.authors]
        cited = ", ".join(f"{s[-1]}, {s[0][:1]}." for s in surnames)
        package = ""
        for copy in self.testbed.copies_of(item):
            if copy.site != item.site:
                where = self.links.on_site(copy.site, copy.path)
                package = f'<p>The package is available from CRAN: <a href="{attr(where)}">{esc(where)}</a>.</p>'
        styles = "".join(
            f'<li><a href="{attr(self._url(f"{JOURNAL}/citationstylelanguage/get/{s}?submissionId={item.key}"))}">'
            f"{s.upper()}</a></li>"
            for s in ("apa", "harvard-cite-them-right", "ieee")
        )
        content = (
            f'<div class="page page_article"><nav class="cmp_breadcrumbs"><a href="{attr(self._url(issue.path))}">'
            f'{esc(issue.label)}</a> / <span class="current">{esc(item.category)}</span></nav><article class="obj_'
            f'article_details"><h1 class="page_title">{esc(item.title)}</h1><div class="row"><div class="main_entry">'
            f'<section class="item authors"><ul class="authors">{authors}</ul></section><section class="item doi">'
            f'<h2 class="label">DOI:</h2><span class="value"><a href="https://doi.org/{attr(item.doi)}">https://doi.'
            f'org/{esc(item.doi)}</a></span></section><section class="item keywords"><h2 class="label">Keywords:</h2>'
            f'<span class="value">{esc(", ".join(item.keywords))}</span></section><section class="item abstract"><h2 '
            f'class="label">Abstract</h2><p>{esc(item.abstract)}</p>{package}</section></div><div class="entry_'
            'details">'
            f'<div class="item galleys"><ul class="value galleys_links"><li><a class="obj_galley_link pdf" href="'
            f'{attr(galley)}">PDF</a></li></ul></div><div class="item published"><section class="sub_item"><h2 class="'
            f'label">Published</h2><div class="value"><span>{item.date}</span></div></section></div><div class="item '
            'citation"><section class="sub_item citation_display"><h2 class="label">How to Cite</h2><div class="value">'
            f'<div id="citationOutput"><div class="csl-entry">{esc(cited)} ({day.year}). {esc(item.title)}. <i>Journal'
            f" of Quantitative Ecology</i>, <i>{issue.year - 2021}</i>({issue.number}). https://doi.org/{esc(item.doi)}"
            f'</div></div><ul class="citation_formats_styles">{styles}</ul></div></section></div><div class="item '
            f'issue"><section class="sub_item"><h2 class="label">Issue</h2><div class="value"><a class="title" href="'
            f'{attr(self._url(issue.path))}">{esc(issue.label)}</a></div></section><section class="sub_item"><h2 '
            f'class="label">Section</h2><div class="value">{esc(item.category)}</div></section></div><div class="item '
            'copyright"><p>Copyright (c) the authors. This work is licensed under a Creative Commons Attribution 4.0 '
            "International License.</p></div></div></div></article></div>"
        )
        return self.page(title=item.title, content=content, kind="article", head=head)

    def _galley(self, request: Request, key: str, galley: str) -> Response:
        item = self.by_id.get(key)
        if item is None or galley_id(item) != int(galley):
            return self.not_found()
        download = self._url(item.pdf_path)
        body = (
            f'<header class="header_view"><a href="{attr(self._url(item.path))}" class="return"><span class="pkp_'
            f'screen_reader">Return to Article Details</span></a><a href="{attr(self._url(item.path))}" class="title">'
            f'{esc(item.title)}</a><a href="{attr(download)}" class="download" download><span class="label">Download'
            '</span></a></header><div id="pdfCanvasContainer" class="galley_view"><iframe src="'
            f'{attr(self._url("/plugins/generic/pdfJsViewer/pdf.js/web/viewer.html?file=" + download))}" width="100%" '
            'height="100%" allowfullscreen webkitallowfullscreen></iframe></div>'
        )
        html = document(title=f"View of {item.title}", head="", body=body, body_class="pkp_page_article pkp_op_view")
        return Response.html(html, kind="galley")

    def _download(self, request: Request, key: str, galley: str) -> Response:
        item = self.by_id.get(key)
        return self.pdf(item) if item is not None and galley_id(item) == int(galley) else self.not_found()

    def _search(self, request: Request) -> Response:
        text = request.param("query")
        found = search_items(self.items, text) if text else []
        rows = "".join(self._summary(i, "") for i in found)
        return self.page(title="Search", content=f"<h1>Search</h1>{rows}", kind="search")
