"""HELD OUT, fresh (twenty-fourth batch): Lumina PMC, a database of life-sciences literature built as Europe PMC
shows its abstracts and preprints (see `fresh_heldout24.py`; do not read or tune anything to it). Everything is a GET
search (`/search?query=...`, the query language's fields written in it: `SRC:PPR`, `SUBJECT:"Virology"`,
`PUBLISHER:"medRxiv"`, `PUB_YEAR:2024`): results twenty-five a page, journal articles and preprints mixed, sorted by
relevance unless `sort=P_PDATE_D desc` asks for the newest first, paged by an opaque cursor ("Next 25 ›" carries
`cursorMark=`; there are no page numbers), with facet links for the source, the publication year and the preprint
server. The home page links the newest preprints and each subject's, and "Preprints in Lumina PMC" (`/Preprints`)
each server's. A preprint record (`/article/PPR/PPR812345`) shows a "Preprint" notice, the authors as "Okafor A,
Rossi C, Vance D" with an "Author information" list of full names, the server, "Posted: 2024 Mar 12", the server's
DOI, the abstract and schema.org JSON-LD (ScholarlyArticle); a preprint since published names its version of record
and links it. Journal articles on other subjects (`/article/MED/38412345`) fill the results. robots.txt forbids the
REST API, the exports and the accounts pages.
"""

from __future__ import annotations

import base64
import hashlib
import re
from datetime import date, timedelta
from typing import ClassVar
from urllib.parse import urlencode

from research_crawler.eval.testbed.decoys import DecoyKind
from research_crawler.eval.testbed.fresh_heldout24 import SERVERS, server_of
from research_crawler.eval.testbed.markup import MONTHS, attr, document, esc, json_script
from research_crawler.eval.testbed.models import Item
from research_crawler.eval.testbed.site_app import Request, Response, Route, SiteApp

__all__ = [
    "FILLERS_PER_ITEM",
    "PAGE_SIZE",
    "RECENT_PREPRINTS",
    "Fresh24PmcSite",
    "cursor_mark",
    "fillers",
    "pmc_day",
    "preprint_doi",
    "search_link",
    "vancouver",
]

PAGE_SIZE = 25
FILLERS_PER_ITEM = 3
#: The home page's link to every preprint, newest first.
RECENT_PREPRINTS = "SRC:PPR"
_DATE_SORT = "P_PDATE_D desc"
_FILLER_TITLES = (
    "Hand Hygiene Compliance in Paediatric Wards: A Stepped-Wedge Trial",
    "Noise Exposure and Hearing Thresholds in Sawmill Workers",
    "Silica Dust Monitoring on Tunnel Construction Sites",
    "Antibiotic Prescribing for Sore Throat in Primary Care",
    "Lead in Drinking Water of Older School Buildings",
    "Musculoskeletal Pain Among Supermarket Cashiers",
    "Phage Display Libraries for Snake Venom Antibodies",
    "Seroprevalence of Hepatitis E in Blood Donors",
    "Crystal Structure of a Norovirus Protease",
    "Measles Vaccine Uptake After School Entry Checks",
    "Burnout in Emergency Medical Dispatchers",
    "Respirator Fit Testing Among Agricultural Workers",
    "Mosquito Surveillance with Smartphone Audio",
    "Long-Term Outcomes of Carpal Tunnel Release",
    "Zoonotic Spillover Risk at Live Animal Markets",
    "Sharps Injuries in Veterinary Practice",
    "Arsenic in Rice-Based Infant Foods",
    "Latent Tuberculosis Screening in Healthcare Workers",
    "Sequencing of Mumps Outbreak Strains in Universities",
    "Heat Stress in Greenhouse Harvest Workers",
)
_FILLER_JOURNALS = (
    "Occup Environ Med",
    "J Virol",
    "BMJ Open",
    "Ann Work Expo Health",
    "Virus Res",
    "Scand J Work Environ Health",
)
_FILLER_AUTHORS = (
    "Hannah Brandt",
    "Kofi Mensah",
    "Lucia Ferri",
    "Tomasz Wrona",
    "Ingrid Solberg",
    "Rafael Quintero",
    "Mei Lin Tan",
    "Oskar Lind",
    "Amara Nwosu",
    "Pieter de Wit",
    "Sofia Andersson",
    "Jamal Haddad",
)
_FILLER_ABSTRACT = (
    "Background: This study addresses a question of occupational or infectious disease practice. Methods: Records and "
    "samples were analysed with standard methods. Results: The findings are reported with their uncertainty. "
    "Conclusions: Implications for practice and policy are discussed."
)


