"""HELD OUT, fresh (eighteenth batch): the Department of Anaesthesia and Perioperative Medicine, built as a Drupal 7
university department site with the Biblio module (see `fresh_heldout18.py`; do not read or tune anything to it).
The front page shows the latest news teasers and a "Recent publications" block; the news view (`/news`) pages five
posts by Drupal's pager, which counts from zero (`?page=1` is the second page); a post ("Submitted by webmaster on
Thu, 03/14/2024 - 10:22") announces a paper in words of its own, among seminars, awards and open days, and links its
node. The Biblio list (`/publications`) groups citations under year separators, ten a page, sorted within a year by
title, with sort links (title, author, type, year) and author filters (`?f[author]=12`); a publication node
(`/node/1234`) is Biblio's table: type, year, authors "Surname, Given", journal, "Date Published" as a PubMed import
writes it ("2024 Mar 15"), keywords, abstract, DOI, the accepted manuscript, and for papers indexed later the
PubMed ID linked to the literature database (one work, two sites). Staff profiles list their papers. Drupal's
default robots.txt forbids search and user pages; Biblio's exports are forbidden too.
"""

from __future__ import annotations

import re
from datetime import date, datetime, time, timedelta
from typing import ClassVar
from urllib.parse import quote

from research_crawler.eval.testbed.decoys import DecoyKind
from research_crawler.eval.testbed.fresh_heldout18 import journal_of
from research_crawler.eval.testbed.markup import attr, document, esc, meta_name, url_slug
from research_crawler.eval.testbed.models import Item
from research_crawler.eval.testbed.site_app import Request, Response, Route, SiteApp

__all__ = [
    "NEWS_PAGE",
    "PER_PAGE",
    "Fresh18DepartmentSite",
    "News",
    "biblio_date",
    "biblio_order",
    "drupal_submitted",
    "news_of",
]

PER_PAGE = 10
NEWS_PAGE = 5
#: News that announces no paper: (days after 2022-01-01, headline, text).
_OTHER_NEWS = (
    (40, "Welcome to our new clinical fellows", "Six clinical fellows joined the department this month."),
    (300, "Open day for prospective trainees", "Come and see our simulation suite and meet the team."),
    (520, "Teaching award for the perioperative medicine course", "Our course was voted the best in the faculty."),
    (760, "Seminar: sustainable anaesthesia", "A visiting speaker on the carbon footprint of anaesthetic gases."),
    (990, "New simulation centre opens", "The centre hosts courses for anaesthetists and theatre nurses."),
    (1240, "Departmental research day", "Posters and short talks from across the department's research themes."),
    (1530, "Staff news: retirement of the theatre manager", "We thank our theatre manager for thirty years."),
)
_HEADLINES = (
    "New paper in {journal}",
    "Congratulations to {surname} and colleagues",
    "Our research featured in {journal}",
    "{surname} group publishes new study",
)


def _hash(text: str) -> int:
    return sum(ord(c) * (n + 19) for n, c in enumerate(text))


def biblio_date(day: date) -> str:
    """'Date Published' as Biblio's PubMed import writes it ('2024 Mar 15')."""
    return f"{day:%Y %b} {day.day}"


def drupal_submitted(moment: datetime) -> str:
    """Drupal 7's submitted line ('Thu, 03/14/2024 - 10:22')."""
    return f"{moment:%a, %m/%d/%Y - %H:%M}"


def biblio_order(items: list[Item]) -> list[Item]:
    """Biblio's default list: newest year first, then by title within a year."""
    return sorted(items, key=lambda i: (-i.year, i.title.lower()))


def _surname(name: str) -> str:
    return name.rpartition(" ")[2]


class News:
    """A news post: its alias, headline, when it was submitted, its text and the paper it announces, if any."""

    def __init__(self, slug: str, headline: str, moment: datetime, text: str, item: Item | None) -> None:
        self.slug, self.headline, self.moment, self.text, self.item = slug, headline, moment, text, item


def news_of(items: list[Item]) -> list[News]:
    """Every post, newest first: one for about half the papers (a few days after them) and the other news."""
    posts = []
    for item in items:
        if _hash(item.title) % 2 or item.topic.endswith("-other"):
            continue
        day = date.fromisoformat(item.date) + timedelta(days=2 + _hash(item.key) % 9)
        lead = item.authors[-1] if _hash(item.key) % 3 == 0 else item.authors[0]
        headline = _HEADLINES[_hash(item.key) % len(_HEADLINES)].format(
            journal=journal_of(item)[0], surname=_surname(lead)
        )
        text = f"A study led by {lead} has been published. {item.abstract.split('. ')[0]}."
        moment = datetime.combine(day, time(9 + _hash(item.title) % 8, _hash(item.key) % 60))
        posts.append(News(f"{url_slug(headline)}-{item.key}", headline, moment, text, item))
    for days, headline, text in _OTHER_NEWS:
        moment = datetime.combine(date(2022, 1, 1) + timedelta(days=days), time(11, 5))
        posts.append(News(url_slug(headline), headline, moment, text, None))
    return sorted(posts, key=lambda p: p.moment, reverse=True)


