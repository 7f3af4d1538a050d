"""HELD OUT, fresh (nineteenth batch): HEPindex, built as INSPIRE shows the literature of particle and nuclear
physics (see `fresh_heldout19.py`; do not read or tune anything to it). The home page links each arXiv category's
literature and the experiments; every listing is a literature search (`/literature?sort=mostrecent&size=10&page=1&q=
primarch%20hep-ex`, or `q=exp%20NA-71` from an experiment's page), ten a page with numbered page links, sorted by
most recent or most cited, each row the title, "Ada Okafor (Thornbury U.) et al.", the e-print, the journal
reference and the citation count. A record (`/literature/2134567`) gives the authors with affiliations linked to
their profiles (`/authors/1098765`, headed surname first, listing their papers), the e-print with its category, the
DOI, "Published in: Phys.Rev.D 109 (2024) 3, 032001", "Published: Mar 15, 2024", the experiment, the abstract and,
for accepted manuscripts a university holds, a link to that copy (one work, two sites). The search understands
primarch, exp, a, t and date besides free words. Exports, the API and the account are forbidden.
"""

from __future__ import annotations

import re
from datetime import date
from typing import ClassVar
from urllib.parse import quote

from research_crawler.eval.testbed.decoys import DecoyKind
from research_crawler.eval.testbed.full_text import search_items
from research_crawler.eval.testbed.markup import attr, document, esc, meta_name
from research_crawler.eval.testbed.models import Item
from research_crawler.eval.testbed.site_app import Request, Response, Route, SiteApp

__all__ = [
    "EXPERIMENTS",
    "PER_PAGE",
    "Fresh19HepSite",
    "experiment_of",
    "inspire_date",
    "journal_ref",
    "most_recent",
    "search",
]

PER_PAGE = 10
#: Experiments by arXiv category (name, record number).
EXPERIMENTS = {
    "hep-ex": (("NA-71", 1_110_211), ("HALO-B", 1_284_377), ("DARKLIGHT-2", 1_402_918)),
    "nucl-ex": (("GERMANA", 1_390_041), ("XELENA", 1_201_562)),
}
_INSTITUTIONS = ("Thornbury U.", "CERN", "INFN, Rome", "Mainz U.", "JINR, Dubna", "Tohoku U.", "SLAC")
_QUERY = re.compile(r"^(primarch|exp|a|t|date)\s+(.+)$")


def _hash(text: str) -> int:
    return sum(ord(c) * (n + 29) for n, c in enumerate(text))


def inspire_date(day: date) -> str:
    """A date as INSPIRE writes one ('Mar 15, 2024')."""
    return f"{day:%b} {day.day}, {day.year}"


def experiment_of(item: Item) -> tuple[str, int]:
    names = EXPERIMENTS[item.category]
    return names[_hash(item.title) % len(names)]


def journal_ref(item: Item) -> str:
    """'Phys.Rev.D 109 (2024) 3, 032001' (nuclear physics in Phys.Rev.C)."""
    day = date.fromisoformat(item.date)
    letter = "D" if item.category == "hep-ex" else "C"
    return f"Phys.Rev.{letter} {day.year - 1915} ({day.year}) {day.month}, 0{_hash(item.key) % 90_000 + 10_000}"


def _citations(item: Item) -> int:
    age = (date(2026, 11, 1) - date.fromisoformat(item.date)).days
    return _hash(item.title) % 7 + age // 60


def most_recent(items: list[Item]) -> list[Item]:
    return sorted(items, key=lambda i: (i.date, i.key), reverse=True)


def _surname_first(name: str) -> str:
    given, _, surname = name.rpartition(" ")
    return f"{surname}, {given}"


def search(items: list[Item], query: str, *, sort: str) -> list[Item]:
    """INSPIRE's search as far as this database needs it: one field query, or free words (all must match)."""
    field = _QUERY.match(query.strip())
    if field is None:
        found = search_items(items, query) if query.strip() else list(items)
    else:
        name, value = field.group(1), field.group(2).strip().strip('"')
        low = value.lower()
        if name == "primarch":
            found = [i for i in items if i.category == value]
        elif name == "exp":
            found = [i for i in items if experiment_of(i)[0] == value]
        elif name == "a":
            found = [i for i in items if any(low in (a.lower(), _surname_first(a).lower()) for a in i.authors)]
        elif name == "date":
            found = [i for i in items if i.date.startswith(value)]
        else:
            found = search_items(items, value)
    if sort == "mostcited":
        return sorted(found, key=lambda i: (-_citations(i), i.key))
    return most_recent(found)