def _digest(text: str) -> int:
    return int(hashlib.sha1(text.encode()).hexdigest()[:12], 16)


def pmc_day(day: str) -> str:
    """'2024 Mar 12', as the database writes a date."""
    parsed = date.fromisoformat(day)
    return f"{parsed.year} {MONTHS[parsed.month - 1][:3]} {parsed.day}"


def vancouver(authors: tuple[str, ...]) -> str:
    """'Okafor A, Souza AM': surname and initials, as the results and the record list authors."""
    names = []
    for name in authors:
        given, surname = name.rsplit(" ", 1)
        names.append(f"{surname} {''.join(part[0] for part in given.split())}")
    return ", ".join(names)


def preprint_doi(item: Item) -> str:
    """The DOI the preprint server gave the preprint (its own, not the version of record's)."""
    return f"10.{21203 + _digest(server_of(item.title)) % 7}/{server_of(item.title)}.{item.date[:4]}.{item.key[3:]}"


def cursor_mark(offset: int) -> str:
    """The opaque cursor of the results after `offset` ('*' for the first page)."""
    if offset == 0:
        return "*"
    return "AoJ" + base64.urlsafe_b64encode(f"{offset:06d}|p".encode()).decode().rstrip("=")


def _offset_of(mark: str) -> int | None:
    if mark in ("", "*"):
        return 0
    try:
        raw = base64.urlsafe_b64decode(mark[3:] + "=" * (-len(mark[3:]) % 4)).decode()
    except (ValueError, UnicodeDecodeError):
        return None
    head, _, tail = raw.partition("|")
    return int(head) if mark.startswith("AoJ") and head.isdigit() and tail == "p" else None


def search_link(query: str, *, sort: str = "", mark: str = "") -> str:
    """The address of a search, as the site's links write it."""
    params = (
        {"query": query} | ({"sort": sort} if sort else {}) | ({"cursorMark": mark} if mark and mark != "*" else {})
    )
    return "/search?" + urlencode(params)


