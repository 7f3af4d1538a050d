"""HELD OUT, fresh (twelfth batch): Riverwatch Notes, the newsletter of a rivers trust's research team, built as
Substack-like publications are (see `fresh_heldout12.py`; do not read or tune anything to it). The home page shows
the latest posts; the archive and each section show twelve and scroll the rest in by script from a JSON API
(`/api/v1/archive?sort=new&offset=12&limit=12`); listings date this year's posts without their year ("Mar 12"); an
HTML sitemap lists posts by year and month, an XML one (named in robots.txt) lists them all. Research posts, some
with their paper attached as a PDF and some presenting a thesis of the university's repository (linked there), sit
among link roundups, podcast episodes, open threads and posts for paid subscribers; a post page gives the title, a
subtitle, bylines, the date as "Mar 12, 2024", Open Graph tags and a NewsArticle JSON-LD. Comments, sign-in and the
subscribe endpoint are forbidden by robots.txt.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, timedelta
from typing import ClassVar

from lxml import etree

from research_crawler.eval.testbed.decoys import DecoyKind
from research_crawler.eval.testbed.markup import MONTHS, attr, document, esc, json_script, meta_property, url_slug
from research_crawler.eval.testbed.models import Item
from research_crawler.eval.testbed.site_app import Request, Response, Route, SiteApp

__all__ = ["SHOWN", "Fresh12NewsletterSite", "Post", "listed_date", "post_date", "posts"]

SHOWN = 12
THIS_YEAR = 2026
_WRITERS = ("Fen Ashby", "Marcus Ibbotson", "Lowri Pennant")
_GUESTS = ("a bailiff on the night shift", "the trust's first river warden", "a farmer who fenced his banks",
           "an angler who counts mayflies", "the county ecologist", "a kayak club secretary")  # fmt: skip
_BRIEFINGS = ("the abstraction licence review", "our budget for the coming season", "the new board",
              "the water company's sewage figures", "volunteer insurance")  # fmt: skip


def post_date(day: date) -> str:
    """A date as a post's header writes it: 'Mar 12, 2024'."""
    return f"{MONTHS[day.month - 1][:3]} {day.day}, {day.year}"


def listed_date(day: date) -> str:
    """A date as the archive lists it: this year's without the year ('Mar 12'), older ones with it."""
    return f"{MONTHS[day.month - 1][:3]} {day.day}" if day.year == THIS_YEAR else post_date(day)


@dataclass(frozen=True)
class Post:
    """A post: research (`item`, the work) or a roundup, podcast episode, open thread or paid briefing."""

    slug: str
    title: str
    subtitle: str
    day: date
    kind: str
    authors: tuple[str, ...]
    section: str | None = None
    paid: bool = False
    item: Item | None = None

    @property
    def path(self) -> str:
        return f"/p/{self.slug}"

    @property
    def likes(self) -> int:
        return (len(self.title) * 37 + self.day.toordinal()) % 211


def _section(category: str) -> str:
    return url_slug(category)


def posts(items: list[Item]) -> list[Post]:
    """Every post, newest first: the research posts and the trust's other posts between 2022 and now."""
    made = [
        Post(
            i.key, i.title, i.abstract.split(". ")[0] + ".", date.fromisoformat(i.date), "newsletter", i.authors,
            _section(i.category), item=i,
        )
        for i in items
    ]  # fmt: skip
    start = date(2022, 1, 14)
    for n in range(34):
        day = start + timedelta(days=53 * n + (n * 17) % 11)
        if day > date(2026, 11, 20):
            break
        writer = (_WRITERS[n % len(_WRITERS)],)
        if n % 4 == 0:
            made.append(Post(f"riverwatch-links-{n // 4 + 1}", f"Riverwatch links #{n // 4 + 1}",
                             "What we read this month", day, "newsletter", writer))  # fmt: skip
        elif n % 4 == 1:
            guest = _GUESTS[n % len(_GUESTS)]
            made.append(Post(f"episode-{n // 4 + 1}", f"Episode {n // 4 + 1}: A conversation with {guest}",
                             "Listen now", day, "podcast", writer, "podcast"))  # fmt: skip
        elif n % 4 == 2:
            month = f"{MONTHS[day.month - 1]} {day.year}"
            made.append(Post(f"open-thread-{url_slug(month)}", f"Open thread: {month}", "Ask us anything", day,
                             "thread", writer))  # fmt: skip
        else:
            topic = _BRIEFINGS[n % len(_BRIEFINGS)]
            made.append(Post(f"members-briefing-{n}", f"Members' briefing: {topic}", "For paid subscribers", day,
                             "newsletter", writer, paid=True))  # fmt: skip
    return sorted(made, key=lambda p: (p.day, p.slug), reverse=True)


