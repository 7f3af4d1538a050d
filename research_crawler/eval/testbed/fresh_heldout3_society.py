"""HELD OUT, fresh (third batch): Transactions of the Carrick Society, a society's journal (see `fresh_heldout3.py`;
do not read or tune anything to it). Every page first asks who the visitor is, answered by a posted form that sets a
cookie; listings show six cards and a "Show more" button whose script fetches the next ones as JSON by an opaque
cursor; articles carry no metadata tags, only the page's embedded application data and visible text.
"""

from __future__ import annotations

import base64
import re
from datetime import date
from typing import ClassVar
from urllib.parse import quote

from research_crawler.eval.testbed.decoys import DecoyKind
from research_crawler.eval.testbed.full_text import search_items
from research_crawler.eval.testbed.markup import MONTHS, attr, document, esc, json_script, url_slug
from research_crawler.eval.testbed.models import Item
from research_crawler.eval.testbed.site_app import Request, Response, Route, SiteApp

__all__ = ["AUDIENCE_COOKIE", "SHOWN", "Fresh3SocietySite", "cursor"]

AUDIENCE_COOKIE = "carrick_audience"
#: Cards a listing shows in its HTML; "Show more" fetches as many again each time.
SHOWN = 6
_AUDIENCES = {"professional": "I am a healthcare professional", "researcher": "I am a researcher",
              "public": "I am a patient or a member of the public"}  # fmt: skip
_OPEN = ("/robots.txt", "/declaration", "/for-patients")
_FIRST_VOLUME_YEAR = 1986


def cursor(offset: int) -> str:
    """The opaque cursor the listing's API takes for the cards after the first `offset`."""
    return base64.urlsafe_b64encode(f"arrayconnection:{offset}".encode()).decode().rstrip("=")


def _offset(value: str) -> int | None:
    try:
        text = base64.urlsafe_b64decode(value + "=" * (-len(value) % 4)).decode()
    except ValueError:
        return None
    kind, _, number = text.partition(":")
    return int(number) if kind == "arrayconnection" and number.isdigit() else None


def _written(day: str) -> str:
    """'2024-05-03' → '03 May 2024', as the journal prints it."""
    parsed = date.fromisoformat(day)
    return f"{parsed.day:02d} {MONTHS[parsed.month - 1]} {parsed.year}"