def fillers(items: list[Item]) -> list[Item]:
    """Journal articles and preprints on other subjects that share the results with the items (never relevant)."""
    made: dict[str, Item] = {}
    for item in items:
        for n in range(FILLERS_PER_ITEM):
            seed = _digest(f"{item.key}-{n}")
            preprint = n == 0
            pmid = f"PPR{900000 + seed % 99000}" if preprint else str(35000000 + seed % 4000000)
            title = _FILLER_TITLES[(seed + n) % len(_FILLER_TITLES)]
            authors = tuple(
                dict.fromkeys(_FILLER_AUTHORS[(seed // 7 + k * 5) % len(_FILLER_AUTHORS)] for k in range(3))
            )
            day = date.fromisoformat(item.date) - timedelta(days=1 + seed % 90)
            made[pmid] = Item(
                id=f"{item.site}:{pmid}",
                site=item.site,
                key=pmid,
                path=f"/article/PPR/{pmid}" if preprint else f"/article/MED/{pmid}",
                pdf_path=f"/article/PPR/{pmid}/preprint.pdf" if preprint else f"/article/MED/{pmid}",
                title=title,
                authors=authors,
                date=day.isoformat(),
                abstract=_FILLER_ABSTRACT,
                topic="filler",
                category=item.category,
            )
    return list(made.values())


def _is_preprint(record: Item) -> bool:
    return record.key.startswith("PPR")


_CLAUSE = re.compile(r'(SRC|SUBJECT|PUBLISHER|PUB_YEAR):("[^"]*"|\S+)')
_FIELD_ORDER = ("SRC", "SUBJECT", "PUBLISHER", "PUB_YEAR")


class _Query:
    """A parsed search: free words (all must match) and field clauses."""

    def __init__(self, text: str) -> None:
        self.fields: dict[str, str] = {}
        for name, value in _CLAUSE.findall(text):
            self.fields[name] = value.strip('"')
        rest = _CLAUSE.sub(" ", text).replace(" AND ", " ")
        self.words = [w for w in re.findall(r"[a-z0-9-]+", rest.lower()) if w not in ("and",)]

    def text(self, **changes: str) -> str:
        fields = self.fields | changes
        clauses = [
            f'{name}:"{fields[name]}"'
            if " " in fields[name] or name in ("SUBJECT", "PUBLISHER")
            else f"{name}:{fields[name]}"
            for name in _FIELD_ORDER
            if fields.get(name)
        ]
        return " AND ".join([*([" ".join(self.words)] if self.words else []), *clauses])


class Fresh24PmcSite(SiteApp):
    """A literature database: GET search with cursor paging and facets, preprint records, journal-article fillers."""

    decoy_paths: ClassVar[dict[str, DecoyKind]] = {
        "/About": "about",
        "/Help": "help",
        "/Funders": "members",
        "/Privacy": "privacy",
        "/Accessibility": "terms",
    }

    def routes(self) -> list[Route]:
        self.records = sorted(self.items + fillers(self.items), key=lambda i: (i.date, i.key), reverse=True)
        self.by_key = {r.key: r for r in self.records}
        return [
            (re.compile(r"/"), self._home),
            (re.compile(r"/Preprints"), self._preprints),
            (re.compile(r"/search"), self._search),
            (re.compile(r"/article/PPR/(?P<ppr>PPR\d+)"), self._preprint),
            (re.compile(r"/article/PPR/(?P<ppr>PPR\d+)/preprint\.pdf"), self._pdf),
            (re.compile(r"/article/MED/(?P<pmid>\d+)"), self._article),
        ]

    def robots_txt(self) -> str:
        return "User-agent: *\nDisallow: /api/\nDisallow: /export/\nDisallow: /accounts/\n"

    def sample_paths(self) -> dict[str, str]:
        filler = next(r for r in self.records if not _is_preprint(r))
        return {
            "home": "/",
            "preprints": "/Preprints",
            "search": search_link(RECENT_PREPRINTS, sort=_DATE_SORT),
            "preprint": self.items[0].path,
            "article": filler.path,
        }

    def page(self, *, title: str, content: str, kind: str, status: int = 200, head: str = "") -> Response:
        body = (
            '<header class="site-header"><a class="logo" href="/">Lumina PMC</a><form class="search-bar" action='
            '"/search" method="get" role="search"><label for="banner--search-input" class="visually-hidden">Search '
            'life-sciences literature</label><input id="banner--search-input" name="query" type="search" placeholder='
            '"Search life-sciences literature (43,912,330 articles, preprints and more)"><button type="submit">Search'
            '</button></form><nav><a href="/search?query=">Advanced search</a> <a href="/Preprints">Preprints</a> <a '
            'href="/Funders">Funders</a> <a href="/accounts/login">Sign in</a></nav></header>'
            f'<main id="main-content">{content}</main><footer><p><a href="/About">About</a> · <a href="/Help">Help</a>'
            ' · <a href="/Accessibility">Accessibility</a> · <a href="/Privacy">Privacy notice</a> · <a href="/api/'
            'rest/search?query=*">REST API</a></p><p>Lumina PMC is a partner of the life-sciences literature network, '
            "supported by research funders.</p></footer>"
        )
        return Response.html(document(title=f"{title} - Lumina PMC", head=head, body=body), kind=kind, status=status)

    # ------------------------------------------------------------------ pages

    def _home(self, request: Request) -> Response:
        subjects = sorted({i.category for i in self.items})
        links = "".join(
            f'<li><a href="{attr(search_link(f"SRC:PPR AND SUBJECT:{chr(34)}{s}{chr(34)}", sort=_DATE_SORT))}">'
            f"{esc(s)} preprints</a></li>"
            for s in subjects
        )
        content = (
            '<section class="hero"><h1>Search life-sciences literature</h1><p>Abstracts, full-text articles and '
            "preprints from publishers and preprint servers.</p></section><section><h2>Explore preprints</h2><p>"
            "Preprints are indexed within days of posting, with links to their peer-reviewed versions when they appear."
            f'</p><ul><li><a href="{attr(search_link(RECENT_PREPRINTS, sort=_DATE_SORT))}">Recent preprints</a></li>'
            f'{links}<li><a href="/Preprints">Preprints in Lumina PMC</a></li></ul></section><section><h2>News</h2>'
            "<p>Annotations of full-text articles now show grant identifiers. Read more on our blog.</p></section>"
        )
        return self.page(title="Home", content=content, kind="home")

    def _preprints(self, request: Request) -> Response:
        rows = "".join(
            f'<li><a href="{attr(search_link(f"SRC:PPR AND PUBLISHER:{chr(34)}{name}{chr(34)}", sort=_DATE_SORT))}">'
            f"{esc(name)}</a></li>"
            for name in SERVERS.values()
        )
        content = (
            "<h1>Preprints in Lumina PMC</h1><p>Preprints are complete manuscripts posted before peer review. Lumina "
            "PMC indexes the preprints of the servers below; a banner on each record says that it is a preprint.</p>"
            f"<h2>Preprint servers</h2><ul>{rows}</ul><p>Search preprints only by adding <code>SRC:PPR</code> to a "
            "query.</p>"
        )
        return self.page(title="Preprints", content=content, kind="about")

    def _matches(self, query: _Query, record: Item) -> bool:
        fields = query.fields
        preprint = record.key.startswith("PPR")
        if fields.get("SRC") and fields["SRC"] != ("PPR" if preprint else "MED"):
            return False
        if fields.get("SUBJECT") and fields["SUBJECT"] != record.category:
            return False
        if fields.get("PUBLISHER") and fields["PUBLISHER"] != (
            SERVERS[server_of(record.title)] if preprint else self._journal(record)
        ):
            return False
        if fields.get("PUB_YEAR") and fields["PUB_YEAR"] != record.date[:4]:
            return False
        text = f"{record.title} {record.abstract} {' '.join(record.authors)}".lower()
        return all(word in text for word in query.words)

    def _journal(self, record: Item) -> str:
        return _FILLER_JOURNALS[_digest(record.key) % len(_FILLER_JOURNALS)]

    def _search(self, request: Request) -> Response:
        raw = request.param("query").strip()
        sort = request.param("sort")
        query = _Query(raw)
        offset = _offset_of(request.param("cursorMark", "*"))
        if offset is None:
            return self.page(title="Search", content="<h1>Invalid cursorMark</h1>", kind="search", status=400)
        if not raw:
            content = (
                '<h1>Advanced search</h1><form action="/search" method="get"><label>Query <input name="query"></label>'
                '<select name="sort"><option value="">Relevance</option><option value="P_PDATE_D desc">Date (newest'
                ' first)</option></select><button type="submit">Search</button></form>'
            )
            return self.page(title="Advanced search", content=content, kind="search")
        found = [r for r in self.records if self._matches(query, r)]
        if sort != _DATE_SORT:
            words = query.words
            found.sort(key=lambda r: -sum(w in r.title.lower() for w in words))
        shown = found[offset : offset + PAGE_SIZE]
        rows = "".join(self._result(r) for r in shown)
        nav = ""
        if offset + PAGE_SIZE < len(found):
            following = search_link(raw, sort=sort, mark=cursor_mark(offset + PAGE_SIZE))
            nav = f'<a class="next" href="{attr(following)}">Next 25 ›</a>'
        if offset:
            nav = f'<a class="first" href="{attr(search_link(raw, sort=sort))}">« First page</a> ' + nav
        sorts = (
            f'Sort by: <a href="{attr(search_link(raw))}">Relevance</a> | <a href="'
            f'{attr(search_link(raw, sort=_DATE_SORT))}">Date</a>'
        )
        content = (
            f'<h1>Search results</h1><p class="query">{esc(raw)}</p><div class="results-layout"><aside class="facets">'
            f'{self._facets(query, found, sort)}</aside><section class="results"><p>{len(found)} results · showing '
            f'{offset + 1 if found else 0}–{offset + len(shown)}</p><p>{sorts}</p><ol>{rows}</ol><nav class="paging">'
            f"{nav}</nav></section></div>"
        )
        return self.page(title=f"{raw} - Search", content=content, kind="search")

    def _facets(self, query: _Query, found: list[Item], sort: str) -> str:
        groups = []
        if "SRC" not in query.fields:
            counts = {"PPR": sum(_is_preprint(r) for r in found), "MED": sum(not _is_preprint(r) for r in found)}
            names = {"PPR": "Preprints", "MED": "Journal articles"}
            links = "".join(
                f'<li><a href="{attr(search_link(query.text(SRC=code), sort=sort))}">{names[code]} ({n})</a></li>'
                for code, n in counts.items()
                if n
            )
            groups.append(f"<h3>Source</h3><ul>{links}</ul>")
        if "PUB_YEAR" not in query.fields:
            years = sorted({r.date[:4] for r in found}, reverse=True)
            links = "".join(
                f'<li><a href="{attr(search_link(query.text(PUB_YEAR=y), sort=sort))}">{y} '
                f"({sum(r.date[:4] == y for r in found)})</a></li>"
                for y in years
            )
            groups.append(f"<h3>Publication year</h3><ul>{links}</ul>")
        if query.fields.get("SRC") == "PPR" and "PUBLISHER" not in query.fields:
            servers = sorted({SERVERS[server_of(r.title)] for r in found})
            links = "".join(
                f'<li><a href="{attr(search_link(query.text(PUBLISHER=s), sort=sort))}">{esc(s)}</a></li>'
                for s in servers
            )
            groups.append(f"<h3>Preprint server</h3><ul>{links}</ul>")
        return "".join(groups)

    def _result(self, record: Item) -> str:
        if not _is_preprint(record):
            source = f"{esc(self._journal(record))}. {pmc_day(record.date)}"
            badge, ident = "", f"PMID: {record.key}"
        else:
            source = f"{esc(SERVERS[server_of(record.title)])} ; {pmc_day(record.date)}"
            badge, ident = '<span class="badge">Preprint</span> ', f"PPRID: {record.key}"
        return (
            f'<li class="citation">{badge}<a class="title" href="{attr(record.path)}">{esc(record.title)}</a><div '
            f'class="authors">{esc(vancouver(record.authors))}</div><div class="source">{source} · {ident}</div></li>'
        )

    def _preprint(self, request: Request, ppr: str) -> Response:
        item = self.by_key.get(ppr)
        if item is None or not _is_preprint(item):
            return self.not_found("The record you asked for is not in Lumina PMC.")
        server = SERVERS[server_of(item.title)]
        published = ""
        for copy in self.testbed.copies_of(item):
            if copy.site != item.site:
                journal = self.testbed.site(copy.site).title
                published = (
                    f'<div class="published-version"><h3>Published version</h3><p>This preprint has been published in '
                    f'<i>{esc(journal)}</i>, {pmc_day(copy.date)}. DOI: {esc(copy.doi)}. <a href="'
                    f'{attr(self.links.on_site(copy.site, copy.path))}">Read the version of record</a></p></div>'
                )
        people = "".join(
            f'<li><span class="name">{esc(a)}</span> — {esc(self._affiliation(a))}</li>' for a in item.authors
        )
        ld = {
            "@context": "https://schema.org",
            "@type": "ScholarlyArticle",
            "name": item.title,
            "author": [{"@type": "Person", "name": a} for a in item.authors],
            "datePublished": item.date,
            "publisher": {"@type": "Organization", "name": server},
            "identifier": preprint_doi(item),
        }
        content = (
            '<div class="preprint-notice"><span class="badge">Preprint</span> This article is a preprint. It reports '
            'new research that has not yet been certified by peer review.</div><article><h1 id="article--current--'
            f'title">{esc(item.title)}</h1><div class="authors">{esc(vancouver(item.authors))}</div><details class='
            f'"author-information"><summary>Author information</summary><ol>{people}</ol></details><p class="source">'
            f"{esc(server)}. Posted: {pmc_day(item.date)}. DOI: {esc(preprint_doi(item))} · PPRID: {item.key}</p>"
            f'{published}<h2>Abstract</h2><p class="abstract">{esc(item.abstract)}</p><p><a href="'
            f'{attr(item.pdf_path)}">Preprint PDF</a> · <a href="/export/ris?ids={item.key}">Export citation</a> · '
            f'<a href="{attr(search_link(f"SUBJECT:{chr(34)}{item.category}{chr(34)}", sort=_DATE_SORT))}">More in '
            f"{esc(item.category)}</a></p></article>"
        )
        head = json_script(ld, script_type="application/ld+json")
        return self.page(title=item.title, content=content, kind="article", head=head)

    def _affiliation(self, name: str) -> str:
        places = (
            "Department of Infectious Disease Epidemiology, University of Kesterby",
            "Centre for Sleep and Circadian Research, Haldane Institute",
            "School of Public Health, Marrow University",
            "Institute of Computational Medicine, Vellmar",
        )
        return places[_digest(name) % len(places)]

    def _pdf(self, request: Request, ppr: str) -> Response:
        item = self.by_key.get(ppr)
        return self.pdf(item) if item is not None and _is_preprint(item) else self.not_found()

    def _article(self, request: Request, pmid: str) -> Response:
        record = self.by_key.get(pmid)
        if record is None or _is_preprint(record):
            return self.not_found("The record you asked for is not in Lumina PMC.")
        content = (
            f'<article><h1 id="article--current--title">{esc(record.title)}</h1><div class="authors">'
            f'{esc(vancouver(record.authors))}</div><p class="source">{esc(self._journal(record))}. '
            f'{pmc_day(record.date)}. PMID: {record.key}</p><h2>Abstract</h2><p class="abstract">'
            f"{esc(record.abstract)}</p><p>Full text available from the publisher.</p></article>"
        )
        return self.page(title=record.title, content=content, kind="record")
