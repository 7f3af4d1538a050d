"""HELD OUT, and fresh: two more sites built unlike ours, written (with their requests and ground truth) before the
crawler was ever run on them, so that their first run is an honest measure of what was built beside other sites.
Do not tune anything to this module; its first benchmark run is kept as it came out
(`benchmarks/out/fresh_heldout.json`).

- Westmere Working Papers (`fresh-bulletin`): a working-paper series with no search and no subjects: one listing of
  every paper, newest first, paged by ``?page=N`` (6 a page, numbered pages and "Next ›"), each entry showing only its
  month ("March 2025") and its authors as initials ("A. Okafor"); each paper's page carries no metadata tags: its
  title in ``<h1>``, "Written by A, B and C" and "Released on 4 March 2025" in its text.
- Nordic Science Observatory (`fresh-lang`): its address opens on a language chooser (English, Français, Deutsch;
  no content until one is chosen); the English site has collections by theme (each paper with its authors as
  "Surname G." and a two-sentence summary) and a GET search that matches any word of the query, best first; each
  publication page carries Dublin Core tags.
"""

from __future__ import annotations

import re
from datetime import date
from typing import ClassVar

from research_crawler.eval.testbed.decoys import DecoyKind
from research_crawler.eval.testbed.markup import MONTHS, attr, document, esc, long_date, meta_name, url_slug
from research_crawler.eval.testbed.models import Item, SiteSpec
from research_crawler.eval.testbed.site_app import Request, Response, Route, SiteApp, paged

__all__ = [
    "FRESH_PLANS",
    "FRESH_SITE_SPECS",
    "FreshBulletinSite",
    "FreshLanguageSite",
    "fresh_identity",
]

FRESH_SITE_SPECS: tuple[SiteSpec, ...] = (
    SiteSpec(
        name="fresh-bulletin",
        title="Westmere Working Papers",
        layout="fresh-bulletin",
        tagline="Working papers of the Westmere Institute, released as they are written",
        categories={
            "smoke": "Environment",
            "antibiotics": "Health",
            "electrolytes": "Energy",
            "tobacco": "Environment",
        },
    ),
    SiteSpec(
        name="fresh-lang",
        title="Nordic Science Observatory",
        layout="fresh-lang",
        tagline="Research from the Nordic observatories, in three languages",
        categories={
            "bleaching": "Ocean Observations",
            "lowres-asr": "Language and Speech",
            "atoms": "Quantum Systems",
            "textile-bleaching": "Ocean Observations",
            "handwriting": "Language and Speech",
        },
    ),
)
#: Each fresh site's requests, as `unfamiliar_corpus.UNFAMILIAR_PLANS` writes them.
FRESH_PLANS: dict[str, tuple[str, ...]] = {
    "fresh-bulletin": ("topic", "recent", "year"),
    "fresh-lang": ("topic", "author", "recent"),
}
#: Papers per topic on each fresh site (the bulletin's listing runs to four pages).
FRESH_PER_TOPIC: dict[str, tuple[int, int]] = {"fresh-bulletin": (5, 6), "fresh-lang": (5, 7)}

_PER_PAGE = 6
_LANGUAGE_COOKIE = "nso_lang"


def fresh_identity(layout: str, day: date, serial: int, title: str) -> tuple[str, str, str, str | None, str | None]:
    """(key, path, PDF path, DOI, preprint id) of a fresh site's item."""
    if layout == "fresh-bulletin":
        key = f"WP{day.year}-{serial:03d}"
        return key, f"/papers/{key.lower()}", f"/papers/{key.lower()}/paper.pdf", None, None
    key = f"nso-{serial:05d}"
    return key, f"/en/publication/{key}", f"/en/publication/{key}/fulltext.pdf", None, None


def _initials(name: str) -> str:
    given, _, surname = name.rpartition(" ")
    return f"{given[:1]}. {surname}" if given else name