class Fresh19HepSite(SiteApp):
    """An INSPIRE-like database: home, experiments, literature searches, records, author profiles."""

    decoy_paths: ClassVar[dict[str, DecoyKind]] = {"/help": "help", "/about": "about", "/submit": "submit"}

    def routes(self) -> list[Route]:
        self.by_key = {i.key: i for i in self.items}
        self.profiles = {self._profile(a): a for i in self.items for a in i.authors}
        return [
            (re.compile(r"/"), self._home),
            (re.compile(r"/literature"), self._results),
            (re.compile(r"/literature/(?P<key>\d{7})"), self._record),
            (re.compile(r"/authors/(?P<number>\d{7})"), self._author),
            (re.compile(r"/experiments"), self._experiments),
            (re.compile(r"/experiments/(?P<number>\d{7})"), self._experiment),
            (re.compile(r"/files/arXiv:(?P<eprint>\d{4}\.\d{5})\.pdf"), self._file),
        ]

    def robots_txt(self) -> str:
        return (
            "User-agent: *\nDisallow: /api/\nDisallow: /user/\nDisallow: /submissions/\n"
            "Disallow: /literature/*/export\nDisallow: /literature?*q=refersto\n"
        )

    def sample_paths(self) -> dict[str, str]:
        item = self.items[0]
        return {
            "home": "/",
            "category": "/literature?sort=mostrecent&size=10&page=1&q=primarch%20hep-ex",
            "experiments": "/experiments",
            "experiment": f"/experiments/{experiment_of(item)[1]}",
            "record": item.path,
            "author": f"/authors/{self._profile(item.authors[0])}",
        }

    @staticmethod
    def _profile(name: str) -> str:
        return str(1_000_000 + _hash(name) * 17 % 900_000)

    @staticmethod
    def _listing(query: str, sort: str = "mostrecent", page: int = 1) -> str:
        return f"/literature?sort={sort}&size={PER_PAGE}&page={page}&q={quote(query)}"

    def page(self, *, title: str, content: str, kind: str, status: int = 200, head: str = "") -> Response:
        site = self.spec.title
        body = (
            f'<div class="__Header__"><a class="logo" href="/">{esc(site)}</a><form class="search-box" action='
            '"/literature" method="get"><select name="collection"><option>literature</option><option>authors'
            '</option><option>experiments</option></select><input type="text" name="q" placeholder="eg. a Okafor '
            'or t dark photon"><button type="submit">Search</button></form><a href="/user/login">Login</a></div>'
            f'<div class="__Main__">{content}</div><div class="__Footer__"><a href="/about">About</a> <a href="/help">'
            f'Help</a> <a href="/submit">Submit</a> <span>{esc(self.spec.tagline)}</span></div>'
        )
        title = f"{title} - {site}" if title != site else site
        return Response.html(document(title=title, head=head, body=body), kind=kind, status=status)

    def _authors_line(self, item: Item, limit: int) -> str:
        shown = [
            f'<a href="/authors/{self._profile(a)}">{esc(a)}</a> <span class="affiliation">'
            f"({esc(_INSTITUTIONS[_hash(a) % len(_INSTITUTIONS)])})</span>"
            for a in item.authors[:limit]
        ]
        return ", ".join(shown) + (" et al." if len(item.authors) > limit else "")

    def _row(self, item: Item) -> str:
        eprint = (
            f'<span class="eprint">e-Print: <a href="https://arxiv.org/abs/{item.arxiv_id}">{item.arxiv_id}</a> '
            f"[{item.category}]</span> "
            if item.arxiv_id
            else ""
        )
        return (
            f'<div class="result-item"><a class="result-item-title" href="{attr(item.path)}">{esc(item.title)}</a>'
            f'<div class="authors">{self._authors_line(item, 1)}</div><div class="publication-info">{eprint}'
            f'<span>Published in: {esc(journal_ref(item))}</span></div><div class="actions"><a href="{attr(item.path)}'
            f'/export?format=bibtex">cite</a> <span class="citations">{_citations(item)} citations</span></div></div>'
        )

    def _home(self, request: Request) -> Response:
        categories = "".join(
            f'<li><a href="{attr(self._listing(f"primarch {c}"))}">{c}</a></li>' for c in sorted(EXPERIMENTS)
        )
        content = (
            f"<h1>{esc(self.spec.title)}</h1><p>{esc(self.spec.tagline)}: articles, conference papers and theses, "
            f"with their authors, experiments and citations.</p><h2>Browse by arXiv category</h2><ul>{categories}</ul>"
            '<h2>Other collections</h2><ul><li><a href="/experiments">Experiments</a></li></ul>'
        )
        return self.page(title=self.spec.title, content=content, kind="home")

    def _results(self, request: Request) -> Response:
        query = request.param("q")
        sort = "mostcited" if request.param("sort") == "mostcited" else "mostrecent"
        found = search(self.items, query, sort=sort)
        pages = max(1, -(-len(found) // PER_PAGE))
        page = request.int_param("page", 1, minimum=1, maximum=pages)
        rows = "".join(self._row(i) for i in found[(page - 1) * PER_PAGE : page * PER_PAGE])
        pager = " ".join(
            f'<li class="ant-pagination-item-active">{n}</li>'
            if n == page
            else f'<li class="ant-pagination-item"><a href="{attr(self._listing(query, sort, n))}">{n}</a></li>'
            for n in range(1, pages + 1)
        )
        sorts = " ".join(
            f'<a href="{attr(self._listing(query, key))}">{label}</a>'
            for key, label in (("mostrecent", "Most Recent"), ("mostcited", "Most Cited"))
        )
        content = (
            f'<div class="search-results"><span class="results-count">{len(found)} results</span> <span class='
            f'"sort-by">Sort by: {sorts}</span>{rows or "<p>No results found</p>"}<ul class="ant-pagination">'
            f"{pager}</ul></div>"
        )
        return self.page(title=f"Literature Search: {query}", content=content, kind="search")

    def _record(self, request: Request, key: str) -> Response:
        item = self.by_key.get(key)
        if item is None:
            return self.not_found()
        day = date.fromisoformat(item.date)
        name, number = experiment_of(item)
        eprint = (
            f'<div>e-Print: <a href="https://arxiv.org/abs/{item.arxiv_id}">{item.arxiv_id}</a> [{item.category}]'
            f'</div><div><a class="pdf" href="{attr(item.pdf_path)}">pdf</a></div>'
            if item.arxiv_id
            else ""
        )
        copies = [c for c in self.testbed.copies_of(item) if c.site != item.site]
        links = "".join(
            f'<div class="links">Accepted manuscript: <a href="{attr(self.links.on_site(c.site, c.path))}">'
            f"{esc(self.testbed.site(c.site).title)}</a></div>"
            for c in copies
        )
        head = (
            meta_name("citation_title", item.title)
            + "".join(meta_name("citation_author", _surname_first(a)) for a in item.authors)
            + meta_name("citation_publication_date", f"{day:%Y/%m/%d}")
            + meta_name("citation_doi", item.doi or "")
        )
        content = (
            f'<div class="detail-page"><h2 class="title">{esc(item.title)}</h2><div class="authors">'
            f"{self._authors_line(item, 10)}</div><div>Collaboration: "
            f'<a href="/experiments/{number}">{esc(name)}</a></div><div class="publication-info">Published in: '
            f"{esc(journal_ref(item))}</div><div>Published: {inspire_date(day)}</div>{eprint}<div>DOI: <a href="
            f'"https://doi.org/{attr(item.doi or "")}">{esc(item.doi)}</a></div>{links}<div class="abstract">'
            f'<h3>Abstract: (APS)</h3><p>{esc(item.abstract)}</p></div><div class="tabs"><a href="{attr(item.path)}'
            f'/export?format=bibtex">cite</a> <a href="/literature?q=refersto%3Arecid%3A{item.key}">Citations '
            f"({_citations(item)})</a></div></div>"
        )
        return self.page(title=item.title, content=content, kind="article", head=head)

    def _author(self, request: Request, number: str) -> Response:
        name = self.profiles.get(number)
        if name is None:
            return self.not_found()
        papers = most_recent([i for i in self.items if name in i.authors])
        rows = "".join(self._row(i) for i in papers)
        content = (
            f'<div class="author-profile"><h2>{esc(_surname_first(name))}</h2><p class="affiliation">'
            f"{esc(_INSTITUTIONS[_hash(name) % len(_INSTITUTIONS)])}</p><h3>Papers ({len(papers)})</h3>{rows}</div>"
        )
        return self.page(title=name, content=content, kind="listing")

    def _experiments(self, request: Request) -> Response:
        rows = "".join(
            f'<li><a href="/experiments/{number}">{esc(name)}</a> ({category})</li>'
            for category, names in EXPERIMENTS.items()
            for name, number in names
        )
        return self.page(title="Experiments", content=f"<h1>Experiments</h1><ul>{rows}</ul>", kind="collection")

    def _experiment(self, request: Request, number: str) -> Response:
        found = [(n, c) for c, names in EXPERIMENTS.items() for n, x in names if str(x) == number]
        if not found:
            return self.not_found()
        name, category = found[0]
        count = sum(experiment_of(i)[0] == name for i in self.items if i.category == category)
        content = (
            f'<h1>{esc(name)}</h1><p>Experiment in {category}.</p><p><a href="{attr(self._listing(f"exp {name}"))}">'
            f"{count} papers</a> associated with {esc(name)}</p>"
        )
        return self.page(title=name, content=content, kind="detail")

    def _file(self, request: Request, eprint: str) -> Response:
        item = next((i for i in self.items if i.arxiv_id == eprint), None)
        return self.pdf(item) if item is not None else self.not_found()
