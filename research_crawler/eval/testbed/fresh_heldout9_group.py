"""HELD OUT, fresh (ninth batch): the Kestrel Structures Lab, a research group's static site built as Hugo Academic
(Wowchemy) sites are (see `fresh_heldout9.py`; do not read or tune anything to it). The home shows featured and
recent publications and the news; the publication list is paged ten at a time, newest first, each row carrying its
year and type for a filter script, only "selected" rows shown until the visitor clicks "Show all" (the others are in
the HTML, hidden by CSS), datasets, software and a patent among the papers; each paper has a page (its date written
"Mar 12, 2024", [PDF] [Cite] [Code] [Slides] buttons, Open Graph tags whose published time is the page's, added
after the paper) that names the project that funded it on the funder's portal; members have author pages; news
posts announce accepted papers; an RSS feed lists the publications; the admin area is forbidden by robots.txt.
"""

from __future__ import annotations

import re
import zlib
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from email.utils import format_datetime
from typing import ClassVar

from lxml import etree

from research_crawler.eval.testbed.decoys import DecoyKind
from research_crawler.eval.testbed.markup import MONTHS, attr, document, esc, meta_property, url_slug
from research_crawler.eval.testbed.models import Item
from research_crawler.eval.testbed.site_app import Request, Response, Route, SiteApp

__all__ = ["PER_PAGE", "Entry", "Fresh9GroupSite", "entries", "hugo_date", "members", "paper_venue"]

PER_PAGE = 10
_JOURNALS = ("Engineering Structures", "Structural Health Monitoring", "Journal of Civil Structural Health Monitoring")
_PROCEEDINGS = ("Proceedings of the IABSE Symposium", "Proceedings of EWSHM", "Proceedings of IWSHM")
_TYPES = {1: "Conference paper", 2: "Journal article", 0: "Dataset", 8: "Patent", 9: "Software"}


def hugo_date(day: str) -> str:
    """A date as the theme writes it (Go's 'Jan 2, 2006'): '2024-03-12' → 'Mar 12, 2024'."""
    parsed = date.fromisoformat(day)
    return f"{MONTHS[parsed.month - 1][:3]} {parsed.day}, {parsed.year}"


@dataclass(frozen=True)
class Entry:
    """A row of the publication list: a paper (an item), or a dataset, software or patent (not works)."""

    slug: str
    title: str
    kind: int
    day: str
    authors: tuple[str, ...]
    item: Item | None = None

    @property
    def path(self) -> str:
        return f"/publication/{self.slug}/"

    @property
    def selected(self) -> bool:
        return self.item is not None and zlib.crc32(self.slug.encode()) % 2 == 0


def entries(items: list[Item]) -> list[Entry]:
    """Every row of the publication list, newest first: the papers, a dataset for two of them, a software release
    and a patent."""
    made = [Entry(i.key, i.title, _kind(i), i.date, i.authors, i) for i in items]
    papers = [i for i in items if not i.topic.endswith("-other")]
    for item in papers[1:3]:
        day = (date.fromisoformat(item.date) + timedelta(days=9)).isoformat()
        made.append(Entry(f"data-{item.key}"[:80].rstrip("-"), f"Data for: {item.title}", 0, day, item.authors))
    lead = papers[0].authors if papers else ("Kestrel Lab",)
    made.append(Entry("kestrel-shm-toolbox", "kestrel-shm: an open toolbox for sensor data from structures", 9,
                      "2023-06-30", lead[:2]))  # fmt: skip
    made.append(Entry("patent-clamp-sensor-mount", "Clamp-on sensor mount for steel cables (patent EP 4 123 456)", 8,
                      "2025-02-18", lead[:1]))  # fmt: skip
    return sorted(made, key=lambda e: (e.day, e.slug), reverse=True)


def members(items: list[Item]) -> list[str]:
    """The lab's members: whoever signs two or more of its papers, most papers first."""
    counts: dict[str, int] = {}
    for item in items:
        for author in item.authors:
            counts[author] = counts.get(author, 0) + 1
    return sorted((a for a, n in counts.items() if n >= 2), key=lambda a: (-counts[a], a))


def _kind(item: Item) -> int:
    """A paper's type in the theme's numbering: 1 a conference paper, 2 a journal article."""
    return 1 + (zlib.crc32(item.key.encode()) % 3 > 0)


def _venue(entry: Entry) -> str:
    venues = {1: _PROCEEDINGS, 2: _JOURNALS}.get(entry.kind, ())
    return venues[sum(map(ord, entry.slug)) % len(venues)] if venues else ""


def paper_venue(item: Item) -> str:
    """Where the group's list says one of its papers appeared (the funder's record of it says the same)."""
    return _venue(Entry(item.key, item.title, _kind(item), item.date, item.authors, item))


