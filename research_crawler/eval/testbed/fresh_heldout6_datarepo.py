"""HELD OUT, fresh (sixth batch): Tamsin Research Data, a repository built as InvenioRDM/Zenodo ones are (see
`fresh_heldout6.py`; do not read or tune anything to it). Its records are papers (journal articles and preprints),
datasets, software and posters mixed: a paper's data and code are deposited beside it under titles that repeat the
paper's. Communities list their records newest first, ten a page, with resource-type facets; record pages carry
citation_* tags (datasets and software too) and "Published March 4, 2024 | Version v1"; the site search is a
script-driven app over a JSON API, and robots.txt forbids both.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, timedelta
from typing import ClassVar
from urllib.parse import urlencode

from research_crawler.eval.testbed.decoys import DecoyKind
from research_crawler.eval.testbed.full_text import search_items
from research_crawler.eval.testbed.markup import MONTHS, attr, document, esc, meta_name, url_slug
from research_crawler.eval.testbed.models import Item
from research_crawler.eval.testbed.site_app import Request, Response, Route, SiteApp, paged

__all__ = ["PAPER_TYPES", "PER_PAGE", "Deposit", "Fresh6DataRepoSite", "deposits", "us_date"]

PER_PAGE = 10
#: The resource types that are papers; the others (dataset, software, poster) are what a paper's authors deposit
#: beside it.
PAPER_TYPES = ("Journal article", "Preprint")
_FACET = {"Journal article": "publication", "Preprint": "publication", "Dataset": "dataset", "Software": "software",
          "Poster": "poster"}  # fmt: skip


def us_date(day: str) -> str:
    """'2024-03-04' → 'March 4, 2024', as the record page writes its publication date."""
    value = date.fromisoformat(day)
    return f"{MONTHS[value.month - 1]} {value.day}, {value.year}"


def _short_date(day: str) -> str:
    """'2024-03-04' → 'Mar 4, 2024', as listings write it."""
    value = date.fromisoformat(day)
    return f"{MONTHS[value.month - 1][:3]} {value.day}, {value.year}"


@dataclass(frozen=True)
class Deposit:
    """One record of the repository: a paper (an item) or what its authors deposited beside it."""

    key: str
    resource_type: str
    title: str
    creators: tuple[str, ...]
    day: str
    community: str
    description: str
    item: Item | None
    paper: Item  # the paper it belongs to (itself for a paper)

    @property
    def path(self) -> str:
        return f"/records/{self.key}"

    @property
    def file_name(self) -> str:
        names = {"Dataset": "data.zip", "Software": f"{url_slug(self.title, limit=30)}-v1.2.0.zip",
                 "Poster": "poster.pdf"}  # fmt: skip
        return names.get(self.resource_type, "manuscript.pdf")


def deposits(items: list[Item]) -> list[Deposit]:
    """Every record for `items`, newest first: each paper, and beside some of them their data, code or poster."""
    made: list[Deposit] = []
    for item in items:
        number = int(item.key)
        kind = PAPER_TYPES[number % 3 == 0]
        made.append(Deposit(item.key, kind, item.title, item.authors, item.date, item.category, item.abstract,
                            item, item))  # fmt: skip
        day = date.fromisoformat(item.date)
        if number % 2 == 0 and not item.topic.endswith("-other"):
            made.append(
                Deposit(str(number + 1), "Dataset", f"Data for: {item.title}", item.authors,
                        (day - timedelta(days=3)).isoformat(), item.category,
                        "Measurements and derived tables underlying the article. See the README for the variables.",
                        None, item)
            )  # fmt: skip
        if number % 3 != 1 and not item.topic.endswith("-other"):
            made.append(
                Deposit(str(number + 2), "Software" if number % 3 == 0 else "Poster",
                        f"{item.title} (analysis code)" if number % 3 == 0 else f"{item.title} [poster]",
                        item.authors[:2], (day + timedelta(days=11)).isoformat(), item.category,
                        "Scripts to reproduce the figures of the article." if number % 3 == 0
                        else "Poster presented at the group's annual meeting.",
                        None, item)
            )  # fmt: skip
    return sorted(made, key=lambda d: (d.day, d.key), reverse=True)


def _creator(name: str) -> str:
    given, _, surname = name.rpartition(" ")
    return f"{surname}, {given}"


class Fresh6DataRepoSite(SiteApp):
    """A research data repository: communities listing mixed records, record pages with citation_* tags."""

    decoy_paths: ClassVar[dict[str, DecoyKind]] = {"/help/faq": "help", "/help/terms": "terms",
                                                   "/help/privacy": "privacy"}  # fmt: skip

    def routes(self) -> list[Route]:
        return [
            (re.compile(r"/"), self._home),
            (re.compile(r"/communities"), self._communities),
            (re.compile(r"/communities/(?P<slug>[a-z0-9-]+)/records"), self._community),
            (re.compile(r"/records/(?P<key>\d+)"), self._record),
            (re.compile(r"/records/(?P<key>\d+)/files/(?P<name>[A-Za-z0-9._-]+)"), self._file),
            (re.compile(r"/search"), self._search),
            (re.compile(r"/api/records"), self._api),
        ]

    def robots_txt(self) -> str:
        return "User-agent: *\nDisallow: /search\nDisallow: /api/\nDisallow: /login\nDisallow: /account/\n"

    def sample_paths(self) -> dict[str, str]:
        item = self.items[0]
        return {"home": "/", "communities": "/communities", "community": f"/communities/{url_slug(item.category)}"
                "/records", "record": item.path, "search": "/search?q=data"}  # fmt: skip

    def page(self, *, title: str, content: str, kind: str, status: int = 200, head: str = "") -> Response:
        body = (
            f'<header><a class="logo" href="/">{esc(self.spec.title)}</a>'
            '<form action="/search" method="get" role="search"><input name="q" placeholder="Search records...">'
            '<button>Search</button></form><nav><a href="/communities">Communities</a> <a href="/help/faq">Help</a> '
            '<a href="/login">Log in</a></nav></header>\n'
            f'<main class="ui container">{content}</main>\n'
            f'<footer>{esc(self.spec.title)} · <a href="/help/terms">Terms of use</a> · '
            '<a href="/help/privacy">Privacy policy</a> · Powered by InvenioRDM</footer>'
        )
        return Response.html(document(title=f"{title} | {self.spec.title}", head=head, body=body), kind=kind,
                             status=status)  # fmt: skip

    def _all(self) -> list[Deposit]:
        return deposits(self.items)

    def _communities_named(self) -> dict[str, str]:
        return {url_slug(c): c for c in dict.fromkeys(self.spec.categories.values())}

    def _home(self, request: Request) -> Response:
        recent = "".join(_entry(d) for d in self._all()[:6])
        content = (
            f"<h1>{esc(self.spec.title)}</h1><p>{esc(self.spec.tagline)}. Deposit your data, code and papers and "
            "get a DOI for each.</p>"
            f'<h2>Recent uploads</h2><ul class="records">{recent}</ul>'
            '<p><a href="/communities">Browse communities</a></p>'
        )
        return self.page(title="Home", content=content, kind="home")

    def _communities(self, request: Request) -> Response:
        rows = "".join(
            f'<li><a href="/communities/{slug}/records">{esc(name)}</a> — research outputs of the {esc(name)}</li>'
            for slug, name in self._communities_named().items()
        )
        return self.page(title="Communities", content=f"<h1>Communities</h1><ul>{rows}</ul>", kind="communities")

    def _community(self, request: Request, slug: str) -> Response:
        name = self._communities_named().get(slug)
        if name is None:
            return self.not_found("No such community.")
        everything = [d for d in self._all() if d.community == name]
        kind = request.param("resource_type")
        chosen = [d for d in everything if not kind or _FACET[d.resource_type] == kind]

        def link(number: int, facet: str = kind) -> str:
            params = {k: v for k, v in (("resource_type", facet), ("page", str(number))) if v and v != "1"}
            return f"/communities/{slug}/records" + (f"?{urlencode(params)}" if params else "")

        shown, pager = paged(request, chosen, PER_PAGE, link)
        counts = {f: sum(_FACET[d.resource_type] == f for d in everything) for f in dict.fromkeys(_FACET.values())}
        facets = "".join(
            f'<li><a href="{attr(link(1, f))}">{f.capitalize()}</a> ({n})</li>' for f, n in counts.items() if n
        )
        content = (
            f"<h1>{esc(name)}</h1><aside><h2>Resource types</h2><ul>{facets}</ul></aside>"
            f"<p>{len(chosen)} records · Sort: Newest</p>"
            f'<ul class="records">{"".join(_entry(d) for d in shown)}</ul>{pager}'
        )
        return self.page(title=name, content=content, kind="community")

    def _deposit(self, key: str) -> Deposit | None:
        return next((d for d in self._all() if d.key == key), None)

    def _record(self, request: Request, key: str) -> Response:
        deposit = self._deposit(key)
        if deposit is None:
            return self.not_found("The record you are looking for does not exist.")
        file_url = f"{deposit.path}/files/{deposit.file_name}"
        head = "\n".join(
            [meta_name("citation_title", deposit.title)]
            + [meta_name("citation_author", _creator(a)) for a in deposit.creators]
            + [meta_name("citation_publication_date", deposit.day.replace("-", "/")),
               meta_name("citation_doi", f"10.48620/tamsin.{deposit.key}"),
               meta_name("citation_pdf_url", self.links.absolute(file_url))]
        )  # fmt: skip
        creators = "; ".join(esc(_creator(a)) for a in deposit.creators)
        related = [d for d in self._all() if d.paper == deposit.paper and d.key != deposit.key]
        relations = "".join(
            f"<li>{'Is supplemented by' if deposit.item else 'Is supplement to'} "
            f'<a href="{attr(d.path)}">{esc(d.title)}</a> ({esc(d.resource_type)})</li>'
            for d in related
        )
        cite_year = deposit.day[:4]
        content = (
            f'<div class="labels"><span class="label">{esc(deposit.resource_type)}</span> '
            '<span class="label">Open</span></div>'
            f'<h1>{esc(deposit.title)}</h1><p class="creators">{creators}</p>'
            f'<p class="dates">Published {us_date(deposit.day)} | Version v1</p>'
            f"<h2>Description</h2><p>{esc(deposit.description)}</p>"
            f'<h2>Files</h2><table class="files"><tr><td><a href="{attr(file_url)}">{esc(deposit.file_name)}</a>'
            f'</td><td>1.4 MB</td><td><a href="{attr(file_url)}?download=1">Download</a></td></tr></table>'
            + (f'<h2>Related works</h2><ul class="related">{relations}</ul>' if relations else "")
            + f"<h2>Citation</h2><p>{creators} ({cite_year}). {esc(deposit.title)}. {esc(self.spec.title)}. "
            f"https://doi.org/10.48620/tamsin.{esc(deposit.key)}</p>"
            f'<p>Communities: <a href="/communities/{url_slug(deposit.community)}/records">'
            f"{esc(deposit.community)}</a></p>"
        )
        return self.page(title=deposit.title, content=content, kind="record", head=head)

    def _file(self, request: Request, key: str, name: str) -> Response:
        deposit = self._deposit(key)
        if deposit is None or name != deposit.file_name:
            return self.not_found()
        if deposit.item is None:
            return Response(200, b"PK\x05\x06" + bytes(18), "application/zip", "file")
        return self.pdf(deposit.item)

    def _search(self, request: Request) -> Response:
        content = (
            '<h1>Search</h1><div id="search-app" data-api-endpoint="/api/records" data-query="'
            f'{attr(request.param("q"))}"></div><noscript>This search needs JavaScript.</noscript>'
            '<script src="/static/dist/search-app.js" defer></script>'
        )
        return self.page(title="Search", content=content, kind="search")

    def _api(self, request: Request) -> Response:
        query = request.param("q")
        found = search_items(self.items, query) if query.strip() else self.items
        hits = [{"id": i.key, "metadata": {"title": i.title, "publication_date": i.date,
                 "creators": [{"name": _creator(a)} for a in i.authors]}, "links": {"self_html": i.path}}
                for i in found[:PER_PAGE]]  # fmt: skip
        return Response.json({"hits": {"total": len(found), "hits": hits}}, kind="api")


def _entry(deposit: Deposit) -> str:
    snippet = deposit.description[:180] + ("…" if len(deposit.description) > 180 else "")
    return (
        f'<li class="record"><span class="label">{esc(deposit.resource_type)}</span> '
        f'<span class="date">{_short_date(deposit.day)}</span> <span class="version">Version v1</span>'
        f'<h3><a href="{attr(deposit.path)}">{esc(deposit.title)}</a></h3>'
        f'<p class="creators">{"; ".join(esc(_creator(a)) for a in deposit.creators)}</p><p>{esc(snippet)}</p></li>'
    )
