"""HELD OUT, fresh (seventeenth batch): the Social Research Exchange, built as SSRN builds its working-paper network
(see `fresh_heldout17.py`; do not read or tune anything to it). `/` redirects to the network's home
(`/index.cfm/en/`), which shows the newest papers and leads to the research networks (`/index.cfm/en/ern/`); a
network lists its eJournals, and an eJournal's browse page (`/sol3/JELJOUR_Results.cfm?form_name=journalBrowse&
journal_id=1473`) lists its papers newest posted first, five a page (`&npage=2`), each with its pages and "Posted"
day; a paper sits in two eJournals. A paper's abstract page (`/abstract=4712345`, the network's short link) gives its
authors with affiliations and links to their author pages (`/author=1234567`), "Date Written" and "Posted" as SSRN
writes them, pages, keywords and JEL codes, download counts, the suggested citation and citation meta tags; a paper
the community journal published later links to it. Search and delivery pages are forbidden.
"""

from __future__ import annotations

import hashlib
import re
from datetime import date, timedelta
from typing import ClassVar
from urllib.parse import urlencode

from research_crawler.eval.testbed.decoys import DecoyKind
from research_crawler.eval.testbed.markup import MONTHS, attr, document, esc, meta_name
from research_crawler.eval.testbed.models import Item
from research_crawler.eval.testbed.site_app import Request, Response, Route, SiteApp

__all__ = [
    "EJOURNALS",
    "NETWORKS",
    "PER_PAGE",
    "Fresh17PapersSite",
    "author_id",
    "ejournals_of",
    "posted",
    "posted_order",
    "written",
]

PER_PAGE = 5
#: eJournals (id → name): each topic's own, and the one it is also classified in.
EJOURNALS = {
    1473: "Transportation Economics eJournal",
    1318: "Labor Markets: Contracts & Earnings eJournal",
    1541: "Urban Economics eJournal",
    1589: "Employment Law eJournal",
}
_ALSO = {"congestion": 1541, "gig": 1589}
#: Research networks (code → name, their eJournals).
NETWORKS = {
    "ern": ("Economics Research Network", (1473, 1318, 1541)),
    "lsn": ("Legal Scholarship Network", (1589,)),
}
_UNIVERSITIES = (
    "KTH Royal Institute of Technology",
    "University of Chicago",
    "Universidad Carlos III de Madrid",
    "University of Oslo",
    "National University of Singapore",
    "Columbia University",
    "Universitas Indonesia",
)
_JEL = {"congestion": ("R41", "R48", "H23", "D62"), "gig": ("J31", "J22", "D14", "J41")}


def _hash(text: str) -> int:
    return sum(ord(c) * (n + 5) for n, c in enumerate(text))


def written(item: Item) -> date:
    """'Date Written': the day the paper is dated and cited by."""
    return date.fromisoformat(item.date)


def posted(item: Item) -> date:
    """'Posted': when the network put the paper up, days after it was written."""
    return written(item) + timedelta(days=_hash(item.key) % 20)


def posted_order(items: list[Item]) -> list[Item]:
    return sorted(items, key=lambda i: (posted(i), i.key), reverse=True)


def ejournals_of(item: Item) -> tuple[int, int]:
    """The paper's two eJournals: its topic's own and the one it is also classified in."""
    own = next(n for n, name in EJOURNALS.items() if name == item.category)
    return own, _ALSO[item.topic.split("-")[0]]


def author_id(name: str) -> int:
    return 1_000_000 + int(hashlib.sha1(name.encode()).hexdigest()[:10], 16) % 8_000_000


def _long(day: date) -> str:
    return f"{MONTHS[day.month - 1]} {day.day}, {day.year}"


def _short(day: date) -> str:
    """A day as SSRN's 'Posted' line writes it ('5 Mar 2024')."""
    return f"{day.day} {day:%b %Y}"


def _inverted(name: str) -> str:
    given, _, surname = name.rpartition(" ")
    return f"{surname}, {given}"


