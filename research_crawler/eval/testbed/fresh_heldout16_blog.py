"""HELD OUT, fresh (sixteenth batch): the Vine and Cereal Pathology Group's blog, built as Jekyll builds a site with
the minima theme, jekyll-paginate, jekyll-archives, jekyll-feed and jekyll-seo-tag (see `fresh_heldout16.py`; do not
read or tune anything to it). The home page lists posts newest first, five a page, with older pages at `/page2/`; a
post's permalink carries its category and day (`/papers/2024/03/15/title.html`); tag archives (`/tag/grapevine/`)
and year archives (`/2024/`) list every post with its day as minima writes it ("Mar 15, 2024"); `/feed.xml` is an
Atom feed of the ten newest. A post announcing a paper has the group's writer in its byline and its SEO tags, and
the paper's authors only in its text, with the preprint's PDF; posts on deposits of the open archive link to the
record. Lab news posts sit among them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date
from typing import ClassVar

from lxml import etree

from research_crawler.eval.testbed.decoys import DecoyKind
from research_crawler.eval.testbed.markup import attr, document, esc, json_script, meta_name, meta_property, url_slug
from research_crawler.eval.testbed.models import Item
from research_crawler.eval.testbed.site_app import Request, Response, Route, SiteApp

__all__ = ["PER_PAGE", "WRITERS", "Fresh16BlogSite", "Post", "minima_date", "posts", "writer_of"]

PER_PAGE = 5
#: Who writes the group's posts (the byline and the SEO author of every post).
WRITERS = ("Camille Renard", "Hugo Marchetti")
_VENUES = ("Plant Pathology", "Phytopathology", "OENO One", "Agricultural and Forest Meteorology", "bioRxiv")
#: Lab news posts written each year (day of year, title, tag), none about a paper.
_NEWS = (
    (34, "Welcome to our new PhD students", "lab-life"),
    (101, "Field season {year} starts in the experimental vineyard", "fieldwork"),
    (180, "Summer school on plant disease epidemiology", "teaching"),
    (290, "Harvest and a farewell to our interns", "lab-life"),
)
_ATOM = "http://www.w3.org/2005/Atom"


def minima_date(day: date) -> str:
    """A post's day as minima writes it ('Mar 15, 2024')."""
    return f"{day:%b} {day.day}, {day.year}"


def writer_of(title: str) -> str:
    return WRITERS[sum(map(ord, title)) % len(WRITERS)]


@dataclass(frozen=True)
class Post:
    """A blog post: a paper's announcement (`item`) or lab news."""

    path: str
    title: str
    day: date
    tags: tuple[str, ...]
    item: Item | None = None

    @property
    def excerpt(self) -> str:
        if self.item is not None:
            return f"Our new paper is out: {self.item.abstract.split('. ')[0]}."
        return "News from the group this season, with photos from the lab and the field."


def posts(items: list[Item]) -> list[Post]:
    """Every post, newest first: one per item and the year's lab news."""
    made = [Post(i.path, i.title, date.fromisoformat(i.date), (i.category, "new-paper"), i) for i in items]
    for year in sorted({i.year for i in items}):
        for offset, title, tag in _NEWS:
            day = date.fromordinal(date(year, 1, 1).toordinal() + offset)
            text = title.format(year=year)
            made.append(Post(f"/news/{day:%Y/%m/%d}/{url_slug(text)}.html", text, day, (tag,)))
    return sorted(made, key=lambda p: (p.day, p.path), reverse=True)


