"""HELD OUT, fresh (twenty-third batch): the Whinmoor Herbarium Specimen Portal, built as Symbiota portals of
herbaria are (see `fresh_heldout23.py`; do not read or tune anything to it). The home page offers the occurrence
search (a form that posts to `/collections/list`, forbidden by robots.txt with downloads and the image search) and
leads to the collections, the taxonomic tree and the bibliography. The bibliography (`/bibliography/`) lists the
papers that cite the herbarium's specimens, ten a page with numbered pages (`?page=2`), ordered by the first author's
surname, each in the botanical citation style ("Okafor, A., C. Rossi & D. Vance. 2024. Title. Journal 12: 45–67."),
with links that narrow it to a year (`?year=2024`). A reference (`/bibliography/4821`) is a table: title, authors
"Okafor, Aino; Rossi, Chiara", journal, volume and pages, "Date published: 12.03.2024", DOI, abstract, the specimens
it cites, the reprint; a paper first announced as a preprint on a member's blog links to the post on the planet.
No metadata tags. The taxonomic tree (`/taxa/`) leads to families and species (`/taxa/pottiaceae/syntrichia-
ruralis/`), whose pages list their specimens and the literature citing them; a specimen (`/specimen/WHM123456`)
gives its collector and number, the date collected as herbaria write it ("12 iii 2019"), locality and
determination, and the papers citing it.
"""

from __future__ import annotations

import hashlib
import re
from datetime import date, timedelta
from typing import ClassVar
from urllib.parse import urlencode

from research_crawler.eval.testbed.decoys import DecoyKind
from research_crawler.eval.testbed.fresh_heldout23 import JOURNALS, journal_of
from research_crawler.eval.testbed.markup import attr, document, esc, url_slug
from research_crawler.eval.testbed.models import Item
from research_crawler.eval.testbed.site_app import Request, Response, Route, SiteApp

__all__ = [
    "PER_PAGE",
    "ROMAN",
    "TAXA",
    "Fresh23HerbariumSite",
    "Specimen",
    "botanical_citation",
    "date_published",
    "semicolon_authors",
    "specimens_of",
    "surname_key",
    "taxon_path",
]

PER_PAGE = 10
ROMAN = ("i", "ii", "iii", "iv", "v", "vi", "vii", "viii", "ix", "x", "xi", "xii")
#: Species of each family the herbarium holds.
TAXA: dict[str, tuple[str, ...]] = {
    "Pottiaceae": (
        "Syntrichia ruralis", "Tortula muralis", "Barbula unguiculata", "Didymodon fallax", "Syntrichia caninervis",
    ),
    "Orchidaceae": (
        "Dactylorhiza incarnata", "Epipactis palustris", "Cypripedium calceolus", "Ophrys apifera", "Neottia ovata",
    ),
}  # fmt: skip
_LOCALITIES = (
    "Whinmoor Common, limestone pavement, on bare rock",
    "Scar Close, north-facing scree, 380 m",
    "Hollin Fen, calcareous flush among sedges",
    "Kettlewell churchyard wall, mortar joints",
    "Malham Tarn Moss, hummock margin",
    "Arnside Knott, grassland over limestone",
    "Sefton dunes, damp slack",
)
_COLLECTORS = ("J. Pennington", "M. A. Holt", "E. Whitaker", "R. Sowerby", "K. Ibbotson")


def _digest(text: str) -> int:
    return int(hashlib.sha1(text.encode()).hexdigest()[:12], 16)


def taxon_path(taxon: str, family: str) -> str:
    return f"/taxa/{url_slug(family)}/{url_slug(taxon)}/"


def surname_key(item: Item) -> tuple[str, str, str]:
    """The bibliography's order: the first author's surname, then the year, then the title."""
    return (item.authors[0].split()[-1].lower(), item.date[:4], item.title.lower())


def _initials(given: str) -> str:
    return " ".join(f"{part[0]}." for part in given.split())


def _citation_parts(item: Item) -> tuple[str, str]:
    """What comes before and after the title in the bibliography's citation of `item`."""
    names = []
    for n, name in enumerate(item.authors):
        given, surname = name.rsplit(" ", 1)
        names.append(f"{surname}, {_initials(given)}" if n == 0 else f"{_initials(given)} {surname}")
    authors = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " & " + names[-1]
    volume, first, last = _pages(item)
    return f"{authors}. {item.date[:4]}.", f"{JOURNALS[journal_of(item.title)]} {volume}: {first}–{last}."


