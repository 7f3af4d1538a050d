"""HELD OUT, fresh (twenty-first batch): PreLens, built as Sciety shows the evaluations that review groups publish
of preprints (see `fresh_heldout21.py`; do not read or tune anything to it). The home page shows the articles
evaluated last, the featured lists and a GET search; the groups page leads to each group (`/groups/gut-brain-club`),
whose page links its "Evaluated articles" list (`/lists/<id>`) and its about page. A list orders its articles by the
day it was last updated for them (the latest evaluation, not the day the preprint was posted), five a page with
"Next page" and "Previous page" links (`?page=2`); each card gives the title, three authors at most then "et al.",
the number of evaluations and "Latest activity Jun 2, 2024". Users' curated lists are ordered by the day an article
was added. The search (`/search?query=`) answers ten results a page. An article page
(`/articles/activity/10.1101/2024.03.12.584321`) gives the title, every author, "Posted Mar 12, 2024 on bioRxiv",
the abstract and the feed of evaluations, each dated, and, for a preprint since published in a journal, the
published version (on ScholarNet: one work, two sites); Open Graph tags only, without dates. Log-in, sign-up,
saving and the API are forbidden.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from datetime import date, timedelta
from typing import ClassVar
from urllib.parse import urlencode

from research_crawler.eval.testbed.decoys import DecoyKind
from research_crawler.eval.testbed.full_text import search_items
from research_crawler.eval.testbed.markup import MONTHS, attr, document, esc, meta_property
from research_crawler.eval.testbed.models import Item
from research_crawler.eval.testbed.site_app import Request, Response, Route, SiteApp, paged

__all__ = [
    "GROUPS",
    "PER_PAGE",
    "SEARCH_PAGE",
    "Evaluation",
    "Fresh21ReviewsSite",
    "card_authors",
    "evaluations",
    "list_id",
    "list_order",
    "sciety_date",
]

PER_PAGE = 5
SEARCH_PAGE = 10
#: Review groups (slug → name, the site category it evaluates or None for every third preprint of any).
GROUPS: dict[str, tuple[str, str | None]] = {
    "gut-brain-club": ("Gut–Brain Journal Club", "Microbiology"),
    "regeneration-collective": ("Regeneration Review Collective", "Developmental Biology"),
    "open-preprint-notes": ("Open Preprint Notes", None),
}
_KINDS = ("Review", "Evaluation summary", "Curation statement")


def _hash(text: str) -> int:
    return sum(ord(c) * (n + 47) for n, c in enumerate(text))


def sciety_date(day: date) -> str:
    """'Mar 12, 2024', as the site writes every date."""
    return f"{MONTHS[day.month - 1][:3]} {day.day}, {day.year}"


def list_id(slug: str) -> str:
    """A list's identifier (a UUID, fixed by its owner)."""
    digest = hashlib.sha1(slug.encode()).hexdigest()
    return f"{digest[:8]}-{digest[8:12]}-4{digest[13:16]}-a{digest[17:20]}-{digest[20:32]}"


@dataclass(frozen=True)
class Evaluation:
    group: str
    day: date
    kind: str


def evaluations(item: Item) -> list[Evaluation]:
    """The evaluations of a preprint, newest first: its subject's group, and Open Preprint Notes for one in three."""
    posted, seed = date.fromisoformat(item.date), _hash(item.key)
    made = []
    for slug, (_, category) in GROUPS.items():
        if category == item.category:
            made.append(Evaluation(slug, posted + timedelta(days=21 + seed % 90), _KINDS[seed % 2]))
        elif category is None and seed % 3 == 0:
            made.append(Evaluation(slug, posted + timedelta(days=6 + seed % 40), _KINDS[2]))
    return sorted(made, key=lambda e: e.day, reverse=True)


def list_order(items: list[Item], slug: str) -> list[tuple[Item, date]]:
    """A group's evaluated articles with the day each was last updated, latest first."""
    dated = [(i, [e.day for e in evaluations(i) if e.group == slug]) for i in items]
    chosen = [(i, max(days)) for i, days in dated if days]
    return sorted(chosen, key=lambda pair: (pair[1], pair[0].key), reverse=True)


