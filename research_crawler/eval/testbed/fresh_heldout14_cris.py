"""HELD OUT, fresh (fourteenth batch): Ashcombe University's research portal, built as Elsevier's Pure portal builds
one (see `fresh_heldout14.py`; do not read or tune anything to it). The root redirects to `/en/`; research output is
listed twenty a page ordered as Pure orders it by default (publication year, newest first, then title: never by the
day), pages linked with a zero-based `?page=`; the filters (publication year, type) carry `nofollow=true` and
robots.txt forbids them. Persons (the university's staff, A to Z) and organisations each have a research output tab
listed the same way. An output's page names its type as Pure does ("Research output: Contribution to journal ›
Article › peer-review"), its authors in order (staff linked to their profiles, external authors as initials and
surname), its organisation, the abstract, a table whose "Publication status" reads "Published - 15 Mar 2024" (some
by month only, after an "E-pub ahead of print" day), a fingerprint of concepts, the file and Google Scholar meta tags.
Editorials, commissioned reports, conference abstracts and theses sit among the articles. The review forum's
conference papers appear as conference contributions linking to their forum; the search is forbidden.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, timedelta
from typing import ClassVar

from research_crawler.eval.testbed.decoys import DecoyKind
from research_crawler.eval.testbed.full_text import search_items
from research_crawler.eval.testbed.markup import MONTHS, attr, document, esc, meta_name, url_slug
from research_crawler.eval.testbed.models import Item
from research_crawler.eval.testbed.site_app import Request, Response, Route, SiteApp

__all__ = ["PER_PAGE", "Fresh14CrisSite", "Output", "by_pure_order", "outputs", "pure_date", "staff"]

PER_PAGE = 20
ARTICLE = "Contribution to journal › Article › peer-review"
CONFERENCE = "Chapter in Book/Report/Conference proceeding › Conference contribution › peer-review"
_JOURNALS = ("Remote Sensing of Environment", "Journal of Hospital Infection", "Field Crops Research", "PLOS ONE")
#: Outputs that are not papers, in each organisation: (type, title, creator, date).
_OTHERS = (
    ("Contribution to journal › Editorial", "Editorial: welcome to the new editorial board", date(2023, 1, 9)),
    ("Book/Report › Commissioned report", "Annual research report of the unit 2024", date(2025, 2, 3)),
    ("Contribution to conference › Abstract", "Poster abstract: pilot data from the field season", date(2024, 6, 18)),
    ("Thesis › Doctoral Thesis", "Essays on the economics of public services", date(2022, 11, 30)),
    ("Contribution to journal › Comment/debate", "Reply to the letter on our sampling design", date(2025, 9, 1)),
    ("Other contribution › Other contribution", "Teaching resources for the MSc programme", date(2026, 3, 12)),
)


def _hash(text: str) -> int:
    return sum(ord(c) * (n + 7) for n, c in enumerate(text))


def pure_date(day: date, *, month_only: bool = False) -> str:
    """A date as Pure writes it: '15 Mar 2024', or 'Mar 2024' when only the month was entered."""
    month = MONTHS[day.month - 1][:3]
    return f"{month} {day.year}" if month_only else f"{day.day} {month} {day.year}"


@dataclass(frozen=True)
class Output:
    """A research output: a paper (`item`) or another output of the organisation."""

    slug: str
    title: str
    kind: str
    authors: tuple[str, ...]
    day: date
    organisation: str
    item: Item | None = None

    @property
    def path(self) -> str:
        return f"/en/publications/{self.slug}"

    @property
    def month_only(self) -> bool:
        """Entered by month, with the e-publication's day beside it: some papers of 2024 and before."""
        return self.item is not None and self.day < date(2024, 7, 1) and _hash(self.slug) % 3 == 0

    @property
    def epub(self) -> date:
        return self.day - timedelta(days=18 + _hash(self.slug) % 50)


def staff(items: list[Item]) -> set[str]:
    """The university's staff among the authors: every first author and whoever signs two papers or more."""
    counts: dict[str, int] = {}
    for item in items:
        for author in item.authors:
            counts[author] = counts.get(author, 0) + 1
    return {a for a, n in counts.items() if n > 1} | {i.authors[0] for i in items}


