"""HELD OUT, fresh (sixth batch): Vellmar University Library's discovery catalogue, built as VuFind ones are (see
`fresh_heldout6.py`; do not read or tune anything to it). A GET search (``lookfor``, all words must match) with ten
results a page and numbered pages; facets (format, subject, year, with counts) as links that narrow the results;
books, journals and maps among the articles; record pages with the year only, no metadata tags but a COinS span,
a staff view of MARC fields, author pages and an "Online access" link to the full text; robots.txt forbids sorting,
exports and the account pages.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from typing import ClassVar
from urllib.parse import urlencode

from research_crawler.eval.testbed.decoys import DecoyKind
from research_crawler.eval.testbed.full_text import search_terms
from research_crawler.eval.testbed.markup import attr, document, esc
from research_crawler.eval.testbed.models import Item
from research_crawler.eval.testbed.site_app import Request, Response, Route, SiteApp, paged

__all__ = ["EXTRAS", "FACETS", "PER_PAGE", "CatalogueRecord", "Fresh6CatalogueSite", "filter_value", "inverted"]

PER_PAGE = 10
#: The facets of the sidebar, in the order their filters are written: (field, heading).
FACETS = (("format", "Format"), ("topic_facet", "Subject"), ("publishDate", "Year of Publication"))
#: Records that are no article: (key, format, title, author, year, subject).
EXTRAS = (
    ("b3901120", "Book", "Lichens of the Northern Isles: An Identification Guide", "Ferrier, Agnes", 2023,
     "Indicators (Biology)"),
    ("b3901157", "Journal", "Ecological Indicators", "", 2022, "Indicators (Biology)"),
    ("b3901194", "Book", "Field Methods in Environmental Monitoring", "Quist, Halvard", 2024, "Indicators (Biology)"),
    ("b3901231", "Map", "Glacier and Lake Inventory of the Cordillera Blanca, 1:100 000", "Instituto Nacional de "
     "Glaciares", 2022, "Natural disasters -- Mountain regions"),
    ("b3901268", "Book", "Mountain Hazards and Society: A Reader", "Okonjo, Beatrice", 2024,
     "Natural disasters -- Mountain regions"),
    ("b3901305", "Video", "When the Ice Lets Go (documentary film)", "Marchetti, Lino", 2025,
     "Natural disasters -- Mountain regions"),
)  # fmt: skip
_JOURNALS = {
    "Indicators (Biology)": ("The Lichenologist", "Environmental Pollution", "Ecological Indicators", "Fungal Ecology"),
    "Natural disasters -- Mountain regions": (
        "Natural Hazards and Earth System Sciences",
        "Geomorphology",
        "The Cryosphere",
        "Journal of Glaciology",
    ),
}


def inverted(name: str) -> str:
    """'Hanna Berg' → 'Berg, Hanna', as catalogues file names."""
    given, _, surname = name.rpartition(" ")
    return f"{surname}, {given}" if given else name


def filter_value(field: str, value: str) -> str:
    """A facet filter as VuFind writes it: ``format:"Article"``."""
    return f'{field}:"{value}"'


@dataclass(frozen=True)
class CatalogueRecord:
    """One record of the catalogue: an item (an article) or one of the extras."""

    key: str
    format: str
    title: str
    authors: tuple[str, ...]  # inverted: 'Berg, Hanna'
    year: int
    subject: str
    summary: str
    item: Item | None

    def fields(self) -> dict[str, str]:
        return {"format": self.format, "topic_facet": self.subject, "publishDate": str(self.year)}

    @property
    def host(self) -> str:
        """Where an article appeared: 'Geomorphology, Vol. 12, no. 3 (2024), p. 44-61'."""
        journals = _JOURNALS.get(self.subject, ("Ecological Indicators",))
        number = sum(map(ord, self.key))
        first = 10 + number % 300
        return (
            f"{journals[number % len(journals)]}, Vol. {self.year - 2010}, no. {1 + number % 6} ({self.year}), "
            f"p. {first}-{first + 9 + number % 20}"
        )


class Fresh6CatalogueSite(SiteApp):
    """A discovery catalogue: faceted GET search, numbered result pages, record pages with a staff view."""

    decoy_paths: ClassVar[dict[str, DecoyKind]] = {"/Content/help": "help", "/Content/about": "about",
                                                   "/Content/privacy": "privacy"}  # fmt: skip

    def routes(self) -> list[Route]:
        return [
            (re.compile(r"/"), self._home),
            (re.compile(r"/Search/Results"), self._results),
            (re.compile(r"/Record/(?P<key>b\d+)"), self._record),
            (re.compile(r"/Record/(?P<key>b\d+)/Details"), self._details),
            (re.compile(r"/Record/(?P<key>b\d+)/Fulltext"), self._fulltext),
            (re.compile(r"/Record/(?P<key>b\d+)/Export"), self._export),
            (re.compile(r"/Author/Home"), self._author),
        ]

    def robots_txt(self) -> str:
        return (
            "User-agent: *\nDisallow: /MyResearch/\nDisallow: /Cart/\nDisallow: /AJAX/\n"
            "Disallow: /Record/*/Export\nDisallow: /Search/Results?*sort=\n"
        )

    def sample_paths(self) -> dict[str, str]:
        item = self.items[0]
        return {"home": "/", "results": "/Search/Results?lookfor=&type=AllFields", "record": item.path,
                "details": f"{item.path}/Details", "author": _author_link(inverted(item.authors[0]))}  # fmt: skip

    def page(self, *, title: str, content: str, kind: str, status: int = 200, head: str = "") -> Response:
        body = (
            f'<header class="navbar"><a class="brand" href="/">{esc(self.spec.title)}</a>'
            '<ul class="nav"><li><a href="/MyResearch/Home">Login</a></li><li><a href="/Cart/Home">Book Bag (0)</a>'
            '</li><li><a href="/Content/help">Help</a></li></ul>'
            '<form class="searchForm" action="/Search/Results" method="get"><input name="lookfor" '
            'aria-label="Search terms"><select name="type"><option value="AllFields">All Fields</option>'
            '<option value="Title">Title</option><option value="Author">Author</option><option value="Subject">'
            "Subject</option></select><button>Find</button></form></header>\n"
            f'<div class="main">{content}</div>\n'
            '<footer><a href="/Content/about">About the library</a> · <a href="/Content/privacy">Privacy</a> · '
            "Powered by VuFind</footer>"
        )
        return Response.html(document(title=f"{title} :: {self.spec.title}", head=head, body=body), kind=kind,
                             status=status)  # fmt: skip

    # ------------------------------------------------------------------ records

    def records(self) -> list[CatalogueRecord]:
        """Every record, in the index's order (the order of an empty search)."""
        made = [
            CatalogueRecord(i.key, "Article", i.title, tuple(inverted(a) for a in i.authors), i.year, i.category,
                            i.abstract, i)
            for i in self.items
        ]  # fmt: skip
        made += [
            CatalogueRecord(key, kind, title, (author,) if author else (), year, subject, "", None)
            for key, kind, title, author, year, subject in EXTRAS
        ]
        return sorted(made, key=lambda r: (sum(map(ord, r.key)) * 7919) % 1009)

    def _record_of(self, key: str) -> CatalogueRecord | None:
        return next((r for r in self.records() if r.key == key), None)

    def _home(self, request: Request) -> Response:
        subjects = Counter(r.subject for r in self.records())
        browse = "".join(
            f'<li><a href="{attr(_results_link({"topic_facet": s}))}">{esc(s)}</a> ({n})</li>'
            for s, n in sorted(subjects.items())
        )
        content = (
            "<h1>Search the library</h1><p>One search for the books, e-books, journal articles, theses and maps "
            "the library holds or subscribes to.</p>"
            f'<h2>Browse by subject</h2><ul class="browse">{browse}</ul>'
            f'<p><a href="{attr(_results_link({}))}">Browse the whole catalogue</a></p>'
        )
        return self.page(title="Search Home", content=content, kind="home")

    def _results(self, request: Request) -> Response:
        chosen: dict[str, str] = {}
        for raw in request.query.get("filter[]", []):
            field, _, value = raw.partition(":")
            if field in dict(FACETS):
                chosen[field] = value.strip('"')
        lookfor = request.param("lookfor").strip()
        terms = search_terms(lookfor)
        found = [
            r
            for r in self.records()
            if all(r.fields()[f] == v for f, v in chosen.items()) and _matches(r, terms, request.param("type"))
        ]
        if terms:
            found.sort(key=lambda r: -sum(t in search_terms(r.title) for t in terms))
        sort = request.param("sort", "relevance")
        if sort == "year":
            found.sort(key=lambda r: -r.year)
        elif sort == "year asc":
            found.sort(key=lambda r: r.year)
        elif sort == "title":
            found.sort(key=lambda r: r.title.lower())
        base = {"lookfor": lookfor, "type": request.param("type", "AllFields")}
        shown, pager = paged(request, found, PER_PAGE, lambda n: _results_link(chosen, base | {"page": str(n)}))
        rows = "".join(_result_row(r) for r in shown)
        facets = self._sidebar(found, chosen, base)
        hidden = "".join(
            f'<input type="hidden" name="filter[]" value="{attr(filter_value(f, v))}">' for f, v in chosen.items()
        )
        sorter = (
            f'<form action="/Search/Results" method="get"><input type="hidden" name="lookfor" value="{attr(lookfor)}">'
            f'{hidden}<label>Sort <select name="sort"><option value="relevance">Relevance</option><option '
            'value="year">Date Descending</option><option value="year asc">Date Ascending</option><option '
            'value="title">Title</option></select></label><button>Sort</button></form>'
        )
        applied = "".join(
            f'<li>{esc(dict(FACETS)[f])}: {esc(v)} <a href="{attr(_results_link(chosen, base, drop=f))}">'
            "(remove)</a></li>"
            for f, v in chosen.items()
        )
        content = (
            f'<div class="sidebar">{facets}</div><div class="results"><h1>Search Results</h1>'
            f"<p>Showing {len(shown)} of {len(found)} results"
            + (f" for <b>{esc(lookfor)}</b>" if lookfor else "")
            + f'</p><ul class="filters">{applied}</ul>{sorter}<ol class="result-list">{rows}</ol>{pager}</div>'
        )
        return self.page(title="Search Results", content=content, kind="results")

    def _sidebar(self, found: list[CatalogueRecord], chosen: dict[str, str], base: dict[str, str]) -> str:
        parts = []
        for field, heading in FACETS:
            if field in chosen:
                continue
            counts = Counter(r.fields()[field] for r in found)
            order = sorted(counts, reverse=True) if field == "publishDate" else [v for v, _ in counts.most_common()]
            links = "".join(
                f'<li><a href="{attr(_results_link(chosen | {field: v}, base))}">{esc(v)}</a> '
                f'<span class="badge">{counts[v]}</span></li>'
                for v in order
            )
            parts.append(f'<h2 class="facet">{esc(heading)}</h2><ul>{links}</ul>')
        return "".join(parts)

    def _record(self, request: Request, key: str) -> Response:
        record = self._record_of(key)
        if record is None:
            return self.not_found("The record you requested does not exist.")
        authors = "".join(f'<li><a href="{attr(_author_link(a))}">{esc(a)}</a></li>' for a in record.authors[1:])
        main = (
            f'<tr><th>Main Author:</th><td><a href="{attr(_author_link(record.authors[0]))}">'
            f"{esc(record.authors[0])}</a></td></tr>"
            if record.authors
            else ""
        )
        host = f"<tr><th>Published in:</th><td>{esc(record.host)}</td></tr>" if record.item else ""
        online = (
            f'<tr><th>Online Access:</th><td><a href="/Record/{attr(record.key)}/Fulltext">Full text (PDF)</a>'
            "</td></tr>"
            if record.item
            else "<tr><th>Holdings:</th><td>Main Library, Floor 2 — Available</td></tr>"
        )
        summary = f"<h2>Summary</h2><p>{esc(record.summary)}</p>" if record.summary else ""
        content = (
            f'<span class="Z3988" title="{attr(_coins(record))}"></span>'
            f'<h1>{esc(record.title)}</h1><table class="citation">{main}'
            + (f"<tr><th>Other Authors:</th><td><ul>{authors}</ul></td></tr>" if authors else "")
            + f"<tr><th>Format:</th><td>{esc(record.format)}</td></tr><tr><th>Language:</th><td>English</td></tr>"
            f"<tr><th>Published:</th><td>{record.year}</td></tr>{host}"
            f'<tr><th>Subjects:</th><td><a href="{attr(_results_link({"topic_facet": record.subject}))}">'
            f"{esc(record.subject)}</a></td></tr>{online}</table>"
            f'<ul class="tabs"><li class="active">Description</li><li><a href="/Record/{attr(record.key)}/Details">'
            f'Staff View</a></li><li><a href="/Record/{attr(record.key)}/Export?style=BibTeX">Export to BibTeX</a>'
            f"</li></ul>{summary}"
        )
        return self.page(title=record.title, content=content, kind="record")

    def _details(self, request: Request, key: str) -> Response:
        record = self._record_of(key)
        if record is None:
            return self.not_found("The record you requested does not exist.")
        fields = [("LEADER", "", "00000nab a2200000 i 4500" if record.item else "00000nam a2200000 i 4500")]
        fields += [("100", "1_", f"|a {a}") for a in record.authors[:1]]
        fields += [("245", "10", f"|a {record.title}"), ("264", "_1", f"|c {record.year}")]
        fields += [("520", "__", f"|a {record.summary}")] if record.summary else []
        fields += [("650", "_0", f"|a {record.subject}")]
        fields += [("700", "1_", f"|a {a}") for a in record.authors[1:]]
        fields += [("773", "0_", f"|t {record.host}")] if record.item else []
        rows = "".join(f"<tr><th>{t}</th><td>{i}</td><td>{esc(v)}</td></tr>" for t, i, v in fields)
        content = f'<h1>{esc(record.title)}</h1><h2>Staff View</h2><table class="marc">{rows}</table>'
        return self.page(title=f"Staff View: {record.title}", content=content, kind="details")

    def _fulltext(self, request: Request, key: str) -> Response:
        item = self.item_at(f"/Record/{key}")
        return self.not_found() if item is None else self.pdf(item)

    def _export(self, request: Request, key: str) -> Response:
        record = self._record_of(key)
        if record is None:
            return self.not_found()
        text = (
            f"@article{{{record.key},\n  title = {{{record.title}}},\n  author = {{{' and '.join(record.authors)}}},\n"
            f"  year = {{{record.year}}}\n}}\n"
        )
        return Response.text(text, kind="export")

    def _author(self, request: Request) -> Response:
        name = request.param("author")
        theirs = [r for r in self.records() if name in r.authors]
        if not theirs:
            return self.not_found("No records by that author.")
        shown, pager = paged(request, theirs, PER_PAGE, lambda n: _author_link(name, page=n))
        content = f"<h1>Author: {esc(name)}</h1><ol>{''.join(_result_row(r) for r in shown)}</ol>{pager}"
        return self.page(title=f"Author: {name}", content=content, kind="author")