class Fresh12NewsletterSite(SiteApp):
    """A newsletter: home, archive and sections scrolled by script, sitemaps, posts, attachments."""

    decoy_paths: ClassVar[dict[str, DecoyKind]] = {"/about": "about", "/privacy": "privacy", "/tos": "terms"}

    def routes(self) -> list[Route]:
        self.posts = posts(self.items)
        self.by_slug = {p.slug: p for p in self.posts}
        self.sections = {_section(c): c for c in sorted({i.category for i in self.items})} | {"podcast": "Podcast"}
        return [
            (re.compile(r"/"), self._home),
            (re.compile(r"/archive"), self._archive),
            (re.compile(r"/s/(?P<section>[a-z-]+)"), self._section_page),
            (re.compile(r"/api/v1/archive"), self._api),
            (re.compile(r"/sitemap"), self._sitemap),
            (re.compile(r"/sitemap/(?P<year>\d{4})"), self._sitemap_year),
            (re.compile(r"/sitemap\.xml"), self._sitemap_xml),
            (re.compile(r"/p/(?P<slug>[a-z0-9-]+)"), self._post),
            (re.compile(r"/p/(?P<slug>[a-z0-9-]+)/comments"), self._comments),
            (re.compile(r"/api/v1/file/(?P<name>[0-9a-f]+-paper)\.pdf"), self._file),
            (re.compile(r"/subscribe|/sign-in"), self._subscribe),
        ]

    def robots_txt(self) -> str:
        return (
            "User-agent: *\nDisallow: /action/\nDisallow: /publish\nDisallow: /sign-in\nDisallow: /embed\n"
            f"Disallow: /p/*/comments\nDisallow: /api/v1/free\nSitemap: {self.links.absolute('/sitemap.xml')}\n"
        )

    def sample_paths(self) -> dict[str, str]:
        item = self.items[0]
        return {
            "home": "/",
            "archive": "/archive?sort=new",
            "section": f"/s/{_section(item.category)}",
            "api": "/api/v1/archive?sort=new&search=&offset=12&limit=12",
            "sitemap": "/sitemap",
            "year": f"/sitemap/{item.year}",
            "post": item.path,
            "file": item.pdf_path,
        }

    def page(self, *, title: str, content: str, kind: str, status: int = 200, head: str = "") -> Response:
        return self._page(title=title, content=content, kind=kind, status=status, head=head)

    def _page(
        self, *, title: str, content: str, kind: str, status: int = 200, head: str = "", script: tuple[str, ...] = ()
    ) -> Response:
        tabs = "".join(f'<a href="/s/{slug}">{esc(name)}</a> ' for slug, name in self.sections.items())
        body = (
            '<div class="topbar"><a href="/" class="navbar-title">Riverwatch Notes</a> '
            '<a class="button primary" href="/subscribe">Subscribe</a> <a href="/sign-in">Sign in</a></div>'
            f'<nav class="pub-tabs"><a href="/">Home</a> {tabs}<a href="/archive">Archive</a> '
            '<a href="/about">About</a></nav>\n'
            f'<div class="container">{content}</div>\n'
            '<footer class="footer-wrap">© 2026 Tarn Valley Rivers Trust · <a href="/privacy">Privacy</a> · '
            '<a href="/tos">Terms</a> · <a href="/sitemap">Sitemap</a></footer>'
        )
        html = document(title=title, head=head, body=body, body_class="pub-riverwatch")
        return Response.html(html, kind=kind, status=status, script_links=script)

    def _card(self, post: Post) -> str:
        lock = ' <span class="audience-lock" title="Paid">🔒</span>' if post.paid else ""
        kind = ' <span class="post-type">Podcast</span>' if post.kind == "podcast" else ""
        return (
            f'<div class="post-preview"><a class="post-preview-title" href="{post.path}">{esc(post.title)}</a>'
            f'{lock}{kind}<div class="post-preview-description">{esc(post.subtitle)}</div>'
            f'<div class="post-preview-meta"><time>{listed_date(post.day)}</time> · '
            f"{esc(', '.join(post.authors[:2]))}{' et al.' if len(post.authors) > 2 else ''}</div></div>"
        )

    def _home(self, request: Request) -> Response:
        latest = "".join(self._card(p) for p in self.posts[:4])
        content = (
            "<h1>Riverwatch Notes</h1><p>Field notes and research from the Tarn Valley Rivers Trust.</p>"
            '<form action="/api/v1/free" method="post"><input type="email" name="email" placeholder="Type your '
            'email..."><button>Subscribe</button></form>'
            f'<h2>Latest</h2>{latest}<p><a href="/archive">See all</a></p>'
        )
        return self.page(title="Riverwatch Notes | Substack", content=content, kind="home")

    def _scrolled(self, chosen: list[Post], api: str) -> tuple[str, tuple[str, ...]]:
        """The first twelve cards, and the script that asks the API for the rest as the reader scrolls."""
        cards = "".join(self._card(p) for p in chosen[:SHOWN])
        script = (
            f'<div class="portable-archive-list">{cards}</div><div class="loading-more"></div>'
            f'<script>window._preloads = {{"archiveApi": "{api}", "offset": {SHOWN}, "limit": {SHOWN}}};'
            "new IntersectionObserver(loadMore).observe(document.querySelector('.loading-more'));</script>"
        )
        return script, tuple(p.path for p in chosen[SHOWN:])

    def _archive(self, request: Request) -> Response:
        sort = "top" if request.param("sort") == "top" else "new"
        chosen = sorted(self.posts, key=lambda p: -p.likes) if sort == "top" else self.posts
        listing, rest = self._scrolled(chosen, f"/api/v1/archive?sort={sort}&search=")
        content = (
            '<h1>Archive</h1><nav class="sort"><a href="/archive?sort=new">Latest</a> '
            f'<a href="/archive?sort=top">Top</a></nav><form><input name="search" placeholder="Search posts">'
            f"</form>{listing}"
        )
        return self._page(title="Archive - Riverwatch Notes", content=content, kind="archive", script=rest)

    def _section_page(self, request: Request, section: str) -> Response:
        if section not in self.sections:
            return self.not_found()
        chosen = [p for p in self.posts if p.section == section]
        listing, rest = self._scrolled(chosen, f"/api/v1/archive?section={section}&sort=new")
        content = f"<h1>{esc(self.sections[section])}</h1>{listing}"
        return self._page(title=f"{self.sections[section]} - Riverwatch Notes", content=content, kind="section",
                          script=rest)  # fmt: skip

    def _api(self, request: Request) -> Response:
        chosen = self.posts
        if request.param("section"):
            chosen = [p for p in chosen if p.section == request.param("section")]
        if request.param("sort") == "top":
            chosen = sorted(chosen, key=lambda p: -p.likes)
        search = request.param("search").lower()
        chosen = [p for p in chosen if search in p.title.lower()]
        offset = request.int_param("offset", 0)
        limit = request.int_param("limit", SHOWN, minimum=1, maximum=50)
        rows = [
            {
                "id": 140000 + n,
                "title": p.title,
                "subtitle": p.subtitle,
                "slug": p.slug,
                "post_date": f"{p.day.isoformat()}T07:00:00.000Z",
                "audience": "only_paid" if p.paid else "everyone",
                "type": p.kind,
                "canonical_url": self.links.absolute(p.path),
                "section_slug": p.section,
                "publishedBylines": [{"name": a} for a in p.authors],
            }
            for n, p in enumerate(chosen[offset : offset + limit])
        ]
        return Response.json(rows, kind="api")

    def _sitemap(self, request: Request) -> Response:
        years = sorted({p.day.year for p in self.posts}, reverse=True)
        rows = "".join(f'<li><a href="/sitemap/{y}">{y}</a></li>' for y in years)
        return self.page(title="Sitemap - Riverwatch Notes", content=f"<h1>Sitemap</h1><ul>{rows}</ul>", kind="sitemap")

    def _sitemap_year(self, request: Request, year: str) -> Response:
        mine = sorted((p for p in self.posts if p.day.year == int(year)), key=lambda p: (p.day, p.slug))
        if not mine:
            return self.not_found()
        blocks = ""
        for month in range(1, 13):
            entries = [p for p in mine if p.day.month == month]
            if entries:
                rows = "".join(f'<li><a href="{p.path}">{esc(p.title)}</a></li>' for p in entries)
                blocks += f"<h2>{MONTHS[month - 1]}</h2><ul>{rows}</ul>"
        return self.page(title=f"Sitemap {year}", content=f"<h1>{year}</h1>{blocks}", kind="sitemap")

    def _sitemap_xml(self, request: Request) -> Response:
        ns = "http://www.sitemaps.org/schemas/sitemap/0.9"
        root = etree.Element(f"{{{ns}}}urlset", nsmap={None: ns})
        for post in self.posts:
            url = etree.SubElement(root, f"{{{ns}}}url")
            etree.SubElement(url, f"{{{ns}}}loc").text = self.links.absolute(post.path)
            etree.SubElement(url, f"{{{ns}}}lastmod").text = (post.day + timedelta(days=2)).isoformat()
        return Response.xml(root, kind="sitemap-xml")

    def _post(self, request: Request, slug: str) -> Response:
        post = self.by_slug.get(slug)
        if post is None:
            return self.not_found()
        item = post.item
        bylines = ", ".join(post.authors[:-1]) + (" and " if len(post.authors) > 1 else "") + post.authors[-1]
        if post.paid:
            body = (
                '<p>A short preview of this briefing for members.</p><div class="paywall"><h3>This post is for '
                'paid subscribers</h3><a href="/subscribe">Subscribe</a> <a href="/sign-in">Already a paid '
                "subscriber? Sign in</a></div>"
            )
        elif item is None:
            earlier = [p for p in self.posts if p.day < post.day and p.item][:3]
            links = "".join(f'<li><a href="{p.path}">{esc(p.title)}</a></li>' for p in earlier)
            body = f"<p>{esc(post.subtitle)}. Notes from the trust's team.</p>"
            body += f"<p>From the newsletter lately:</p><ul>{links}</ul>" if links and post.kind != "podcast" else ""
            body += '<audio controls src="/api/v1/audio/episode.mp3"></audio>' if post.kind == "podcast" else ""
        else:
            elsewhere = [c for c in self.testbed.copies_of(item) if c.site != self.spec.name]
            body = "".join(f"<p>{esc(s.strip())}.</p>" for s in item.abstract.split(". ") if s.strip(". "))
            for copy in elsewhere:
                body = (
                    "<p><em>Thesis spotlight: a doctoral or masters thesis from our partners at Thornbury "
                    "University, summarised by its author.</em></p>" + body
                    + f'<p>Read the thesis in the <a href="{attr(self.links.on_site(copy.site, copy.path))}">'
                    f"{esc(self.testbed.site(copy.site).title)}</a>.</p>"
                )  # fmt: skip
            if not elsewhere:
                body += f'<p class="file-embed"><a href="{attr(item.pdf_path)}">Download the paper (PDF)</a></p>'
        linked = {
            "@context": "https://schema.org",
            "@type": "NewsArticle",
            "url": self.links.absolute(post.path),
            "headline": post.title,
            "description": post.subtitle,
            "datePublished": f"{post.day.isoformat()}T07:00:00+00:00",
            "author": [{"@type": "Person", "name": a} for a in post.authors],
            "publisher": {"@type": "Organization", "name": "Riverwatch Notes"},
        }
        head = "\n".join(
            [meta_property("og:title", post.title), meta_property("og:description", post.subtitle),
             meta_property("og:type", "article"), json_script(linked, script_type="application/ld+json")]
        )  # fmt: skip
        content = (
            f'<article class="post"><h1 class="post-title">{esc(post.title)}</h1>'
            f'<h3 class="subtitle">{esc(post.subtitle)}</h3><div class="post-header"><div class="byline">'
            f'{esc(bylines)}</div><div class="post-date">{post_date(post.day)}</div></div>'
            f'<div class="body markup">{body}</div><div class="post-footer"><a href="{post.path}/comments">'
            f"{post.likes % 23} comments</a></div></article>"
        )
        return self.page(title=f"{post.title} - Riverwatch Notes", content=content, kind="post", head=head)

    def _comments(self, request: Request, slug: str) -> Response:
        return self.page(title="Comments", content="<h1>Comments</h1><p>Sign in to comment.</p>", kind="comments")

    def _file(self, request: Request, name: str) -> Response:
        item = next((i for i in self.items if i.pdf_path == request.path), None)
        return self.not_found() if item is None else self.pdf(item)

    def _subscribe(self, request: Request) -> Response:
        form = '<h1>Subscribe</h1><form method="post" action="/api/v1/free"><input name="email"><button>Go</button>'
        return self.page(title="Subscribe", content=form + "</form>", kind="subscribe")
