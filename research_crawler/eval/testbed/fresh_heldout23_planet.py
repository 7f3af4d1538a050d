"""HELD OUT, fresh (twenty-third batch): Planet Field Botany, an aggregator of botanists' and field ecologists' blogs
built as Planet (Venus) sites are, keeping a copy of each entry (see `fresh_heldout23.py`; do not read or tune
anything to it). The home page is the river: the twelve newest entries under day headings ("March 12, 2024"), each
with its blog, title, a teaser and "by <blogger> at 09:14"; older entries are scrolled in by a script from
`/river.json?before=<cursor>` (a `<noscript>` note points to the archives). The sidebar lists the subscriptions (each
member blog's page on the planet and its feed elsewhere), the archives and the planet's RSS feed. The archives
(`/archives/`) lead to a page per month listing its entries oldest first ("12 Mar 2024"); a blog's page
(`/blogs/moss-and-mortar/`) lists its entries newest first, ten a page. An entry (`/2024/03/12/slug/`) gives its
title, "Posted by <blogger> on <blog>", "Tuesday 12 March 2024, 09:14", the link to the original, and the post: a
preprint announced in the blogger's words, its abstract, the reference in Vancouver style ("Okafor A, Rossi C, Vance
D. Title. Preprint, 2024.") and the PDF; an entry whose paper has appeared since carries an update linking the
herbarium's reference. Field notes, meeting reports and photo posts sit among them. No search and no metadata tags;
robots.txt forbids the cache and admin pages.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from email.utils import format_datetime
from typing import ClassVar

from research_crawler.eval.testbed.decoys import DecoyKind
from research_crawler.eval.testbed.markup import MONTHS, attr, document, esc, url_slug
from research_crawler.eval.testbed.models import Item
from research_crawler.eval.testbed.site_app import Request, Response, Route, SiteApp, paged

__all__ = [
    "BLOGS",
    "BLOG_PAGE",
    "RIVER_SHOWN",
    "Entry",
    "Fresh23PlanetSite",
    "blog_of",
    "entries_of",
    "posted_line",
    "river_authors",
    "vancouver",
]

RIVER_SHOWN = 12
BLOG_PAGE = 10
#: Member blogs of each category: (slug, title, blogger).
BLOGS: dict[str, tuple[tuple[str, str, str], ...]] = {
    "Bryology": (
        ("moss-and-mortar", "Moss and Mortar", "Helen Ashby"),
        ("the-bryophiles-notebook", "The Bryophile's Notebook", "Tom Ridley"),
        ("cushion-and-carpet", "Cushion & Carpet", "Ruth Okonjo"),
    ),
    "Arable ecology": (
        ("field-margins", "Field Margins", "Dan Whitlow"),
        ("a-weed-scientists-diary", "A Weed Scientist's Diary", "Ines Marquardt"),
        ("headland", "Headland", "Sam Petrakis"),
    ),
}
_OPENINGS = (
    "A quick post to say that our new preprint is out at last.",
    "Pleased to share a preprint from the group, two field seasons in the making.",
    "Some news from the lab: a new preprint went up this week.",
    "I have been quiet here for a while, mostly because of this preprint, which is now out.",
)
_FILLERS = (
    ("Field notes: a wet week on the limestone", "Four days of rain, two of sun, and a notebook full of records. "
     "The pavements were running with water and everything was green."),
    ("Report from the spring field meeting", "Thirty of us met at the car park at ten. The leaders took us along "
     "the old railway line, and the list of species reached ninety by lunch."),
    ("Photo post: hand lens favourites", "A few pictures from the week, taken through a hand lens with a phone. "
     "Nothing rare, but all of them lovely close up."),
    ("Teaching identification to first-year students", "We tried a new format this term: small groups, one "
     "specimen each, and a key they had to write themselves."),
    ("Notes from the county recorders' day", "Talks on new atlases, data standards and a long discussion about "
     "how to encourage beginners to send in records."),
    ("Book review: a new field guide", "The keys are clear, the photographs are good, and it fits in a pocket. "
     "A few errors in the maps, which the authors know about."),
    ("We are hiring: a field technician", "A two-year post to help with surveys and lab work. Driving licence "
     "needed; experience of identification welcome."),
)  # fmt: skip


def _digest(text: str) -> int:
    return int(hashlib.sha1(text.encode()).hexdigest()[:12], 16)


def blog_of(item_key: str, category: str) -> tuple[str, str, str]:
    blogs = BLOGS.get(category) or next(iter(BLOGS.values()))
    return blogs[_digest(item_key) % len(blogs)]


def vancouver(authors: tuple[str, ...]) -> str:
    """'Okafor A, Rossi C, Vance D' (surname and initials, no stops)."""
    return ", ".join(f"{a.rsplit(' ', 1)[1]} {''.join(p[0] for p in a.rsplit(' ', 1)[0].split())}" for a in authors)


def river_authors(authors: tuple[str, ...]) -> str:
    """The river's teaser: 'Okafor and Rossi', or 'Okafor et al.' for three or more."""
    surnames = [a.rsplit(" ", 1)[1] for a in authors]
    return " and ".join(surnames) if len(surnames) <= 2 else f"{surnames[0]} et al."