def card_authors(item: Item) -> str:
    """Authors on a card: three at most, then 'et al.'."""
    return ", ".join(item.authors[:3]) + (" et al." if len(item.authors) > 3 else "")


class Fresh21ReviewsSite(SiteApp):
    """A Sciety-like aggregator: home, groups, evaluated-article lists, curated lists, search, article activity."""

    decoy_paths: ClassVar[dict[str, DecoyKind]] = {
        "/about": "about",
        "/legal": "terms",
        "/contact-us": "contact",
    }

    def routes(self) -> list[Route]:
        self.by_doi = {i.key: i for i in self.items}
        self.lists = {list_id(slug): slug for slug in GROUPS} | {list_id("curated"): "curated"}
        return [
            (re.compile(r"/"), self._home),
            (re.compile(r"/groups"), self._groups),
            (re.compile(r"/groups/(?P<slug>[a-z-]+)"), self._group),
            (re.compile(r"/groups/(?P<slug>[a-z-]+)/about"), self._about),
            (re.compile(r"/lists/(?P<uuid>[0-9a-f-]{36})"), self._list),
            (re.compile(r"/search"), self._search),
            (re.compile(r"/articles/activity/(?P<doi>10\.1101/\d{4}\.\d{2}\.\d{2}\.\d{6})"), self._article),
            (re.compile(r"/articles/(?P<doi>10\.1101/\d{4}\.\d{2}\.\d{2}\.\d{6})\.pdf"), self._pdf),
        ]

    def robots_txt(self) -> str:
        return (
            "User-agent: *\nDisallow: /log-in\nDisallow: /sign-up\nDisallow: /save-article\nDisallow: /api/\n"
            "Disallow: /groups/*/followers\n"
        )

    def sample_paths(self) -> dict[str, str]:
        item = self.items[0]
        return {
            "home": "/",
            "groups": "/groups",
            "group": "/groups/gut-brain-club",
            "about": "/groups/gut-brain-club/about",
            "list": f"/lists/{list_id('gut-brain-club')}",
            "curated": f"/lists/{list_id('curated')}",
            "search": "/search?query=bacteria",
            "article": item.path,
        }

    def page(self, *, title: str, content: str, kind: str, status: int = 200, head: str = "") -> Response:
        body = (
            '<header class="site-header"><a class="site-header__logo" href="/">PreLens</a><nav><a href="/groups">'
            'Groups</a> <a href="/search">Search</a> <a href="/about">About</a> <a class="site-header__button" href='
            '"/log-in">Log In</a> <a class="site-header__button" href="/sign-up">Sign Up</a></nav></header>'
            f'<main class="page-content">{content}</main><footer class="site-footer"><a href="/legal">Legal</a> · '
            '<a href="/contact-us">Contact</a> · PreLens is a non-profit project for open evaluation of preprints.'
            "</footer>"
        )
        title = f"{title} | PreLens" if title != "PreLens" else title
        return Response.html(document(title=title, head=head, body=body), kind=kind, status=status)

    def _card(self, item: Item, note: str) -> str:
        count = len(evaluations(item))
        return (
            f'<article class="article-card"><h3 class="article-card__title"><a class="article-card__link" href="'
            f'{attr(item.path)}">{esc(item.title)}</a></h3><div class="article-card__authors">'
            f'{esc(card_authors(item))}</div><div class="article-card__meta"><span>{count} evaluation'
            f"{'s' if count != 1 else ''}</span> <span>{note}</span></div></article>"
        )

    def _home(self, request: Request) -> Response:
        latest = sorted(self.items, key=lambda i: (evaluations(i)[0].day, i.key), reverse=True)[:5]
        cards = "".join(self._card(i, f"Latest activity {sciety_date(evaluations(i)[0].day)}") for i in latest)
        content = (
            '<section class="hero"><h1>Stay updated with the latest evaluated preprints</h1><form action="/search" '
            'method="get"><input name="query" placeholder="Search for preprints"><input type="hidden" name="category" '
            'value="articles"><button>Search</button></form></section><section><h2>Recently evaluated</h2>'
            f'{cards}</section><section><h2>Featured lists</h2><ul><li><a href="/lists/{list_id("curated")}">'
            "Sleep, rhythm and the host–microbe interface</a> by @halvorsen_lab</li></ul></section><section><h2>"
            'Groups</h2><p><a href="/groups">See all evaluating groups</a></p></section>'
        )
        return self.page(title="PreLens", content=content, kind="home")

    def _groups(self, request: Request) -> Response:
        rows = "".join(
            f'<li class="group-card"><a href="/groups/{slug}">{esc(name)}</a><p>{self._count(slug)} evaluated '
            "articles</p></li>"
            for slug, (name, _) in GROUPS.items()
        )
        return self.page(title="Groups", content=f"<h1>Groups</h1><ul>{rows}</ul>", kind="collection")

    def _evaluated(self, slug: str) -> list[tuple[Item, date]]:
        return list_order(self.items, slug)

    def _count(self, slug: str) -> int:
        return len(self._evaluated(slug))

    def _group(self, request: Request, slug: str) -> Response:
        if slug not in GROUPS:
            return self.not_found()
        name, _ = GROUPS[slug]
        evaluated = self._evaluated(slug)
        updated = sciety_date(evaluated[0][1]) if evaluated else "never"
        content = (
            f'<header class="group-page-header"><h1>{esc(name)}</h1><a href="/groups/{slug}/followers">Follow</a>'
            f'</header><nav class="tabs"><a class="tab tab--active" href="/groups/{slug}">Lists</a> <a class="tab" '
            f'href="/groups/{slug}/about">About</a></nav><section class="list-card"><h2><a href="/lists/'
            f'{list_id(slug)}">Evaluated articles</a></h2><p>Articles that have been evaluated by {esc(name)}, most '
            f"recently evaluated first.</p><p>{len(evaluated)} articles · Last updated {updated}</p></section>"
        )
        return self.page(title=name, content=content, kind="collection")

    def _about(self, request: Request, slug: str) -> Response:
        if slug not in GROUPS:
            return self.not_found()
        name, category = GROUPS[slug]
        scope = f"preprints in {category.lower()}" if category else "preprints across the life sciences"
        content = (
            f"<h1>About {esc(name)}</h1><p>{esc(name)} is a community of researchers who read and publicly evaluate "
            f"{esc(scope)}. Evaluations are written by at least two members and posted on Hypothesis, then shown here."
            f'</p><p><a href="/lists/{list_id(slug)}">See the evaluated articles</a></p>'
        )
        return self.page(title=f"About {name}", content=content, kind="about")

    def _list(self, request: Request, uuid: str) -> Response:
        slug = self.lists.get(uuid)
        if slug is None:
            return self.not_found()
        if slug == "curated":
            chosen = sorted(
                (i for i in self.items if i.category == "Microbiology"), key=lambda i: _hash(i.key + "added")
            )[:6]
            added = [(i, date.fromisoformat(i.date) + timedelta(days=30 + _hash(i.key) % 60)) for i in chosen]
            entries = sorted(added, key=lambda pair: pair[1], reverse=True)
            title, owner, note = "Sleep, rhythm and the host–microbe interface", "@halvorsen_lab", "Added"
        else:
            entries, (title, owner), note = (
                self._evaluated(slug),
                ("Evaluated articles", GROUPS[slug][0]),
                "Latest activity",
            )
        pages = max(1, -(-len(entries) // PER_PAGE))
        page = request.int_param("page", 1, minimum=1, maximum=pages)
        shown = entries[(page - 1) * PER_PAGE : page * PER_PAGE]
        steps = []
        if page > 1:
            steps.append(f'<a class="pagination-controls__prev" href="/lists/{uuid}?page={page - 1}">Previous page</a>')
        if page < pages:
            steps.append(f'<a class="pagination-controls__next" href="/lists/{uuid}?page={page + 1}">Next page</a>')
        cards = "".join(self._card(i, f"{note} {sciety_date(d)}") for i, d in shown)
        content = (
            f'<header class="list-page-header"><h1>{esc(title)}</h1><p>A list by {esc(owner)}</p><p>{len(entries)} '
            f'articles</p></header><section class="list-contents">{cards}</section><p class="pagination-controls">'
            f"Page {page} of {pages} {' '.join(steps)}</p>"
        )
        return self.page(title=title, content=content, kind="listing")

    def _search(self, request: Request) -> Response:
        query = request.param("query")
        found = search_items(self.items, query) if query.strip() else []
        shown, pager = paged(
            request,
            found,
            SEARCH_PAGE,
            lambda n: "/search?" + urlencode({"query": query, "category": "articles", "page": n}),
        )
        cards = "".join(self._card(i, f"Posted {sciety_date(date.fromisoformat(i.date))}") for i in shown)
        content = (
            f'<h1>Search</h1><form action="/search" method="get"><input name="query" value="{attr(query)}"><input '
            'type="hidden" name="category" value="articles"><button>Search</button></form>'
            + (f"<p>Showing {len(found)} results for {esc(query)}</p>{cards}{pager}" if query.strip() else "")
        )
        return self.page(title="Search", content=content, kind="search")

    def _article(self, request: Request, doi: str) -> Response:
        item = self.by_doi.get(doi)
        if item is None:
            return self.not_found()
        feed = "".join(
            f'<li class="activity-feed__item"><div class="activity-feed__item__header"><a href="/groups/{e.group}">'
            f'{esc(GROUPS[e.group][0])}</a> <span>{e.kind}</span> <time datetime="{e.day}">{sciety_date(e.day)}</time>'
            f'</div><p>{esc(self._evaluation_text(item, e))}</p><a href="https://hypothes.is/a/'
            f'{hashlib.sha1((item.key + e.group).encode()).hexdigest()[:22]}">Read the original source</a></li>'
            for e in evaluations(item)
        )
        published = ""
        copy = next((c for c in self.testbed.copies_of(item) if c.site != item.site), None)
        if copy is not None:
            published = (
                f'<section class="published-version"><h2>Published version</h2><p>This preprint has since been '
                f'published in a journal: <a href="{attr(self.links.on_site(copy.site, copy.path))}">'
                f"https://doi.org/{esc(copy.doi)}</a></p></section>"
            )
        posted = date.fromisoformat(item.date)
        head = (
            meta_property("og:title", item.title)
            + meta_property("og:description", item.abstract[:200])
            + meta_property("og:type", "article")
        )
        content = (
            f'<header class="page-header page-header--article"><h1>{esc(item.title)}</h1><ol class="article-author-'
            f'list">{"".join(f"<li>{esc(a)}</li>" for a in item.authors)}</ol><p class="article-meta">Posted <time '
            f'datetime="{posted}">{sciety_date(posted)}</time> on bioRxiv · DOI {esc(doi)}</p><div class="article-'
            f'actions"><a href="https://www.biorxiv.org/content/{doi}v1">Read the full article</a> <a href="/save-'
            f'article?articleid={attr(doi)}">Save article</a> <a href="/articles/{doi}.pdf">Download PDF</a></div>'
            f'</header><section class="article-abstract"><h2>Abstract</h2><p>{esc(item.abstract)}</p></section>'
            f'{published}<section class="activity-feed"><h2>Article activity</h2><ol>{feed}</ol></section>'
        )
        return self.page(title=item.title, content=content, kind="article", head=head)

    @staticmethod
    def _evaluation_text(item: Item, evaluation: Evaluation) -> str:
        if evaluation.kind == "Curation statement":
            return "This preprint was chosen by the group for its clear design; the statement summarises why."
        return (
            "The reviewers found the central claim supported by the data but asked for more replicates and a "
            f"clearer account of the controls (keywords: {', '.join(item.keywords)})."
        )

    def _pdf(self, request: Request, doi: str) -> Response:
        item = self.by_doi.get(doi)
        return self.pdf(item) if item is not None else self.not_found()