class Fresh3SocietySite(SiteApp):
    """A society's journal: an audience declaration by POST, "Show more" by JSON cursor, untagged articles."""

    decoy_paths: ClassVar[dict[str, DecoyKind]] = {"/membership": "members", "/about": "about", "/privacy": "privacy"}

    def routes(self) -> list[Route]:
        return [
            (re.compile(r"/"), self._home),
            (re.compile(r"/declaration"), self._declaration),
            (re.compile(r"/for-patients"), self._patients),
            (re.compile(r"/latest"), self._latest),
            (re.compile(r"/subject/(?P<slug>[a-z-]+)"), self._subject),
            (re.compile(r"/api/articles"), self._api),
            (re.compile(r"/search"), self._search),
            (re.compile(r"/journal/article/(?P<serial>\d+)/(?P<slug>[a-z0-9-]+)"), self._article),
            (re.compile(r"/journal/article-pdf/(?P<serial>\d+)/(?P<key>tcs\.\d{4}\.\d{4})\.pdf"), self._file),
        ]

    def robots_txt(self) -> str:
        return "User-agent: *\nDisallow: /account/\nDisallow: /api/internal/\n"

    def sample_paths(self) -> dict[str, str]:
        slug = url_slug(self.items[0].category)
        return {"home": "/", "latest": "/latest", "subject": f"/subject/{slug}",
                "api": f"/api/articles?after={cursor(SHOWN)}", "search": "/search?q=lactate",
                "article": self.items[0].path, "patients": "/for-patients"}  # fmt: skip

    def visitor_cookies(self) -> dict[str, str]:
        return {AUDIENCE_COOKIE: "researcher"}

    def handle(self, request: Request) -> Response:
        if request.cookies.get(AUDIENCE_COOKIE) not in _AUDIENCES and request.path not in _OPEN:
            return self._ask(request.path + (f"?{_query(request)}" if request.query else ""))
        return super().handle(request)

    def page(self, *, title: str, content: str, kind: str, status: int = 200, head: str = "") -> Response:
        subjects = " ".join(
            f'<a href="/subject/{url_slug(name)}">{esc(name)}</a>'
            for name in dict.fromkeys(self.spec.categories.values())
        )
        body = (
            f'<header><a href="/">{esc(self.spec.title)}</a><nav><a href="/latest">Latest articles</a> {subjects} '
            '<a href="/membership">Join the Society</a> <a href="/about">About</a> <a href="/account/login">Sign in'
            '</a></nav><form action="/search" method="get"><input name="q" aria-label="Search the journal">'
            "<button>Search</button></form></header>\n"
            f'<main>{content}</main>\n<footer>© The Carrick Society · <a href="/privacy">Privacy</a></footer>'
        )
        return Response.html(document(title=f"{title} | {self.spec.title}", head=head, body=body), kind=kind,
                             status=status)  # fmt: skip

    # ------------------------------------------------------------------ the declaration

    def _ask(self, wanted: str) -> Response:
        buttons = "".join(
            f'<p><button type="submit" name="audience" value="{key}">{esc(label)}</button></p>'
            for key, label in _AUDIENCES.items()
        )
        content = (
            f"<h1>Welcome to {esc(self.spec.title)}</h1><p>This website publishes clinical and scientific research "
            "intended for healthcare professionals and researchers. Please tell us who you are to continue.</p>"
            f'<form method="post" action="/declaration"><input type="hidden" name="return" value="{attr(wanted)}">'
            f"{buttons}</form>"
        )
        return self.page(title="Who are you?", content=content, kind="declaration")

    def _declaration(self, request: Request) -> Response:
        audience = request.form.get("audience", [""])[0]
        if request.method != "POST" or audience not in _AUDIENCES:
            return self._ask("/")
        wanted = request.param("return", "/")
        target = (
            "/for-patients"
            if audience == "public"
            else (wanted if wanted.startswith("/") and not wanted.startswith("//") else "/")
        )
        cookie = f"{AUDIENCE_COOKIE}={audience}; Path=/; Max-Age=31536000; SameSite=Lax"
        return Response.redirect(target, headers=(("Set-Cookie", cookie),))

    def _patients(self, request: Request) -> Response:
        content = (
            "<h1>Information for patients and the public</h1><p>The research in this journal is written for "
            "specialists. The Carrick Society's patient leaflets explain common conditions in plain language; "
            "ask your doctor or pharmacist about anything you read here.</p>"
            '<p>If you are a healthcare professional or a researcher, <a href="/declaration">change your answer</a>.'
            "</p>"
        )
        return self.page(title="For patients", content=content, kind="patients")

    # ------------------------------------------------------------------ listings

    def _card(self, item: Item) -> str:
        return (
            f'<article class="card"><p class="subject">{esc(item.category)}</p><h3><a href="{attr(item.path)}">'
            f'{esc(item.title)}</a></h3><p class="authors">{esc(", ".join(item.authors))}</p>'
            f"<p>Published: {_written(item.date)}</p></article>"
        )

    def _listing(self, title: str, items: list[Item], api: str, kind: str) -> Response:
        more = ""
        if len(items) > SHOWN:
            more = (
                f'<button id="show-more" data-api="{attr(api)}" data-after="{cursor(SHOWN)}">Show more</button>'
                "<script>document.getElementById('show-more').addEventListener('click', async function () {"
                " const button = this; const url = button.dataset.api + (button.dataset.api.includes('?') ? '&' : '?')"
                " + 'after=' + encodeURIComponent(button.dataset.after);"
                " const data = (await (await fetch(url)).json()).data.articles;"
                " for (const edge of data.edges) { const a = document.createElement('a'); a.href = edge.node.url;"
                " a.textContent = edge.node.title; const card = document.createElement('article');"
                " card.appendChild(a); document.getElementById('cards').appendChild(card); }"
                " if (data.pageInfo.hasNextPage) { button.dataset.after = data.pageInfo.endCursor; }"
                " else { button.remove(); } });</script>"
            )
        content = (
            f'<h1>{esc(title)}</h1><p>{len(items)} articles, newest first.</p><div id="cards">'
            f"{''.join(self._card(i) for i in items[:SHOWN])}</div>{more}"
        )
        page = self.page(title=title, content=content, kind=kind)
        return Response(
            page.status, page.body, page.content_type, kind, script_links=tuple(i.path for i in items[SHOWN:])
        )

    def _home(self, request: Request) -> Response:
        volume = self.items[0].year - _FIRST_VOLUME_YEAR + 1
        subjects = "".join(
            f'<li><a href="/subject/{url_slug(name)}">{esc(name)}</a></li>'
            for name in dict.fromkeys(self.spec.categories.values())
        )
        content = (
            f"<h1>{esc(self.spec.title)}</h1><p>{esc(self.spec.tagline)}. Volume {volume} is publishing now: articles "
            f'appear online as soon as they are ready.</p><p><a href="/latest">Latest articles</a></p>'
            f"<h2>Subjects</h2><ul>{subjects}</ul>"
        )
        return self.page(title="Home", content=content, kind="home")

    def _latest(self, request: Request) -> Response:
        return self._listing("Latest articles", self.items, "/api/articles", "latest")

    def _in(self, slug: str) -> list[Item]:
        return [i for i in self.items if url_slug(i.category) == slug]

    def _subject(self, request: Request, slug: str) -> Response:
        items = self._in(slug)
        if not items:
            return self.not_found()
        return self._listing(items[0].category, items, f"/api/articles?subject={slug}", "subject")

    def _api(self, request: Request) -> Response:
        slug = request.param("subject")
        items = self._in(slug) if slug else self.items
        start = _offset(request.param("after", cursor(0)))
        if not items or start is None:
            return Response.json({"errors": [{"message": "unknown subject or cursor"}], "data": None}, kind="api")
        size = request.int_param("first", SHOWN, minimum=1, maximum=24)
        chunk = items[start : start + size]
        edges = [
            {"cursor": cursor(start + n + 1), "node": {"title": i.title, "url": self.links.absolute(i.path),
             "authors": list(i.authors), "published": _written(i.date), "subject": i.category}}
            for n, i in enumerate(chunk)
        ]  # fmt: skip
        end = start + len(chunk)
        info = {"hasNextPage": end < len(items), "endCursor": cursor(end)}
        return Response.json(
            {"data": {"articles": {"totalCount": len(items), "edges": edges, "pageInfo": info}}}, kind="api"
        )

    def _search(self, request: Request) -> Response:
        text = request.param("q")
        found = search_items(self.items, text) if text.strip() else []
        listed = "".join(self._card(i) for i in found[:10]) or "<p>No articles match your search.</p>"
        more = "<p>Showing the first 10 results: refine your search to narrow them.</p>" if len(found) > 10 else ""
        return self.page(title="Search", content=f"<h1>Search results</h1>{listed}{more}", kind="search")

    # ------------------------------------------------------------------ articles

    def _article(self, request: Request, serial: str, slug: str) -> Response:
        item = self.item_at(f"/journal/article/{serial}/{slug}")
        if item is None:
            return self.not_found()
        volume = item.year - _FIRST_VOLUME_YEAR + 1
        names = ", ".join(f"{esc(a)}<sup>{n % 3 + 1}</sup>" for n, a in enumerate(item.authors))
        initials = ", ".join(f"{a.split()[-1]} {''.join(p[0] for p in a.split()[:-1])}" for a in item.authors[:3])
        others = ", et al" if len(item.authors) > 3 else ""
        cite = f"{initials}{others}. {item.title}. Trans Carrick Soc. {item.year};{volume}:e{serial}."
        preprint = next((c for c in self.testbed.copies_of(item) if c.site != item.site), None)
        earlier = (
            f'<p>An earlier version of this article was posted as a preprint: <a href="'
            f'{attr(self.links.on_site(preprint.site, preprint.path))}">Strandline {esc(preprint.key)}</a>.</p>'
            if preprint else ""
        )  # fmt: skip
        content = (
            f'<p class="subject">{esc(item.category)} · Original research</p><h1>{esc(item.title)}</h1>'
            f'<p class="authors">{names}</p><p class="affiliations"><sup>1</sup>Department of Medicine, Carrick '
            "Royal Infirmary; <sup>2</sup>Institute of Environmental Health; <sup>3</sup>School of Public Health</p>"
            f"<p>Version of record online: {_written(item.date)}</p><p>Cite as: {esc(cite)}</p>"
            f"<p>https://doi.org/{esc(item.doi)}</p>{earlier}<h2>Abstract</h2><p>{esc(item.abstract)}</p>"
            f'<p><a href="{attr(item.pdf_path)}">PDF</a></p>'
        )
        data = {"props": {"pageProps": {"article": {"id": int(serial), "title": item.title, "doi": item.doi,
                "contributors": [{"displayName": a} for a in item.authors], "onlineDate": item.date,
                "volume": volume, "subject": item.category}}}, "page": "/journal/article/[id]/[slug]"}  # fmt: skip
        head = json_script(data, script_type="application/json", element_id="__NEXT_DATA__")
        return self.page(title=item.title, content=content, kind="article", head=head)

    def _file(self, request: Request, serial: str, key: str) -> Response:
        item = next((i for i in self.items if i.key == key and f"/{serial}/" in i.path), None)
        return self.pdf(item) if item else self.not_found()


def _query(request: Request) -> str:
    return "&".join(f"{quote(name)}={quote(value)}" for name, values in request.query.items() for value in values)