class Fresh9GroupSite(SiteApp):
    """A group's Hugo site: home, paged publication list, paper pages, authors, news, talks, an RSS feed."""

    decoy_paths: ClassVar[dict[str, DecoyKind]] = {"/contact/": "contact", "/join/": "members"}

    def routes(self) -> list[Route]:
        self.entries = entries(self.items)
        self.by_slug = {e.slug: e for e in self.entries}
        self.members = members(self.items)
        return [
            (re.compile(r"/"), self._home),
            (re.compile(r"/publication/"), self._list),
            (re.compile(r"/publication/page/(?P<n>\d+)/"), self._list),
            (re.compile(r"/publication/index\.xml"), self._feed),
            (re.compile(r"/publication/(?P<slug>[a-z0-9-]+)/"), self._paper),
            (re.compile(r"/publication/(?P<slug>[a-z0-9-]+)/cite\.bib"), self._cite),
            (re.compile(r"/publication/(?P<slug>[a-z0-9-]+)/(?P<name>[a-z0-9-]+)\.pdf"), self._file),
            (re.compile(r"/people/"), self._people),
            (re.compile(r"/author/(?P<slug>[a-z0-9-]+)/"), self._author),
            (re.compile(r"/post/"), self._posts),
            (re.compile(r"/post/(?P<slug>[a-z0-9-]+)/"), self._post),
            (re.compile(r"/talk/"), self._talks),
            (re.compile(r"/admin/.*"), self._admin),
        ]

    def robots_txt(self) -> str:
        return "User-agent: *\nDisallow: /admin/\n"

    def sample_paths(self) -> dict[str, str]:
        paper = next(e for e in self.entries if e.item is not None)
        return {"home": "/", "publications": "/publication/", "paper": paper.path, "people": "/people/",
                "author": f"/author/{url_slug(self.members[0])}/", "news": "/post/", "talks": "/talk/",
                "feed": "/publication/index.xml"}  # fmt: skip

    def page(self, *, title: str, content: str, kind: str, status: int = 200, head: str = "") -> Response:
        body = (
            '<nav class="navbar"><a class="navbar-brand" href="/">Kestrel Structures Lab</a><ul class="navbar-nav">'
            '<li><a href="/#about">Home</a></li><li><a href="/people/">People</a></li>'
            '<li><a href="/publication/">Publications</a></li><li><a href="/post/">News</a></li>'
            '<li><a href="/talk/">Talks</a></li><li><a href="/contact/">Contact</a></li></ul></nav>\n'
            f'<div class="page-body">{content}</div>\n'
            '<footer class="site-footer"><p>© 2026 Kestrel Structures Lab · <a href="/join/">Join us</a> · '
            '<a href="/admin/">Edit this site</a></p><p>Published with Wowchemy — the free, open source website '
            "builder that empowers creators.</p></footer>"
        )
        feed = '<link rel="alternate" href="/publication/index.xml" type="application/rss+xml" title="Publications">'
        html = document(title=f"{title} | Kestrel Structures Lab", head=feed + head, body=body, body_class="page")
        return Response.html(html, kind=kind, status=status)

    def _byline(self, entry: Entry) -> str:
        return ", ".join(
            f'<span><a href="/author/{url_slug(a)}/">{esc(a)}</a></span>'
            if a in self.members
            else f"<span>{esc(a)}</span>"
            for a in entry.authors
        )

    def _row(self, entry: Entry) -> str:
        venue = _venue(entry)
        buttons = f'<a class="btn" href="{attr(entry.path)}cite.bib">Cite</a>'
        if entry.item is not None:
            buttons = (
                f'<a class="btn" href="{attr(entry.item.pdf_path)}">PDF</a> {buttons} '
                f'<a class="btn" href="https://github.com/kestrel-lab/{entry.slug[:30].rstrip("-")}">Code</a>'
            )
        classes = f"pub-list-item year-{entry.day[:4]} pubtype-{entry.kind}" + (" selected" if entry.selected else "")
        return (
            f'<div class="{classes}" data-year="{entry.day[:4]}" data-type="{entry.kind}">'
            f'<span class="article-metadata li-cite-author">{self._byline(entry)}</span> ({entry.day[:4]}). '
            f'<a href="{attr(entry.path)}">{esc(entry.title)}</a>.'
            + (f" <em>{esc(venue)}</em>." if venue else f" {_TYPES[entry.kind]}.")
            + f' <p class="btn-links">{buttons}</p></div>'
        )

    def _home(self, request: Request) -> Response:
        featured = [e for e in self.entries if e.selected][:2]
        recent = [e for e in self.entries if e.item is not None][:4]
        news = self._news()[:3]
        content = (
            '<section id="about"><h1>Kestrel Structures Lab</h1><p>We build sensors and models that tell engineers '
            "how ageing structures are doing, and we test them on real ones with their owners.</p></section>"
            f'<section id="featured"><h2>Featured Publications</h2>{"".join(self._row(e) for e in featured)}</section>'
            f'<section id="publications"><h2>Recent Publications</h2>{"".join(self._row(e) for e in recent)}'
            '<p><a href="/publication/">See all publications</a></p></section>'
            '<section id="posts"><h2>Recent News</h2><ul>'
            + "".join(
                f'<li><a href="/post/{slug}/">{esc(title)}</a> <span>{hugo_date(day)}</span></li>'
                for slug, title, day, _ in news
            )
            + '</ul><p><a href="/post/">See all news</a></p></section>'
        )
        return self.page(title="Home", content=content, kind="home")

    def _list(self, request: Request, n: str = "1") -> Response:
        pages = max(1, -(-len(self.entries) // PER_PAGE))
        number = int(n)
        if not 1 <= number <= pages or (n == "1" and request.path != "/publication/"):
            return self.not_found()
        shown = self.entries[(number - 1) * PER_PAGE : number * PER_PAGE]
        pager = " ".join(
            f'<li class="page-item active"><span>{k}</span></li>'
            if k == number
            else f'<li class="page-item"><a href="{"/publication/" if k == 1 else f"/publication/page/{k}/"}">{k}</a>'
            "</li>"
            for k in range(1, pages + 1)
        )
        years = sorted({e.day[:4] for e in self.entries}, reverse=True)
        filters = "".join(f'<button data-filter=".year-{y}">{y}</button>' for y in years)
        types = "".join(f'<button data-filter=".pubtype-{k}">{v}</button>' for k, v in sorted(_TYPES.items()))
        content = (
            "<style>.pub-list-item:not(.selected){display:none}.show-all .pub-list-item{display:block}</style>"
            '<h1>Publications</h1><div class="isotope-filters"><button data-filter="*">All</button>'
            f'{filters}<span class="sep"></span>{types}</div><button id="show-all" '
            "onclick=\"document.body.classList.add('show-all')\">Show all</button>"
            f'<div id="container-publications">{"".join(self._row(e) for e in shown)}</div>'
            f'<nav><ul class="pagination">{pager}</ul></nav>'
            "<script>/* isotope filtering of .pub-list-item by data-year and data-type */</script>"
        )
        return self.page(title="Publications", content=content, kind="publications")

    def _paper(self, request: Request, slug: str) -> Response:
        entry = self.by_slug.get(slug)
        if entry is None:
            return self.not_found()
        page_day = date.fromisoformat(entry.day) + timedelta(days=3 + zlib.crc32(slug.encode()) % 40)
        head = "\n".join([
            meta_property("og:title", entry.title), meta_property("og:type", "article"),
            meta_property("article:published_time", f"{page_day.isoformat()}T00:00:00+00:00"),
            meta_property("article:modified_time", "2026-10-02T11:24:51+02:00"),
        ])  # fmt: skip
        item = entry.item
        abstract = esc(item.abstract) if item else f"{esc(entry.title)}, released with the lab's papers."
        funded = ""
        for copy in self.testbed.copies_of(item) if item else []:
            if copy.site != self.spec.name:
                funded = (
                    '<p class="funding">This work was funded by the Veldmark Research Council: see <a href="'
                    f"{attr(self.links.on_site(copy.site, copy.path))}\">the project's record</a>.</p>"
                )
        buttons = f'<a class="btn" href="{attr(entry.path)}cite.bib">Cite</a>'
        if item is not None:
            buttons = (
                f'<a class="btn" href="{attr(item.pdf_path)}">PDF</a> {buttons} <a class="btn" href="https://github.com'
                f'/kestrel-lab/{slug[:30].rstrip("-")}">Code</a> <a class="btn" href="https://speakerdeck.com/kestrel'
                f'/{slug[:30].rstrip("-")}">Slides</a>'
            )
        venue = _venue(entry)
        content = (
            f'<div class="article-container pt-3"><h1>{esc(entry.title)}</h1><div class="article-metadata"><div>'
            f'{self._byline(entry)}</div><span class="article-date">{hugo_date(entry.day)}</span></div>'
            f'<div class="btn-links mb-3">{buttons}</div></div>'
            f'<div class="article-container"><h3>Abstract</h3><p class="pub-abstract">{abstract}</p>'
            f'<div class="row"><div class="pub-row-heading">Type</div><div><a href="/publication/#{entry.kind}">'
            f"{_TYPES[entry.kind]}</a></div></div>"
            + (
                f'<div class="row"><div class="pub-row-heading">Publication</div><div><em>{esc(venue)}</em></div></div>'
                if venue
                else ""
            )
            + f"{funded}</div>"
        )
        return self.page(title=entry.title, content=content, kind="paper" if item else "entry", head=head)

    def _cite(self, request: Request, slug: str) -> Response:
        entry = self.by_slug.get(slug)
        if entry is None:
            return self.not_found()
        authors = " and ".join(entry.authors)
        text = (
            f"@article{{{slug[:20]},\n  title = {{{entry.title}}},\n  author = {{{authors}}},\n"
            f"  year = {{{entry.day[:4]}}}\n}}\n"
        )
        return Response.text(text, kind="bibtex")

    def _file(self, request: Request, slug: str, name: str) -> Response:
        item = self.item_at(f"/publication/{slug}/")
        return self.pdf(item) if item is not None and item.pdf_path == request.path else self.not_found()

    def _people(self, request: Request) -> Response:
        rows = "".join(f'<li><a href="/author/{url_slug(m)}/">{esc(m)}</a></li>' for m in self.members)
        content = f"<h1>People</h1><h2>Principal Investigator and members</h2><ul>{rows}</ul>"
        return self.page(title="People", content=content, kind="people")

    def _author(self, request: Request, slug: str) -> Response:
        name = next((m for m in self.members if url_slug(m) == slug), None)
        if name is None:
            return self.not_found()
        theirs = "".join(
            f'<li><a href="{attr(e.path)}">{esc(e.title)}</a> ({e.day[:4]})</li>'
            for e in self.entries
            if name in e.authors and e.item is not None
        )
        content = f"<h1>{esc(name)}</h1><p>Researcher, Kestrel Structures Lab.</p><h2>Latest</h2><ul>{theirs}</ul>"
        return self.page(title=name, content=content, kind="author")

    def _news(self) -> list[tuple[str, str, str, Entry]]:
        """(slug, title, day, entry) of each news post: an accepted paper, some weeks before it appeared."""
        posts = []
        for entry in self.entries:
            if entry.item is None or entry.item.topic.endswith("-other"):
                continue
            day = (date.fromisoformat(entry.day) - timedelta(days=21)).isoformat()
            venue = _venue(entry)
            title = f"Paper accepted in {venue}!" if entry.kind == 2 else f"Paper accepted at {venue}!"
            posts.append((f"accepted-{entry.slug[:40].rstrip('-')}", title, day, entry))
        return posts

    def _posts(self, request: Request) -> Response:
        rows = "".join(
            f'<li><a href="/post/{slug}/">{esc(title)}</a> <span>{hugo_date(day)}</span></li>'
            for slug, title, day, _ in self._news()
        )
        return self.page(title="News", content=f"<h1>News</h1><ul>{rows}</ul>", kind="news")

    def _post(self, request: Request, slug: str) -> Response:
        post = next((p for p in self._news() if p[0] == slug), None)
        if post is None:
            return self.not_found()
        _, title, day, entry = post
        content = (
            f'<h1>{esc(title)}</h1><span class="article-date">{hugo_date(day)}</span><p>Great news: our paper '
            f'<a href="{attr(entry.path)}">{esc(entry.title)}</a> has been accepted. Congratulations to everyone '
            "involved!</p>"
        )
        return self.page(title=title, content=content, kind="post")

    def _talks(self, request: Request) -> Response:
        content = (
            "<h1>Talks</h1><ul><li>Sensors that outlive the structure? Keynote, Bridge Owners Forum (Nov 2025)</li>"
            "<li>Open data from real structures: a tutorial, Summer School on Structural Dynamics (Jul 2024)</li></ul>"
        )
        return self.page(title="Talks", content=content, kind="talks")

    def _feed(self, request: Request) -> Response:
        rss = etree.Element("rss", version="2.0")
        channel = etree.SubElement(rss, "channel")
        etree.SubElement(channel, "title").text = "Publications | Kestrel Structures Lab"
        etree.SubElement(channel, "link").text = self.links.absolute("/publication/")
        for entry in self.entries:
            node = etree.SubElement(channel, "item")
            etree.SubElement(node, "title").text = entry.title
            etree.SubElement(node, "link").text = self.links.absolute(entry.path)
            moment = datetime.fromisoformat(entry.day).replace(tzinfo=UTC)
            etree.SubElement(node, "pubDate").text = format_datetime(moment)
        return Response.xml(rss, kind="feed", content_type="application/rss+xml; charset=utf-8")

    def _admin(self, request: Request) -> Response:
        return self.page(title="Content Manager", content="<p>Sign in with Netlify Identity.</p>", kind="admin")
