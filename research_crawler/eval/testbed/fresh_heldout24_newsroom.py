"""HELD OUT, fresh (twenty-fourth batch): ScienceWire, a service of research news releases built as EurekAlert! is
(see `fresh_heldout24.py`; do not read or tune anything to it). Universities and institutes post releases; the home
page shows the latest eight and leads to every release (`/news-releases/browse/all`, twenty a page, newest first,
numbered pages `?page=2`) and to the subjects (`/news-releases/browse/subjects`). A subject channel
(`/news-releases/browse/subject/medicine-health`) shows its ten newest and a "Load more" button whose script fetches
the next ten as a fragment of HTML (`.../more?offset=10`). A release about a paper (`/news-releases/1038765`) has a
headline of its own, "Peer-Reviewed Publication", the institution, "News Release 12-Mar-2024", a body that names the
first author in a quotation and the co-authors in a sentence, and the paper's fields ("Journal", "DOI", "Article
Title", "Article Publication Date: 12-Mar-2024"); announcements, grants and awards and meeting notices sit among
them. No metadata tags. The search (`/news-releases/search?keywords=`) is an open GET; robots.txt forbids the
embargoed releases and the reporters' portal.
"""

from __future__ import annotations

import hashlib
import re
from datetime import date, timedelta
from typing import ClassVar

from research_crawler.eval.testbed.decoys import DecoyKind
from research_crawler.eval.testbed.fresh_heldout24 import journal_of
from research_crawler.eval.testbed.markup import MONTHS, attr, document, esc, url_slug
from research_crawler.eval.testbed.models import Item
from research_crawler.eval.testbed.site_app import Request, Response, Route, SiteApp

__all__ = [
    "ALL_PAGE",
    "CHANNEL_PAGE",
    "HOME_LATEST",
    "Fresh24NewsroomSite",
    "Release",
    "co_author_sentence",
    "headline",
    "institution_of",
    "releases_of",
    "wire_day",
]

ALL_PAGE = 20
CHANNEL_PAGE = 10
HOME_LATEST = 8
_INSTITUTIONS = (
    "University of Kesterby",
    "Haldane Institute for Health Research",
    "Marrow University",
    "Northfell College of Veterinary Science",
    "Ardmore Wildlife Research Station",
    "Vellmar University Hospital",
)
_ANNOUNCEMENTS = (
    ("Announcement", "{inst} names new director of its graduate school"),
    ("Grant and Award", "{inst} receives grant to expand its biobank"),
    ("Meeting Announcement", "Annual symposium on one health opens at {inst}"),
    ("Announcement", "{inst} opens new imaging facility to visiting researchers"),
    ("Grant and Award", "Early-career researchers at {inst} win teaching prizes"),
    ("Meeting Announcement", "Registration opens for the regional public health forum at {inst}"),
    ("Announcement", "{inst} and city council sign data-sharing agreement"),
)
_HEADLINES = (
    "Researchers use {method} to study {subject}",
    "New findings on {subject}",
    "{inst} scientists report on {subject}",
    "What {method} revealed about {subject}",
)


def _digest(text: str) -> int:
    return int(hashlib.sha1(text.encode()).hexdigest()[:12], 16)


def wire_day(day: date) -> str:
    """'12-Mar-2024', as the service writes dates."""
    return f"{day.day:02d}-{MONTHS[day.month - 1][:3]}-{day.year}"


def institution_of(item: Item) -> str:
    return _INSTITUTIONS[_digest(item.authors[0]) % len(_INSTITUTIONS)]


def headline(item: Item) -> str:
    """The release's own headline (not the paper's title)."""
    subject, method = (*item.keywords, "", "")[:2]
    text = _HEADLINES[_digest(item.key) % len(_HEADLINES)].format(
        subject=subject or "a new question", method=method or "new methods", inst=institution_of(item)
    )
    return text[:1].upper() + text[1:]


def co_author_sentence(authors: tuple[str, ...]) -> str:
    """'Co-authors of the paper are B, C and D.' (none for a paper of one author)."""
    others = authors[1:]
    if not others:
        return ""
    if len(others) == 1:
        return f"The paper's co-author is {others[0]}."
    return f"Co-authors of the paper are {', '.join(others[:-1])} and {others[-1]}."


