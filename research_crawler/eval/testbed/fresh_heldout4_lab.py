"""HELD OUT, fresh (fourth batch): the Coastal Dynamics Group's website (see `fresh_heldout4.py`; do not read or
tune anything to it). A research group's own site: one long publications page grouped by year with anchors, each
entry a citation string whose DOI points to another host; a details page per paper (abstract, BibTeX, "Mar 12,
2024") answering with and without its trailing slash; members' pages that link the slashless copy.
"""

from __future__ import annotations

import re
from collections import Counter
from datetime import date
from typing import ClassVar

from research_crawler.eval.testbed.decoys import DecoyKind
from research_crawler.eval.testbed.fresh_heldout4 import LAB_VENUES
from research_crawler.eval.testbed.markup import MONTHS, attr, document, esc, meta_property, url_slug
from research_crawler.eval.testbed.models import Item
from research_crawler.eval.testbed.site_app import Request, Response, Route, SiteApp

__all__ = ["Fresh4LabSite", "citation", "group_members", "short_date"]

_FOUNDED = 2016


def short_date(day: str) -> str:
    """'2024-03-12' → 'Mar 12, 2024', as the site's theme prints dates."""
    parsed = date.fromisoformat(day)
    return f"{MONTHS[parsed.month - 1][:3]} {parsed.day}, {parsed.year}"


def _initials(name: str) -> str:
    parts = name.split()
    return f"{parts[-1]}, {' '.join(p[0] + '.' for p in parts[:-1])}"


def citation(item: Item, venue: str) -> str:
    """The APA-like citation string the group writes (plain text): 'Surname, I., & Surname, I. (2024). Title. Venue.'"""
    names = [_initials(a) for a in item.authors]
    joined = names[0] if len(names) == 1 else ", ".join(names[:-1]) + ", & " + names[-1]
    volume = item.year - 2010
    pages = f"{int(item.date[5:7]) * 7}–{int(item.date[5:7]) * 7 + 11 + len(item.title) % 9}"
    return f"{joined} ({item.year}). {item.title}. {venue}, {volume}({int(item.date[5:7]) // 4 + 1}), {pages}."


def group_members(items: list[Item]) -> list[tuple[str, str]]:
    """(name, role) of the group's members: the most frequent author heads it, the next ones are its researchers."""
    counts = Counter(a for i in items for a in i.authors)
    ranked = [name for name, n in counts.most_common() if n >= 2]
    roles = ["Group leader", "Senior researcher", "Postdoctoral researcher", "PhD student", "PhD student"]
    return [(name, roles[min(n, len(roles) - 1)]) for n, name in enumerate(ranked[:6])]


