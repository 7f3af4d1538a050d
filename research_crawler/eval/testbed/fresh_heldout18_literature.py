"""HELD OUT, fresh (eighteenth batch): MedIndex, built as PubMed shows its database of citations and abstracts (see
`fresh_heldout18.py`; do not read or tune anything to it). Everything is a search: the home page's "Latest
literature" links each journal's newest papers as a search sorted by date (`/?term=%22Toxicon%22%5Bjour%5D&sort=
date`); the GET search (`/?term=`) understands the field tags [jour], [MeSH], [Author] and [dp] besides free words
(all of which must match), lists ten results a page (`&page=2`) as PubMed's summaries ("Smith J, Okafor A, Lee K.
Toxicon. 2024 Mar 15;12(3):45-60. doi: … Epub 2024 Feb 1. PMID: 38123456."), best match first unless sorted by
date. A record (`/38123456/`) gives the citation line, the authors' full names with numbered affiliations, the
abstract, keywords, MeSH terms that link to searches, similar articles, a free full text in PMC for some, and
citation meta tags with the date written mm/dd/yyyy. The account, clipboard and exports are forbidden.
"""

from __future__ import annotations

import re
from datetime import date, timedelta
from typing import ClassVar
from urllib.parse import quote_plus

from research_crawler.eval.testbed.decoys import DecoyKind
from research_crawler.eval.testbed.fresh_heldout18 import JOURNALS, journal_of
from research_crawler.eval.testbed.full_text import search_items
from research_crawler.eval.testbed.markup import attr, document, esc, meta_name
from research_crawler.eval.testbed.models import Item
from research_crawler.eval.testbed.site_app import Request, Response, Route, SiteApp

__all__ = ["PER_PAGE", "Fresh18LiteratureSite", "citation", "epub", "pubmed_date", "search", "short_author"]

PER_PAGE = 10
_FIELD = re.compile(r'("[^"]+"|[^\s"\[]+(?: [A-Z]{1,2})?)\[(jour|ta|mesh|mh|author|au|dp)\]', re.IGNORECASE)
_AFFILIATIONS = (
    "Department of Anaesthesia and Perioperative Medicine, Ellesford University, Ellesford, UK.",
    "Department of Clinical Medicine, Faculty of Medicine, University of Peradeniya, Peradeniya, Sri Lanka.",
    "Centre for Snakebite Research and Interventions, Liverpool School of Tropical Medicine, Liverpool, UK.",
    "Department of Geriatric Medicine, Aarhus University Hospital, Aarhus, Denmark.",
    "Instituto Clodomiro Picado, Universidad de Costa Rica, San José, Costa Rica.",
)


def _hash(text: str) -> int:
    return sum(ord(c) * (n + 17) for n, c in enumerate(text))


def pubmed_date(day: date) -> str:
    """A date as PubMed's citations write it ('2024 Mar 5')."""
    return f"{day:%Y %b} {day.day}"


def epub(item: Item) -> date | None:
    """The day the article appeared online ahead of its issue, for most articles."""
    lag = _hash(item.title) % 70
    return date.fromisoformat(item.date) - timedelta(days=lag) if lag > 14 else None


def short_author(name: str) -> str:
    """An author as PubMed's summaries write one ('Okafor A')."""
    given, _, surname = name.rpartition(" ")
    return f"{surname} {''.join(part[0] for part in given.split())}"


def citation(item: Item) -> str:
    """The journal citation line ('Toxicon. 2024 Mar 15;240:107-115. doi: ….')."""
    day = date.fromisoformat(item.date)
    journal = journal_of(item)[0]
    volume = 100 + day.year - 2000 + _hash(item.key) % 3
    first = 10 + _hash(item.title) % 900
    text = f"{journal}. {pubmed_date(day)};{volume}({day.month}):{first}-{first + 9}. doi: {item.doi}."
    online = epub(item)
    return text + (f" Epub {pubmed_date(online)}." if online else "")


def _tagged(value: str, tag: str) -> str:
    """The search for a quoted value in a field ('/?term=%22Toxicon%22%5Bjour%5D')."""
    return "/?term=" + quote_plus(f'"{value}"[{tag}]')


def _matches(item: Item, field: str, value: str) -> bool:
    value = value.strip('"').lower()
    if field in ("jour", "ta"):
        return journal_of(item)[0].lower() == value
    if field in ("mesh", "mh"):
        return item.category.lower() == value
    if field in ("author", "au"):
        return any(short_author(a).lower().startswith(value) for a in item.authors)
    low, _, high = value.partition(":")
    return low.isdigit() and int(low) <= item.year <= int(high if high.isdigit() else low)