class Fresh16BlogSite(SiteApp):
    """A Jekyll minima blog: paginated home, posts, tag and year archives, Atom feed."""

    decoy_paths: ClassVar[dict[str, DecoyKind]] = {"/about/": "about", "/contact/": "contact"}

    def routes(self) -> list[Route]:
        self.posts = posts(self.items)
        self.by_post = {p.path: p for p in self.posts}
        return [
            (re.compile(r"/(index\.html)?"), self._home),
            (re.compile(r"/page(?P<number>\d+)/(index\.html)?"), self._home),
            (re.compile(r"/(?P<category>papers|news)/\d{4}/\d{2}/\d{2}/[a-z0-9-]+\.html"), self._post),
            (re.compile(r"/tag/(?P<tag>[a-z-]+)/"), self._tag),
            (re.compile(r"/(?P<year>20\d\d)/"), self._year),
            (re.compile(r"/feed\.xml"), self._feed),
            (re.compile(r"/assets/pdf/[a-z0-9-]+\.pdf"), self._pdf),
        ]

    def sample_paths(self) -> dict[str, str]:
        item = self.items[0]
        return {
            "home": "/",
            "older": "/page2/",
            "post": item.path,
            "tag": f"/tag/{item.category}/",
            "year": f"/{item.year}/",
            "feed": "/feed.xml",
            "pdf": item.pdf_path,
        }

    def page(self, *, title: str, content: str, kind: str, status: int = 200, head: str = "") -> Response:
        site = "Vine and Cereal Pathology Group"
        feed = f'<link type="application/atom+xml" rel="alternate" href="/feed.xml" title="{site}" />'
        body = (
            '<header class="site-header" role="banner"><div class="wrapper"><a class="site-title" rel="author" '
            f'href="/">'
            f'{site}</a><nav class="site-nav"><div class="trigger"><a class="page-link" href="/about/">About</a><a '
            'class="page-link" href="/tag/new-paper/">Papers</a><a class="page-link" href="/contact/">Contact</a></div>'
            f'</nav></div></header>\n<main class="page-content" aria-label="Content"><div class="wrapper">{content}'
            '</div></main>\n<footer class="site-footer h-card"><div class="wrapper"><h2 class="footer-heading">'
            f'{site}</h2><div class="footer-col-wrapper"><p>News and papers from the epidemiology group.</p><a '
            'href="/feed.xml">Subscribe</a></div></div></footer>'
        )
        html = document(title=f"{title} | {site}", head=head + feed, body=body)
        return Response.html(html, kind=kind, status=status)

    def _entry(self, post: Post) -> str:
        return (
            f'<li><span class="post-meta">{minima_date(post.day)}</span><h3><a class="post-link" href="'
            f'{attr(post.path)}">{esc(post.title)}</a></h3><p>{esc(post.excerpt)}</p></li>'
        )

    def _home(self, request: Request, number: str | None = None) -> Response:
        pages = max(1, -(-len(self.posts) // PER_PAGE))
        page = int(number) if number else 1
        if not 1 <= page <= pages or number == "1":
            return self.not_found()
        shown = self.posts[(page - 1) * PER_PAGE : page * PER_PAGE]
        links = []
        if page > 1:
            links.append(f'<a href="{"/" if page == 2 else f"/page{page - 1}/"}" class="previous">&laquo; Newer</a>')
        links.append(f'<span class="page_number">Page: {page} of {pages}</span>')
        if page < pages:
            links.append(f'<a href="/page{page + 1}/" class="next">Older &raquo;</a>')
        content = (
            '<div class="home"><h2 class="post-list-heading">Posts</h2><ul class="post-list">'
            + "".join(self._entry(p) for p in shown)
            + f'</ul><div class="pagination">{" ".join(links)}</div></div>'
        )
        return self.page(title="Home", content=content, kind="home" if page == 1 else "listing")

    def _archive(self, heading: str, shown: list[Post]) -> str:
        rows = "".join(self._entry(p) for p in shown)
        return (
            f'<div class="archive"><h1 class="page-heading">{esc(heading)}</h1><ul class="post-list">{rows}</ul></div>'
        )

    def _tag(self, request: Request, tag: str) -> Response:
        shown = [p for p in self.posts if tag in p.tags]
        if not shown:
            return self.not_found()
        return self.page(title=tag, content=self._archive(f"Tag: {tag}", shown), kind="listing")

    def _year(self, request: Request, year: str) -> Response:
        shown = [p for p in self.posts if p.day.year == int(year)]
        if not shown:
            return self.not_found()
        return self.page(title=year, content=self._archive(f"Year: {year}", shown), kind="listing")

    def _post(self, request: Request, category: str) -> Response:
        post = self.by_post.get(request.path)
        if post is None:
            return self.not_found()
        writer = writer_of(post.title)
        stamp = f"{post.day.isoformat()}T00:00:00+00:00"
        head = (
            meta_property("og:title", post.title)
            + meta_name("author", writer)
            + meta_property("og:type", "article")
            + meta_property("article:published_time", stamp)
            + json_script(
                {
                    "@context": "https://schema.org",
                    "@type": "BlogPosting",
                    "headline": post.title,
                    "datePublished": stamp,
                    "author": {"@type": "Person", "name": writer},
                },
                script_type="application/ld+json",
            )
        )
        if post.item is not None:
            item = post.item
            names = (
                ", ".join(item.authors[:-1]) + f" and {item.authors[-1]}" if len(item.authors) > 1 else item.authors[0]
            )
            venue = _VENUES[sum(map(ord, item.key)) % len(_VENUES)]
            text = (
                f"<p>Our paper by {esc(names)} has just come out in <em>{esc(venue)}</em>.</p><blockquote><p>"
                f'{esc(item.abstract)}</p></blockquote><p>Read it here: <a href="{attr(item.pdf_path)}">full text '
                "(PDF)</a>.</p>"
            )
            for copy in self.testbed.copies_of(item):
                if copy.site != item.site:
                    where = self.links.on_site(copy.site, copy.path)
                    text += (
                        f'<p>It is also deposited in the open archive: <a href="{attr(where)}">{esc(copy.key)}</a>.</p>'
                    )
        else:
            text = "<p>A short note on life in the group. More photos on our social media pages.</p>"
        tags = " ".join(f'<a href="/tag/{t}/">{t}</a>' for t in post.tags)
        content = (
            '<article class="post h-entry" itemscope itemtype="http://schema.org/BlogPosting"><header '
            f'class="post-header"><h1 class="post-title p-name" itemprop="name headline">{esc(post.title)}</h1><p '
            f'class="post-meta"><time class="dt-published" datetime="{stamp}" itemprop="datePublished">'
            f'{minima_date(post.day)}</time> • <span itemprop="author" itemscope itemtype="http://schema.org/Person">'
            f'<span class="p-author h-card" itemprop="name">{esc(writer)}</span></span></p></header><div '
            f'class="post-content e-content" itemprop="articleBody">{text}<p class="tags">Tags: {tags}</p></div>'
            f'<a class="u-url" href="{attr(post.path)}" hidden></a></article>'
        )
        return self.page(title=post.title, content=content, kind="article" if post.item else "news", head=head)

    def _feed(self, request: Request) -> Response:
        feed = etree.Element(f"{{{_ATOM}}}feed", nsmap={None: _ATOM})
        etree.SubElement(feed, f"{{{_ATOM}}}title").text = "Vine and Cereal Pathology Group"
        etree.SubElement(feed, f"{{{_ATOM}}}id").text = self.links.absolute("/feed.xml")
        etree.SubElement(feed, f"{{{_ATOM}}}updated").text = f"{self.posts[0].day.isoformat()}T00:00:00+00:00"
        for post in self.posts[:10]:
            entry = etree.SubElement(feed, f"{{{_ATOM}}}entry")
            etree.SubElement(entry, f"{{{_ATOM}}}title").text = post.title
            etree.SubElement(entry, f"{{{_ATOM}}}link", href=self.links.absolute(post.path), rel="alternate")
            etree.SubElement(entry, f"{{{_ATOM}}}published").text = f"{post.day.isoformat()}T00:00:00+00:00"
            etree.SubElement(entry, f"{{{_ATOM}}}id").text = self.links.absolute(post.path)
            author = etree.SubElement(entry, f"{{{_ATOM}}}author")
            etree.SubElement(author, f"{{{_ATOM}}}name").text = writer_of(post.title)
            etree.SubElement(entry, f"{{{_ATOM}}}summary").text = post.excerpt
        return Response.xml(feed, kind="feed", content_type="application/atom+xml; charset=utf-8")

    def _pdf(self, request: Request) -> Response:
        item = next((i for i in self.items if i.pdf_path == request.path), None)
        return self.pdf(item) if item is not None else self.not_found()
