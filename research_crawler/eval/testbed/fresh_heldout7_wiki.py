"""HELD OUT, fresh (seventh batch): the Oksvik Lab Wiki, built as MediaWiki lab sites are (see `fresh_heldout7.py`;
do not read or tune anything to it). `/` redirects to the main page; the Publications page is generated from the
lab's BibTeX file: the three newest years, entries within a year in key order, older years on subpages, invited
talks after the papers; each paper has a page named by its BibTeX key whose infobox holds the title, authors and the
date (in English, ISO or German, as its writer kept it) and whose BibTeX is shown; category pages list page names.
Edit, history, printable and special pages are forbidden by robots.txt; talk pages are mostly red links.
"""

from __future__ import annotations

import re
from datetime import date
from typing import ClassVar

from research_crawler.eval.testbed.decoys import DecoyKind
from research_crawler.eval.testbed.markup import MONTHS, attr, document, esc, long_date
from research_crawler.eval.testbed.models import Item
from research_crawler.eval.testbed.site_app import Request, Response, Route, SiteApp

__all__ = ["GERMAN_MONTHS", "RECENT_YEARS", "TALKS", "Fresh7WikiSite", "bibtex", "citation", "written_date"]

RECENT_YEARS = 3
GERMAN_MONTHS = ("Januar", "Februar", "März", "April", "Mai", "Juni", "Juli", "August", "September", "Oktober",
                 "November", "Dezember")  # fmt: skip
_VENUES = ("Quaternary Science Reviews", "Molecular Ecology Resources", "The Holocene", "Environmental DNA",
           "Journal of Paleolimnology")  # fmt: skip
#: Invited talks the BibTeX file lists after the papers (not papers): (year, speaker, title, where).
TALKS = (
    (2025, "Oksvik, M.", "What lake mud remembers: ancient DNA and the last 12,000 years", "Nordic Geology Days"),
    (2024, "Oksvik, M.", "Sedimentary DNA for beginners: coring, clean labs and pitfalls", "PAGES Meeting"),
    (2023, "Brandvold, K.", "DNA from the bottom of the lake: a public lecture", "Bergen Science Night"),
)  # fmt: skip


def _initials(name: str) -> str:
    given, _, surname = name.rpartition(" ")
    return f"{surname}, {given[:1]}."


def _venue(item: Item) -> str:
    return _VENUES[sum(map(ord, item.key)) % len(_VENUES)]


def written_date(item: Item) -> str:
    """The paper's date as its page's writer kept it: '12 March 2024', '2024-03-12' or '12. März 2024'."""
    style = sum(map(ord, item.key)) % 3
    day = date.fromisoformat(item.date)
    if style == 0:
        return long_date(item.date)
    if style == 1:
        return item.date
    return f"{day.day}. {GERMAN_MONTHS[day.month - 1]} {day.year}"


def citation(item: Item) -> str:
    """The entry as the BibTeX extension writes it: 'Surname, I., … and Surname, J. (2024). Title. Venue.'"""
    names = [_initials(a) for a in item.authors]
    authors = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
    return f"{authors} ({item.year}). {item.title}. {_venue(item)}."


def bibtex(item: Item) -> str:
    authors = " and ".join(f"{a.rpartition(' ')[2]}, {a.rpartition(' ')[0]}" for a in item.authors)
    month = MONTHS[int(item.date[5:7]) - 1][:3].lower()
    return (
        f"@article{{{item.key},\n  title   = {{{item.title}}},\n  author  = {{{authors}}},\n"
        f"  journal = {{{_venue(item)}}},\n  year    = {{{item.year}}},\n  month   = {month}\n}}"
    )


def _by_key(item: Item) -> str:
    return item.key


def _entry(item: Item) -> str:
    """A publication list's entry: the citation with its title linked to the paper's page, PDF and BibTeX links."""
    linked = f'<a href="{attr(item.path)}">{esc(item.title)}</a>'
    text = esc(citation(item)).replace(esc(item.title), linked, 1)
    return (
        f'<li id="{item.key}">{text} [<a href="{attr(item.pdf_path)}">PDF</a>] '
        f'[<a href="{attr(item.path)}#BibTeX">BibTeX</a>]</li>'
    )


