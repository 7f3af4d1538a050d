"""HELD OUT, fresh (sixteenth batch): the NOVA open archive, built as HAL builds a national open archive (see
`fresh_heldout16.py`; do not read or tune anything to it). The home page shows the archive's latest submissions and
leads to all its documents, ten a page, and to the list of collections; a laboratory's collection (`/VITIPATH`) has
its own home with its latest submissions and browse pages by year and by document type, whose links open the
collection's result list (`/VITIPATH/search/index/?q=*&producedDateY_i=2024`), ten a page, newest publication first,
with facet links. A record (`/hal-04512345`) gives its document type, authors with numbered affiliations, the
reference, the abstract, the keywords, "Publication date", "Submitted on" and "Last modification on" in HAL's long
form (the deposit comes after publication for a journal article), the file, the BibTeX export and the Scholar meta
tags. Deposits the group's blog announced later are the same work on two sites. User, submission and statistics
pages are forbidden.
"""

from __future__ import annotations

import re
from datetime import date, datetime, timedelta
from typing import ClassVar
from urllib.parse import urlencode

from research_crawler.eval.testbed.decoys import DecoyKind
from research_crawler.eval.testbed.full_text import search_items
from research_crawler.eval.testbed.markup import attr, document, esc, meta_name
from research_crawler.eval.testbed.models import Item
from research_crawler.eval.testbed.site_app import Request, Response, Route, SiteApp

__all__ = ["COLLECTIONS", "PER_PAGE", "Fresh16HalSite", "deposited", "doc_type", "long_stamp", "result_order"]

PER_PAGE = 10
#: Each collection's laboratory, as its home page names it.
COLLECTIONS = {
    "VITIPATH": "UMR Santé et agroécologie du vignoble",
    "GEOFLUIDES": "Institut des géofluides et ressources du sous-sol",
}
_OTHER_COLLECTIONS = {"INRAE": "INRAE - Institut national de recherche pour l'agriculture", "CNRS": "CNRS"}
#: Document types as HAL codes and names them.
DOC_TYPES = {"ART": "Journal articles", "COMM": "Conference papers", "UNDEFINED": "Preprints, Working Papers, ..."}
_JOURNALS = (
    "OENO One",
    "Plant Pathology",
    "Geothermics",
    "Comptes Rendus. Géoscience",
    "Phytopathology",
    "Hydrometallurgy",
)
_AFFILIATIONS = (
    "SAVE - UMR Santé et agroécologie du vignoble",
    "ISVV - Institut des Sciences de la Vigne et du Vin",
    "BRGM - Bureau de Recherches Géologiques et Minières",
    "ITES - Institut Terre et Environnement de Strasbourg",
    "Université de Bordeaux",
    "KIT - Karlsruhe Institute of Technology",
)


def _hash(text: str) -> int:
    return sum(ord(c) * (n + 7) for n, c in enumerate(text))


def doc_type(item: Item) -> str:
    """The record's HAL document type: a preprint has no DOI, the rest are articles or conference papers."""
    if item.doi is None:
        return "UNDEFINED"
    return "COMM" if _hash(item.key) % 4 == 0 else "ART"


def deposited(item: Item) -> datetime:
    """When the record was submitted: a preprint on its day, a published paper days to weeks after it."""
    day = date.fromisoformat(item.date)
    lag = 0 if doc_type(item) == "UNDEFINED" else 3 + _hash(item.title) % 70
    seconds = _hash(item.key) % 36_000
    return datetime(day.year, day.month, day.day, 7) + timedelta(days=lag, seconds=seconds)


def long_stamp(moment: datetime) -> str:
    """A date and time as HAL writes them: 'Friday, March 15, 2024-10:42:12 AM'."""
    hour = moment.hour % 12 or 12
    return f"{moment:%A, %B} {moment.day}, {moment.year}-{hour}:{moment:%M:%S %p}"


def result_order(items: list[Item]) -> list[Item]:
    """A result list's order: the newest publication first."""
    return sorted(items, key=lambda i: (i.date, i.key), reverse=True)