def search(items: list[Item], term: str, *, by_date: bool) -> list[Item]:
    """PubMed's search, as far as this database needs it: field-tagged terms, then free words (all must match)."""
    found = list(items)
    for value, field in _FIELD.findall(term):
        found = [i for i in found if _matches(i, field.lower(), value)]
    words = _FIELD.sub(" ", term).replace(" AND ", " ").strip()
    if words:
        found = search_items(found, words)
    elif not by_date:
        found = sorted(found, key=lambda i: (i.date, i.key), reverse=True)
    return sorted(found, key=lambda i: (i.date, i.key), reverse=True) if by_date else found


class Fresh18LiteratureSite(SiteApp):
    """A PubMed-like database: home with latest literature, GET search with pages, records."""

    decoy_paths: ClassVar[dict[str, DecoyKind]] = {
        "/about/": "about",
        "/help/": "help",
        "/accessibility/": "accessibility",
    }

    def routes(self) -> list[Route]:
        self.by_key = {i.key: i for i in self.items}
        return [
            (re.compile(r"/"), self._home),
            (re.compile(r"/(?P<key>\d{8})/"), self._record),
            (re.compile(r"/(?P<key>\d{8})"), lambda request, key: Response.redirect(f"/{key}/", status=301)),
            (re.compile(r"/pmc/articles/PMC(?P<number>\d+)/pdf/"), self._pdf),
        ]

    def robots_txt(self) -> str:
        return "User-agent: *\nDisallow: /myncbi/\nDisallow: /account/\nDisallow: /clipboard/\nDisallow: /export/\n"

    def sample_paths(self) -> dict[str, str]:
        item = self.items[0]
        journal = journal_of(item)[0]
        return {
            "home": "/",
            "journal": _tagged(journal, "jour") + "&sort=date",
            "search": "/?term=2022%3A2026%5Bdp%5D&page=2",
            "record": item.path,
        }

    def page(self, *, title: str, content: str, kind: str, status: int = 200, head: str = "") -> Response:
        site = self.spec.title
        body = (
            f'<header class="ncbi-header"><a class="logo" href="/">{esc(site)}</a><a href="/account/">Log in</a>'
            '</header><div class="search-bar"><form id="search-form" action="/" method="get"><input type="search" '
            'name="term" id="id_term" aria-label="Search MedIndex"><button type="submit">Search</button></form>'
            f'</div><main class="article-page">{content}</main><footer class="page-footer"><a href="/about/">About'
            '</a> <a href="/help/">Help</a> <a href="/accessibility/">Accessibility</a> <p>National Centre for '
            "Biomedical Information</p></footer>"
        )
        return Response.html(document(title=title, head=head, body=body), kind=kind, status=status)

    def _summary(self, n: int, item: Item) -> str:
        authors = ", ".join(short_author(a) for a in item.authors[:3]) + (", et al." if len(item.authors) > 3 else ".")
        return (
            f'<article class="full-docsum"><span class="position-number">{n}</span><a class="docsum-title" href='
            f'"{attr(item.path)}" data-article-id="{item.key}">{esc(item.title)}</a><div class="docsum-citation">'
            f'<span class="docsum-authors short-authors">{esc(authors)}</span> <span class="docsum-journal-citation '
            f'short-journal-citation">{esc(citation(item))}</span> <span class="citation-part">PMID: <span class='
            f'"docsum-pmid">{item.key}</span></span></div></article>'
        )

    def _home(self, request: Request) -> Response:
        term = request.param("term").strip()
        if term:
            return self._results(request, term)
        journals = "".join(
            f'<li><a href="{attr(_tagged(name, "jour"))}&amp;sort=date">{esc(name)}</a></li>' for name, _, _ in JOURNALS
        )
        trending = "".join(
            f'<li><a href="{attr(i.path)}">{esc(i.title)}</a></li>'
            for i in sorted(self.items, key=lambda i: _hash(i.key + "trend"))[:5]
        )
        content = (
            f"<h1>{esc(self.spec.title)}</h1><p>{esc(self.spec.title)} comprises citations for biomedical literature"
            " from life science journals and online books.</p><section class="
            f'"latest-literature"><h2>Latest Literature</h2><p>New articles from highly accessed journals</p><ul>'
            f'{journals}</ul></section><section class="trending"><h2>Trending Articles</h2><ul>{trending}</ul>'
            "</section>"
        )
        return self.page(title=self.spec.title, content=content, kind="home")

    def _results(self, request: Request, term: str) -> Response:
        by_date = request.param("sort") == "date"
        found = search(self.items, term, by_date=by_date)
        pages = max(1, -(-len(found) // PER_PAGE))
        page = request.int_param("page", 1, minimum=1, maximum=pages)
        shown = found[(page - 1) * PER_PAGE : page * PER_PAGE]
        rows = "".join(self._summary((page - 1) * PER_PAGE + n, i) for n, i in enumerate(shown, start=1))
        base = f"/?term={quote_plus(term)}" + ("&sort=date" if by_date else "")
        pager = f'<span class="page-number">Page {page} of {pages}</span>'
        if page > 1:
            pager = f'<a class="prev-page-btn" href="{attr(f"{base}&page={page - 1}")}">Previous</a> ' + pager
        if page < pages:
            pager += f' <a class="next-page-btn" href="{attr(f"{base}&page={page + 1}")}">Next</a>'
        best = f"/?term={quote_plus(term)}"
        sorter = f'<a href="{attr(best)}">Best match</a> | <a href="{attr(best + "&sort=date")}">Most recent</a>'
        body = rows or f'<p class="no-results">No results were found for &quot;{esc(term)}&quot;.</p>'
        content = (
            f'<div class="results-amount"><h3><span class="value">{len(found)}</span> results</h3></div><div '
            f'class="sort">Sort by: {sorter}</div><div class="search-results-chunk">{body}</div>'
            f'<div class="pagination">{pager}</div>'
        )
        return self.page(title=f"{term} - Search Results - {self.spec.title}", content=content, kind="search")

    def _record(self, request: Request, key: str) -> Response:
        item = self.by_key.get(key)
        if item is None:
            return self.not_found()
        day = date.fromisoformat(item.date)
        journal, issn = journal_of(item)
        places = [_AFFILIATIONS[_hash(a) % len(_AFFILIATIONS)] for a in item.authors]
        numbered = list(dict.fromkeys(places))
        authors = ", ".join(
            f'<span class="authors-list-item"><a class="full-name" href="/?term={quote_plus(short_author(a))}%5BAuthor'
            f'%5D">{esc(a)}</a><sup class="affiliation-links">{numbered.index(p) + 1}</sup></span>'
            for a, p in zip(item.authors, places, strict=True)
        )
        affiliations = "".join(f"<li><sup>{n}</sup>{esc(p)}</li>" for n, p in enumerate(numbered, start=1))
        mesh = [item.category, "Humans", "Aged" if "delirium" in item.topic else "Adult"]
        terms = "".join(f'<li><a href="{attr(_tagged(m, "MeSH"))}">{esc(m)}</a></li>' for m in mesh)
        similar = [i for i in self.items if i.category == item.category and i.key != item.key]
        similar = sorted(similar, key=lambda i: _hash(i.key + item.key))[:3]
        links = "".join(f'<li><a href="{attr(i.path)}">{esc(i.title)}</a></li>' for i in similar)
        free = (
            f'<a class="link-item pmc" href="{attr(item.pdf_path)}">Free PMC article</a>'
            if _hash(item.key) % 2
            else f'<a class="link-item" href="https://doi.org/{attr(item.doi or "")}">Full text at publisher</a>'
        )
        head = (
            meta_name("citation_title", item.title)
            + meta_name("citation_authors", ";".join(short_author(a) for a in item.authors) + ";")
            + meta_name("citation_journal_title", journal)
            + meta_name("citation_date", f"{day:%m/%d/%Y}")
            + meta_name("citation_issn", issn)
            + meta_name("citation_doi", item.doi or "")
            + meta_name("citation_pmid", item.key)
            + meta_name("description", item.abstract[:200])
        )
        content = (
            f'<div class="article-details"><div class="article-citation"><div class="journal-actions"><span class='
            f'"cit">{esc(citation(item))}</span></div></div><h1 class="heading-title">{esc(item.title)}</h1><div '
            f'class="authors-list">{authors}</div><ul class="item-list">{affiliations}</ul><ul class='
            f'"identifiers"><li>PMID: <strong class="current-id">{item.key}</strong></li><li>DOI: <a href="https://'
            f'doi.org/{attr(item.doi or "")}">{esc(item.doi)}</a></li></ul><div class="full-text-links">{free}</div>'
            f'<div class="abstract" id="abstract"><h2>Abstract</h2><p>{esc(item.abstract)}</p><p><strong>Keywords:'
            f'</strong> {esc("; ".join(item.keywords))}.</p></div><div class="similar-articles"><h2>Similar articles'
            f'</h2><ul>{links}</ul></div><div class="mesh-terms"><h2>MeSH terms</h2><ul>{terms}</ul></div><div '
            f'class="actions"><a href="/export/?id={item.key}&amp;format=nbib">Cite</a> <a href="/clipboard/?add='
            f'{item.key}">Add to clipboard</a></div></div>'
        )
        return self.page(title=f"{item.title} - {self.spec.title}", content=content, kind="article", head=head)

    def _pdf(self, request: Request, number: str) -> Response:
        item = next((i for i in self.items if i.pdf_path == f"/pmc/articles/PMC{number}/pdf/"), None)
        return self.pdf(item) if item is not None else self.not_found()
