"""HELD OUT, fresh (sixth batch): the Corvell Centre for Hearing Research's news blog, built as WordPress ones are
(see `fresh_heldout6.py`; do not read or tune anything to it). Posts announce the centre's papers among events,
funding and people news; a paper's headline is "New paper: <title>", "Published in <journal>: <title>" or only
"Congratulations to <name> and colleagues on a new paper"; every post is signed by the communications team and the
paper's authors are named in its text. Five posts a page ("« Older posts"), categories, monthly archives, an RSS
feed; a paper deposited in the data repository first links to its record there.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date
from typing import ClassVar

from lxml import etree

from research_crawler.eval.testbed.decoys import DecoyKind
from research_crawler.eval.testbed.full_text import search_items
from research_crawler.eval.testbed.markup import MONTHS, attr, document, esc, first_sentence, meta_name, meta_property
from research_crawler.eval.testbed.models import Item
from research_crawler.eval.testbed.site_app import Request, Response, Route, SiteApp

__all__ = ["BYLINE", "OTHER_POSTS", "PER_PAGE", "Fresh6NewsSite", "Post", "headline", "journal_of", "posts"]

PER_PAGE = 5
BYLINE = "Communications Team"
_JOURNALS = ("Ear and Hearing", "International Journal of Audiology", "Trends in Hearing", "Noise & Health",
             "Journal of the Acoustical Society of America")  # fmt: skip
#: Posts that announce no paper: (date, category, headline, text).
OTHER_POSTS = (
    ("2022-09-14", "People", "Welcome to our new doctoral researchers",
     "Five doctoral researchers join the centre this autumn, working on tinnitus, cochlear implants and the "
     "acoustics of rehearsal rooms."),
    ("2023-04-02", "Events", "Free hearing checks for musicians at the Riverside Jazz Festival",
     "Our audiologists will offer free hearing checks and fitted earplugs to musicians and festival-goers at the "
     "Riverside Jazz Festival. No appointment needed."),
    ("2023-11-20", "Funding", "Centre awarded £1.2m to study sound exposure in orchestras",
     "A five-year programme grant will fund measurements of sound exposure in six professional orchestras and "
     "trials of hearing protection that players accept."),
    ("2024-02-08", "Events", "Public lecture: why does music sound different through earplugs?",
     "Join us for an evening lecture on how earplugs change what musicians hear, with live demonstrations."),
    ("2024-06-25", "People", "Professor Ines Haldane elected Fellow of the Academy of Medical Sciences",
     "We congratulate Professor Haldane on her election in recognition of her work on inner-ear physiology."),
    ("2025-01-15", "News", "Our annual report for 2024 is out",
     "The annual report sums up a year of research, teaching and public engagement. Download it from our "
     "website or ask for a printed copy."),
    ("2025-07-03", "Events", "Summer school on hearing science: applications open",
     "Our week-long summer school for students covers auditory physiology, audiometry and acoustics."),
    ("2026-03-11", "Funding", "New studentships in auditory neuroscience",
     "Three fully funded studentships are available from October; the deadline for applications is 30 April."),
)  # fmt: skip


def journal_of(item: Item) -> str:
    return _JOURNALS[sum(map(ord, item.key)) % len(_JOURNALS)]


def headline(item: Item) -> str:
    """The post's headline: with the paper's title, or only a congratulation."""
    style = sum(map(ord, item.key)) % 3
    if style == 0:
        return f"New paper: {item.title}"
    if style == 1:
        return f"Published in {journal_of(item)}: {item.title}"
    return f"Congratulations to {item.authors[0]} and colleagues on a new paper"


@dataclass(frozen=True)
class Post:
    """One blog post: a paper's announcement (an item) or other news."""

    path: str
    day: str
    category: str
    headline: str
    item: Item | None
    text: str

    @property
    def month(self) -> str:
        return self.day[:7]


def posts(items: list[Item]) -> list[Post]:
    """Every post, newest first."""
    made = [Post(i.path, i.date, "Publications", headline(i), i, i.abstract) for i in items]
    for day, category, title, text in OTHER_POSTS:
        slug = re.sub(r"[^a-z0-9]+", "-", title.lower()).strip("-")[:50].rstrip("-")
        made.append(Post(f"/{day[:4]}/{day[5:7]}/{day[8:]}/{slug}/", day, category, title, None, text))
    return sorted(made, key=lambda p: p.day, reverse=True)


def _wp_date(day: str) -> str:
    """'2024-05-12' → 'May 12, 2024', as WordPress writes a post's date."""
    value = date.fromisoformat(day)
    return f"{MONTHS[value.month - 1]} {value.day}, {value.year}"