def _matches(record: CatalogueRecord, terms: list[str], kind: str) -> bool:
    """Every word of the query in the field searched (all fields unless Title, Author or Subject is chosen)."""
    fields = {"Title": record.title, "Author": " ".join(record.authors), "Subject": record.subject}
    text = fields.get(kind, f"{record.title} {' '.join(record.authors)} {record.subject} {record.summary}")
    words = set(search_terms(text))
    return all(t in words for t in terms)


def _results_link(chosen: dict[str, str], base: dict[str, str] | None = None, *, drop: str = "") -> str:
    params = list((base or {"lookfor": "", "type": "AllFields"}).items())
    params += [("filter[]", filter_value(f, chosen[f])) for f, _ in FACETS if f in chosen and f != drop]
    return f"/Search/Results?{urlencode(params)}"


def _author_link(name: str, *, page: int = 1) -> str:
    return "/Author/Home?" + urlencode({"author": name} | ({"page": str(page)} if page > 1 else {}))


def _result_row(record: CatalogueRecord) -> str:
    by = "".join(f'<div>by <a href="{attr(_author_link(a))}">{esc(a)}</a></div>' for a in record.authors[:1])
    where = f"<div>Published in {esc(record.host.split(',')[0])}, {record.year}</div>" if record.item else ""
    online = f' <a href="/Record/{attr(record.key)}/Fulltext">Full text online</a>' if record.item else ""
    return (
        f'<li class="result"><a class="title" href="/Record/{attr(record.key)}">{esc(record.title)}</a>'
        + by
        + (where or f"<div>{record.year}</div>")
        + f'<span class="format">{esc(record.format)}</span>{online}</li>'
    )


def _coins(record: CatalogueRecord) -> str:
    """The record as an OpenURL ContextObject in a span (COinS), as VuFind embeds it."""
    genre = "article" if record.item else "book"
    params = [("ctx_ver", "Z39.88-2004"), ("rft.genre", genre), ("rft.atitle" if record.item else "rft.btitle",
              record.title), ("rft.date", str(record.year))]  # fmt: skip
    params += [("rft.au", a) for a in record.authors]
    return urlencode(params)