class Release:
    """A news release: about a paper (`item`) or an announcement."""

    def __init__(self, number: str, day: date, category: str, title: str, kind: str, inst: str, item: Item | None):
        self.number = number
        self.day = day
        self.category = category
        self.title = title
        self.kind = kind
        self.inst = inst
        self.item = item

    @property
    def path(self) -> str:
        return f"/news-releases/{self.number}"


def releases_of(items: list[Item]) -> list[Release]:
    """Every release, newest first: one per paper on the release's day, and an announcement beside about every other."""
    made = [
        Release(
            i.key,
            date.fromisoformat(i.date),
            i.category,
            headline(i),
            "Peer-Reviewed Publication",
            institution_of(i),
            i,
        )
        for i in items
    ]
    taken = {i.key for i in items}
    for n, item in enumerate(items):
        if n % 2:
            continue
        seed = _digest(item.key + "-news")
        number = str(1900000 + seed % 99000)
        while number in taken:
            number = str(int(number) + 1)
        taken.add(number)
        kind, text = _ANNOUNCEMENTS[seed % len(_ANNOUNCEMENTS)]
        inst = _INSTITUTIONS[seed // 7 % len(_INSTITUTIONS)]
        day = date.fromisoformat(item.date) + timedelta(days=1 + seed % 5)
        made.append(Release(number, day, item.category, text.format(inst=inst), kind, inst, None))
    return sorted(made, key=lambda r: (r.day, r.number), reverse=True)


class Fresh24NewsroomSite(SiteApp):
    """A news-release service: latest, every release paged, subject channels with "Load more", release pages."""

    decoy_paths: ClassVar[dict[str, DecoyKind]] = {
        "/about": "about",
        "/help": "help",
        "/contact": "contact",
        "/privacy": "privacy",
        "/terms": "terms",
    }

    def routes(self) -> list[Route]:
        self.releases = releases_of(self.items)
        self.by_number = {r.number: r for r in self.releases}
        self.channels = {url_slug(c): c for c in sorted({r.category for r in self.releases})}
        return [
            (re.compile(r"/"), self._home),
            (re.compile(r"/news-releases/browse/all"), self._all),
            (re.compile(r"/news-releases/browse/subjects"), self._subjects),
            (re.compile(r"/news-releases/browse/subject/(?P<slug>[a-z-]+)"), self._channel),
            (re.compile(r"/news-releases/browse/subject/(?P<slug>[a-z-]+)/more"), self._more),
            (re.compile(r"/news-releases/search"), self._search),
            (re.compile(r"/news-releases/(?P<number>\d{7})"), self._release),
            (re.compile(r"/news-releases/(?P<number>\d{7})/print\.pdf"), self._print),
        ]

    def robots_txt(self) -> str:
        return "User-agent: *\nDisallow: /embargoed/\nDisallow: /reporter/\nDisallow: /submitter/\n"

    def sample_paths(self) -> dict[str, str]:
        slug = next(iter(self.channels))
        other = next(r for r in self.releases if r.item is None)
        return {
            "home": "/",
            "all": "/news-releases/browse/all",
            "subjects": "/news-releases/browse/subjects",
            "channel": f"/news-releases/browse/subject/{slug}",
            "more": f"/news-releases/browse/subject/{slug}/more?offset={CHANNEL_PAGE}",
            "search": "/news-releases/search?keywords=study",
            "release": self.items[0].path,
            "announcement": other.path,
        }

    def page(
        self,
        *,
        title: str,
        content: str,
        kind: str,
        status: int = 200,
        head: str = "",
        script_links: tuple[str, ...] = (),
    ) -> Response:
        body = (
            '<header class="main_header"><a class="brand" href="/">ScienceWire</a><span class="tagline">The global '
            'source for science news</span><form class="search" action="/news-releases/search" method="get"><input '
            'name="keywords" placeholder="Search news releases"><button type="submit">Search</button></form><nav><a '
            'href="/news-releases/browse/all">News Releases</a> <a href="/news-releases/browse/subjects">Subjects</a> '
            '<a href="/embargoed/">Embargoed News</a> <a href="/reporter/login">Reporters</a> <a href="/submitter/'
            'login">PIOs</a></nav></header>'
            f'<main>{content}</main><footer><p><a href="/about">About</a> · <a href="/help">Help</a> · <a href='
            '"/contact">Contact</a> · <a href="/privacy">Privacy</a> · <a href="/terms">Terms</a></p><p>News releases '
            "are posted by their institutions; ScienceWire is not responsible for the accuracy of releases posted to "
            "it.</p></footer>"
        )
        return Response.html(
            document(title=f"{title} | ScienceWire", head=head, body=body),
            kind=kind,
            status=status,
            script_links=script_links,
        )

    def _card(self, release: Release) -> str:
        return (
            f'<article class="post"><a href="{attr(release.path)}"><h2 class="post_title">{esc(release.title)}</h2>'
            f'</a><p class="orgs">{esc(release.inst)}</p><p class="meta"><span class="kind">{esc(release.kind)}'
            f"</span> · <time>{wire_day(release.day)}</time> · {esc(release.category)}</p></article>"
        )

    def _home(self, request: Request) -> Response:
        cards = "".join(self._card(r) for r in self.releases[:HOME_LATEST])
        channels = "".join(
            f'<li><a href="/news-releases/browse/subject/{slug}">{esc(name)}</a></li>'
            for slug, name in self.channels.items()
        )
        content = (
            f'<section class="latest"><h1>Latest News Releases</h1>{cards}<p><a href="/news-releases/browse/all">'
            f"View all news releases</a></p></section><aside><h2>Subjects</h2><ul>{channels}</ul><h2>Embargoed news"
            '</h2><p>Registered reporters can read releases before their embargo lifts. <a href="/reporter/login">'
            "Sign in</a></p></aside>"
        )
        return self.page(title="Home", content=content, kind="home")

    def _all(self, request: Request) -> Response:
        pages = max(1, -(-len(self.releases) // ALL_PAGE))
        page = request.int_param("page", 1, minimum=1, maximum=pages)
        shown = self.releases[(page - 1) * ALL_PAGE : page * ALL_PAGE]
        links = " ".join(
            f'<span class="current">{n}</span>'
            if n == page
            else f'<a href="/news-releases/browse/all?page={n}">{n}</a>'
            for n in range(1, pages + 1)
        )
        content = (
            f'<h1>All News Releases</h1>{"".join(self._card(r) for r in shown)}<nav class="pagination">{links}</nav>'
        )
        return self.page(title="All News Releases", content=content, kind="listing")

    def _subjects(self, request: Request) -> Response:
        rows = "".join(
            f'<li><a href="/news-releases/browse/subject/{slug}">{esc(name)}</a></li>'
            for slug, name in self.channels.items()
        )
        return self.page(title="Subjects", content=f"<h1>Subjects</h1><ul>{rows}</ul>", kind="collection")

    def _in_channel(self, slug: str) -> list[Release] | None:
        name = self.channels.get(slug)
        return None if name is None else [r for r in self.releases if r.category == name]

    def _more_button(self, slug: str, offset: int, total: int) -> tuple[str, tuple[str, ...]]:
        if offset >= total:
            return "", ()
        address = f"/news-releases/browse/subject/{slug}/more?offset={offset}"
        button = f'<button class="load-more" data-url="{attr(address)}">Load more</button>'
        return button, (address,)

    def _channel(self, request: Request, slug: str) -> Response:
        mine = self._in_channel(slug)
        if mine is None:
            return self.not_found()
        button, links = self._more_button(slug, CHANNEL_PAGE, len(mine))
        script = (
            "<script>document.addEventListener('click',function(e){var b=e.target.closest('.load-more');if(!b)return;"
            "fetch(b.dataset.url).then(function(r){return r.text()})"
            ".then(function(h){b.insertAdjacentHTML('afterend',h);"
            "b.remove();});});</script>"
        )
        content = (
            f'<h1>{esc(self.channels[slug])}</h1><div class="posts">'
            f"{''.join(self._card(r) for r in mine[:CHANNEL_PAGE])}"
            f"{button}</div>{script}"
        )
        return self.page(title=self.channels[slug], content=content, kind="listing", script_links=links)

    def _more(self, request: Request, slug: str) -> Response:
        mine = self._in_channel(slug)
        offset = request.int_param("offset", CHANNEL_PAGE)
        if mine is None:
            return self.not_found()
        button, links = self._more_button(slug, offset + CHANNEL_PAGE, len(mine))
        fragment = "".join(self._card(r) for r in mine[offset : offset + CHANNEL_PAGE]) + button
        return Response.html(fragment, kind="listing", script_links=links)

    def _search(self, request: Request) -> Response:
        words = request.param("keywords").lower().split()
        found = [r for r in self.releases if words and all(w in self._text(r).lower() for w in words)]
        content = f"<h1>Search results</h1><p>{len(found)} releases</p>{''.join(self._card(r) for r in found[:50])}"
        return self.page(title="Search", content=content, kind="search")

    def _text(self, release: Release) -> str:
        item = release.item
        return (
            release.title if item is None else f"{release.title} {item.title} {item.abstract} {' '.join(item.authors)}"
        )

    def _release(self, request: Request, number: str) -> Response:
        release = self.by_number.get(number)
        if release is None:
            return self.not_found()
        item = release.item
        if item is None:
            body = (
                f"<p>{esc(release.inst)} announced today: {esc(release.title[:1].lower() + release.title[1:])}. "
                "Details, "
                "dates and contacts are on the institution's website.</p><p>The announcement is not about a research "
                "paper.</p>"
            )
            fields = ""
        else:
            sentences = item.abstract.split(". ")
            journal = journal_of(item.title, item.category)
            day = release.day
            quote = sentences[2] if len(sentences) > 2 else sentences[-1]
            body = (
                f"<p>In a study published on {day.day} {MONTHS[day.month - 1]} in <i>{esc(journal)}</i>, "
                "researchers at "
                f"{esc(release.inst)} report new results. {esc(sentences[0].rstrip('.'))}.</p><p>"
                f"{esc('. '.join(sentences[1:2]).rstrip('.'))}.</p><p>“{esc(quote.rstrip('.'))},” said "
                f"{esc(item.authors[0])}, first author of the study. “We hope this helps others build on the work.”</p>"
                f"<p>{esc(co_author_sentence(item.authors))} The study was funded by national research councils.</p>"
            )
            fields = (
                f'<h3>Journal</h3><p>{esc(journal)}</p><h3>DOI</h3><p><a href="https://doi.org/{attr(item.doi)}">'
                f"{esc(item.doi)}</a></p><h3>Method of Research</h3><p>Observational study</p><h3>Article Title</h3><p>"
                f"{esc(item.title)}</p><h3>Article Publication Date</h3><p>{wire_day(date.fromisoformat(item.date))}"
                "</p><h3>COI Statement</h3><p>The authors declare no competing interests.</p>"
            )
        content = (
            f'<article><h1 class="page_title">{esc(release.title)}</h1><p class="release_type">{esc(release.kind)}</p>'
            f'<p class="institution">{esc(release.inst)}</p><div class="release_date"><p>News Release <time>'
            f'{wire_day(release.day)}</time></p></div><div class="entry">{body}</div>{fields}<p class="media">Media '
            f'contact: press office, {esc(release.inst)}</p><p><a href="{attr(release.path)}/print.pdf">Print</a> · '
            f'<a href="/news-releases/browse/subject/{url_slug(release.category)}">More in {esc(release.category)}</a>'
            '</p><p class="disclaimer">Disclaimer: ScienceWire is not responsible for the accuracy of news releases '
            "posted to it by contributing institutions.</p></article>"
        )
        return self.page(title=release.title, content=content, kind="article" if item else "news")

    def _print(self, request: Request, number: str) -> Response:
        release = self.by_number.get(number)
        if release is None or release.item is None:
            return self.not_found()
        return self.pdf(release.item)