class Fresh7WikiSite(SiteApp):
    """A lab's MediaWiki: main page, a BibTeX-generated publication list, one page per paper, categories."""

    decoy_paths: ClassVar[dict[str, DecoyKind]] = {"/wiki/Help:Contents": "help",
                                                   "/wiki/Oksvik_Lab_Wiki:Privacy_policy": "privacy",
                                                   "/wiki/Oksvik_Lab_Wiki:About": "about"}  # fmt: skip

    def routes(self) -> list[Route]:
        return [
            (re.compile(r"/"), lambda request: Response.redirect("/wiki/Main_Page", status=301)),
            (re.compile(r"/wiki/Main_Page"), self._main),
            (re.compile(r"/wiki/Publications"), self._publications),
            (re.compile(r"/wiki/Publications/(?P<year>\d{4})"), self._publications),
            (re.compile(r"/wiki/Paper:(?P<key>[a-z]+\d+)"), self._paper),
            (re.compile(r"/wiki/Category:(?P<name>[A-Za-z0-9_]+)"), self._category),
            (re.compile(r"/wiki/People"), self._people),
            (re.compile(r"/images/[0-9a-f]/[0-9a-f]{2}/(?P<name>[a-z0-9]+)\.pdf"), self._file),
            (re.compile(r"/index\.php"), self._action),
            (re.compile(r"/wiki/Special:.*"), self._special),
        ]

    def robots_txt(self) -> str:
        return "User-agent: *\nDisallow: /index.php?\nDisallow: /wiki/Special:\nDisallow: /wiki/Talk:\n"

    def sample_paths(self) -> dict[str, str]:
        item = self.items[0]
        return {"main": "/wiki/Main_Page", "publications": "/wiki/Publications", "paper": item.path,
                "category": "/wiki/Category:Publications", "people": "/wiki/People"}  # fmt: skip

    def page(self, *, title: str, content: str, kind: str, status: int = 200, head: str = "") -> Response:
        name = title.replace(" ", "_")
        body = (
            '<div id="mw-panel"><a class="mw-wiki-logo" href="/wiki/Main_Page" title="Visit the main page"></a><ul>'
            '<li><a href="/wiki/Main_Page">Main page</a></li><li><a href="/wiki/Special:RecentChanges">Recent '
            'changes</a></li><li><a href="/wiki/Special:Random">Random page</a></li><li><a href="/wiki/Help:Contents"'
            ">Help</a></li></ul><h3>Tools</h3><ul>"
            f'<li><a href="/wiki/Special:WhatLinksHere/{attr(name)}">What links here</a></li>'
            f'<li><a href="/index.php?title={attr(name)}&amp;printable=yes">Printable version</a></li></ul></div>\n'
            f'<div id="p-views"><a href="/wiki/{attr(name)}">Page</a> <a class="new" href="/wiki/Talk:{attr(name)}">'
            f'Discussion</a> <a href="/index.php?title={attr(name)}&amp;action=edit">Edit</a> '
            f'<a href="/index.php?title={attr(name)}&amp;action=history">View history</a></div>\n'
            '<form action="/index.php" id="searchform"><input type="hidden" name="title" value="Special:Search">'
            '<input name="search" placeholder="Search Oksvik Lab Wiki"></form>\n'
            f'<div id="content" class="mw-body"><h1 id="firstHeading">{esc(title)}</h1>'
            f'<div id="bodyContent" class="mw-body-content">{content}</div></div>\n'
            '<div id="footer">This page was last edited on 3 November 2026. <a href="/wiki/Oksvik_Lab_Wiki:'
            'Privacy_policy">Privacy policy</a> · <a href="/wiki/Oksvik_Lab_Wiki:About">About Oksvik Lab Wiki</a> · '
            "Powered by MediaWiki</div>"
        )
        html = document(title=f"{title} - {self.spec.title}", head=head, body=body, body_class="mediawiki skin-vector")
        return Response.html(html, kind=kind, status=status)

    def _main(self, request: Request) -> Response:
        content = (
            f"<p>Welcome to the <b>{esc(self.spec.title)}</b>, the internal and public wiki of the "
            f'{esc(self.spec.tagline.lower())} at Oksvik.</p><ul><li><a href="/wiki/People">People</a></li>'
            '<li><a href="/wiki/Publications">Publications</a> (generated from <code>publications.bib</code>)</li>'
            '<li><a href="/wiki/Category:Publications">All paper pages</a></li></ul>'
            "<p>Lab meeting: Thursdays 10:00, room B-214. Coring trip sign-up is on the board.</p>"
        )
        return self.page(title="Main Page", content=content, kind="home")

    def _years(self) -> list[int]:
        return sorted({i.year for i in self.items}, reverse=True)

    def _publications(self, request: Request, year: str = "") -> Response:
        years = self._years()
        shown = [int(year)] if year else years[:RECENT_YEARS]
        if year and (int(year) not in years or int(year) in years[:RECENT_YEARS]):
            return self.not_found("There is currently no text in this page.")
        sections = ""
        for each in shown:
            entries = "".join(_entry(i) for i in sorted((i for i in self.items if i.year == each), key=_by_key))
            sections += f'<h2><span class="mw-headline" id="{each}">{each}</span></h2><ol>{entries}</ol>'
        older = "".join(f'<li><a href="/wiki/Publications/{y}">Publications/{y}</a></li>' for y in years[RECENT_YEARS:])
        talks = "".join(
            f"<li>{esc(who)} ({y}). {esc(title)}. Invited talk, {esc(where)}.</li>"
            for y, who, title, where in TALKS
            if not year or y == int(year)
        )
        content = (
            "<p><i>This list is generated from <code>publications.bib</code> by the BibTeX extension; do not edit "
            "it by hand.</i></p>"
            + sections
            + (f"<h2>Older publications</h2><ul>{older}</ul>" if not year and older else "")
            + (f"<h2>Invited talks</h2><ul>{talks}</ul>" if talks else "")
        )
        return self.page(title=f"Publications/{year}" if year else "Publications", content=content,
                         kind="publications")  # fmt: skip

    def _paper(self, request: Request, key: str) -> Response:
        item = self.item_at(request.path)
        if item is None:
            return self.not_found("There is currently no text in this page.")
        german = sum(map(ord, item.key)) % 3 == 2
        labels = ("Titel", "Autoren", "Zeitschrift", "Erschienen") if german else ("Title", "Authors", "Journal",
                                                                                  "Published")  # fmt: skip
        rows = (item.title, "; ".join(item.authors), _venue(item), written_date(item))
        infobox = "".join(
            f"<tr><th>{label}</th><td>{esc(value)}</td></tr>" for label, value in zip(labels, rows, strict=True)
        )
        topic = "Sedimentary_DNA" if not item.topic.endswith("-other") else "Collaborations"
        content = (
            f'<table class="infobox">{infobox}<tr><td colspan="2"><a href="{attr(item.pdf_path)}">PDF</a></td></tr>'
            f'</table><h2><span class="mw-headline" id="{"Zusammenfassung" if german else "Abstract"}">'
            f"{'Zusammenfassung' if german else 'Abstract'}</span></h2><p>{esc(item.abstract)}</p>"
            f'<h2><span class="mw-headline" id="BibTeX">BibTeX</span></h2><pre>{esc(bibtex(item))}</pre>'
            f'<div id="catlinks">Categories: <a href="/wiki/Category:Publications">Publications</a> | '
            f'<a href="/wiki/Category:Publications_{item.year}">Publications {item.year}</a> | '
            f'<a href="/wiki/Category:{topic}">{topic.replace("_", " ")}</a></div>'
        )
        return self.page(title=f"Paper:{item.key}", content=content, kind="paper")

    def _category(self, request: Request, name: str) -> Response:
        chosen = {
            "Publications": self.items,
            "Sedimentary_DNA": [i for i in self.items if not i.topic.endswith("-other")],
            "Collaborations": [i for i in self.items if i.topic.endswith("-other")],
        }.get(name) or [i for i in self.items if name == f"Publications_{i.year}"]
        if not chosen:
            return self.not_found("There is currently no text in this page.")
        names = sorted(f"Paper:{i.key}" for i in chosen)
        rows = "".join(f'<li><a href="/wiki/{n}">{n}</a></li>' for n in names)
        content = (
            f'<h2>Pages in category "{esc(name.replace("_", " "))}"</h2><p>The following {len(names)} pages are in '
            f"this category, out of {len(names)} total.</p><ul>{rows}</ul>"
        )
        return self.page(title=f"Category:{name}", content=content, kind="category")

    def _people(self, request: Request) -> Response:
        content = (
            "<h2>Group leader</h2><p>Margit Oksvik</p><h2>Postdocs</h2><p>Kjetil Brandvold, Ana Ferreira-Lindqvist"
            '</p><h2>Alumni</h2><p>See <a href="/wiki/Publications">Publications</a> for theses.</p>'
        )
        return self.page(title="People", content=content, kind="people")

    def _file(self, request: Request, name: str) -> Response:
        item = next((i for i in self.items if i.pdf_path == request.path), None)
        return self.not_found() if item is None else self.pdf(item)

    def _action(self, request: Request) -> Response:
        title = request.param("title", "Main_Page")
        if request.param("action") == "edit":
            content = f"<p>You do not have permission to edit this page.</p><textarea readonly>{esc(title)}</textarea>"
            return self.page(title=f"View source for {title}", content=content, kind="edit", status=403)
        return self.page(title=title.replace("_", " "), content="<p>Revision history.</p>", kind="action")

    def _special(self, request: Request) -> Response:
        content = "<p>Recent changes to this wiki: the Publications page was regenerated from publications.bib.</p>"
        return self.page(title=request.path.rsplit("/", 1)[-1], content=content, kind="special")