@dataclass(frozen=True)
class Entry:
    """One entry on the planet: a post announcing a paper (its item) or another post of a member blog."""

    title: str
    blog: tuple[str, str, str]
    day: date
    minute: int
    path: str
    text: str
    item: Item | None = None

    @property
    def time(self) -> str:
        return f"{self.minute // 60:02d}:{self.minute % 60:02d}"

    @property
    def order(self) -> tuple[str, int, str]:
        return (self.day.isoformat(), self.minute, self.path)


def posted_line(entry: Entry) -> str:
    """'Tuesday 12 March 2024, 09:14'."""
    day = entry.day
    return f"{day:%A} {day.day} {MONTHS[day.month - 1]} {day.year}, {entry.time}"


def entries_of(items: list[Item]) -> list[Entry]:
    """Every entry on the planet, newest first: the items' posts and one other post of a member blog per item."""
    made: list[Entry] = []
    for item in items:
        seed = _digest(item.key)
        made.append(
            Entry(
                title=item.title,
                blog=blog_of(item.key, item.category),
                day=date.fromisoformat(item.date),
                minute=6 * 60 + seed % (14 * 60),
                path=item.path,
                text=item.abstract,
                item=item,
            )
        )
        title, text = _FILLERS[seed % len(_FILLERS)]
        day = date.fromisoformat(item.date) + timedelta(days=3 + seed % 17)
        title = f"{title} ({MONTHS[day.month - 1]})" if seed % 2 else title
        made.append(
            Entry(
                title=title,
                blog=blog_of(item.key + "x", item.category),
                day=day,
                minute=7 * 60 + seed // 13 % (12 * 60),
                path=f"/{day:%Y/%m/%d}/{url_slug(title, limit=50)}/",
                text=text,
            )
        )
    unique = {e.path: e for e in made}
    return sorted(unique.values(), key=lambda e: e.order, reverse=True)