def _names(authors: tuple[str, ...]) -> str:
    return authors[0] if len(authors) == 1 else ", ".join(authors[:-1]) + " and " + authors[-1]


def _category_path(category: str) -> str:
    return f"/category/{category.lower()}/"


class Fresh6NewsSite(SiteApp):
    """A research centre's news blog: posts five a page, categories, monthly archives, an RSS feed."""

    decoy_paths: ClassVar[dict[str, DecoyKind]] = {"/about/": "about", "/contact/": "contact",
                                                   "/privacy-policy/": "privacy"}  # fmt: skip

    def routes(self) -> list[Route]:
        return [
            (re.compile(r"/"), self._home),
            (re.compile(r"/page/(?P<number>\d+)/"), self._home),
            (re.compile(r"/category/(?P<category>[a-z]+)/"), self._category),
            (re.compile(r"/category/(?P<category>[a-z]+)/page/(?P<number>\d+)/"), self._category),
            (re.compile(r"/(?P<year>\d{4})/(?P<month>\d{2})/"), self._archive),
            (re.compile(r"/\d{4}/\d{2}/\d{2}/[a-z0-9-]+/"), self._post),
            (re.compile(r"/wp-content/uploads/\d{4}/\d{2}/(?P<slug>[a-z0-9-]+)\.pdf"), self._file),
            (re.compile(r"/feed/"), self._feed),
        ]

    def robots_txt(self) -> str:
        return (
            "User-agent: *\nDisallow: /wp-admin/\nAllow: /wp-admin/admin-ajax.php\nDisallow: /?s=\nDisallow: /search/\n"
        )

    def sample_paths(self) -> dict[str, str]:
        item = self.items[0]
        return {"home": "/", "older": "/page/2/", "category": "/category/publications/",
                "archive": item.path[:9], "post": item.path, "feed": "/feed/"}  # fmt: skip

    def page(self, *, title: str, content: str, kind: str, status: int = 200, head: str = "") -> Response:
        every = posts(self.items)
        recent = "".join(f'<li><a href="{attr(p.path)}">{esc(p.headline)}</a></li>' for p in every[:5])
        categories = "".join(
            f'<li><a href="{_category_path(c)}">{esc(c)}</a></li>' for c in sorted({p.category for p in every})
        )
        months = sorted({p.month for p in every}, reverse=True)
        archives = "".join(f'<li><a href="/{m[:4]}/{m[5:]}/">{MONTHS[int(m[5:]) - 1]} {m[:4]}</a></li>' for m in months)
        feed = f'<link rel="alternate" type="application/rss+xml" title="{attr(self.spec.title)} » Feed" href="/feed/">'
        body = (
            f'<header class="site-header"><p class="site-title"><a href="/" rel="home">{esc(self.spec.title)}</a>'
            f'</p><p class="site-description">{esc(self.spec.tagline)}</p><nav><a href="/">News</a> '
            '<a href="/about/">About the centre</a> <a href="/contact/">Contact</a></nav></header>\n'
            f'<div id="primary" class="content-area">{content}</div>\n'
            '<aside id="secondary" class="widget-area"><form role="search" method="get" action="/"><input '
            'type="search" name="s" placeholder="Search …"><button>Search</button></form>'
            f"<h2>Recent Posts</h2><ul>{recent}</ul><h2>Categories</h2><ul>{categories}</ul>"
            f"<h2>Archives</h2><ul>{archives}</ul></aside>\n"
            f'<footer>© {esc(self.spec.title)} · <a href="/privacy-policy/">Privacy Policy</a> · '
            "Proudly powered by WordPress</footer>"
        )
        html = document(title=f"{title} – {self.spec.title}", head=f"{feed}\n{head}", body=body, lang="en-GB")
        return Response.html(html, kind=kind, status=status)

    def _listing(self, chosen: list[Post], number: str, base: str, heading: str, kind: str) -> Response:
        page = int(number) if number else 1
        pages = max(1, -(-len(chosen) // PER_PAGE))
        if not 1 <= page <= pages:
            return self.not_found("Nothing was found at this location.")
        shown = chosen[(page - 1) * PER_PAGE : page * PER_PAGE]
        articles = "".join(
            f'<article class="post category-{p.category.lower()}"><h2 class="entry-title"><a href="{attr(p.path)}" '
            f'rel="bookmark">{esc(p.headline)}</a></h2><div class="entry-meta">Posted on {_wp_date(p.day)} by '
            f'{BYLINE}</div><div class="entry-summary"><p>{esc(first_sentence(p.text))} […]</p></div>'
            f'<a class="more-link" href="{attr(p.path)}">Continue reading →</a></article>'
            for p in shown
        )
        nav = ""
        if page < pages:
            nav += f'<div class="nav-previous"><a href="{base}page/{page + 1}/">« Older posts</a></div>'
        if page > 1:
            newer = base if page == 2 else f"{base}page/{page - 1}/"
            nav += f'<div class="nav-next"><a href="{newer}">Newer posts »</a></div>'
        content = f'{heading}{articles}<nav class="navigation posts-navigation">{nav}</nav>'
        return self.page(title=re.sub(r"<[^>]+>", "", heading) or "News", content=content, kind=kind)

    def _home(self, request: Request, number: str = "") -> Response:
        if request.param("s"):
            found = {i.path for i in search_items(self.items, request.param("s"))}
            chosen = [p for p in posts(self.items) if p.path in found]
            return self._listing(chosen, "", "/", f"<h1>Search Results for: {esc(request.param('s'))}</h1>", "search")
        return self._listing(posts(self.items), number, "/", "", "home")

    def _category(self, request: Request, category: str, number: str = "") -> Response:
        chosen = [p for p in posts(self.items) if p.category.lower() == category]
        if not chosen:
            return self.not_found()
        heading = f'<h1 class="page-title">Category: {esc(chosen[0].category)}</h1>'
        return self._listing(chosen, number, _category_path(category), heading, "category")

    def _archive(self, request: Request, year: str, month: str) -> Response:
        chosen = [p for p in posts(self.items) if p.month == f"{year}-{month}"]
        if not chosen:
            return self.not_found()
        heading = f'<h1 class="page-title">Month: {MONTHS[int(month) - 1]} {year}</h1>'
        return self._listing(chosen, "", f"/{year}/{month}/", heading, "archive")

    def _post(self, request: Request) -> Response:
        post = next((p for p in posts(self.items) if p.path == request.path), None)
        if post is None:
            return self.not_found()
        head = "\n".join(
            [meta_property("og:type", "article"), meta_property("og:title", post.headline),
             meta_property("article:published_time", f"{post.day}T09:30:00+00:00"), meta_name("author", BYLINE)]
        )  # fmt: skip
        body = f"<p>{esc(post.text)}</p>"
        if post.item is not None:
            body = self._announcement(post.item)
        content = (
            f'<article class="post"><header><h1 class="entry-title">{esc(post.headline)}</h1>'
            f'<div class="entry-meta">Posted on <time datetime="{post.day}T09:30:00+00:00">{_wp_date(post.day)}'
            f'</time> by <span class="author">{BYLINE}</span></div></header>'
            f'<div class="entry-content">{body}</div><footer class="entry-footer">Posted in '
            f'<a href="{_category_path(post.category)}" rel="category tag">{esc(post.category)}</a></footer></article>'
        )
        return self.page(title=post.headline, content=content, kind="post", head=head)

    def _announcement(self, item: Item) -> str:
        deposited = ""
        if item.work:
            first = self.testbed.item(item.work.removeprefix("work:"))
            deposited = (
                f'<p>The preprint and the data are openly available in <a href="'
                f'{attr(self.links.on_site(first.site, first.path))}">Tamsin Research Data</a>.</p>'
            )
        return (
            f"<p>We are pleased to share a new paper from the centre, now out in <em>{esc(journal_of(item))}</em>."
            f"</p><p><strong>{esc(item.title)}</strong><br>{esc(_names(item.authors))}</p>"
            f"<p>{esc(item.abstract)}</p>{deposited}"
            f'<p><a href="{attr(item.pdf_path)}">Read the accepted manuscript (PDF)</a></p>'
        )

    def _file(self, request: Request, slug: str) -> Response:
        item = next((i for i in self.items if i.pdf_path == request.path), None)
        return self.not_found() if item is None else self.pdf(item)

    def _feed(self, request: Request) -> Response:
        rss = etree.Element("rss", version="2.0")
        channel = etree.SubElement(rss, "channel")
        for tag, text in (("title", self.spec.title), ("link", self.links.absolute("/")),
                          ("description", self.spec.tagline)):  # fmt: skip
            etree.SubElement(channel, tag).text = text
        for post in posts(self.items)[:10]:
            entry = etree.SubElement(channel, "item")
            etree.SubElement(entry, "title").text = post.headline
            etree.SubElement(entry, "link").text = self.links.absolute(post.path)
            day = date.fromisoformat(post.day)
            etree.SubElement(entry, "pubDate").text = f"{day:%a, %d %b %Y} 09:30:00 +0000"
            etree.SubElement(entry, "category").text = post.category
            etree.SubElement(entry, "description").text = first_sentence(post.text)
        return Response.xml(rss, kind="feed", content_type="application/rss+xml; charset=utf-8")