class Fresh16HalSite(SiteApp):
    """A HAL-like archive: home, collections, browse pages, result lists with facets, records, files."""

    decoy_paths: ClassVar[dict[str, DecoyKind]] = {"/about": "about", "/legal-notice": "terms", "/privacy": "privacy"}

    def routes(self) -> list[Route]:
        self.by_key = {i.key: i for i in self.items}
        return [
            (re.compile(r"/"), self._home),
            (re.compile(r"/browse/collections"), self._collections),
            (re.compile(r"/(?P<code>[A-Z]+)"), self._collection),
            (re.compile(r"/(?P<code>[A-Z]+)/browse/(?P<facet>period|doctype)"), self._browse),
            (re.compile(r"/(?P<code>[A-Z]+)/search/index/?"), self._results),
            (re.compile(r"/search/index/?"), self._results),
            (re.compile(r"/(?P<key>hal-\d{8})(?P<version>v\d)?"), self._record),
            (re.compile(r"/(?P<key>hal-\d{8})/document"), self._document),
            (re.compile(r"/(?P<key>hal-\d{8})/file/[^/]+\.pdf"), self._document),
            (re.compile(r"/(?P<key>hal-\d{8})/bibtex"), self._bibtex),
        ]

    def robots_txt(self) -> str:
        return "User-agent: *\nDisallow: /user/\nDisallow: /submit/\nDisallow: /stat/\nDisallow: /*/stat/\n"

    def sample_paths(self) -> dict[str, str]:
        item = self.items[0]
        code = item.category
        return {
            "home": "/",
            "collections": "/browse/collections",
            "collection": f"/{code}",
            "browse": f"/{code}/browse/period",
            "results": f"/{code}/search/index/?q=*",
            "record": item.path,
            "file": item.pdf_path,
        }

    def page(self, *, title: str, content: str, kind: str, status: int = 200, head: str = "") -> Response:
        body = (
            '<header class="header"><div class="header-top"><a class="logo" href="/"><img src="/img/nova-logo.svg" '
            'alt="NOVA open archive"></a><form class="search-form" action="/search/index" method="get"><input '
            'type="search" name="q" placeholder="Search"><button type="submit">Search</button></form><nav '
            'class="header-links"><a href="/submit/index">Deposit</a> <a href="/user/login">Login</a></nav></div><nav '
            'class="menu"><ul><li><a href="/">Home</a></li><li><a href="/search/index/?q=*">Consult</a></li><li><a '
            'href="/browse/collections">Collections</a></li><li>'
            '<a href="/about">About</a></li></ul></nav></header>\n'
            f'<main class="container">{content}</main>\n<footer class="footer"><a href="/legal-notice">Legal notice'
            '</a> <a href="/privacy">Personal data</a> <a href="/stat/index">Statistics</a></footer>'
        )
        return Response.html(document(title=f"{title} - NOVA", head=head, body=body), kind=kind, status=status)

    # ------------------------------------------------------------------ listings

    def _row(self, item: Item) -> str:
        kind = doc_type(item)
        reference = ""
        if kind != "UNDEFINED":
            reference = f"{_JOURNALS[_hash(item.key) % len(_JOURNALS)]}, {item.year}"
        return (
            f'<tr><td class="doctype"><span class="badge">{esc(DOC_TYPES[kind])}</span></td><td><strong><a '
            f'class="ref-halid" href="{attr(item.path)}">{esc(item.title)}</a></strong><br><span class="authors">'
            f'{esc(", ".join(item.authors))}</span>. <span class="reference">{esc(reference)}</span> '
            f'<span class="halid">⟨{esc(item.key)}⟩</span></td><td><a href="{attr(item.pdf_path)}" title="Full text">'
            '<img src="/img/pdf.svg" alt="PDF"></a></td></tr>'
        )

    def _latest(self, items: list[Item], count: int) -> str:
        newest = sorted(items, key=deposited, reverse=True)[:count]
        rows = "".join(self._row(i) for i in newest)
        return f'<section class="latest"><h2>Latest submissions</h2><table class="results">{rows}</table></section>'

    def _home(self, request: Request) -> Response:
        counts = " ".join(f"<li>{esc(name)}</li>" for name in DOC_TYPES.values())
        content = (
            '<section class="intro"><h1>NOVA open archive</h1><p>NOVA is a multidisciplinary open archive for the '
            "deposit and dissemination of scientific research documents, published or not, from teaching and research "
            f'institutions.</p><ul class="doctypes">{counts}</ul></section>{self._latest(self.items, 10)}'
        )
        return self.page(title="Home", content=content, kind="home")

    def _collections(self, request: Request) -> Response:
        names = {**COLLECTIONS, **_OTHER_COLLECTIONS}
        rows = "".join(
            f'<li><a href="/{code}">{esc(code)}</a> - {esc(name)}</li>' for code, name in sorted(names.items())
        )
        content = f'<h1>Collections</h1><ul class="collections">{rows}</ul>'
        return self.page(title="Collections", content=content, kind="listing")

    def _collection(self, request: Request, code: str) -> Response:
        if code not in COLLECTIONS and code not in _OTHER_COLLECTIONS:
            return self.not_found()
        mine = [i for i in self.items if i.category == code]
        menu = (
            f'<nav class="collection-menu"><ul><li><a href="/{code}">Home</a></li><li>Browse<ul><li><a href="/{code}/'
            f'browse/period">Period</a></li><li><a href="/{code}/browse/doctype">Document type</a></li></ul></li><li>'
            f'<a href="/{code}/search/index/?q=*">All documents</a></li></ul></nav>'
        )
        title = COLLECTIONS.get(code) or _OTHER_COLLECTIONS[code]
        latest = self._latest(mine, 5) if mine else "<p>No documents yet.</p>"
        content = f'<div class="collection"><h1>{esc(title)}</h1>{menu}<p>{len(mine)} documents</p>{latest}</div>'
        return self.page(title=code, content=content, kind="collection")

    def _search_url(self, code: str | None, **filters: str) -> str:
        prefix = f"/{code}" if code else ""
        return f"{prefix}/search/index/?" + urlencode({"q": "*", **filters})

    def _browse(self, request: Request, code: str, facet: str) -> Response:
        if code not in COLLECTIONS:
            return self.not_found()
        mine = [i for i in self.items if i.category == code]
        if facet == "period":
            years = sorted({i.year for i in mine}, reverse=True)
            rows = "".join(
                f'<li><a href="{attr(self._search_url(code, producedDateY_i=str(y)))}">{y}</a> '
                f'<span class="count">({sum(1 for i in mine if i.year == y)})</span></li>'
                for y in years
            )
            heading = "Browse by period"
        else:
            types = [t for t in DOC_TYPES if any(doc_type(i) == t for i in mine)]
            rows = "".join(
                f'<li><a href="{attr(self._search_url(code, docType_s=t))}">{esc(DOC_TYPES[t])}</a> <span class="'
                f'count">({sum(1 for i in mine if doc_type(i) == t)})</span></li>'
                for t in types
            )
            heading = "Browse by document type"
        content = f'<div class="browse"><h1>{heading}</h1><ul class="facet-list">{rows}</ul></div>'
        return self.page(title=heading, content=content, kind="browse")

    def _results(self, request: Request, code: str | None = None) -> Response:
        if code is not None and code not in COLLECTIONS:
            return self.not_found()
        found = [i for i in self.items if code is None or i.category == code]
        text = request.param("q", "*")
        if text.strip() not in ("", "*"):
            found = search_items(found, text.split(":", 1)[-1].strip('"'))
        year, kind = request.param("producedDateY_i"), request.param("docType_s")
        found = [i for i in found if (not year or str(i.year) == year) and (not kind or doc_type(i) == kind)]
        found = result_order(found)
        pages = max(1, -(-len(found) // PER_PAGE))
        page = request.int_param("page", 1, minimum=1, maximum=pages)
        shown = found[(page - 1) * PER_PAGE : page * PER_PAGE]
        filters = {k: v for k, v in (("producedDateY_i", year), ("docType_s", kind)) if v}
        pager = " ".join(
            f'<li class="active"><span>{n}</span></li>'
            if n == page
            else f'<li><a href="{attr(self._search_url(code, **filters, page=str(n)))}">{n}</a></li>'
            for n in range(1, pages + 1)
        )
        years = sorted({i.year for i in self.items if code is None or i.category == code}, reverse=True)
        facets = "".join(
            f'<li><a href="{attr(self._search_url(code, producedDateY_i=str(y)))}">{y}</a></li>' for y in years
        ) + "".join(
            f'<li><a href="{attr(self._search_url(code, docType_s=t))}">{esc(n)}</a></li>' for t, n in DOC_TYPES.items()
        )
        rows = "".join(self._row(i) for i in shown)
        content = (
            f'<div class="row"><aside class="facets"><h3>Refine</h3><ul>{facets}</ul></aside><div class="results-col">'
            f'<p class="nb-results">{len(found)} results</p><p class="sort">Sort by: Publication date (newest first)'
            f'</p><table class="results">{rows}</table><ul class="pagination">{pager}</ul></div></div>'
        )
        return self.page(title="Search", content=content, kind="search")

    # ------------------------------------------------------------------ one record

    def _record(self, request: Request, key: str, version: str | None = None) -> Response:
        item = self.by_key.get(key)
        if item is None or version not in (None, "v1"):
            return self.not_found()
        kind = doc_type(item)
        stamp = deposited(item)
        modified = stamp + timedelta(days=30 + _hash(item.key) % 400, seconds=_hash(item.title) % 5000)
        affiliations = {a: 1 + _hash(a) % len(_AFFILIATIONS) for a in item.authors}
        used = sorted(set(affiliations.values()))
        authors = ", ".join(
            f'<span class="author"><a href="{attr("/search/index/?" + urlencode({"q": f"authFullName_s:{a}"}))}">'
            f"{esc(a)}</a> <sup>{used.index(affiliations[a]) + 1}</sup></span>"
            for a in item.authors
        )
        labs = "".join(f"<li><sup>{n + 1}</sup> {esc(_AFFILIATIONS[a - 1])}</li>" for n, a in enumerate(used))
        journal = _JOURNALS[_hash(item.key) % len(_JOURNALS)]
        reference = f"{', '.join(item.authors)}. {item.title}. "
        if kind == "UNDEFINED":
            reference += f"{item.year}. ⟨{item.key}⟩"
        else:
            reference += f"{journal}, {item.year}, {1 + item.year - 2010} ({1 + _hash(item.key) % 4}). ⟨{item.doi}⟩. "
            reference += f"⟨{item.key}⟩"
        announced = ""
        for copy in self.testbed.copies_of(item):
            if copy.site != item.site:
                announced = f'<p class="related">Blog post: <a href="{attr(self.links.on_site(copy.site, copy.path))}">'
                announced += f"{esc(copy.title)}</a></p>"
        doi = f'<dt>DOI</dt><dd><a href="https://doi.org/{attr(item.doi)}">{esc(item.doi)}</a></dd>' if item.doi else ""
        head = (
            meta_name("citation_title", item.title)
            + "".join(meta_name("citation_author", a) for a in item.authors)
            + meta_name("citation_publication_date", item.date)
            + meta_name("citation_online_date", stamp.date().isoformat())
            + (meta_name("citation_journal_title", journal) if kind == "ART" else "")
            + (meta_name("citation_doi", item.doi) if item.doi else "")
            + meta_name("citation_pdf_url", self.links.absolute(item.pdf_path))
            + meta_name("DC.identifier", item.key)
        )
        content = (
            f'<div class="record"><p class="typdoc"><span class="badge">{esc(DOC_TYPES[kind])}</span> <span '
            f'class="year">Year : {item.year}</span></p><h1 class="title">{esc(item.title)}</h1><div class="authors">'
            f'{authors}</div><ul class="affiliations">{labs}</ul><div class="abstract"><h2>Abstract</h2><p>'
            f'{esc(item.abstract)}</p></div><p class="keywords">Keywords : {esc(" ; ".join(item.keywords))}</p>'
            f'{announced}<dl class="metadata"><dt>Document type</dt><dd>{esc(DOC_TYPES[kind])}</dd><dt>Publication '
            f'date</dt><dd>{esc(item.date)}</dd>{doi}<dt>Collections</dt><dd><a href="/{item.category}">'
            f'{esc(item.category)}</a></dd></dl><div class="citation"><h2>Cite</h2><p>{esc(reference)}</p><p><a '
            f'href="/{item.key}/bibtex">BibTeX</a></p></div></div><aside class="record-side"><a class="btn-download" '
            f'href="{attr(item.pdf_path)}">Download file</a><ul class="dates"><li>{esc(item.key)}, version 1</li><li>'
            f"Submitted on : {long_stamp(stamp)}</li><li>Last modification on : {long_stamp(modified)}</li></ul>"
            f'<p><a href="/{item.key}/stat/">Consultation statistics</a></p></aside>'
        )
        return self.page(title=item.title, content=content, kind="article", head=head)

    def _document(self, request: Request, key: str) -> Response:
        item = self.by_key.get(key)
        return self.pdf(item) if item is not None else self.not_found()

    def _bibtex(self, request: Request, key: str) -> Response:
        item = self.by_key.get(key)
        if item is None:
            return self.not_found()
        entry = "article" if doc_type(item) == "ART" else "unpublished"
        text = (
            f"@{entry}{{{item.key},\n  TITLE = {{{{{item.title}}}}},\n  AUTHOR = {{{' and '.join(item.authors)}}},\n"
            f"  YEAR = {{{item.year}}},\n  URL = {{{self.links.absolute(item.path)}}},\n}}\n"
        )
        return Response.text(text, kind="export")