def outputs(items: list[Item]) -> list[Output]:
    """Every output: the papers and each organisation's other outputs (by two of its staff)."""
    people = sorted(staff(items))
    made = [
        Output(i.key, i.title, CONFERENCE if i.work else ARTICLE, i.authors, date.fromisoformat(i.date), i.category, i)
        for i in items
    ]
    for n, name in enumerate(sorted({i.category for i in items})):
        mine = sorted({a for i in items if i.category == name for a in i.authors if a in people})
        for m, (kind, title, day) in enumerate(_OTHERS):
            authors = (mine[(m + n) % len(mine)],) if mine else ("Ashcombe University",)
            made.append(Output(url_slug(f"{title} {n}"), title, kind, authors, day + timedelta(days=5 * n), name))
    return made


def by_pure_order(chosen: list[Output], ordering: str = "") -> list[Output]:
    """Pure's default order (publication year newest first, then title), or by title when asked."""
    if ordering == "title":
        return sorted(chosen, key=lambda o: o.title.lower())
    return sorted(chosen, key=lambda o: (-o.day.year, o.title.lower()))


def _person_slug(name: str) -> str:
    return url_slug(name)


class Fresh14CrisSite(SiteApp):
    """A Pure portal: research output, persons and organisations with their output tabs, output pages."""

    decoy_paths: ClassVar[dict[str, DecoyKind]] = {
        "/en/about": "about",
        "/en/privacy": "privacy",
        "/en/accessibility": "accessibility",
    }

    def routes(self) -> list[Route]:
        self.outputs = outputs(self.items)
        self.by_slug = {o.slug: o for o in self.outputs}
        self.staff = staff(self.items)
        self.people = {_person_slug(p): p for p in sorted(self.staff, key=lambda p: (p.split()[-1], p))}
        self.organisations = {url_slug(o): o for o in sorted({i.category for i in self.items})}
        return [
            (re.compile(r"/"), lambda request: Response.redirect("/en/", status=301)),
            (re.compile(r"/en/"), self._home),
            (re.compile(r"/en/publications/"), self._publications),
            (re.compile(r"/en/publications/(?P<slug>[a-z0-9-]+)"), self._output),
            (re.compile(r"/en/persons/"), self._persons),
            (re.compile(r"/en/persons/(?P<slug>[a-z0-9-]+)"), self._person),
            (re.compile(r"/en/persons/(?P<slug>[a-z0-9-]+)/publications/"), self._person_outputs),
            (re.compile(r"/en/organisations/"), self._organisations),
            (re.compile(r"/en/organisations/(?P<slug>[a-z0-9-]+)"), self._organisation),
            (re.compile(r"/en/organisations/(?P<slug>[a-z0-9-]+)/publications/"), self._organisation_outputs),
            (re.compile(r"/files/\d+/[0-9a-f]+\.pdf"), self._file),
            (re.compile(r"/en/searchAll/index/"), self._search),
        ]

    def robots_txt(self) -> str:
        return "User-agent: *\nDisallow: /*/searchAll/\nDisallow: /*nofollow=true\nDisallow: /admin/\n"

    def sample_paths(self) -> dict[str, str]:
        person, organisation = next(iter(self.people)), next(iter(self.organisations))
        return {
            "home": "/en/",
            "publications": "/en/publications/",
            "second": "/en/publications/?page=1",
            "output": self.items[0].path,
            "persons": "/en/persons/",
            "person": f"/en/persons/{person}",
            "person-outputs": f"/en/persons/{person}/publications/",
            "organisations": "/en/organisations/",
            "organisation": f"/en/organisations/{organisation}",
            "organisation-outputs": f"/en/organisations/{organisation}/publications/",
            "file": self.items[0].pdf_path,
        }

    def page(self, *, title: str, content: str, kind: str, status: int = 200, head: str = "") -> Response:
        body = (
            '<header class="header"><a class="logo" href="/en/">Ashcombe University Research Portal</a>'
            '<nav class="header-nav"><ul><li><a href="/en/">Home</a></li><li><a href="/en/persons/">Profiles</a></li>'
            '<li><a href="/en/publications/">Research output</a></li><li><a href="/en/organisations/">Research units'
            '</a></li></ul></nav><form class="search-form" action="/en/searchAll/index/" method="get">'
            '<input name="search" placeholder="Search by expertise, name or affiliation"></form></header>\n'
            f'<main id="main-content" class="page-content">{content}</main>\n'
            '<footer><a href="/en/about">About web accessibility</a> · <a href="/en/privacy">Privacy</a> · <a href="'
            '/en/accessibility">Accessibility</a> · Powered by Pure, Scopus &amp; Elsevier Fingerprint Engine™'
            "</footer>"
        )
        html = document(title=f"{title} — Ashcombe University Research Portal", head=head, body=body)
        return Response.html(html, kind=kind, status=status)

    # ------------------------------------------------------------------ listings

    def _short(self, output: Output) -> str:
        """An output as Pure's short rendering lists it: title, authors, date, journal, type."""
        names = ", ".join(self._author(a) for a in output.authors)
        where = f', In: <span class="journal">{self._journal(output)}</span>.' if output.item else "."
        return (
            f'<li class="list-result-item"><div class="result-container"><h3 class="title"><a rel="Publication" href="'
            f'{output.path}"><span>{esc(output.title)}</span></a></h3>{names}, <span class="date">'
            f"{pure_date(output.day, month_only=output.month_only)}</span>{where}"
            f'<p class="type"><span class="type_family">Research output</span>: {esc(output.kind)}</p></div></li>'
        )

    def _author(self, name: str) -> str:
        if name in self.staff:
            slug = _person_slug(name)
            return f'<a rel="Person" class="link person" href="/en/persons/{slug}"><span>{esc(name)}</span></a>'
        given, _, surname = name.rpartition(" ")
        return f"{esc(given[:1])}. {esc(surname)}"

    def _journal(self, output: Output) -> str:
        if output.item is None:
            return ""
        if output.item.work:
            return f"Proceedings of the Earth and Signal Computing Conference {output.day.year} (ESC {output.day.year})"
        return _JOURNALS[_hash(output.slug) % len(_JOURNALS)]

    def _listing(self, request: Request, chosen: list[Output], base: str, heading: str) -> str:
        ordering = request.param("ordering")
        chosen = by_pure_order(chosen, ordering)
        pages = max(1, -(-len(chosen) // PER_PAGE))
        page = request.int_param("page", 0, minimum=0, maximum=pages - 1)
        keep = f"ordering={ordering}&" if ordering else ""
        shown = chosen[page * PER_PAGE : (page + 1) * PER_PAGE]
        links = []
        if page > 0:
            links.append(f'<a class="prev" href="{attr(f"{base}?{keep}page={page - 1}")}">‹ Previous</a>')
        for n in range(pages):
            links.append(
                f"<span>{n + 1}</span>" if n == page else f'<a href="{attr(f"{base}?{keep}page={n}")}">{n + 1}</a>'
            )
        if page < pages - 1:
            links.append(f'<a class="next" href="{attr(f"{base}?{keep}page={page + 1}")}">Next ›</a>')
        years: dict[int, int] = {}
        for output in chosen:
            years[output.day.year] = years.get(output.day.year, 0) + 1
        facets = "".join(
            f'<li><a rel="nofollow" href="{base}?publicationYear={y}&amp;nofollow=true">{y} ({n})</a></li>'
            for y, n in sorted(years.items(), reverse=True)
        )
        types = "".join(
            f'<li><a rel="nofollow" href="{attr(f"{base}?type={url_slug(t)}&nofollow=true")}">{esc(t)}</a></li>'
            for t in sorted({o.kind.split(" › ")[0] for o in chosen})
        )
        return (
            f'<h2>{esc(heading)}</h2><div class="result-pages-count">{page * PER_PAGE + 1} - '
            f"{page * PER_PAGE + len(shown)} out of {len(chosen)} results</div>"
            f'<div class="ordering">Order by: <a href="{base}">Publication year</a> | <a href="{base}?ordering=title">'
            f'Title</a></div><aside class="filters"><h3>Publication year</h3><ul>{facets}</ul><h3>Type</h3><ul>{types}'
            f'</ul></aside><ul class="list-results">{"".join(self._short(o) for o in shown)}</ul>'
            f'<nav class="pages">{" ".join(links)}</nav>'
        )

    def _home(self, request: Request) -> Response:
        newest = sorted((o for o in self.outputs if o.item), key=lambda o: o.day, reverse=True)[:3]
        content = (
            '<section class="frontpage"><h1>Ashcombe University Research Portal</h1><p>Find the university\'s '
            'researchers, their research output and its research units.</p><ul class="frontpage-boxes"><li><a href="'
            f'/en/persons/">Profiles</a> {len(self.people)}</li><li><a href="/en/publications/">Research output</a> '
            f'{len(self.outputs)}</li><li><a href="/en/organisations/">Research units</a> {len(self.organisations)}'
            f'</li></ul><h2>Recent output</h2><ul class="list-results">{"".join(self._short(o) for o in newest)}</ul>'
            "</section>"
        )
        return self.page(title="Home", content=content, kind="home")

    def _publications(self, request: Request) -> Response:
        if request.param("publicationYear") or request.param("type"):
            wanted = request.param("publicationYear")
            chosen = [o for o in self.outputs if not wanted or str(o.day.year) == wanted]
        else:
            chosen = self.outputs
        content = self._listing(request, chosen, "/en/publications/", "Research output")
        return self.page(title="Research output", content=content, kind="publications")

    def _persons(self, request: Request) -> Response:
        people = list(self.people.items())
        pages = max(1, -(-len(people) // PER_PAGE))
        page = request.int_param("page", 0, minimum=0, maximum=pages - 1)
        rows = "".join(
            f'<li class="list-result-item"><h3 class="title"><a rel="Person" href="/en/persons/{slug}"><span>'
            f"{esc(name)}</span></a></h3></li>"
            for slug, name in people[page * PER_PAGE : (page + 1) * PER_PAGE]
        )
        pager = " ".join(
            f"<span>{n + 1}</span>" if n == page else f'<a href="/en/persons/?page={n}">{n + 1}</a>'
            for n in range(pages)
        )
        content = f'<h2>Profiles</h2><ul class="list-results">{rows}</ul><nav class="pages">{pager}</nav>'
        return self.page(title="Profiles", content=content, kind="persons")

    def _tabs(self, base: str, name: str, units: list[str]) -> str:
        where = "".join(f'<li><a href="/en/organisations/{url_slug(u)}">{esc(u)}</a></li>' for u in units)
        return (
            f'<h1>{esc(name)}</h1><ul class="relations organisations">{where}</ul><nav class="tabbed-navigation"><ul>'
            f'<li><a href="{base}">Overview</a></li><li><a href="{base}/publications/">Research output</a></li>'
            "</ul></nav>"
        )

    def _person(self, request: Request, slug: str) -> Response:
        name = self.people.get(slug)
        if name is None:
            return self.not_found()
        mine = [o for o in self.outputs if name in o.authors]
        units = sorted({o.organisation for o in mine})
        years = sorted({o.day.year for o in mine})
        content = (
            self._tabs(f"/en/persons/{slug}", name, units)
            + f'<div class="person-details"><p>Research activity per year: {years[0]} to {years[-1]}</p>'
            f"<p>{len(mine)} research outputs</p></div>"
        )
        return self.page(title=name, content=content, kind="person")

    def _person_outputs(self, request: Request, slug: str) -> Response:
        name = self.people.get(slug)
        if name is None:
            return self.not_found()
        mine = [o for o in self.outputs if name in o.authors]
        units = sorted({o.organisation for o in mine})
        base = f"/en/persons/{slug}"
        content = self._tabs(base, name, units) + self._listing(
            request, mine, f"{base}/publications/", "Research output"
        )
        return self.page(title=f"{name} - Research output", content=content, kind="person-outputs")

    def _organisations(self, request: Request) -> Response:
        rows = "".join(
            f'<li class="list-result-item"><h3 class="title"><a rel="Organisation" href="/en/organisations/{slug}">'
            f"<span>{esc(name)}</span></a></h3><p>Research unit</p></li>"
            for slug, name in self.organisations.items()
        )
        return self.page(
            title="Research units",
            content=f'<h2>Research units</h2><ul class="list-results">{rows}</ul>',
            kind="organisations",
        )

    def _organisation(self, request: Request, slug: str) -> Response:
        name = self.organisations.get(slug)
        if name is None:
            return self.not_found()
        content = self._tabs(f"/en/organisations/{slug}", name, []) + "<p>A research unit of Ashcombe University.</p>"
        return self.page(title=name, content=content, kind="organisation")

    def _organisation_outputs(self, request: Request, slug: str) -> Response:
        name = self.organisations.get(slug)
        if name is None:
            return self.not_found()
        base = f"/en/organisations/{slug}"
        mine = [o for o in self.outputs if o.organisation == name]
        content = self._tabs(base, name, []) + self._listing(request, mine, f"{base}/publications/", "Research output")
        return self.page(title=f"{name} - Research output", content=content, kind="organisation-outputs")

    # ------------------------------------------------------------------ one output

    def _output(self, request: Request, slug: str) -> Response:
        output = self.by_slug.get(slug)
        if output is None:
            return self.not_found()
        item = output.item
        rows = [("Original language", "English")]
        head = meta_name("citation_title", output.title)
        if item is not None:
            rows.append(("Host publication" if item.work else "Journal", esc(self._journal(output))))
            rows.append(("DOI", f'<a href="https://doi.org/{attr(item.doi)}">{esc(item.doi)}</a>'))
            head += "".join(meta_name("citation_author", ", ".join(a.rsplit(" ", 1)[::-1])) for a in item.authors)
            form = "%Y/%m" if output.month_only else "%Y/%m/%d"
            head += meta_name("citation_publication_date", output.day.strftime(form))
            head += meta_name("citation_pdf_url", self.links.absolute(item.pdf_path))
        if output.month_only:
            rows.append(("Publication status", f"E-pub ahead of print - {pure_date(output.epub)}"))
        shown = pure_date(output.day, month_only=output.month_only)
        status = f'<span class="prefix">Published - </span><span class="date">{shown}</span>'
        rows.append(("Publication status", status))
        if item is not None and item.work:
            forum = next((c for c in self.testbed.copies_of(item) if c.site != item.site), None)
            if forum is not None:
                where = self.links.on_site(forum.site, forum.path)
                rows.append(("Links", f'<a href="{attr(where)}">{esc(where)}</a>'))
        table = "".join(f"<tr><th>{label}</th><td>{value}</td></tr>" for label, value in rows)
        abstract = esc(item.abstract) if item else "No abstract available."
        concepts = "".join(f'<li class="concept">{esc(k.title())}</li>' for k in (item.keywords if item else ()))
        files = (
            f'<div class="document"><a class="link" href="{attr(item.pdf_path)}">Accepted author manuscript, 1.2 MB</a>'
            "<p>Licence: CC BY</p></div>"
            if item
            else ""
        )
        content = (
            f'<div class="rendering rendering_researchoutput"><h1><span>{esc(output.title)}</span></h1>'
            f'<p class="type"><span class="type_family">Research output</span>: {esc(output.kind)}</p>'
            f'<p class="relations persons">{", ".join(self._author(a) for a in output.authors)}</p>'
            f'<ul class="relations organisations"><li><a rel="Organisation" href="/en/organisations/'
            f'{url_slug(output.organisation)}">{esc(output.organisation)}</a></li></ul>'
            f'<div class="textblock"><h2>Abstract</h2><p>{abstract}</p></div>{files}'
            f'<table class="properties">{table}</table><section class="fingerprint"><h2>Fingerprint</h2><p>Dive into '
            f"the research topics of &#39;{esc(output.title)}&#39;. Together they form a unique fingerprint.</p>"
            f"<ul>{concepts}</ul></section></div>"
        )
        return self.page(title=output.title, content=content, kind="output", head=head)

    def _file(self, request: Request) -> Response:
        item = next((i for i in self.items if i.pdf_path == request.path), None)
        return self.pdf(item) if item is not None else self.not_found()

    def _search(self, request: Request) -> Response:
        text = request.param("search")
        found = search_items(self.items, text) if text else []
        rows = "".join(f'<li><a href="{attr(i.path)}">{esc(i.title)}</a></li>' for i in found)
        return self.page(title="Search", content=f"<h2>Search results</h2><ul>{rows}</ul>", kind="search")