def botanical_citation(item: Item) -> str:
    """'Okafor, A., C. Rossi & D. Vance. 2024. Title. Journal 12: 45–67.' (first author surname first)."""
    before, after = _citation_parts(item)
    return f"{before} {item.title}. {after}"


def _linked_citation(item: Item) -> str:
    before, after = _citation_parts(item)
    return f'{esc(before)} <a href="{attr(item.path)}">{esc(item.title)}</a>. <i>{esc(after)}</i>'


def _pages(item: Item) -> tuple[int, int, int]:
    seed = _digest(item.key)
    first = 1 + seed % 400
    return int(item.date[:4]) - 2010, first, first + 8 + seed % 25


def semicolon_authors(authors: tuple[str, ...]) -> str:
    """'Okafor, Aino; Rossi, Chiara', as the reference's table writes them."""
    return "; ".join(f"{a.rsplit(' ', 1)[1]}, {a.rsplit(' ', 1)[0]}" for a in authors)


def date_published(item: Item) -> str:
    """'12.03.2024'."""
    return f"{date.fromisoformat(item.date):%d.%m.%Y}"


class Specimen:
    """A sheet or packet of the herbarium that a paper cites."""

    def __init__(self, catalog: str, taxon: str, family: str, collector: str, number: int, collected: date) -> None:
        self.catalog = catalog
        self.taxon = taxon
        self.family = family
        self.collector = collector
        self.number = number
        self.collected = collected

    @property
    def path(self) -> str:
        return f"/specimen/{self.catalog}"

    @property
    def collected_text(self) -> str:
        """'12 iii 2019', as herbarium labels write the day."""
        return f"{self.collected.day} {ROMAN[self.collected.month - 1]} {self.collected.year}"

    @property
    def locality(self) -> str:
        return _LOCALITIES[_digest(self.catalog) % len(_LOCALITIES)]


def specimens_of(item: Item) -> list[Specimen]:
    """The two to four specimens a paper cites, collected before it appeared."""
    family = item.category
    seed = _digest(item.key + item.title)
    made = []
    for n in range(2 + seed % 3):
        part = _digest(f"{item.key}-{n}")
        taxon = TAXA[family][(seed + n) % len(TAXA[family])] if family in TAXA else family
        collected = date.fromisoformat(item.date) - timedelta(days=200 + part % 3000)
        made.append(
            Specimen(
                catalog=f"WHM{100000 + (seed // 7 + n * 7919) % 900000:06d}",
                taxon=taxon,
                family=family,
                collector=_COLLECTORS[part % len(_COLLECTORS)],
                number=100 + part % 4000,
                collected=collected,
            )
        )
    return made