def _joined(names: tuple[str, ...]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


class FreshBulletinSite(SiteApp):
    """Westmere: one listing of every paper, newest first, paged by ?page=N; no search; untagged paper pages."""

    decoy_paths: ClassVar[dict[str, DecoyKind]] = {"/about": "about", "/contact": "contact", "/terms": "terms"}

    def routes(self) -> list[Route]:
        return [
            (re.compile(r"/"), self._home),
            (re.compile(r"/papers"), self._listing),
            (re.compile(r"/papers/(?P<key>wp\d{4}-\d{3})"), self._paper),
            (re.compile(r"/papers/(?P<key>wp\d{4}-\d{3})/paper\.pdf"), self._file),
        ]

    def sample_paths(self) -> dict[str, str]:
        return {"home": "/", "listing": "/papers?page=2", "paper": self.items[0].path}

    def page(self, *, title: str, content: str, kind: str, status: int = 200, head: str = "") -> Response:
        body = (
            f'<header><a href="/">{esc(self.spec.title)}</a> <nav><a href="/papers">Working papers</a> '
            '<a href="/about">About the Institute</a> <a href="/contact">Contact</a></nav></header>\n'
            f'<main>{content}</main>\n<footer>{esc(self.spec.tagline)} · <a href="/terms">Terms</a></footer>'
        )
        return Response.html(document(title=f"{title} — {self.spec.title}", head=head, body=body), kind=kind,
                             status=status)  # fmt: skip

    def _entry(self, item: Item) -> str:
        day = date.fromisoformat(item.date)
        return (
            f'<li class="wp"><a href="{attr(item.path)}">{esc(item.title)}</a>'
            f'<div class="meta">{esc(", ".join(map(_initials, item.authors)))} — {MONTHS[day.month - 1]} {day.year}'
            f" · {esc(item.key)}</div></li>"
        )

    def _newest_first(self) -> list[Item]:
        return sorted(self.items, key=lambda item: item.date, reverse=True)

    def _home(self, request: Request) -> Response:
        latest = "".join(self._entry(item) for item in self._newest_first()[:_PER_PAGE])
        content = (
            f"<h1>{esc(self.spec.title)}</h1><p>{esc(self.spec.tagline)}.</p><h2>Latest releases</h2>"
            f'<ul class="papers">{latest}</ul><p><a href="/papers?page=2">Older working papers</a></p>'
        )
        return self.page(title="Home", content=content, kind="home")

    def _listing(self, request: Request) -> Response:
        shown, pager = paged(request, self._newest_first(), _PER_PAGE, lambda n: f"/papers?page={n}")
        page = request.int_param("page", 1, minimum=1)
        pages = -(-len(self.items) // _PER_PAGE)
        following = f' <a href="/papers?page={page + 1}" rel="next">Next ›</a>' if page < pages else ""
        content = (
            f'<h1>All working papers</h1><p>Newest first.</p><ul class="papers">'
            f"{''.join(self._entry(item) for item in shown)}</ul>{pager}{following}"
        )
        return self.page(title=f"Working papers, page {page}", content=content, kind="listing")

    def _paper(self, request: Request, key: str) -> Response:
        item = self.item_at(f"/papers/{key}")
        if item is None:
            return self.not_found()
        content = (
            f'<article><p class="series">Working paper {esc(item.key)}</p><h1>{esc(item.title)}</h1>'
            f"<p>Written by {esc(_joined(item.authors))}</p><p>Released on {esc(long_date(item.date))}</p>"
            f"<h2>Summary</h2><p>{esc(item.abstract)}</p>"
            f'<p><a href="{attr(item.pdf_path)}">Download the paper (PDF)</a></p></article>'
        )
        return self.page(title=item.title, content=content, kind="paper")

    def _file(self, request: Request, key: str) -> Response:
        item = self.item_at(f"/papers/{key}")
        return self.pdf(item) if item else self.not_found()


class FreshLanguageSite(SiteApp):
    """The Nordic Science Observatory: a language chooser, then collections by theme, a loose search, DC tags."""

    decoy_paths: ClassVar[dict[str, DecoyKind]] = {"/en/about": "about", "/en/privacy": "privacy"}

    def routes(self) -> list[Route]:
        return [
            (re.compile(r"/"), self._chooser),
            (re.compile(r"/(?P<language>fr|de)/?"), self._elsewhere),
            (re.compile(r"/en/?"), self._home),
            (re.compile(r"/en/collection/(?P<slug>[a-z0-9-]+)"), self._collection),
            (re.compile(r"/en/search"), self._search),
            (re.compile(r"/en/publication/(?P<key>nso-\d{5})"), self._publication),
            (re.compile(r"/en/publication/(?P<key>nso-\d{5})/fulltext\.pdf"), self._file),
        ]

    def sample_paths(self) -> dict[str, str]:
        first = self.items[0]
        return {
            "chooser": "/",
            "home": "/en/",
            "collection": f"/en/collection/{url_slug(first.category)}",
            "search": "/en/search?q=coral",
            "publication": first.path,
        }

    def page(self, *, title: str, content: str, kind: str, status: int = 200, head: str = "") -> Response:
        body = (
            f'<header><a href="/en/">{esc(self.spec.title)}</a> <a href="/">Language</a> '
            '<form action="/en/search" method="get"><input name="q" aria-label="Search publications">'
            "<button>Search</button></form></header>\n"
            f'<main>{content}</main>\n<footer><a href="/en/about">About</a> · '
            '<a href="/en/privacy">Privacy</a></footer>'
        )
        return Response.html(document(title=f"{title} | {self.spec.title}", head=head, body=body), kind=kind,
                             status=status)  # fmt: skip

    def _chooser(self, request: Request) -> Response:
        body = (
            f"<main><h1>{esc(self.spec.title)}</h1><p>Choose your language · Choisissez votre langue · Wählen Sie "
            'Ihre Sprache</p><ul class="languages"><li><a href="/en/" hreflang="en">English</a></li>'
            '<li><a href="/fr/" hreflang="fr">Français</a></li><li><a href="/de/" hreflang="de">Deutsch</a></li>'
            "</ul></main>"
        )
        return Response.html(document(title="Choose your language", head="", body=body), kind="chooser")

    def _elsewhere(self, request: Request, language: str) -> Response:
        said = {"fr": "Les publications sont en anglais.", "de": "Die Publikationen sind auf Englisch."}[language]
        body = f'<main><h1>{esc(self.spec.title)}</h1><p>{said} <a href="/en/">English</a></p></main>'
        return Response.html(document(title=self.spec.title, head="", body=body, lang=language), kind="language")

    def _themes(self) -> list[str]:
        return sorted(set(self.spec.categories.values()))

    def _entry(self, item: Item) -> str:
        names = "; ".join(f"{n.rpartition(' ')[2]} {n.rpartition(' ')[0][:1]}." for n in item.authors)
        summary = " ".join(item.abstract.split(". ")[:2]).rstrip(".") + "."
        return (
            f'<article class="pub"><h3><a href="{attr(item.path)}">{esc(item.title)}</a></h3>'
            f'<p class="authors">{esc(names)}</p><p class="summary">{esc(summary)}</p></article>'
        )

    def _home(self, request: Request) -> Response:
        themes = "".join(
            f'<li><a href="/en/collection/{url_slug(theme)}">{esc(theme)}</a></li>' for theme in self._themes()
        )
        intro = f"<h1>{esc(self.spec.title)}</h1><p>{esc(self.spec.tagline)}.</p>"
        content = f"{intro}<h2>Collections</h2><ul>{themes}</ul>"
        return self.page(title="Home", content=content, kind="home")

    def _collection(self, request: Request, slug: str) -> Response:
        theme = next((t for t in self._themes() if url_slug(t) == slug), None)
        if theme is None:
            return self.not_found()
        items = sorted((i for i in self.items if i.category == theme), key=lambda i: i.date, reverse=True)
        content = f"<h1>{esc(theme)}</h1>{''.join(self._entry(item) for item in items)}"
        return self.page(title=theme, content=content, kind="collection")

    def _search(self, request: Request) -> Response:
        words = {w for w in re.findall(r"[a-z0-9]+", request.param("q").lower()) if len(w) > 2}
        scored = [
            (len(words & set(re.findall(r"[a-z0-9]+", f"{item.title} {item.abstract}".lower()))), item)
            for item in self.items
        ]
        found = [item for score, item in sorted(scored, key=lambda pair: -pair[0]) if score][:20]
        listed = "".join(self._entry(item) for item in found) or "<p>No publications match.</p>"
        content = f"<h1>Search</h1><p>{len(found)} publications match “{esc(request.param('q'))}”.</p>"
        return self.page(title="Search", content=content + listed, kind="search")

    def _publication(self, request: Request, key: str) -> Response:
        item = self.item_at(f"/en/publication/{key}")
        if item is None:
            return self.not_found()
        head = "\n".join(
            [
                meta_name("DC.title", item.title),
                *(meta_name("DC.creator", name) for name in item.authors),
                meta_name("DC.date", item.date),
                meta_name("DC.type", "Text"),
            ]
        )
        content = (
            f'<p class="theme"><a href="/en/collection/{url_slug(item.category)}">{esc(item.category)}</a></p>'
            f"<h1>{esc(item.title)}</h1><p>{esc(', '.join(item.authors))}</p><p>{esc(long_date(item.date))}</p>"
            f'<h2>Abstract</h2><p>{esc(item.abstract)}</p><p><a href="{attr(item.pdf_path)}">Full text (PDF)</a></p>'
        )
        return self.page(title=item.title, content=content, kind="publication", head=head)

    def _file(self, request: Request, key: str) -> Response:
        item = self.item_at(f"/en/publication/{key}")
        return self.pdf(item) if item else self.not_found()
