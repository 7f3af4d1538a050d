"""HELD OUT, fresh (tenth batch): CSBib, a computer-science bibliography built as DBLP is (see `fresh_heldout10.py`;
do not read or tune anything to it). Persons are browsed by the first letter of their surname; a person's page lists
their works newest year first, numbered [j]ournal and [c]onference, each with its co-authors linked, its venue, an
"electronic edition" link and an export menu; two people of one name are told apart by a number ("0001", "0002"),
the second holding only editorships of proceedings. Venues are browsed as workshops by year and journals by volume.
A record page per work gives its citation, the abstract only when the bibliography knows it, the year (no day), the
electronic editions (for works the discovery service holds, its page) and a "last updated" stamp of the record.
BibTeX is served beside each record; RIS and XML exports and the search are forbidden by robots.txt.
"""

from __future__ import annotations

import re
import zlib
from dataclasses import dataclass
from typing import ClassVar

from research_crawler.eval.testbed.decoys import DecoyKind
from research_crawler.eval.testbed.full_text import search_items
from research_crawler.eval.testbed.markup import attr, document, esc
from research_crawler.eval.testbed.models import Item
from research_crawler.eval.testbed.site_app import Request, Response, Route, SiteApp

__all__ = ["Fresh10IndexSite", "Venue", "homonyms", "person_id", "venue_of"]


@dataclass(frozen=True)
class Venue:
    """A workshop (volumes by year) or a journal (volumes numbered from its first year)."""

    acronym: str
    name: str
    short: str
    journal: bool
    first_year: int = 0

    @property
    def path(self) -> str:
        return f"/db/{'journals' if self.journal else 'conf'}/{self.acronym}/"

    def volume(self, year: int) -> str:
        return str(year - self.first_year + 1) if self.journal else str(year)

    def toc(self, year: int) -> str:
        return f"{self.path}{self.acronym}{self.volume(year)}.html"


#: Each topic's workshop and journal (near misses go to venues of their own).
_VENUES: dict[str, tuple[Venue, Venue]] = {
    "repair": (
        Venue("apr", "International Workshop on Automated Program Repair", "APR@ICSE", False),
        Venue("ese", "Empirical Software Engineering", "Empir. Softw. Eng.", True, 1996),
    ),
    "federated": (
        Venue("fledge", "Workshop on Federated Learning at the Edge", "FLEdge", False),
        Venue("tmc", "IEEE Transactions on Mobile Computing", "IEEE Trans. Mob. Comput.", True, 2002),
    ),
    "other": (
        Venue("siss", "Symposium on Information Systems and Society", "SISS", False),
        Venue("jais", "Journal of Applied Information Science", "J. Appl. Inf. Sci.", True, 2009),
    ),
}


def venue_of(item: Item) -> Venue:
    """The venue a record appeared in: its topic's workshop or journal, by its key."""
    pair = _VENUES.get(item.topic, _VENUES["other"])
    return pair[zlib.crc32(item.key.encode()) % 2]


def person_id(name: str) -> str:
    """A person's pid path: '/pid/123/4567.html' (the number before the slash groups people, as DBLP's do)."""
    code = zlib.crc32(name.encode("utf-8"))
    return f"/pid/{code % 300}/{code % 9973:04d}.html"


def homonyms(items: list[Item]) -> dict[str, str]:
    """Authors who share their name with another person: each topic's most frequent author, and the pid of the
    namesake (numbered 0002), who only edited proceedings."""
    found: dict[str, str] = {}
    for topic in sorted({i.topic for i in items if not i.topic.endswith("-other")}):
        counts: dict[str, int] = {}
        for item in (i for i in items if i.topic == topic):
            for author in item.authors:
                counts[author] = counts.get(author, 0) + 1
        lead = min(counts, key=lambda a: (-counts[a], a))
        found[lead] = person_id(f"{lead} 0002")
    return found


def _knows_abstract(item: Item) -> bool:
    return zlib.crc32(item.title.encode("utf-8")) % 3 != 0