class Fresh18DepartmentSite(SiteApp):
    """A Drupal department site: front page, news view, Biblio list and nodes, staff profiles."""

    decoy_paths: ClassVar[dict[str, DecoyKind]] = {"/contact": "contact", "/about": "about", "/privacy": "privacy"}

    def routes(self) -> list[Route]:
        self.news = news_of(self.items)
        self.by_nid = {i.key: i for i in self.items}
        self.names = sorted({a for i in self.items for a in i.authors}, key=lambda a: (_surname(a), a))
        counts = {a: sum(a in i.authors for i in self.items) for a in self.names}
        self.staff = [a for a in self.names if counts[a] >= 2]
        return [
            (re.compile(r"/"), self._front),
            (re.compile(r"/news"), self._news_list),
            (re.compile(r"/news/(?P<slug>[a-z0-9-]+)"), self._post),
            (re.compile(r"/publications"), self._biblio),
            (re.compile(r"/node/(?P<nid>\d+)"), self._node),
            (re.compile(r"/people"), self._people),
            (re.compile(r"/people/(?P<slug>[a-z0-9-]+)"), self._profile),
            (re.compile(r"/sites/default/files/biblio/(?P<nid>\d+)-accepted\.pdf"), self._file),
        ]

    def robots_txt(self) -> str:
        lines = ["/includes/", "/misc/", "/modules/", "/profiles/", "/scripts/", "/themes/", "/admin/"]
        lines += ["/comment/reply/", "/filter/tips/", "/node/add/", "/search/", "/user/register/"]
        lines += ["/user/password/", "/user/login/", "/user/logout/", "/publications/export/", "/?q=admin/"]
        return "#\n# robots.txt\n#\nUser-agent: *\n" + "".join(f"Disallow: {p}\n" for p in lines)

    def sample_paths(self) -> dict[str, str]:
        item = self.items[0]
        return {
            "front": "/",
            "news": "/news?page=1",
            "post": f"/news/{self.news[0].slug}",
            "publications": "/publications?page=1",
            "node": item.path,
            "people": "/people",
            "profile": f"/people/{url_slug(self.staff[0])}",
        }

    def page(self, *, title: str, content: str, kind: str, status: int = 200, head: str = "") -> Response:
        site = self.spec.title
        body = (
            f'<div id="page"><header id="header" role="banner"><a href="/" title="Home" rel="home" id="logo">'
            f'<span>{esc(site)}</span></a><div class="region region-header"><form action="/search/node" method="post"'
            ' id="search-block-form"><input type="text" name="search_block_form" title="Enter the terms you wish to '
            'search for."><input type="submit" value="Search"></form></div></header><nav id="main-menu"><ul class='
            '"menu"><li class="first leaf"><a href="/">Home</a></li><li class="leaf"><a href="/news">News</a></li>'
            '<li class="leaf"><a href="/publications">Publications</a></li><li class="leaf"><a href="/people">People'
            '</a></li><li class="last leaf"><a href="/contact">Contact</a></li></ul></nav><div id="main"><div id='
            f'"content" class="column" role="main"><h1 class="title" id="page-title">{esc(title)}</h1>{content}</div>'
            f'</div><footer id="footer"><p>{esc(site)} · {esc(self.spec.tagline)}</p><a href="/about">About</a> '
            '<a href="/privacy">Privacy</a> <a href="/user/login/">Log in</a></footer></div>'
        )
        head += '<meta name="Generator" content="Drupal 7 (http://drupal.org)" />'
        return Response.html(document(title=f"{title} | {site}", head=head, body=body), kind=kind, status=status)

    @staticmethod
    def _pager(path: str, page: int, pages: int, extra: str = "") -> str:
        """Drupal 7's pager: pages count from zero in the address, from one on the page."""

        def href(n: int) -> str:
            return f"{path}?{extra}page={n}" if n else (f"{path}?{extra.rstrip('&')}" if extra else path)

        if pages <= 1:
            return ""
        items = []
        if page > 0:
            items += [f'<li class="pager-first"><a href="{attr(href(0))}">« first</a></li>']
            items += [f'<li class="pager-previous"><a href="{attr(href(page - 1))}">‹ previous</a></li>']
        for n in range(pages):
            items.append(
                f'<li class="pager-current">{n + 1}</li>'
                if n == page
                else f'<li class="pager-item"><a title="Go to page {n + 1}" href="{attr(href(n))}">{n + 1}</a></li>'
            )
        if page < pages - 1:
            items += [f'<li class="pager-next"><a href="{attr(href(page + 1))}">next ›</a></li>']
            items += [f'<li class="pager-last"><a href="{attr(href(pages - 1))}">last »</a></li>']
        pager = "".join(items)
        return f'<h2 class="element-invisible">Pages</h2><div class="item-list"><ul class="pager">{pager}</ul></div>'

    def _citation(self, item: Item) -> str:
        names = ", ".join(
            f'<a href="/publications?f[author]={self.names.index(a) + 1}" rel="nofollow">{esc(_surname(a))} '
            f"{esc(''.join(p[0] for p in a.split()[:-1]))}</a>"
            for a in item.authors
        )
        day = date.fromisoformat(item.date)
        return (
            f'<div class="biblio-entry"><span class="biblio-authors">{names}</span>. <span class="biblio-title"><a '
            f'href="{attr(item.path)}">{esc(item.title)}</a></span>. <em>{esc(journal_of(item)[0])}</em>. '
            f"{day.year};{100 + _hash(item.key) % 60}({day.month}).</div>"
        )

    def _front(self, request: Request) -> Response:
        teasers = "".join(
            f'<div class="node-teaser"><h2><a href="/news/{p.slug}">{esc(p.headline)}</a></h2><p class="submitted">'
            f'{drupal_submitted(p.moment)}</p><p>{esc(p.text[:120])}…</p><a href="/news/{p.slug}">Read more</a>'
            "</div>"
            for p in self.news[:4]
        )
        recent = sorted(self.items, key=lambda i: i.date, reverse=True)[:5]
        block = "".join(f'<li><a href="{attr(i.path)}">{esc(i.title)}</a></li>' for i in recent)
        content = (
            f'<div class="view-frontpage">{teasers}<a href="/news">More news</a></div><div class="block-biblio">'
            f'<h2>Recent publications</h2><ul>{block}</ul><a href="/publications">All publications</a></div>'
        )
        return self.page(title="Welcome", content=content, kind="home")

    def _news_list(self, request: Request) -> Response:
        pages = max(1, -(-len(self.news) // NEWS_PAGE))
        page = request.int_param("page", 0, maximum=pages - 1)
        rows = "".join(
            f'<div class="views-row"><h3><a href="/news/{p.slug}">{esc(p.headline)}</a></h3><span class='
            f'"date-display-single">{p.moment:%d %B %Y}</span></div>'
            for p in self.news[page * NEWS_PAGE : (page + 1) * NEWS_PAGE]
        )
        content = f'<div class="view-news">{rows}</div>{self._pager("/news", page, pages)}'
        return self.page(title="News", content=content, kind="listing" if page else "collection")

    def _post(self, request: Request, slug: str) -> Response:
        post = next((p for p in self.news if p.slug == slug), None)
        if post is None:
            return self.not_found()
        link = ""
        if post.item is not None:
            link = f'<p>Read the paper: <a href="{attr(post.item.path)}">{esc(post.item.title)}</a></p>'
        content = (
            f'<div class="node node-article"><p class="submitted">Submitted by webmaster on '
            f'{drupal_submitted(post.moment)}</p><div class="field-name-body"><p>{esc(post.text)}</p>{link}</div></div>'
        )
        return self.page(title=post.headline, content=content, kind="news")

    def _biblio(self, request: Request) -> Response:
        found = list(self.items)
        extra = ""
        author = request.int_param("f[author]", 0)
        if 1 <= author <= len(self.names):
            found = [i for i in found if self.names[author - 1] in i.authors]
            extra = f"f[author]={author}&"
        sort = request.param("s", "year")
        if sort == "title":
            found.sort(key=lambda i: i.title.lower())
        elif sort == "author":
            found.sort(key=lambda i: (_surname(i.authors[0]), i.title.lower()))
        else:
            sort, found = "year", biblio_order(found)
        extra += f"s={sort}&" if sort != "year" else ""
        pages = max(1, -(-len(found) // PER_PAGE))
        page = request.int_param("page", 0, maximum=pages - 1)
        rows, year = "", 0
        for item in found[page * PER_PAGE : (page + 1) * PER_PAGE]:
            if sort == "year" and item.year != year:
                year = item.year
                rows += f'<div class="biblio-separator-bar">{year}</div>'
            rows += self._citation(item)
        tabs = " ".join(
            f'<a href="/publications?s={key}&amp;o={"desc" if key == "year" else "asc"}">{name}</a>'
            if key != sort
            else f"[ {name} ]"
            for key, name in (("author", "Author"), ("title", "Title"), ("type", "Type"), ("year", "Year"))
        )
        content = (
            f'<div id="biblio-header"><div class="biblio-export">Export {len(found)} results: <a href="/publications'
            '/export/tagged">Tagged</a> | <a href="/publications/export/xml">XML</a> | <a href="/publications/export/'
            f'bibtex">BibTex</a></div><div class="biblio-sort">Sort by: {tabs}</div></div>{rows}'
            f"{self._pager('/publications', page, pages, extra)}"
        )
        return self.page(title="Publications", content=content, kind="listing" if page else "collection")

    def _node(self, request: Request, nid: str) -> Response:
        item = self.by_nid.get(nid)
        if item is None:
            return self.not_found()
        day = date.fromisoformat(item.date)
        journal, issn = journal_of(item)
        authors = "; ".join(
            f'<a href="/publications?f[author]={self.names.index(a) + 1}">{esc(_surname(a))}, '
            f"{esc(a.rpartition(' ')[0])}</a>"
            for a in item.authors
        )
        rows = [
            ("Publication Type", "Journal Article"),
            ("Year of Publication", str(item.year)),
            ("Authors", authors),
            ("Journal", esc(journal)),
            ("Volume", str(100 + _hash(item.key) % 60)),
            ("Issue", str(day.month)),
            ("Date Published", biblio_date(day)),
            ("ISSN", issn),
            ("Keywords", esc(", ".join(item.keywords))),
            ("Abstract", esc(item.abstract)),
            ("DOI", f'<a href="https://doi.org/{attr(item.doi or "")}">{esc(item.doi)}</a>'),
        ]
        for copy in self.testbed.copies_of(item):
            if copy.site != item.site:
                rows.append(("PubMed ID", f'<a href="{attr(self.links.on_site(copy.site, copy.path))}">{copy.key}</a>'))
        table = "".join(
            f'<tr><td class="biblio-row-title">{label}:&nbsp;&nbsp;</td><td>{value}</td></tr>' for label, value in rows
        )
        files = (
            f'<table class="sticky-enabled"><tr><td><a href="{attr(item.pdf_path)}">{nid}-accepted.pdf</a></td>'
            f"<td>{180 + _hash(item.title) % 700} KB</td></tr></table>"
        )
        head = meta_name("dcterms.title", item.title) + meta_name("dcterms.date", f"{day.year}")
        content = (
            f'<div class="node node-biblio"><div id="biblio-node"><table>{table}</table></div><div class="field-name-'
            f'upload"><h3>Attachment</h3>{files}</div><ul class="links"><li><a href="/publications/export/bibtex/'
            f'{nid}">BibTex</a></li><li><a href="/publications/export/tagged/{nid}">Tagged</a></li><li><a href='
            f'"https://scholar.google.com/scholar?btnG=Search&amp;q={quote(item.title)}">Google Scholar</a></li></ul>'
            "</div>"
        )
        return self.page(title=item.title, content=content, kind="article", head=head)

    def _people(self, request: Request) -> Response:
        rows = "".join(f'<li><a href="/people/{url_slug(a)}">{esc(a)}</a></li>' for a in self.staff)
        content = f'<div class="view-people"><ul>{rows}</ul></div>'
        return self.page(title="People", content=content, kind="collection")

    def _profile(self, request: Request, slug: str) -> Response:
        name = next((a for a in self.staff if url_slug(a) == slug), None)
        if name is None:
            return self.not_found()
        theirs = biblio_order([i for i in self.items if name in i.authors])[:5]
        rows = "".join(self._citation(i) for i in theirs)
        content = (
            f'<div class="node-profile"><p>{esc(name)} is a member of the department.</p><h2>Selected publications'
            f'</h2>{rows}<p><a href="/publications?f[author]={self.names.index(name) + 1}">All publications</a></p>'
            "</div>"
        )
        return self.page(title=name, content=content, kind="author")

    def _file(self, request: Request, nid: str) -> Response:
        item = self.by_nid.get(nid)
        return self.pdf(item) if item is not None else self.not_found()