class Fresh17PapersSite(SiteApp):
    """An SSRN-like network: home, networks, eJournal browse pages, abstract pages, author pages."""

    decoy_paths: ClassVar[dict[str, DecoyKind]] = {
        "/index.cfm/en/about-ssrn/": "about",
        "/index.cfm/en/ssrn-faq/": "help",
        "/index.cfm/en/privacy/": "privacy",
    }

    def routes(self) -> list[Route]:
        self.by_key = {i.key: i for i in self.items}
        self.authors = {author_id(a): a for i in self.items for a in i.authors}
        return [
            (re.compile(r"/"), lambda request: Response.redirect("/index.cfm/en/", status=302)),
            (re.compile(r"/index\.cfm/en/"), self._home),
            (re.compile(r"/index\.cfm/en/(?P<code>[a-z]+)/"), self._network),
            (re.compile(r"/sol3/JELJOUR_Results\.cfm"), self._ejournal),
            (re.compile(r"/abstract=(?P<key>\d+)"), self._abstract),
            (re.compile(r"/author=(?P<number>\d+)"), self._author),
            (re.compile(r"/sol3/Delivery\.cfm/SSRN_ID(?P<key>\d+)_code\d+\.pdf"), self._delivery),
        ]

    def robots_txt(self) -> str:
        return (
            "User-agent: *\nDisallow: /sol3/results.cfm\nDisallow: /sol3/Delivery.cfm\nDisallow: /sol3/ShoppingCart.cfm"
            "\nDisallow: /sol3/updates.cfm\nDisallow: /sol3/login.cfm\n"
        )

    def sample_paths(self) -> dict[str, str]:
        item = self.items[0]
        return {
            "home": "/index.cfm/en/",
            "network": "/index.cfm/en/ern/",
            "ejournal": self._browse_url(ejournals_of(item)[0]),
            "abstract": item.path,
            "author": f"/author={author_id(item.authors[0])}",
        }

    def page(self, *, title: str, content: str, kind: str, status: int = 200, head: str = "") -> Response:
        site = self.spec.title
        body = (
            f'<header class="header"><div class="container"><a class="logo" href="/index.cfm/en/" title="{attr(site)}">'
            f'{esc(site)}</a><form class="search" action="/sol3/results.cfm" method="get"><input type="text" name='
            '"txtKey_Words" placeholder="Search titles, abstracts, authors"><button type="submit">Search</button>'
            "</form>"
            '<nav class="links"><a href="/index.cfm/en/">Browse</a> <a href="/sol3/updates.cfm">Submit a paper</a> <a '
            'href="/sol3/login.cfm">Sign in</a></nav></div></header>\n'
            f'<div class="container main-content">{content}</div>\n<footer class="footer"><a href="/index.cfm/en/'
            'about-ssrn/">About</a> <a href="/index.cfm/en/ssrn-faq/">FAQ</a> <a href="/index.cfm/en/privacy/">Privacy '
            "Policy</a> <p>All content on this site: Copyright Social Research Exchange. All rights reserved.</p>"
            "</footer>"
        )
        return Response.html(document(title=f"{title} :: {site}", head=head, body=body), kind=kind, status=status)

    def _browse_url(self, journal: int, page: int = 1) -> str:
        query = {"form_name": "journalBrowse", "journal_id": str(journal)}
        return "/sol3/JELJOUR_Results.cfm?" + urlencode(query | ({"npage": str(page)} if page > 1 else {}))

    def _entry(self, item: Item) -> str:
        names = ", ".join(f'<a href="/author={author_id(a)}">{esc(a)}</a>' for a in item.authors)
        pages = 18 + _hash(item.title) % 40
        return (
            f'<div class="description"><h3><a class="title optClickTitle" href="{attr(item.path)}">{esc(item.title)}'
            f'</a></h3><div class="authors-list">{names}</div><div class="note-list"><span>{pages} Pages</span> '
            f"<span>Posted: {_short(posted(item))}</span></div></div>"
        )

    def _home(self, request: Request) -> Response:
        newest = "".join(self._entry(i) for i in posted_order(self.items)[:5])
        networks = "".join(
            f'<li><a href="/index.cfm/en/{code}/">{esc(name)}</a></li>' for code, (name, _) in NETWORKS.items()
        )
        content = (
            f'<section class="intro"><h1>{esc(self.spec.title)}</h1><p>{esc(self.spec.tagline)}. Share your research '
            'early, read the work of others for free.</p></section><section class="networks"><h2>Research Networks</h2>'
            f'<ul>{networks}</ul></section><section class="recent"><h2>Recently Posted</h2>{newest}</section>'
        )
        return self.page(title="Home", content=content, kind="home")

    def _network(self, request: Request, code: str) -> Response:
        if code not in NETWORKS:
            return self.not_found()
        name, journals = NETWORKS[code]
        rows = "".join(
            f'<li><a href="{attr(self._browse_url(j))}">{esc(EJOURNALS[j])}</a> <span class="count">'
            f"({sum(1 for i in self.items if j in ejournals_of(i))} papers)</span></li>"
            for j in journals
        )
        content = f'<h1>{esc(name)}</h1><h2>eJournals</h2><ul class="journals">{rows}</ul>'
        return self.page(title=name, content=content, kind="collection")

    def _ejournal(self, request: Request) -> Response:
        journal = request.int_param("journal_id", 0)
        if journal not in EJOURNALS or request.param("form_name") != "journalBrowse":
            return self.not_found()
        found = posted_order([i for i in self.items if journal in ejournals_of(i)])
        pages = max(1, -(-len(found) // PER_PAGE))
        page = request.int_param("npage", 1, minimum=1, maximum=pages)
        shown = "".join(self._entry(i) for i in found[(page - 1) * PER_PAGE : page * PER_PAGE])
        pager = " ".join(
            f"<span>{n}</span>" if n == page else f'<a href="{attr(self._browse_url(journal, n))}">{n}</a>'
            for n in range(1, pages + 1)
        )
        if page < pages:
            pager += f' <a href="{attr(self._browse_url(journal, page + 1))}">Next</a>'
        content = (
            f'<h1>{esc(EJOURNALS[journal])}</h1><p class="sort">Sorted by: Date Posted, Descending</p><p>'
            f'{len(found)} papers</p><div class="papers">{shown}</div><div class="pagination">{pager}</div>'
        )
        return self.page(title=EJOURNALS[journal], content=content, kind="listing" if page > 1 else "search")

    def _abstract(self, request: Request, key: str) -> Response:
        item = self.by_key.get(key)
        if item is None:
            return self.not_found()
        family = item.topic.split("-")[0]
        authors = "".join(
            f'<h2><a href="/author={author_id(a)}">{esc(a)}</a></h2><p>'
            f"{esc(_UNIVERSITIES[_hash(a) % len(_UNIVERSITIES)])}</p>"
            for a in item.authors
        )
        doi = f"10.2139/ssrn.{item.key}"
        revised = posted(item) + timedelta(days=30 + _hash(item.title) % 200)
        pages = 18 + _hash(item.title) % 40
        jel = ", ".join(_JEL.get(family, ("Z00",))[: 2 + _hash(item.key) % 3])
        notes = f"<span>{pages} Pages</span><span>Posted: {_short(posted(item))}</span>"
        if _hash(item.key) % 3 == 0:
            notes += f"<span>Last revised: {_short(revised)}</span>"
        published = ""
        for copy in self.testbed.copies_of(item):
            if copy.site != item.site:
                where = self.links.on_site(copy.site, copy.path)
                published = (
                    f'<p class="published-in">Published in: <a href="{attr(where)}">'
                    f"{esc(self.testbed.site(copy.site).title)}</a>, {copy.date[:4]}</p>"
                )
        cited = " and ".join(_inverted(a) for a in item.authors)
        citation = (
            f"{esc(cited)}, {esc(item.title)} ({_long(written(item))}). Available at SSRN: <a href="
            f'"{attr(self.links.absolute(item.path))}">{esc(self.links.absolute(item.path))}</a> or <a href='
            f'"https://dx.doi.org/{doi}">http://dx.doi.org/{doi}</a>'
        )
        journals = "".join(
            f'<li><a href="{attr(self._browse_url(j))}">{esc(EJOURNALS[j])}</a></li>' for j in ejournals_of(item)
        )
        head = (
            meta_name("citation_title", item.title)
            + "".join(meta_name("citation_author", _inverted(a)) for a in item.authors)
            + meta_name("citation_publication_date", f"{written(item):%Y/%m/%d}")
            + meta_name("citation_online_date", f"{posted(item):%Y/%m/%d}")
            + meta_name("citation_doi", doi)
            + meta_name("citation_abstract_html_url", self.links.absolute(item.path))
            + meta_name("citation_keywords", "; ".join(item.keywords))
            + meta_name("description", item.abstract)
        )
        content = (
            f'<div class="box-abstract-main"><h1>{esc(item.title)}</h1><div class="authors">{authors}</div><p '
            f'class="note note-list">{notes}</p><div class="reference-info"><p>Date Written: {_long(written(item))}'
            f'</p></div>{published}<div class="abstract-text"><h3>Abstract</h3><p>{esc(item.abstract)}</p><p><strong>'
            f"Keywords:</strong> {esc(', '.join(item.keywords))}</p><p><strong>JEL Classification:</strong> {jel}</p>"
            f'</div><div class="suggested-citation"><h3>Suggested Citation:</h3><p>{citation}</p></div></div><aside '
            f'class="sidebar"><a class="button-link primary" href="{attr(item.pdf_path)}?abstractid={item.key}&amp;'
            f'mirid=1">Download This Paper</a><div class="stats"><h3>Paper statistics</h3><p>Downloads '
            f"{40 + _hash(item.title) % 1200}</p><p>Abstract Views {300 + _hash(item.key + item.title) % 5000}</p>"
            f'</div><div class="journals"><h3>Related eJournals</h3><ul>{journals}</ul></div></aside>'
        )
        return self.page(title=item.title, content=content, kind="article", head=head)

    def _author(self, request: Request, number: str) -> Response:
        name = self.authors.get(int(number))
        if name is None:
            return self.not_found()
        theirs = posted_order([i for i in self.items if name in i.authors])
        rows = "".join(self._entry(i) for i in theirs)
        content = (
            f'<div class="author-page"><h1>{esc(name)}</h1><p>{esc(_UNIVERSITIES[_hash(name) % len(_UNIVERSITIES)])}'
            f'</p><h2>Papers ({len(theirs)})</h2><div class="papers">{rows}</div></div>'
        )
        return self.page(title=name, content=content, kind="author")

    def _delivery(self, request: Request, key: str) -> Response:
        item = self.by_key.get(key)
        return self.pdf(item) if item is not None else self.not_found()