class Fresh23PlanetSite(SiteApp):
    """A Planet aggregator: the river with infinite scroll, monthly archives, member blogs, entry copies."""

    decoy_paths: ClassVar[dict[str, DecoyKind]] = {
        "/about/": "about",
        "/join/": "members",
        "/contact/": "contact",
        "/privacy/": "privacy",
    }

    def routes(self) -> list[Route]:
        self.entries = entries_of(self.items)
        self.by_entry = {e.path: e for e in self.entries}
        self.blogs = {b[0]: b for blogs in BLOGS.values() for b in blogs if any(e.blog == b for e in self.entries)}
        return [
            (re.compile(r"/"), self._river),
            (re.compile(r"/river\.json"), self._river_json),
            (re.compile(r"/rss20\.xml"), self._rss),
            (re.compile(r"/archives/"), self._archives),
            (re.compile(r"/archives/(?P<year>\d{4})/(?P<month>\d{2})/"), self._month),
            (re.compile(r"/blogs/(?P<slug>[a-z0-9-]+)/"), self._blog),
            (re.compile(r"/\d{4}/\d{2}/\d{2}/[a-z0-9-]+/"), self._entry),
            (re.compile(r"/files/(?P<year>\d{4})/(?P<slug>[a-z0-9-]+)\.pdf"), self._pdf),
            (re.compile(r"/static/river\.js"), self._script),
        ]

    def robots_txt(self) -> str:
        return "User-agent: *\nDisallow: /cache/\nDisallow: /admin/\nDisallow: /*?utm_source=\n"

    def sample_paths(self) -> dict[str, str]:
        entry = self.entries[0]
        return {
            "river": "/",
            "river-json": f"/river.json?before={self.entries[RIVER_SHOWN - 1].day.isoformat()}",
            "rss": "/rss20.xml",
            "archives": "/archives/",
            "month": f"/archives/{entry.day:%Y/%m}/",
            "blog": f"/blogs/{entry.blog[0]}/",
            "entry": entry.path,
            "paper": self.items[0].path,
        }

    def page(self, *, title: str, content: str, kind: str, status: int = 200, head: str = "") -> Response:
        return self._page(title=title, content=content, kind=kind, status=status, head=head)

    def _page(
        self, *, title: str, content: str, kind: str, status: int = 200, head: str = "", links: tuple[str, ...] = ()
    ) -> Response:
        subscriptions = "".join(
            f'<li><a href="/blogs/{slug}/">{esc(name)}</a> <a class="feed" href="https://{slug}.example.org/feed/">'
            "(feed)</a></li>"
            for slug, name, _ in sorted(self.blogs.values(), key=lambda b: b[1].lower())
        )
        body = (
            '<div id="header"><h1><a href="/">Planet Field Botany</a></h1><p>What botanists and field ecologists are '
            f'writing</p></div><div id="content">{content}</div><div id="sidebar"><h2>Subscriptions</h2><ul>'
            f'{subscriptions}</ul><h2>Archives</h2><p><a href="/archives/">Entries by month</a></p><h2>Feeds</h2><p>'
            '<a href="/rss20.xml">RSS 2.0</a></p><h2>About</h2><p>Planet Field Botany collects the blogs of people '
            'who study plants in the field. <a href="/about/">About</a> · <a href="/join/">Add your blog</a> · <a '
            'href="/contact/">Contact</a> · <a href="/privacy/">Privacy</a></p><p>Entries are the copyright of their '
            "authors. Powered by Planet Venus.</p></div>"
        )
        html = document(
            title=title if title == "Planet Field Botany" else f"{title} | Planet Field Botany", head=head, body=body
        )
        return Response.html(html, kind=kind, status=status, script_links=links)

    # ------------------------------------------------------------------ the river

    @staticmethod
    def _teaser(entry: Entry) -> str:
        if entry.item is None:
            return entry.text
        return f"New preprint by {river_authors(entry.item.authors)}: {entry.text.split('. ')[0].rstrip('.')}. …"

    def _river_html(self, shown: list[Entry]) -> str:
        out, current = "", None
        for entry in shown:
            if entry.day != current:
                current = entry.day
                out += f'<h2 class="date">{MONTHS[current.month - 1]} {current.day}, {current.year}</h2>'
            slug, name, blogger = entry.blog
            out += (
                f'<div class="entry"><h3><a class="channel" href="/blogs/{slug}/">{esc(name)}</a> — <a href="'
                f'{attr(entry.path)}">{esc(entry.title)}</a></h3><div class="content"><p>{esc(self._teaser(entry))}</p>'
                f'</div><p class="permalink">by {esc(blogger)} at <a href="{attr(entry.path)}">{entry.time}</a> · '
                f'<a href="{attr(entry.path)}">Read more</a></p></div>'
            )
        return out

    def _river(self, request: Request) -> Response:
        shown = self.entries[:RIVER_SHOWN]
        cursor = f"{shown[-1].day.isoformat()}T{shown[-1].time}"
        content = (
            f'<div id="river">{self._river_html(shown)}</div><div id="more" data-before="{cursor}"></div><noscript>'
            '<p>Older entries load as you scroll. Without JavaScript, read them in the <a href="/archives/">archives'
            '</a>.</p></noscript><script src="/static/river.js"></script>'
        )
        rest = tuple(e.path for e in self.entries[RIVER_SHOWN:])
        return self._page(title="Planet Field Botany", content=content, kind="home", links=rest)

    def _river_json(self, request: Request) -> Response:
        before = request.param("before")
        older = [e for e in self.entries if f"{e.day.isoformat()}T{e.time}" < before] if before else self.entries
        shown = older[:RIVER_SHOWN]
        following = f"{shown[-1].day.isoformat()}T{shown[-1].time}" if len(older) > RIVER_SHOWN and shown else None
        return Response.json({"html": self._river_html(shown), "before": following}, kind="api")

    def _script(self, request: Request) -> Response:
        script = (
            "(function(){var more=document.getElementById('more');var busy=false;function load(){var before=more."
            "dataset.before;if(busy||!before)return;busy=true;fetch('/river.json?before='+encodeURIComponent(before))"
            ".then(function(r){return r.json();}).then(function(d){document.getElementById('river').insertAdjacentHTML"
            "('beforeend',d.html);more.dataset.before=d.before||'';busy=false;});}window.addEventListener('scroll',"
            "function(){if(window.innerHeight+window.scrollY>=document.body.offsetHeight-400)load();});})();\n"
        )
        return Response.text(script, kind="script", content_type="text/javascript")

    def _rss(self, request: Request) -> Response:
        items = "".join(
            f"<item><title>{esc(e.blog[1])}: {esc(e.title)}</title><link>{esc(self.links.absolute(e.path))}</link>"
            f"<pubDate>{format_datetime(self._moment(e))}</pubDate><description>{esc(self._teaser(e))}</description>"
            "</item>"
            for e in self.entries[:20]
        )
        text = (
            '<?xml version="1.0" encoding="utf-8"?>\n<rss version="2.0"><channel><title>Planet Field Botany</title>'
            f"<link>{esc(self.links.absolute('/'))}</link><description>What botanists and field ecologists are "
            f"writing</description>{items}</channel></rss>\n"
        )
        return Response.text(text, kind="feed", content_type="application/rss+xml; charset=utf-8")

    @staticmethod
    def _moment(entry: Entry) -> datetime:
        return datetime(
            entry.day.year, entry.day.month, entry.day.day, entry.minute // 60, entry.minute % 60, tzinfo=UTC
        )

    # ------------------------------------------------------------------ archives and blogs

    def _archives(self, request: Request) -> Response:
        months: dict[str, int] = {}
        for entry in self.entries:
            months[f"{entry.day:%Y/%m}"] = months.get(f"{entry.day:%Y/%m}", 0) + 1
        rows = "".join(
            f'<li><a href="/archives/{month}/">{MONTHS[int(month[5:]) - 1]} {month[:4]}</a> ({count})</li>'
            for month, count in months.items()
        )
        return self.page(title="Archives", content=f"<h2>Archives</h2><ul>{rows}</ul>", kind="collection")

    def _month(self, request: Request, year: str, month: str) -> Response:
        mine = sorted((e for e in self.entries if f"{e.day:%Y/%m}" == f"{year}/{month}"), key=lambda e: e.order)
        if not mine:
            return self.not_found()
        rows = "".join(
            f'<li><span class="day">{e.day.day} {MONTHS[e.day.month - 1][:3]} {e.day.year}</span> <a href="'
            f'{attr(e.path)}">{esc(e.title)}</a> — <a href="/blogs/{e.blog[0]}/">{esc(e.blog[1])}</a></li>'
            for e in mine
        )
        name = f"{MONTHS[int(month) - 1]} {year}"
        return self.page(title=name, content=f'<h2>{name}</h2><ul class="archive">{rows}</ul>', kind="listing")

    def _blog(self, request: Request, slug: str) -> Response:
        blog = self.blogs.get(slug)
        if blog is None:
            return self.not_found()
        mine = [e for e in self.entries if e.blog == blog]
        shown, pager = paged(
            request, mine, BLOG_PAGE, lambda n: f"/blogs/{slug}/?page={n}" if n > 1 else f"/blogs/{slug}/"
        )
        rows = "".join(
            f'<li><a href="{attr(e.path)}">{esc(e.title)}</a> <span class="day">{e.day.day} '
            f"{MONTHS[e.day.month - 1][:3]} {e.day.year}</span></li>"
            for e in shown
        )
        content = (
            f'<h2>{esc(blog[1])}</h2><p>By {esc(blog[2])} · <a href="https://{slug}.example.org/">{slug}.example.org'
            f"</a></p><ul>{rows}</ul>{pager}"
        )
        return self.page(title=blog[1], content=content, kind="listing")

    # ------------------------------------------------------------------ entries

    def _entry(self, request: Request) -> Response:
        entry = self.by_entry.get(request.path)
        if entry is None:
            return self.not_found()
        slug, name, blogger = entry.blog
        original = f"https://{slug}.example.org{entry.path}"
        body = f"<p>{esc(entry.text)}</p>" if entry.item is None else self._announcement(entry.item)
        content = (
            f'<div class="entry single"><h2>{esc(entry.title)}</h2><p class="meta">Posted by {esc(blogger)} on <a '
            f'href="/blogs/{slug}/">{esc(name)}</a></p><p class="date">{posted_line(entry)}</p><div class="content">'
            f'{body}</div><p class="original">Originally published at <a href="{original}">{esc(name)}</a>. '
            "Comments are on the original post.</p></div>"
        )
        return self.page(title=entry.title, content=content, kind="article" if entry.item else "news")

    def _announcement(self, item: Item) -> str:
        seed = _digest(item.key)
        update = ""
        for copy in self.testbed.copies_of(item):
            if copy.site != item.site:
                day = date.fromisoformat(copy.date)
                update = (
                    f'<p class="update"><strong>Update, {day.day} {MONTHS[day.month - 1]} {day.year}:</strong> the '
                    f'paper is now out, with DOI {esc(copy.doi)}. The <a href="'
                    f'{attr(self.links.on_site(copy.site, copy.path))}">reference is listed by the Whinmoor Herbarium'
                    "</a>, whose specimens we used.</p>"
                )
        lead = item.authors[0]
        others = len(item.authors) - 1
        return (
            f"<p>{_OPENINGS[seed % len(_OPENINGS)]} The work was led by {esc(lead)}, with {others} co-author"
            f"{'s' if others != 1 else ''}.</p><blockquote><p>{esc(item.abstract)}</p></blockquote><p>Comments and "
            'corrections are very welcome before we submit it.</p><p class="reference">Reference: '
            f'{esc(vancouver(item.authors))}. {esc(item.title)}. Preprint, {item.date[:4]}. <a href="'
            f'{attr(item.pdf_path)}">PDF</a></p>{update}'
        )

    def _pdf(self, request: Request, year: str, slug: str) -> Response:
        item = next((i for i in self.items if i.pdf_path == request.path), None)
        return self.pdf(item) if item is not None else self.not_found()