class Fresh10IndexSite(SiteApp):
    """A bibliography: persons by letter, person pages, venues by year and volume, records, BibTeX."""

    decoy_paths: ClassVar[dict[str, DecoyKind]] = {"/faq/": "help", "/imprint/": "about", "/privacy/": "privacy"}

    def routes(self) -> list[Route]:
        self.by_key = {i.key: i for i in self.items}
        self.homonyms = homonyms(self.items)
        self.people: dict[str, str] = {}  # pid path → display name
        for item in self.items:
            for author in item.authors:
                self.people[person_id(author)] = self._display(author)
        for lead, pid in self.homonyms.items():
            self.people[pid] = f"{lead} 0002"
        self.venues = {v.acronym: v for pair in _VENUES.values() for v in pair}
        return [
            (re.compile(r"/"), self._home),
            (re.compile(r"/pers/"), self._letters),
            (re.compile(r"/pers/(?P<letter>[a-z])/"), self._letter),
            (re.compile(r"/pid/\d+/\d+\.html"), self._person),
            (re.compile(r"/rec/(?P<key>[A-Za-z0-9]+)\.html"), self._record),
            (re.compile(r"/rec/(?P<key>[A-Za-z0-9]+)\.bib"), self._bibtex),
            (re.compile(r"/export/(?P<key>[A-Za-z0-9]+)\.(?P<fmt>ris|xml)"), self._export),
            (re.compile(r"/ee/(?P<key>[A-Za-z0-9]+)\.pdf"), self._pdf),
            (re.compile(r"/db/(?P<kind>conf|journals)/"), self._venues),
            (re.compile(r"/db/(?P<kind>conf|journals)/(?P<acr>[a-z]+)/"), self._venue),
            (re.compile(r"/db/(?P<kind>conf|journals)/(?P<acr>[a-z]+)/(?P=acr)(?P<vol>\d+)\.html"), self._toc),
            (re.compile(r"/search"), self._search),
        ]

    def robots_txt(self) -> str:
        return "User-agent: *\nDisallow: /search\nDisallow: /export/\n"

    def sample_paths(self) -> dict[str, str]:
        item = self.items[0]
        venue = venue_of(item)
        return {"home": "/", "persons": "/pers/", "letter": f"/pers/{item.authors[0].split()[-1][0].lower()}/",
                "person": person_id(item.authors[0]), "record": item.path, "bibtex": f"/rec/{item.key}.bib",
                "venues": "/db/conf/", "venue": venue.path, "toc": venue.toc(item.year)}  # fmt: skip

    def page(self, *, title: str, content: str, kind: str, status: int = 200, head: str = "") -> Response:
        body = (
            '<header id="banner"><a href="/"><img src="/img/logo.svg" alt="CSBib logo"> computer science '
            'bibliography</a><form action="/search" method="get"><input name="q" placeholder="search CSBib">'
            "<button>search</button></form></header>\n"
            '<nav id="browse"><ul><li><a href="/pers/">Persons</a></li><li><a href="/db/conf/">Conferences and '
            'Workshops</a></li><li><a href="/db/journals/">Journals</a></li><li><a href="/faq/">FAQ</a></li></ul>'
            f'</nav>\n<main id="main">{content}</main>\n'
            '<footer id="footer"><p>CSBib is a non-profit service. Data released under the CC0 1.0 licence. '
            '<a href="/imprint/">Imprint</a> · <a href="/privacy/">Privacy</a></p></footer>'
        )
        return Response.html(document(title=f"CSBib: {title}", head=head, body=body), kind=kind, status=status)

    # ------------------------------------------------------------------ names and entries

    def _display(self, name: str) -> str:
        return f"{name} 0001" if name in self.homonyms else name

    def _byline(self, item: Item, me: str = "") -> str:
        names = []
        for author in item.authors:
            shown = esc(self._display(author))
            names.append(
                f'<span class="this-person">{shown}</span>'
                if author == me
                else f'<a href="{person_id(author)}"><span itemprop="name">{shown}</span></a>'
            )
        return ", ".join(names) + ":"

    def _citation(self, item: Item) -> str:
        venue = venue_of(item)
        first = 1 + zlib.crc32(item.key.encode()) % 180
        where = f"{item.year}" if not venue.journal else f"{venue.volume(item.year)}({(item.date[5:7] > '06') + 1})"
        text = f"{venue.short} {where}: {first}-{first + 8 + len(item.title) % 12}"
        if venue.journal:
            text += f" ({item.year})"
        return f'<a href="{attr(venue.toc(item.year))}#{attr(item.key)}">{esc(text)}</a>'

    def _editions(self, item: Item) -> str:
        links = [f'<a href="/ee/{attr(item.key)}.pdf">electronic edition (open access)</a>']
        for copy in self.testbed.copies_of(item):
            if copy.site != self.spec.name:
                links.insert(0, f'<a href="{attr(self.links.on_site(copy.site, copy.path))}">electronic edition via '
                                "Lumen Scholar</a>")  # fmt: skip
        return " ".join(links)

    def _entry(self, item: Item, number: str, me: str = "") -> str:
        return (
            f'<li class="entry {"article" if venue_of(item).journal else "inproceedings"}" id="{attr(item.key)}">'
            f'<div class="nr">[{number}]</div><nav class="publ"><ul><li class="drop-down"><div class="head">'
            f'{self._editions(item)}</div></li><li class="drop-down"><div class="body">export record: '
            f'<a href="/rec/{attr(item.key)}.bib">BibTeX</a> <a href="/export/{attr(item.key)}.ris">RIS</a> '
            f'<a href="/export/{attr(item.key)}.xml">XML</a></div></li><li><a href="{attr(item.path)}">'
            f'details &amp; citations</a></li></ul></nav><cite class="data">{self._byline(item, me)} '
            f'<span class="title" itemprop="name">{esc(item.title)}.</span> {self._citation(item)}</cite></li>'
        )

    # ------------------------------------------------------------------ pages

    def _home(self, request: Request) -> Response:
        newest = sorted(self.items, key=lambda i: (i.year, i.key), reverse=True)[:5]
        content = (
            "<h1>CSBib computer science bibliography</h1><p>The CSBib computer science bibliography provides open "
            "bibliographic information on major computer science journals and proceedings.</p>"
            '<h2>Browse</h2><ul><li><a href="/pers/">by person</a></li><li><a href="/db/conf/">conferences and '
            'workshops</a></li><li><a href="/db/journals/">journals</a></li></ul><h2>Recently added</h2><ul>'
            + "".join(f'<li><a href="{attr(i.path)}">{esc(i.title)}</a> ({i.year})</li>' for i in newest)
            + "</ul>"
        )
        return self.page(title="computer science bibliography", content=content, kind="home")

    def _letters(self, request: Request) -> Response:
        letters = "".join(f'<a href="/pers/{c}/">{c.upper()}</a> ' for c in "abcdefghijklmnopqrstuvwxyz")
        content = f"<h1>Browse persons</h1><p>By the first letter of the family name:</p><p>{letters}</p>"
        return self.page(title="Persons", content=content, kind="persons")

    def _letter(self, request: Request, letter: str) -> Response:
        names = sorted(self.people.items(), key=lambda row: (_family(row[1]), row[1]))
        rows = "".join(
            f'<li><a href="{pid}">{esc(_family(name))}, {esc(_given(name))}</a></li>'
            for pid, name in names
            if _family(name)[:1].lower() == letter
        )
        content = f'<h1>Persons: {letter.upper()}</h1><ul class="persons">{rows or "<li>none</li>"}</ul>'
        return self.page(title=f"Persons {letter.upper()}", content=content, kind="letter")

    def _person(self, request: Request) -> Response:
        name = self.people.get(request.path)
        if name is None:
            return self.not_found()
        plain = name.removesuffix(" 0001").removesuffix(" 0002")
        if name.endswith(" 0002"):
            return self._namesake(request.path, plain)
        works = sorted((i for i in self.items if plain in i.authors), key=lambda i: (i.year, i.key), reverse=True)
        counts = {"j": 0, "c": 0}
        blocks: list[str] = []
        for index, item in enumerate(works):
            if index == 0 or works[index - 1].year != item.year:
                blocks.append(f'<li class="year">{item.year}</li>')
            letter = "j" if venue_of(item).journal else "c"
            counts[letter] += 1
            total = sum(1 for w in works if ("j" if venue_of(w).journal else "c") == letter)
            blocks.append(self._entry(item, f"{letter}{total - counts[letter] + 1}", me=plain))
        coauthors = sorted({a for i in works for a in i.authors if a != plain}, key=_family)
        note = ""
        if plain in self.homonyms:
            note = (
                '<div class="note homonym">Not to be confused with <a href="'
                f'{self.homonyms[plain]}">{esc(plain)} 0002</a>. Disambiguation by the CSBib team.</div>'
            )
        content = (
            f'<h1>{esc(name)}</h1>{note}<div class="profile">Person information: no affiliation known</div>'
            f'<ul class="publ-list">{"".join(blocks)}</ul><h2>Coauthor Index</h2><ul class="coauthors">'
            + "".join(f'<li><a href="{person_id(a)}">{esc(self._display(a))}</a></li>' for a in coauthors)
            + "</ul>"
        )
        return self.page(title=name, content=content, kind="person")

    def _namesake(self, pid: str, plain: str) -> Response:
        editions = [
            (venue, year)
            for venue in self.venues.values()
            if not venue.journal
            for year in sorted({i.year for i in self.items if venue_of(i) == venue}, reverse=True)[:2]
        ]
        rows = "".join(
            f'<li class="entry editor"><cite>{esc(plain)} 0002, Lena Hartmann (Eds.): <span class="title">'
            f"Proceedings of the {year - 2018}th {esc(venue.name)}, {venue.short} {year}.</span> "
            f'<a href="{attr(venue.toc(year))}">{venue.short} {year}</a></cite></li>'
            for venue, year in editions[:2]
        )
        content = (
            f'<h1>{esc(plain)} 0002</h1><div class="note homonym">Not to be confused with <a href="'
            f'{person_id(plain)}">{esc(plain)} 0001</a>.</div><div class="profile">Person information: '
            f'Chamber of Industry, programme office</div><h2>Editorship</h2><ul class="publ-list">{rows}</ul>'
        )
        return self.page(title=f"{plain} 0002", content=content, kind="person")

    def _record(self, request: Request, key: str) -> Response:
        item = self.by_key.get(key)
        if item is None or item.path != request.path:
            return self.not_found()
        venue = venue_of(item)
        abstract = (
            f'<h2>Abstract</h2><p class="abstract">{esc(item.abstract)}</p>'
            if _knows_abstract(item)
            else '<p class="abstract missing">No abstract available in CSBib. Check the electronic edition.</p>'
        )
        stamp = f"{2026}-{1 + zlib.crc32(key.encode()) % 9:02d}-{3 + len(key) % 25:02d} 13:12 CEST"
        content = (
            f'<h1>{esc(item.title)}</h1><ul class="publ-list">{self._entry(item, "1")}</ul>'
            f'<div class="venue">Published in <a href="{attr(venue.path)}">{esc(venue.name)}</a>, {item.year}</div>'
            f"{abstract}<h2>Electronic edition</h2><p>{self._editions(item)}</p>"
            f'<p class="stamp">last updated on {stamp} by the CSBib team</p>'
        )
        return self.page(title=item.title, content=content, kind="record")

    def _bibtex(self, request: Request, key: str) -> Response:
        item = self.by_key.get(key)
        if item is None:
            return self.not_found()
        venue = venue_of(item)
        field = "journal" if venue.journal else "booktitle"
        text = (
            f"@{'article' if venue.journal else 'inproceedings'}{{CSBib:{key},\n  author = {{"
            + " and\n               ".join(item.authors)
            + f"}},\n  title = {{{item.title}}},\n  {field} = {{{venue.short}}},\n  year = {{{item.year}}}\n}}\n"
        )
        return Response.text(text, kind="bibtex", content_type="application/x-bibtex; charset=utf-8")

    def _export(self, request: Request, key: str, fmt: str) -> Response:
        item = self.by_key.get(key)
        if item is None:
            return self.not_found()
        return Response.text(f"TY  - GEN\nTI  - {item.title}\nPY  - {item.year}\nER  -\n", kind="export")

    def _pdf(self, request: Request, key: str) -> Response:
        item = self.by_key.get(key)
        return self.pdf(item) if item is not None else self.not_found()

    def _venues(self, request: Request, kind: str) -> Response:
        journal = kind == "journals"
        rows = "".join(
            f'<li><a href="{v.path}">{esc(v.name)} ({esc(v.short)})</a></li>'
            for v in sorted(self.venues.values(), key=lambda v: v.name)
            if v.journal == journal
        )
        heading = "Journals" if journal else "Conferences and Workshops"
        return self.page(title=heading, content=f"<h1>{heading}</h1><ul>{rows}</ul>", kind="venues")

    def _venue(self, request: Request, kind: str, acr: str) -> Response:
        venue = self.venues.get(acr)
        if venue is None or venue.journal != (kind == "journals"):
            return self.not_found()
        years = sorted({i.year for i in self.items if venue_of(i) == venue}, reverse=True)
        label = "Volume" if venue.journal else venue.short
        rows = "".join(
            f'<li><a href="{venue.toc(y)}">{label} {venue.volume(y)}{f", {y}" if venue.journal else ""}</a></li>'
            for y in years
        )
        content = f"<h1>{esc(venue.name)}</h1><ul>{rows}</ul>"
        return self.page(title=venue.name, content=content, kind="venue")

    def _toc(self, request: Request, kind: str, acr: str, vol: str) -> Response:
        venue = self.venues.get(acr)
        if venue is None or venue.journal != (kind == "journals"):
            return self.not_found()
        year = int(vol) + venue.first_year - 1 if venue.journal else int(vol)
        shown = sorted((i for i in self.items if venue_of(i) == venue and i.year == year), key=lambda i: i.date)
        if not shown:
            return self.not_found()
        if venue.journal:
            parts = [(f"Volume {vol}, Number {n}", [i for i in shown if (i.date[5:7] > "06") + 1 == n]) for n in (1, 2)]
        else:
            half = (len(shown) + 1) // 2
            parts = [("Session 1: Full Papers", shown[:half]), ("Session 2: Short Papers", shown[half:])]
        editors = [f"{lead} 0002" for lead in self.homonyms] + ["Lena Hartmann"]
        front = "" if venue.journal else f"<p>Editors: {esc(', '.join(editors))}</p>"
        sections = [
            f'<h2>{esc(head)}</h2><ul class="publ-list">'
            + "".join(self._entry(i, str(n + 1)) for n, i in enumerate(part))
            + "</ul>"
            for head, part in parts
            if part
        ]
        content = f"<h1>{esc(venue.name)}, {venue.short} {year}</h1>{front}{''.join(sections)}"
        return self.page(title=f"{venue.short} {year}", content=content, kind="toc")

    def _search(self, request: Request) -> Response:
        query = request.param("q")
        found = search_items(self.items, query) if query.strip() else []
        rows = "".join(self._entry(i, str(n + 1)) for n, i in enumerate(found[:30]))
        content = (
            f'<h1>Search results for "{esc(query)}"</h1><ul class="publ-list">{rows or "<li>no matches</li>"}</ul>'
        )
        return self.page(title="search", content=content, kind="search")


def _family(name: str) -> str:
    parts = name.removesuffix(" 0001").removesuffix(" 0002").split()
    return parts[-1]


def _given(name: str) -> str:
    plain = name.removesuffix(" 0001").removesuffix(" 0002")
    number = name[len(plain) :]
    return " ".join(plain.split()[:-1]) + number