class Fresh4LabSite(SiteApp):
    """A research group's website: citation strings on one long page by year, details pages, member pages."""

    decoy_paths: ClassVar[dict[str, DecoyKind]] = {"/contact/": "contact", "/join/": "about"}

    def routes(self) -> list[Route]:
        return [
            (re.compile(r"/"), self._home),
            (re.compile(r"/research/"), self._research),
            (re.compile(r"/people/"), self._people),
            (re.compile(r"/people/(?P<slug>[a-z0-9-]+)/"), self._member),
            (re.compile(r"/publications/"), self._publications),
            (re.compile(r"/publications/(?P<slug>[a-z0-9-]+)/?"), self._details),
            (re.compile(r"/files/(?P<slug>[a-z0-9-]+)\.pdf"), self._file),
            (re.compile(r"/teaching/"), self._teaching),
        ]

    def robots_txt(self) -> str:
        return "User-agent: *\nDisallow: /wp-admin/\nDisallow: /drafts/\n"

    def sample_paths(self) -> dict[str, str]:
        item = self.items[0]
        member = url_slug(group_members(self.items)[0][0])
        return {"home": "/", "research": "/research/", "people": "/people/", "member": f"/people/{member}/",
                "publications": "/publications/", "details": item.path, "details-slashless": item.path.rstrip("/"),
                "teaching": "/teaching/"}  # fmt: skip

    def page(self, *, title: str, content: str, kind: str, status: int = 200, head: str = "") -> Response:
        body = (
            f'<header class="navbar"><a class="navbar-brand" href="/">{esc(self.spec.title)}</a><ul class="nav">'
            '<li><a href="/research/">Research</a></li><li><a href="/people/">People</a></li>'
            '<li><a href="/publications/">Publications</a></li><li><a href="/teaching/">Teaching</a></li>'
            '<li><a href="/join/">Join us</a></li><li><a href="/contact/">Contact</a></li></ul></header>\n'
            f'<main class="container">{content}</main>\n'
            f"<footer>© 2026 {esc(self.spec.title)} · {esc(self.spec.tagline)} · "
            "Published with Hugo</footer>"
        )
        return Response.html(document(title=f"{title} | {self.spec.title}", head=head, body=body), kind=kind,
                             status=status)  # fmt: skip

    # ------------------------------------------------------------------ venues

    def _journal_copy(self, item: Item) -> Item | None:
        return next((c for c in self.testbed.copies_of(item) if c.site != item.site), None)

    def _venue(self, item: Item) -> str:
        copy = self._journal_copy(item)
        if copy is not None:
            return self.testbed.site(copy.site).title
        code = (item.doi or "").split("/", 1)[-1].split(".")[0]
        return next((title for c, title in LAB_VENUES if c == code), LAB_VENUES[0][1])

    def _entry(self, item: Item, details: str) -> str:
        doi = f"https://doi.org/{item.doi}"
        return (
            f'<li class="pub">{esc(citation(item, self._venue(item)))} <a href="{attr(doi)}">{esc(doi)}</a> '
            f'<span class="links">[<a href="{attr(details)}">Details</a>] [<a href="{attr(item.pdf_path)}">PDF</a>]'
            "</span></li>"
        )

    # ------------------------------------------------------------------ pages

    def _home(self, request: Request) -> Response:
        newest = self.items[:3]
        news = "".join(
            f'<li><span class="date">{short_date(i.date)}</span> New paper out: '
            f'<a href="{attr(i.path)}">{esc(i.title)}</a></li>'
            for i in newest
        )
        content = (
            f"<h1>{esc(self.spec.title)}</h1><p>We study how sandy coasts, dunes and barrier islands change from "
            "storm to decade, with field surveys, remote sensing and numerical models. The group was founded in "
            f"{_FOUNDED} at the {esc(self.spec.tagline.split(', ')[-1])}.</p><h2>News</h2><ul>{news}"
            "<li>We are hiring: a PhD position in nearshore modelling.</li></ul>"
            '<p><a href="/publications/">All publications</a></p>'
        )
        return self.page(title="Home", content=content, kind="home")

    def _research(self, request: Request) -> Response:
        themes = "".join(
            f"<h2>{esc(name)}</h2><p>Field campaigns and models of how our coasts respond to storms and sea-level "
            f'rise. See <a href="/publications/#y{self.items[0].year}">recent publications</a>.</p>'
            for name in dict.fromkeys(self.spec.categories.values())
        )
        return self.page(title="Research", content=f"<h1>Research</h1>{themes}", kind="research")

    def _people(self, request: Request) -> Response:
        rows = "".join(
            f'<li><a href="/people/{url_slug(name)}/">{esc(name)}</a>, {esc(role)}</li>'
            for name, role in group_members(self.items)
        )
        content = f"<h1>People</h1><ul class=\"people\">{rows}</ul><h2>Alumni</h2><p>Former members are listed in " \
                  "our annual reports.</p>"  # fmt: skip
        return self.page(title="People", content=content, kind="people")

    def _member(self, request: Request, slug: str) -> Response:
        member = next(((n, r) for n, r in group_members(self.items) if url_slug(n) == slug), None)
        if member is None:
            return self.not_found()
        name, role = member
        theirs = [i for i in self.items if name in i.authors]
        listed = "".join(
            f'<li><a href="{attr(i.path.rstrip("/"))}">{esc(i.title)}</a> ({i.year})</li>' for i in theirs[:8]
        )
        content = (
            f'<h1>{esc(name)}</h1><p class="role">{esc(role)}</p><p>{esc(name.split()[0])} works on shoreline '
            f"change and sediment transport.</p><h2>Selected publications</h2><ul>{listed}</ul>"
        )
        return self.page(title=name, content=content, kind="member")

    def _publications(self, request: Request) -> Response:
        years = sorted({i.year for i in self.items}, reverse=True)
        jump = " · ".join(f'<a href="#y{y}">{y}</a>' for y in years)
        sections = "".join(
            f'<h2 id="y{y}">{y}</h2><ol reversed>'
            f"{''.join(self._entry(i, i.path) for i in self.items if i.year == y)}</ol>"
            for y in years
        )
        content = (
            f"<h1>Publications</h1><p>Peer-reviewed articles by members of the group, newest first. Names of "
            f'group members in bold in the printed list. Jump to: {jump}</p><div class="publications">{sections}'
            "</div>"
        )
        return self.page(title="Publications", content=content, kind="publications")

    def _details(self, request: Request, slug: str) -> Response:
        item = self.item_at(f"/publications/{slug}/")
        if item is None:
            return self.not_found()
        members = {name for name, _ in group_members(self.items)}
        authors = ", ".join(
            f'<a href="/people/{url_slug(a)}/">{esc(a)}</a>' if a in members else esc(a) for a in item.authors
        )
        venue = self._venue(item)
        copy = self._journal_copy(item)
        record = (
            f'<p>Version of record: <a href="{attr(self.links.on_site(copy.site, copy.path))}">{esc(venue)}</a>'
            "</p>" if copy else ""
        )  # fmt: skip
        first = item.authors[0].split()[-1].lower()
        bibtex = (
            f"@article{{{first}{item.year}{url_slug(item.title).split('-')[0]},\n"
            f"  title   = {{{item.title}}},\n"
            f"  author  = {{{' and '.join(', '.join(reversed(a.rsplit(' ', 1))) for a in item.authors)}}},\n"
            f"  journal = {{{venue}}},\n  year    = {{{item.year}}},\n  doi     = {{{item.doi}}}\n}}"
        )
        content = (
            f'<div class="pub-header"><h1>{esc(item.title)}</h1><p class="authors">{authors}</p>'
            f'<p class="meta">{short_date(item.date)} · <em>{esc(venue)}</em></p></div>'
            f'<p><a class="btn" href="{attr(item.pdf_path)}">PDF</a> '
            f'<a class="btn" href="https://doi.org/{attr(item.doi)}">DOI</a></p>{record}'
            f'<h2>Abstract</h2><p>{esc(item.abstract)}</p><h2>Cite</h2><pre class="bibtex">{esc(bibtex)}</pre>'
        )
        head = "\n".join(
            [
                meta_property("og:title", item.title),
                meta_property("og:description", item.abstract[:160]),
                meta_property("og:type", "website"),
                meta_property("og:site_name", self.spec.title),
            ]
        )
        return self.page(title=item.title, content=content, kind="details", head=head)

    def _file(self, request: Request, slug: str) -> Response:
        item = self.item_at(f"/publications/{slug}/")
        return self.pdf(item) if item else self.not_found()

    def _teaching(self, request: Request) -> Response:
        content = (
            "<h1>Teaching</h1><ul><li>GEOG 2140 Coastal Processes (autumn)</li><li>GEOG 3320 Field Methods in "
            "Geomorphology (spring, with a week on the coast)</li><li>MSc supervision: ask any group member.</li>"
            "</ul>"
        )
        return self.page(title="Teaching", content=content, kind="teaching")