class Fresh23HerbariumSite(SiteApp):
    """A herbarium's specimen portal: bibliography by surname and year, references, taxa, specimens."""

    decoy_paths: ClassVar[dict[str, DecoyKind]] = {
        "/misc/about.php": "about",
        "/misc/contacts.php": "contact",
        "/misc/usagepolicy.php": "terms",
        "/misc/loans.php": "help",
        "/misc/volunteers.php": "members",
    }

    def routes(self) -> list[Route]:
        self.by_ref = {i.key: i for i in self.items}
        self.specimens: dict[str, tuple[Specimen, list[Item]]] = {}
        for item in self.items:
            for specimen in specimens_of(item):
                known = self.specimens.setdefault(specimen.catalog, (specimen, []))
                known[1].append(item)
        return [
            (re.compile(r"/"), self._home),
            (re.compile(r"/index\.php"), self._home),
            (re.compile(r"/bibliography/"), self._bibliography),
            (re.compile(r"/bibliography/(?P<ref>\d{4})"), self._reference),
            (re.compile(r"/bibliography/(?P<ref>\d{4})/reprint\.pdf"), self._reprint),
            (re.compile(r"/taxa/"), self._families),
            (re.compile(r"/taxa/(?P<family>[a-z]+)/"), self._family),
            (re.compile(r"/taxa/(?P<family>[a-z]+)/(?P<taxon>[a-z-]+)/"), self._taxon),
            (re.compile(r"/specimen/(?P<catalog>WHM\d{6})"), self._specimen),
            (re.compile(r"/collections/"), self._collections),
            (re.compile(r"/collections/list"), self._search),
        ]

    def robots_txt(self) -> str:
        return (
            "User-agent: *\nDisallow: /collections/list\nDisallow: /collections/download/\nDisallow: /imagelib/search"
            "\nDisallow: /api/\nDisallow: /profile/\nCrawl-delay: 5\n"
        )

    def sample_paths(self) -> dict[str, str]:
        item = self.items[0]
        specimen = specimens_of(item)[0]
        return {
            "home": "/",
            "bibliography": "/bibliography/",
            "bibliography-year": "/bibliography/?year=2024",
            "reference": item.path,
            "taxa": "/taxa/",
            "family": f"/taxa/{url_slug(item.category)}/",
            "taxon": taxon_path(specimen.taxon, specimen.family),
            "specimen": specimen.path,
            "collections": "/collections/",
        }

    def page(self, *, title: str, content: str, kind: str, status: int = 200, head: str = "") -> Response:
        body = (
            '<div id="top_navbar"><a href="/">Home</a> | <a href="/collections/">Search Collections</a> | <a href='
            '"/taxa/">Taxonomic Tree</a> | <a href="/bibliography/">Bibliography</a> | <a href="/misc/loans.php">Loans'
            '</a> | <a href="/misc/about.php">About</a> | <a href="/profile/index.php">Login</a></div><div id="header">'
            '<h1 class="portal">Whinmoor Herbarium (WHM)</h1><p>University of Whinmoor · Specimen Portal</p></div>'
            f'<div id="innertext">{content}</div><div id="footer"><p>Data provided under CC BY 4.0 unless stated '
            'otherwise. Please read the <a href="/misc/usagepolicy.php">data usage policy</a>. <a href="/misc/contacts'
            '.php">Contacts</a> · <a href="/misc/volunteers.php">Volunteer at the herbarium</a></p><p>Powered by '
            "Symbiota</p></div>"
        )
        return Response.html(
            document(title=f"Whinmoor Herbarium - {title}", head=head, body=body), kind=kind, status=status
        )

    def _home(self, request: Request) -> Response:
        content = (
            "<h2>Welcome</h2><p>The Whinmoor Herbarium holds some 240,000 specimens of mosses, liverworts, lichens and "
            "vascular plants, chiefly of northern England. This portal serves label data and images of the databased "
            'collections.</p><form name="collform" action="/collections/list" method="post"><fieldset><legend>'
            'Quick search</legend><label>Taxon <input name="taxa" type="text"></label> <label>Country <input name='
            '"country" type="text"></label> <label>Collector <input name="collector" type="text"></label> <button '
            'type="submit">List specimens</button></fieldset></form><ul class="home-links"><li><a href="/collections/'
            '">Browse the collections</a></li><li><a href="/taxa/">Taxonomic tree</a></li><li><a href="/bibliography/'
            '">Literature citing WHM specimens</a></li><li><a href="/imagelib/search">Image library</a></li></ul>'
            "<h3>News</h3><p>The moss packets of the Pennington bequest are now databased. Loans resume in spring.</p>"
        )
        return self.page(title="Home", content=content, kind="home")

    def _bibliography(self, request: Request) -> Response:
        year = request.param("year")
        years = sorted({i.date[:4] for i in self.items}, reverse=True)
        chosen = [i for i in self.items if not year or i.date[:4] == year]
        if year and not chosen:
            return self.not_found("No references for that year.")
        ordered = sorted(chosen, key=lambda i: (*surname_key(i), i.key))
        pages = max(1, -(-len(ordered) // PER_PAGE))
        page = request.int_param("page", 1, minimum=1, maximum=pages)
        shown = ordered[(page - 1) * PER_PAGE : page * PER_PAGE]

        def link(n: int) -> str:
            query = ({"year": year} if year else {}) | ({"page": str(n)} if n > 1 else {})
            return "/bibliography/" + (f"?{urlencode(query)}" if query else "")

        pager = " ".join(
            f"<b>{n}</b>" if n == page else f'<a href="{attr(link(n))}">{n}</a>' for n in range(1, pages + 1)
        )
        if page < pages:
            pager += f' <a class="next" href="{attr(link(page + 1))}">Next &raquo;</a>'
        facets = " | ".join(f"<b>{y}</b>" if y == year else f'<a href="/bibliography/?year={y}">{y}</a>' for y in years)
        entries = "".join(f'<li class="ref">{_linked_citation(i)}</li>' for i in shown)
        heading = f"Literature citing WHM specimens ({year})" if year else "Literature citing WHM specimens"
        content = (
            f"<h2>{heading}</h2><p>Publications that cite specimens of the Whinmoor Herbarium, as reported to the "
            'curators. Please send reprints of new papers to the herbarium.</p><p class="years">Year: <a href='
            f'"/bibliography/">All</a> | {facets}</p><p>{len(ordered)} references · page {page} of {pages}</p><ol '
            f'class="references" start="{(page - 1) * PER_PAGE + 1}">{entries}</ol><div class="pager">{pager}</div>'
        )
        return self.page(title="Bibliography", content=content, kind="listing")

    def _reference(self, request: Request, ref: str) -> Response:
        item = self.by_ref.get(ref)
        if item is None:
            return self.not_found()
        volume, first, last = _pages(item)
        rows = "".join(
            f'<tr><td><a href="{s.path}">{s.catalog}</a></td><td><i>{esc(s.taxon)}</i></td><td>{esc(s.collector)} '
            f"{s.number}</td><td>{s.collected_text}</td></tr>"
            for s in specimens_of(item)
        )
        preprint = ""
        for copy in self.testbed.copies_of(item):
            if copy.site != item.site:
                where = self.links.on_site(copy.site, copy.path)
                preprint = (
                    f'<tr><th>Preprint</th><td>First announced on <a href="{attr(where)}'
                    f'">{esc(self.testbed.site(copy.site).title)}</a></td></tr>'
                )
        added = date.fromisoformat(item.date) + timedelta(days=20 + _digest(item.key) % 90)
        content = (
            f'<h2>Reference #{item.key}</h2><table class="reference"><tr><th>Title</th><td>{esc(item.title)}</td></tr>'
            f"<tr><th>Authors</th><td>{esc(semicolon_authors(item.authors))}</td></tr><tr><th>Type</th><td>Journal "
            f"article</td></tr><tr><th>Journal</th><td>{esc(JOURNALS[journal_of(item.title)])}</td></tr><tr><th>"
            f"Volume</th><td>{volume}</td></tr><tr><th>Pages</th><td>{first}–{last}</td></tr><tr><th>Date published"
            f'</th><td>{date_published(item)}</td></tr><tr><th>DOI</th><td><a href="https://doi.org/{attr(item.doi)}">'
            f"{esc(item.doi)}</a></td></tr>{preprint}<tr><th>Abstract</th><td>{esc(item.abstract)}</td></tr></table>"
            f'<p><a href="{attr(item.pdf_path)}">Reprint (PDF)</a></p><h3>WHM specimens cited</h3><table class='
            f'"specimens"><tr><th>Catalog #</th><th>Taxon</th><th>Collector &amp; number</th><th>Date</th></tr>{rows}'
            f'</table><p class="stamp">Record added {added:%Y-%m-%d} by the curator.</p><p><a href="/bibliography/">'
            "Back to the bibliography</a></p>"
        )
        return self.page(title=item.title, content=content, kind="article")

    def _reprint(self, request: Request, ref: str) -> Response:
        item = self.by_ref.get(ref)
        return self.pdf(item) if item is not None else self.not_found()

    def _families(self, request: Request) -> Response:
        families = sorted({i.category for i in self.items})
        rows = "".join(
            f'<li><a href="/taxa/{url_slug(f)}/">{esc(f)}</a> ({len(TAXA.get(f, ()))} taxa)</li>' for f in families
        )
        content = (
            "<h2>Taxonomic tree</h2><p>Families with databased specimens. Follow a family to its species.</p>"
            f"<ul>{rows}</ul>"
        )
        return self.page(title="Taxonomic tree", content=content, kind="collection")

    def _family(self, request: Request, family: str) -> Response:
        name = next((f for f in TAXA if url_slug(f) == family), None)
        if name is None:
            return self.not_found()
        rows = "".join(
            f'<li><a href="{taxon_path(t, name)}"><i>{esc(t)}</i></a> ({self._count(t)} specimens)</li>'
            for t in TAXA[name]
        )
        return self.page(title=name, content=f"<h2>{esc(name)}</h2><ul>{rows}</ul>", kind="collection")

    def _count(self, taxon: str) -> int:
        return sum(s.taxon == taxon for s, _ in self.specimens.values())

    def _taxon(self, request: Request, family: str, taxon: str) -> Response:
        name = next((f for f in TAXA if url_slug(f) == family), None)
        species = next((t for t in TAXA.get(name or "", ()) if url_slug(t) == taxon), None)
        if name is None or species is None:
            return self.not_found()
        held = sorted(
            ((s, cited) for s, cited in self.specimens.values() if s.taxon == species), key=lambda sc: sc[0].catalog
        )
        rows = "".join(
            f'<tr><td><a href="{s.path}">{s.catalog}</a></td><td>{esc(s.collector)} {s.number}</td><td>'
            f"{s.collected_text}</td><td>{esc(s.locality)}</td></tr>"
            for s, _ in held
        )
        papers = sorted({i.key: i for _, cited in held for i in cited}.values(), key=lambda i: i.date, reverse=True)
        literature = "".join(f'<li><a href="{attr(i.path)}">{esc(botanical_citation(i))}</a></li>' for i in papers)
        content = (
            f'<h2><i>{esc(species)}</i></h2><p>Family: <a href="/taxa/{family}/">{esc(name)}</a></p><h3>Specimens '
            f'({len(held)})</h3><table class="specimens"><tr><th>Catalog #</th><th>Collector</th><th>Date</th><th>'
            f"Locality</th></tr>{rows}</table><h3>Literature</h3><ul>{literature or '<li>None recorded.</li>'}</ul>"
        )
        return self.page(title=species, content=content, kind="listing")

    def _specimen(self, request: Request, catalog: str) -> Response:
        known = self.specimens.get(catalog)
        if known is None:
            return self.not_found("Record not found.")
        specimen, cited = known
        papers = "".join(f'<li><a href="{attr(i.path)}">{esc(botanical_citation(i))}</a></li>' for i in cited)
        content = (
            f'<h2>WHM-{specimen.family[:3].upper()} {catalog}</h2><table class="occurrence"><tr><th>Catalog #</th><td>'
            f'{catalog}</td></tr><tr><th>Taxon</th><td><a href="{taxon_path(specimen.taxon, specimen.family)}"><i>'
            f"{esc(specimen.taxon)}</i></a></td></tr><tr><th>Family</th><td>{esc(specimen.family)}</td></tr><tr><th>"
            f"Collector</th><td>{esc(specimen.collector)}</td></tr><tr><th>Number</th><td>{specimen.number}</td></tr>"
            f"<tr><th>Date</th><td>{specimen.collected_text}</td></tr><tr><th>Locality</th><td>"
            f"{esc(specimen.locality)}</td></tr><tr><th>Country</th><td>United Kingdom</td></tr><tr><th>Det.</th><td>"
            f"{esc(_COLLECTORS[(_digest(catalog) + 1) % len(_COLLECTORS)])}</td></tr></table><h3>Cited in</h3><ul>"
            f"{papers}</ul>"
        )
        return self.page(title=catalog, content=content, kind="record")

    def _collections(self, request: Request) -> Response:
        content = (
            '<h2>Collections</h2><form action="/collections/list" method="post"><p>Select collections to search, then '
            'enter your criteria.</p><label><input type="checkbox" name="db" value="1" checked> WHM Bryophytes '
            '(58,210 records)</label><br><label><input type="checkbox" name="db" value="2" checked> WHM Vascular '
            'Plants (171,044 records)</label><br><label>Taxon <input name="taxa"></label> <button type="submit">'
            'Search</button></form><p>Or browse the <a href="/taxa/">taxonomic tree</a> or the <a href="/bibliography/'
            '">literature citing our specimens</a>.</p>'
        )
        return self.page(title="Collections", content=content, kind="collection")

    def _search(self, request: Request) -> Response:
        taxa = request.param("taxa").strip().lower()
        if request.method != "POST" or not taxa:
            return self._collections(request)
        found = sorted((s for s, _ in self.specimens.values() if taxa in s.taxon.lower()), key=lambda s: s.catalog)
        rows = "".join(f'<li><a href="{s.path}">{s.catalog}</a> <i>{esc(s.taxon)}</i></li>' for s in found)
        content = f"<h2>Specimen list</h2><p>{len(found)} records</p><ul>{rows}</ul>"
        return self.page(title="Specimen list", content=content, kind="search")
